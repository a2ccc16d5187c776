"""Game records: a small line-oriented text format for whole games, setup included.

The format is described in docs/records.md.  In short: a header of tags, one per
line, then the actions of the game in order (``komi 3``, ``colour white``, cell
names and ``button``), with optional move numbers and comments in braces::

    [Size "2"]
    [GameType "komi"]
    [Scoring "standard"]
    [Komi "1"]
    [Result "P2"]

    { a short game }
    komi 1 colour white 1. B2 A1 { White joins the ribbon } 2. button C3

``read_game`` checks the record by replaying it through :class:`catena.Game`
and raises :class:`RecordError` (with ``line`` and ``column``) for anything
wrong, be it the syntax, a tag or an illegal action.  ``write_game`` writes a
record back; the round trip is exact.

>>> from catena.game import Game
>>> game = Game(size=2)
>>> game.choose_komi(1); game.choose_colour("white")
>>> for move in ["B2", "A1", "button", "C3"]:
...     game.push(move)
>>> record = GameRecord.from_game(game, P1="Alice")
>>> record.comments[3] = "White joins the ribbon"
>>> text = write_game(record)
>>> print(text, end="")
[Size "2"]
[GameType "komi"]
[Scoring "standard"]
[Komi "1"]
[P1 "Alice"]
[Result "P2"]
<BLANKLINE>
komi 1 colour white 1. B2 A1 { White joins the ribbon } 2. button C3
>>> read_game(text) == record
True
>>> read_game(text.replace("C3", "A2"))
Traceback (most recent call last):
...
catena.record.RecordError: line 8, column 67: illegal move 2 (white) A2: A2 is illegal: A1 and B2 are in the same ribbon, so it would close a ring (R7)
"""  # noqa: E501 (a doctest shows the whole message)

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Dict, List, NoReturn, Optional, Tuple, Union

from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS, Position
from catena.errors import CatenaError
from catena.game import Game, GameOutcome

__all__ = ["GameRecord", "RecordError", "read_game", "read_games", "write_game", "record_name",
           "REQUIRED_TAGS", "RESULTS"]

#: Tags every record must have.
REQUIRED_TAGS = ("Size", "GameType", "Scoring")
#: Values of the Result tag.
RESULTS = ("P1", "P2", "draw", "*")

_LINE_WIDTH = 79
_WHITESPACE = " \t\r\n"
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9]+\.")
_WHOLE = re.compile(r"0|[1-9][0-9]*")
_CELL = re.compile(r"[A-Za-z][0-9]{1,6}")     # longer rows are bad tokens
_SIZE = re.compile(r"[1-9]|10")
_PUNCTUATION = '[]{}"'

#: An action: ("komi", int), ("colour", "black" | "white") or ("move", name).
Action = Tuple[str, Any]


class RecordError(CatenaError):
    """A game record that cannot be read (or written): bad syntax, a bad tag or an
    illegal action.

    ``line`` and ``column`` (both 1-based, columns counting characters) say where
    in the text; they are None for a record that does not come from text (see
    :meth:`GameRecord.game` and :func:`write_game`).  ``reason`` is the message
    without the location.

    >>> import catena
    >>> catena.read_game('[Size "2"]\\n')
    Traceback (most recent call last):
      ...
    catena.record.RecordError: line 2, column 1: expected the tag GameType (required: Size, GameType, Scoring) before the moves, found end of text
    """  # noqa: E501 (a doctest shows the whole message)

    def __init__(self, reason: str, line: Optional[int] = None, column: Optional[int] = None):
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(reason if line is None else f"line {line}, column {column}: {reason}")

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.reason, self.line, self.column))


# ---------------------------------------------------------------------- record

