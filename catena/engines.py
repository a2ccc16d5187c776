"""Engines a match can play, as its referee sees them: catena players made from a spec
(:class:`PlayerEngine`) and GTP engines run as subprocesses (:class:`SubprocessEngine`,
through :class:`GtpClient`), each game starting from an :class:`Opening`.

A player spec is a kind followed by keyword options, as on the command line::

    mcts iterations=2000 seconds=0.5 threads=1 score_weight=0 rave=false
    flat playouts=200
    random

``mcts`` makes a :class:`catena.MCTSPlayer` and passes every option on (so
any ``MCTS`` keyword works), ``flat`` a FlatMonteCarloPlayer, ``random`` a
RandomPlayer.  Values are read as ints, floats, ``true``/``false`` or ``none``,
else kept as strings.

>>> spec = parse_spec("mcts iterations=300 rave=false")
>>> spec
PlayerSpec(kind='mcts', options={'iterations': 300, 'rave': False})
>>> player = spec.make(seed=1)
>>> player.iterations, player.mcts.rave
(300, False)
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterator, Optional, Protocol

from catena._position import Position
from catena.errors import CatenaError
from catena.players import FlatMonteCarloPlayer, MCTSPlayer, RandomPlayer

PLAYER_KINDS = {"mcts": MCTSPlayer, "flat": FlatMonteCarloPlayer, "random": RandomPlayer}
MAX_LINE = 1 << 16          # bytes: an engine's longer line is read in pieces of this size
MAX_ANSWER = 1 << 20        # characters: a longer answer is not GTP (and must not fill the memory)
EXIT_WAIT = 1.0             # seconds an engine whose output ended has to exit before it is killed
_OWN_SESSION = hasattr(os, "killpg")    # POSIX: each engine leads a process group, killed whole


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class PlayerSpec:
    """A kind of catena player and the keyword options it is made with."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    def make(self, seed: Optional[int] = None) -> Any:
        """A new player; ``seed`` is used unless the spec sets its own."""
        options = dict(self.options)
        options.setdefault("seed", seed)
        try:
            return PLAYER_KINDS[self.kind](**options)
        except TypeError as exc:         # an unknown keyword: say which spec it came from
            raise CatenaError(f"player spec {self}: {exc}") from None

    def __str__(self) -> str:
        return " ".join([self.kind] + [f"{key}={value}" for key, value in self.options.items()])


def parse_spec(text: str) -> PlayerSpec:
    """The PlayerSpec written ``text``, e.g. ``"mcts iterations=2000 score_weight=0"``.

    >>> parse_spec("alphazero")
    Traceback (most recent call last):
      ...
    catena.errors.CatenaError: unknown player kind 'alphazero' in 'alphazero': expected one of mcts, flat, random
    """
    if not isinstance(text, str):
        raise TypeError(f"a player spec is a str, not {type(text).__name__}")
    words = text.split()
    if not words or words[0] not in PLAYER_KINDS:
        kind = words[0] if words else ""
        raise CatenaError(f"unknown player kind {kind!r} in {text!r}: expected one of "
                          f"{', '.join(PLAYER_KINDS)}")
    options: dict[str, Any] = {}
    for word in words[1:]:
        key, equals, value = word.partition("=")
        if not equals or not key.isidentifier():
            raise CatenaError(f"player option {word!r} in {text!r} is not of the form key=value")
        options[key] = _value(value)
    return PlayerSpec(words[0], options)


# ---------------------------------------------------------------- GTP engines as subprocesses


