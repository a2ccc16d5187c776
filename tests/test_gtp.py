"""The GTP engine (catena/gtp.py, docs/gtp.md): every command, its errors, and a session
through ``python -m catena gtp`` on real standard input and output."""

import io
import os
import re
import subprocess
import sys

import pytest

import catena
from catena import gtp
from catena.gtp import GtpEngine, final_score
from catena.players import MCTSPlayer, RandomPlayer


def engine(**options):
    return GtpEngine(player=MCTSPlayer(iterations=200, seed=1), **options)


def ok(engine, line):
    answer = engine.execute(line)
    assert answer.startswith("=") and answer.endswith("\n\n"), (line, answer)
    return answer[1:].strip()


def refused(engine, line, reason):
    """The answer is a GTP error that says ``reason``, and the position did not change."""
    before = (engine.size, engine.game_type, engine.scoring, engine.komi,
              [m.name for m in engine.position.move_stack])
    answer = engine.execute(line)
    assert answer.startswith("?") and answer.endswith("\n\n"), (line, answer)
    assert re.search(reason, answer), (line, answer)
    after = (engine.size, engine.game_type, engine.scoring, engine.komi,
             [m.name for m in engine.position.move_stack])
    assert after == before, line


def test_administrative_commands():
    e = engine()
    assert ok(e, "protocol_version") == "2"
    assert ok(e, "name") == "catena"
    assert ok(e, "version")
    commands = ok(e, "list_commands").split("\n")
    for name in ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
                 "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
                 "final_score", "time_settings", "time_left", "catena-game_type", "catena-scoring",
                 "catena-choose_komi", "catena-choose_colour", "catena-to_move", "catena-legal_moves"]:
        assert name in commands
        assert ok(e, f"known_command {name}") == "true"
    assert ok(e, "known_command loadsgf") == "false"
    refused(e, "known_command", "syntax error")
    refused(e, "loadsgf game.sgf", "unknown command 'loadsgf'")
    assert not e.quit
    assert ok(e, "quit") == "" and e.quit


def test_ids_comments_and_blank_lines():
    """GTP's syntax: an optional numeric id echoed in the answer, comments after #, blank lines ignored."""
    e = engine()
    assert e.execute("7 name") == "=7 catena\n\n"
    assert e.execute("8 frobnicate") == "?8 unknown command 'frobnicate'\n\n"
    assert e.execute("   ") == "" and e.execute("# just a comment") == ""
    assert e.execute("name # trailing comment") == "= catena\n\n"
    assert e.execute("\tname\x07") == "= catena\n\n"
    assert e.execute("9").startswith("?9")


def test_board_size_and_clear_board():
    e = engine()
    ok(e, "play black F6")
    ok(e, "boardsize 3")
    assert e.size == 3 and e.position.ply == 0 and len(e.position.legal_moves()) == 20   # 19 cells, button
    for bad in ["boardsize 0", "boardsize 11", "boardsize x", "boardsize"]:
        refused(e, bad, "size|syntax")
    ok(e, "play b B2")
    ok(e, "clear_board")
    assert e.position.ply == 0
    refused(e, "clear_board now", "syntax error")


def test_komi_game_type_and_scoring():
    e = engine(size=3)
    ok(e, "play black B2")
    ok(e, "komi 4")                                     # keeps the moves (komi only changes the score)
    assert e.komi == 4 and e.position.komi == 4 and [m.name for m in e.position.move_stack] == ["B2"]
    ok(e, "komi 5.0")
    assert e.komi == 5
    refused(e, "komi 6.5", "whole number")
    refused(e, "komi 16", "R22")
    refused(e, "komi -1", "non-negative")
    refused(e, "komi many", "number")
    assert ok(e, "catena-game_type") == "komi" and ok(e, "catena-scoring") == "standard"
    ok(e, "catena-scoring square")
    assert e.position.scoring == "square"
    ok(e, "komi 120")
    refused(e, "catena-scoring chess", "unknown scoring type")
    ok(e, "catena-game_type nokomi")
    assert e.komi == 0 and e.position.game_type == "nokomi"
    refused(e, "komi 3", "must be 0")
    refused(e, "catena-game_type go", "unknown game type")
    ok(e, "catena-game_type double")
    refused(e, "play black pass", "illegal move")     # no button in double placement (R19)