@dataclass
class GameRecord:
    """A game as a record: tags, actions and comments.

    ``tags`` maps tag names to their (string) values in header order.
    ``actions`` lists the game's actions as :attr:`catena.Game.actions` does:
    ``("komi", k)``, ``("colour", "black" | "white")`` and ``("move", name)``
    with cell names in upper case and ``"button"``.  ``comments`` maps an action
    index to the comment written after that action; the key ``-1`` is the
    comment before the first action (the pre-game comment).

    >>> import catena
    >>> record = catena.read_game('[Size "1"]\\n[GameType "double"]\\n[Scoring "standard"]\\n\\n1. A1\\n')
    >>> record.actions, record.game().is_over()
    ([('move', 'A1')], True)
    """

    tags: Dict[str, str] = field(default_factory=dict)
    actions: List[Action] = field(default_factory=list)
    comments: Dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tags = dict(self.tags)
        self.actions = [tuple(action) if isinstance(action, list) else action
                        for action in self.actions]
        self.comments = dict(self.comments)

    @property
    def pregame_comment(self) -> Optional[str]:
        """The comment before the first action (``comments[-1]``), or None."""
        return self.comments.get(-1)

    def game(self) -> Game:
        """The game replayed from the actions (a new :class:`catena.Game`).

        Raises :class:`RecordError` (without a line and column) if the tags are
        bad, an action is illegal, or the Komi or Result tag disagrees with the
        replay; TypeError if a field holds a value of the wrong type.
        """
        game, _numbers = _replay_record(self)
        return game

    @classmethod
    def from_game(cls, game: Game, **tags: Union[str, int, None]) -> "GameRecord":
        """The record of ``game`` (finished or not), with no comments.

        The tags are Size, GameType and Scoring, Komi in a komi game once it is
        chosen, then ``tags`` in the order given, then Result ("P1", "P2" or
        "draw" for a finished game, "*" otherwise) unless ``tags`` gives it
        (a game stopped early may have been won otherwise, e.g. by resignation).
        A tag value may be a str or an int; None leaves the tag out.
        """
        if not isinstance(game, Game):
            raise TypeError(f"from_game needs a catena.Game, not {type(game).__name__}")
        base = {"Size": str(game.size), "GameType": game.game_type, "Scoring": game.scoring}
        if game.game_type == "komi" and game.komi is not None:
            base["Komi"] = str(game.komi)
        fixed = dict(base)
        merged = _merge_tags(base, tags)
        for name in REQUIRED_TAGS:
            if merged.get(name) != fixed[name]:
                raise RecordError(f"tag {name} must be {fixed[name]!r} for this game, "
                                  f"not {merged.get(name)!r}")
        if "Result" not in tags:
            merged["Result"] = _result_of(game)
        record = cls(merged, game.actions, {})
        record.game()
        return record

    @classmethod
    def from_position(cls, position: Position, **tags: Union[str, int, None]) -> "GameRecord":
        """The record of the game that reached ``position``: its moves from the empty
        board, with the setup a position implies.  A position knows the colours but
        not the players, so the record has P1 playing Black: in a komi game P1 chose
        the position's komi and P2 White; in a no-komi game P2 chose White after
        P1's first stone.  ``tags`` as in :meth:`from_game`.

        >>> import catena
        >>> pos = catena.Position(size=2, komi=1)
        >>> pos.push("B2"); pos.push("A1")
        >>> GameRecord.from_position(pos).actions
        [('komi', 1), ('colour', 'white'), ('move', 'B2'), ('move', 'A1')]
        """
        if not isinstance(position, Position):
            raise TypeError(f"from_position needs a catena.Position, not {type(position).__name__}")
        game = Game.from_moves([move.name for move in position.move_stack], position.size, position.game_type,
                               position.scoring, position.komi)
        if game.position != position:
            raise RecordError("the position's moves from the empty board do not lead to it, so it "
                              "cannot be written as a game")
        return cls.from_game(game, **tags)


def _merge_tags(tags: Dict[str, str], extra: Dict[str, Any]) -> Dict[str, str]:
    merged = dict(tags)
    for name, value in extra.items():
        if value is None:
            merged.pop(name, None)
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise TypeError(f"tag {name} must be a str or an int, not {type(value).__name__}")
        merged[name] = value
    return merged


def _outcome(game: Game) -> GameOutcome:
    outcome = game.outcome()
    assert outcome is not None
    return outcome


def _position(game: Game) -> Position:
    position = game.position
    assert position is not None
    return position


def _result_of(game: Game) -> str:
    outcome = game.outcome()
    if outcome is None:
        return "*"
    return "draw" if outcome.winner_player is None else outcome.winner_player


# ---------------------------------------------------------------------- checks shared by reading and writing

