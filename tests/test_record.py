"""Game records (catena.record, docs/records.md): exact round trips of random games on
every board side 1-6, game type and scoring type; every kind of malformed record gives a
RecordError at the right line and column; fuzzing never gives any other exception.
"""

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catena
from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS
from catena.errors import CatenaError
from catena.game import Game
from catena.record import GameRecord, RecordError, read_game, read_games, write_game

# ---------------------------------------------------------------- helpers

NASTY = ["", " ", "  two  ", "a } brace", "back\\slash", "\\}", "{ nested {", "line\none\n",
         'quote "q"', "tab\there", "unicode: Ω ≠ ☃", "ends with \\", "\r\n", "}", "{}"]


def random_game(rng, size, game_type, scoring, finish=True, limit=None):
    """A Game played with random setup choices and random legal moves, to the end or
    for ``limit`` actions."""
    game = Game(size, game_type, scoring)
    while not game.is_over():
        if limit is not None and len(game.actions) >= limit:
            break
        if game.phase == "komi":
            low, high = KOMI_RANGES[scoring]
            game.choose_komi(rng.randint(low, high))
        elif game.phase == "colour":
            game.choose_colour(rng.choice(["black", "white"]))
        else:
            game.push(rng.choice(game.position.legal_moves()))
    return game


def decorate(record, rng):
    """Random comments (with braces, backslashes, newlines...) and extra tags."""
    for index in range(-1, len(record.actions)):
        if rng.random() < 0.3:
            record.comments[index] = rng.choice(NASTY) + rng.choice(["", " x", "y "])
    if rng.random() < 0.5:
        record.tags["Event"] = rng.choice(NASTY)
    return record


def where(text, marker):
    """(line, column), 1-based, of the last occurrence of ``marker`` in ``text``
    (of the end of the text if ``marker`` is None)."""
    index = len(text) if marker is None else text.rindex(marker)
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def fails(text, marker, *words):
    """read_game(text) raises RecordError at ``marker`` whose message has every word."""
    with pytest.raises(RecordError) as info:
        read_game(text)
    error = info.value
    line, column = where(text, marker)
    assert (error.line, error.column) == (line, column), (str(error), line, column)
    assert str(error).startswith(f"line {line}, column {column}: ")
    for word in words:
        assert word.lower() in str(error).lower(), (word, str(error))
    return error


HEADER = '[Size "3"]\n[GameType "komi"]\n[Scoring "standard"]\n'


# ---------------------------------------------------------------- round trips

COMBOS = [(size, gt, sc) for size in range(1, 7) for gt in GAME_TYPES for sc in SCORINGS]


@pytest.mark.parametrize("size,game_type,scoring", COMBOS)
def test_round_trip_random_games(size, game_type, scoring):
    rng = random.Random(f"{size}{game_type}{scoring}")
    for finish in (True, False):
        limit = None if finish else rng.randint(0, 3 * size * size)
        game = random_game(rng, size, game_type, scoring, finish, limit)
        record = decorate(GameRecord.from_game(game, P1="Alice \"A\"", P2="catena MCTS 5000",
                                               Date="2026.11.29"), rng)
        text = write_game(record)
        back = read_game(text)
        assert back == record
        assert write_game(back) == text
        replay = back.game()
        assert replay.actions == game.actions
        assert replay.outcome() == game.outcome()
        assert back.tags["Result"] == ("*" if not game.is_over() else
                                       (game.outcome().winner_player or "draw"))
        assert all(len(line) <= 79 for line in text.split("\n") if "{" not in line and "}" not in line)


@pytest.mark.parametrize("size,game_type,scoring", COMBOS[::4])
def test_other_layouts_read_the_same(size, game_type, scoring):
    """Move numbers are optional, names any case, whitespace free: the same record."""
    rng = random.Random(f"layout{size}{game_type}{scoring}")
    game = random_game(rng, size, game_type, scoring)
    record = GameRecord.from_game(game)
    parts = [f'[ {name}\t"{value}" ]' for name, value in record.tags.items()]
    for kind, value in record.actions:
        word = value if kind == "move" else f"{kind} {value}"
        parts.append(word.lower() if rng.random() < 0.5 else word.upper())
    text = "\r\n\t".join(parts)
    assert read_game(text) == record


