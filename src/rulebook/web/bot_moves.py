"""What a bot worker computes for the web app (:mod:`rulebook.web.worker` runs these in its
processes; :class:`rulebook.web.bots.BotRunner` asks for them): a bot's move, and whether a
person's move revealed anything hidden.

A worker gets the game as its save-file data (setup and log) and keeps the states it built, so
it replays only the moves made since it last chose for that game.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Mapping
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
#: by game id: the state, the setup and the log (as sent) it was built from
_states: OrderedDict[str, tuple[State, dict[str, Any], list[Any]]] = OrderedDict()


def _state_for(key: str, data: Mapping[str, Any]) -> State:
    """The game ``data`` describes, advanced from the cached state when its log extends the
    log that state was built from (compared as sent: no move of the history written again)."""
    log = data["log"]
    kept = _states.pop(key, None)
    state = None
    if kept is not None:
        state, setup, told = kept
        if setup != {k: data.get(k) for k in setup} or log[: len(told)] != told:
            state = None
    if state is None:
        state = rulebook.replay({**data, "log": []})
        setup, told = state.setup.to_dict(), []
    for seat, move in log[len(told) :]:
        state.apply(seat, move)
    _states[key] = (state, setup, list(log))
    while len(_states) > _CACHE_SIZE:
        _states.popitem(last=False)
    return state


def choose(key: str, data: Mapping[str, Any], seat: int, spec: str) -> str:
    """The move the bot ``spec`` in ``seat`` makes in the game ``data`` (its text form).

    An agent outside the server (``serve --seat``) is started for this one move and told the
    end at once (``over`` false): every request carries all the seat may see, so it needs no
    memory between moves, and no program lingers after a game nobody finishes. It has
    :data:`OUTSIDE_SECONDS` a move unless its spec gives less; past them, or after answers
    that are no legal move, the table moves for it at random (the protocol's policy)."""
    state = _state_for(key, data)
    seed = agent_seed(int(data["seed"]), seat) + 7919 * len(state.history)
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


def reveals(key: str, data: Mapping[str, Any]) -> bool:
    """Whether the last move of the game ``data`` revealed anything hidden
    (:func:`rulebook.web.undo.reveals_nothing`, negated)."""
    log = data["log"]
    before = _state_for(key, {**data, "log": log[:-1]}).clone()
    seat, move = log[-1]
    after = before.clone()
    after.apply(seat, move)
    return not reveals_nothing(before, seat, move, after)
