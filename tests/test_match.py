"""Matches (catena/match.py), engines (catena/engines.py) and their statistics (catena/elo.py):
openings, both colours, Elo and its interval, the SPRT, failing engines, records, the command line."""

import math
import os
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import catena
from catena.elo import PairStats, Sprt, elo_of_score, score_of_elo
from catena.engines import EngineFailure, GtpClient, PlayerEngine, SubprocessEngine, parse_spec
from catena.errors import CatenaError
from catena.match import estimate_fair_komi, komis_near, opening_suite, run_match

PYTHON = sys.executable


def spec_engine(text):
    spec = parse_spec(text)
    return lambda: PlayerEngine.from_spec(spec)


# ---------------------------------------------------------------- statistics


def test_elo_and_score_are_inverse_and_symmetric():
    for elo in (-600, -100, 0, 35.5, 400):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)
        assert score_of_elo(elo) + score_of_elo(-elo) == pytest.approx(1.0)
    assert elo_of_score(0.5) == 0 and elo_of_score(0.0) == -math.inf and elo_of_score(1.0) == math.inf
    assert elo_of_score(10 / 11) == pytest.approx(400.0)      # 10 to 1 odds: 400 points


def test_pair_stats_mean_interval_and_counts():
    stats = PairStats.from_pairs([2, 1, 1, 0.5, 1.5, 2, 1, 2])
    assert stats.counts == (0, 1, 3, 1, 3) and stats.pairs == 8
    assert stats.mean == pytest.approx(11 / 16)
    low, high = stats.interval
    assert low < stats.elo < high
    more = PairStats.from_pairs([2, 1, 1, 0.5, 1.5, 2, 1, 2] * 16)
    assert more.elo == pytest.approx(stats.elo)
    assert more.interval[1] - more.interval[0] < (high - low) / 3     # 16 times the games: a quarter of the width
    with pytest.raises(ValueError, match="0.25"):
        PairStats.from_pairs([0.25])
    assert str(PairStats.from_pairs([])) == "no complete pairs yet"


def test_interval_covers_the_true_elo_about_95_percent_of_the_time():
    """Simulated matches between engines 100 Elo apart, drawn pair by pair from the logistic model."""
    import random

    rng = random.Random(5)
    p = score_of_elo(100)
    covered = 0
    for _ in range(400):
        pairs = [(rng.random() < p) + (rng.random() < p) for _ in range(100)]
        low, high = PairStats.from_pairs(pairs).interval
        covered += low <= 100 <= high
    assert 0.91 <= covered / 400 <= 0.99, covered


def test_sprt_bounds_and_decisions():
    sprt = Sprt(0, 50, 0.05, 0.05)
    assert sprt.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert sprt.llr(PairStats.from_pairs([])) == 0 and sprt.decision(PairStats.from_pairs([])) is None
    assert sprt.decision(PairStats.from_pairs([2, 1.5, 1, 2] * 30)) == "H1"
    assert sprt.decision(PairStats.from_pairs([1, 0.5, 1.5, 1] * 30)) == "H0"
    assert sprt.decision(PairStats.from_pairs([2, 0])) is None          # two pairs decide nothing
    assert "H1 accepted" in sprt.describe(PairStats.from_pairs([2, 1.5, 1, 2] * 30))
    for bad in [(0, 50, 0.0, 0.05), (0, 50, 0.05, 0.7), (50, 0, 0.05, 0.05)]:
        with pytest.raises(ValueError):
            Sprt(*bad)


def test_sprt_error_rates_in_simulation():
    """Under H0 (equal engines) the SPRT rarely accepts H1; under H1 it rarely accepts H0."""
    import random

    rng = random.Random(11)
    sprt = Sprt(0, 60, 0.05, 0.05)

    def run(elo):
        p = score_of_elo(elo)
        pairs = []
        while True:
            pairs.append((rng.random() < p) + (rng.random() < p))
            decision = sprt.decision(PairStats.from_pairs(pairs))
            if decision:
                return decision

    assert sum(run(0) == "H1" for _ in range(200)) <= 20
    assert sum(run(60) == "H0" for _ in range(200)) <= 20


