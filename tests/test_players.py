"""Tests of the players of catena.players (RandomPlayer, FlatMonteCarloPlayer, MCTSPlayer):
their moves and setup decisions, their strength, and whole games through Game.play.

Rule numbers refer to docs/rules.md.  The search itself is tested in test_mcts.py.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from catena import MCTS, SCORINGS, Game, Position
from catena._position import KOMI_RANGES
from catena.match import play_game
from catena.players import PLAYER_LEAF_PLAYOUTS, FlatMonteCarloPlayer, MCTSPlayer, RandomPlayer

from conftest import minimax_winner

GAME_TYPES = ("komi", "nokomi", "double")
OTHER = {"black": "white", "white": "black"}


def test_random_player_is_seeded_and_legal():
    """RandomPlayer: legal moves, the same seed gives the same game, komi 0, a colour in the setup."""
    def game(seed):
        player, pos = RandomPlayer(seed=seed), Position(5, "double")
        while not pos.is_game_over():
            move = player.choose_move(pos.copy())
            assert move in pos.legal_moves()
            pos.push(move)
        return [m.name for m in pos.move_stack]
    assert game(1) == game(1)
    assert game(1) != game(2)
    player = RandomPlayer(seed=0)
    assert player.choose_komi(Game(4)) == 0
    assert {player.choose_colour(Game(4)) for _ in range(30)} == {"black", "white"}


def test_mcts_player_keeps_its_tree_between_moves():
    """MCTSPlayer's moves equal one MCTS that searches each decision and advances through the moves between."""
    player = MCTSPlayer(iterations=600, seed=4)
    opponent = RandomPlayer(seed=4)
    mcts = MCTS(seed=4, leaf_playouts=PLAYER_LEAF_PLAYOUTS)      # the player's search
    pos = Position(5)
    searched = None
    while not pos.is_game_over():
        if pos.to_move == "black":
            if searched is not None:
                for move in pos.move_stack[searched:]:
                    mcts.advance(move)
            expected = mcts.search(pos, iterations=600).best_move
            searched = pos.ply
            assert player.choose_move(pos.copy()) == expected
            pos.push(expected)
        else:
            pos.push(opponent.choose_move(pos.copy()))
    # after the game, a new game still gets legal moves (the old tree is dropped)
    fresh = Position(4)
    assert player.choose_move(fresh) in fresh.legal_moves()


def test_mcts_player_with_a_time_budget():
    """MCTSPlayer(iterations=None, seconds=...) searches by time and plays legal moves."""
    player = MCTSPlayer(iterations=None, seconds=0.02, seed=1)
    pos = Position(6)
    for _ in range(3):
        move = player.choose_move(pos.copy())
        assert move in pos.legal_moves()
        pos.push(move)


