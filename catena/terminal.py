"""A game against the engine in the terminal (``python -m catena play``).

Reads commands line by line, so it can be driven by a script: a move ("F6",
"button"), a setup answer when asked (a komi number, "black"/"white" or "b"/"w"),
or ``undo`` (takes back your last move and the engine's reply), ``hint`` (what the
engine would do in your place, in the setup too), ``help``, ``quit``.  Ctrl-D quits
as ``quit`` does (exit status 0); Ctrl-C stops the game too, also while the engine
thinks, with exit status 130 (``python -m catena play`` saves the game either way).
On a terminal the prompt has line editing and history (readline), and a bar shows the
time the engine has spent thinking.
A bad entry gets the reason and the prompt again, never a traceback.

>>> import io
>>> from catena.game import Game
>>> from catena.players import MCTSPlayer
>>> answers = iter(["b", "B2", "quit"])
>>> out = io.StringIO()
>>> TerminalGame(Game(size=2), MCTSPlayer(iterations=100, seed=1), human="P2",
...              read=lambda prompt: next(answers), out=out).run()
0
>>> print(out.getvalue().splitlines()[-1])
Game stopped.
"""

from __future__ import annotations

import contextlib
import sys
from typing import IO, Callable, Iterator, Optional

from catena._interrupt import noting_ctrl_c
from catena._position import KOMI_RANGES
from catena._validate import choice
from catena.errors import CatenaError
from catena.game import Game
from catena.players import MCTSPlayer
from catena.progress import thinking
from catena.text import LEGEND, claims_text

COLOUR_ANSWERS = {"black": "black", "b": "black", "white": "white", "w": "white"}


