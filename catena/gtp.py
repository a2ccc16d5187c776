"""A GTP (Go Text Protocol, version 2) engine for Catena: ``python -m catena gtp``.

Front ends and tournament managers drive engines through GTP; docs/gtp.md lists
every command with an example session.  Cells are catena's names (``F6``),
GTP's ``pass`` is the button (R13), the game type and scoring are set by the
``catena-game_type`` and ``catena-scoring`` extension commands, and the setup
decisions of R17-R18 by ``catena-choose_komi`` and ``catena-choose_colour``.
Every bad command gets a ``?`` answer that says what was wrong; the engine
state is then as it was.

>>> engine = GtpEngine(size=3, player=MCTSPlayer(iterations=200, seed=1))
>>> print(engine.execute("play black B2"), end="")
=
<BLANKLINE>
>>> print(engine.execute("2 play black C3"), end="")
?2 illegal move: it is white's turn, not black's
<BLANKLINE>
>>> answer = engine.execute("genmove white")          # "= B4", say: the move played
>>> answer[:2], answer.split()[1] == engine.position.peek().name
('= ', True)
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from typing import IO, Any, Callable, Iterator, Optional, Union

from catena._geometry import Move, check_size
from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS, Position, check_komi
from catena.engines import parse_spec
from catena.errors import CatenaError
from catena.game import Game
from catena.players import MCTSPlayer

PROTOCOL_VERSION = "2"
MAX_LINE = 1 << 16          # characters (bytes, read from bytes) of one command line; longer is refused
MAX_DIGITS = 18             # of a whole number in a command: a longer one is too large for any argument
NAME = "catena"
_COLOURS = {"b": "black", "black": "black", "w": "white", "white": "white"}


class GtpError(Exception):
    """A command that gets a ``?`` answer; the message is the answer's text."""


def _gtp_move(name: str) -> str:
    return "pass" if name == "button" else name


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("catena")
    except PackageNotFoundError:
        return "unknown (not installed)"


def final_score(position: Position) -> str:
    """GTP's result of a finished game: ``B+2.5``, ``W+1``, ``0`` for a draw; under
    longest-ribbon scoring, which has a winner but no score (R24), ``B+`` or ``W+``.

    >>> pos = Position(size=1); pos.push("A1")
    >>> final_score(pos)
    'B+0.5'
    """
    outcome = position.outcome()
    if outcome is None:
        raise GtpError("the game is not over: there is no final score yet")
    if outcome.winner is None:
        return "0"
    letter = "B" if outcome.winner == "black" else "W"
    if outcome.black_score is None or outcome.white_score is None:
        return letter + "+"
    return f"{letter}+{abs(outcome.black_score - outcome.white_score):g}"


def _command_lines(stream: IO[Any]) -> Iterator[tuple[Union[bytes, str], bool]]:
    """The lines of ``stream`` (bytes or str), each with whether it held MAX_LINE characters or
    more (its newline not counted): of such a line only the start is kept, the rest is read
    past, never held."""
    while line := stream.readline(MAX_LINE):
        newline = b"\n" if isinstance(line, bytes) else "\n"
        too_long = len(line) == MAX_LINE and not line.endswith(newline)
        while too_long and (rest := stream.readline(MAX_LINE)) and not rest.endswith(newline):
            pass
        yield line, too_long


