"""N games stepped in one call, in this process, with stacked arrays: a Gymnasium vector
environment (``pip install 'rulebook[rl]'``).

    import gymnasium as gym
    import rulebook.interop.gymnasium  # registers the ids, with this as their vector entry

    envs = gym.make_vec("rulebook/MerchantsOfMagick-4p-v0", num_envs=64, opponents="random")
    obs, infos = envs.reset(seed=0)              # obs["observation"]: (64, 1171) float32
    rng = np.random.default_rng(0)
    actions = sample_masked(obs["action_mask"], rng)  # (64,) legal indices, one per game
    obs, rewards, terminated, truncated, infos = envs.step(actions)

:class:`BatchedEnv` keeps its games as engine states, plays a step's legal moves in one compiled
loop (:func:`rulebook.core.batch.play_known`), writes every observation straight into
one preallocated ``(num_envs, *shape)`` array (``ObservationEncoder.encode_into``) and every
mask into one ``(num_envs, actions)`` array (``ActionSpace.masks_into``, one NumPy assignment
for the batch), and returns them stacked, as vectorised learners expect (the arrays are the
environment's own, overwritten by the next call; ``copy=True`` returns copies).

* ``seat`` (default 0): the learner plays that seat of every game against ``opponents``, as
  :class:`rulebook.interop.gymnasium.RulebookEnv` does (any opponent of
  :mod:`rulebook.interop.opponents`; a pool is drawn per game from that game's generator).
* ``seat=None``: self-play, the learner plays every seat. Each game's observation is of the
  seat to act (``infos["seat"]``); the step's action is that seat's; ``rewards`` are the
  rewards of the seat that moved and ``infos["rewards"]`` every seat's (``(num_envs,
  players)``: the final rewards when a game ends).
* Games reset themselves in the same step they end (Gymnasium's ``SAME_STEP`` autoreset): the
  observation returned is the new game's, with its mask, and the ended game's last
  observation is ``infos["final_obs"][i]`` (its info in ``infos["final_info"][i]``), as
  Gymnasium's own vector environments give them. No step of a finished game is ever asked
  for, so every mask returned holds a legal move.
* ``reset(seed=s)`` seeds game ``i`` from ``s + i`` (Gymnasium's convention); later games of
  environment ``i`` follow from its own generator, so a run repeats exactly.
* ``max_episode_steps`` truncates a game after that many of its steps; an illegal index
  changes nothing and costs ``illegal_reward`` (``illegal="raise"`` raises).

Which to use: this, for throughput (it is what ``gym.make_vec(id, num_envs=n)`` gives);
Gymnasium's ``SyncVectorEnv`` (``vectorization_mode="sync"``) when a library insists on
next-step resets; ``AsyncVectorEnv`` (``"async"``) only when the opponents' moves cost far more
than the learner's (``mcts`` bots on several cores): with cheap opponents its pipes cost more
than the games. ``docs/research.md`` has the measured rates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rulebook.core import Action, State, UnknownGame
from rulebook.core.batch import play_known
from rulebook.interop.common import Arguments, as_index, check_limit, takes
from rulebook.interop.opponents import Opponents, Player, play_opponents

ObsType = dict[str, npt.NDArray[Any]]


def sample_masked(
    masks: npt.ArrayLike, rng: np.random.Generator | None = None
) -> npt.NDArray[np.intp]:
    """One legal index per row of ``masks`` (``(n, actions)``, nonzero where legal), each
    drawn uniformly among its row's legal indices: a batch of random moves, or a learner's
    exploration. It costs a few passes over the masks and one draw per row (an ``argmax``
    of random numbers times the masks draws one number per action): about 15 microseconds
    for 64 rows of 492 actions. A row with no legal index is a :class:`ValueError`."""
    m = np.asarray(masks)
    if m.ndim != 2:
        raise ValueError(f"masks must be (n, actions), not of shape {m.shape}")
    n, size = m.shape
    # the legal flat indices, row after row (a bool array's are found much faster than an
    # int8 array's); row i's are those from i * size up to (i + 1) * size, found by bisection
    legal = (m != 0).reshape(-1).nonzero()[0]
    rows = np.arange(n + 1) * size
    edges = np.searchsorted(legal, rows)
    counts = edges[1:] - edges[:-1]
    if not counts.all():
        raise ValueError(f"row {int(np.argmin(counts))} of the masks has no legal index")
    draw = (rng if rng is not None else np.random.default_rng()).integers(counts)
    chosen: npt.NDArray[np.intp] = legal[edges[:-1] + draw]
    chosen -= rows[:-1]
    return chosen


@dataclass(frozen=True)
class BatchedArguments(Arguments):
    """What :class:`BatchedEnv` takes: ``game, players, variant=None, options=None,
    num_envs=8, seat=0, opponents="greedy", max_episode_steps=None, copy=False``, then the
    keywords every environment takes (:class:`~rulebook.interop.common.Arguments`; it does
    not render)."""

    num_envs: int = 8
    seat: int | None = 0
    opponents: Any = "greedy"
    max_episode_steps: int | None = None
    copy: bool = False


class BatchedEnv(VectorEnv[ObsType, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of one configuration, stepped together (module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    @takes(BatchedArguments)
    def __init__(self, arguments: BatchedArguments) -> None:
        if arguments.render_mode is not None:
            raise UnknownGame("a batched environment does not render: render one game instead")
        self.table = table = arguments.table()
        players, num_envs, seat = arguments.players, arguments.num_envs, arguments.seat
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise UnknownGame(f"num_envs must be a positive whole number, not {num_envs!r}")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise UnknownGame(f"seat must be one of 0-{players - 1} or None, not {seat!r}")
        self.num_envs = num_envs
        self.learner = seat
        self.copy = arguments.copy
        self.max_episode_steps = check_limit(arguments.max_episode_steps, "max_episode_steps")
        opponents = arguments.opponents
        self.opponents = (
            [] if seat is None else [Opponents(opponents, players, seat) for _ in range(num_envs)]
        )
        self.single_observation_space = table.observation_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(table.space.size)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self.closed = False
        self.states: list[State] = []
        #: the seat each game's observation is of (the learner's, or the seat to act)
        self.seats = np.zeros(num_envs, np.int64)
        self._players: list[dict[int, Player]] = [{} for _ in range(num_envs)]
        self._rngs: list[np.random.Generator] = []
        #: the seats (as :attr:`seats`) and each game's steps, as Python lists for the loop
        self._seat_list = [0] * num_envs
        self._step_list = [0] * num_envs
        self._rows = np.arange(num_envs)
        self._observations = np.zeros((num_envs, *table.shape), table.dtype)
        self._masks = np.zeros((num_envs, table.space.size), np.int8)
        #: the masks as made, which the caller cannot write into (what ``step`` trusts)
        self._legal = np.zeros((num_envs, table.space.size), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._all_rewards = np.zeros((num_envs, players), np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]:
        """Start every game: game ``i`` from ``seed + i`` (or ``seed[i]``), or, without a
        seed, from fresh entropy."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise UnknownGame(f"{len(seeds)} seeds for {n} environments")
        self._rngs = [np.random.default_rng(s) for s in seeds]
        self.states = [self._start(i) for i in range(n)]
        self._step_list = [0] * n
        self.seats[:] = self._seat_list
        return self._batch(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[
        ObsType,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One move in every game: ``actions[i]`` for the seat game ``i``'s observation was
        of; the games that end are reset at once (module docstring)."""
        if not self.states:
            raise UnknownGame("call reset() before step()")
        chosen = np.asarray(actions).reshape(-1)
        n = self.num_envs
        if chosen.shape != (n,):
            raise UnknownGame(f"one action per game: {n}, not {np.shape(actions)}")
        table, learner = self.table, self.learner
        vocabulary = table.space.vocabulary
        rewards, every = self._rewards, self._all_rewards
        terminated, truncated = self._terminated, self._truncated
        rewards[:] = 0.0
        every[:] = 0.0
        terminated[:] = False
        truncated[:] = False
        infos = self._infos()
        if chosen.dtype.kind in "iu":
            # legal where the mask this environment made says so (its own copy: a caller may
            # write into the one it was given): made as the engine makes a known legal move
            inside = (chosen >= 0) & (chosen < table.space.size)
            legal = (self._legal[self._rows, np.where(inside, chosen, 0)] != 0) & inside
            indices: list[Any] = chosen.tolist()
            moves: list[Action | None] = [
                vocabulary[j] if known else None
                for j, known in zip(indices, legal.tolist(), strict=True)
            ]
        else:  # refused one by one below, with the reason (or raised)
            indices = [as_index(c.item()) for c in chosen]
            moves = [None] * n
        seats, steps, limit = self._seat_list, self._step_list, self.max_episode_steps
        # the known legal moves, played by compiled code; left: the games that need more
        left = play_known(self.states, seats, moves, steps, limit or 0, learner is None)
        for i in left:
            state, p = self.states[i], seats[i]
            if moves[i] is None:
                refused = table.try_move(state, p, indices[i])
                steps[i] += 1
                if refused is not None:
                    rewards[i] = every[i, p] = table.illegal_reward
                    infos = self._add_info(infos, {"illegal": refused}, i)
            else:
                refused = None
            if learner is not None and refused is None:
                play_opponents(state, table, learner, self._players[i])
            if state.is_terminal():
                final = table.rewards(state)
                every[i] += final
                rewards[i] += final[p]
                terminated[i] = True
            elif limit is not None and steps[i] >= limit:
                truncated[i] = True
            else:
                if learner is None and refused is None:
                    seats[i] = state.current_players()[0]  # Table.to_act
                continue
            infos = self._add_info(infos, self._final(state, p), i)
            self.states[i] = self._start(i)
            steps[i] = 0
        self.seats[:] = seats
        infos["seat"] = self.seats.copy()
        infos["rewards"] = every.copy()
        out = self._batch()
        if self.copy:
            rewards, terminated, truncated = rewards.copy(), terminated.copy(), truncated.copy()
        return out, rewards, terminated, truncated, infos

    def close_extras(self, **kwargs: Any) -> None:
        for opponents in self.opponents or []:
            opponents.abandon()
        self.states = []

    # -- helpers ---------------------------------------------------------------------------------
    def _start(self, i: int) -> State:
        """A new game for environment ``i`` from its generator; the opponents move until the
        learner's seat is to act."""
        rng = self._rngs[i]
        game_seed = int(rng.integers(0, 2**31 - 1))
        state = self.table.config.new_game(game_seed)
        if self.learner is None:
            self._seat_list[i] = self.table.to_act(state)
        else:
            self._seat_list[i] = self.learner
            self._players[i] = self.opponents[i].players(game_seed, rng)
            self.opponents[i].started(self._players[i], state)
            play_opponents(state, self.table, self.learner, self._players[i])
        return state

    def _final(self, state: State, seat: int) -> dict[str, Any]:
        """The last observation and info of a game that has ended or was truncated (before
        its reset), as the single environment gives it (a finished game's mask: index 0
        alone, :data:`~rulebook.interop.common.IDLE`)."""
        over = state.is_terminal()
        observation = {
            "observation": np.asarray(self.table.encoder.encode_state(state, seat)),
            "action_mask": self.table.idle_mask if over else self.table.mask(state, seat),
        }
        return {"final_obs": observation, "final_info": {"scores": np.array(state.scores())}}

    def _batch(self) -> ObsType:
        """Every game's observation and mask, written into the preallocated arrays."""
        seats = self._seat_list
        self.table.encoder.encode_into(self.states, seats, self._observations)
        self.table.space.masks_into(self.states, seats, self._legal)
        np.copyto(self._masks, self._legal)
        if self.copy:
            return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._observations, "action_mask": self._masks}

    def _infos(self) -> dict[str, Any]:
        return {"seat": self.seats.copy(), "_seat": np.ones(self.num_envs, np.bool_)}