def test_play_pass_undo_and_turns():
    e = engine(size=3)
    ok(e, "play B B2")
    refused(e, "play black C3", "white's turn")
    ok(e, "play white pass")                          # the button (R13)
    assert e.position.button == "white"
    ok(e, "play black C3")
    refused(e, "play white PASS", "illegal move")     # the button only once
    refused(e, "play white Z9", "illegal move.*not")
    refused(e, "play white B2", "occupied")
    refused(e, "play purple C2", "not a colour")
    refused(e, "play white", "syntax error")
    assert ok(e, "undo") == "" and e.position.ply == 2
    ok(e, "undo")
    ok(e, "undo")
    refused(e, "undo", "no moves")


def test_genmove_plays_a_legal_move_and_answers_pass_for_the_button():
    e = GtpEngine(size=3, player=RandomPlayer(seed=3))
    names = set()
    while ok(e, "catena-to_move") != "none":
        colour = ok(e, "catena-to_move")
        legal = ok(e, "catena-legal_moves").split()
        refused(e, f"genmove {'white' if colour == 'black' else 'black'}", "turn")
        move = ok(e, f"genmove {colour}")
        assert move in legal
        names.add(move)
    refused(e, "genmove black", "over")
    refused(e, "play black A1", "over")
    refused(e, "genmove", "syntax error")
    assert "button" not in names


def test_double_placement_turns_are_two_commands():
    """R19: Black's first turn is one stone, then each side places two, one command each."""
    e = engine(size=3)
    ok(e, "catena-game_type double")
    ok(e, "play black B2")
    assert ok(e, "catena-to_move") == "white"
    ok(e, "play white D4")
    assert ok(e, "catena-to_move") == "white"
    refused(e, "play black A1", "white's turn")
    assert ok(e, "genmove white") in catena.cells(3)
    assert ok(e, "catena-to_move") == "black"


def test_final_score():
    e = engine(size=1)
    refused(e, "final_score", "not over")
    ok(e, "play black A1")
    assert ok(e, "final_score") == "B+0.5"            # F2
    for command in ("undo", "play black pass", "play white A1"):
        ok(e, command)
    assert ok(e, "final_score") == "W+0.5"
    for command in ("clear_board", "komi 2", "play black A1"):
        ok(e, command)
    assert ok(e, "final_score") == "W+1.5"            # 1 against 0.5 + 2
    ok(e, "catena-scoring longest")
    ok(e, "play black A1")
    assert ok(e, "final_score") == "B+"               # R24: a winner and no score


def test_final_score_of_a_draw():
    """R21/R25: a double-placement tie is a draw, GTP's "0" (D11: it cannot occur on real boards)."""
    class Drawn:
        def outcome(self):
            return catena.Outcome(winner=None, black_score=3.0, white_score=3.0, button=None)
    assert final_score(Drawn()) == "0"


def test_showboard_draws_the_position():
    e = engine(size=3)
    ok(e, "play black B2")
    answer = e.execute("showboard")
    assert answer.startswith("= \n") and str(e.position) in answer
    assert "\n\n" not in answer[:-2]                  # no blank line inside an answer


def test_setup_commands():
    """R17: P1 chooses the komi, P2 the colour; R18: P2 chooses after P1's stone."""
    e = engine(size=3)
    komi = int(ok(e, "catena-choose_komi"))
    assert 0 <= komi <= 15 and e.komi == komi and e.position.komi == komi
    assert ok(e, "catena-choose_colour") in ("black", "white")
    ok(e, "play black B2")
    refused(e, "catena-choose_komi", "before the first move")
    refused(e, "catena-choose_colour", "no colour choice")
    ok(e, "catena-game_type nokomi")
    refused(e, "catena-choose_komi", "komi game")
    refused(e, "catena-choose_colour", "no colour choice")
    first = ok(e, "genmove black")                    # P1's opening stone
    assert first in catena.cells(3)
    assert ok(e, "catena-choose_colour") in ("black", "white")
    refused(e, "catena-choose_colour extra", "syntax error")