def test_from_game_tags_and_write_game_of_a_game():
    game = random_game(random.Random(1), 3, "komi", "square")
    record = GameRecord.from_game(game, P1="Alice", Round=3)
    assert list(record.tags) == ["Size", "GameType", "Scoring", "Komi", "P1", "Round", "Result"]
    assert record.tags["Komi"] == str(game.komi) and record.tags["Round"] == "3"
    assert write_game(game, P1="Alice", Round=3) == write_game(record)
    # a tag given as None is left out; the Result may be given (e.g. a resignation)
    partial = random_game(random.Random(2), 4, "nokomi", "standard", finish=False, limit=5)
    assert "Result" not in GameRecord.from_game(partial, Result=None).tags
    assert GameRecord.from_game(partial, Result="P2").tags["Result"] == "P2"
    assert "Komi" not in GameRecord.from_game(partial).tags
    # write_game(record, **tags) adds or replaces tags
    text = write_game(record, P1="Bob", Site="here")
    assert read_game(text).tags == {**record.tags, "P1": "Bob", "Site": "here"}
    # tags that contradict the game
    with pytest.raises(RecordError, match="Size"):
        GameRecord.from_game(game, Size=4)
    with pytest.raises(RecordError, match="Result"):
        GameRecord.from_game(game, Result="draw" if game.outcome().winner_player else "P1")


def test_exact_text_of_a_small_game():
    game = Game(2)
    game.choose_komi(1)
    game.choose_colour("white")
    for move in ["B2", "A1", "button", "C3"]:
        game.push(move)
    record = GameRecord.from_game(game, P1="Alice")
    record.comments[-1] = "a short game"
    record.comments[3] = "White joins the ribbon"
    text = write_game(record)
    assert text == ('[Size "2"]\n[GameType "komi"]\n[Scoring "standard"]\n[Komi "1"]\n'
                    '[P1 "Alice"]\n[Result "P2"]\n\n{ a short game }\n'
                    "komi 1 colour white 1. B2 A1 { White joins the ribbon } 2. button C3\n")
    assert record.pregame_comment == "a short game"
    assert read_game(text) == record


def test_move_numbers_of_nokomi_and_double():
    game = Game(3, "nokomi")
    game.push("B2")
    game.choose_colour("black")
    for move in ["A1", "C4", "E5"]:
        game.push(move)
    assert write_game(game).endswith("\n\n1. B2 colour black A1 2. C4 E5\n")
    game = Game(3, "double")
    for move in ["B2", "A1", "E5", "C4", "C5"]:
        game.push(move)
    assert write_game(game).endswith("\n\n1. B2 A1 E5 2. C4 C5\n")


def test_empty_records():
    game = Game(6)
    text = write_game(game)
    assert text == '[Size "6"]\n[GameType "komi"]\n[Scoring "standard"]\n[Result "*"]\n'
    assert read_game(text) == GameRecord.from_game(game)
    record = GameRecord({"Size": "1", "GameType": "double", "Scoring": "longest"}, [], {-1: ""})
    assert write_game(record).endswith("\n\n{  }\n")
    assert read_game(write_game(record)) == record


def test_escapes_in_tags_and_comments():
    record = GameRecord({"Size": "1", "GameType": "komi", "Scoring": "standard",
                         "Note": 'a "b" \\ c\nd\re'}, [("komi", 0)], {-1: " x ", 0: "} \\ {"})
    text = write_game(record)
    assert '[Note "a \\"b\\" \\\\ c\\nd\\re"]' in text
    assert "{  x  }" in text and "{ \\} \\\\ { }" in text
    assert read_game(text) == record
    # a backslash before anything but '\' or '}' is itself in a comment
    assert read_game(HEADER + "{ C:\\dir }").comments == {-1: "C:\\dir"}
    # one space after '{' and one before '}' are dropped, others kept
    assert read_game(HEADER + "{x}").comments == {-1: "x"}
    assert read_game(HEADER + "{  x\n }").comments == {-1: " x\n"}


# ---------------------------------------------------------------- malformed records

