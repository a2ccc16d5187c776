"""The OpenSpiel game: the framework's own API test (``pyspiel.random_sim_test``) on every
game type, and games through it that agree with catena.Position move for move.  Skipped
where OpenSpiel (catena[openspiel]) is not installed; the test extra installs it."""

import random

import numpy
import pytest

import catena

from conftest import ADAPTER_VARIANTS as VARIANTS
from conftest import WINNER_RETURNS

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("catena.openspiel")         # registers python_catena



@pytest.mark.parametrize("params", VARIANTS)
def test_openspiel_random_sim_test(params):
    game = pyspiel.load_game("python_catena", params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize("params", VARIANTS)
def test_openspiel_games_agree_with_the_position(params):
    game = pyspiel.load_game("python_catena", params)
    ncells = len(catena.cells(params["size"]))
    assert game.num_distinct_actions() == ncells + 1
    assert game.observation_tensor_shape() == list(catena.observation_shape(params["size"]))
    rng = random.Random(str(params))
    for _ in range(5):
        state = game.new_initial_state()
        pos = catena.Position(**params)
        while not state.is_terminal():
            assert state.legal_actions() == [m.index for m in pos.legal_moves()]
            assert state.current_player() == ("black", "white").index(pos.to_move)
            mover = state.current_player()
            assert numpy.array_equal(numpy.reshape(state.observation_tensor(mover), game.observation_tensor_shape()),
                                     pos.observation_tensor())
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            pos.push(action)
        assert str(state) == pos.to_string()
        assert state.returns() == WINNER_RETURNS[pos.outcome().winner]


def test_openspiel_refuses_bad_parameters():
    for params in ({"size": 11}, {"game_type": "chess"}, {"komi": 99}, {"game_type": "double", "komi": 1}):
        with pytest.raises(Exception, match="size|game type|komi"):
            pyspiel.load_game("python_catena", params)