def test_time_controls_shorten_the_search():
    e = GtpEngine(size=6, player=MCTSPlayer(iterations=None, seconds=5.0, seed=1))
    ok(e, "time_settings 2 0 0")                      # 2 s for the whole game
    seconds = e._search_seconds("black")
    assert 0 < seconds < 0.2
    ok(e, "time_left black 5 5")                      # byo-yomi: 5 s for 5 stones
    assert e._search_seconds("black") == pytest.approx(0.8 * 1 - 0.05)
    ok(e, "genmove black")
    assert e.player.seconds == 5.0                    # the player's own budget comes back
    ok(e, "time_settings 0 1 0")                      # GTP: no time limit
    assert e._search_seconds("white") is None
    ok(e, "time_settings 0 0 0")
    assert e._search_seconds("white") is None
    for bad in ["time_settings 1 2", "time_settings -1 0 0", "time_settings 1 1 x",
                "time_left red 1 1", "time_left black x 0", "time_left black 1 -2"]:
        refused(e, bad, "syntax error")


def test_a_bug_in_the_player_is_an_answer_not_a_crash():
    class Broken(RandomPlayer):
        def choose_move(self, position):
            raise RuntimeError("out of ideas")
    e = GtpEngine(size=3, player=Broken())
    refused(e, "genmove black", "internal error: RuntimeError: out of ideas")
    assert ok(e, "name") == "catena"


SESSION = """\
1 protocol_version
2 name
3 boardsize 3
4 catena-game_type komi
5 catena-scoring standard
6 komi 9
7 clear_board
8 play black B2
9 genmove white
10 play white B2
11 undo
12 undo
13 play black pass
14 showboard
15 final_score
16 time_settings 60 0 0
17 time_left white 10 0
18 flurb
quit
"""


def test_session_through_the_command_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "catena", "gtp", "--iterations", "300", "--seed", "2"],
                          input=SESSION, text=True, capture_output=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    answers = proc.stdout.split("\n\n")
    assert answers[-1] == "" and len(answers) == 20, proc.stdout
    assert answers[0] == "=1 2" and answers[1] == "=2 catena"
    assert all(answers[i] == f"={i + 1}" for i in (2, 3, 4, 5, 6, 7))
    assert re.fullmatch(r"=9 [A-E][1-5]", answers[8])
    assert answers[9].startswith("?10 illegal move")
    assert answers[10] == "=11" and answers[11] == "=12" and answers[12] == "=13"
    assert answers[13].startswith("=14 \n") and "button: black" in answers[13]
    assert answers[14].startswith("?15 the game is not over")
    assert answers[15] == "=16" and answers[16] == "=17"
    assert answers[17] == "?18 unknown command 'flurb'"
    assert answers[18] == "="


def test_numbers_are_ascii_digits():
    """``"²".isdigit()`` is true but int("²") fails: "boardsize ²" answered "internal error";
    other scripts' digits ("٣") were read as numbers."""
    e = engine()
    for line, reason in [("boardsize ²", "unacceptable size '²'"), ("boardsize ٣", "unacceptable size '٣'"),
                         ("boardsize １", "unacceptable size"), ("boardsize " + "9" * 5000, "unacceptable size"),
                         ("komi ٣", "komi must be a number, not '٣'"),
                         ("time_settings 60 10 ²", "byo-yomi stones must be a whole number, not '²'"),
                         ("time_left black 10 ٣", "stones must be a whole number"),
                         ("time_left black 10 " + "9" * 5000, "stones 9+... is too large")]:
        refused(e, line, reason)
        assert "internal error" not in e.execute(line)
    assert ok(e, "boardsize 3") == "" and e.size == 3