# ---------------------------------------------------------------- openings


def test_opening_suite_is_seeded_legal_and_varied():
    suite = opening_suite(30, size=4, komis=(4, 5, 6), plies=3, seed=9)
    assert suite == opening_suite(30, size=4, komis=(4, 5, 6), plies=3, seed=9)
    assert suite != opening_suite(30, size=4, komis=(4, 5, 6), plies=3, seed=10)
    assert len({o.moves for o in suite}) == 30 and {o.komi for o in suite} == {4, 5, 6}
    for opening in suite:
        assert len(opening.moves) == 3 and "button" not in opening.moves
        assert not opening.position().is_game_over()
    assert {o.komi for o in opening_suite(5, size=3, game_type="nokomi", komis=(7,))} == {0}
    with pytest.raises(CatenaError, match="openings"):
        opening_suite(3, size=1, plies=1)                 # one stone ends the side-1 game
    with pytest.raises(ValueError):
        opening_suite(0)


def test_fair_komi_and_its_neighbours():
    assert estimate_fair_komi(3) == catena.fair_komi(3) == 10
    assert komis_near(10, "standard") == (9, 10, 11)
    assert komis_near(15, "longest") == (14, 15)
    assert estimate_fair_komi(4) == catena.fair_komi(4) == 9            # proven (docs/side4.md)
    assert 0 <= estimate_fair_komi(4, scoring="square", iterations=2000) <= 1000


# ---------------------------------------------------------------- in-process matches


def test_every_opening_is_played_with_both_colours():
    openings = opening_suite(3, size=3, komis=(10,), seed=2)
    report = run_match(spec_engine("mcts iterations=200"), spec_engine("random"), openings, workers=2)
    assert report.games == 6
    assert sorted((r.opening, r.a_colour) for r in report.results) == [
        (i, c) for i in range(3) for c in ("black", "white")]
    for result in report.results:
        assert result.game.is_over() and result.failure is None
        assert result.game.position.move_stack[:2] == [catena.Move(m, 3) for m in openings[result.opening].moves]
        assert result.game.player_of(result.a_colour) == ("P1" if result.a_colour == "black" else "P2")
        assert result.a_points == (0.5 if result.winner is None else float(result.winner == result.a_colour))
    assert report.pair_stats.pairs == 3


def test_the_stronger_engine_is_ahead():
    openings = opening_suite(10, size=4, komis=(4, 5, 6), seed=3)
    report = run_match(spec_engine("mcts iterations=1000"), spec_engine("random"), openings, workers=2)
    assert report.a_points >= 17, str(report)
    assert report.pair_stats.interval[0] > 0, str(report)


def test_sprt_stops_the_match_when_decided():
    openings = opening_suite(40, size=4, komis=(5,), seed=4)
    report = run_match(spec_engine("mcts iterations=500"), spec_engine("random"), openings, workers=2,
                       sprt=Sprt(0, 100, 0.05, 0.05))
    assert report.stopped_by == "sprt" and report.sprt.decision(report.pair_stats) == "H1"
    assert report.games < 80 and report.sprt_decided_after is not None
    assert "H1 accepted" in str(report)


def test_spec_options_reach_the_player():
    """Any MCTS keyword in a spec reaches MCTS (e.g. the lead's score_weight once MCTS has it)."""
    player = parse_spec("mcts iterations=100 rave=false c=0.9 threads=2 seed=4").make(seed=1)
    assert (player.iterations, player.mcts.rave, player.mcts.c, player.mcts.threads, player.mcts.seed) == (
        100, False, 0.9, 2, 4)                            # the spec's own seed wins
    assert parse_spec("flat playouts=20").make(seed=1).playouts == 20
    with pytest.raises(CatenaError, match="wisdom"):
        parse_spec("mcts wisdom=3").make()
    with pytest.raises(CatenaError, match="key=value"):
        parse_spec("mcts 2000")
    with pytest.raises(CatenaError, match="unknown player kind"):
        parse_spec("")


