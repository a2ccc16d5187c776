"""The web page of ``python -m catena serve``: play against the engine and analyse, in a browser.

A small Starlette application (``pip install "catena[web]"``: Starlette and uvicorn).
The page (``catena/static/``: one HTML file, a hand-written script and a style
sheet) talks to a JSON API; every browser tab starts a game of its own, kept
under a random id while the server runs.  The engine (:class:`catena.MCTSPlayer`)
and the hints (:func:`catena.analyse`) run in a thread pool, off the event loop,
so one tab's search never holds up another tab.

The API, every answer JSON (a game's state, see :meth:`WebGame.state`, or
``{"error": reason}`` with status 400 for a refused action, 404 for an
unknown game, 409 while the engine is busy with that game):

- ``POST /api/games``: a new game (the fields of :func:`new_game`);
- ``POST /api/games/load``: a new game from a record or a position string;
- ``GET /api/games/{id}``: its state;
- ``POST /api/games/{id}/komi``, ``/colour``, ``/move``: the person's setup
  decisions and moves (``{"komi": 3}``, ``{"colour": "white"}``, ``{"move": "F6"}``);
- ``POST /api/games/{id}/engine``: the engine acts until it is the person's turn;
- ``POST /api/games/{id}/undo``: take back the person's last action and what followed;
- ``POST /api/games/{id}/hint``: the engine's advice (in the play phase the top
  moves and the heatmap of :func:`catena.analyse`);
- ``POST /api/games/{id}/strength``: the engine's iterations or seconds a move;
- ``GET /api/games/{id}/record``: the game record and the position string.

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> state = client.post("/api/games", json={"size": 2, "komi": 0, "colour": "black",
...                                          "iterations": 50, "seed": 1}).json()
>>> state["phase"], state["you"], state["your_colour"], state["to_act"]
('play', 'P1', 'black', 'you')
>>> client.post(f"/api/games/{state['id']}/move", json={"move": "B2"}).json()["to_act"]
'engine'
>>> refused = client.post(f"/api/games/{state['id']}/move", json={"move": "B2"})
>>> refused.status_code, refused.json()["error"]
(400, "it is the engine's turn, not yours")
"""

from __future__ import annotations

import inspect
import secrets
import socket
import threading
import webbrowser
from collections import OrderedDict
from importlib import resources
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple, Union

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from catena._geometry import Move, check_size
from catena._position import GAME_TYPES, KOMI_RANGES, SCORINGS, Position
from catena._validate import choice, integer, real
from catena.errors import CatenaError, SetupError
from catena.game import COLOURS, PLAYERS, Game, GameOutcome
from catena.players import MCTSPlayer
from catena.record import read_game, write_game
from catena.svg import svg
from catena.text import claims_text, status_lines

__all__ = ["WebGame", "create_app", "new_game", "load_game", "serve"]

DEFAULT_ITERATIONS = 5000
# an engine setting the page accepts: a move never takes more than about a minute
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 60.0
MAX_GAMES = 100              # games kept at once; the least recently used goes first
HINT_MOVES = 3


class GameNotFound(KeyError):
    """No game has this id (never made, or dropped as the least recently used)."""


class Busy(RuntimeError):
    """The engine is thinking about this game; it takes no other action meanwhile."""


def _other(value: str) -> str:
    return {"black": "white", "white": "black", "P1": "P2", "P2": "P1"}[value]


