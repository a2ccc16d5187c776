"""The fixed signature benchmark: its totals change only when behaviour does.

A speed-up that keeps the rules and the random streams must leave these numbers
alone (like Stockfish's ``bench``).  The perft part is independent of move
order; the playout part also pins the order of the legal list and the random
number generator, so a change there is a behaviour change to review.
"""

from catena.benchmark import report, signature

EXPECTED = {"perft_nodes": 4813260, "playouts": 3200, "placements": 127027, "black_wins": 1612,
            "draws": 0}


def test_signature_totals_are_unchanged():
    assert signature() == EXPECTED


def test_report_prints_every_row(stubbed_bench):
    """The table's rows and columns (the README's `bench --quick`, run by
    tests/test_readme_commands.py, makes the measurements themselves)."""
    lines = []
    report(quick=True, out=lines.append)
    text = "\n".join(lines)
    for row in ("playouts/s (wall)", "playouts/s (CPU)", "placements/s (wall)", "placements/s (CPU)",
                "perft empty", "perft middle game", "position size (bytes)", "legal_moves()",
                "push()+pop()", "copy()", "signature", "MCTS+RAVE iterations/s, 1 thread",
                "MCTS+RAVE iterations/s, 2 threads", "plain UCT iterations/s", "solver nodes/s"):
        assert row in text, row
    assert lines[0].split("|")[1].strip() == "2" and lines[0].split("|")[-1].strip() == "10"
