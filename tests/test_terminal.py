"""The terminal game (``python -m catena play``) as a newcomer meets it: driven by
script in-process, and as a child process on a pseudo-terminal for Ctrl-C, Ctrl-D
and readline's line editing."""

import io
import sys
import time

import pytest

import catena
from catena.players import MCTSPlayer
from catena.terminal import TerminalGame

from conftest import child_env

pexpect = pytest.importorskip("pexpect")


def play(lines, human="P1", iterations=200, **game):
    """Run a TerminalGame on scripted lines; (exit status, everything it said)."""
    answers = iter(lines)
    out = io.StringIO()

    def read(prompt):
        out.write(prompt)
        return next(answers, None)

    status = TerminalGame(catena.Game(**game), MCTSPlayer(iterations=iterations, seed=1), human=human,
                          read=read, out=out).run()
    return status, out.getvalue()


def test_setup_explains_komi_and_colours_and_takes_b_and_w():
    status, out = play(["hint", "99", "x", "3", "B2", "quit"], size=3)
    assert status == 0
    assert "chooses the komi, points added to White's score" in out
    assert "a whole number from 0 to 15" in out and "White (o) gets the komi" in out
    assert "The engine suggests komi" in out                      # hint works in the setup
    assert "Not possible: the komi must be a whole number from 0 to 15 with standard scoring, not '99'" in out
    assert "Choose the komi (0 to 15)" in out
    status, out = play(["hint", "purple", "W", "quit"], human="P2", size=3)
    assert "The engine suggests black." in out or "The engine suggests white." in out
    assert "Not possible: answer black or white (or b or w), not 'purple'" in out
    assert "You play white (o); the engine plays black." in out


def test_messages_speak_to_players_before_rule_numbers():
    status, out = play(["1000", "quit"], size=3, scoring="square")
    assert "0 to 1000" in out and "Not possible" not in out        # the range follows the scoring
    status, out = play(["17", "quit"], size=3)
    problem = next(line for line in out.splitlines() if "Not possible" in line)
    assert problem.index("komi") < problem.index("(R22)") and problem.endswith("(R22)")


def test_claims_are_reported_and_the_board_has_a_legend():
    moves = ["white"] + list(catena.cells(2)) * 2
    status, out = play(moves, human="P2", size=2)
    assert status == 0 and "Game over" in out
    assert "claimed by" in out and "can no longer grow" in out
    assert "x black stone, o white stone" in out


def test_double_placement_help_offers_no_button():
    status, out = play(["help", "quit"], size=3, game_type="double")
    assert "button)" not in out and "a cell such as C3)" in out
    assert "every turn is two stones" in out


def test_hint_for_the_opening_stone_of_a_no_komi_game():
    status, out = play(["hint", "quit"], size=3, game_type="nokomi")
    suggestion = out.split("The engine suggests ")[1].split(".")[0]
    assert suggestion in catena.cells(3)


def spawn(args, cwd):
    env = child_env()
    return pexpect.spawn(sys.executable, ["-m", "catena", "play", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=60)


def interrupt_until(child, text, tries=10):
    """Ctrl-C until ``text`` appears.  CPython's readline misses a signal that arrives after it
    prints the prompt and before it waits for a key (seen once in a loaded full run), so a
    second Ctrl-C may be needed, as a person would press it again."""
    for _ in range(tries):
        child.sendintr()
        try:
            child.expect_exact(text, timeout=5)
            return
        except pexpect.TIMEOUT:
            continue
    raise AssertionError(f"{text!r} not shown after {tries} Ctrl-C: {child.before!r}")


def test_ctrl_c_at_the_prompt_saves_the_game_and_exits_130(tmp_path):
    child = spawn(["--size", "3", "--iterations", "200", "--seed", "2", "--save", "g.catena"], tmp_path)
    child.expect_exact("Choose the komi")
    child.sendline("4")
    child.expect_exact("Your move")
    interrupt_until(child, "stopped by Ctrl-C: the game is saved to g.catena")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    assert "Traceback" not in child.before
    assert ("komi", 4) in catena.read_game((tmp_path / "g.catena").read_text()).actions


def test_ctrl_d_saves_the_game_and_exits_0(tmp_path):
    child = spawn(["--size", "3", "--iterations", "200", "--save", "g.catena"], tmp_path)
    child.expect_exact("Choose the komi")
    child.sendeof()                                               # Ctrl-D
    child.expect_exact("saved the game to g.catena")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "g.catena").exists()


def test_ctrl_c_while_the_engine_thinks_quits_at_once(tmp_path):
    child = spawn(["--size", "6", "--seconds", "60", "--human", "P2", "--save", "g.catena"], tmp_path)
    child.expect_exact("Setup:")
    time.sleep(1.0)                                               # the engine is choosing the komi
    start = time.monotonic()
    child.sendintr()
    child.expect_exact("stopped by Ctrl-C: the game is saved to g.catena")
    child.expect(pexpect.EOF)
    child.close()
    assert time.monotonic() - start < 20
    assert child.exitstatus == 130
    assert catena.read_game((tmp_path / "g.catena").read_text()).actions == []


def test_the_prompt_has_line_editing(tmp_path):
    child = spawn(["--size", "3", "--iterations", "200", "--seed", "3"], tmp_path)
    child.expect_exact("Choose the komi")
    child.send("5\x1b[D1\r")                 # "5", left arrow, "1" before it: 15 with readline
    child.expect(r"The engine \(P2\) plays")
    child.expect_exact("Your move")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Not possible" not in child.before
