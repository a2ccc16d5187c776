"""Fuzz the whole public surface with hypothesis, one child process per batch
(tests/_fuzz_child.py), so that a crash fails this test instead of killing the run.

The default size (4 batches of 300 call sequences, about 40 CPU-seconds, the batches
run side by side) keeps the suite quick; ``CATENA_FUZZ_EXAMPLES=5000 python3 -m pytest tests/test_fuzz.py`` fuzzes
longer, and ``CATENA_FUZZ_BATCHES`` runs more seeds.
"""

import os
import subprocess
import sys

import pytest

from conftest import child_env

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = int(os.environ.get("CATENA_FUZZ_EXAMPLES", "300"))
BATCHES = int(os.environ.get("CATENA_FUZZ_BATCHES", "4"))


@pytest.fixture(scope="module")
def batches(tmp_path_factory):
    """Every batch's child, all started at once (the machine's cores run them side by side),
    each writing to files: {batch: (process, stdout file, stderr file)}."""
    folder = tmp_path_factory.mktemp("fuzz")
    children = {}
    for batch in range(BATCHES):
        out, err = open(folder / f"{batch}.out", "w+"), open(folder / f"{batch}.err", "w+")
        proc = subprocess.Popen([sys.executable, os.path.join(HERE, "_fuzz_child.py"), str(batch), str(EXAMPLES)],
                                stdout=out, stderr=err, text=True, env=child_env())
        children[batch] = (proc, out, err)
    yield children
    for proc, out, err in children.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        out.close()
        err.close()


@pytest.mark.parametrize("batch", range(BATCHES))
def test_fuzz_batch_ends_cleanly(batches, batch):
    proc, out, err = batches[batch]
    try:
        proc.wait(timeout=60 + EXAMPLES * BATCHES)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"fuzz batch {batch} hung: {exc}")
    out.seek(0)
    err.seek(0)
    report = err.read()[-6000:]
    assert proc.returncode >= 0, f"fuzz batch {batch} crashed (signal {-proc.returncode}):\n{report}"
    assert proc.returncode == 0 and out.read().strip() == "clean", f"fuzz batch {batch} failed:\n{report}"


def test_atheris_drives_the_same_calls(tmp_path):
    """Coverage-guided fuzzing with atheris (in the ``test`` extra) over the same call
    sequences, briefly; run longer by hand: ``python tests/_fuzz_child.py --atheris
    -max_total_time=600``.

    libFuzzer's memory limit is off: Linux hands a child the peak resident size of the
    process that started it (folded in at exec), here this test run's, which other tests
    take past the 2 GB limit (test_analysis: about 5 GB), so the child "ran out of memory"
    at its first check whenever it ran longer than a second."""
    pytest.importorskip("atheris")
    env = child_env()
    proc = subprocess.run([sys.executable, os.path.join(HERE, "_fuzz_child.py"), "--atheris", "-runs=300",
                           "-rss_limit_mb=0", f"-artifact_prefix={tmp_path}{os.sep}"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, f"atheris found a failure (status {proc.returncode}):\n{proc.stderr[-6000:]}"
    assert "Done 300 runs" in proc.stderr
