"""Every game as a PettingZoo environment (``pip install 'rulebook[rl]'``).

    from rulebook.interop.pettingzoo import env
    aec = env("merchants-of-magick", players=4)          # reward="win" | "margin" | "score"
    aec.reset(seed=42)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        done = terminated or truncated
        aec.step(None if done else aec.action_space(agent).sample(obs["action_mask"]))

* Agents are ``player_0 .. player_{n-1}`` (seat order). Each observation is a dict:
  ``"observation"``, the seat's tensor from its game's encoder (built from
  ``state.observation(p)`` alone), and ``"action_mask"`` (``int8``, 1 for each legal move of
  the vocabulary; all 0 for a seat that is not to act). The tensor's space is a ``Box`` with
  the encoder's bounds (``ObservationEncoder.bounds``: open amounts capped), so every
  observation is in its space.
* Actions are indices into the configuration's action vocabulary
  (:class:`rulebook.core.spaces.ActionSpace`); ``aec.unwrapped.move(i)`` is the move itself.
* Rewards come at the end of the game (:mod:`rulebook.interop.common`: the share of the win,
  or the score margin, or in solo games the score).
* Simultaneous phases (the roll-and-writes' crafting) are played one seat after another, as
  PettingZoo recommends for AEC: the lowest seat still to act moves; a seat later in the order
  sees the others as they were when the phase began (the games' ``observation`` guarantees
  it), never the choices already made in the phase.
* :func:`parallel_env` gives a Parallel environment for the two roll-and-writes: each step
  takes one move from every seat still crafting, applied in seat order (each seat's choice is
  made from the same view, so none sees another's); a seat that is done gets no action.
* An index that is not a legal move changes nothing: by default (``illegal="penalize"``) the
  seat gets ``illegal_reward`` (-1) for the step, stays to act, and its info says why
  (``"illegal"``); with ``illegal="raise"`` it raises :class:`rulebook.IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from rulebook.core import Action, IllegalAction, State, UnknownGame
from rulebook.interop.common import Settings, Table

#: games with a Parallel environment: their only simultaneous phase covers every decision
PARALLEL_GAMES = ("merchants-of-magick", "ye-olde-magick-shoppe")


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**31 - 1))


class _Spaces:
    """The agents and spaces of one configuration, and what the AEC and Parallel
    environments share (see the module docstring for what they take)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": True}  # noqa: RUF012
    #: what ``metadata["name"]`` adds to the configuration's name
    kind = ""

    def __init__(
        self,
        game: str,
        players: int,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
        **settings: Unpack[Settings],
    ) -> None:
        self._check_game(game)
        super().__init__()
        self.table = Table.of(game, players, variant, options, settings)
        self.config = self.table.config
        self.metadata = {**_Spaces.metadata, "name": f"rulebook_{self.config.name}{self.kind}"}
        self.render_mode = settings.get("render_mode")
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents: list[str] = []
        self.seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._observation_space = self.table.observation_space()
        self._action_space = spaces.Discrete(self.table.space.size)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self.state: State | None = None

    def _check_game(self, game: str) -> None:
        """Refuse a game this kind of environment cannot play (any game, by default)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def move(self, index: int) -> Action:
        """The move an action index stands for."""
        return self.table.space.action(index)

    def _new_game(self, seed: int | None) -> State:
        """A new game, from ``seed`` (the same seed, the same game) or from the environment's
        generator; every agent in it."""
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        self.state = self.config.new_game(_seed(self._rng))
        self.agents = self.possible_agents[:]
        return self.state

    def _observe(self, p: int, acting: bool = True) -> dict[str, Any]:
        """Seat ``p``'s observation; its mask is all 0 unless ``acting``."""
        assert self.state is not None
        mask = self.table.mask(self.state, p)
        return {
            "observation": self.table.observe(self.state, p),
            "action_mask": mask if acting else np.zeros_like(mask),
        }

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.state is None:
            return "no game: call reset() first"
        return "\n".join(
            [
                repr(self.state),
                f"scores: {self.state.scores()}",
                f"to act: {list(self.state.current_players())}",
            ]
        )

    def close(self) -> None:
        pass


