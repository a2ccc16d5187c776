"""Solved values of small boards: fair komi and the tables of docs/solved.md.

Komi only shifts the final margin (White's score gains exactly the komi), so under
standard and square scoring one solve at komi 0 gives Black's margin at every
komi: ``margin(k) = margin(0) - k``.  Under longest-ribbon scoring komi changes
which ribbon is longest, so each komi is solved on its own.

Sides 1 to 3 solve in a second.  Larger boards take hours, so their values come
from ``PROVEN``, each found once by a long solve (docs/side4.md says how).
"""

from __future__ import annotations

import contextlib
import os
import platform
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from catena._geometry import cells, check_size, symmetries
from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS, Position
from catena.effort import check_solvable
from catena.errors import TooMuchWorkError
from catena.results import SolveResult, margin_winner
from catena.solver import solve, solve_after


@dataclass(frozen=True)
class ProvenValue:
    """The value of an empty board proven once by a long solve, with its cost and one
    principal variation (a whole game that ends with that margin); the docs page of
    its board (docs/side4.md) has the command and the run."""

    value: float
    nodes: int
    seconds: float
    pv: tuple[str, ...]


#: (side, game type, scoring) -> the proven value of its empty board at komi 0.
PROVEN: dict[tuple[int, str, str], ProvenValue] = {
    (4, "komi", "standard"): ProvenValue(
        value=9.5, nodes=62_919_798_951, seconds=7317.57,
        pv=tuple("D4 A1 A2 E3 A3 E6 D3 F7 C4 E2 A4 F5 G5 G4 C6 C5 button C1 B1 D1 G7 D7".split())),
}


def proven_value(size: int, game_type: str = "komi", scoring: str = "standard") -> float | None:
    """The value of the empty board at komi 0 if ``PROVEN`` holds it, else None.

    >>> proven_value(4)
    9.5
    """
    entry = PROVEN.get((size, game_type, scoring))
    return None if entry is None else entry.value


@dataclass(frozen=True)
class KomiRow:
    """One komi of a komi game: Black's margin (None under longest ribbon), the winner,
    and the colour P2 should choose."""

    komi: int
    margin: float | None
    winner: str
    p2_choice: str


def _winner(winner: str | None) -> str:
    """The winner of a solve that ran without limits (so it is never None)."""
    assert winner is not None
    return winner


def _choice(winner: str) -> str:
    return "either" if winner == "draw" else winner


def _solve_exactly(pos: Position, tt_mb: float, max_seconds: float | None = None) -> SolveResult:
    """solve() that either solves or raises: KeyboardInterrupt on Ctrl-C (which
    solve() turns into an unsolved result), TooMuchWorkError when out of time."""
    result = solve(pos, tt_mb=tt_mb, max_seconds=max_seconds)
    if result.stopped_by == "interrupt":
        raise KeyboardInterrupt
    if not result.solved:
        raise TooMuchWorkError(f"the side-{pos.size} board was not solved in the time given "
                               f"({result.nodes:,} nodes searched)")
    return result


def komi_table(size: int, scoring: str = "standard", tt_mb: int = 256,
               max_seconds: float | None = None) -> list[KomiRow]:
    """Black's result at every komi of game type "komi" on the empty board of ``size``.

    A value in ``PROVEN`` is used as it is; otherwise the board is solved, and
    ``max_seconds`` bounds the time of all the solves together; running out of it
    raises TooMuchWorkError (so does a board too large to solve without a limit).
    """
    size = check_size(size)
    low, high = KOMI_RANGES[scoring]
    deadline = None if max_seconds is None else time.monotonic() + max_seconds

    def solved(komi: int) -> SolveResult:
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        return _solve_exactly(Position(size, "komi", scoring, komi), tt_mb, left)

    rows = []
    if scoring == "longest":
        for komi in range(low, high + 1):
            winner = _winner(solved(komi).winner)
            rows.append(KomiRow(komi, None, winner, _choice(winner)))
        return rows
    base = proven_value(size, "komi", scoring)
    if base is None:
        base = solved(0).value
        assert base is not None
    for komi in range(low, high + 1):
        margin = base - komi
        winner = margin_winner(margin)
        rows.append(KomiRow(komi, margin, winner, _choice(winner)))
    return rows


