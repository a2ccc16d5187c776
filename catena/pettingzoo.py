"""Catena as a PettingZoo AEC environment with action masks.

Needs ``pettingzoo`` and ``gymnasium`` (``pip install "catena[pettingzoo]"``).
``env(**kwargs)`` is the environment with PettingZoo's standard wrappers (an
illegal action ends the game with reward -1 for its agent); ``raw_env`` is
the bare one.  Keyword arguments: ``size``, ``game_type``, ``scoring``,
``komi`` as for ``catena.Position``, and ``render_mode`` (None or "ansi").

The agents are "player_0" (Black) and "player_1" (White); like catena.openspiel the environment
starts at the play phase (the komi is the argument; no colour choice), and in
double placement the same agent acts twice in a row.  Actions are catena's
action ids (the cell index; the button is the number of cells).  An agent
observes ``{"observation": planes, "action_mask": int8 mask}``: the planes of
``catena.observation`` seen by that agent, and the legal actions when it is
the agent to act (zeros otherwise).  Rewards, at the end only: +1 the winner,
-1 the loser, 0 both for a draw.

>>> from catena.pettingzoo import env
>>> game = env(size=2)
>>> game.reset(seed=1)
>>> game.agent_selection, game.observe("player_0")["action_mask"].tolist()
('player_0', [1, 1, 1, 1, 1, 1, 1, 1])
>>> game.step(3); game.agent_selection
'player_1'
"""

from __future__ import annotations

from typing import Any

import numpy
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from catena._geometry import cells, check_action
from catena._position import Position
from catena._validate import choice
from catena.observation import observation_shape, observation_tensor

AGENTS = ("player_0", "player_1")
COLOURS = ("black", "white")            # the agents' colours, in the same order


def env(**kwargs: Any) -> AECEnv:
    """The environment inside PettingZoo's usual wrappers (see the module's text)."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The unwrapped AEC environment.  An action is an integer (an int or a NumPy integer, not a
    bool, a float or a str: TypeError, as for ``Position.push``); one out of range raises
    ValueError, an illegal one catena.IllegalMoveError."""

    metadata = {"render_modes": ["ansi"], "name": "catena_v0", "is_parallelizable": False}

    def __init__(self, size: int = 6, game_type: str = "komi", scoring: str = "standard",
                 komi: int = 0, render_mode: str | None = None):
        super().__init__()
        self._start = Position(size, game_type, scoring, komi)     # checks the arguments
        choice(render_mode, "render_mode", (None, "ansi"))
        self.render_mode = render_mode
        self.position = self._start.copy()
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._ncells = len(cells(self._start.size))
        nactions = self._ncells + 1
        self.action_spaces = {agent: spaces.Discrete(nactions) for agent in AGENTS}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, observation_shape(self._start.size), numpy.float32),
                "action_mask": spaces.Box(0, 1, (nactions,), numpy.int8),
            }) for agent in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        if agent == self.agent_selection and not self.position.is_game_over():
            mask = self.position.legal_action_mask().astype(numpy.int8)
        else:
            mask = numpy.zeros(self.action_spaces[agent].n, dtype=numpy.int8)
        colour = COLOURS[AGENTS.index(agent)]
        return {"observation": observation_tensor(self.position, colour), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.position = self._start.copy()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[COLOURS.index(self.position.to_move)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.position.push(check_action(action, self._ncells, self._start.size))    # integers only, as push
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = self.position.outcome()
        if outcome is not None:
            for agent, colour in zip(AGENTS, COLOURS):
                if outcome.winner is not None:
                    self.rewards[agent] = 1.0 if colour == outcome.winner else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = AGENTS[COLOURS.index(self.position.to_move)]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.position)

    def close(self) -> None:
        pass
