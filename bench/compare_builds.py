"""Play this source tree's engine against a previous commit's build: a GTP match with Elo and SPRT.

    python bench/compare_builds.py [--base HEAD~1] [--engine "--iterations 2000"] [match options]

It exports ``--base`` (``git archive``) into a temporary folder, builds it
in place (``setup.py build_ext --inplace``), and runs ``python -m catena match`` with
this tree's ``python -m catena gtp`` as engine A and the base's as engine B, both with
the same ``--engine`` options.  Every other option goes to the match, e.g.
``--games 400 --sprt 0 10 0.05 0.05 --out games/``.  A positive Elo means the change
is stronger.  The base must have the ``gtp`` command (catena after the GTP engine
was added).  The temporary copy is removed at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def gtp_command(tree: str, engine: str) -> str:
    """The command line that starts the GTP engine of the source tree ``tree``."""
    # env sets PYTHONPATH for that engine alone; the match runs in a neutral folder,
    # so neither engine imports catena from the current directory by mistake
    return f"env PYTHONPATH={shlex.quote(tree)} {shlex.quote(sys.executable)} -m catena gtp {engine}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD~1", help="the commit to compare with (default HEAD~1)")
    parser.add_argument("--engine", default="--iterations 2000", help="gtp options of both engines")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy of the base")
    args, match_args = parser.parse_known_args()
    if "--out" in match_args[:-1]:             # the match runs elsewhere: make the folder absolute
        where = match_args.index("--out") + 1
        match_args[where] = os.path.abspath(match_args[where])
    scratch = tempfile.mkdtemp(prefix="catena-base-")
    base = os.path.join(scratch, "tree")
    os.makedirs(base)
    archive = subprocess.run(["git", "-C", ROOT, "archive", args.base], check=True, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", base], input=archive.stdout, check=True)
    try:
        for tree in (ROOT, base):
            subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j2"], cwd=tree, check=True,
                           stdout=subprocess.DEVNULL)
        command = [sys.executable, "-m", "catena", "match",
                   "--a-cmd", gtp_command(ROOT, args.engine), "--b-cmd", gtp_command(base, args.engine),
                   *match_args]
        print("A = this tree, B =", args.base, flush=True)
        env = dict(os.environ, PYTHONPATH=ROOT)
        return subprocess.run(command, cwd=scratch, env=env).returncode
    finally:
        if args.keep:
            print(f"the base build is in {base}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
