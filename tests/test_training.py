"""Self-play training arrays (catena.selfplay, ``selfplay --npz``): shapes, seeding, and
samples that agree with the games they come from."""

import subprocess
import sys

import numpy
import pytest

import catena
from catena.selfplay import selfplay_arrays


@pytest.mark.parametrize("game_type, scoring", [("komi", "standard"), ("double", "square"),
                                                ("nokomi", "longest")])
def test_samples_describe_their_games(game_type, scoring):
    data = selfplay_arrays(4, size=3, game_type=game_type, scoring=scoring, iterations=60, seed=11)
    count = len(data["policy"])
    assert data["observation"].shape == (count,) + catena.observation_shape(3)
    assert data["policy"].shape == (count, 20) and data["policy"].dtype == numpy.float32
    assert set(data["game"].tolist()) == {0, 1, 2, 3}
    assert numpy.allclose(data["policy"].sum(axis=1), 1.0)
    for i in range(count):
        pos = catena.Position.from_string(str(data["position"][i]))
        assert (data["observation"][i] == pos.observation_tensor()).all()
        assert not (data["policy"][i] > 0)[~pos.legal_action_mask()].any()       # visits only on legal moves
        assert data["player"][i] == ("black", "white").index(pos.to_move)
    for game in range(4):
        rows = numpy.flatnonzero(data["game"] == game)
        assert len(numpy.unique(data["result"][rows])) == 1
        assert len(numpy.unique(data["margin"][rows], equal_nan=True)) == 1
        if scoring == "longest":
            assert numpy.isnan(data["margin"][rows]).all()
        # the game's last sample is one move before the end, and some move there ends it as recorded
        last = catena.Position.from_string(str(data["position"][rows[-1]]))
        result, margin = int(data["result"][rows[0]]), float(data["margin"][rows[0]])
        assert any(won == result and (scoring == "longest" or points == margin)
                   for won, points in map(_result_of, _finished(last)))


def _finished(pos):
    for move in pos.legal_moves():
        child = pos.copy()
        child.push(move)
        if child.is_game_over():
            yield child


def _result_of(pos):
    outcome = pos.outcome()
    margin = float("nan") if outcome.black_score is None else outcome.black_score - outcome.white_score
    return {"black": 1, "white": -1, None: 0}[outcome.winner], margin


def test_the_same_seed_gives_the_same_arrays():
    first = selfplay_arrays(3, size=2, iterations=40, seed=3)
    again = selfplay_arrays(3, size=2, iterations=40, seed=3)
    assert all(numpy.array_equal(first[k], again[k], equal_nan=k == "margin") for k in first)
    other = selfplay_arrays(3, size=4, iterations=40, seed=4)
    assert other["observation"].shape[1:] == catena.observation_shape(4)


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        selfplay_arrays(-1, size=2)
    with pytest.raises(ValueError):
        selfplay_arrays(1, size=2, iterations=0)
    with pytest.raises(ValueError):
        selfplay_arrays(1, size=11)
    empty = selfplay_arrays(0, size=2)
    assert empty["observation"].shape == (0, 10, 3, 3) and empty["policy"].shape == (0, 8)


def test_command_line_writes_the_arrays(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "catena", "selfplay", "--npz", "data.npz", "--games", "2",
                           "--size", "3", "--iterations", "50", "--seed", "9"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "2 games" in proc.stdout and "data.npz" in proc.stdout
    with numpy.load(tmp_path / "data.npz") as data:
        assert sorted(data.files) == ["game", "margin", "observation", "player", "policy", "position", "result"]
        expected = selfplay_arrays(2, size=3, iterations=50, seed=9)
        assert numpy.array_equal(data["policy"], expected["policy"])
    bad = subprocess.run([sys.executable, "-m", "catena", "selfplay", "--npz", "x.npz", "--komi", "99"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert bad.returncode == 2 and "komi" in bad.stderr and "Traceback" not in bad.stderr


def test_ctrl_c_stops_cleanly_with_the_finished_games():
    import _thread
    import threading
    import time

    threading.Timer(1.0, _thread.interrupt_main).start()
    start = time.perf_counter()
    data = selfplay_arrays(10_000, size=4, iterations=3000, seed=2)
    assert time.perf_counter() - start < 30
    played = set(data["game"].tolist())
    assert played == set(range(len(played))) and len(played) < 10_000
    assert len(data["observation"]) == len(data["policy"]) == len(data["result"])
    more = selfplay_arrays(1, size=2, iterations=20, seed=2)          # Ctrl-C handling was undone
    assert set(more["game"].tolist()) == {0}