class _LoadedPosition:
    """A position loaded from a position string, played on as a Game is.

    A position string has no setup and no moves from the empty board, so P1 is
    Black here (as ``GameRecord.from_position`` has it) and the actions are the
    moves since the position was loaded; undo goes back to it and no further.
    """

    def __init__(self, start: Position):
        self.start = start.copy()
        self.size, self.game_type, self.scoring, self.komi = start.size, start.game_type, start.scoring, start.komi
        self._position = start.copy()
        self._base = len(self._position.move_stack)

    @property
    def position(self) -> Position:
        return self._position

    @property
    def phase(self) -> str:
        return "over" if self._position.is_game_over() else "play"

    @property
    def to_act(self) -> Optional[str]:
        return None if self.phase == "over" else self.player_of(self._position.to_move)

    @property
    def actions(self) -> List[Tuple[str, object]]:
        return [("move", move.name) for move in self._position.move_stack[self._base:]]

    def colour_of(self, player: str) -> str:
        return "black" if player == "P1" else "white"

    def player_of(self, colour: str) -> str:
        return "P1" if colour == "black" else "P2"

    def push(self, move: Union[Move, str]) -> None:
        self._position.push(move)

    def pop(self) -> Tuple[str, object]:
        if len(self._position.move_stack) <= self._base:
            raise IndexError("pop beyond the loaded position")
        return "move", self._position.pop().name

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Optional[GameOutcome]:
        outcome = self._position.outcome()
        if outcome is None:
            return None
        winner = None if outcome.winner is None else self.player_of(outcome.winner)
        return GameOutcome(outcome=outcome, p1_colour="black", winner_player=winner)

    def replay(self) -> Tuple["_LoadedPosition", Callable[[str, object], None]]:
        fresh = _LoadedPosition(self.start)
        return fresh, lambda kind, value: fresh.push(str(value))


AnyGame = Union[Game, _LoadedPosition]


def _replay_game(game: Game) -> Tuple[Game, Callable[[str, object], None]]:
    fresh = Game(game.size, game.game_type, game.scoring)

    def act(kind: str, value: Any) -> None:
        if kind == "komi":
            fresh.choose_komi(value)
        elif kind == "colour":
            fresh.choose_colour(str(value))
        else:
            fresh.push(str(value))
    return fresh, act


