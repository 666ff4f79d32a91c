"""Every game as a single-agent Gymnasium environment against opponents of any kind
(``pip install 'rulebook[rl]'``).

    import gymnasium as gym
    import rulebook.interop.gymnasium  # registers rulebook/MerchantsOfMagick-4p-v0, ...

    env = gym.make("rulebook/MerchantsOfMagick-4p-v0", opponents="greedy")
    obs, info = env.reset(seed=42)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

* The learner plays ``seat`` (default 0); every other seat is played by an opponent
  (:mod:`rulebook.interop.opponents`): a rulebook bot by its spec (``"random"``, ``"greedy"``,
  ``"mcts:200"``), a rulebook ``Agent``, a policy on observations (a callable ``obs -> index``,
  an object with ``act(obs)``, a trained model with ``predict(obs)``), a ``Pool`` drawn from
  at every reset or a ``Schedule`` by episode; one for all the other seats or one per seat.
  Bots and pools are seeded from the environment's seed, so ``reset(seed=s)`` always gives
  the same game for the same moves (a policy's own randomness is its own).
* Observations are dicts: ``"observation"`` (the seat's tensor, from its game's encoder) and
  ``"action_mask"`` (``int8``, 1 for each legal move); the mask is also in ``info`` and from
  :meth:`RulebookEnv.action_masks` (the name MaskablePPO looks for). The tensor's space is a
  ``Box`` with the encoder's bounds (``ObservationEncoder.bounds``: open amounts capped).
  When the game is over the mask offers index 0 alone
  (:data:`~rulebook.interop.common.IDLE`), never nothing: a vector environment's next-step
  reset asks for one more action then, and ignores it (``info["to_act"]`` is False).
* The reward comes at the end of the game: the share of the win (default), the score margin
  (``reward="margin"``) or, in solo games, the score (the default there).
* ``max_episode_steps`` truncates an episode after that many of the learner's steps
  (``truncated`` True, reward 0); ``gym.make(id, max_episode_steps=n)`` does the same with
  Gymnasium's ``TimeLimit``. Unset, an episode ends with its game.
* An action that is not a legal move changes nothing and gives ``illegal_reward`` (-1) for
  the step, the reason in ``info["illegal"]`` (``illegal="raise"`` raises instead).
* Simultaneous phases are played one seat after another, the lowest seat still to act first.
* ``gym.make_vec(id, num_envs=n)`` gives :class:`rulebook.interop.batched.BatchedEnv`: ``n``
  games stepped in one call in this process, observations stacked (the registered vector
  entry point); ``vectorization_mode="sync"`` / ``"async"`` give Gymnasium's own.

Registered ids: ``rulebook/<Game>-<n>p[-<Variant>][-<Level>]-v0`` for every configuration
(:func:`rulebook.interop.common.configurations`), e.g. ``rulebook/MerchantsOfMagick-1p-v0``
(solo), ``rulebook/PandoriaMerchants-3p-Family-v0``, ``rulebook/PandoriaMerchants-1p-Expert-v0``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rulebook.core import State, UnknownGame
from rulebook.interop.common import (
    Arguments,
    Config,
    check_limit,
    configurations,
    takes,
)
from rulebook.interop.opponents import Opponents, Player, play_opponents

ObsType = dict[str, npt.NDArray[Any]]


@dataclass(frozen=True)
class GymArguments(Arguments):
    """What :class:`RulebookEnv` takes: ``game, players, variant=None, options=None, seat=0,
    opponents="greedy", max_episode_steps=None``, then the keywords every environment takes
    (:class:`~rulebook.interop.common.Arguments`)."""

    seat: int = 0
    opponents: Any = "greedy"
    max_episode_steps: int | None = None


class RulebookEnv(gym.Env[ObsType, np.int64]):
    """One seat of a game against opponents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    @takes(GymArguments)
    def __init__(self, arguments: GymArguments) -> None:
        self.table = arguments.table()
        players, seat = arguments.players, arguments.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise UnknownGame(f"seat must be one of 0-{players - 1}, not {seat!r}")
        self.seat = seat
        self.opponents = Opponents(arguments.opponents, players, seat)
        self.max_episode_steps = check_limit(arguments.max_episode_steps, "max_episode_steps")
        self.observation_space = self.table.observation_space()  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self.table.space.size)
        render_mode = arguments.render_mode
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UnknownGame(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        #: the game as the engine holds it (:class:`rulebook.core.State`); None before reset
        self.game_state: State | None = None
        #: the players of the other seats this episode
        self.players: dict[int, Player] = {}
        self.steps = 0
        self._ended = False

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.game_state = self.table.config.new_game(game_seed)
        self.players = self.opponents.players(game_seed, self.np_random)
        self.opponents.started(self.players, self.game_state)
        self.steps = 0
        self._ended = False
        play_opponents(self.game_state, self.table, self.seat, self.players)
        observation = self._observation()
        info = self._info()
        info["opponents"] = {p: player.name for p, player in self.players.items()}
        return observation, info

    def close(self) -> None:
        """Tell the opponents the episode is over (an outside program is stopped)."""
        self.opponents.abandon()
        super().close()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state is None:
            raise UnknownGame("call reset() before step()")
        if self._ended:
            raise UnknownGame("the episode is over: call reset()")
        refused = self.table.play(state, self.seat, action, self._legal)
        self.steps += 1
        if refused is None:
            play_opponents(state, self.table, self.seat, self.players)
        terminated = state.is_terminal()
        truncated = (
            not terminated
            and self.max_episode_steps is not None
            and self.steps >= self.max_episode_steps
        )
        self._ended = terminated or truncated
        reward = self.table.rewards(state)[self.seat]
        if refused is not None:
            reward += self.table.illegal_reward
        return self._observation(), float(reward), terminated, truncated, self._info(refused)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves now, as booleans (for MaskablePPO and the like)."""
        if self.game_state is None:
            raise UnknownGame("call reset() first")
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.game_state is None:
            return "no game: call reset() first"
        return f"{self.game_state!r}\nscores: {self.game_state.scores()}"

    # -- helpers ---------------------------------------------------------------------------------
    def _mask(self) -> npt.NDArray[np.int8]:
        """The learner's legal moves; :data:`IDLE` alone once the game is over."""
        state = self.game_state
        assert state is not None
        if state.is_terminal():
            return self.table.idle_mask
        return self.table.mask(state, self.seat)

    def _observation(self) -> ObsType:
        assert self.game_state is not None
        self._last_mask = self._mask()
        self._legal = self._last_mask.copy()  # what step trusts: the caller's may change
        return {
            "observation": self.table.observe(self.game_state, self.seat),
            "action_mask": self._last_mask,
        }

    def _info(self, illegal: str | None = None) -> dict[str, Any]:
        state = self.game_state
        assert state is not None
        over = state.is_terminal()
        info: dict[str, Any] = {"action_mask": self._last_mask, "to_act": not over}
        if over:
            info["scores"] = state.scores()
        if illegal is not None:
            info["illegal"] = illegal
        return info


def env_id(config: Config) -> str:
    """The Gymnasium id of a configuration: ``rulebook/MerchantsOfMagick-4p-v0``."""
    return f"rulebook/{config.camel}-v0"


def register_envs() -> list[str]:
    """Register every configuration with Gymnasium (done on import); returns the ids."""
    ids = []
    for config in configurations():
        name = env_id(config)
        if name not in gym.registry:
            gym.register(
                id=name,
                entry_point="rulebook.interop.gymnasium:RulebookEnv",
                vector_entry_point="rulebook.interop.batched:BatchedEnv",
                kwargs={
                    "game": config.game,
                    "players": config.players,
                    "variant": config.variant,
                    "options": dict(config.options),
                },
                disable_env_checker=False,
            )
        ids.append(name)
    return ids


ENV_IDS = register_envs()
