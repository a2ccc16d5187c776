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
import json
import os
import platform
import time
from dataclasses import dataclass
from importlib import resources
from typing import Callable, Iterator

from catena._geometry import cells, check_size, symmetries
from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS, Position
from catena.effort import check_solvable
from catena.errors import TooMuchWorkError
from catena.results import SolveResult, margin_winner
from catena.solver import solve, solve_after


@dataclass(frozen=True)
class ProvenValue:
    """A value proven once by a long solve: Black's margin (under longest ribbon +1, 0 or -1:
    Black wins, a draw, White wins), the solve's nodes and seconds, one principal variation
    (a whole game that ends with that value), the command that proved it and the commit it
    ran; docs/side4.md tells each run."""

    value: float
    nodes: int
    seconds: float
    pv: tuple[str, ...]
    command: str = ""
    commit: str = ""

    @property
    def winner(self) -> str:
        return margin_winner(self.value)


def _read_proven() -> list[tuple[tuple[int, str, str, int, str], ProvenValue]]:
    """The proven values shipped in catena/data/proven.json: ((side, game type, scoring, komi,
    first stone or ""), value) for each."""
    rows = json.loads(resources.files("catena").joinpath("data", PROVEN_FILE).read_text())
    return [((row["size"], row["game_type"], row["scoring"], row["komi"], "".join(row["moves"])),
             ProvenValue(value=row["value"], nodes=row["nodes"], seconds=row["seconds"], pv=tuple(row["pv"].split()),
                         command=row["command"], commit=row["commit"])) for row in rows]


PROVEN_FILE = "proven.json"     # in catena/data: one row per long solve (docs/side4.md tells the runs)
_SHIPPED = _read_proven()

#: (side, game type, scoring) -> the proven value of its empty board at komi 0.
PROVEN: dict[tuple[int, str, str], ProvenValue] = {
    (size, game_type, scoring): entry for (size, game_type, scoring, komi, stone), entry in _SHIPPED
    if not komi and not stone}

#: (side, scoring, komi) -> the proven value of the empty board of game type "komi" at a komi
#: other than 0 (longest ribbon, where komi changes which ribbon is longest).
PROVEN_KOMI: dict[tuple[int, str, int], ProvenValue] = {
    (size, scoring, komi): entry for (size, game_type, scoring, komi, stone), entry in _SHIPPED if komi}

#: (side, scoring, first stone) -> the proven value after P1's first stone of game type "nokomi".
PROVEN_FIRST_STONES: dict[tuple[int, str, str], ProvenValue] = {
    (size, scoring, stone): entry for (size, game_type, scoring, komi, stone), entry in _SHIPPED if stone}


def proven_entry(size: int, game_type: str = "komi", scoring: str = "standard",
                 komi: int = 0) -> ProvenValue | None:
    """The proven value of the empty board of ``size`` at ``komi``, if it is known.

    A no-komi game is the komi game at komi 0 once its first stone is down (R17, R18), so
    when the komi game's best first move is a stone its value is the no-komi game's too:
    no stone is worth more, and that one is worth as much."""
    if komi:
        return PROVEN_KOMI.get((size, scoring, komi)) if game_type == "komi" else None
    entry = PROVEN.get((size, game_type, scoring))
    if entry is None and game_type == "nokomi":
        return _opened_with_a_stone(size, scoring)
    return entry


def _opened_with_a_stone(size: int, scoring: str) -> ProvenValue | None:
    """The proven komi game at komi 0 if its best first move is a stone (not the button):
    then the no-komi game after that stone is the same game, with the same value."""
    played = PROVEN.get((size, "komi", scoring))
    return played if played is not None and played.pv and played.pv[0] != "button" else None


def proven_first_stone(size: int, scoring: str, cell: str) -> ProvenValue | None:
    """The proven value of game type "nokomi" after P1's first stone on ``cell``, if known:
    its own solve, or the komi game at komi 0 when ``cell`` is (up to the board's
    symmetries) that game's best first move, which leaves the same game (R17, R18).

    >>> proven_first_stone(4, "standard", "D4").value
    9.5
    """
    entry = PROVEN_FIRST_STONES.get((size, scoring, cell))
    played = _opened_with_a_stone(size, scoring)
    if entry is None and played is not None:
        names = cells(size)
        if names.index(cell) in _orbit(size, names.index(played.pv[0])):
            return played
    return entry