def fair_komi(size: int, scoring: str = "standard", tt_mb: int = 256,
              max_seconds: float | None = None) -> int:
    """The fair komi of game type "komi" on the board of ``size``: the komi that makes
    P2's colour choice the closest call, i.e. the largest komi at which Black still
    wins (one more point and White wins); 0 if White wins even at komi 0.

    Sides 1 to 3 solve the empty board in a second; side 4 (standard scoring) comes
    from ``PROVEN`` at once.  Other boards would take hours or more: they raise
    TooMuchWorkError with the estimate at once, unless ``max_seconds`` allows a try
    (which raises the same error if it runs out).

    >>> fair_komi(2)
    2
    >>> fair_komi(4)
    9
    >>> fair_komi(7)
    Traceback (most recent call last):
      ...
    catena.errors.TooMuchWorkError: fair_komi(7) solves the empty side-7 board exactly, which would take ...
    """
    size = check_size(size)
    if max_seconds is None and proven_value(size, "komi", scoring) is None:
        check_solvable(Position(size, "komi", scoring, 0),
                       what=f"fair_komi({size}) solves the empty side-{size} board exactly, which",
                       limit_hint="docs/solved.md has the boards solved so far; give max_seconds to try anyway")
    return _fair(komi_table(size, scoring, tt_mb, max_seconds))


def _fair(rows: list[KomiRow]) -> int:
    """The largest komi at which Black wins, else the lowest komi."""
    black_wins = [row.komi for row in rows if row.winner == "black"]
    return max(black_wins) if black_wins else rows[0].komi


def _signed(margin: float | None) -> str:
    return "-" if margin is None else f"{margin:+g}"


@dataclass(frozen=True)
class OpeningRow:
    """A first black stone of a no-komi game (one per symmetry class) and its value."""

    cell: str
    equivalent: int
    margin: float | None
    winner: str
    p2_choice: str


def nokomi_table(size: int, scoring: str = "standard", tt_mb: int = 256) -> list[OpeningRow]:
    """For each first black stone of game type "nokomi" (up to symmetry): Black's margin
    with best play after it, and the colour that wins for P2."""
    size = check_size(size)
    names = cells(size)
    seen: set[int] = set()
    orbits = {}                                 # a first stone of each symmetry class: its class's size
    for index, name in enumerate(names):
        if index not in seen:
            orbit = {sym[index] for sym in symmetries(size)}
            seen |= orbit
            orbits[name] = len(orbit)
    rows = []
    for name, result in solve_after(Position(size, "nokomi", scoring, 0), orbits, tt_mb=tt_mb):
        winner = _winner(result.winner)
        rows.append(OpeningRow(name, orbits[name], result.value, winner, _choice(winner)))
    return rows


#: Rows of the tables of docs/solved.md per board side (what ``progress`` counts).
ROWS_PER_SIZE = 3 * 3 + 3 + 3


def machine_description() -> str:
    """This machine as a times column needs it: the processor, its cores, the system.

    >>> "cores" in machine_description()
    True
    """
    model = platform.processor() or platform.machine() or "an unknown processor"
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo") as handle:            # Linux names the model only here
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    cores = os.cpu_count() or 1
    return f"{model}, {cores} {'core' if cores == 1 else 'cores'}, {platform.system() or 'unknown system'}"


def write_solved_markdown(path: str, sizes: tuple[int, ...] = (1, 2, 3), tt_mb: int = 256,
                          progress: Callable[[str], object] | None = None) -> None:
    """Solve the small boards and write the tables of docs/solved.md to ``path``
    (:func:`solved_markdown`)."""
    text = solved_markdown(sizes, tt_mb, progress)
    with open(path, "w") as handle:
        handle.write(text)


