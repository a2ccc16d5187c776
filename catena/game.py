"""A whole game between two players, setup phase included (R17-R19).

The players are P1 and P2; colours are decided in the setup:

- ``komi``: P1 chooses the komi (:meth:`Game.choose_komi`), then P2 chooses a
  colour (:meth:`Game.choose_colour`); Black moves first.
- ``nokomi``: P1 places one black stone (:meth:`Game.push`), then P2 chooses a
  colour; White moves next.
- ``double``: no setup; P1 is Black.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Protocol, Union

from catena._geometry import Move, check_size
from catena._position import GAME_TYPES, SCORINGS, Position, check_komi
from catena.errors import CatenaError, SetupError
from catena.results import Outcome

PLAYERS = ("P1", "P2")
COLOURS = ("black", "white")


class Player(Protocol):
    """What :meth:`Game.play` asks of a player."""

    def choose_komi(self, game: "Game") -> int: ...

    def choose_colour(self, game: "Game") -> str: ...

    def choose_move(self, position: Position) -> Union[Move, str]: ...


@dataclass(frozen=True)
class GameOutcome:
    """The outcome of a finished game per colour and per player.

    >>> import catena
    >>> game = catena.Game(size=1, game_type="double")
    >>> game.push("A1")
    >>> result = game.outcome()
    >>> result.winner, result.winner_player, result.score_of("P2")
    ('black', 'P1', 0.0)
    >>> print(result)
    P1 (black) wins: black 1, white 0
    """

    outcome: Outcome
    p1_colour: str
    winner_player: Optional[str]

    @property
    def winner(self) -> Optional[str]:
        return self.outcome.winner

    def score_of(self, player: str) -> Optional[float]:
        """The final score of "P1" or "P2" (None under longest-ribbon scoring)."""
        colour = self.p1_colour if player == "P1" else _other(self.p1_colour)
        return self.outcome.black_score if colour == "black" else self.outcome.white_score

    def __str__(self) -> str:
        """The outcome as a sentence: who won (player and colour) or a draw, then the scores."""
        text = "a draw" if self.winner_player is None else f"{self.winner_player} ({self.winner}) wins"
        if self.outcome.black_score is not None:            # longest-ribbon scoring has none (R24)
            text += f": black {self.outcome.black_score:g}, white {self.outcome.white_score:g}"
        return text


def _other(colour: str) -> str:
    return "white" if colour == "black" else "black"


class Game:
    """The setup phase and the play phase of one game.

    ``phase`` is "komi" (P1 chooses the komi), "first_stone" (P1 places the
    black stone of a no-komi game), "colour" (P2 chooses a colour), "play" or
    "over".  ``to_act`` says whose decision or move it is, as "P1" or "P2".

    >>> game = Game(size=2)
    >>> game.phase, game.to_act
    ('komi', 'P1')
    >>> game.choose_komi(1); game.choose_colour("white")
    >>> game.phase, game.to_act, game.colour_of("P1")
    ('play', 'P1', 'black')
    """

    def __init__(self, size: int = 6, game_type: str = "komi", scoring: str = "standard"):
        self.size = check_size(size)
        if game_type not in GAME_TYPES:
            raise CatenaError(f"unknown game type {game_type!r}: expected one of "
                              f"{', '.join(map(repr, GAME_TYPES))}")
        if scoring not in SCORINGS:
            raise CatenaError(f"unknown scoring type {scoring!r}: expected one of "
                              f"{', '.join(map(repr, SCORINGS))}")
        self.game_type = game_type
        self.scoring = scoring
        self._reset()

    @classmethod
    def from_moves(cls, moves: Iterable[str], size: int = 6, game_type: str = "komi", scoring: str = "standard",
                   komi: int = 0) -> "Game":
        """The game a bare position implies: ``moves`` from the empty board with the setup a
        position does not record.  P1 plays Black: in a komi game P1 chose ``komi`` and P2
        White; in a no-komi game P1 placed the first stone and P2 chose White.

        >>> game = Game.from_moves(["B2", "A1"], size=2, komi=1)
        >>> game.actions
        [('komi', 1), ('colour', 'white'), ('move', 'B2'), ('move', 'A1')]
        """
        game = cls(size, game_type, scoring)
        moves = list(moves)
        if game_type == "komi":
            game.choose_komi(komi)
            game.choose_colour("white")
        elif game_type == "nokomi" and moves:
            game.push(moves.pop(0))
            game.choose_colour("white")
        for move in moves:
            game.push(move)
        return game

    def _reset(self) -> None:
        self.komi: Optional[int] = None if self.game_type == "komi" else 0
        self._p1_colour: Optional[str] = "black" if self.game_type == "double" else None
        self._position: Optional[Position] = None
        self._actions: list[tuple[str, object]] = []
        if self.game_type != "komi":
            self._position = Position(self.size, self.game_type, self.scoring, 0)

    # -- state -------------------------------------------------------------

    def _play_position(self) -> Position:
        """The position, which exists once the komi is known."""
        if self._position is None:
            raise SetupError("the game has no position before the komi is chosen")
        return self._position

    @property
    def phase(self) -> str:
        if self.komi is None:
            return "komi"
        if self.game_type == "nokomi" and self._play_position().ply == 0:
            return "first_stone"
        if self._p1_colour is None:
            return "colour"
        return "over" if self._play_position().is_game_over() else "play"

    @property
    def to_act(self) -> Optional[str]:
        """"P1" or "P2": who decides or moves next; None once the game is over."""
        phase = self.phase
        if phase in ("komi", "first_stone"):
            return "P1"
        if phase == "colour":
            return "P2"
        if phase == "over":
            return None
        return self.player_of(self._play_position().to_move)

    @property
    def position(self) -> Optional[Position]:
        """The position of the play phase (in a komi game, once the komi is chosen)."""
        return self._position

    @property
    def actions(self) -> list[tuple[str, object]]:
        """Every action so far: ("komi", k), ("colour", c) or ("move", name)."""
        return list(self._actions)

    def colour_of(self, player: str) -> Optional[str]:
        """The colour "P1" or "P2" plays, None before the colour choice."""
        if player not in PLAYERS:
            raise SetupError(f"unknown player {player!r}: expected 'P1' or 'P2'")
        if self._p1_colour is None:
            return None
        return self._p1_colour if player == "P1" else _other(self._p1_colour)

    def player_of(self, colour: str) -> Optional[str]:
        """"P1" or "P2": who plays ``colour``; during a no-komi opening Black is P1."""
        if colour not in COLOURS:
            raise SetupError(f"unknown colour {colour!r}: expected 'black' or 'white'")
        if self._p1_colour is None:
            return "P1" if colour == "black" and self.game_type == "nokomi" else None
        return "P1" if colour == self._p1_colour else "P2"

    # -- actions -----------------------------------------------------------

    def choose_komi(self, komi: int) -> None:
        """P1 chooses the komi (game type "komi", R17, range by scoring type R22)."""
        if self.phase != "komi":
            raise SetupError(f"P1 cannot choose the komi now: the game is in the {self.phase!r} phase")
        try:
            komi = check_komi(komi, "komi", self.scoring)
        except CatenaError as exc:
            raise SetupError(str(exc)) from None
        self.komi = komi
        self._position = Position(self.size, self.game_type, self.scoring, komi)
        self._actions.append(("komi", komi))

    def choose_colour(self, colour: str) -> None:
        """P2 chooses to play "black" or "white" (R17, R18)."""
        if self.phase != "colour":
            raise SetupError(f"P2 cannot choose a colour now: the game is in the {self.phase!r} phase")
        if colour not in COLOURS:
            raise SetupError(f"unknown colour {colour!r}: expected 'black' or 'white'")
        self._p1_colour = _other(colour)
        self._actions.append(("colour", colour))

    def push(self, move: Union[Move, str]) -> None:
        """Play a move of the play phase, or P1's opening black stone (no komi)."""
        phase = self.phase
        if phase not in ("play", "first_stone"):
            raise SetupError(f"no move can be played now: the game is in the {phase!r} phase")
        position = self._play_position()
        position.push(move)
        played = position.peek()
        assert played is not None
        self._actions.append(("move", played.name))

    def pop(self) -> tuple[str, object]:
        """Undo the last action (a move, the colour choice or the komi) and return it."""
        if not self._actions:
            raise IndexError("pop from a game with no actions")
        kind, value = self._actions.pop()
        if kind == "move":
            self._play_position().pop()
        elif kind == "colour":
            self._p1_colour = None
        else:
            self.komi = None
            self._position = None
        return kind, value

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Optional[GameOutcome]:
        """The GameOutcome once the game is over, else None."""
        if not self.is_over():
            return None
        outcome = self._play_position().outcome()
        assert outcome is not None and self._p1_colour is not None
        winner = None if outcome.winner is None else self.player_of(outcome.winner)
        return GameOutcome(outcome=outcome, p1_colour=self._p1_colour, winner_player=winner)

    # -- playing with player objects ---------------------------------------

    def play(self, p1: Player, p2: Player,
             on_action: Optional[Callable[["Game", str, str, Any], object]] = None) -> GameOutcome:
        """Play to the end with two player objects; returns the GameOutcome.

        A player has ``choose_komi(game) -> int``, ``choose_colour(game) -> str``
        and ``choose_move(position) -> Move``.  ``on_action(game, player, kind,
        value)`` is called after every action.
        """
        players = {"P1": p1, "P2": p2}
        value: Any
        while not self.is_over():
            who = self.to_act
            assert who is not None
            player = players[who]
            phase = self.phase
            if phase == "komi":
                value = player.choose_komi(self)
                self.choose_komi(value)
                kind = "komi"
            elif phase == "colour":
                value = player.choose_colour(self)
                self.choose_colour(value)
                kind = "colour"
            else:
                value = player.choose_move(self._play_position().copy())
                self.push(value)
                kind = "move"
            if on_action is not None:
                on_action(self, who, kind, value)
        result = self.outcome()
        assert result is not None
        return result

    def _repr_svg_(self) -> str:
        """The board as SVG (the empty board before the komi), so a game draws itself in Jupyter.

        >>> Game(size=2)._repr_svg_().startswith("<svg")
        True
        """
        from catena.svg import svg

        return str(svg(self))

    def __repr__(self) -> str:
        return (f"<Game size={self.size} game_type={self.game_type!r} scoring={self.scoring!r} "
                f"phase={self.phase!r} komi={self.komi}>")
