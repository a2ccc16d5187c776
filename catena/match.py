"""Matches between two engines: ``python -m catena match``.

An engine is a catena player made in this process from a spec (``--a "mcts
iterations=2000"``, see :mod:`catena.engines`) or any GTP engine run as a
subprocess (``--a-cmd "python -m catena gtp --iterations 2000"``).  The games
start from an opening suite: seeded random first stones and komi values close
to the fair komi, each opening played twice, once with each engine as Black.
Games run in parallel over the machine's cores, each is saved as a game record
(docs/records.md), and the report gives the Elo difference of A over B with its
95% interval and, with ``--sprt``, a sequential test that stops the match when
decided (:mod:`catena.elo`).  An engine that crashes, times out, refuses a
command or plays an illegal move loses that game; the report lists every such
failure.  docs/match.md has the options and the recipe for comparing two builds.

>>> from catena.engines import parse_spec
>>> report = run_match(lambda: PlayerEngine.from_spec(parse_spec("mcts iterations=300")),
...                    lambda: PlayerEngine.from_spec(parse_spec("random")),
...                    opening_suite(2, size=3, komis=(10,), seed=1), workers=1)
>>> report.games, report.a_points >= 3
(4, True)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from catena._geometry import check_size
from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS, Position
from catena._validate import integer
from catena.elo import PairStats, Sprt
from catena.engines import Engine, EngineFailure, Opening, PlayerEngine, SubprocessEngine, parse_spec
from catena.errors import CatenaError
from catena.game import Game
from catena.progress import bar
from catena.record import record_name, refuse_overwriting_records
from catena.text import plural

COLOURS = ("black", "white")


# ---------------------------------------------------------------- openings


def estimate_fair_komi(size: int, scoring: str = "standard", iterations: int = 50_000, seed: int = 0) -> int:
    """The fair komi: exact (:func:`catena.fair_komi`) on sides 1 to 3 and on the boards
    of ``catena.solved.PROVEN``, else the komi a seeded :class:`catena.MCTSPlayer` of
    ``iterations`` a search would choose as P1.

    >>> estimate_fair_komi(3)
    10
    """
    from catena.players import MCTSPlayer
    from catena.solved import fair_komi

    if fair_komi_is_proven(size, scoring):
        return fair_komi(size, scoring, tt_mb=16)
    return MCTSPlayer(iterations=iterations, seed=seed).choose_komi(Game(size, "komi", scoring))


def fair_komi_is_proven(size: int, scoring: str = "standard") -> bool:
    """Whether :func:`estimate_fair_komi` gives the proven fair komi (solved now, or
    from ``catena.solved.PROVEN``), not an MCTS estimate.

    >>> fair_komi_is_proven(4), fair_komi_is_proven(6)
    (True, False)
    """
    from catena.solved import proven_value

    return check_size(size) <= 3 or proven_value(size, "komi", scoring) is not None


def komis_near(fair: int, scoring: str, spread: int = 1) -> tuple[int, ...]:
    """The komi values within ``spread`` of ``fair`` that the scoring type allows (R22).

    >>> komis_near(0, "standard")
    (0, 1)
    """
    low, high = KOMI_RANGES[scoring]
    return tuple(k for k in range(fair - spread, fair + spread + 1) if low <= k <= high)


def opening_suite(count: int, size: int = 6, game_type: str = "komi", scoring: str = "standard",
                  plies: int = 2, komis: tuple[int, ...] = (0,), seed: int = 0) -> list[Opening]:
    """``count`` openings of ``plies`` seeded random stones (never the button) each,
    with a komi drawn from ``komis`` (game type komi; otherwise komi 0).  Openings
    that end the game are redrawn; repeats are avoided while they can be.

    >>> [(o.komi, o.moves) for o in opening_suite(2, size=3, komis=(9, 10, 11), seed=5)]
    [(11, ('C2', 'D2')), (11, ('E3', 'A1'))]
    """
    size = check_size(size)
    if game_type not in GAME_TYPES or scoring not in SCORINGS:
        raise CatenaError(f"unknown game type {game_type!r} or scoring {scoring!r}")
    integer(count, "count", minimum=1)
    integer(plies, "plies", minimum=0)
    if game_type != "komi":
        komis = (0,)
    if not komis:
        raise ValueError("give at least one komi value")
    rng = random.Random(seed)
    suite: list[Opening] = []
    seen: set[tuple[int, tuple[str, ...]]] = set()
    for attempt in range(100 * count):
        if len(suite) == count:
            break
        komi = rng.choice(komis)
        position = Position(size, game_type, scoring, komi)
        for _ply in range(plies):
            stones = [move for move in position.legal_moves() if not move.is_button]
            if not stones:
                break
            position.push(rng.choice(stones))
        if position.is_game_over():
            continue
        key = (komi, tuple(move.name for move in position.move_stack))
        if key in seen and attempt < 50 * count:
            continue
        seen.add(key)
        suite.append(Opening(size, game_type, scoring, komi, key[1]))
    if len(suite) < count:
        raise CatenaError(f"no {count} openings of {plies} stones that leave a game to play "
                          f"on side {size}")
    return suite


# ---------------------------------------------------------------- one game


class Abandoned(Exception):
    """The match stopped (SPRT decided, Ctrl-C) while this game was being played."""


@dataclass(frozen=True)
class GameResult:
    """One game of a match, from engine A's side.

    ``winner`` is the winning colour (None for a draw); ``failure`` names the
    engine ("A" or "B") and what went wrong when the game ended by a failure.
    """

    number: int
    opening: int
    a_colour: str
    winner: Optional[str]
    a_points: float
    failure: Optional[str]
    game: Game

    @property
    def a_margin(self) -> Optional[float]:
        """A's final score minus B's, for a game played to its end under a scoring with
        scores (None after a failure or under longest-ribbon scoring)."""
        pos = self.game.position
        outcome = None if self.failure or pos is None else pos.outcome()
        if outcome is None or outcome.black_score is None or outcome.white_score is None:
            return None
        margin = outcome.black_score - outcome.white_score
        return margin if self.a_colour == "black" else -margin


def referee_game(black: Engine, white: Engine, opening: Opening, seeds: tuple[int, int] = (0, 0),
                 stop: Optional[threading.Event] = None
                 ) -> tuple[Position, Optional[str], Optional[tuple[str, str]]]:
    """Play one game from ``opening``; returns the final position, the winning colour
    (None for a draw) and, when an engine failed, its colour and what happened
    (that colour loses).  Raises Abandoned when ``stop`` is set during the game."""
    engines = {"black": black, "white": white}
    position = opening.position()
    for colour, seed in zip(COLOURS, seeds):
        try:
            engines[colour].new_game(opening, seed)
            for move, mover in _movers(opening):
                engines[colour].play(mover, move)
        except EngineFailure as exc:
            if stop is not None and stop.is_set():
                raise Abandoned() from None
            return position, _other(colour), (colour, f"{exc.kind}: {exc}")
    while not position.is_game_over():
        if stop is not None and stop.is_set():
            raise Abandoned()
        colour = position.to_move
        try:
            move = engines[colour].genmove(position, colour)
        except EngineFailure as exc:
            if stop is not None and stop.is_set():
                raise Abandoned() from None
            return position, _other(colour), (colour, f"{exc.kind}: {exc}")
        try:
            position.push(move)
        except CatenaError as exc:
            return position, _other(colour), (colour, f"illegal move: {exc}")
        played = position.peek()
        assert played is not None
        try:
            engines[_other(colour)].play(colour, played.name)
        except EngineFailure as exc:
            if stop is not None and stop.is_set():
                raise Abandoned() from None
            return position, colour, (_other(colour), f"{exc.kind}: {exc}")
    outcome = position.outcome()
    assert outcome is not None
    return position, outcome.winner, None


def _movers(opening: Opening) -> list[tuple[str, str]]:
    """The opening's moves with the colour that played each."""
    position = Position(opening.size, opening.game_type, opening.scoring, opening.komi)
    result = []
    for move in opening.moves:
        result.append((move, position.to_move))
        position.push(move)
    return result