def test_record_error_is_a_catena_value_error():
    with pytest.raises(RecordError) as info:
        read_game("")
    error = info.value
    assert isinstance(error, CatenaError) and isinstance(error, ValueError)
    assert (error.line, error.column) == (1, 1)
    assert str(error) == ("line 1, column 1: expected the tag Size (required: Size, GameType, Scoring) "
                          "before the moves, found end of text")
    assert error.reason.startswith("expected the tag Size")


@pytest.mark.parametrize("text,marker,words", [
    # missing and malformed tags
    ('[GameType "komi"]\n[Scoring "standard"]\nkomi 3', "komi 3", ["expected the tag Size", "found 'komi'"]),
    ('[Size "3"]\n[GameType "komi"]\n\n', None, ["expected the tag Scoring", "end of text"]),
    ('[Size "3"]\n[Scoring "standard"]\n{ c }', "{", ["GameType", "found a comment"]),
    ('[Size "11"]\n[GameType "komi"]\n[Scoring "standard"]', '"11"', ["board side 1 to 10", 'found "11"']),
    ('[Size "06"]\n[GameType "komi"]\n[Scoring "standard"]', '"06"', ['found "06"']),
    ('[Size "3"]\n[GameType "fast"]\n[Scoring "standard"]', '"fast"',
     ['expected GameType "komi", "nokomi" or "double"', 'found "fast"']),
    ('[Size "3"]\n[GameType "komi"]\n[Scoring "Standard"]', '"Standard"', ["expected Scoring", '"Standard"']),
    (HEADER + '[Result "1-0"]', '"1-0"', ['expected Result "P1", "P2", "draw" or "*"']),
    (HEADER + '[Komi "16"]', '"16"', ["Komi", "0 to 15", 'found "16"']),
    ('[Size "3"]\n[GameType "komi"]\n[Scoring "square"]\n[Komi "1001"]', '"1001"', ["0 to 1000"]),
    ('[Size "3"]\n[GameType "nokomi"]\n[Scoring "square"]\n[Komi "2"]', '"2"', ['expected Komi "0"', "nokomi"]),
    (HEADER + '[Komi "-1"]', '"-1"', ["whole number"]),
    (HEADER + '[Size "3"]', 'Size "3"]', ["second Size tag", "line 1"], ),
    (HEADER + '[1x "a"]', "1x", ["expected a tag name", "found '1x'"]),
    (HEADER + '[Event]', "]", ["expected the value of tag Event in double quotes", "found ']'"]),
    (HEADER + '[Event "a" x]', 'x]', ["expected ']' to end the Event tag", "found 'x'"]),
    (HEADER + '[Event "a"\n]', '\n]', ["expected ']'", "found end of line"]),
    (HEADER + '[Event "a\\t"]', '\\t', ["after a backslash", "found '\\\\t'"]),
    # unterminated strings and comments (the error points at the opening character)
    (HEADER + '[Event "abc]\n', '"abc', ["expected '\"' to close this tag value", "found end of line"]),
    (HEADER + '[Event "abc', '"abc', ["close this tag value", "found end of text"]),
    (HEADER + "komi 3 { never closed \n colour white", "{", ["expected '}' to close this comment",
                                                              "found end of text"]),
    (HEADER + "komi 3 { closed by an escape \\}", "{", ["close this comment"]),
    # bad tokens
    (HEADER + "komi 3 colour white 1. Q", "Q", ["expected a move", "found 'Q'"]),
    (HEADER + "komi 3 colour white 1.B2", "1.B2", ["expected a move", "found '1.B2'"]),
    (HEADER + "komi 3 colour white B2!", "B2!", ["found 'B2!'"]),
    (HEADER + "komi 3 colour white B2 }", "}", ["'}' outside a comment"]),
    (HEADER + "komi 3 colour white [Event \"x\"]", "[Event", ["tags must come before the moves"]),
    (HEADER + "komi x", "x", ["expected a komi (a whole number like 3) after 'komi'", "found 'x'"]),
    (HEADER + "komi -3", "-3", ["expected a komi", "found '-3'"]),
    (HEADER + "komi 03", "03", ["expected a komi", "found '03'"]),
    (HEADER + "komi", None, ["expected a komi", "found end of text"]),
    (HEADER + "komi { c } 3", "{", ["expected a komi", "found a comment"]),
    (HEADER + "komi 1234567890123456789012345678901", "1234567890123456789012345678901",
     ["expected a komi", "found '12345678901234567890...'"]),
    (HEADER + "komi 3 colour white A" + "1" * 5000, "A111", ["expected a move", "found 'A1111111111111111111...'"]),
    (HEADER + "komi 3 colour red", "red", ["expected 'black' or 'white' after 'colour'", "found 'red'"]),
    (HEADER + "komi 3 colour", None, ["expected 'black' or 'white'", "end of text"]),
    # comments and move numbers in the wrong place
    (HEADER + "{ a } { b }", "{ b", ["second comment before the first action"]),
    (HEADER + "komi 3 { a } { b }", "{ b", ["second comment after 'komi 3'"]),
    (HEADER + "komi 3 colour white 1. { c } B2", "{ c", ["expected a move after '1.'", "found a comment"]),
    (HEADER + "komi 3 colour white 1. 2. B2", "2.", ["expected a move after '1.'", "found '2.'"]),
    (HEADER + "komi 3 colour white 1. komi 3", "komi 3", ["expected a move after '1.'", "found 'komi'", ],
     ),
    (HEADER + "komi 3 colour white B2 A1 1.", None, ["expected a move after '1.'", "found end of text"], ),
    (HEADER + "komi 3 colour white 2. B2", "2.", ["expected the move number '1.'", "found '2.'"]),
    (HEADER + "komi 3 colour white 1. B2 1. A1", "1. A1", ["expected no move number before a white move"]),
    ('[Size "3"]\n[GameType "double"]\n[Scoring "standard"]\n1. B2 A1 E5 2. C4 2. C5', "2. C5",
     ["expected no move number before the second stone of a turn"]),
    # komi out of range, setup actions out of turn
    (HEADER + "komi 16", "komi 16", ["illegal setup action 'komi 16'", "out of range", "0 to 15"]),
    (HEADER + "colour white komi 3", "colour", ["illegal setup action 'colour white'",
                                                "P2 cannot choose a colour now", "'komi' phase"]),
    (HEADER + "komi 3 komi 4", "komi 4", ["P1 cannot choose the komi now", "'colour' phase"]),
    (HEADER + "B2", "B2", ["illegal move B2", "no move can be played now", "'komi' phase"]),
    (HEADER + "komi 3 colour black B2 colour white", "colour white", ["P2 cannot choose a colour now"]),
    ('[Size "3"]\n[GameType "nokomi"]\n[Scoring "standard"]\nkomi 0', "komi 0",
     ["P1 cannot choose the komi now", "'first_stone' phase"]),
    ('[Size "3"]\n[GameType "nokomi"]\n[Scoring "standard"]\nB2 A1', "A1",
     ["illegal move A1", "'colour' phase"]),
    ('[Size "3"]\n[GameType "nokomi"]\n[Scoring "standard"]\nbutton', "button",
     ["illegal move 1 (black) button", "first move of a no-komi game", "R18"]),
    ('[Size "3"]\n[GameType "double"]\n[Scoring "standard"]\ncolour black', "colour",
     ["P2 cannot choose a colour now", "'play' phase"]),
    ('[Size "1"]\n[GameType "komi"]\n[Scoring "standard"]\nkomi 0 colour black A1 button', "button",
     ["illegal move button", "'over' phase"]),
    # illegal moves, with their number, colour, name and reason
    (HEADER + "komi 3 colour white 1. B2 A1 2. A2", "A2",
     ["illegal move 2 (black) A2: A2 is illegal: A1 and B2 are in the same ribbon", "(R7)"]),
    (HEADER + "komi 3 colour white 1. B2 b2", "b2",
     ["illegal move 1 (white) b2: B2 is illegal: the cell is occupied"]),
    (HEADER + "komi 3 colour white 1. B2 button 2. button", "button", ["illegal move 2 (black) button",
                                                                        "already taken it"], ),
    (HEADER + "komi 3 colour white 1. Z9", "Z9", ["illegal move 1 (black) Z9", "not on the board of side 3"]),
    (HEADER + "komi 3 colour white 1. B02", "B02", ["leading zero"]),
    ('[Size "3"]\n[GameType "double"]\n[Scoring "standard"]\nB2 button', "button",
     ["illegal move 1 (white) button", "no button", "R19"]),
    # the Komi and Result tags against the replay
    (HEADER + '[Komi "3"]\nkomi 4', "4", ["expected komi 3 (as the Komi tag says), found komi 4"]),
    (HEADER + '[Komi "3"]\n', None, ["expected the komi action 'komi 3'", "found end of text"]),
    ('[Size "1"]\n[GameType "komi"]\n[Scoring "standard"]\n[Result "P2"]\nkomi 0 colour white A1', '"P2"',
     ['expected Result "P1"', "the replayed game is over, P1 (black) wins: black 1, white 0.5", 'found "P2"']),
    ('[Size "1"]\n[GameType "komi"]\n[Scoring "standard"]\n[Result "*"]\nkomi 0 colour white A1', '"*"',
     ['expected Result "P1"', 'found "*"']),
])
def test_malformed_records(text, marker, words):
    fails(text, marker, *words)


