"""The conventions every command shares (issue 51): --version, defaults stated in the help,
--seconds, `show -`, perft from moves, `solved` on stdout, no overwriting without --force,
plurals, the P2 prompt, proven values called proven.  (Ctrl-C ending every command with exit
status 130 and one line: tests/test_interrupt.py.)"""

import argparse
import os
import platform
import subprocess
import sys

import pytest

import catena

from conftest import TerminalChild

CATENA = [sys.executable, "-m", "catena"]


def run(args, cwd, stdin="", timeout=300):
    return subprocess.run(CATENA + args, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=timeout)


def test_version():
    proc = subprocess.run(CATENA + ["--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == f"catena {catena.__version__}\n"


def _subcommands(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    raise AssertionError("no subcommands")


def test_every_option_states_its_default():
    """Every option that takes a value says its default in its help (a flag's is off; a
    required choice, such as match's engines, has none)."""
    from catena.__main__ import build_parser

    missing = []
    for name, sub in _subcommands(build_parser()).items():
        required = {id(action) for group in sub._mutually_exclusive_groups if group.required
                    for action in group._group_actions}
        for action in sub._actions:
            if not action.option_strings or isinstance(action, (argparse._HelpAction, argparse._StoreTrueAction)):
                continue
            if action.required or id(action) in required:
                continue
            if "default" not in (action.help or ""):
                missing.append(f"{name} {action.option_strings[0]}")
    assert not missing, missing


def test_seconds_everywhere_and_max_seconds_kept():
    from catena.__main__ import build_parser

    parser = build_parser()
    for command in (["solve"], ["analyse"], ["play"], ["gtp"]):
        assert parser.parse_args(command + ["--seconds", "2.5"]).seconds == 2.5
    assert parser.parse_args(["solve", "--max-seconds", "3"]).seconds == 3.0


def test_show_reads_a_record_from_stdin(tmp_path):
    game = catena.Game(size=2)
    game.choose_komi(1)
    game.choose_colour("white")
    game.push("B2")
    proc = run(["show", "-"], tmp_path, stdin=catena.write_game(game))
    assert proc.returncode == 0, proc.stderr
    assert "score: black 1, white 1" in proc.stdout


def test_perft_from_given_moves(tmp_path):
    pos = catena.Position(size=3)
    pos.push("B2")
    pos.push("pass")
    proc = run(["perft", "--size", "3", "--depth", "2", "B2", "pass"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"perft(2) = {catena.perft(pos, 2)}" in proc.stdout
    assert f"perft(2) = {catena.perft(catena.Position(size=3), 2)}" not in proc.stdout


def test_solved_prints_to_stdout_and_names_the_machine(tmp_path):
    proc = run(["solved", "--sizes", "1"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Solved values") and not os.listdir(tmp_path)
    assert "project's 2-core machine" not in proc.stdout
    cores = os.cpu_count()
    assert "machine that ran the command (" in proc.stdout
    assert f"{cores} core" in proc.stdout and platform.system() in proc.stdout


def test_selfplay_refuses_to_overwrite_records_without_force(tmp_path):
    args = ["selfplay", "--size", "2", "--games", "1", "--iterations", "30", "--seed", "1", "--out", "games"]
    proc = run(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("1 game: P1 ")                  # not "1 games"
    record = tmp_path / "games" / "game-0001.catena"
    record.write_text("kept")
    proc = run(args[:-6] + ["--seed", "2", "--out", "games"], tmp_path)
    assert proc.returncode == 2 and "--force" in proc.stderr and "game-0001.catena" in proc.stderr
    assert record.read_text() == "kept"
    proc = run(args + ["--force"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert catena.read_game(record.read_text()).game().is_over()


def test_match_refuses_to_overwrite_records_without_force(tmp_path):
    """match --out replaced the records of an earlier match in the same folder without a word."""
    args = ["match", "--a", "random", "--b", "random", "--size", "2", "--games", "2", "--workers", "1",
            "--out", "games"]
    (tmp_path / "games").mkdir()
    record = tmp_path / "games" / "game-0002.catena"
    record.write_text("kept")
    proc = run(args, tmp_path)
    assert proc.returncode == 2 and "--force" in proc.stderr and "game-0002.catena" in proc.stderr
    assert record.read_text() == "kept" and os.listdir(tmp_path / "games") == ["game-0002.catena"]
    proc = run(args + ["--force"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path / "games")) == ["game-0001.catena", "game-0002.catena"]
    assert catena.read_game(record.read_text()).game().is_over()


def test_selfplay_npz_refuses_to_overwrite_without_force(tmp_path):
    (tmp_path / "data.npz").write_text("kept")
    proc = run(["selfplay", "--npz", "data.npz", "--size", "1", "--games", "1", "--iterations", "10"], tmp_path)
    assert proc.returncode == 2 and "--force" in proc.stderr
    assert (tmp_path / "data.npz").read_text() == "kept"


def test_match_plurals_and_a_proven_fair_komi_called_proven(tmp_path):
    proc = run(["match", "--a", "random", "--b", "random", "--size", "4", "--games", "2", "--workers", "1"],
               tmp_path)
    assert proc.returncode == 0, proc.stderr
    header = proc.stdout.splitlines()[0]
    assert "1 opening of 2 random stones" in header and "1 game at a time" in header
    assert f"proven fair komi {catena.fair_komi(4)}" in header and "MCTS" not in header
    assert "2 games in" in proc.stdout
    assert "\r" not in proc.stderr and "[#" not in proc.stderr       # no hand-drawn bar, none off a terminal


def test_match_draws_its_progress_with_tqdm_on_a_terminal(tmp_path):
    child = TerminalChild(CATENA + ["match", "--a", "random", "--b", "random", "--size", "3", "--games", "4",
                                    "--workers", "1", "--komi", "10"], tmp_path)
    out, shown = child.finish()
    assert child.returncode == 0, shown
    assert "match: 100%" in shown and "4/4" in shown and "[#" not in shown
    assert "fair komi" not in out                      # the komi was given


@pytest.mark.parametrize("game_type", ["komi", "nokomi"])
def test_play_as_p2_starts_with_the_colour_choice(tmp_path, game_type):
    proc = run(["play", "--size", "2", "--human", "P2", "--game-type", game_type, "--iterations", "50",
                "--seed", "1"], tmp_path, stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first == "You are P2. Commands: black or white (b or w), hint, help, quit.", first