def _other(colour: str) -> str:
    return "white" if colour == "black" else "black"


def _constant(player: Any) -> Callable[[int], Any]:
    return lambda seed: player


def play_game(first: Any, second: Any, size: int = 6, game_type: str = "komi", scoring: str = "standard",
              komi: int = 0, first_is_black: bool = True) -> float:
    """One game between two player objects from the empty board; the first player's
    points (1, 0.5 or 0).

    >>> from catena.players import RandomPlayer
    >>> play_game(RandomPlayer(seed=1), RandomPlayer(seed=2), size=1)   # Black places A1 and wins
    1.0
    """
    engines = [PlayerEngine(_constant(player), type(player).__name__) for player in (first, second)]
    black, white = engines if first_is_black else engines[::-1]
    _position, winner, failed = referee_game(black, white, Opening(size, game_type, scoring, komi, ()))
    if failed is not None:
        raise CatenaError(f"the {failed[0]} player failed: {failed[1]}")
    if winner is None:
        return 0.5
    return 1.0 if (winner == "black") == first_is_black else 0.0


# ---------------------------------------------------------------- the match


@dataclass
class MatchReport:
    """The games of a match so far and what they say about A against B."""

    a_name: str
    b_name: str
    results: list[GameResult] = field(default_factory=list)
    sprt: Optional[Sprt] = None
    stopped_by: Optional[str] = None      # "sprt", "interrupt" or None (all games played)
    seconds: float = 0.0
    sprt_decided_after: Optional[int] = None   # games when the SPRT first decided

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def a_points(self) -> float:
        return sum(r.a_points for r in self.results)

    def count(self, points: float) -> int:
        return sum(1 for r in self.results if r.a_points == points)

    @property
    def pair_stats(self) -> PairStats:
        """A's points in every opening both of whose games are done."""
        by_opening: dict[int, list[float]] = {}
        for result in self.results:
            by_opening.setdefault(result.opening, []).append(result.a_points)
        return PairStats.from_pairs(sum(p) for p in by_opening.values() if len(p) == 2)

    @property
    def failures(self) -> list[str]:
        return [f"game {r.number + 1}: {r.failure}" for r in self.results if r.failure]

    def summary(self) -> str:
        """The short line of the progress display."""
        stats = self.pair_stats
        text = f"A +{self.count(1.0)} ={self.count(0.5)} -{self.count(0.0)}"
        if stats.pairs:
            low, high = stats.interval
            text += f"  Elo {stats.elo:+.0f} [{low:+.0f}, {high:+.0f}]"
        if self.sprt is not None:
            text += f"  LLR {self.sprt.llr(stats):.2f}"
        return text

    def __str__(self) -> str:
        lines = [f"A: {self.a_name}", f"B: {self.b_name}"]
        games = self.games
        if games:
            as_black = [r for r in self.results if r.a_colour == "black"]
            as_white = [r for r in self.results if r.a_colour == "white"]
            lines.append(f"{plural(games, 'game')} in {self.seconds:.0f} s: A won {self.count(1.0)}, "
                         f"drew {self.count(0.5)}, lost {self.count(0.0)} (score {self.a_points / games:.1%})")
            lines.append(f"A as black {sum(r.a_points for r in as_black):g}/{len(as_black)}, "
                         f"as white {sum(r.a_points for r in as_white):g}/{len(as_white)}")
            margins = [m for m in (r.a_margin for r in self.results) if m is not None]
            if margins:
                lines.append(f"A's margin: {sum(margins) / len(margins):+.2f} points a game "
                             f"(A's score minus B's, {plural(len(margins), 'game')})")
        stats = self.pair_stats
        lines.append(f"pairs by A's points (0, 1/2, 1, 3/2, 2): {' '.join(map(str, stats.counts))}")
        lines.append(f"Elo of A over B: {stats}")
        if self.sprt is not None:
            lines.append(self.sprt.describe(stats))
            if self.sprt_decided_after is not None:
                lines.append(f"the SPRT was first decided after {plural(self.sprt_decided_after, 'game')}")
        if self.stopped_by == "interrupt":
            lines.append("stopped by Ctrl-C before the last games")
        elif self.stopped_by == "sprt":
            lines.append("stopped early: the SPRT is decided")
        failures = self.failures
        lines.append(f"engine failures: {len(failures)}")
        lines.extend("  " + failure for failure in failures)
        return "\n".join(lines)