def run_session(data, **env):
    """``python -m catena gtp`` on ``data`` (bytes) under the environment ``env`` adds: its
    exit code and answers."""
    proc = subprocess.run([sys.executable, "-m", "catena", "gtp", "--size", "3", "--iterations", "50"],
                          input=data, capture_output=True, timeout=120, env={**os.environ, **env})
    assert b"Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.decode("utf-8").split("\n\n")[:-1]


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "latin-1"])
def test_input_that_is_not_utf8_is_answered_and_the_session_goes_on(encoding):
    """Under a strict UTF-8 decoder one bad byte ended the session with exit code 2, the valid
    command before it unanswered (the decoder reads ahead)."""
    data = (b"1 name\n2 play black B\xff2\n3 boardsize \xc2\xb2\n\xfe\xfe\n4 play black B2 # caf\xe9\n"
            b"5 play white \xef\xbc\xa3\xef\xbc\x93\n6 catena-to_move\n")
    code, answers = run_session(data, PYTHONIOENCODING=encoding)
    assert code == 0 and len(answers) == 7, answers
    assert answers[0] == "=1 catena"
    assert answers[1] == "?2 the command is not UTF-8 text (byte 0xff at column 15)"
    assert answers[2].startswith("?3 unacceptable size '²'")
    assert answers[3].startswith("? the command is not UTF-8 text")
    assert answers[4] == "=4"                                     # a comment may hold any bytes
    assert answers[5].startswith("?5 illegal move: 'Ｃ３' is not a cell name")
    assert answers[6] == "=6 white"


def test_an_overlong_line_is_refused_without_being_held():
    e = engine()
    out = io.BytesIO()
    assert e.run(io.BytesIO(b"1 name\n2 " + b"x" * 10 * gtp.MAX_LINE + b"\n3 name\n"), out) == 0
    answers = out.getvalue().decode().split("\n\n")
    assert answers == ["=1 catena", f"?2 the command line is too long: {gtp.MAX_LINE} characters or more",
                       "=3 catena", ""]
    text = io.StringIO()
    assert e.run(io.StringIO("name\n" + "y" * (gtp.MAX_LINE + 1)), text) == 0      # text streams too
    assert text.getvalue() == f"= catena\n\n? the command line is too long: {gtp.MAX_LINE} characters or more\n\n"


def test_end_of_input_ends_the_engine(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "catena", "gtp", "--size", "2"], input="name\n",
                          text=True, capture_output=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0 and proc.stdout == "= catena\n\n"


def test_engine_options_reach_mcts(tmp_path):
    """--option passes any MCTS keyword on; an unknown one is a clear error at start."""
    proc = subprocess.run([sys.executable, "-m", "catena", "gtp", "--size", "3", "--option", "rave=false",
                           "--option", "c=0.5"], input="genmove black\nquit\n",
                          text=True, capture_output=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0 and re.match(r"= [A-E][1-5]\n\n=\n\n$", proc.stdout), proc.stdout
    proc = subprocess.run([sys.executable, "-m", "catena", "gtp", "--option", "wisdom=9"], input="",
                          text=True, capture_output=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "wisdom" in proc.stderr and "Traceback" not in proc.stderr


def test_the_example_session_of_docs_gtp_md():
    """docs/gtp.md's session, replayed: every answer as written (search-made ones by their form)."""
    import pathlib

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "gtp.md").read_text()
    session = text.split("## An example session", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    e = GtpEngine(size=6, player=MCTSPlayer(iterations=1000, seed=1))
    searched = {"version", "genmove", "catena-choose_komi", "catena-choose_colour"}
    exchanges = session.strip("\n").split("\n\n")
    assert len(exchanges) >= 40
    for exchange in exchanges:
        command, expected = exchange.split("\n", 1)
        answer = e.execute(command)
        words = command.split()
        if words[0] in searched:
            assert answer[:1] == expected[:1], (command, answer)
        else:
            assert answer == expected + "\n\n", (command, answer, expected)
    assert e.quit