def solved_markdown(sizes: tuple[int, ...] = (1, 2, 3), tt_mb: int = 256,
                    progress: Callable[[str], object] | None = None, machine: str | None = None) -> str:
    """Solve the small boards and return the tables of docs/solved.md;
    ``progress(row)`` is called after each of the ROWS_PER_SIZE rows per side.  The
    times are said to be measured on ``machine`` (default: :func:`machine_description`)."""
    machine = machine_description() if machine is None else machine

    def done(row: str) -> None:
        if progress is not None:
            progress(row)

    out = ["# Solved values", "",
           "Computed by `python -m catena solved` with `catena.solve` (alpha-beta with a transposition",
           "table keyed by the F4 solver key, MTD(f), symmetry-canonical keys near the root).",
           "Values are Black's final score minus White's under best play from the empty board of the",
           "play phase (komi 0, the button's half point included); longest-ribbon scoring gives only",
           f"the winner. Times are wall seconds on the machine that ran the command ({machine});",
           "nodes are all threads' (they vary from run to run with the threads' timing). The side-4",
           "rows come from `catena.solved.PROVEN`, proven once by a two-hour solve that",
           "[side4.md](side4.md) describes with its machine; its other game types and scorings are",
           "not solved yet.", ""]
    out += ["## Value of the empty board", "",
            "| side | game type | scoring | value (Black - White) | winner | nodes | seconds |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for size in sizes:
        for game_type in GAME_TYPES:
            for scoring in SCORINGS:
                result = _solve_exactly(Position(size, game_type, scoring, 0), tt_mb)
                out.append(f"| {size} | {game_type} | {scoring} | {_signed(result.value)} | {result.winner} | "
                           f"{result.nodes:,} | {result.seconds:.2f} |")
                done(f"side {size} {game_type} {scoring}")
    for (size, game_type, scoring), entry in sorted(PROVEN.items()):
        if size not in sizes:
            out.append(f"| {size} | {game_type} | {scoring} | {entry.value:+g} | "
                       f"{margin_winner(entry.value)} | {entry.nodes:,} | {entry.seconds:.2f} |")
    out += ["", "## Fair komi (game type komi)", "",
            "The fair komi is the largest komi at which Black still wins: one more point and White",
            "wins, so P2's choice is the closest call there. P2 should take Black at komi up to the",
            "fair komi and White above it.", "",
            "| side | scoring | margin at komi 0 | fair komi | P2 takes Black at | P2 takes White at |",
            "| --- | --- | --- | --- | --- | --- |"]
    for size, scoring in _each_scoring(sizes, done, "fair komi"):
        out.append(_fair_komi_row(size, scoring, komi_table(size, scoring, tt_mb)))
    for (size, game_type, scoring) in sorted(PROVEN):
        if size not in sizes and game_type == "komi":
            out.append(_fair_komi_row(size, scoring, komi_table(size, scoring)))
    out += ["", "## No komi: P1's black stone", "",
            "After P1's stone P2 takes the colour that wins. With the button no game is drawn, so",
            "every first stone leaves P2 a winning choice; the table says which colour and by how",
            "much (one row per symmetry class; `equivalent` counts its cells).", "",
            "| side | scoring | first stone | equivalent | margin (Black - White) | P2 takes |",
            "| --- | --- | --- | --- | --- | --- |"]
    for size, scoring in _each_scoring(sizes, done, "no-komi openings"):
        out += [f"| {size} | {scoring} | {row.cell} | {row.equivalent} | {_signed(row.margin)} | {row.p2_choice} |"
                for row in nokomi_table(size, scoring, tt_mb)]
    return "\n".join(out) + "\n"


def _each_scoring(sizes: tuple[int, ...], done: Callable[[str], None], table: str) -> Iterator[tuple[int, str]]:
    """Each (side, scoring) of a per-scoring table, reported done once its rows are written."""
    for size in sizes:
        for scoring in SCORINGS:
            yield size, scoring
            done(f"side {size} {table} {scoring}")


def _fair_komi_row(size: int, scoring: str, rows: list[KomiRow]) -> str:
    black = [r.komi for r in rows if r.p2_choice == "black"]
    white = [r.komi for r in rows if r.p2_choice == "white"]
    return (f"| {size} | {scoring} | {_signed(rows[0].margin)} | {_fair(rows)} | "
            f"{_span(black)} | {_span(white)} |")


def _span(komis: list[int]) -> str:
    if not komis:
        return "-"
    return f"{komis[0]}" if len(komis) == 1 else f"{komis[0]}-{komis[-1]}"