def _record_text(result: GameResult, report: MatchReport, opening: Opening) -> str:
    from catena.record import GameRecord, write_game

    a_is_p1 = result.a_colour == "black"
    names = {"P1": report.a_name if a_is_p1 else report.b_name, "P2": report.b_name if a_is_p1 else report.a_name}
    tags: dict[str, Any] = {"P1": names["P1"], "P2": names["P2"], "Game": result.number + 1}
    if result.failure is not None:
        winner = result.winner
        tags["Result"] = "P1" if winner == "black" else "P2"
    record = GameRecord.from_game(result.game, **tags)
    record.comments[-1] = (f"match game {result.number + 1}, opening {result.opening + 1} "
                           f"({len(opening.moves)} stones, komi {opening.komi}); P1 plays black")
    if result.failure is not None:
        record.comments[len(record.actions) - 1] = f"the game ended by a failure of {result.failure}"
    return write_game(record)


def run_match(a: Callable[[], Engine], b: Callable[[], Engine], openings: list[Opening], workers: int = 1,
              sprt: Optional[Sprt] = None, out: Optional[str] = None, seed: int = 0,
              progress: Optional[Callable[[MatchReport, int], None]] = None,
              stop_when_decided: bool = True) -> MatchReport:
    """Play every opening twice (A as Black, then as White) and return the MatchReport.

    ``a`` and ``b`` make an engine (a :class:`PlayerEngine` or a
    :class:`SubprocessEngine`); each of the ``workers`` threads plays its games with
    its own pair of engines.  The SPRT, if given, stops the match once
    decided (unless ``stop_when_decided`` is False); ``out`` is a folder for the game records; ``progress(report,
    total)`` is called after every game.  Ctrl-C stops the match and returns
    the games played so far (``stopped_by`` "interrupt").
    """
    integer(workers, "workers", minimum=1)
    makers = (a, b)
    report = MatchReport(a().name, b().name, sprt=sprt)
    if out:
        os.makedirs(out, exist_ok=True)
    jobs = [(2 * i + k, i, COLOURS[k]) for i in range(len(openings)) for k in (0, 1)]
    stop = threading.Event()
    local = threading.local()
    made: list[Engine] = []
    lock = threading.Lock()

    def play(job: tuple[int, int, str]) -> GameResult:
        number, index, a_colour = job
        if stop.is_set():
            raise Abandoned()
        if not hasattr(local, "engines"):
            local.engines = (makers[0](), makers[1]())
            with lock:
                made.extend(local.engines)
        engine_a, engine_b = local.engines
        black, white = (engine_a, engine_b) if a_colour == "black" else (engine_b, engine_a)
        seeds = (seed * 1_000_003 + 2 * number, seed * 1_000_003 + 2 * number + 1)
        position, winner, failed = referee_game(black, white, openings[index], seeds, stop)
        failure = None
        if failed is not None:
            failure = f"{'A' if failed[0] == a_colour else 'B'} ({failed[0]}) {failed[1]}"
        points = 0.5 if winner is None else float(winner == a_colour)
        opening = openings[index]
        game = Game.from_moves([m.name for m in position.move_stack], opening.size, opening.game_type,
                               opening.scoring, opening.komi)
        return GameResult(number, index, a_colour, winner, points, failure, game)

    start = time.perf_counter()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(play, job) for job in jobs]
        for future in concurrent.futures.as_completed(futures):
            try:
                result = future.result()
            except (Abandoned, concurrent.futures.CancelledError):
                continue
            report.results.append(result)
            report.seconds = time.perf_counter() - start
            if out:
                path = os.path.join(out, record_name(result.number))
                with open(path, "w") as handle:
                    handle.write(_record_text(result, report, openings[result.opening]))
            if progress is not None:
                progress(report, len(jobs))
            if sprt is not None and report.sprt_decided_after is None and sprt.decision(report.pair_stats):
                report.sprt_decided_after = report.games
                if stop_when_decided:
                    report.stopped_by = "sprt"
                    stop.set()
                    for pending in futures:
                        pending.cancel()
    except KeyboardInterrupt:
        report.stopped_by = "interrupt"
        stop.set()
        for pending in futures:
            pending.cancel()
    finally:
        stop.set()
        with lock:
            for engine in made:
                engine.close()       # also wakes a game waiting on a GTP engine
        pool.shutdown(wait=True, cancel_futures=True)
    report.results.sort(key=lambda r: r.number)
    report.seconds = time.perf_counter() - start
    return report


