"""What a bot worker computes for the web app (:mod:`rulebook.web.worker` runs these in its
processes; :class:`rulebook.web.bots.BotRunner` asks for them): a bot's move, and whether a
person's move revealed anything hidden.

A worker keeps the states it built, by game, and is told a game as a :class:`Told`: the moves
since those it was last told (the server keeps the count, :class:`rulebook.web.bots.Tellings`),
so neither side writes, sends or compares a game's whole history at every move. A worker that
does not hold those earlier moves (it is new, or dropped the game) answers ``None`` and is
told the game whole.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from typing import Any

import rulebook
from rulebook.agents import agent_seed, make_agent
from rulebook.agents.protocol import OutsideAgent
from rulebook.core import State
from rulebook.web.undo import reveals_nothing

#: states kept per worker, by game id (about 20 KB each): as many as the server keeps games in
#: memory (``Settings.cache_games``), so a worker serving hundreds of games does not replay each
#: from its start at every move
_CACHE_SIZE = 1000
#: the most seconds an agent outside the server has for a move (its spec may give less)
OUTSIDE_SECONDS = 60.0
#: by game id: the state and the lineage of the log it was built from
_states: OrderedDict[str, tuple[State, int]] = OrderedDict()


@dataclasses.dataclass(frozen=True)
class Told:
    """A game as a worker is told it: its ``setup`` (the save data without the log) and the
    log's moves from ``start`` on. The moves before ``start`` are those the worker was told of
    the game ``key`` under the same ``lineage`` (a number the server changes whenever a log is
    replaced rather than played on: an undo, a replay); ``start`` 0 tells the whole log."""

    key: str
    lineage: int
    setup: dict[str, Any]
    start: int
    moves: list[tuple[int, str]]

    @property
    def length(self) -> int:
        """The moves of the log told."""
        return self.start + len(self.moves)


def _state_for(told: Told, keep: int) -> State | None:
    """The game after its first ``keep`` moves (kept for the next request), played on from the
    kept state; ``None`` when this worker does not hold the moves before ``told.start``."""
    kept = _states.pop(told.key, None)
    if told.start == 0:
        state = rulebook.replay({**told.setup, "log": []})
    elif kept is None or kept[1] != told.lineage or len(kept[0].history) != told.start:
        return None
    else:
        state = kept[0]
    for seat, move in told.moves[: keep - told.start]:
        state.apply(seat, move)  # a move refused: the game is not kept (told whole next time)
    _states[told.key] = (state, told.lineage)
    while len(_states) > _CACHE_SIZE:
        _states.popitem(last=False)
    return state


def choose(told: Told, seat: int, spec: str) -> str | None:
    """The move the bot ``spec`` in ``seat`` makes in the game ``told`` (its text form), or
    ``None`` when the game must be told whole.

    An agent outside the server (``serve --seat``) is started for this one move and told the
    end at once (``over`` false): every request carries all the seat may see, so it needs no
    memory between moves, and no program lingers after a game nobody finishes. It has
    :data:`OUTSIDE_SECONDS` a move unless its spec gives less; past them, or after answers
    that are no legal move, the table moves for it at random (the protocol's policy)."""
    state = _state_for(told, told.length)
    if state is None:
        return None
    seed = agent_seed(int(told.setup["seed"]), seat) + 7919 * len(state.history)
    agent = make_agent(spec, seed)
    if isinstance(agent, OutsideAgent):
        limit = agent.policy.seconds
        seconds = OUTSIDE_SECONDS if limit is None else min(limit, OUTSIDE_SECONDS)
        agent.policy = dataclasses.replace(agent.policy, fallback="random", seconds=seconds)
    position = state.clone()
    try:
        return str(agent.act(position, seat))
    finally:
        agent.finish(position)


def reveals(told: Told) -> bool | None:
    """Whether the last move of the game ``told`` revealed anything hidden
    (:func:`rulebook.web.undo.reveals_nothing`, negated), or ``None`` when the game must be
    told whole. The state before that move is the one kept."""
    kept = _state_for(told, told.length - 1)
    if kept is None:
        return None
    before = kept.clone()
    seat, move = told.moves[-1]
    after = before.clone()
    after.apply(seat, move)
    return not reveals_nothing(before, seat, move, after)