class WebGame:
    """One game of the page: a person (``you``, "P1" or "P2") against an MCTSPlayer.

    ``agreed`` holds setup decisions fixed when the game was made (``komi``,
    ``stone``: P1's no-komi stone, ``colour``: the person's colour); each is
    taken when its step of the setup comes, whoever would decide it.  Every
    change happens on the event loop; only the engine's search runs in a thread,
    with ``busy`` set meanwhile.
    """

    def __init__(self, game: AnyGame, you: str, engine: MCTSPlayer, agreed: Optional[Dict[str, Any]] = None,
                 game_id: Optional[str] = None):
        self.id = game_id or secrets.token_urlsafe(9)
        self.game = game
        self.you = choice(you, "you", PLAYERS)
        self.engine = engine
        self.agreed = dict(agreed or {})
        self.busy: Optional[str] = None
        self.take_agreed_steps()

    # -- whose turn ------------------------------------------------------------

    def engine_to_act(self) -> bool:
        return self.game.to_act not in (None, self.you)

    def your_colour(self) -> Optional[str]:
        colour = self.game.colour_of(self.you)
        if colour is None and self.game.phase == "first_stone" and self.you == "P1":
            return "black"                        # P1's no-komi stone is black (R18)
        return colour

    def take_agreed_steps(self) -> None:
        """Take the agreed setup decisions whose turn has come."""
        game = self.game
        while isinstance(game, Game):
            phase = game.phase
            if phase == "komi" and "komi" in self.agreed:
                game.choose_komi(self.agreed.pop("komi"))
            elif phase == "first_stone" and "stone" in self.agreed:
                game.push(self.agreed.pop("stone"))
            elif phase == "colour" and "colour" in self.agreed:
                mine = self.agreed.pop("colour")
                game.choose_colour(mine if self.you == "P2" else _other(mine))
            else:
                return

    def _check_idle(self) -> None:
        if self.busy is not None:
            raise Busy(f"the engine is {self.busy}: wait for it")

    def _check_your_turn(self, phases: Tuple[str, ...], what: str) -> None:
        self._check_idle()
        phase = self.game.phase
        if phase == "over":
            raise SetupError("the game is over")
        if self.game.to_act != self.you:
            raise SetupError("it is the engine's turn, not yours")
        if phase not in phases:
            raise SetupError(f"{what} is not your decision now: " + self.phase_text())

    # -- the person's actions -------------------------------------------------

    def choose_komi(self, komi: object) -> None:
        self._check_your_turn(("komi",), "the komi")
        assert isinstance(self.game, Game)
        self.game.choose_komi(_whole_number(komi, "the komi"))      # the range is checked there (R22)
        self.take_agreed_steps()

    def choose_colour(self, colour: object) -> None:
        self._check_your_turn(("colour",), "the colour")
        assert isinstance(self.game, Game)
        self.game.choose_colour(choice(colour, "colour", COLOURS))  # type: ignore[arg-type]
        self.take_agreed_steps()

    def push(self, move: object) -> None:
        self._check_your_turn(("play", "first_stone"), "a move")
        if not isinstance(move, str):
            raise TypeError(f"a move is a cell name such as B2, or button, not {type(move).__name__}")
        self.game.push(move.strip())
        self.take_agreed_steps()

    def undo(self) -> List[str]:
        """Take back the person's last action and every action after it; what was taken back."""
        self._check_idle()
        owners = [who for who, *_ in self.history()]
        if self.you not in owners:
            raise SetupError("there is nothing of yours to take back")
        last = len(owners) - 1 - owners[::-1].index(self.you)
        return [str(self.game.pop()[1]) for _ in range(len(owners) - last)][::-1]

    # -- the engine -------------------------------------------------------------

    async def engine_turn(self) -> List[Tuple[str, object]]:
        """The engine acts, in the thread pool, until it is the person's turn or the game
        is over (two stones a turn in double placement); the actions it took."""
        self._check_idle()
        taken: List[Tuple[str, object]] = []
        self.busy = "thinking"
        try:
            while self.engine_to_act():
                game, phase = self.game, self.game.phase
                if phase == "komi":
                    assert isinstance(game, Game)
                    komi = await run_in_threadpool(self.engine.choose_komi, game)
                    game.choose_komi(komi)
                    taken.append(("komi", komi))
                elif phase == "colour":
                    assert isinstance(game, Game)
                    colour = await run_in_threadpool(self.engine.choose_colour, game)
                    game.choose_colour(colour)
                    taken.append(("colour", colour))
                else:
                    assert game.position is not None
                    move = await run_in_threadpool(self.engine.choose_move, game.position.copy())
                    game.push(move)
                    taken.append(("move", str(move)))
                self.take_agreed_steps()
        finally:
            self.busy = None
        return taken

    async def hint(self) -> Dict[str, Any]:
        """What the engine would do in the person's place: in the play phase the best
        moves of :func:`catena.analyse` and its heatmap, in the setup its decision."""
        self._check_your_turn(("komi", "colour", "first_stone", "play"), "a hint")
        game = self.game
        self.busy = "analysing"
        try:
            phase = game.phase
            if phase == "komi":
                assert isinstance(game, Game)
                komi = await run_in_threadpool(self.engine.choose_komi, game)
                return {"advice": f"komi {komi} (it rates that the closest call for the colour choice)"}
            if phase == "colour":
                assert isinstance(game, Game)
                colour = await run_in_threadpool(self.engine.choose_colour, game)
                return {"advice": f"{colour} (the colour it rates higher at komi {game.komi})"}
            assert game.position is not None
            if phase == "first_stone":
                stone = await run_in_threadpool(self.engine.choose_move, game.position.copy())
                return {"advice": f"{stone} (the stone it rates nearest an even game for the colour choice)"}
            return await run_in_threadpool(self._analysis, game.position.copy())
        finally:
            self.busy = None

    def _analysis(self, pos: Position) -> Dict[str, Any]:
        from catena.analysis import analyse

        analysis = analyse(pos, seconds=self.engine.seconds, iterations=self.engine.iterations,
                           seed=self.engine.mcts.seed)
        mover, sign = pos.to_move, (1 if pos.to_move == "black" else -1)
        other = _other(mover)
        moves = []
        for line in analysis.moves[:HINT_MOVES]:
            if pos.scoring == "longest":
                value = {1: "a win", 0: "a draw", -1: "a loss"}.get(int(sign * line.margin), "")
                value = f"{value} for {mover}" if value else f"{sign * line.margin:+.2f} for {mover}"
            else:
                value = f"{sign * line.margin:+.1f} for {mover} ({mover} - {other})"
            moves.append({"move": line.move.name, "win_rate": round(line.win_rate, 3), "margin": line.margin,
                          "proven": line.proven,
                          "text": f"{line.move} (win rate {line.win_rate:.0%}, margin {value}, "
                                  f"{'proven' if line.proven else 'estimated'})"})
        return {"advice": "these moves, best first: " + "; ".join(m["text"] for m in moves),
                "moves": moves, "heatmap": str(analysis.svg())}

    def set_strength(self, iterations: object = None, seconds: object = None) -> None:
        self._check_idle()
        self.engine.iterations, self.engine.seconds = _strength(iterations, seconds)

    # -- what the page shows ------------------------------------------------------

    def history(self) -> List[Tuple[str, str, object, Optional[str], List[str]]]:
        """Every action so far as (player, kind, value, the mover's colour for a move,
        the ribbons it claimed), by replaying the game."""
        game = self.game
        fresh: AnyGame
        fresh, act = game.replay() if isinstance(game, _LoadedPosition) else _replay_game(game)
        out = []
        for kind, value in game.actions:
            who = fresh.to_act
            assert who is not None
            colour = None
            if kind == "move":
                assert fresh.position is not None
                colour = fresh.position.to_move
            act(kind, value)
            claims = claims_text(fresh.position) if kind == "move" and fresh.position is not None else []
            out.append((who, kind, value, colour, claims))
        return out

    def _who(self, player: str) -> str:
        return "you" if player == self.you else "the engine"

    def phase_text(self) -> str:
        """Whose turn it is and what to do, in words."""
        game, phase = self.game, self.game.phase
        if phase == "over":
            outcome = game.outcome()
            assert outcome is not None
            verdict = ("a draw" if outcome.winner_player is None
                       else "you win" if outcome.winner_player == self.you else "the engine wins")
            return f"Game over: {outcome}; {verdict}."
        who = game.to_act
        assert who is not None
        if who != self.you:
            if phase in ("play", "first_stone"):
                colour = game.colour_of(who) or "black"
                return f"The engine ({who}, {colour}) is to move."
            return f"The engine ({who}) is to choose the {'komi' if phase == 'komi' else 'colour'}."
        if phase == "komi":
            low, high = KOMI_RANGES[game.scoring]
            return (f"You are P1: choose the komi, the points White gets for Black moving first "
                    f"({low} to {high}); then the engine, P2, chooses a colour.")
        if phase == "colour":
            if game.game_type == "nokomi":
                return "You are P2: choose your colour (Black takes P1's stone as its own; White moves next)."
            return f"You are P2: the komi is {game.komi}; choose your colour (Black moves first)."
        if phase == "first_stone":
            return "You are P1: place the first black stone anywhere; then the engine, P2, chooses a colour."
        assert game.position is not None
        return f"Your move: {status_lines(game.position)[0]}."

    def state(self) -> Dict[str, Any]:
        """The game as the page draws it."""
        game = self.game
        pos = game.position
        history = self.history()
        moves = []
        for number, (who, kind, value, colour, claims) in enumerate(history, 1):
            if kind == "move":
                text = f"{value} ({colour}, {self._who(who)})"
            else:
                text = f"{kind} {value} ({who}, {self._who(who)})"
            moves.append({"number": number, "player": who, "kind": kind, "value": value, "colour": colour,
                          "by": "you" if who == self.you else "engine", "claims": claims,
                          "text": text + (": " + "; ".join(claims) if claims else "")})
        last_claims = history[-1][4] if history else []
        status = [self.phase_text()]
        if last_claims:
            status.append("Claimed: " + "; ".join(last_claims) + ".")
        if pos is not None and game.phase != "over":
            status.append(status_lines(pos)[1].capitalize() + ".")
        outcome = game.outcome()
        low, high = KOMI_RANGES[game.scoring]
        return {
            "id": self.id,
            "size": game.size, "game_type": game.game_type, "scoring": game.scoring, "komi": game.komi,
            "phase": game.phase,
            "you": self.you, "your_colour": self.your_colour(),
            "to_act": None if game.to_act is None else ("you" if game.to_act == self.you else "engine"),
            "engine_to_act": self.engine_to_act(),
            "busy": self.busy,
            "board": str(svg(game if isinstance(game, Game) else game.position, legal=True)),
            "moves": moves,
            "status": " ".join(status),
            "claims": last_claims,
            "result": None if outcome is None else {
                "text": str(outcome), "winner": outcome.winner_player,
                "you_win": outcome.winner_player == self.you},
            "can_take_button": (game.phase == "play" and game.to_act == self.you and pos is not None
                                and pos.is_legal("button")),
            "can_undo": self.you in (who for who, *_ in history),
            "komi_range": [low, high],
            "position": None if pos is None else pos.to_string(),
            "engine": {"iterations": self.engine.iterations, "seconds": self.engine.seconds},
            "loaded_position": isinstance(game, _LoadedPosition),
        }

    def record(self) -> Dict[str, Any]:
        """The game record (None for a game loaded from a position string, which has no
        moves from the empty board) and the position string."""
        pos = self.game.position
        strength = (f"{self.engine.seconds:g} s" if self.engine.seconds is not None
                    else f"{self.engine.iterations} iterations")
        names = {self.you: "you", _other(self.you): f"catena MCTS {strength}"}
        text = None
        if isinstance(self.game, Game):
            text = write_game(self.game, P1=names["P1"], P2=names["P2"])
        return {"record": text, "position": None if pos is None else pos.to_string()}


