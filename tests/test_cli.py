"""The command line as a newcomer uses it (the README's commands), driven by scripted input."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import catena


def run(args, stdin="", cwd=None, timeout=300):
    proc = subprocess.run([sys.executable, "-m", "catena", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=timeout)
    return proc


def test_play_save_show_solve(tmp_path):
    """A terminal game with bad entries, hint and undo, saved, reloaded, drawn and solved."""
    script = "\n".join(["7", "Z9", "hint", "B2", "undo", "A1"] + ["quit"]) + "\n"
    proc = run(["play", "--size", "3", "--iterations", "300", "--seed", "5", "--save", "g.catena"],
               stdin=script, cwd=tmp_path)
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    assert "Choose the komi" in out and "The engine (P2) plays" in out
    assert "Not possible: 'Z9' is not on the board" in out
    assert "The engine suggests" in out and "Took back" in out
    assert (tmp_path / "g.catena").exists(), out
    record = catena.read_game((tmp_path / "g.catena").read_text())
    assert ("komi", 7) in record.actions and record.tags["Size"] == "3"
    assert ("move", "A1") in record.actions and ("move", "B2") not in record.actions

    shown = run(["show", "g.catena", "--svg", "g.svg"], cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    root = ET.parse(tmp_path / "g.svg").getroot()
    assert root.tag.endswith("svg")
    stones = [e for e in root.iter() if e.get("class", "").startswith("stone ")]
    assert len(stones) == int((record.game().position.to_array() != 0).sum())

    solved = run(["solve", "--record", "g.catena"], cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert "winner" in solved.stdout and "principal variation" in solved.stdout


def test_play_to_the_end_by_script(tmp_path):
    """A whole game as P2 on side 2 typed from a script, with the colour choice."""
    moves = ["white"] + [name for name in catena.cells(2)] * 2
    proc = run(["play", "--size", "2", "--human", "P2", "--iterations", "200", "--seed", "1"],
               stdin="\n".join(moves) + "\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Game over" in proc.stdout


def test_bad_entries_never_crash(tmp_path):
    """Garbage at every prompt gets a reason and the prompt again; end of input quits (status 0)."""
    proc = run(["play", "--size", "3", "--iterations", "100"], stdin="\n".join(
        ["", "x", "-3", "99", "1.5", "komi", "button"]) + "\n", cwd=tmp_path)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.count("Not possible") >= 4
    assert proc.returncode == 0


def test_selfplay_writes_records(tmp_path):
    """Engine against engine: records that read back, and the score."""
    proc = run(["selfplay", "--size", "3", "--games", "3", "--iterations", "200", "--seed", "2",
                "--out", "games"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    files = sorted((tmp_path / "games").iterdir())
    assert len(files) == 3
    for path in files:
        assert catena.read_game(path.read_text()).game().is_over()
    assert "3 games: P1" in proc.stdout


@pytest.mark.parametrize("args, expected", [
    (["perft", "--size", "3", "--depth", "3"], "perft(3) = 6696"),
    (["solve", "--size", "3", "B2", "C3"], "principal variation"),
    (["--size", "3", "--iterations", "200", "--seed", "1"], "Outcome:"),
    (["solve", "--size", "4", "--max-nodes", "20000"], "unsolved (stopped by nodes)"),
])
def test_commands(args, expected, tmp_path):
    """The other commands of the README print what they promise."""
    proc = run(args, cwd=tmp_path)
    assert expected in proc.stdout, proc.stdout + proc.stderr


def test_errors_are_messages_not_tracebacks(tmp_path):
    """A bad size or a bad move on the command line is one line on stderr and exit code 2."""
    for args in (["solve", "--size", "11"], ["solve", "--size", "3", "Q9"], ["show", "missing.catena"]):
        proc = run(args, cwd=tmp_path)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.startswith("catena: ")


def test_show_a_chosen_ply_or_every_board(tmp_path):
    game = catena.Game(size=2)
    game.choose_komi(1)
    game.choose_colour("white")
    for move in ("B2", "A1", "C3"):
        game.push(move)
    (tmp_path / "g.catena").write_text(catena.write_game(game))
    proc = run(["show", "g.catena", "--ply", "1", "--svg", "one.svg"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "after move 1 of 3:" in proc.stdout and "score: black 1, white 1" in proc.stdout
    assert (tmp_path / "one.svg").read_text().count('class="stone ') == 1
    proc = run(["show", "g.catena", "--every"], cwd=tmp_path)
    assert proc.stdout.count("A B") == 4 and "after move 3, C3 (black):" in proc.stdout
    proc = run(["show", "g.catena", "--ply", "4"], cwd=tmp_path)
    assert proc.returncode == 2 and "--ply must be 0 to 3" in proc.stderr


def test_every_option_has_help_text(capsys):
    """`python -m catena COMMAND --help` describes every option and argument."""
    from catena.__main__ import main

    commands = ["demo", "play", "show", "selfplay", "perft", "solve", "solved", "bench"]
    for command in commands:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        lines = capsys.readouterr().out.splitlines()
        for index, line in enumerate(lines):
            entry = line[2:] if line.startswith("  ") and not line.startswith("   ") else None
            if entry is None or entry.startswith("{") or line.strip().startswith("usage"):
                continue
            described = "  " in entry.strip() or (
                index + 1 < len(lines) and lines[index + 1].startswith(" " * 10))
            assert described, f"{command}: no help for {line.strip()!r}"