def test_result_may_be_given_for_an_unfinished_game():
    """A game can end otherwise (resignation, time): the Result of an unfinished record is not checked."""
    text = HEADER + '[Result "P2"]\nkomi 3 colour white B2'
    assert read_game(text).tags["Result"] == "P2"


def test_errors_of_records_not_read_from_text():
    good = GameRecord({"Size": "2", "GameType": "komi", "Scoring": "standard"},
                      [("komi", 1), ("colour", "white"), ("move", "B2")])
    good.game()
    cases = [
        (GameRecord({"Size": "2", "GameType": "komi"}, []), RecordError, "no Scoring tag"),
        (GameRecord({**good.tags, "Size": "0"}, []), RecordError, "board side"),
        (GameRecord({**good.tags, "bad name": "x"}, []), RecordError, "bad tag name"),
        (GameRecord({**good.tags, "Event": 3}, []), TypeError, "must be a str"),
        (GameRecord(good.tags, [("move", "B2")]), RecordError, "action 0: illegal move B2"),
        (GameRecord(good.tags, [("komi", 1), ("colour", "white"), ("move", "b2")]), RecordError,
         "expected the move written as 'B2'"),
        (GameRecord(good.tags, [("komi", True)]), TypeError, "komi must be an int"),
        (GameRecord(good.tags, [("pass", None)]), RecordError, "'komi', 'colour' or 'move'"),
        (GameRecord(good.tags, [("komi", 1)], {1: "x"}), RecordError, "comment key 1"),
        (GameRecord(good.tags, [("komi", 1)], {0: 5}), TypeError, "comment 0 must be a str"),
        (GameRecord({**good.tags, "Komi": "2"}, good.actions), RecordError, "as the Komi tag says"),
    ]
    for record, exc, words in cases:
        for call in (record.game, lambda record=record: write_game(record)):
            with pytest.raises(exc, match=words.replace("(", r"\(").replace(")", r"\)")) as info:
                call()
            if exc is RecordError:
                assert info.value.line is None and info.value.column is None
    with pytest.raises(TypeError):
        write_game("not a record")
    with pytest.raises(TypeError):
        read_game(b'[Size "1"]')


