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
  observation is in its space. The mask of the agent to act is also in its info
  (``info["action_mask"]``), with ``info["to_act"]``.
* ``state()`` is the privileged global state (:class:`rulebook.core.spaces.GlobalState`: every
  seat's observation tensor in seat order, then the order of the piles no seat sees), in
  ``state_space``, for centralised critics (MAPPO, QMIX); never give it to an acting policy.
  The engine's own state is ``game_state`` (:class:`rulebook.core.State`).
* Actions are indices into the configuration's action vocabulary
  (:class:`rulebook.core.spaces.ActionSpace`); ``aec.unwrapped.move(i)`` is the move itself.
* Rewards come at the end of the game (:mod:`rulebook.interop.common`: the share of the win,
  or the score margin, or in solo games the score).
* ``max_cycles`` truncates a game: after ``max_cycles`` cycles (a cycle is as many AEC steps
  as there are seats, one ``step`` of the Parallel environment) every agent is truncated,
  with reward 0 and its score so far in its info. Unset (the default), games end only when
  they are over.
* Simultaneous phases (the roll-and-writes' crafting) are played one seat after another, as
  PettingZoo recommends for AEC: the lowest seat still to act moves; a seat later in the order
  sees the others as they were when the phase began (the games' ``observation`` guarantees
  it), never the choices already made in the phase. Whether a seat has ended its crafting is
  public, as at the table (each player shows it is ready; the tensor's ``seatK.done``).
* :func:`parallel_env` gives a Parallel environment for the two roll-and-writes: each step
  takes one move from every seat still crafting, applied in seat order (each seat's choice is
  made from the same view, so none sees another's). A seat that ended its crafting waits for
  the others: its mask offers index 0 alone (``done``, :data:`~rulebook.interop.common.IDLE`),
  its ``info["to_act"]`` is False, and whatever it sends is ignored.
* An index that is not a legal move changes nothing: by default (``illegal="penalize"``) the
  seat gets ``illegal_reward`` (-1) for the step, stays to act, and its info says why
  (``"illegal"``); with ``illegal="raise"`` it raises :class:`rulebook.IllegalAction`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from rulebook.core import Action, IllegalAction, State, UnknownGame
from rulebook.interop.common import Arguments, check_limit, takes

#: games with a Parallel environment: their only simultaneous phase covers every decision
PARALLEL_GAMES = ("merchants-of-magick", "ye-olde-magick-shoppe")

P = ParamSpec("P")


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**31 - 1))


@dataclass(frozen=True)
class PettingZooArguments(Arguments):
    """What :data:`raw_env`, :data:`parallel_env` and :func:`env` take: ``game, players,
    variant=None, options=None, max_cycles=None``, then the keywords every environment takes
    (:class:`~rulebook.interop.common.Arguments`)."""

    max_cycles: int | None = None


class _Spaces:
    """The agents and spaces of one configuration, and what the AEC and Parallel
    environments share (see the module docstring for what they take)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": True}  # noqa: RUF012
    #: what ``metadata["name"]`` adds to the configuration's name
    kind = ""

    @takes(PettingZooArguments)
    def __init__(self, arguments: PettingZooArguments) -> None:
        self._check_game(arguments.game)
        super().__init__()
        self.table = arguments.table()
        self.config = self.table.config
        self.max_cycles = check_limit(arguments.max_cycles, "max_cycles")
        self.metadata = {**_Spaces.metadata, "name": f"rulebook_{self.config.name}{self.kind}"}
        self.render_mode = arguments.render_mode
        players = arguments.players
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents: list[str] = []
        self.seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._observation_space = self.table.observation_space()
        self._action_space = spaces.Discrete(self.table.space.size)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        #: the privileged global state's space (:meth:`state`)
        self.state_space = self.table.state_space()
        #: the game as the engine holds it (:class:`rulebook.core.State`); None before reset
        self.game_state: State | None = None
        #: steps since the reset (for ``max_cycles``)
        self.steps = 0

    def _check_game(self, game: str) -> None:
        """Refuse a game this kind of environment cannot play (any game, by default)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def move(self, index: int) -> Action:
        """The move an action index stands for."""
        return self.table.space.action(index)

    def state(self) -> npt.NDArray[np.float32]:
        """The privileged global state (:class:`rulebook.core.spaces.GlobalState`): every
        seat's observation tensor, then the piles no seat sees. For centralised critics
        only: it holds every seat's hidden information."""
        if self.game_state is None:
            raise UnknownGame("call reset() before state()")
        return self.table.global_state(self.game_state)

    def _new_game(self, seed: int | None) -> State:
        """A new game, from ``seed`` (the same seed, the same game) or from the environment's
        generator; every agent in it."""
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        self.game_state = self.config.new_game(_seed(self._rng))
        self.agents = self.possible_agents[:]
        self.steps = 0
        return self.game_state

    def _truncated(self, cycle: int) -> bool:
        """Whether ``max_cycles`` cycles (of ``cycle`` steps) have been played."""
        return self.max_cycles is not None and self.steps >= self.max_cycles * cycle

    def _observe(self, p: int, mask: npt.NDArray[np.int8] | None = None) -> dict[str, Any]:
        """Seat ``p``'s observation; its mask is ``mask`` (by default its legal moves now)."""
        assert self.game_state is not None
        return {
            "observation": self.table.observe(self.game_state, p),
            "action_mask": self.table.mask(self.game_state, p) if mask is None else mask,
        }

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.game_state is None:
            return "no game: call reset() first"
        return "\n".join(
            [
                repr(self.game_state),
                f"scores: {self.game_state.scores()}",
                f"to act: {list(self.game_state.current_players())}",
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
        self._select(self.table.to_act(state))

    def _select(self, p: int) -> None:
        """Seat ``p`` is to act: the agent selected, its mask in its info."""
        assert self.game_state is not None
        agent = self.agent_selection = self.possible_agents[p]
        mask = self.table.mask(self.game_state, p)
        self._mask = mask
        self._legal = mask.copy()  # what step trusts: the caller's may change
        info = self.infos[agent]
        info["action_mask"] = mask
        info["to_act"] = True

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation; its mask is all 0 unless it is the agent to act (in a
        simultaneous phase the seats move one after another)."""
        p = self.seat[agent]
        acting = agent == self.agent_selection and not self.terminations[agent]
        acting = acting and not self.truncations[agent]
        return self._observe(p, self._mask if acting else self.table.no_mask)

    def step(self, action: int | None) -> None:
        state = self.game_state
        if state is None:
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
        p = self.seat[agent]
        refused = self.table.play(state, p, action, self._legal)
        self.steps += 1
        self.infos[agent] = {}
        if refused is not None:
            self.rewards[agent] = self.table.illegal_reward
            self.infos[agent]["illegal"] = refused
        over = state.is_terminal()
        if over or self._truncated(len(self.possible_agents)):
            final = self.table.rewards(state)
            scores = state.scores()
            ended = self.terminations if over else self.truncations
            for a in self.agents:
                q = self.seat[a]
                self.rewards[a] += final[q]
                ended[a] = True
                self.infos[a] = {**self.infos[a], "score": scores[q], "to_act": False}
            self._accumulate_rewards()
            # every agent then steps once more (with None) to leave, in seat order
            self.agent_selection = self.agents[0]
            return
        self._accumulate_rewards()
        self._select(p if refused is not None else self.table.to_act(state))


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
        return self._views({})

    def _views(
        self, refused: Mapping[str, str], over: bool = False
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """Every agent's observation and info: a seat to act has its legal moves as its
        mask, one waiting for the others (or every seat, once the game has ended) index 0
        alone."""
        state = self.game_state
        assert state is not None
        acting = set() if over else set(state.current_players())
        scores = state.scores() if over else None
        observations, infos = {}, {}
        for a in self.agents:
            p = self.seat[a]
            mask = self.table.mask(state, p) if p in acting else self.table.idle_mask
            observations[a] = self._observe(p, mask)
            info: dict[str, Any] = {"action_mask": mask, "to_act": p in acting}
            if scores is not None:
                info["score"] = scores[p]
            if a in refused:
                info["illegal"] = refused[a]
            infos[a] = info
        return observations, infos

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
        are skipped (their actions ignored); a seat to act whose move is missing or illegal
        is refused (the seat's move is not made, see ``illegal``)."""
        state = self.game_state
        if state is None or not self.agents:
            raise UnknownGame("call reset() before step()")
        acting = [self.possible_agents[p] for p in state.current_players()]
        refused: dict[str, str] = {}
        if self.table.illegal == "raise":
            state = state.clone()  # a refused move raises, leaving the game as it was
        for agent in acting:
            if actions.get(agent) is None:
                if self.table.illegal == "raise":
                    raise IllegalAction(f"no move for {agent} (it is to act)")
                refused[agent] = f"no move for {agent} (it is to act)"
                continue
            why = self.table.try_move(state, self.seat[agent], actions[agent])
            if why is not None:
                refused[agent] = why
        self.game_state = state
        self.steps += 1
        terminated = state.is_terminal()
        truncated = not terminated and self._truncated(1)
        over = terminated or truncated
        final = self.table.rewards(state)
        observations, infos = self._views(refused, over)
        rewards = {
            a: final[self.seat[a]] + (self.table.illegal_reward if a in refused else 0.0)
            for a in self.agents
        }
        terminations = {a: terminated for a in self.agents}
        truncations = {a: truncated for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


#: the AEC environment without PettingZoo's wrappers: ``raw_env(game, players, variant,
#: options, max_cycles, *, reward, illegal, illegal_reward, render_mode)``
#: (:class:`PettingZooArguments`)
raw_env = RulebookAEC
#: the Parallel environment of a roll-and-write configuration (:data:`PARALLEL_GAMES`):
#: ``parallel_env(game, players, variant, options, max_cycles, *, reward, ...)``, as ``raw_env``
parallel_env = RulebookParallel


def _order_enforcing(
    make: Callable[P, RulebookAEC],
) -> Callable[P, AECEnv[str, dict[str, Any], int]]:
    def env(*args: P.args, **kwargs: P.kwargs) -> AECEnv[str, dict[str, Any], int]:
        """The AEC environment of a game configuration (:data:`raw_env`'s arguments,
        :class:`PettingZooArguments`), with PettingZoo's order-enforcing wrapper (clear errors
        for steps before reset); ``reward`` is ``"win"``, ``"margin"`` or ``"score"``
        (default: ``"win"``, solo ``"score"``)."""
        return wrappers.OrderEnforcingWrapper(make(*args, **kwargs))

    env.__signature__ = inspect.signature(make)  # type: ignore[attr-defined]
    return env


env = _order_enforcing(RulebookAEC)