def proven_value(size: int, game_type: str = "komi", scoring: str = "standard") -> float | None:
    """The value of the empty board at komi 0 if it is proven (:func:`proven_entry`), else None.

    >>> proven_value(4)
    9.5
    >>> proven_value(4, "nokomi")       # the same game once the first stone, D4, is down
    9.5
    """
    entry = proven_entry(size, game_type, scoring)
    return None if entry is None else entry.value


def proven_longest_winner(size: int, komi: int) -> str | None:
    """The proven winner of the empty board of game type "komi", longest ribbon, at ``komi``.

    More komi never turns a White win into a Black one.  Komi lengthens one of White's
    longest ribbons (R24); if White wins a finished game at komi k, the ribbon one longer
    at k + 1 has no Black ribbon of its length or longer (one would have been left
    uncancelled at k, and Black would have won), so White wins at k + 1 too.  The komis
    Black wins are therefore the first ones of 0 to 15 for every finished game, and so
    under best play: a Black win at a larger komi, or a White win at a smaller one,
    decides ``komi`` as well.
    """
    low, high = KOMI_RANGES["longest"]
    for proven_komi in range(low, high + 1):
        entry = proven_entry(size, "komi", "longest", proven_komi)
        if entry is not None and (proven_komi == komi or (entry.winner == "black" and proven_komi >= komi)
                                  or (entry.winner == "white" and proven_komi <= komi)):
            return entry.winner
    return None


def _komi_is_proven(size: int, scoring: str) -> bool:
    """Whether every komi of game type "komi" has a proven result (one value at komi 0
    gives all of them, but under longest ribbon each komi is its own game)."""
    if scoring != "longest":
        return proven_entry(size, "komi", scoring) is not None
    low, high = KOMI_RANGES[scoring]
    return all(proven_longest_winner(size, komi) is not None for komi in range(low, high + 1))


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
            winner = proven_longest_winner(size, komi) or _winner(solved(komi).winner)
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

    Sides 1 to 3 solve the empty board in a second; side 4 (standard and longest-ribbon
    scoring) comes from ``PROVEN`` and ``PROVEN_KOMI`` at once.  Other boards would take
    hours or more: they raise TooMuchWorkError with the estimate at once, unless
    ``max_seconds`` allows a try (which raises the same error if it runs out).

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
    if max_seconds is None and not _komi_is_proven(size, scoring):
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


def first_stone_classes(size: int) -> dict[str, int]:
    """The first stones of a side up to the board's symmetries: a stone of each class (the first
    in cell order), with its class's size.

    >>> first_stone_classes(2)
    {'A1': 6, 'B2': 1}
    """
    seen: set[int] = set()
    classes = {}
    for index, name in enumerate(cells(size)):
        if index not in seen:
            orbit = _orbit(size, index)
            seen |= orbit
            classes[name] = len(orbit)
    return classes


def _orbit(size: int, index: int) -> set[int]:
    """The cells the board's symmetries map cell ``index`` to."""
    return {sym[index] for sym in symmetries(size)}


