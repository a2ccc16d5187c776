"""Every command of the README's command table runs as written (the terminal game by script)."""

import pathlib
import re
import shlex
import subprocess
import sys

import catena

from conftest import serve_until_ctrl_c

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_commands():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Command line", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(python -m catena[^`]*)`", section, flags=re.M)


def test_every_readme_command_runs(tmp_path):
    commands = readme_commands()
    assert len(commands) >= 7 and any(" play " in c for c in commands)
    # the person's side of the terminal game: a komi, then every cell name until one is legal
    script = "0\n" + "\n".join(list(catena.cells(4)) * 3) + "\n"
    for command in commands:
        args = shlex.split(command)[3:]
        if args[:1] == ["serve"]:               # runs until Ctrl-C
            returncode, out, err = serve_until_ctrl_c(args[1:], cwd=tmp_path)
            assert returncode == 130 and "Traceback" not in err, out + err
            continue
        stdin = script if args[:1] == ["play"] else ""
        proc = subprocess.run([sys.executable, "-m", "catena", *args], input=stdin, text=True,
                              capture_output=True, cwd=tmp_path, timeout=900)
        assert proc.returncode == 0, f"{command}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        assert "Traceback" not in proc.stderr, command
    assert (tmp_path / "my.catena").exists() and (tmp_path / "my.svg").exists()
    assert catena.read_game((tmp_path / "my.catena").read_text()).game().is_over()

