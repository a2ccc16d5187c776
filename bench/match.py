"""Strength matches at equal iterations: MCTS with RAVE against plain UCT, or MCTS
playing for points against the win-only search (score_weight=0).

    python bench/match.py [--games 400] [--iterations 2000] [--size 6] [--komi 3] [--workers 2]
    python bench/match.py --score-weight 0.5 [--games 120] ...

The second form also reports the mean final margin of each side (points, its own
score minus the opponent's), since playing for points should win by more.
"""

import argparse
import functools
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from catena import Position
from catena.match import MatchResult, play_match
from catena.players import MCTSPlayer


def make_player(index, iterations, seed_base, **options):
    return MCTSPlayer(iterations=iterations, seed=seed_base + index, **options)


def margin_game(args):
    """One game of the score match; returns the first player's margin in points."""
    index, iterations, size, komi, weight = args
    first = make_player(index, iterations, 1_000, score_weight=weight)
    second = make_player(index, iterations, 2_000, score_weight=0)
    first_is_black = index % 2 == 0
    black, white = (first, second) if first_is_black else (second, first)
    pos = Position(size, "komi", "standard", komi)
    while not pos.is_game_over():
        player = black if pos.to_move == "black" else white
        pos.push(player.choose_move(pos.copy()))
    outcome = pos.outcome()
    margin = outcome.black_score - outcome.white_score
    return margin if first_is_black else -margin


def score_match(args) -> None:
    jobs = [(i, args.iterations, args.size, args.komi, args.score_weight) for i in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        margins = list(pool.map(margin_game, jobs, chunksize=2))
    wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins)
    result = MatchResult(games=args.games, wins=wins, draws=sum(1 for m in margins if m == 0))
    won = [m for m in margins if m > 0]
    lost = [-m for m in margins if m < 0]
    print(f"score_weight={args.score_weight} vs score_weight=0, {args.iterations} iterations per move, "
          f"side {args.size}, komi {args.komi}: scores {result}; mean margin {statistics.mean(margins):+.2f} "
          f"points a game; margin of its wins {statistics.mean(won) if won else 0:.2f}, of its losses "
          f"{statistics.mean(lost) if lost else 0:.2f}")


def rave_match(args) -> None:
    rave = functools.partial(make_player, iterations=args.iterations, seed_base=1_000, rave=True)
    plain = functools.partial(make_player, iterations=args.iterations, seed_base=2_000, rave=False)
    result = play_match(rave, plain, args.games, workers=args.workers, size=args.size, komi=args.komi)
    print(f"MCTS+RAVE vs plain UCT, {args.iterations} iterations per move, side {args.size}, "
          f"komi {args.komi}: RAVE scores {result}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--komi", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--score-weight", type=float, default=None,
                        help="play this score_weight against score_weight=0 instead of RAVE against UCT")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.score_weight is None:
        rave_match(args)
    else:
        score_match(args)
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