class GtpEngine:
    """The state of a GTP session and its commands; ``execute(line)`` answers one line.

    ``player`` makes the engine's decisions (a :class:`catena.MCTSPlayer` or any
    object with ``choose_move``, ``choose_komi`` and ``choose_colour``).
    """

    def __init__(self, size: int = 6, game_type: str = "komi", scoring: str = "standard",
                 player: Any = None):
        self.size = check_size(size)
        self.game_type = self._choice(game_type, GAME_TYPES, "game type")
        self.scoring = self._choice(scoring, SCORINGS, "scoring type")
        self.komi = 0
        self.player = MCTSPlayer() if player is None else player
        self.position = Position(self.size, self.game_type, self.scoring, self.komi)
        self.quit = False
        self._byo_yomi = (0.0, 0)                        # time_settings: period seconds, stones
        self._clock: dict[str, tuple[float, int]] = {}   # colour -> (seconds, stones) left; {}: no clock
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: NAME,
            "version": lambda args: _version(),
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(self.commands),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": lambda args: "\n" + str(self.position),
            "final_score": lambda args: final_score(self.position),
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "catena-game_type": self._game_type,
            "catena-scoring": self._scoring,
            "catena-choose_komi": self._choose_komi,
            "catena-choose_colour": self._choose_colour,
            "catena-to_move": self._to_move,
            "catena-legal_moves": self._legal_moves,
        }

    # -- the protocol --------------------------------------------------------

    def execute(self, line: str) -> str:
        """The full answer (ending in a blank line) to one command line; "" for a
        line with no command (blank or a comment)."""
        line = "".join(ch for ch in line.split("#", 1)[0].replace("\t", " ")
                       if ch >= " " or ch == "\n").strip()
        if not line:
            return ""
        words = line.split()
        ident = ""
        if words[0].isascii() and words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} no command after the id\n\n"
        name, args = words[0], words[1:]
        handler = self.commands.get(name)
        try:
            if handler is None:
                raise GtpError(f"unknown command {name!r}")
            answer = handler(args)
        except GtpError as exc:
            return f"?{ident} {exc}\n\n"
        except CatenaError as exc:
            return f"?{ident} {exc}\n\n"
        except Exception as exc:       # a bug must not end the session: say so and go on
            return f"?{ident} internal error: {type(exc).__name__}: {exc}\n\n"
        return f"={ident} {answer}".rstrip(" ") + "\n\n"

    def run(self, stdin: IO[Any], stdout: IO[Any]) -> int:
        """Answer commands from ``stdin`` until ``quit`` or the end of input.

        The streams may be binary (as ``python -m catena gtp`` reads and writes them) or
        text.  Read as bytes, a command that is not UTF-8 gets a ``?`` answer, and so does a
        line of MAX_LINE or more; either way the session goes on.  Answers to a binary
        stream are UTF-8.
        """
        binary_out = not isinstance(stdout, io.TextIOBase)
        for line, too_long in _command_lines(stdin):
            if too_long:
                answer = self._refusal(line, f"the command line is too long: {MAX_LINE} characters or more")
            elif isinstance(line, bytes):
                answer = self._execute_bytes(line)
            else:
                answer = self.execute(line)
            if answer:
                stdout.write(answer.encode("utf-8", "replace") if binary_out else answer)
                stdout.flush()
            if self.quit:
                break
        return 0

    def _execute_bytes(self, line: bytes) -> str:
        """:meth:`execute` for a line read as bytes: a comment may hold any bytes (no byte of a
        multi-byte UTF-8 character is ``#``), the command must be UTF-8."""
        command = line.split(b"#", 1)[0]
        try:
            text = command.decode("utf-8")
        except UnicodeDecodeError as exc:
            return self._refusal(line, f"the command is not UTF-8 text (byte 0x{command[exc.start]:02x} "
                                       f"at column {exc.start + 1})")
        return self.execute(text)

    @staticmethod
    def _refusal(line: Union[bytes, str], message: str) -> str:
        """The ``?`` answer to a line that cannot be read as a command, with its id if it has one."""
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        words = text.split("#", 1)[0].split()
        ident = words[0] if words and words[0].isascii() and words[0].isdigit() else ""
        return f"?{ident} {message}\n\n"

    # -- helpers -------------------------------------------------------------

    @staticmethod
    def _choice(value: str, allowed: tuple[str, ...], what: str) -> str:
        if value not in allowed:
            raise GtpError(f"unknown {what} {value!r}: expected one of {', '.join(allowed)}")
        return value

    @staticmethod
    def _arguments(args: list[str], count: int, usage: str) -> list[str]:
        if len(args) != count:
            raise GtpError(f"syntax error: expected {usage}")
        return args

    @staticmethod
    def _colour(word: str) -> str:
        colour = _COLOURS.get(word.lower())
        if colour is None:
            raise GtpError(f"syntax error: {word!r} is not a colour (black, white, b or w)")
        return colour

    @staticmethod
    def _whole(word: str, what: str) -> int:
        """A whole number written in ASCII digits (``int`` would take ``²``'s kin, or fail on them)."""
        if not (word.isascii() and word.isdigit()):
            raise GtpError(f"syntax error: {what} must be a whole number, not {word!r}")
        if len(word) > MAX_DIGITS:
            raise GtpError(f"{what} {word[:MAX_DIGITS]}... is too large")
        return int(word)

    @staticmethod
    def _number(word: str, what: str) -> float:
        try:
            if not word.isascii():            # float() reads other scripts' digits: GTP's are ASCII
                raise ValueError(word)
            value = float(word)
        except ValueError:
            raise GtpError(f"syntax error: {what} must be a number, not {word!r}") from None
        if not value >= 0 or value == float("inf"):
            raise GtpError(f"syntax error: {what} must be a non-negative number, not {word!r}")
        return value

    def _new_position(self, moves: tuple[str, ...] = ()) -> None:
        self.position = Position.from_moves(moves, self.size, self.game_type, self.scoring, self.komi)

    def _check_turn(self, colour: str, what: str) -> None:
        if self.position.is_game_over():
            raise GtpError(f"{what}: the game is over")
        if colour != self.position.to_move:
            raise GtpError(f"{what}: it is {self.position.to_move}'s turn, not {colour}'s")

    def _game_before_colour_choice(self) -> Game:
        """The Game at P2's colour choice (R17, R18) for the setup commands."""
        game = Game(self.size, self.game_type, self.scoring)
        if self.game_type == "komi" and self.position.ply == 0:
            game.choose_komi(self.komi)
        elif self.game_type == "nokomi" and self.position.ply == 1:
            game.push(self.position.move_stack[0])
        else:
            raise GtpError("no colour choice now: P2 chooses at the start of a komi game "
                           "or after P1's first stone of a no-komi game")
        return game

    # -- commands ------------------------------------------------------------

    def _known_command(self, args: list[str]) -> str:
        (name,) = self._arguments(args, 1, "known_command NAME")
        return "true" if name in self.commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.quit = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        (word,) = self._arguments(args, 1, "boardsize SIDE")
        if not (word.isascii() and word.isdigit()) or len(word) > MAX_DIGITS or not 1 <= int(word) <= 10:
            raise GtpError(f"unacceptable size {word!r}: the board side is a whole number, 1 to 10")
        self.size = int(word)
        self._new_position()
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self._arguments(args, 0, "clear_board")
        self._new_position()
        self._clock = {}
        return ""

    def _komi(self, args: list[str]) -> str:
        (word,) = self._arguments(args, 1, "komi NUMBER")
        value = self._number(word, "komi")
        if value != int(value):
            raise GtpError(f"komi must be a whole number in Catena (R17), not {word}")
        komi = check_komi(int(value), self.game_type, self.scoring)
        self.komi = komi
        self._new_position(tuple(m.name for m in self.position.move_stack))
        return ""

    def _play(self, args: list[str]) -> str:
        colour_word, name = self._arguments(args, 2, "play COLOUR MOVE")
        colour = self._colour(colour_word)
        try:
            move = Move(name, self.size)               # a bad cell is named before the turn is checked
        except CatenaError as exc:
            raise GtpError(f"illegal move: {exc}") from None
        self._check_turn(colour, "illegal move")
        try:
            self.position.push(move)
        except CatenaError as exc:
            raise GtpError(f"illegal move: {exc}") from None
        return ""

    def _search_seconds(self, colour: str) -> Optional[float]:
        """Seconds for this move from the clock (time_settings, time_left), or None."""
        if colour not in self._clock:
            return None
        left, stones = self._clock[colour]
        byo_time, byo_stones = self._byo_yomi
        if stones > 0:                                 # in byo-yomi: share the period
            budget = left / stones
        else:                                          # main time: about half the legal cells remain to fill
            budget = left / (len(self.position.legal_moves()) / 2 + 2)
            if byo_stones > 0:
                budget += byo_time / byo_stones
        return max(0.01, 0.8 * budget - 0.05)          # a margin for the protocol's overhead

    def _genmove(self, args: list[str]) -> str:
        (colour_word,) = self._arguments(args, 1, "genmove COLOUR")
        colour = self._colour(colour_word)
        self._check_turn(colour, "cannot move")
        clock_seconds = self._search_seconds(colour)
        saved = (getattr(self.player, "iterations", None), getattr(self.player, "seconds", None))
        if clock_seconds is not None and hasattr(self.player, "seconds"):
            own = saved[1]
            self.player.seconds = clock_seconds if own is None else min(own, clock_seconds)
        start = time.perf_counter()
        try:
            move = self.player.choose_move(self.position.copy())
        finally:
            if hasattr(self.player, "seconds"):
                self.player.seconds = saved[1]
        self.position.push(move)
        if colour in self._clock:
            left, stones = self._clock[colour]
            self._clock[colour] = (max(0.0, left - (time.perf_counter() - start)), max(0, stones - 1))
        played = self.position.peek()
        assert played is not None
        return _gtp_move(played.name)

    def _undo(self, args: list[str]) -> str:
        self._arguments(args, 0, "undo")
        if not self.position.move_stack:
            raise GtpError("cannot undo: no moves have been played")
        self.position.pop()
        return ""

    def _time_settings(self, args: list[str]) -> str:
        main, byo, stones = self._arguments(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
        main_time = self._number(main, "main time")
        byo_time = self._number(byo, "byo-yomi time")
        byo_stones = self._whole(stones, "byo-yomi stones")
        if byo_time > 0 and byo_stones == 0 or main_time == byo_time == 0:   # no time limit
            self._clock = {}
            return ""
        self._byo_yomi = (byo_time, byo_stones)
        self._clock = {colour: (main_time, 0) for colour in ("black", "white")}
        return ""

    def _time_left(self, args: list[str]) -> str:
        colour_word, seconds, stones = self._arguments(args, 3, "time_left COLOUR TIME STONES")
        colour = self._colour(colour_word)
        left = self._number(seconds, "time left")
        self._clock[colour] = (left, self._whole(stones, "stones"))
        return ""

    def _game_type(self, args: list[str]) -> str:
        if not args:
            return self.game_type
        (word,) = self._arguments(args, 1, "catena-game_type [komi|nokomi|double]")
        self.game_type = self._choice(word, GAME_TYPES, "game type")
        if self.game_type != "komi":
            self.komi = 0
        self._new_position()
        return ""

    def _scoring(self, args: list[str]) -> str:
        if not args:
            return self.scoring
        (word,) = self._arguments(args, 1, "catena-scoring [standard|longest|square]")
        scoring = self._choice(word, SCORINGS, "scoring type")
        low, high = KOMI_RANGES[scoring]
        self.scoring = scoring
        self.komi = min(max(self.komi, low), high)
        self._new_position()
        return ""

    def _choose_komi(self, args: list[str]) -> str:
        self._arguments(args, 0, "catena-choose_komi")
        if self.game_type != "komi" or self.position.ply != 0:
            raise GtpError("no komi to choose: P1 chooses it before the first move of a komi game (R17)")
        komi = check_komi(self.player.choose_komi(Game(self.size, self.game_type, self.scoring)),
                          self.game_type, self.scoring)
        self.komi = komi
        self._new_position()
        return str(komi)

    def _choose_colour(self, args: list[str]) -> str:
        self._arguments(args, 0, "catena-choose_colour")
        colour = self.player.choose_colour(self._game_before_colour_choice())
        if colour not in ("black", "white"):
            raise GtpError(f"the player chose {colour!r}, not a colour")
        return str(colour)

    def _to_move(self, args: list[str]) -> str:
        self._arguments(args, 0, "catena-to_move")
        return "none" if self.position.is_game_over() else self.position.to_move

    def _legal_moves(self, args: list[str]) -> str:
        self._arguments(args, 0, "catena-legal_moves")
        return " ".join(_gtp_move(move.name) for move in self.position.legal_moves())


# ---------------------------------------------------------------- command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m catena gtp``."""
    parser.add_argument("--size", type=int, default=6,
                        help="board side, 1 to 10, until a boardsize command (default: 6)")
    parser.add_argument("--game-type", default="komi", choices=GAME_TYPES,
                        help="the game type until a catena-game_type command (default: komi)")
    parser.add_argument("--scoring", default="standard", choices=SCORINGS,
                        help="the scoring until a catena-scoring command (default: standard)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None,
                        help="MCTS iterations a move (default: 5000 unless --seconds)")
    budget.add_argument("--seconds", type=float, default=None,
                        help="seconds a move (default: none; a clock from time_settings shortens it)")
    parser.add_argument("--threads", type=int, default=1, help="search threads (default: 1)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the engine (default: none)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="any other MCTS keyword, e.g. --option rave=false (repeatable; default: none)")


def make_player(args: argparse.Namespace) -> Any:
    """The engine's MCTSPlayer from the command line's options."""
    words = ["mcts", f"threads={args.threads}"]
    if args.seconds is not None:
        words += [f"seconds={args.seconds}", "iterations=none"]
    else:
        words.append(f"iterations={5000 if args.iterations is None else args.iterations}")
    spec = parse_spec(" ".join(words + list(args.option)))
    return spec.make(seed=args.seed)


def main(args: argparse.Namespace) -> int:
    """Run the engine on standard input and output (``python -m catena gtp``)."""
    engine = GtpEngine(args.size, args.game_type, args.scoring, make_player(args))
    try:                               # bytes: the session survives input that is not UTF-8
        return engine.run(getattr(sys.stdin, "buffer", sys.stdin), getattr(sys.stdout, "buffer", sys.stdout))
    except KeyboardInterrupt:
        print("catena gtp: stopped by Ctrl-C", file=sys.stderr)
        return 130
    except BrokenPipeError:            # the controller went away
        return 0