def _tag_problem(name: str, value: str, tags: Dict[str, str]) -> Optional[str]:
    """Why the value of a known tag is bad, or None."""
    if name == "Size" and not _SIZE.fullmatch(value):
        return f"expected Size to be a board side 1 to 10, found {_quote(value)}"
    if name == "GameType" and value not in GAME_TYPES:
        return f"expected GameType {_choices(GAME_TYPES)}, found {_quote(value)}"
    if name == "Scoring" and value not in SCORINGS:
        return f"expected Scoring {_choices(SCORINGS)}, found {_quote(value)}"
    if name == "Result" and value not in RESULTS:
        return f"expected Result {_choices(RESULTS)}, found {_quote(value)}"
    if name == "Komi":
        game_type, scoring = tags["GameType"], tags["Scoring"]
        if game_type != "komi":
            if value != "0":
                return (f'expected Komi "0" (game type "{game_type}" has no komi, R22), '
                        f"found {_quote(value)}")
            return None
        low, high = KOMI_RANGES[scoring]
        if not (_WHOLE.fullmatch(value) and len(value) <= 6 and low <= int(value) <= high):
            return (f"expected Komi to be a whole number {low} to {high} ({scoring} scoring, R22), "
                    f"found {_quote(value)}")
    return None


def _quote(value: str, limit: int = 40) -> str:
    text = value if len(value) <= limit else value[:limit] + "..."
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def _choices(values: Tuple[str, ...]) -> str:
    quoted = [f'"{v}"' for v in values]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


class _Replay:
    """A game being replayed action by action; each step returns an error message or None."""

    def __init__(self, tags: Dict[str, str]):
        self.game = Game(int(tags["Size"]), tags["GameType"], tags["Scoring"])
        self.komi_tag = tags.get("Komi") if tags["GameType"] == "komi" else None
        self.round = 0          # move numbers given so far (Black turns started)
        self.numbers: List[Optional[int]] = []  # per action: the move number written before it, or None

    def number_due(self) -> Optional[int]:
        """The move number of the next move if it starts a Black turn, else None."""
        game = self.game
        if game.phase not in ("play", "first_stone"):
            return None
        pos = _position(game)
        if pos.to_move == "black" and (game.game_type != "double" or pos.ply == 0 or pos.stones_left == 2):
            return self.round + 1
        return None

    def komi(self, komi: int, written: str) -> Optional[str]:
        problem = self._setup_action("komi", written, lambda: self.game.choose_komi(komi))
        if problem is None and self.komi_tag is not None and self.komi_tag != str(komi):
            return f"expected komi {self.komi_tag} (as the Komi tag says), found komi {written}"
        return problem

    def colour(self, colour: str, written: str) -> Optional[str]:
        return self._setup_action("colour", written, lambda: self.game.choose_colour(colour))

    def _setup_action(self, action: str, written: str, apply: Callable[[], object]) -> Optional[str]:
        try:
            apply()
        except CatenaError as exc:
            return f"illegal setup action '{action} {written}': {exc}"
        self.numbers.append(None)
        return None

    def move(self, name: str) -> Optional[str]:
        game = self.game
        in_play = game.phase in ("play", "first_stone")
        number = self.number_due()
        if in_play:
            label = f"move {number or self.round} ({_position(game).to_move}) {name}"
        else:
            label = f"move {name}"
        try:
            game.push(name)
        except ValueError as exc:       # CatenaError, or a row number too long for int()
            return f"illegal {label}: {exc}"
        self.numbers.append(number)
        if number is not None:
            self.round = number
        return None

    def komi_tag_problem(self) -> Optional[str]:
        """At the end: a Komi tag with no komi action in the record."""
        if self.komi_tag is not None and self.game.komi is None:
            return f"expected the komi action 'komi {self.komi_tag}' that the Komi tag announces"
        return None

    def result_problem(self, value: Optional[str]) -> Optional[str]:
        if value is None or not self.game.is_over():
            return None
        actual = _result_of(self.game)
        if value != actual:
            return (f'expected Result "{actual}" (the replayed game is over, {_outcome(self.game)}), '
                    f"found {_quote(value)}")
        return None


def _check_tag_types(tags: Any) -> None:
    if not isinstance(tags, dict):
        raise TypeError(f"GameRecord.tags must be a dict, not {type(tags).__name__}")
    for name, value in tags.items():
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise RecordError(f"bad tag name {name!r}: a tag name is a letter followed by "
                              f"letters, digits and underscores")
        if not isinstance(value, str):
            raise TypeError(f"the value of tag {name} must be a str, not {type(value).__name__}")


