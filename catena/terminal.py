"""A game against the engine in the terminal (``python -m catena play``).

Reads commands line by line, so it can be driven by a script: a move ("F6",
"button"), a setup answer when asked (a komi number, "black" or "white"), or
``undo`` (takes back your last move and the engine's reply), ``hint`` (what the
engine would play for you), ``quit``.  A bad entry gets the reason and the
prompt again, never a traceback.
"""

from __future__ import annotations

import sys
from typing import IO, Callable, Optional

from catena.errors import CatenaError
from catena.game import Game
from catena.players import MCTSPlayer

HELP = "commands: a move (F6, button), undo, hint, quit"


class TerminalGame:
    """One game between a person (``human`` is "P1" or "P2") and an MCTSPlayer."""

    def __init__(self, game: Game, engine: MCTSPlayer, human: str = "P1",
                 read: Callable[[str], Optional[str]] = None, out: IO[str] = None):
        self.game = game
        self.engine = engine
        self.human = human
        self.out = out or sys.stdout
        self.read = read or _read_line

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def run(self) -> int:
        self.say(f"You are {self.human}. {HELP}.")
        while not self.game.is_over():
            if self.game.to_act == self.human:
                if not self._human_turn():
                    self.say("bye")
                    return 1
            else:
                self._engine_turn()
        self._show_board()
        outcome = self.game.outcome()
        result = "a draw" if outcome.winner_player is None else f"{outcome.winner_player} ({outcome.winner}) wins"
        scores = ""
        if outcome.outcome.black_score is not None:
            scores = f": black {outcome.outcome.black_score:g}, white {outcome.outcome.white_score:g}"
        self.say(f"Game over, {result}{scores}.")
        return 0

    # -- the engine --------------------------------------------------------

    def _engine_turn(self) -> None:
        phase = self.game.phase
        if phase == "komi":
            komi = self.engine.choose_komi(self.game)
            self.game.choose_komi(komi)
            self.say(f"The engine ({self._other()}) chooses komi {komi}.")
        elif phase == "colour":
            colour = self.engine.choose_colour(self.game)
            self.game.choose_colour(colour)
            self.say(f"The engine ({self._other()}) plays {colour}; you play {self.game.colour_of(self.human)}.")
        else:
            move = self.engine.choose_move(self.game.position.copy())
            self.game.push(move)
            self.say(f"The engine plays {move}.")

    def _other(self) -> str:
        return "P2" if self.human == "P1" else "P1"

    # -- the person --------------------------------------------------------

    def _show_board(self) -> None:
        if self.game.position is not None:
            self.say(str(self.game.position))

    def _human_turn(self) -> bool:
        """Read until one action is taken; False on quit or end of input."""
        phase = self.game.phase
        if phase in ("play", "first_stone"):
            self._show_board()
        prompt = {"komi": "Choose the komi: ", "colour": "Choose your colour (black/white): "}.get(
            phase, f"Your move ({self.game.position.to_move if self.game.position else ''}): ")
        while True:
            line = self.read(prompt)
            if line is None:
                return False
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                self.say(HELP)
                continue
            if word == "undo":
                self._undo()
                return True
            if word == "hint":
                self._hint()
                continue
            try:
                if phase == "komi":
                    self.game.choose_komi(_parse_int(text))
                elif phase == "colour":
                    self.game.choose_colour(word)
                else:
                    self.game.push(text)
                return True
            except (CatenaError, ValueError, TypeError) as exc:
                self.say(f"Not possible: {exc}")

    def _undo(self) -> None:
        """Take back actions until it is the person's move again, at least one of theirs."""
        undone = []
        while self.game.actions:
            kind, value = self.game.pop()
            undone.append(value)
            if self.game.to_act == self.human and kind == "move" and self.game.phase == "play":
                break
        self.say("Took back: " + (", ".join(map(str, undone)) if undone else "nothing"))

    def _hint(self) -> None:
        """The engine's three best moves for the person, each with its value."""
        if self.game.phase not in ("play", "first_stone"):
            self.say("No hint for the setup.")
            return
        from catena.analysis import analyse

        pos = self.game.position
        analysis = analyse(pos, seconds=self.engine.seconds, iterations=self.engine.iterations,
                           seed=self.engine.mcts.seed)
        mover, sign = pos.to_move, (1 if pos.to_move == "black" else -1)
        longest = pos.scoring == "longest"
        lines = []
        for line in analysis.moves[:3]:
            result = {1: "a win", 0: "a draw", -1: "a loss"}.get(sign * line.margin) if longest else None
            value = (f"{result} for {mover}" if result else f"margin {sign * line.margin:+.1f} for {mover}")
            lines.append(f"{line.move} (win rate {line.win_rate:.0%}, {value}, "
                         f"{'proven' if line.proven else 'estimated'})")
        self.say("The engine suggests, best first: " + "; ".join(lines) + ".")


def _parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def _read_line(prompt: str) -> Optional[str]:
    try:
        return input(prompt)
    except EOFError:
        return None