@pytest.mark.parametrize("scoring", ["standard", "square"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_komi_choice_on_side_2_is_at_the_solved_threshold(scoring, seed):
    """As P1 on side 2, MCTSPlayer chooses the komi where the solved winner switches from Black to White."""
    high = 15 if scoring == "standard" else 40
    winners = [minimax_winner(Position(2, "komi", scoring, k)) for k in range(high + 1)]
    switch = winners.index("white")
    assert set(winners[:switch]) == {"black"} and set(winners[switch:]) == {"white"}
    komi = MCTSPlayer(iterations=2000, seed=seed).choose_komi(Game(2, "komi", scoring))
    assert komi in (switch - 1, switch)



@pytest.mark.parametrize("scoring", ["standard", "longest", "square"])
def test_komi_choice_stays_in_the_rules_range(scoring, monkeypatch):
    """However far ahead Black looks, P1's komi bid is the top of R22's range for the scoring."""
    top = KOMI_RANGES[scoring][1]
    player = MCTSPlayer(iterations=10, seed=1)
    monkeypatch.setattr(player, "_black_margin", lambda pos: None if scoring == "longest" else 5000.0)
    monkeypatch.setattr(player, "_black_value", lambda pos: 0.55 if pos.komi == top else 0.9)
    komi = player.choose_komi(Game(3, "komi", scoring))
    assert komi == top
    Game(3, "komi", scoring).choose_komi(komi)          # and the game takes it


@pytest.mark.parametrize("game_type", ["komi", "nokomi"])
def test_mcts_player_colour_choice_takes_the_solved_winner(game_type):
    """As P2 on side 2, MCTSPlayer takes the colour that wins under best play."""
    for komi in ((0, 2, 3, 6) if game_type == "komi" else (0,)):
        for opening in (["B2", "A1", "C3"] if game_type == "nokomi" else [None]):
            game = Game(2, game_type)
            if game_type == "komi":
                game.choose_komi(komi)
            else:
                game.push(opening)
            winner = minimax_winner(game.position.copy())
            assert MCTSPlayer(iterations=3000, seed=komi).choose_colour(game) == winner


def test_nokomi_opening_stone_is_the_most_balanced():
    """P1's opening stone in a no-komi game is the visited stone whose expected margin is
    nearest an even game (R18; the win rate nearest one half where there is no margin)."""
    for scoring in ("standard", "longest"):
        pos = Position(4, "nokomi", scoring)
        move = MCTSPlayer(iterations=3000, seed=9).choose_move(pos.copy())
        assert move.name != "button" and move in pos.legal_moves()
        result = MCTS(seed=9, leaf_playouts=PLAYER_LEAF_PLAYOUTS).search(pos, iterations=3000)   # the player's
        visited = [m for m, n in result.visits.items() if n >= max(1, result.iterations // 200)]
        if scoring == "standard":
            assert all(abs(result.scores[move]) <= abs(result.scores[m]) for m in visited)
        else:
            assert all(abs(result.values[move] - 0.5) <= abs(result.values[m] - 0.5) for m in visited)


@pytest.mark.parametrize("make, error, words", [
    (lambda: MCTSPlayer(iterations=-1), ValueError, "iterations must be at least 1, not -1"),
    (lambda: MCTSPlayer(iterations=0), ValueError, "iterations must be at least 1"),
    (lambda: MCTSPlayer(iterations="100"), TypeError, "iterations must be an int"),
    (lambda: MCTSPlayer(iterations=None, seconds=-2), ValueError, "seconds must be positive"),
    (lambda: MCTSPlayer(seconds=float("nan")), ValueError, "seconds must be a number, not NaN"),
    (lambda: MCTSPlayer(seconds=float("inf")), ValueError, "finite"),
    (lambda: MCTSPlayer(seconds="3"), TypeError, "seconds must be a number"),
    (lambda: MCTSPlayer(iterations=None), ValueError, "give a budget"),
    (lambda: MCTSPlayer(threads=0), ValueError, "threads must be 1 to"),
    (lambda: FlatMonteCarloPlayer(playouts=0), ValueError, "playouts must be at least 1"),
])
def test_players_check_their_arguments_when_made(make, error, words):
    """A bad budget raises when the player is made, not at its first move."""
    with pytest.raises(error, match=words):
        make()


def test_mcts_player_needs_a_budget():
    """MCTSPlayer without any budget raises ValueError; bad MCTS options raise at construction."""
    with pytest.raises(ValueError, match="budget"):
        MCTSPlayer(iterations=None, seconds=None)
    with pytest.raises(ValueError):
        MCTSPlayer(iterations=100, threads=0)
    with pytest.raises(TypeError):
        MCTSPlayer(iterations=100, no_such_option=1)


# ---------------------------------------------------------------- strength


@pytest.mark.parametrize("size,komi", [(4, 0), (6, 3)])
def test_mcts_player_beats_random_player(size, komi):
    """MCTSPlayer(iterations=1000) wins at least 95 of 100 games against RandomPlayer (colours
    alternate; two games at a time, as the search leaves the interpreter's lock)."""
    def game(number):
        return play_game(MCTSPlayer(iterations=1000, seed=number), RandomPlayer(seed=10_000 + number),
                         size=size, komi=komi, first_is_black=number % 2 == 0)

    with ThreadPoolExecutor(2) as pool:
        score = sum(pool.map(game, range(100)))
    assert score >= 95, score


# ---------------------------------------------------------------- whole games: the setup decisions


@pytest.mark.parametrize("scoring", SCORINGS)
@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_game_play_with_mcts_players(game_type, scoring):
    """Game.play(MCTSPlayer, MCTSPlayer) on side 3: finishes, komi in range, P2 takes its better colour."""
    budget, seed2 = 1500, 22
    p1, p2 = MCTSPlayer(iterations=budget, seed=11), MCTSPlayer(iterations=budget, seed=seed2)
    log = []

    def on_action(game, who, kind, value):
        entry = [who, kind, value, game.to_act]
        if kind == "colour":
            # P2's own search, reproduced: P2 has not searched before its colour choice
            position = game.position
            own = MCTS(seed=seed2).search(position, iterations=budget)
            black = own.value if position.to_move == "black" else 1.0 - own.value
            entry.append((own.score, black))
        log.append(entry)

    game = Game(size=3, game_type=game_type, scoring=scoring)
    out = game.play(p1, p2, on_action=on_action)
    assert game.is_over() and game.to_act is None
    assert out == game.outcome()
    assert out.outcome == game.position.outcome()
    assert game.position.is_game_over()

    kinds = [entry[1] for entry in log]
    assert [(k, v.name if k == "move" else v) for _, k, v, *_ in log] == game.actions
    if game_type == "komi":
        assert kinds[:2] == ["komi", "colour"] and [e[0] for e in log[:2]] == ["P1", "P2"]
        assert 0 <= game.komi <= KOMI_RANGES[scoring][1] and isinstance(game.komi, int)
        assert game.position.komi == game.komi
    elif game_type == "nokomi":
        assert kinds[:2] == ["move", "colour"] and [e[0] for e in log[:2]] == ["P1", "P2"]
        assert log[0][2].name != "button"                 # P1's opening black stone (R18)
        assert game.komi == 0
    else:
        assert "komi" not in kinds and "colour" not in kinds   # R19: no setup
        assert out.p1_colour == "black" and game.komi == 0
    assert all(k == "move" for k in kinds[2 if game_type != "double" else 0:])

    if game_type != "double":
        # the colour the margin favours (the win rate under longest ribbon, which has none)
        _, _, colour, _, (margin, black_value) = next(e for e in log if e[1] == "colour")
        assert (margin is None) == (scoring == "longest")
        if margin:
            expected = "black" if margin > 0 else "white"
        else:
            expected = "black" if black_value >= 0.5 else "white"
        assert colour == expected, (colour, margin, black_value)
        assert out.p1_colour == OTHER[colour]

    # the outcome is consistent per colour and per player
    outcome = out.outcome
    assert outcome.winner in ("black", "white")             # no draws (parity)
    assert out.winner == outcome.winner
    assert out.winner_player == ("P1" if outcome.winner == out.p1_colour else "P2")
    assert game.player_of(outcome.winner) == out.winner_player
    if scoring == "longest":
        assert outcome.black_score is None and outcome.white_score is None
    else:
        winner_score = outcome.black_score if outcome.winner == "black" else outcome.white_score
        loser_score = outcome.white_score if outcome.winner == "black" else outcome.black_score
        assert winner_score > loser_score
        assert out.score_of(out.winner_player) == winner_score
    assert (outcome.button is None) == (game_type == "double")

    # replaying the actions reproduces the game
    replay = Game(size=3, game_type=game_type, scoring=scoring)
    for kind, value in game.actions:
        {"komi": replay.choose_komi, "colour": replay.choose_colour, "move": replay.push}[kind](value)
    assert replay.outcome() == out


def test_version():
    import re

    import catena

    assert re.fullmatch(r"\d+\.\d+\.\d+", catena.__version__)
