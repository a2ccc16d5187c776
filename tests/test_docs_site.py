"""The documentation site builds with Sphinx, warnings as errors, and has its pages."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_sphinx_build_without_warnings(tmp_path):
    out = tmp_path / "html"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(ROOT / "docs"), str(out)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for page in ("index", "tutorial", "guide", "architecture", "rules", "records", "solved", "benchmarks", "search",
                 "api"):
        assert (out / f"{page}.html").exists(), page
    api = (out / "api.html").read_text()
    for name in ("catena.Position", "catena.analyse", "catena.Analysis", "catena.solve", "catena.svg",
                 "catena.MCTS"):
        assert f'id="{name}"' in api, name
    assert "&gt;&gt;&gt;" in api                                    # the docstrings' examples
    assert "instructions/placement" in (out / "benchmarks.html").read_text()
    assert (out / "_images" / "analysis.svg").exists()
    assert (out / "_images" / "serve.png").exists() and 'href="serve.html"' in (out / "index.html").read_text()