# ---------------------------------------------------------------- GTP engines and their failures

FAKE_ENGINE = textwrap.dedent("""\
    import os, sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "genmove":
            if mode == "crash":
                sys.stderr.write("imitating a segmentation fault\\n")
                sys.stderr.flush()
                sys.exit(3)
            if mode == "hang":
                if len(sys.argv) > 2:                 # say who hangs (the process under a wrapper)
                    with open(sys.argv[2], "w") as handle:
                        handle.write(str(os.getpid()))
                time.sleep(600)
            if mode == "garbage":                     # not UTF-8, not GTP, and no blank line after it
                sys.stdout.buffer.write(b"\\xff\\xfe\\x80 bits\\n")
                sys.stdout.flush()
                time.sleep(600)
            if mode == "noisy":                       # a bad byte, then more than a pipe holds, on stderr
                sys.stderr.buffer.write(b"\\xff\\n" + (b"x" * 99 + b"\\n") * 2000 + b"the last words\\n")
                sys.stderr.flush()
                print("= A1\\n", flush=True)
                continue
            if mode == "illegal":
                print("= Z99\\n", flush=True)
                continue
            if mode == "nonsense":
                print("hello\\n", flush=True)
                continue
        if words[0] == "quit":
            print("=\\n", flush=True)
            break
        if mode == "refuse" and words[0] == "catena-game_type":
            print("? unknown command\\n", flush=True)
            continue
        print("=\\n", flush=True)
""")


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE_ENGINE)
    return lambda mode: f"{PYTHON} {path} {mode}"


@pytest.mark.parametrize("mode,kind", [("crash", "crash"), ("hang", "timeout"), ("illegal", "illegal move"),
                                       ("nonsense", "crash"), ("refuse", "refused")])
def test_a_failing_engine_loses_and_is_reported(fake, mode, kind):
    openings = opening_suite(2, size=3, komis=(10,), seed=1)
    start = time.perf_counter()
    report = run_match(lambda: SubprocessEngine(fake(mode), timeout=1.0), spec_engine("random"), openings, workers=2)
    assert time.perf_counter() - start < 30
    assert report.games == 4 and report.a_points == 0
    assert len(report.failures) == 4
    for result in report.results:
        assert result.failure.startswith(f"A ({result.a_colour}) {kind}")
    if mode == "crash":
        assert "imitating a segmentation fault" in report.results[0].failure
    assert "engine failures: 4" in str(report)


def test_gtp_client_answers_and_timeouts(fake):
    client = GtpClient(fake("hang"), timeout=0.5)
    assert client.send("name") == ""
    with pytest.raises(EngineFailure) as failure:
        client.send("genmove black")
    assert failure.value.kind == "timeout" and not client.alive
    with pytest.raises(EngineFailure, match="cannot start"):
        GtpClient("/nonexistent/engine --gtp")
    client = GtpClient(f"{PYTHON} -m catena gtp --size 3 --iterations 100", timeout=30)
    assert client.send("protocol_version") == "2"
    with pytest.raises(EngineFailure, match="refused") as failure:
        client.send("play black Q9")
    assert failure.value.kind == "refused"
    client.close()
    assert not client.alive


def test_an_engine_that_writes_bytes_not_text_fails_at_once(fake):
    # The answers were decoded as strict UTF-8 in the reader thread: one bad byte killed it, and the
    # game waited the whole timeout to score "timeout" (and a full stderr pipe blocked the engine).
    client = GtpClient(fake("garbage"), timeout=120)
    with pytest.raises(EngineFailure, match="not a GTP answer") as failure:
        client.send("genmove black")
    assert failure.value.kind == "crash" and "\ufffd" in str(failure.value) and not client.alive
    client = GtpClient(fake("noisy"), timeout=120)
    assert client.send("genmove black") == "A1"             # stderr was read past the bad byte to the end
    assert client.send("genmove white") == "A1"
    client.close()
    assert "the last words" in client._why_dead()


