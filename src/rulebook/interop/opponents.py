"""Who plays the seats a learner does not: any policy, a pool of them, or a schedule.

An *opponent* is one of:

* a rulebook agent spec (``"random"``, ``"greedy"``, ``"mcts:200"``...): the bot, seeded from
  the game's seed and the seat (:func:`rulebook.agents.agent_seed`), so the same seed gives
  the same game;
* a rulebook :class:`~rulebook.agents.Agent` (anything with ``act(state, seat) -> Action`` that
  derives from it): it sees the engine's state, as the bots do;
* a *policy* on observations, which sees exactly what a learner in that seat would: the seat's
  observation dict (``"observation"``, its tensor; ``"action_mask"``, ``int8``) and returns an
  action index. Given as a callable ``policy(obs) -> int``, an object with ``act(obs) -> int``,
  or a trained model with Stable-Baselines3's ``predict(obs, deterministic=True)`` (which
  returns ``(action, state)``; the mask is passed as ``action_masks`` when ``predict`` takes
  it, as MaskablePPO's does);
* a :class:`Pool`: one of its members drawn for each seat at every reset, from the
  environment's seeded generator (weights optional, members may be added while training:
  self-play against past snapshots);
* a :class:`Schedule`: a function of the episode number (0 for the first reset) that names
  the opponent for that episode (an opponent of any kind above, a pool included): a
  curriculum.

:func:`seat_players` turns one opponent, or one per other seat, into the players of one
episode; a move a policy chooses that is not legal raises :class:`rulebook.IllegalAction`
naming the seat (a learner's illegal moves are its own; an opponent's are a bug to see).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np

from rulebook.agents import Agent, agent_seed, make_agent
from rulebook.core import Action, IllegalAction, State, UnknownGame
from rulebook.interop.common import Table

ObsDict: TypeAlias = dict[str, np.ndarray[Any, Any]]


class Pool:
    """Opponents drawn at random for each seat at every reset (``weights``: their relative
    chances, equal by default); :meth:`add` puts another in (a snapshot of the learner)."""

    def __init__(self, members: Sequence[Any], weights: Sequence[float] | None = None) -> None:
        if not members:
            raise UnknownGame("a pool needs at least one opponent")
        self.members: list[Any] = []
        self.weights: list[float] = []
        given = [1.0] * len(members) if weights is None else list(weights)
        if len(given) != len(members):
            raise UnknownGame(f"{len(members)} opponents but {len(given)} weights")
        for member, weight in zip(members, given, strict=True):
            self.add(member, weight)

    def add(self, member: Any, weight: float = 1.0) -> None:
        """Add ``member`` (any opponent but a pool or schedule) with ``weight``."""
        if isinstance(member, Pool | Schedule):
            raise UnknownGame("a pool's members are opponents, not pools or schedules")
        check_opponent(member)
        if not weight > 0:
            raise UnknownGame(f"a pool's weights must be positive, not {weight!r}")
        self.members.append(member)
        self.weights.append(float(weight))

    def draw(self, rng: np.random.Generator) -> Any:
        """One member, drawn with its weight's chance."""
        p = np.asarray(self.weights) / sum(self.weights)
        return self.members[int(rng.choice(len(self.members), p=p))]

    def __repr__(self) -> str:
        return f"Pool({self.members!r}, weights={self.weights!r})"


class Schedule:
    """The opponent of each episode as a function of its number (0 for the first reset of
    the environment): ``Schedule(lambda e: "random" if e < 1000 else "greedy")``."""

    def __init__(self, choose: Callable[[int], Any]) -> None:
        if not callable(choose):
            raise UnknownGame("a schedule is a function of the episode number")
        self.choose = choose

    def __call__(self, episode: int) -> Any:
        chosen = self.choose(episode)
        if isinstance(chosen, Schedule):
            raise UnknownGame("a schedule must name an opponent or a pool, not a schedule")
        if isinstance(chosen, Pool):
            return chosen
        return check_opponent(chosen)


class Player(Protocol):
    """What plays one seat for one episode: its move, an :class:`Action`, or an index."""

    name: str

    def move(self, state: State, seat: int, observe: Callable[[], ObsDict]) -> Action | int: ...

    def finish(self, state: State) -> None:
        """The episode is over (or abandoned): an agent outside the process is told and
        stopped."""


class _Bot:
    def __init__(self, agent: Agent, name: str) -> None:
        self.agent = agent
        self.name = name

    def move(self, state: State, seat: int, observe: Callable[[], ObsDict]) -> Action | int:
        return self.agent.act(state, seat)

    def finish(self, state: State) -> None:
        self.agent.finish(state)


class _Policy:
    """A policy on observations: ``call(obs) -> index``."""

    def __init__(self, call: Callable[[ObsDict], Any], name: str) -> None:
        self.call = call
        self.name = name

    def finish(self, state: State) -> None:
        pass

    def move(self, state: State, seat: int, observe: Callable[[], ObsDict]) -> Action | int:
        chosen = self.call(observe())
        if isinstance(chosen, tuple):  # predict's (action, recurrent state)
            chosen = chosen[0]
        if isinstance(chosen, np.ndarray) and chosen.size == 1:
            chosen = chosen.reshape(()).item()
        if isinstance(chosen, bool) or not isinstance(chosen, int | np.integer):
            raise IllegalAction(
                f"the opponent in seat {seat} ({self.name}) returned {chosen!r}, not an index"
            )
        return int(chosen)


