"""Figures of a results file: win rates with intervals, scores, lengths, counters, factions.

Shared by the HTML report and ``rulebook compare``; pure computation on the stored rows.

A game a seat forfeited (its outside agent under ``--fallback forfeit``: the row's ``forfeit``
names the seat) stopped before its end: the win rates count it (a loss for that seat, the
others sharing the win), every other figure (scores, breakdown, counters, items, ratings,
lengths) counts only the games played to the end, and each win rate says how many of its
games its seats forfeited and how many its mean score is over.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulebook.core import RulebookError, get_game
from rulebook.core.words import plural, seat
from rulebook.lab.stats import (
    ALPHA,
    Precision,
    Test,
    holm,
    one_proportion_z,
    precision,
    two_proportion_z,
    wilson,
)

#: one game of a results file, as a row (column name: value)
Row = dict[str, Any]


@dataclass(frozen=True)
class Rate:
    """A win rate: shared wins over games, with its Wilson 95% interval, and the mean score
    of those games played to the end."""

    label: str
    wins: float
    n: int
    expected: float
    #: over the ``scored`` games played to the end (0.0 if none was)
    mean_score: float
    #: the games (of ``n``) that this group's own seats forfeited: each a loss in ``wins``
    forfeits: int
    #: the games (of ``n``) played to the end, which ``mean_score`` is over
    scored: int

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)

    @property
    def test(self) -> Test:
        """Against an even share of the wins (1/players)."""
        return one_proportion_z(self.wins, self.n, self.expected)


@dataclass(frozen=True)
class Item:
    """A card/row/order counter (``group:name``): how often taken and what it did for winning."""

    group: str
    name: str
    taken: int
    seats: int
    win_taken: float
    win_not: float
    winners_share: float
    test: Test
    #: the p-value after Holm's correction over every item of its group
    adjusted: float = 1.0

    @property
    def significant(self) -> bool:
        """Whether the lift survives Holm's correction over the items of its group."""
        return self.adjusted < ALPHA

    @property
    def taken_rate(self) -> float:
        return self.taken / self.seats

    @property
    def lift(self) -> float:
        """Win rate of the seats that took it minus that of the seats that did not."""
        return self.win_taken - self.win_not


@dataclass
class Summary:
    """Everything the report shows about one results file."""

    games: int
    #: the games played to the end (``games`` less those a seat forfeited): every figure but
    #: the win rates is over these
    finished: int
    players: int
    game: str
    variant: str
    override: str
    seats: list[Rate]
    agents: list[Rate]
    factions: list[Rate]
    scores_by_seat: list[list[int]]
    scores_by_agent: dict[str, list[int]]
    lengths: list[int]
    breakdown: dict[str, list[float]]
    counters: dict[str, tuple[float, float]]
    items: dict[str, list[Item]] = field(default_factory=dict)
    ratings: dict[str, int] = field(default_factory=dict)
    #: the opponent of a solo variant played against the game (``the Trolls``), else ""
    opponent: str = ""
    #: with several agents at the table: each agent's win rate per faction (a rung each)
    factions_by_agent: dict[str, list[Rate]] = field(default_factory=dict)
    #: whether some seat was played by several agents (``rulebook strength`` rotates them)
    rotated: bool = False

    @property
    def mixed_agents(self) -> bool:
        """Whether different agents played (greedy and random...): who wins then says more
        about the agents' skill than about the game's balance."""
        return len(self.agents) > 1

    @property
    def forfeited(self) -> int:
        """How many games a seat forfeited."""
        return self.games - self.finished

    @property
    def has_wins(self) -> bool:
        """Whether the games have a winner to count: 2+ players, or solo against the game."""
        return self.players > 1 or bool(self.opponent)

    @property
    def precision(self) -> Precision:
        """The widest interval of the win rates the report shows (seats, agents, factions)."""
        if not self.has_wins:
            return Precision(0.0, "", self.games)
        rates = (*self.seats, *self.agents, *self.factions)
        return precision([(r.label, r.wins, r.n) for r in rates], self.games)


def corrected(rates: Sequence[Rate]) -> list[float]:
    """The p-values of ``rates`` against an even share, after Holm's correction over them."""
    return holm([r.test.p_value for r in rates])