class RulebookAEC(_Spaces, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One game as a PettingZoo AEC environment (see the module docstring)."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: from ``seed`` (the same seed, the same game), or from the
        environment's generator."""
        state = self._new_game(seed)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_act(state)]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation; its mask is all 0 unless it is the agent to act (in a
        simultaneous phase the seats move one after another)."""
        return self._observe(self.seat[agent], agent == self.agent_selection)

    def step(self, action: int | None) -> None:
        if self.state is None:
            raise UnknownGame("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must choose a move (the game is not over)")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        refused = self.table.try_move(self.state, self.seat[agent], action)
        self.infos[agent] = {} if refused is None else {"illegal": refused}
        if refused is not None:
            self.rewards[agent] = self.table.illegal_reward
            self._accumulate_rewards()
            return
        if self.state.is_terminal():
            final = self.table.rewards(self.state)
            for a in self.agents:
                p = self.seat[a]
                self.rewards[a] = final[p]
                self.terminations[a] = True
                self.infos[a] = {"score": self.state.scores()[p]}
            self._accumulate_rewards()
            # every agent then steps once more (with None) to leave, in seat order
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[self.table.to_act(self.state)]


class RulebookParallel(_Spaces, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """A roll-and-write as a PettingZoo Parallel environment (see the module docstring)."""

    kind = "_parallel"

    def _check_game(self, game: str) -> None:
        if game not in PARALLEL_GAMES:
            raise UnknownGame(
                f"{game} has turns, not one simultaneous phase: use env() (AEC); "
                f"Parallel environments: {', '.join(PARALLEL_GAMES)}"
            )

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self._new_game(seed)
        return {a: self._observe(self.seat[a]) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """One move from every seat still to act this phase, applied in seat order (the
        moves are independent, so the order changes nothing but the log). Seats not to act
        are skipped; a seat to act whose move is missing or illegal is refused (the seat's
        move is not made, see ``illegal``)."""
        state = self.state
        if state is None or not self.agents:
            raise UnknownGame("call reset() before step()")
        acting = [self.possible_agents[p] for p in state.current_players()]
        refused: dict[str, str] = {}
        state = state.clone()  # with illegal="raise", a refused move leaves the game as it was
        for agent in acting:
            if actions.get(agent) is None:
                if self.table.illegal == "raise":
                    raise IllegalAction(f"no move for {agent} (it is to act)")
                refused[agent] = f"no move for {agent} (it is to act)"
                continue
            why = self.table.try_move(state, self.seat[agent], actions[agent])
            if why is not None:
                refused[agent] = why
        self.state = state
        over = state.is_terminal()
        final = self.table.rewards(state)
        observations = {a: self._observe(self.seat[a]) for a in self.agents}
        rewards = {
            a: self.table.illegal_reward if a in refused else final[self.seat[a]]
            for a in self.agents
        }
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {}
        for a in self.agents:
            info: dict[str, Any] = {"score": state.scores()[self.seat[a]]} if over else {}
            if a in refused:
                info["illegal"] = refused[a]
            infos[a] = info
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


#: the AEC environment without PettingZoo's wrappers: ``raw_env(game, players, variant,
#: options, **settings)``
raw_env = RulebookAEC
#: the Parallel environment of a roll-and-write configuration (:data:`PARALLEL_GAMES`):
#: ``parallel_env(game, players, variant, options, **settings)``
parallel_env = RulebookParallel


def env(
    game: str,
    players: int,
    variant: str | None = None,
    options: Mapping[str, str] | None = None,
    **settings: Unpack[Settings],
) -> AECEnv[str, dict[str, Any], int]:
    """The AEC environment of a game configuration, with PettingZoo's order-enforcing wrapper
    (clear errors for steps before reset); ``reward`` is ``"win"``, ``"margin"`` or
    ``"score"`` (default: ``"win"``, solo ``"score"``)."""
    return wrappers.OrderEnforcingWrapper(RulebookAEC(game, players, variant, options, **settings))
