"""The Python files pass ruff (its rules are set in pyproject.toml's ``[tool.ruff]``), and no
file names a folder of a particular machine."""

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MACHINE_PATH = r"(^|[^[:alnum:]_.])/(work|tmp|root|home)/[[:alnum:]_.-]+"


def test_ruff_is_clean():
    try:
        import ruff  # noqa: F401  (installed by the test extra)
    except ImportError:
        pytest.fail('ruff is missing: python3 -m pip install -e ".[test]" installs it')
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "catena", "tests", "bench", "examples"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_machine_paths_in_the_repository():
    """Code, docs and data cite the repository's own files (docs/rules.md), never a folder of
    one machine (a home, work or temporary folder)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing to list the tracked files")
    proc = subprocess.run(["git", "grep", "-nE", MACHINE_PATH, "--", ".", ":!*.svg"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr          # 1: no match
    assert proc.stdout == "", proc.stdout


def test_the_machine_path_pattern_finds_one():
    """The pattern above matches what it is meant to (a check that can fail)."""
    pattern = MACHINE_PATH.replace("[:alnum:]", "a-zA-Z0-9")
    home, temporary = "/" + "home/someone/rules.md", "/" + "tmp/x.txt"      # split: this file is searched too
    assert re.search(pattern, f"see {home}") and re.search(pattern, f'"{temporary}"')
    assert not re.search(pattern, "docs/rules.md") and not re.search(pattern, "a/tmp/b")
