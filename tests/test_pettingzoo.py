"""The PettingZoo environment: the framework's own API test (``pettingzoo.test.api_test``)
on every game type, games through it that agree with catena.Position move for move, and
its refusals.  Skipped where PettingZoo (catena[pettingzoo]) is not installed; the test
extra installs it."""

import random
import warnings

import numpy
import pytest

import catena

from conftest import ADAPTER_VARIANTS as VARIANTS
from conftest import WINNER_RETURNS

api_test = pytest.importorskip("pettingzoo.test").api_test
catena_pettingzoo = pytest.importorskip("catena.pettingzoo")
AGENTS, env, raw_env = catena_pettingzoo.AGENTS, catena_pettingzoo.env, catena_pettingzoo.raw_env



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