class EngineFailure(CatenaError):
    """An engine crashed, timed out, refused a command or answered nonsense.

    ``kind`` is "crash", "timeout", "refused" or "illegal move".
    """

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class GtpClient:
    """A GTP engine run as a subprocess, spoken to line by line.

    ``command`` is split like a shell command line (no shell runs it).  Every
    answer is awaited at most ``timeout`` seconds; a dead or silent engine raises
    :class:`EngineFailure` and is killed, so nothing waits forever.  The engine's
    output is read as bytes and decoded with replacement, so an answer that is not
    text is a failure at once rather than a silent reader; its standard error is
    read to the end (the last lines are kept for the report), so the engine never
    blocks on a full pipe.  The engine runs in a session of its own and is killed
    with its whole process group, so a wrapper (``bash -c '...'``, a script) leaves
    nothing running, and the terminal's Ctrl-C reaches the match, not the engines.
    """

    def __init__(self, command: str, timeout: float = 60.0):
        self.command = command
        self.timeout = timeout
        self._answers: queue.Queue[Optional[str]] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=10)
        self._busy = False                 # a command awaits its answer (in some thread)
        try:
            self._process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             start_new_session=_OWN_SESSION)
        except (OSError, ValueError) as exc:
            raise EngineFailure("crash", f"cannot start {command!r}: {exc}") from None
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    @staticmethod
    def _lines(stream: Optional[IO[bytes]]) -> Iterator[str]:
        """The stream's lines (pieces of MAX_LINE bytes at most), decoded, until its end."""
        assert stream is not None
        try:
            while chunk := stream.readline(MAX_LINE):
                yield chunk.decode("utf-8", "replace")
        except (OSError, ValueError):      # the pipe was closed under the reader
            return

    def _read_stdout(self) -> None:
        try:
            for line in self._lines(self._process.stdout):
                self._answers.put(line)
        finally:
            self._answers.put(None)

    def _read_stderr(self) -> None:
        for line in self._lines(self._process.stderr):
            self._stderr.append(line.rstrip("\r\n"))

    def _why_dead(self) -> str:
        code = self._process.poll()
        tail = " | ".join(self._stderr)
        return (f"exit code {code}" if code is not None else "no exit code") + (f"; stderr: {tail}" if tail else "")

    def send(self, command: str, timeout: Optional[float] = None) -> str:
        """Send one command and return the answer's text; raises EngineFailure."""
        limit = self.timeout if timeout is None else timeout
        self._busy = True
        try:
            return self._exchange(command, limit)
        finally:
            self._busy = False

    def _exchange(self, command: str, limit: float) -> str:
        try:
            assert self._process.stdin is not None
            self._process.stdin.write((command + "\n").encode("utf-8", "replace"))
            self._process.stdin.flush()
        except (OSError, ValueError):
            self.kill()
            raise EngineFailure("crash", f"engine {self.command!r} died before {command!r} "
                                f"({self._why_dead()})") from None
        deadline = time.monotonic() + limit
        lines: list[str] = []
        size = 0
        while True:
            try:
                line = self._answers.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise EngineFailure("timeout", f"engine {self.command!r} gave no answer to {command!r} "
                                    f"within {limit:g} s") from None
            if line is None:
                try:                       # its exit code for the report, if it ended on its own
                    self._process.wait(timeout=EXIT_WAIT)
                except subprocess.TimeoutExpired:
                    pass
                self.kill()
                raise EngineFailure("crash", f"engine {self.command!r} ended while answering {command!r} "
                                    f"({self._why_dead()})")
            line = line.rstrip("\r\n")
            if not lines and not line.strip():
                continue                   # blank lines before an answer
            if lines and not line.strip():
                break
            size += len(line)
            if (not lines and line[:1] not in ("=", "?")) or size > MAX_ANSWER:
                self.kill()                # out of step with the protocol: nothing it says can be trusted
                raise EngineFailure("crash", f"engine {self.command!r} answered {command!r} "
                                    f"with {line[:80]!r}{'...' if len(line) > 80 else ''}, not a GTP answer")
            lines.append(line)
        text = "\n".join(lines)
        status, rest = text[:1], text[1:]
        body = rest.lstrip("0123456789").strip()
        if status == "?":
            raise EngineFailure("refused", f"engine {self.command!r} refused {command!r}: {body}")
        return body

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def kill(self) -> None:
        """Kill the engine and every process it started (its process group)."""
        if _OWN_SESSION:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except OSError:                # the group is gone: every process in it has ended
                pass
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        try:                               # the reader threads end at the pipes' end of file
            if self._process.stdin is not None:
                self._process.stdin.close()
        except OSError:
            pass

    def close(self) -> None:
        """Ask the engine to quit, then make sure it has (kill it if it is busy answering
        another thread: the match is being stopped)."""
        if self.alive and not self._busy:
            try:
                self.send("quit", timeout=2.0)
                self._process.wait(timeout=2.0)
            except (EngineFailure, subprocess.TimeoutExpired):
                pass
        self.kill()


