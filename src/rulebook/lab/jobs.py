"""A job's games: what decides them (:class:`Job`) and how one is played into the row the lab
stores, in any process. :mod:`rulebook.lab.runner` plays a job on this machine's processes,
:mod:`rulebook.lab.ray_runner` on Ray; both play these same games.

A :class:`Job` is everything that decides the games: game, players, variant, options, agents
(one spec per seat, optionally rotated so each spec plays every seat), first seed, number of
games, the data override and the table's policy for outside agents. Game ``i`` is seeded
``seed + i``; agents are seeded by :func:`rulebook.agents.agent_seed`, so a job's results do
not depend on how many workers play it, nor on interruptions.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rulebook.agents import agent_seed, is_outside, make_agent
from rulebook.agents.protocol import Forfeit, PolicyChanges
from rulebook.core import new_game
from rulebook.lab import overrides
from rulebook.simulate import play


@dataclass(frozen=True)
class Job:
    """What to play; :meth:`to_dict` is stored with the results."""

    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    #: rotate the agents one seat per game (seat p of game i gets agents[(p - i) % players])
    rotate: bool = False
    #: the data override ({game: {file: patch}}), None for the data files as they are
    override: dict[str, Any] | None = None
    #: the table's changes to the outside agents' policy (``--retries``...), None for none
    policy: PolicyChanges | None = None

    def __post_init__(self) -> None:
        if len(self.agents) != self.players:
            raise ValueError(f"a job needs one agent per seat: {self.agents} for {self.players}")
        if self.games < 1:
            raise ValueError(f"a job needs at least 1 game, not {self.games}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["override"] = overrides.canonical(self.override)
        del data["policy"]
        if self.policy is not None and any(is_outside(a) for a in self.agents):
            data["policy"] = self.policy.given()  # (bots play alike under any policy)
        return data

    def seats(self, index: int) -> list[str]:
        """The agent spec of each seat in game ``index``."""
        n = self.players
        shift = index % n if self.rotate else 0
        return [self.agents[(p - shift) % n] for p in range(n)]


def play_game(job: Job, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``job``; the row stored for it. A seat whose outside agent
    forfeits (:class:`Forfeit`, under the table's policy) ends the game there: ``forfeit``
    names it, the other seats share the win, and the scores are as they stood."""
    overrides.install(job.override)
    start = time.perf_counter()
    seed = job.seed + index
    state = new_game(job.game, job.players, seed, job.variant, job.options)
    specs = job.seats(index)
    agents = [
        make_agent(spec, agent_seed(seed, p), policy=job.policy) for p, spec in enumerate(specs)
    ]
    try:
        play(state, agents)
        forfeit = None
    except Forfeit as forfeited:
        forfeit = forfeited.seat
    game = state.game
    n = state.num_players
    if forfeit is None:
        winners, returns = state.winners(), state.returns()
    else:  # the others share the win; the scores are as they stood
        winners = [p for p in range(n) if p != forfeit]
        returns = [1 / len(winners) if p in winners else 0.0 for p in range(n)]
    counters = [dict(game.counters(state, p)) if game.counters else {} for p in range(n)]
    factions = [game.faction(state, p) for p in range(n)] if game.faction else []
    if not all(factions):  # "" = no faction in this variant (Pandoria Merchants outside family)
        factions = []
    rating = state.observation(0).get("rating")
    return {
        "index": index,
        "seed": seed,
        "game": job.game,
        "variant": state.setup.variant,
        "options": json.dumps(dict(state.setup.options), sort_keys=True),
        "players": n,
        "agents": specs,
        "scores": state.scores(),
        "winners": winners,
        "returns": returns,
        "forfeit": forfeit,
        "moves": len(state.history),
        "breakdown": json.dumps([state.score_breakdown(p) for p in range(n)]),
        "counters": json.dumps(counters),
        "factions": factions,
        "rating": None if rating is None else str(rating),
        "override": overrides.canonical(job.override),
        "seconds": time.perf_counter() - start,
        "tallies": json.dumps([agent.tally for agent in agents]),
    }


def play_batch(job: Job, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [play_game(job, i) for i in indices]


def batches(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Split the games to play in batches: small enough for a smooth progress bar and little
    loss on a kill, large enough to keep the workers' overhead low."""
    size = max(1, min(25, len(indices) // (workers * 16)))
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]