# ---------------------------------------------------------------------- reading the page's fields

def _whole_number(value: object, what: str, minimum: Optional[int] = None,
                  maximum: Optional[int] = None) -> int:
    """An int, or a str of a whole number (what a form or an address gives)."""
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit():
            raise ValueError(f"{what} must be a whole number, not {value!r}")
        value = int(text)
    return integer(value, what, minimum, maximum)


def _number(value: object, what: str) -> float:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise ValueError(f"{what} must be a number, not {value!r}") from None
    return real(value, what, finite=True)


def _given(value: object) -> bool:
    return value is not None and value != ""


def _strength(iterations: object = None, seconds: object = None) -> Tuple[Optional[int], Optional[float]]:
    """The engine's budget a decision: seconds if given, else iterations (default 5000)."""
    if _given(seconds):
        number = _number(seconds, "seconds")
        if not 0 < number <= MAX_SECONDS:
            raise ValueError(f"seconds must be more than 0 and at most {MAX_SECONDS:g}, not {number:g}")
        return None, number
    if _given(iterations):
        return _whole_number(iterations, "iterations", 1, MAX_ITERATIONS), None
    return DEFAULT_ITERATIONS, None


def _engine(iterations: object, seconds: object, seed: object) -> MCTSPlayer:
    its, secs = _strength(iterations, seconds)
    return MCTSPlayer(iterations=its, seconds=secs,
                      seed=_whole_number(seed, "seed", 0) if _given(seed) else None)


