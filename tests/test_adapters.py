"""The OpenSpiel game and the PettingZoo environment: their frameworks' own API tests
(``pyspiel.random_sim_test``, ``pettingzoo.test.api_test``) on every game type, and
games through them that agree with catena.Position move for move."""

import random
import warnings

import numpy
import pyspiel
import pytest
from pettingzoo.test import api_test

import catena
import catena.openspiel  # noqa: F401  (registers python_catena)
from catena.pettingzoo import AGENTS, env, raw_env

VARIANTS = [
    {"size": 1},
    {"size": 2},
    {"size": 3, "game_type": "double"},
    {"size": 3, "game_type": "nokomi", "scoring": "longest"},
    {"size": 4, "scoring": "square", "komi": 30},
    {"size": 6, "game_type": "komi", "komi": 5},
]
WINNER_RETURNS = {"black": [1.0, -1.0], "white": [-1.0, 1.0], None: [0.0, 0.0]}


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


@pytest.mark.parametrize("kwargs", VARIANTS)
def test_pettingzoo_api_test(kwargs):
    with warnings.catch_warnings():
        # the framework's advice on a Dict observation (it is what action masks need)
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(**kwargs), num_cycles=300)


@pytest.mark.parametrize("kwargs", VARIANTS)
def test_pettingzoo_games_agree_with_the_position(kwargs):
    rng = random.Random(str(kwargs))
    environment = env(**kwargs)
    for seed in range(4):
        environment.reset(seed=seed)
        pos = catena.Position(**kwargs)
        rewards = dict.fromkeys(AGENTS, 0.0)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            rewards[agent] += reward
            if terminated or truncated:
                environment.step(None)
                continue
            assert agent == AGENTS[("black", "white").index(pos.to_move)]
            assert numpy.array_equal(observation["action_mask"], pos.legal_action_mask())
            assert numpy.array_equal(observation["observation"], pos.observation_tensor())
            action = rng.choice(numpy.flatnonzero(observation["action_mask"]))
            environment.step(action)
            pos.push(int(action))
        assert [rewards[a] for a in AGENTS] == WINNER_RETURNS[pos.outcome().winner]


def test_pettingzoo_illegal_action_ends_the_game_or_raises():
    wrapped = env(size=3)
    wrapped.reset()
    wrapped.step(9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)         # the wrapper warns about the illegal move
        wrapped.step(9)                                       # occupied: the mover loses
    assert all(wrapped.terminations.values())
    assert wrapped.rewards == {"player_0": 0, "player_1": -1}
    bare = raw_env(size=3)
    bare.reset()
    bare.step(9)
    with pytest.raises(catena.IllegalMoveError):
        bare.step(9)
    assert bare.position.ply == 1


def test_pettingzoo_refuses_bad_arguments():
    with pytest.raises(ValueError):
        raw_env(size=0)
    with pytest.raises(ValueError):
        raw_env(render_mode="human")
    assert raw_env(size=1, render_mode="ansi").render() == str(catena.Position(size=1))


@pytest.mark.parametrize("action", [3.7, numpy.float64(3.9), 3.0, "3", b"3", True, numpy.bool_(True), None,
                                    numpy.array([3])])
def test_pettingzoo_actions_are_integers_only(action):
    """The raw environment took int(action): 3.7, 3.9 and "3" played cell 3, True cell 1."""
    bare = raw_env(size=3)
    bare.reset()
    with pytest.raises(TypeError, match="an action id must be an int, not"):
        bare.step(action)
    assert bare.position.ply == 0 and bare.agent_selection == "player_0"


def test_pettingzoo_takes_python_and_numpy_integers():
    bare = raw_env(size=3)
    bare.reset()
    for action in (3, numpy.int64(4), numpy.uint8(5), numpy.int32(6)):
        bare.step(action)
    assert [m.index for m in bare.position.move_stack] == [3, 4, 5, 6]
    with pytest.raises(ValueError, match="out of range"):
        bare.step(20)
    with pytest.raises(ValueError, match="out of range"):
        bare.step(numpy.int64(-1))
    assert bare.position.ply == 4
