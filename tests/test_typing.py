"""The public API is typed: an example using all of it passes ``mypy --strict`` and runs."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "api_tour.py"


def test_api_tour_passes_mypy_strict():
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(EXAMPLE)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_api_tour_runs():
    proc = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "to move" in proc.stdout