def new_game(size: object = 6, game_type: object = "komi", scoring: object = "standard", you: object = None,
             komi: object = None, colour: object = None, stone: object = None, iterations: object = None,
             seconds: object = None, seed: object = None) -> WebGame:
    """A new game for the page; numbers may be ints or strings of digits (from a form).

    ``you`` is "P1" or "P2".  ``komi`` (game type komi), ``stone`` (P1's first
    stone, game type nokomi) and ``colour`` (the colour the person plays) fix those
    decisions of the setup in advance, whoever would take them.  Without ``you``
    the person is P2 when only the colour is given (the engine bids the komi or
    places the stone first), else P1; in double placement P1 is Black, so the
    colour says which player the person is.  ``iterations`` or ``seconds`` is the
    engine's budget a decision (seconds win when both are given), ``seed`` its
    random seed.

    >>> game = new_game(size="4", komi="0", colour="black", iterations=100)
    >>> game.game.phase, game.you, game.your_colour(), game.game.komi
    ('play', 'P1', 'black', 0)
    >>> new_game(size=4, game_type="double", colour="white").you
    'P2'
    """
    size = check_size(_whole_number(size if _given(size) else 6, "size"))
    game_type = choice(game_type or "komi", "game type", GAME_TYPES)
    scoring = choice(scoring or "standard", "scoring", SCORINGS)
    agreed: Dict[str, Any] = {}
    if _given(colour):
        agreed["colour"] = choice(colour, "colour", COLOURS)
    if _given(komi):
        number = _whole_number(komi, "the komi")
        if game_type != "komi" and number != 0:
            raise SetupError(f"the komi is 0 in game type {game_type} (R22), not {number}")
        if game_type == "komi":
            agreed["komi"] = number
    if _given(stone):
        if game_type != "nokomi":
            raise SetupError(f"only a nokomi game starts with P1's stone, not a {game_type} game")
        if not isinstance(stone, str):
            raise TypeError(f"the stone is a cell name such as B2, not {type(stone).__name__}")
        agreed["stone"] = stone.strip()
    if game_type == "double" and "colour" in agreed:
        implied = "P1" if agreed.pop("colour") == "black" else "P2"       # P1 is Black (R19)
        if _given(you) and you != implied:
            raise SetupError(f"in double placement P1 is Black, so {you} cannot play {colour}")
        you = implied
    if not _given(you):
        decided_by_p1 = {"komi": "komi", "nokomi": "stone"}.get(game_type)
        you = "P2" if "colour" in agreed and decided_by_p1 not in agreed else "P1"
    you = choice(you, "you", PLAYERS)
    engine = _engine(iterations, seconds, seed)
    return WebGame(Game(size, game_type, scoring), you, engine, agreed)


