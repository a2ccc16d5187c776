"""Catena as an OpenSpiel game: importing this module registers ``"python_catena"``.

Needs the ``open_spiel`` package (``pip install "catena[openspiel]"``).  Parameters:
``size`` (1..10, default 6), ``game_type`` ("komi", "nokomi", "double"),
``scoring`` ("standard", "longest", "square") and ``komi`` (R22).

The setup phase is not part of the OpenSpiel game: it starts at the play phase
with player 0 Black and player 1 White.  Under game type "komi" the komi is the
parameter, i.e. P1's choice, and P2's colour choice is left out: an algorithm
plays both seats, and choosing a colour is choosing the seat with the better
value.  Under "nokomi" player 0 places the opening black stone and player 1
then plays White (P2 keeping White); under "double" player 0 is Black, who
places one stone, then each player places two, so the same player acts twice
in a row.  Actions are catena's action ids (the cell index; the button is the
number of cells).  Returns are +1 for the winner and -1 for the loser, 0 for
a draw.  Observation tensors are ``catena.observation`` planes seen by the
observing player; the state's string is its position string.

>>> import pyspiel
>>> import catena.openspiel
>>> game = pyspiel.load_game("python_catena", {"size": 2})
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3, 4, 5, 6, 7]
>>> state.apply_action(3); state.current_player(), state.action_to_string(0, 7)
(1, 'button')
>>> game.observation_tensor_shape()
[10, 3, 3]
"""

from __future__ import annotations

from typing import Any

import numpy
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from catena._geometry import Move, cells, check_size
from catena._position import Position
from catena.observation import observation_shape, observation_tensor

_DEFAULTS = {"size": 6, "game_type": "komi", "scoring": "standard", "komi": 0}

GAME_TYPE = pyspiel.GameType(
    short_name="python_catena",
    long_name="Catena (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS)

_COLOURS = ("black", "white")


class CatenaGame(pyspiel.Game):
    """The OpenSpiel game: rules fixed by the parameters, states made by new_initial_state."""

    def __init__(self, params: dict[str, Any] | None = None):
        values = {**_DEFAULTS, **(params or {})}
        # the Position constructor checks every parameter and says what is wrong
        self.start = Position(check_size(values["size"]), values["game_type"], values["scoring"],
                              values["komi"])
        ncells = len(cells(self.start.size))
        info = pyspiel.GameInfo(num_distinct_actions=ncells + 1, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=ncells + 1)
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> CatenaState:
        return CatenaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return CatenaObserver(self.start.size, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CatenaState(pyspiel.State):
    """A state: a catena.Position, player 0 Black and player 1 White."""

    def __init__(self, game: CatenaGame):
        super().__init__(game)
        self.position = game.start.copy()

    def current_player(self) -> int:
        if self.position.is_game_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return _COLOURS.index(self.position.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in numpy.flatnonzero(self.position.legal_action_mask())]

    def _apply_action(self, action: int) -> None:
        self.position.push(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return Move.from_index(action, self.position.size).name

    def is_terminal(self) -> bool:
        return self.position.is_game_over()

    def returns(self) -> list[float]:
        outcome = self.position.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == "black" else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.position.to_string()


class CatenaObserver:
    """Observation tensors and strings for OpenSpiel (its PyObserver interface)."""

    def __init__(self, size: int, params: Any):
        if params:
            raise ValueError(f"catena's observer takes no parameters, not {params}")
        shape = observation_shape(size)
        self.tensor = numpy.zeros(int(numpy.prod(shape)), numpy.float32)
        self.dict = {"observation": numpy.reshape(self.tensor, shape)}

    def set_from(self, state: CatenaState, player: int) -> None:
        self.dict["observation"][...] = observation_tensor(state.position, _COLOURS[player])

    def string_from(self, state: CatenaState, player: int) -> str:
        return state.position.to_string()


pyspiel.register_game(GAME_TYPE, CatenaGame)