# ---------------------------------------------------------------- fuzzing

def _valid_texts():
    rng = random.Random(99)
    texts = []
    for size, game_type, scoring in [(1, "komi", "standard"), (2, "nokomi", "square"),
                                     (3, "double", "longest"), (3, "komi", "square"),
                                     (4, "nokomi", "standard"), (2, "double", "standard"),
                                     (5, "komi", "longest"), (6, "double", "square")]:
        game = random_game(rng, size, game_type, scoring)
        texts.append(write_game(decorate(GameRecord.from_game(game, P1="Al"), rng)))
    return texts


VALID = _valid_texts()
FORMAT_CHARS = st.sampled_from(list('[]{}"\\ \n\r\t.0123456789ABCabckomicolurwhtbnSizeGamTypP*') +
                               ["komi ", "colour ", "white", "black", "button", "1.", "Size", "Komi",
                                "Result", "GameType", "Scoring", '"3"', '"komi"', '"standard"'])


def _check_reads_or_raises_record_error(text):
    try:
        record = read_game(text)
    except RecordError as error:
        assert error.line >= 1 and error.column >= 1
        assert error.line <= text.count("\n") + 1
        return
    # whatever reads, writes and reads back the same
    again = write_game(record)
    assert read_game(again) == record
    assert write_game(read_game(again)) == again


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300),
                 st.lists(FORMAT_CHARS, max_size=80).map("".join),
                 st.lists(FORMAT_CHARS, max_size=40).map(lambda parts: HEADER + "".join(parts))))