def load_game(text: object, you: object = None, iterations: object = None, seconds: object = None,
              seed: object = None) -> WebGame:
    """A game for the page from a game record (text of ``catena.write_game``) or a
    position string (``Position.to_string``), to play on from its end.

    ``you`` is "P1" or "P2", or a colour for a position string (where P1 is
    Black); by default the person takes the side to act next.

    >>> load_game("2 komi standard 0 2/1b1/2 w - 1 b", iterations=50).your_colour()
    'white'
    """
    if not isinstance(text, str):
        raise TypeError(f"the text to load must be a str, not {type(text).__name__}")
    text = text.strip()
    if not text:
        raise ValueError("nothing to load: paste a game record or a position string")
    game: AnyGame
    if text.startswith("["):
        game = read_game(text).game()
    else:
        if "\n" in text:
            raise ValueError("a position string is one line; a game record starts with its tags, "
                             "such as [Size \"6\"]")
        game = _LoadedPosition(Position.from_string(text))
    if _given(you) and you in COLOURS:
        you = game.player_of(str(you))
        if you is None:
            raise ValueError("the record's setup has not decided the colours yet: give P1 or P2")
    if not _given(you):
        you = game.to_act or "P1"
    return WebGame(game, str(choice(you, "you", PLAYERS)), _engine(iterations, seconds, seed))


# ---------------------------------------------------------------------- the application

class _Games:
    """The games of the running server by id, the most recently used last."""

    def __init__(self, limit: int):
        self.limit = limit
        self._games: "OrderedDict[str, WebGame]" = OrderedDict()

    def add(self, game: WebGame) -> WebGame:
        self._games[game.id] = game
        while len(self._games) > self.limit:
            self._games.popitem(last=False)
        return game

    def get(self, game_id: str) -> WebGame:
        try:
            self._games.move_to_end(game_id)
            return self._games[game_id]
        except KeyError:
            raise GameNotFound(f"no game {game_id!r} on this server (it keeps the {self.limit} games used "
                               f"most recently): start a new game") from None


Handler = Callable[[Request], Awaitable[Any]]