def test_a_garbage_answer_loses_the_game(fake):
    report = run_match(lambda: SubprocessEngine(fake("garbage"), timeout=120), spec_engine("random"),
                       opening_suite(1, size=3, komis=(10,), seed=1))
    assert report.games == 2 and report.a_points == 0
    assert all("crash" in result.failure and "not a GTP answer" in result.failure for result in report.results)


def wrapped(fake, pid_file):
    """The hanging fake engine started by a shell that stays its parent (the echo after it)."""
    return f"bash -c {shlex.quote(fake('hang') + ' ' + shlex.quote(str(pid_file)) + '; echo wrapper done >&2')}"


def running(pid):
    """Whether the process runs (a zombie left to its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def wait_for(condition, seconds=30):
    """Wait until ``condition()`` holds (False if it still does not after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(shutil.which("bash") is None or not hasattr(os, "killpg"), reason="needs bash and POSIX")
def test_a_wrapped_engine_is_killed_with_all_it_started(fake, tmp_path):
    """Only the direct child (the shell) was killed: the engine under it lived on, an orphan."""
    pid_file = tmp_path / "engine.pid"
    client = GtpClient(wrapped(fake, pid_file), timeout=120)
    engine_pid = None
    try:
        assert client.send("name") == ""                     # started
        with pytest.raises(EngineFailure) as failure:
            client.send("genmove black", timeout=1.0)
        assert failure.value.kind == "timeout"
        engine_pid = int(pid_file.read_text())
        assert wait_for(lambda: not running(engine_pid)), "the engine under the wrapper still runs"
    finally:
        if engine_pid is not None and running(engine_pid):
            os.kill(engine_pid, signal.SIGKILL)


@pytest.mark.skipif(shutil.which("bash") is None or not hasattr(os, "killpg"), reason="needs bash and POSIX")
def test_engines_run_in_a_session_of_their_own(fake, tmp_path):
    """The terminal's Ctrl-C goes to the match, which stops its engines (they never see it), and
    stopping them wakes a game waiting on one at once, wrapper or not."""
    pid_file = tmp_path / "engine.pid"
    client = GtpClient(wrapped(fake, pid_file), timeout=600)
    failures = []

    def ask():
        try:
            client.send("genmove black")
        except EngineFailure as exc:
            failures.append(exc.kind)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    engine_pid = None
    try:
        assert wait_for(lambda: pid_file.exists() and pid_file.read_text())     # the genmove hangs
        engine_pid = int(pid_file.read_text())
        assert os.getsid(engine_pid) == client._process.pid != os.getsid(0)
        client.close()                     # as a stopped match does: the waiting thread wakes
        thread.join(timeout=60)
        assert not thread.is_alive(), "close() left a thread waiting on an engine under a wrapper"
        assert failures == ["crash"] and wait_for(lambda: not running(engine_pid))
    finally:
        client.kill()
        if engine_pid is not None and running(engine_pid):
            os.kill(engine_pid, signal.SIGKILL)


@pytest.mark.skipif(shutil.which("bash") is None or not hasattr(os, "killpg"), reason="needs bash and POSIX")
def test_ctrl_c_stops_a_match_of_wrapped_engines_and_leaves_none(fake, tmp_path):
    """Ctrl-C took the whole --timeout (the engine under the wrapper kept the pipe open) and left it running."""
    pid_file = tmp_path / "engine.pid"
    proc = subprocess.Popen([PYTHON, "-m", "catena", "match", "--a-cmd", wrapped(fake, pid_file), "--b", "random",
                             "--size", "3", "--komi", "10", "--games", "2", "--workers", "1", "--timeout", "600"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    engine_pid = None
    try:
        assert wait_for(lambda: pid_file.exists() and pid_file.read_text(), 120)     # a genmove hangs
        engine_pid = int(pid_file.read_text())
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
        assert proc.returncode == 130, stderr
        assert "stopped by Ctrl-C" in stdout and "Traceback" not in stderr
        assert wait_for(lambda: not running(engine_pid)), "the engine outlived the match"
    finally:
        if proc.poll() is None:
            proc.kill()
        if engine_pid is not None and running(engine_pid):
            os.kill(engine_pid, signal.SIGKILL)


def test_catena_gtp_engines_play_a_match_and_save_records(tmp_path):
    out = tmp_path / "records"
    command = f"{PYTHON} -m catena gtp --iterations 300"
    openings = opening_suite(2, size=3, komis=(9, 10, 11), seed=6)
    report = run_match(lambda: SubprocessEngine(command), spec_engine("mcts iterations=50"), openings, workers=2,
                       out=str(out))
    assert report.games == 4 and not report.failures
    files = sorted(os.listdir(out))
    assert files == [f"game-000{i}.catena" for i in range(1, 5)]
    for name, result in zip(files, report.results):
        game = catena.read_game((out / name).read_text()).game()
        assert game.is_over() and game.position == result.game.position


def test_record_of_a_failed_game_names_the_winner(fake, tmp_path):
    openings = opening_suite(1, size=3, komis=(10,), seed=1)
    run_match(lambda: SubprocessEngine(fake("crash"), timeout=5), spec_engine("random"), openings, out=str(tmp_path))
    text = (tmp_path / "game-0001.catena").read_text()     # A is Black, so P1, and crashed
    assert '[Result "P2"]' in text and "failure of A (black) crash" in text
    assert not catena.read_game(text).game().is_over()


# ---------------------------------------------------------------- command line


def match_command(*args, **options):
    return subprocess.run([PYTHON, "-m", "catena", "match", *args], text=True, capture_output=True,
                          timeout=300, **options)


def test_command_line_match(tmp_path):
    proc = match_command("--a-cmd", f"{PYTHON} -m catena gtp --iterations 300", "--b", "random",
                         "--size", "3", "--games", "4", "--out", "recs", "--sprt", "0", "50", "0.05", "0.05",
                         "--play-all", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "komi 9, 10, 11 (proven fair komi 10 and its neighbours)" in proc.stdout
    assert "4 games" in proc.stdout and "Elo of A over B: 2 pairs" in proc.stdout
    assert "SPRT elo0=0 elo1=50" in proc.stdout and "engine failures: 0" in proc.stdout
    assert len(os.listdir(tmp_path / "recs")) == 4


@pytest.mark.parametrize("args,message", [
    (["--a", "mcts wisdom=1", "--b", "random"], "wisdom"),
    (["--a", "chess", "--b", "random"], "unknown player kind"),
    (["--a-cmd", "/nonexistent/engine", "--b", "random"], "engine A cannot play"),
    (["--a", "random", "--b", "random", "--games", "0"], "--games"),
    (["--a", "random", "--b", "random", "--sprt", "0", "50", "0.5", "0.05"], "alpha"),
    (["--a", "random", "--b", "random", "--timeout", "0"], "--timeout"),
])
def test_command_line_errors(tmp_path, args, message):
    proc = match_command("--size", "3", *args, cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_ctrl_c_stops_the_match_with_a_report(tmp_path):
    proc = subprocess.Popen([PYTHON, "-m", "catena", "match", "--a-cmd", f"{PYTHON} -m catena gtp --iterations 20000",
                             "--b", "mcts iterations=20000", "--size", "6", "--komi", "3", "--games", "40"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().startswith("side 6")      # the match has started
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "stopped by Ctrl-C" in stdout and "Traceback" not in stderr