# ---------------------------------------------------------------- openings and engines as a referee sees them


@dataclass(frozen=True)
class Opening:
    """The start of a pair of games: the rules, the komi and the first stones."""

    size: int
    game_type: str
    scoring: str
    komi: int
    moves: tuple[str, ...]

    def position(self) -> Position:
        return Position.from_moves(self.moves, self.size, self.game_type, self.scoring, self.komi)


class Engine(Protocol):
    """What the referee asks of an engine."""

    name: str

    def new_game(self, opening: Opening, seed: int) -> None: ...

    def play(self, colour: str, move: str) -> None: ...

    def genmove(self, position: Position, colour: str) -> str: ...

    def close(self) -> None: ...


class PlayerEngine:
    """A catena player in this process; ``make(seed)`` makes a fresh one for each game."""

    def __init__(self, make: Callable[[int], Any], name: str):
        self._make = make
        self.name = name
        self._player: Any = None

    @classmethod
    def from_spec(cls, spec: PlayerSpec) -> "PlayerEngine":
        spec.make(seed=0)                                 # a bad option fails now, not in game 1
        return cls(spec.make, str(spec))

    def new_game(self, opening: Opening, seed: int) -> None:
        self._player = self._make(seed)

    def play(self, colour: str, move: str) -> None:
        pass                                              # the player reads the position it is given

    def genmove(self, position: Position, colour: str) -> str:
        try:
            move = self._player.choose_move(position.copy())
        except Exception as exc:
            raise EngineFailure("crash", f"{self.name} raised {type(exc).__name__}: {exc}") from None
        return move if isinstance(move, str) else move.name

    def close(self) -> None:
        self._player = None


class SubprocessEngine:
    """A GTP engine run as a subprocess through a :class:`GtpClient` (restarted after a crash or a
    timeout); the GTP server side is :class:`catena.gtp.GtpEngine`."""

    def __init__(self, command: str, timeout: float = 60.0):
        self.command = command
        self.name = command
        self.timeout = timeout
        self._client: Optional[GtpClient] = None
        self._closed = False

    def _send(self, command: str) -> str:
        if self._client is None or not self._client.alive:
            if self._closed:
                raise EngineFailure("crash", f"engine {self.command!r} was stopped")
            self._client = GtpClient(self.command, self.timeout)
        return self._client.send(command)

    def new_game(self, opening: Opening, seed: int) -> None:
        for command in (f"boardsize {opening.size}", f"catena-game_type {opening.game_type}",
                        f"catena-scoring {opening.scoring}", f"komi {opening.komi}", "clear_board"):
            self._send(command)

    def play(self, colour: str, move: str) -> None:
        self._send(f"play {colour} {'pass' if move == 'button' else move}")

    def genmove(self, position: Position, colour: str) -> str:
        answer = self._send(f"genmove {colour}").strip()
        if answer.lower() == "resign":
            raise EngineFailure("resign", f"engine {self.command!r} resigned")
        return "button" if answer.lower() == "pass" else answer

    def close(self) -> None:
        self._closed = True
        if self._client is not None:
            self._client.close()