def opponent(game: str, variant: str) -> str:
    """The opponent a solo variant is played against (``Variant.opponent``), or ""."""
    try:
        return get_game(game).variant(variant).opponent
    except RulebookError:  # results of a game or variant not known here
        return ""


def seat_games(rows: Sequence[Row]) -> list[tuple[Row, int]]:
    return [(r, p) for r in rows for p in range(r["players"])]


def forfeited_by(row: Row) -> int | None:
    """The seat that forfeited the game, or None: played to the end (or stored before
    forfeits were kept, which stopped the run instead)."""
    found = row.get("forfeit")
    return None if found is None else int(found)


def finished(rows: Sequence[Row]) -> list[Row]:
    """The games played to the end: all but those a seat forfeited."""
    return [r for r in rows if forfeited_by(r) is None]


def rate_of(label: str, pairs: Sequence[tuple[Row, int]], expected: float) -> Rate:
    """The win rate of the seats ``pairs`` (a game and a seat each): every game's share of
    the win, a forfeited game's included; the mean score of the games played to the end; how
    many of the games those seats forfeited."""
    scores = [r["scores"][p] for r, p in pairs if forfeited_by(r) is None]
    return Rate(
        label,
        sum(r["returns"][p] for r, p in pairs),
        len(pairs),
        expected,
        statistics.fmean(scores) if scores else 0.0,
        forfeits=sum(forfeited_by(r) == p for r, p in pairs),
        scored=len(scores),
    )


def seat_rates(rows: Sequence[Row]) -> list[Rate]:
    """Each seat's win rate (shared wins) against the even share, and its mean score."""
    n_players = rows[0]["players"]
    seats = []
    for p in range(n_players):
        agents = sorted({r["agents"][p] for r in rows})
        label = f"{seat(p)} ({', '.join(agents)})"
        seats.append(rate_of(label, [(r, p) for r in rows], 1.0 / n_players))
    return seats


def _rates(groups: dict[str, list[tuple[Row, int]]], expected: float) -> list[Rate]:
    return [rate_of(name, v, expected) for name, v in sorted(groups.items())]


def faction_rates(rows: Sequence[Row], agent: str | None = None) -> list[Rate]:
    """Each faction's win rate over the seats that played it (none if the game has none);
    with ``agent``, over the seats that agent played."""
    by_faction: dict[str, list[tuple[Row, int]]] = defaultdict(list)
    for r, p in seat_games(rows):
        if r["factions"] and (agent is None or r["agents"][p] == agent):
            by_faction[r["factions"][p]].append((r, p))
    return _rates(by_faction, 1.0 / rows[0]["players"])


def summarize(rows: Sequence[Row]) -> Summary:
    """The figures of a (non-empty) list of stored games of one job."""
    if not rows:
        raise ValueError("no games to summarize")
    first = rows[0]
    n_players = first["players"]
    done = finished(rows)  # every figure but the win rates: only the games played to the end
    pairs = seat_games(done)
    by_agent: dict[str, list[tuple[Row, int]]] = defaultdict(list)
    for r, p in seat_games(rows):
        by_agent[r["agents"][p]].append((r, p))
    breakdown: dict[str, list[float]] = defaultdict(lambda: [0.0] * n_players)
    for r in done:
        for p, parts in enumerate(r["breakdown"]):
            for k, v in parts.items():
                breakdown[k][p] += v / len(done)
    plain: dict[str, list[float]] = defaultdict(list)
    for r, p in pairs:
        for k, v in r["counters"][p].items():
            if ":" not in k:
                plain[k].append(v)
    counters = {
        k: (statistics.fmean(v), statistics.stdev(v) if len(v) > 1 else 0.0)
        for k, v in sorted(plain.items())
    }
    ratings: dict[str, int] = defaultdict(int)
    for r in done:
        if r["rating"] is not None:
            ratings[r["rating"]] += 1
    return Summary(
        games=len(rows),
        finished=len(done),
        players=n_players,
        game=first["game"],
        variant=first["variant"],
        override=first["override"],
        seats=seat_rates(rows),
        agents=_rates(by_agent, 1.0 / n_players),
        factions=faction_rates(rows),
        scores_by_seat=[[r["scores"][p] for r in done] for p in range(n_players)],
        scores_by_agent={
            a: scores
            for a, v in sorted(by_agent.items())
            if (scores := [r["scores"][p] for r, p in v if forfeited_by(r) is None])
        },
        lengths=[r["moves"] for r in done],
        breakdown=dict(breakdown),
        counters=counters,
        items=items(pairs) if n_players > 1 else items_solo(pairs),
        ratings=dict(ratings),
        opponent=opponent(first["game"], first["variant"]) if n_players == 1 else "",
        factions_by_agent=(
            {a: faction_rates(rows, a) for a in sorted(by_agent)}
            if len(by_agent) > 1 and first["factions"]
            else {}
        ),
        rotated=any(len({r["agents"][p] for r in rows}) > 1 for p in range(n_players)),
    )