def _json_endpoint(handler: Handler, status: int = 200) -> Callable[[Request], Awaitable[Response]]:
    """The handler's dict as JSON; a refused action as ``{"error": reason}``."""
    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await handler(request), status_code=status)
        except GameNotFound as exc:
            return JSONResponse({"error": exc.args[0]}, status_code=404)
        except Busy as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except (CatenaError, ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
    return endpoint


async def _body(request: Request) -> Dict[str, Any]:
    """The request's JSON object (an empty body is an empty object).

    Every action must say it sends JSON: a page of another site can post a form to
    this server, but not with that type unless the server allows it, which it never does."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ValueError("an action's request must send JSON (Content-Type: application/json)")
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = await request.json()
    except ValueError:
        raise ValueError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise TypeError(f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def _only(data: Dict[str, Any], allowed: Tuple[str, ...]) -> Dict[str, Any]:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}: expected {', '.join(allowed)}")
    return data


NEW_GAME_FIELDS = ("size", "game_type", "scoring", "you", "komi", "colour", "stone", "iterations", "seconds",
                   "seed")
LOAD_FIELDS = ("text", "you", "iterations", "seconds", "seed")


def create_app(max_games: int = MAX_GAMES) -> Starlette:
    """The Starlette application of the page, keeping at most ``max_games`` games."""
    games = _Games(integer(max_games, "max_games", minimum=1))

    async def index(request: Request) -> Response:
        return HTMLResponse(resources.files("catena").joinpath("static", "index.html").read_text())

    async def create(request: Request) -> Dict[str, Any]:
        return games.add(new_game(**_only(await _body(request), NEW_GAME_FIELDS))).state()

    async def load(request: Request) -> Dict[str, Any]:
        return games.add(load_game(**_only(await _body(request), LOAD_FIELDS))).state()

    async def show(request: Request) -> Dict[str, Any]:
        return games.get(request.path_params["game_id"]).state()

    def action(act: Callable[[WebGame, Dict[str, Any]], Any], required: Tuple[str, ...] = (),
               optional: Tuple[str, ...] = ()) -> Handler:
        """A handler that does ``act`` to the game and answers its state (with what
        ``act`` returned: a dict merged in, or the list of actions taken back)."""
        async def handler(request: Request) -> Dict[str, Any]:
            game = games.get(request.path_params["game_id"])
            data = _only(await _body(request), required + optional)
            missing = [name for name in required if name not in data]
            if missing:
                raise ValueError(f"missing field {missing[0]!r}")
            done = act(game, data)
            if inspect.isawaitable(done):
                done = await done
            state = game.state()
            if isinstance(done, dict):
                state.update(done)
            elif isinstance(done, list):
                state["undone"] = done
            return state
        return handler

    async def record(request: Request) -> Dict[str, Any]:
        return games.get(request.path_params["game_id"]).record()

    async def hint(game: WebGame) -> Dict[str, Any]:
        return {"hint": await game.hint()}

    def post(path: str, handler: Handler) -> Route:
        return Route(path, _json_endpoint(handler), methods=["POST"])

    game = "/api/games/{game_id}"
    routes = [
        Route("/", index),
        Route("/api/games", _json_endpoint(create, 201), methods=["POST"]),
        Route("/api/games/load", _json_endpoint(load, 201), methods=["POST"]),
        Route(game, _json_endpoint(show)),
        post(game + "/komi", action(lambda g, d: g.choose_komi(d["komi"]), ("komi",))),
        post(game + "/colour", action(lambda g, d: g.choose_colour(d["colour"]), ("colour",))),
        post(game + "/move", action(lambda g, d: g.push(d["move"]), ("move",))),
        post(game + "/engine", action(lambda g, d: g.engine_turn())),
        post(game + "/undo", action(lambda g, d: g.undo())),
        post(game + "/hint", action(lambda g, d: hint(g))),
        post(game + "/strength", action(lambda g, d: g.set_strength(d.get("iterations"), d.get("seconds")),
                                        optional=("iterations", "seconds"))),
        Route(game + "/record", _json_endpoint(record)),
        Mount("/static", StaticFiles(packages=[("catena", "static")]), name="static"),
    ]
    return Starlette(routes=routes)


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = True) -> None:
    """Serve the page on ``host``:``port`` (0: any free port) until Ctrl-C, which raises
    KeyboardInterrupt once the server has shut down.  The page's address is printed as
    soon as the port listens; ``open_browser`` opens it in a browser."""
    import uvicorn

    port = integer(port, "port", 0, 65535)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)                    # connections wait from now on, while uvicorn starts
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot serve on {host}:{port}: {exc.strerror or exc} (try another --port, or 0 "
                      f"for any free one)") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", timeout_graceful_shutdown=5))
    # flushed at once, also into a pipe: whoever started the server may be waiting for the address
    print(f"catena: playing at {url} (Ctrl-C stops the server)", flush=True)
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    # uvicorn raises the signal that stopped it again once it has shut down, which ends in
    # KeyboardInterrupt, unless SIGINT was ignored (a job started in the background): say it here
    raise KeyboardInterrupt


def _open_when_started(server: Any, url: str) -> None:
    import time

    for _ in range(100):
        if server.started:
            webbrowser.open(url)
            return
        time.sleep(0.1)