def _predictor(model: Any) -> Callable[[ObsDict], Any]:
    """``model.predict`` as a policy: deterministic, with the mask where it takes one."""
    try:
        takes_mask = "action_masks" in inspect.signature(model.predict).parameters
    except (TypeError, ValueError):
        takes_mask = False
    if takes_mask:
        return lambda obs: model.predict(obs, deterministic=True, action_masks=obs["action_mask"])
    return lambda obs: model.predict(obs, deterministic=True)


def check_opponent(opponent: Any) -> Any:
    """``opponent`` if it is one of the kinds in the module docstring (a spec is checked by
    making its agent); :class:`UnknownGame` naming the kinds otherwise."""
    if isinstance(opponent, str):
        make_agent(opponent)  # a bad spec fails here, with the accepted forms
        return opponent
    if isinstance(opponent, Agent | Pool | Schedule):
        return opponent
    if callable(getattr(opponent, "predict", None)) or callable(getattr(opponent, "act", None)):
        return opponent
    if callable(opponent):
        return opponent
    raise UnknownGame(
        f"{opponent!r} is no opponent: give an agent spec, a rulebook Agent, a policy "
        "(obs -> index, or an object with act(obs) or predict(obs)), a Pool or a Schedule"
    )


def _bind(opponent: Any, game_seed: int, seat: int) -> Player:
    """The player of one seat for one episode."""
    if isinstance(opponent, str):
        return _Bot(make_agent(opponent, agent_seed(game_seed, seat)), opponent)
    if isinstance(opponent, Agent):
        return _Bot(opponent, repr(opponent))
    name = getattr(opponent, "__name__", None) or type(opponent).__name__
    if callable(getattr(opponent, "predict", None)):
        return _Policy(_predictor(opponent), name)
    if callable(getattr(opponent, "act", None)):
        return _Policy(opponent.act, name)
    return _Policy(opponent, name)


class Opponents:
    """The opponents of the seats a learner does not play: one for all of them or one per
    other seat (in seat order), each of any kind in the module docstring."""

    def __init__(self, opponents: Any, players: int, learner: int) -> None:
        others = [p for p in range(players) if p != learner]
        given = (
            list(opponents) if isinstance(opponents, list | tuple) else [opponents] * len(others)
        )
        if len(given) != len(others):
            raise UnknownGame(
                f"{len(others)} opponent(s) needed (one per other seat), not {len(given)}"
            )
        self.seats = others
        self.given = [check_opponent(o) for o in given]
        #: resets so far (the episode number a :class:`Schedule` is given)
        self.episodes = 0
        #: the last episode's players and game (told the end when the next one starts)
        self._last: tuple[dict[int, Player], State] | None = None

    def players(self, game_seed: int, rng: np.random.Generator) -> dict[int, Player]:
        """The players of the next episode: schedules asked for this episode's opponent,
        pools drawn from ``rng``, then each bound to its seat."""
        self.abandon()
        episode = self.episodes
        self.episodes += 1
        chosen: dict[int, Player] = {}
        for seat, opponent in zip(self.seats, self.given, strict=True):
            if isinstance(opponent, Schedule):
                opponent = opponent(episode)
            if isinstance(opponent, Pool):
                opponent = opponent.draw(rng)
            chosen[seat] = _bind(opponent, game_seed, seat)
        return chosen

    def started(self, players: dict[int, Player], state: State) -> None:
        """The episode of ``players`` is ``state`` (ended by :meth:`abandon` if it is not over
        when the next one starts)."""
        self._last = (players, state)

    def abandon(self) -> None:
        """Tell the last episode's players it is over, if :func:`play_opponents` did not."""
        if self._last is not None:
            players, state = self._last
            self._last = None
            finish_players(state, players)


def play_opponents(state: State, table: Table, learner: int, players: dict[int, Player]) -> None:
    """Let ``players`` move until seat ``learner`` is to act or the game is over (the seat
    to act in a simultaneous phase: :meth:`Table.to_act`)."""
    while not state.is_terminal():
        p = table.to_act(state)
        if p == learner:
            return
        player = players[p]

        def observe(seat: int = p) -> ObsDict:
            return {
                "observation": table.observe(state, seat),
                "action_mask": table.mask(state, seat),
            }

        chosen = player.move(state, p, observe)
        try:
            state.apply(p, table.space.action(chosen) if isinstance(chosen, int) else chosen)
        except IllegalAction as exc:
            raise IllegalAction(f"the opponent in seat {p} ({player.name}): {exc}") from None
    if state.is_terminal():
        finish_players(state, players)


def finish_players(state: State, players: dict[int, Player]) -> None:
    """Tell each player its game is over (telling one twice changes nothing)."""
    for player in players.values():
        player.finish(state)