def forfeit_lines(s: Summary) -> list[str]:
    """What a report says of the games seats forfeited (nothing if none was): how many each
    seat forfeited (and each agent, where agents changed seats), and how they are counted."""
    if not s.forfeited:
        return []
    lines = [
        f"{r.label} forfeited {r.forfeits} of {plural(r.n, 'game')}." for r in s.seats if r.forfeits
    ]
    if s.rotated:  # agents changed seats: each agent's own count too
        lines += [
            f"{r.label} forfeited {r.forfeits} of the {plural(r.n, 'game')} it played."
            for r in s.agents
            if r.forfeits
        ]
    end = f"the {s.finished} of {s.games} games played to the end"
    if not s.finished:
        end = "the games played to the end: none was, so there are none"
    lines.append(
        f"A forfeited game counts in the win rates (a loss for the seat that forfeited, the "
        f"others sharing the win); every other figure (mean scores, score breakdown, "
        f"counters, items, ratings, game length) counts only {end}."
    )
    return lines


def _item_names(pairs: Sequence[tuple[Row, int]]) -> dict[str, set[str]]:
    groups: dict[str, set[str]] = defaultdict(set)
    for r, p in pairs:
        for k in r["counters"][p]:
            if ":" in k:
                group, name = k.split(":", 1)
                groups[group].add(name)
    return groups


def items(pairs: Sequence[tuple[Row, int]]) -> dict[str, list[Item]]:
    """Per group of ``group:name`` counters: each item's take rate, the win rate of the seats
    that took it and of those that did not (two-proportion z-test) and the winners' share."""
    out: dict[str, list[Item]] = {}
    total_wins = sum(r["returns"][p] for r, p in pairs)
    for group, names in sorted(_item_names(pairs).items()):
        found = []
        for name in sorted(names):
            key = f"{group}:{name}"
            took = [r["returns"][p] for r, p in pairs if r["counters"][p].get(key, 0) > 0]
            rest = [r["returns"][p] for r, p in pairs if r["counters"][p].get(key, 0) <= 0]
            win_t = sum(took) / len(took) if took else 0.0
            win_n = sum(rest) / len(rest) if rest else 0.0
            test = (
                two_proportion_z(sum(rest), len(rest), sum(took), len(took))
                if took and rest
                else Test(0.0, 0.0, 1.0)
            )
            share = sum(took) / total_wins if total_wins else 0.0
            found.append(Item(group, name, len(took), len(pairs), win_t, win_n, share, test))
        adjusted = holm([i.test.p_value for i in found])
        found = [replace(i, adjusted=a) for i, a in zip(found, adjusted, strict=True)]
        out[group] = sorted(found, key=lambda i: i.lift, reverse=True)
    return out


def items_solo(pairs: Sequence[tuple[Row, int]]) -> dict[str, list[Item]]:
    """Solo games: rank items by the mean score with and without them (the ``win`` fields
    then hold mean scores; a solo game against the game's opponent is won or lost, but its
    score says more about how well an item served)."""
    out: dict[str, list[Item]] = {}
    for group, names in sorted(_item_names(pairs).items()):
        found = []
        for name in sorted(names):
            key = f"{group}:{name}"
            took = [float(r["scores"][p]) for r, p in pairs if r["counters"][p].get(key, 0) > 0]
            rest = [float(r["scores"][p]) for r, p in pairs if r["counters"][p].get(key, 0) <= 0]
            mt = statistics.fmean(took) if took else 0.0
            mn = statistics.fmean(rest) if rest else 0.0
            found.append(
                Item(group, name, len(took), len(pairs), mt, mn, 0.0, Test(mt - mn, 0.0, 1.0))
            )
        out[group] = sorted(found, key=lambda i: i.lift, reverse=True)
    return out