def _replay_record(record: GameRecord) -> Tuple[Game, List[Optional[int]]]:
    """Check a GameRecord (not read from text) and replay it: (game, move numbers)."""
    tags = record.tags
    _check_tag_types(tags)
    for name in REQUIRED_TAGS:
        if name not in tags:
            raise RecordError(f"the record has no {name} tag (required: {', '.join(REQUIRED_TAGS)})")
    for group in (REQUIRED_TAGS, None):
        for name, value in tags.items():
            if group is None or name in group:
                problem = _tag_problem(name, value, tags)
                if problem:
                    raise RecordError(f"tag {name}: {problem}")
    if not isinstance(record.actions, list):
        raise TypeError(f"GameRecord.actions must be a list, not {type(record.actions).__name__}")
    replay = _Replay(tags)
    for index, action in enumerate(record.actions):
        if not (type(action) is tuple and len(action) == 2):
            raise TypeError(f"action {index} must be a (kind, value) tuple, not {action!r}")
        kind, value = action
        if kind == "komi":
            if type(value) is not int:
                raise TypeError(f"action {index}: the komi must be an int, not {value!r}")
            problem = replay.komi(value, str(value))
        elif kind == "colour":
            if value not in ("black", "white"):
                raise RecordError(f"action {index}: expected colour 'black' or 'white', found {value!r}")
            problem = replay.colour(value, value)
        elif kind == "move":
            if not isinstance(value, str):
                raise TypeError(f"action {index}: a move must be a str, not {value!r}")
            problem = replay.move(value)
            if problem is None and replay.game.actions[-1] != action:
                problem = (f"action {index}: expected the move written as "
                           f"{replay.game.actions[-1][1]!r}, found {value!r}")
        else:
            raise RecordError(f"action {index}: expected the kind 'komi', 'colour' or 'move', found {kind!r}")
        if problem:
            raise RecordError(problem if problem.startswith("action") else f"action {index}: {problem}")
    problem = replay.komi_tag_problem() or replay.result_problem(tags.get("Result"))
    if problem:
        raise RecordError(problem)
    if not isinstance(record.comments, dict):
        raise TypeError(f"GameRecord.comments must be a dict, not {type(record.comments).__name__}")
    for key, text in record.comments.items():
        if type(key) is not int or not -1 <= key < len(record.actions):
            raise RecordError(f"comment key {key!r} is not -1 (before the first action) or the index "
                              f"of an action (0 to {len(record.actions) - 1})")
        if not isinstance(text, str):
            raise TypeError(f"comment {key} must be a str, not {type(text).__name__}")
    return replay.game, replay.numbers


# ---------------------------------------------------------------------- reading

