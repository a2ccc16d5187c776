"""The Cython core passes cython-lint (configured in pyproject.toml's [tool.cython-lint]).

cython-lint is in the ``test`` extra, so the README's test command checks the
.pyx and .pxd files the way CI does.
"""

import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# cython-lint has no ``python -m`` entry point: call its main in a fresh interpreter
LINT = "import sys; from cython_lint.cython_lint import main; sys.exit(main(sys.argv[1:]))"


def _lint(*paths):
    return subprocess.run([sys.executable, "-c", LINT, *paths], cwd=ROOT, capture_output=True, text=True)


def test_the_core_is_lint_clean():
    files = sorted(glob.glob(os.path.join(ROOT, "catena", "*.pyx"))
                   + glob.glob(os.path.join(ROOT, "catena", "*.pxd")))
    assert len(files) >= 10                     # every core module, found from the repository root
    result = _lint(*files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linter_reports_a_finding(tmp_path):
    """The check above can fail: an unused cimport is reported."""
    bad = tmp_path / "bad.pyx"
    bad.write_text("from libc.stdint cimport uint64_t\n\n\ndef f():\n    return 1\n")
    result = _lint(str(bad))
    assert result.returncode != 0 and "uint64_t" in result.stdout + result.stderr
