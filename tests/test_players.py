"""Tests of the players of catena.players (RandomPlayer, MCTSPlayer) beyond the MCTS itself.

Rule numbers refer to docs/rules.md.  The strength match and the whole
games through Game.play are in test_mcts.py.
"""

import pytest

from catena import MCTS, Game, Position
from catena._position import KOMI_RANGES
from catena.players import FlatMonteCarloPlayer, MCTSPlayer, RandomPlayer

from conftest import minimax_winner

GAME_TYPES = ("komi", "nokomi", "double")


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
    mcts = MCTS(seed=4)
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
    """P1's opening stone in a no-komi game is the visited stone whose value is nearest one half (R18)."""
    pos = Position(4, "nokomi")
    move = MCTSPlayer(iterations=3000, seed=9).choose_move(pos.copy())
    assert move.name != "button" and move in pos.legal_moves()
    result = MCTS(seed=9).search(pos, iterations=3000)
    visited = [m for m, n in result.visits.items() if n >= max(1, result.iterations // 200)]
    gap = abs(result.values[move] - 0.5)
    assert all(gap <= abs(result.values[m] - 0.5) for m in visited)


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


def test_version():
    import re

    import catena

    assert re.fullmatch(r"\d+\.\d+\.\d+", catena.__version__)