def test_fuzz_random_text(text):
    _check_reads_or_raises_record_error(text)


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        body = text.find("\n\n") + 1           # mutate the header and the moves alike
        position = draw(st.one_of(st.integers(0, body), st.integers(body, len(text))))
        kind = draw(st.sampled_from(["delete", "insert", "replace"]))
        char = draw(st.one_of(FORMAT_CHARS, st.characters()))
        if kind == "delete":
            text = text[:position] + text[position + 1:]
        elif kind == "insert":
            text = text[:position] + char + text[position:]
        else:
            text = text[:position] + char + text[position + 1:]
    return text


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzz_mutated_records(text):
    _check_reads_or_raises_record_error(text)


def test_keywords_any_case_and_color_spelling():
    text = HEADER + "KOMI 3 Color WHITE 1. b2 a1 2. BUTTON"
    record = read_game(text)
    assert record.actions == [("komi", 3), ("colour", "white"), ("move", "B2"), ("move", "A1"),
                              ("move", "button")]
    assert write_game(record).endswith("\nkomi 3 colour white 1. B2 A1 2. button\n")


# -- records from positions, file objects and texts of several games ---------------------

def test_write_game_of_a_position_and_from_position():
    """A Position writes as the game that reached it: P1 Black, its komi and moves."""
    for game_type, komi in (("komi", 3), ("nokomi", 0), ("double", 0)):
        pos = catena.Position(size=3, game_type=game_type, komi=komi)
        rng = random.Random(komi)
        for _ in range(6):
            pos.push(rng.choice([m for m in pos.legal_moves() if not m.is_button]))
        text = write_game(pos, P1="Ann")
        game = read_game(text).game()
        assert game.position == pos and game.colour_of("P1") == "black"
        assert read_game(text).tags["P1"] == "Ann"
        assert GameRecord.from_position(pos).actions == read_game(text).actions
    empty = catena.Position(size=2, game_type="nokomi")
    assert GameRecord.from_position(empty).actions == []
    with pytest.raises(TypeError, match="Position"):
        GameRecord.from_position(catena.Game(size=2))


def test_read_game_takes_a_file_object(tmp_path):
    game = catena.Game(size=2)
    game.choose_komi(1)
    path = tmp_path / "g.catena"
    path.write_text(write_game(game))
    with open(path) as handle:
        assert read_game(handle).actions == [("komi", 1)]
    with open(path, "rb") as handle, pytest.raises(TypeError, match="text mode"):
        read_game(handle)


def test_read_games_reads_several_records():
    games = [write_game(catena.Game(size=2))]          # tags only: a blank line ends it
    for size, game_type in ((1, "komi"), (2, "double"), (3, "nokomi"), (2, "komi")):
        game = catena.Game(size=size, game_type=game_type)
        if game_type == "komi":
            game.choose_komi(0)
        if size > 1:
            if game_type == "komi":
                game.choose_colour("black")
            game.push(catena.cells(size)[0])
        games.append(write_game(game))
    text = "\n".join(games)
    records = read_games(text)
    assert [write_game(r) for r in records] == games
    assert read_games(io.StringIO(text)) == records
    assert read_games("") == [] and read_games("\n\n") == []
    with pytest.raises(RecordError, match="read_games"):          # one game expected
        read_game(text)
    bad = text.replace("1. A1", "1. Z9")                          # the error names the line in the whole text
    with pytest.raises(RecordError) as info:
        read_games(bad)
    assert info.value.line == bad[:bad.index("Z9")].count("\n") + 1