class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.n = len(text)
        self.i = 0
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    # -- positions and errors

    def where(self, offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def fail(self, offset: int, reason: str) -> NoReturn:
        raise RecordError(reason, *self.where(offset))

    def found(self, offset: int) -> str:
        """What stands at ``offset``, for 'found ...' in a message."""
        text = self.text
        if offset >= self.n:
            return "end of text"
        char = text[offset]
        if char in "\r\n":
            return "end of line"
        if char == "{":
            return "a comment"
        if char in _PUNCTUATION or char in " \t":
            return repr(char)
        end = offset
        while end < self.n and text[end] not in _WHITESPACE and text[end] not in _PUNCTUATION:
            end += 1
        word = text[offset:end]
        return repr(word if len(word) <= 20 else word[:20] + "...")

    # -- lexing

    def skip_whitespace(self) -> None:
        text, n, i = self.text, self.n, self.i
        while i < n and text[i] in _WHITESPACE:
            i += 1
        self.i = i

    def skip_blanks(self) -> None:
        """Spaces and tabs only (inside a tag)."""
        text, n, i = self.text, self.n, self.i
        while i < n and text[i] in " \t":
            i += 1
        self.i = i

    def word(self) -> Tuple[int, str]:
        """(offset, word) of the run of characters up to whitespace or a brace ('' if none)."""
        text, n, start = self.text, self.n, self.i
        i = start
        while i < n and text[i] not in _WHITESPACE and text[i] not in "{}":
            i += 1
        self.i = i
        return start, text[start:i]

    def string(self) -> str:
        """A tag value in double quotes, self.i at the opening quote."""
        text, n, start = self.text, self.n, self.i
        i = start + 1
        out = []
        while True:
            if i >= n or text[i] == "\n":
                self.fail(start, f"expected '\"' to close this tag value, found {self.found(i)}")
            char = text[i]
            if char == '"':
                break
            if char == "\\":
                escaped = text[i + 1] if i + 1 < n else ""
                if escaped not in ("\\", '"', "n", "r"):
                    shown = self.found(i + 1) if escaped in ("", "\n", "\r") else repr("\\" + escaped)
                    self.fail(i, "expected one of \\\\ \\\" \\n \\r after a backslash in a tag value, "
                                 f"found {shown}")
                out.append({"n": "\n", "r": "\r"}.get(escaped, escaped))
                i += 2
                continue
            out.append(char)
            i += 1
        self.i = i + 1
        return "".join(out)

    def comment(self) -> str:
        """A comment in braces, self.i at '{'."""
        text, n, start = self.text, self.n, self.i
        i = start + 1
        out = []
        while True:
            if i >= n:
                self.fail(start, "expected '}' to close this comment, found end of text")
            char = text[i]
            if char == "}":
                break
            if char == "\\" and i + 1 < n and text[i + 1] in "\\}":
                out.append(text[i + 1])
                i += 2
                continue
            out.append(char)
            i += 1
        self.i = i + 1
        body = "".join(out)
        if body.startswith(" "):
            body = body[1:]
        if body.endswith(" "):
            body = body[:-1]
        return body

    # -- the header

    def header(self, several: bool = False) -> Tuple[Dict[str, str], Dict[str, int]]:
        """The tags and, for each, the offset of its value.  With ``several`` games in
        the text, a blank line ends the header (the next tags are the next game's)."""
        tags: Dict[str, str] = {}
        offsets: Dict[str, int] = {}
        text = self.text
        while True:
            before = self.i
            self.skip_whitespace()
            if several and tags and text.count("\n", before, self.i) >= 2:
                break
            if self.i >= self.n or text[self.i] != "[":
                break
            self.i += 1
            self.skip_blanks()
            match = _TAG_NAME.match(text, self.i)
            if match is None:
                self.fail(self.i, f"expected a tag name like Size, found {self.found(self.i)}")
            name, name_offset = match.group(), self.i
            shown = name if len(name) <= 40 else name[:40] + "..."
            self.i = match.end()
            self.skip_blanks()
            if self.i >= self.n or text[self.i] != '"':
                self.fail(self.i, f"expected the value of tag {shown} in double quotes, "
                                  f"found {self.found(self.i)}")
            value_offset = self.i
            value = self.string()
            self.skip_blanks()
            if self.i >= self.n or text[self.i] != "]":
                self.fail(self.i, f"expected ']' to end the {shown} tag, found {self.found(self.i)}")
            self.i += 1
            if name in tags:
                line, _ = self.where(offsets[name])
                self.fail(name_offset, f"expected each tag once, found a second {shown} tag "
                                       f"(the first is on line {line}; read_games reads a text of "
                                       f"several games)")
            tags[name] = value
            offsets[name] = value_offset
        for name in REQUIRED_TAGS:
            if name not in tags:
                self.fail(self.i, f"expected the tag {name} (required: {', '.join(REQUIRED_TAGS)}) "
                                  f"before the moves, found {self.found(self.i)}")
        for group in (REQUIRED_TAGS, None):
            for name, value in tags.items():
                if group is None or name in group:
                    problem = _tag_problem(name, value, tags)
                    if problem:
                        self.fail(offsets[name], problem)
        return tags, offsets

    # -- the moves

    def record(self, several: bool = False) -> GameRecord:
        """One game from self.i; with ``several``, up to the next game's tags."""
        tags, offsets = self.header(several)
        replay = _Replay(tags)
        text = self.text
        actions: List[Action] = []
        comments: Dict[int, str] = {}
        pending: Optional[Tuple[int, str]] = None     # (offset, word) of a move number before its move
        while True:
            self.skip_whitespace()
            if self.i >= self.n:
                break
            char = text[self.i]
            if char == "{":
                if pending is not None:
                    self.fail(self.i, f"expected a move after {pending[1]!r}, found a comment")
                start = self.i
                body = self.comment()
                index = len(actions) - 1
                if index in comments:
                    where = "before the first action" if index < 0 else f"after {_show(actions[index])}"
                    self.fail(start, f"expected an action, found a second comment {where} "
                                     f"(one comment per place)")
                comments[index] = body
                continue
            if char == "}":
                self.fail(self.i, "expected an action or a comment, found '}' outside a comment")
            if char == "[" and several:
                break
            start, word = self.word()
            lower = word.lower()
            if _NUMBER.fullmatch(word):
                if pending is not None:
                    self.fail(start, f"expected a move after {pending[1]!r}, found {word!r}")
                pending = (start, word)
                continue
            if lower == "komi" or lower in ("colour", "color"):
                if pending is not None:
                    self.fail(start, f"expected a move after {pending[1]!r}, found {self.found(start)}")
                self.skip_whitespace()
                value_offset, value = self.word()
                if lower == "komi":
                    if not _WHOLE.fullmatch(value) or len(value) > 30:
                        self.fail(value_offset, "expected a komi (a whole number like 3) after 'komi', "
                                                f"found {self.found(value_offset)}")
                    problem = replay.komi(int(value), value)
                    action: Action = ("komi", int(value))
                else:
                    if value.lower() not in ("black", "white"):
                        self.fail(value_offset, f"expected 'black' or 'white' after {word!r}, "
                                                f"found {self.found(value_offset)}")
                    problem = replay.colour(value.lower(), value)
                    action = ("colour", value.lower())
                if problem:
                    self.fail(value_offset if problem.startswith("expected komi") else start, problem)
                actions.append(action)
                continue
            if lower in ("button", "pass") or _CELL.fullmatch(word):     # "pass": GTP's name of the button
                if pending is not None and self.game_in_play(replay):
                    due = replay.number_due()
                    if due is None:
                        what = "a white move" if _position(replay.game).to_move == "white" else \
                            "the second stone of a turn"
                        self.fail(pending[0], f"expected no move number before {what}, "
                                              f"found {pending[1]!r}")
                    if pending[1] != f"{due}.":
                        self.fail(pending[0], f"expected the move number '{due}.', found {pending[1]!r}")
                problem = replay.move(word)
                if problem:
                    self.fail(start, problem)
                pending = None
                actions.append(replay.game.actions[-1])
                continue
            if word.startswith("["):
                self.fail(start, f"expected an action, found {self.found(start)} "
                                 f"(tags must come before the moves; read_games reads a text of several games)")
            self.fail(start, "expected a move (a cell like F6, or button), 'komi N', "
                             f"'colour black|white' or a move number like '1.', found {self.found(start)}")
        if pending is not None:
            self.fail(self.n, f"expected a move after {pending[1]!r}, found end of text")
        problem = replay.komi_tag_problem()
        if problem:
            self.fail(self.n, problem + ", found end of text")
        problem = replay.result_problem(tags.get("Result"))
        if problem:
            self.fail(offsets["Result"], problem)
        return GameRecord(tags, actions, comments)

    @staticmethod
    def game_in_play(replay: _Replay) -> bool:
        return replay.game.phase in ("play", "first_stone")


def _show(action: Action) -> str:
    kind, value = action
    return f"'{value}'" if kind == "move" else f"'{kind} {value}'"


def _text_of(source: Union[str, IO[str]], caller: str) -> str:
    """The text of a str or of a file object opened in text mode."""
    if hasattr(source, "read") and not isinstance(source, str):
        source = source.read()
        if not isinstance(source, str):
            raise TypeError(f"{caller} needs a file opened in text mode, whose read() gives a str, "
                            f"not {type(source).__name__}")
    if not isinstance(source, str):
        raise TypeError(f"{caller} needs a str or a file object, not {type(source).__name__}")
    return source


def read_game(text: Union[str, IO[str]]) -> GameRecord:
    """Read one game record, checking it by replaying it through :class:`catena.Game`.

    ``text`` is the record's text or a file object opened in text mode.  Raises
    :class:`RecordError`, with ``line`` and ``column``, for bad syntax, a missing
    or bad tag, an illegal action (naming the move and the reason) or a Komi or
    Result tag that disagrees with the replay.

    >>> import catena, io
    >>> text = '[Size "2"]\\n[GameType "komi"]\\n[Scoring "standard"]\\n\\nkomi 1 colour white 1. B2\\n'
    >>> read_game(text).game().position.stone_at("B2")
    'black'
    >>> read_game(io.StringIO(text)) == read_game(text)
    True
    """
    return _Reader(_text_of(text, "read_game")).record()


def read_games(text: Union[str, IO[str]]) -> List[GameRecord]:
    """Read every game of a text (or a text-mode file object) holding several records,
    one after the other: each game starts with its tags, after the previous game's
    moves or after a blank line.  Errors are reported as in :func:`read_game`, with
    the line and column in the whole text.

    >>> import catena
    >>> one, two = catena.Game(size=1), catena.Game(size=2, game_type="double")
    >>> one.choose_komi(0)
    >>> two.push("B2")
    >>> records = read_games(write_game(one) + "\\n" + write_game(two))
    >>> [(r.tags["Size"], r.actions) for r in records]
    [('1', [('komi', 0)]), ('2', [('move', 'B2')])]
    """
    reader = _Reader(_text_of(text, "read_games"))
    records: List[GameRecord] = []
    while True:
        reader.skip_whitespace()
        if reader.i >= reader.n:
            return records
        records.append(reader.record(several=True))


# ---------------------------------------------------------------------- writing

def _escape_value(value: str) -> str:
    return (value.replace("\\", "\\\\").replace('"', '\\"')
            .replace("\n", "\\n").replace("\r", "\\r"))


def _comment_text(body: str) -> str:
    return "{ " + body.replace("\\", "\\\\").replace("}", "\\}") + " }"


def _wrap(units: List[str]) -> str:
    """Join units with spaces, breaking lines before a unit that would pass the width."""
    out = ""
    column = 0
    for unit in units:
        first = unit.split("\n", 1)[0]
        if out and column + 1 + len(first) <= _LINE_WIDTH:
            out += " "
            column += 1
        elif out:
            out += "\n"
            column = 0
        out += unit
        column = len(unit) - unit.rfind("\n") - 1 if "\n" in unit else column + len(unit)
    return out


def record_name(index: int) -> str:
    """The file name of game ``index`` (from 0) of a run in a folder of records (self-play,
    matches).

    >>> record_name(0)
    'game-0001.catena'
    """
    return f"game-{index + 1:04d}.catena"


def refuse_overwriting_records(folder: str, games: int) -> None:
    """Raise ValueError if ``folder`` holds any of the records a run of ``games`` games would
    write there (``record_name(0)`` on), so a command can refuse before its first game."""
    import os

    from catena.text import plural

    existing = [name for name in map(record_name, range(games)) if os.path.exists(os.path.join(folder, name))]
    if existing:
        raise ValueError(f"{folder} already holds {plural(len(existing), 'game record')} this run would "
                         f"overwrite ({existing[0]}{', ...' if len(existing) > 1 else ''}): give --force "
                         f"to overwrite them, or another --out folder")


def write_game(record_or_game: Union[GameRecord, Game, Position], **tags: Union[str, int, None]) -> str:
    """The text of a record (or of a game, via :meth:`GameRecord.from_game`, or of
    a position, via :meth:`GameRecord.from_position`).

    ``tags`` are added to the record's tags (or replace their values; None
    removes a tag).  The record is checked first, as :meth:`GameRecord.game`
    does, so ``read_game(write_game(record)) == record`` and reading and writing
    the text again gives it back unchanged.

    >>> import catena
    >>> game = catena.Game(size=1, game_type="double"); game.push("A1")
    >>> print(write_game(game, P1="Ann"), end="")
    [Size "1"]
    [GameType "double"]
    [Scoring "standard"]
    [P1 "Ann"]
    [Result "P1"]
    <BLANKLINE>
    1. A1
    """
    if isinstance(record_or_game, Game):
        record = GameRecord.from_game(record_or_game, **tags)
    elif isinstance(record_or_game, Position):
        record = GameRecord.from_position(record_or_game, **tags)
    elif isinstance(record_or_game, GameRecord):
        record = record_or_game
        if tags:
            record = GameRecord(_merge_tags(record.tags, tags), record.actions, record.comments)
    else:
        raise TypeError(f"write_game needs a GameRecord, a Game or a Position, "
                        f"not {type(record_or_game).__name__}")
    _game, numbers = _replay_record(record)
    lines = [f'[{name} "{_escape_value(value)}"]' for name, value in record.tags.items()]
    body = []
    if -1 in record.comments:
        body.append(_comment_text(record.comments[-1]))
    units = []
    for index, (kind, value) in enumerate(record.actions):
        if kind == "komi":
            units.append(f"komi {value}")
        elif kind == "colour":
            units.append(f"colour {value}")
        else:
            units.append(value if numbers[index] is None else f"{numbers[index]}. {value}")
        if index in record.comments:
            units.append(_comment_text(record.comments[index]))
    if units:
        body.append(_wrap(units))
    text = "\n".join(lines) + "\n"
    if body:
        text += "\n" + "\n".join(body) + "\n"
    return text