# ---------------------------------------------------------------- command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m catena match``."""
    for side in ("a", "b"):
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument(f"--{side}", metavar="SPEC",
                           help=f'engine {side.upper()} in process, e.g. "mcts iterations=2000"')
        group.add_argument(f"--{side}-cmd", metavar="COMMAND",
                           help=f"engine {side.upper()}: a GTP engine's command line")
    parser.add_argument("--games", type=int, default=100, help="games at most (rounded up to whole pairs; default 100)")
    parser.add_argument("--size", type=int, default=6, help="board side, 1 to 10 (default: 6)")
    parser.add_argument("--game-type", default="komi", choices=GAME_TYPES,
                        help="the game type of every game (default: komi; docs/rules.md)")
    parser.add_argument("--scoring", default="standard", choices=SCORINGS,
                        help="the scoring of every game (default: standard)")
    parser.add_argument("--komi", type=int, nargs="+", default=None,
                        help="komi values of the openings (default: the fair komi and its neighbours)")
    parser.add_argument("--opening-stones", type=int, default=2,
                        help="random stones of each opening (default: 2)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seeds the openings and in-process players (default: 1)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="games at a time (default: the cores)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds a GTP engine may take per answer (default: 60)")
    parser.add_argument("--sprt", type=float, nargs=4, metavar=("ELO0", "ELO1", "ALPHA", "BETA"), default=None,
                        help="stop when the SPRT of H0: Elo = ELO0 against H1: Elo = ELO1 is decided "
                             "(default: no SPRT)")
    parser.add_argument("--play-all", action="store_true",
                        help="play every game even after the SPRT is decided (the report says when it was)")
    parser.add_argument("--out", default=None,
                        help="folder for the game records, game-0001.catena, ... (default: none, not written)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite the game records that exist already in --out (without it they are "
                             "refused before any game)")


def _engine(spec: Optional[str], command: Optional[str], timeout: float) -> Callable[[], Engine]:
    if command is not None:
        return lambda: SubprocessEngine(command, timeout)
    assert spec is not None
    player_spec = parse_spec(spec)
    return lambda: PlayerEngine.from_spec(player_spec)


def _check_engine(make: Callable[[], Engine], opening: Opening, label: str) -> None:
    """Start the engine and set up a game once, so a wrong command fails before the match."""
    engine = make()
    try:
        engine.new_game(opening, 0)
    except EngineFailure as exc:
        raise CatenaError(f"engine {label} cannot play: {exc}") from None
    finally:
        engine.close()


def _progress_bar(shown: Any) -> Callable[[MatchReport, int], None]:
    """run_match's ``progress`` drawn on a tqdm bar (catena.progress.bar)."""
    def progress(report: MatchReport, total: int) -> None:
        shown.total = total
        shown.set_postfix_str(report.summary(), refresh=False)
        shown.update(report.games - shown.n)

    return progress


def main(args: argparse.Namespace) -> int:
    """Run ``python -m catena match``."""
    if args.out and not args.force:               # before the fair komi's estimate and the engines start
        refuse_overwriting_records(args.out, 2 * math.ceil(args.games / 2))
    sprt = None if args.sprt is None else Sprt(*args.sprt)
    engines = [_engine(args.a, args.a_cmd, args.timeout), _engine(args.b, args.b_cmd, args.timeout)]
    if args.komi is not None or args.game_type != "komi":
        komis = tuple(args.komi or (0,))
        note = "given"
    else:
        fair = estimate_fair_komi(args.size, args.scoring)
        komis = komis_near(fair, args.scoring)
        which = "proven fair komi" if fair_komi_is_proven(args.size, args.scoring) else "fair komi estimated by MCTS"
        note = f"{which} {fair} and its neighbours"
    openings = opening_suite(math.ceil(args.games / 2), args.size, args.game_type, args.scoring,
                             args.opening_stones, komis, args.seed)
    for make, label in zip(engines, "AB"):
        _check_engine(make, openings[0], label)
    print(f"side {args.size}, game type {args.game_type}, {args.scoring} scoring; "
          f"{plural(len(openings), 'opening')} of {plural(args.opening_stones, 'random stone')}, "
          f"komi {', '.join(map(str, komis))} ({note}); each opening with both colours; "
          f"{plural(min(args.workers, 2 * len(openings)), 'game')} at a time")
    sys.stdout.flush()
    with bar(2 * len(openings), "match", unit=" games") as shown:
        report = run_match(engines[0], engines[1], openings, workers=args.workers, sprt=sprt, out=args.out,
                           seed=args.seed, progress=_progress_bar(shown), stop_when_decided=not args.play_all)
    print(report)
    if args.out:
        print(f"records in {args.out}")
    return 130 if report.stopped_by == "interrupt" else 0