class TerminalGame:
    """One game between a person (``human`` is "P1" or "P2") and an MCTSPlayer.

    ``read(prompt)`` returns the next line, None at the end of input (Ctrl-D), and
    may raise KeyboardInterrupt (Ctrl-C); both end the game, as ``quit`` does.
    """

    def __init__(self, game: Game, engine: MCTSPlayer, human: str = "P1",
                 read: Optional[Callable[[str], Optional[str]]] = None, out: Optional[IO[str]] = None):
        choice(human, "human", ("P1", "P2"))
        self.game = game
        self.engine = engine
        self.human = human
        self.out = out or sys.stdout
        self.read = read or _read_line
        self._legend_shown = False

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def run(self) -> int:
        """Play until the game is over or the person quits; the exit status: 0, or 130
        when Ctrl-C stopped the game."""
        self.say(f"You are {self.human}. {self._help()}.")
        self.say(self._setup_text())
        try:
            while not self.game.is_over():
                if self.game.to_act == self.human:
                    if not self._human_turn():
                        self.say("Game stopped.")
                        return 0
                else:
                    self._engine_turn()
        except KeyboardInterrupt:
            self.say("")                         # end the prompt's line
            return 130
        self._show_board()
        outcome = self.game.outcome()
        assert outcome is not None
        self.say(f"Game over, {outcome}.")
        return 0

    # -- words for the player ------------------------------------------------

    def _help(self) -> str:
        """The commands of the person's next decision (for P2 at the start of a komi or
        no-komi game, the colour choice, made after P1's komi or first stone)."""
        phase = self.game.phase
        if self.human == "P2" and phase in ("komi", "first_stone"):
            phase = "colour"
        if phase == "komi":
            return "Commands: a komi (a whole number), hint, help, quit"
        if phase == "colour":
            return "Commands: black or white (b or w), hint, help, quit"
        button = "" if self.game.game_type == "double" else ", or button"
        return f"Commands: a move (a cell such as {_centre(self.game.size)}{button}), undo, hint, help, quit"

    def _setup_text(self) -> str:
        """How this game type's setup goes, said once at the start."""
        me = {player: "you" if player == self.human else "the engine" for player in ("P1", "P2")}
        game_type = self.game.game_type
        if game_type == "double":
            return (f"Setup: none. P1 plays Black (x) and moves first with one stone; after that every turn is "
                    f"two stones. There is no komi and no button. You play {self.game.colour_of(self.human)}.")
        if game_type == "nokomi":
            return (f"Setup: P1 ({me['P1']}) places one black stone (x) anywhere; then P2 ({me['P2']}) chooses "
                    f"a colour: Black takes that stone as its own, White (o) moves next. There is no komi.")
        low, high = KOMI_RANGES[self.game.scoring]
        return (f"Setup: P1 ({me['P1']}) chooses the komi, points added to White's score to make up for Black "
                f"moving first (a whole number from {low} to {high}). Then P2 ({me['P2']}) chooses a colour: "
                f"Black (x) moves first, White (o) gets the komi. So a fair komi is one where both colours are "
                f"equally good.")

    def _other(self) -> str:
        return "P2" if self.human == "P1" else "P1"

    def _show_board(self) -> None:
        if self.game.position is not None:
            self.say(str(self.game.position))
            if not self._legend_shown:
                self.say(f"({LEGEND}; help shows this again)")
                self._legend_shown = True

    def _report_claims(self) -> None:
        assert self.game.position is not None
        for claim in claims_text(self.game.position):
            self.say(f"  Ribbon {claim}: it can no longer grow.")

    # -- the engine --------------------------------------------------------

    @contextlib.contextmanager
    def _thinking(self, one_search: bool = True) -> Iterator[None]:
        """The engine's search, with its time shown (against its budget of seconds
        when it is ``one_search``); Ctrl-C during it means quit.

        The search ends cleanly on Ctrl-C and returns, so the interrupt is noted
        (and the budget cut, so that further searches of this decision, such as
        the komi bisection, end at once) and raised again once the engine is done."""
        budget = (self.engine.iterations, self.engine.seconds)

        def cut_budget() -> None:
            self.engine.iterations, self.engine.seconds = 1, None

        try:
            with noting_ctrl_c(cut_budget) as ctrl_c, thinking(budget[1] if one_search else None):
                yield
        finally:
            self.engine.iterations, self.engine.seconds = budget
        if ctrl_c.happened:
            raise KeyboardInterrupt

    def _engine_turn(self) -> None:
        phase = self.game.phase
        if phase == "komi":
            with self._thinking(one_search=False):
                komi = self.engine.choose_komi(self.game)
            self.game.choose_komi(komi)
            self.say(f"The engine ({self._other()}) chooses komi {komi}: White gets {komi} extra points.")
        elif phase == "colour":
            with self._thinking():
                colour = self.engine.choose_colour(self.game)
            self.game.choose_colour(colour)
            mine = self.game.colour_of(self.human)
            self.say(f"The engine ({self._other()}) plays {colour}; you play {mine} "
                     f"({'x' if mine == 'black' else 'o'}).")
        else:
            assert self.game.position is not None
            with self._thinking():
                move = self.engine.choose_move(self.game.position.copy())
            self.game.push(move)
            self.say(f"The engine plays {move}.")
            self._report_claims()

    # -- the person --------------------------------------------------------

    def _human_turn(self) -> bool:
        """Read until one action is taken; False on quit or Ctrl-D."""
        phase = self.game.phase
        if phase in ("play", "first_stone") or phase == "colour" and self.game.game_type == "nokomi":
            self._show_board()
        if phase == "komi":
            low, high = KOMI_RANGES[self.game.scoring]
            prompt = f"Choose the komi ({low} to {high}): "
        elif phase == "colour":
            prompt = "Choose your colour (black or white): "
        else:
            position = self.game.position
            assert position is not None
            prompt = f"Your move ({position.to_move}): "
        while True:
            line = self.read(prompt)             # Ctrl-C (KeyboardInterrupt) ends the game in run()
            if line is None:
                self.say("")
                return False
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                self.say(f"{self._help()}. The board: {LEGEND}.")
                continue
            if word == "undo":
                self._undo()
                return True
            if word == "hint":
                self._hint()
                continue
            problem = self._act(phase, text)
            if problem is None:
                return True
            self.say(f"Not possible: {problem}")

    def _act(self, phase: str, text: str) -> Optional[str]:
        """Take the person's action; None when done, else what was wrong, in words."""
        if phase == "komi":
            low, high = KOMI_RANGES[self.game.scoring]
            try:
                komi = int(text)
            except ValueError:
                komi = None
            if komi is None or not low <= komi <= high:
                return (f"the komi must be a whole number from {low} to {high} with {self.game.scoring} "
                        f"scoring, not {text!r} (R22)")
            self.game.choose_komi(komi)
            return None
        if phase == "colour":
            colour = COLOUR_ANSWERS.get(text.lower())
            if colour is None:
                return f"answer black or white (or b or w), not {text!r}"
            self.game.choose_colour(colour)
            self.say(f"You play {colour} ({'x' if colour == 'black' else 'o'}); "
                     f"the engine plays {self.game.colour_of(self._other())}.")
            return None
        try:
            self.game.push(text)
        except (CatenaError, ValueError, TypeError) as exc:
            return str(exc)
        self._report_claims()
        return None

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
        """What the engine would do in the person's place, in any phase: in the play phase,
        its three best moves with their values."""
        phase = self.game.phase
        with self._thinking(one_search=phase != "komi"):
            if phase == "komi":
                komi = self.engine.choose_komi(self.game)
                advice = f"komi {komi} (it rates that the closest call for the colour choice)"
            elif phase == "colour":
                advice = self.engine.choose_colour(self.game)
            elif phase == "first_stone":        # P1's no-komi stone: the engine's own choice rule
                advice = str(self.engine.choose_move(self.game.position.copy()))
            else:
                advice = self._best_three()
        self.say(f"The engine suggests {advice}.")

    def _best_three(self) -> str:
        """The engine's three best moves for the person, each with its value."""
        from catena.analysis import analyse

        pos = self.game.position
        assert pos is not None
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
        return "these moves, best first: " + "; ".join(lines)


def _centre(size: int) -> str:
    """The name of the board's centre cell, as an example of a cell name."""
    return f"{chr(64 + size)}{size}"


_readline_ready = False


def _read_line(prompt: str) -> Optional[str]:
    """A line from the terminal (None at Ctrl-D), with readline's editing and history
    when stdin is a terminal."""
    global _readline_ready
    if not _readline_ready and sys.stdin.isatty():
        with contextlib.suppress(ImportError):      # readline is missing on some platforms
            import readline  # noqa: F401  (importing it gives input() editing and history)
        _readline_ready = True
    try:
        return input(prompt)
    except EOFError:
        return None
