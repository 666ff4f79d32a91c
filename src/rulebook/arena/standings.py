"""The standings of a tournament: per game and across games, each agent's rating (with its
interval), tables played, wins, mean finishing place and what its tallies add up to."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebook.arena.plan import ladder_rank
from rulebook.arena.ratings import Fitted, Stages, rate
from rulebook.core import get_game

Row = dict[str, Any]


@dataclass(frozen=True)
class Standing:
    """One agent in one table of standings."""

    agent: str
    points: float
    low: float
    high: float
    #: the tables it sat at
    tables: int
    #: its wins, a win shared by k seats counting 1/k
    wins: float
    #: its mean finishing place (1 = first; seats sharing a place share its places' mean)
    place: float
    #: its tallies summed over its seats (moves, retries, tokens, cost...), if it keeps any
    tally: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Standings:
    """A table of standings: over one game (``game`` its name) or all (``game`` None)."""

    game: str | None
    title: str
    tables: int
    rows: list[Standing]
    fitted: Fitted
    #: the agent rated 0
    anchor: str
    #: the agents whose order at the top the stability figure checks
    top: list[str]


@dataclass(frozen=True)
class Board:
    """Every table of standings of a tournament, and how its ratings are anchored."""

    overall: Standings
    games: list[Standings]
    #: how the anchor was chosen, in words
    anchor_note: str


def standings(
    rows: Sequence[Row],
    agents: Sequence[str],
    games: Sequence[str],
    seed: int,
    resamples: int = 200,
    drops: int = 200,
) -> Board:
    """The standings of the finished tables ``rows`` (at least one) of a tournament among
    ``agents`` over ``games``: the bootstrap and the drops are drawn from ``seed``."""
    index = {a: i for i, a in enumerate(agents)}
    anchor, note = _anchor(rows, agents, index, seed)
    overall = _scope(rows, agents, index, None, "All games", anchor, seed, resamples, drops)
    per_game = []
    for g in games:
        mine = [r for r in rows if r["game"] == g]
        if mine:
            title = get_game(g).title
            per_game.append(_scope(mine, agents, index, g, title, anchor, seed, resamples, drops))
    return Board(overall, per_game, note)


def orders(rows: Sequence[Row], index: dict[str, int]) -> list[list[list[int]]]:
    """Each table's finishing order as groups of agent numbers."""
    return [[[index[r["seats"][p]] for p in group] for group in r["order"]] for r in rows]


def _anchor(
    rows: Sequence[Row], agents: Sequence[str], index: dict[str, int], seed: int
) -> tuple[int, str]:
    """The agent rated 0 everywhere, and why: ``random`` where it plays, else the lowest-rated
    bot of the ladder (in the fit over all games), else the first agent."""
    if "random" in index:
        return index["random"], "random is fixed at 0"
    ladder = [a for a in agents if ladder_rank(a) is not None]
    if ladder:
        fitted = rate(Stages.of(orders(rows, index), len(agents)), 0, seed, 0, 0)
        lowest = min(ladder, key=lambda a: fitted.ratings[index[a]].points)
        return index[lowest], (
            f"random does not play: {lowest}, the lowest-rated bot of the ladder, is fixed at 0"
        )
    return 0, f"no bot of the ladder plays: {agents[0]}, the first agent, is fixed at 0"


def _scope(
    rows: Sequence[Row],
    agents: Sequence[str],
    index: dict[str, int],
    game: str | None,
    title: str,
    anchor: int,
    seed: int,
    resamples: int,
    drops: int,
) -> Standings:
    strata = None if game is not None else _strata([r["game"] for r in rows])
    stages = Stages.of(orders(rows, index), len(agents))
    fitted = rate(stages, anchor, seed, resamples, drops, strata)
    out = []
    for a, name in enumerate(agents):
        seats = [(r, p) for r in rows for p, s in enumerate(r["seats"]) if s == name]
        tables = len({r["index"] for r, _ in seats})
        wins = sum(1.0 / len(r["winners"]) for r, p in seats if p in r["winners"])
        placed = [_place(r["order"], p) for r, p in seats]
        tally: dict[str, float] = {}
        for r, p in seats:
            for k, v in r["tally"][p].items():
                tally[k] = tally.get(k, 0.0) + v
        rating = fitted.ratings[a]
        place = sum(placed) / len(placed) if placed else float("nan")
        out.append(
            Standing(name, rating.points, rating.low, rating.high, tables, wins, place, tally)
        )
    out.sort(key=lambda s: (-s.points, s.agent))
    top = [agents[a] for a in fitted.top]
    return Standings(game, title, len(rows), out, fitted, agents[anchor], top)


def _strata(names: Sequence[str]) -> list[int]:
    seen: dict[str, int] = {}
    return [seen.setdefault(n, len(seen)) for n in names]


def _place(order: Sequence[Sequence[int]], seat: int) -> float:
    """The finishing place of ``seat``: the mean of the places its group covers."""
    before = 0
    for group in order:
        if seat in group:
            return before + (len(group) + 1) / 2
        before += len(group)
    raise ValueError(f"seat {seat} is in no place of {order}")


def tally_keys(board: Board) -> list[str]:
    """The tally names any agent reported, in the order first met."""
    keys: dict[str, None] = {}
    for s in board.overall.rows:
        keys.update(dict.fromkeys(s.tally))
    return list(keys)