def nokomi_table(size: int, scoring: str = "standard", tt_mb: int = 256) -> list[OpeningRow]:
    """For each first black stone of game type "nokomi" (up to symmetry): Black's margin
    with best play after it, and the colour that wins for P2."""
    size = check_size(size)
    orbits = first_stone_classes(size)
    proven = {name: proven_first_stone(size, scoring, name) for name in orbits}
    unproven = [name for name in orbits if proven[name] is None]
    solved = dict(solve_after(Position(size, "nokomi", scoring, 0), unproven, tt_mb=tt_mb))
    rows = []
    for name in orbits:
        entry = proven[name]
        if entry is not None:
            margin, winner = (None if scoring == "longest" else entry.value), entry.winner
        else:
            margin, winner = solved[name].value, _winner(solved[name].winner)
        rows.append(OpeningRow(name, orbits[name], margin, winner, _choice(winner)))
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
           "nodes are all threads' (they vary from run to run with the threads' timing). The rows of",
           "larger boards come from `catena.solved` (`PROVEN`, `PROVEN_KOMI`, `PROVEN_FIRST_STONES`),",
           "each proven once by a long solve: the last section names the command and the commit of",
           "each, [side4.md](side4.md) tells the runs and their machine. A row that is missing is not",
           "solved yet.", ""]
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
    proven_sizes = sorted({key[0] for key in PROVEN} - set(sizes))
    for size in proven_sizes:
        for game_type in GAME_TYPES:
            for scoring in SCORINGS:
                entry = proven_entry(size, game_type, scoring)
                if entry is None:
                    continue
                cost = (f"{entry.nodes:,} | {entry.seconds:.2f}" if entry is PROVEN.get((size, game_type, scoring))
                        else "the komi game's | -")           # the same game once the first stone is down
                out.append(f"| {size} | {game_type} | {scoring} | {_signed(_margin(entry, scoring))} | "
                           f"{entry.winner} | {cost} |")
    out += ["", "## Fair komi (game type komi)", "",
            "The fair komi is the largest komi at which Black still wins: one more point and White",
            "wins, so P2's choice is the closest call there. P2 should take Black at komi up to the",
            "fair komi and White above it.", "",
            "| side | scoring | margin at komi 0 | fair komi | P2 takes Black at | P2 takes White at |",
            "| --- | --- | --- | --- | --- | --- |"]
    for size, scoring in _each_scoring(sizes, done, "fair komi"):
        out.append(_fair_komi_row(size, scoring, komi_table(size, scoring, tt_mb)))
    for size in proven_sizes:
        out += [_fair_komi_row(size, scoring, komi_table(size, scoring))
                for scoring in SCORINGS if _komi_is_proven(size, scoring)]
    out += ["", "## No komi: P1's black stone", "",
            "After P1's stone P2 takes the colour that wins. With the button no game is drawn, so",
            "every first stone leaves P2 a winning choice; the table says which colour and by how",
            "much (one row per symmetry class; `equivalent` counts its cells).", "",
            "| side | scoring | first stone | equivalent | margin (Black - White) | P2 takes |",
            "| --- | --- | --- | --- | --- | --- |"]
    for size, scoring in _each_scoring(sizes, done, "no-komi openings"):
        out += _opening_rows(size, scoring, tt_mb)
    for size in proven_sizes:
        for scoring in SCORINGS:
            if all(proven_first_stone(size, scoring, cell) for cell in first_stone_classes(size)):
                out += _opening_rows(size, scoring, tt_mb)
    out += ["", "## How the larger boards were proven", "",
            "Each value above that no `python -m catena solved` run computes: the position (game type,",
            "scoring, komi, moves from the empty board), the command that proved it, and the commit it",
            "ran. FILE is the checkpoint the long solves wrote as they went. The no-komi values marked",
            "\"the komi game's\" follow from the komi game at komi 0: once the first stone is down the",
            "two are one game (R17, R18), and the komi game's best first move is a stone.", "",
            "| side | game type | scoring | komi | moves | value | nodes | seconds | command | commit |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (size, game_type, scoring, komi, moves), entry in sorted(_SHIPPED, key=lambda item: item[0]):
        if size in proven_sizes:
            value = entry.winner if scoring == "longest" else f"{entry.value:+g}"
            out.append(f"| {size} | {game_type} | {scoring} | {komi} | {moves or '-'} | {value} | "
                       f"{entry.nodes:,} | {entry.seconds:.2f} | `{entry.command}` | {entry.commit} |")
    return "\n".join(out) + "\n"


def _opening_rows(size: int, scoring: str, tt_mb: int) -> list[str]:
    """The rows of the no-komi table of one side and scoring (:func:`nokomi_table`)."""
    return [f"| {size} | {scoring} | {row.cell} | {row.equivalent} | {_signed(row.margin)} | {row.p2_choice} |"
            for row in nokomi_table(size, scoring, tt_mb)]


def _margin(entry: ProvenValue, scoring: str) -> float | None:
    """A proven value as the tables show it: none under longest ribbon, which has only a winner."""
    return None if scoring == "longest" else entry.value


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
