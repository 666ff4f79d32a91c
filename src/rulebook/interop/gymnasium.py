"""Every game as a single-agent Gymnasium environment against rulebook bots
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

* The learner plays ``seat`` (default 0); every other seat is a rulebook bot, named by a spec
  (``"random"``, ``"greedy"``, ``"mcts:200"``...) for all of them or one spec per other seat.
  Bots are seeded from the game's seed, so ``reset(seed=s)`` always gives the same game for
  the same moves.
* Observations are dicts: ``"observation"`` (the seat's tensor, from its game's encoder) and
  ``"action_mask"`` (``int8``, 1 for each legal move); the mask is also in ``info`` and from
  :meth:`RulebookEnv.action_masks` (the name MaskablePPO looks for). The tensor's space is a
  ``Box`` with the encoder's bounds (``ObservationEncoder.bounds``: open amounts capped).
* The reward comes at the end of the game: the share of the win (default), the score margin
  (``reward="margin"``) or, in solo games, the score (the default there).
* An action that is not a legal move changes nothing and gives ``illegal_reward`` (-1) for
  the step, the reason in ``info["illegal"]`` (``illegal="raise"`` raises instead).
* Simultaneous phases are played one seat after another, the lowest seat still to act first.

Registered ids: ``rulebook/<Game>-<n>p[-<Variant>][-<Level>]-v0`` for every configuration
(:func:`rulebook.interop.common.configurations`), e.g. ``rulebook/MerchantsOfMagick-1p-v0``
(solo), ``rulebook/PandoriaMerchants-3p-Family-v0``, ``rulebook/PandoriaMerchants-1p-Expert-v0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rulebook.agents import Agent, agent_seed, make_agent
from rulebook.core import State, UnknownGame
from rulebook.interop.common import Config, Settings, Table, configurations

ObsType = dict[str, npt.NDArray[Any]]


class RulebookEnv(gym.Env[ObsType, np.int64]):
    """One seat of a game against rulebook bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        **settings: Unpack[Settings],
    ) -> None:
        self.table = Table.of(game, players, variant, options, settings)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise UnknownGame(f"seat must be one of 0-{players - 1}, not {seat!r}")
        self.seat = seat
        others = players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            raise UnknownGame(
                f"{others} opponent spec(s) needed (one per other seat), not {len(specs)}"
            )
        for spec in specs:
            make_agent(spec)  # a bad spec fails here, with the accepted forms
        self.opponents = specs
        self.observation_space = self.table.observation_space()  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self.table.space.size)
        render_mode = settings.get("render_mode")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UnknownGame(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.state: State | None = None
        self._bots: dict[int, Agent] = {}

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.state = self.table.config.new_game(game_seed)
        others = [p for p in range(self.state.num_players) if p != self.seat]
        self._bots = {
            p: make_agent(spec, agent_seed(game_seed, p))
            for p, spec in zip(others, self.opponents, strict=True)
        }
        self._play_bots()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise UnknownGame("call reset() before step()")
        if state.is_terminal():
            raise UnknownGame("the game is over: call reset()")
        refused = self.table.try_move(state, self.seat, action)
        if refused is not None:
            return self._observation(), self.table.illegal_reward, False, False, self._info(refused)
        self._play_bots()
        over = state.is_terminal()
        reward = self.table.rewards(state)[self.seat]
        return self._observation(), float(reward), over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves now, as booleans (for MaskablePPO and the like)."""
        if self.state is None:
            raise UnknownGame("call reset() first")
        return self.table.mask(self.state, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.state is None:
            return "no game: call reset() first"
        return f"{self.state!r}\nscores: {self.state.scores()}"

    # -- helpers ---------------------------------------------------------------------------------
    def _play_bots(self) -> None:
        """Let the bots move until the learner's seat is to act or the game is over."""
        state = self.state
        assert state is not None
        while not state.is_terminal():
            p = self.table.to_act(state)
            if p == self.seat:
                return
            state.apply(p, self._bots[p].act(state, p))

    def _observation(self) -> ObsType:
        assert self.state is not None
        return {
            "observation": self.table.observe(self.state, self.seat),
            "action_mask": self.table.mask(self.state, self.seat),
        }

    def _info(self, illegal: str | None = None) -> dict[str, Any]:
        assert self.state is not None
        info: dict[str, Any] = {"action_mask": self.table.mask(self.state, self.seat)}
        if self.state.is_terminal():
            info["scores"] = self.state.scores()
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
