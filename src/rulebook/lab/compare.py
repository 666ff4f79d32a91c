"""``rulebook compare A B``: what changed between two results files, with significance.

Win rates (per seat, per agent, per faction) by the two-proportion z-test; mean scores, score
categories and counters by Welch's t-test; items (``group:name`` counters) by how often they
are taken (two-proportion z-test). Each line gives A, B, the change, its p-value and the
p-value after Holm's correction over every line of the comparison (:func:`rulebook.lab.stats.holm`):
only a change that survives it is significant. As in the report, a game a seat forfeited counts
in the win rates only: the other figures are of the games played to the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rulebook.core.words import seat
from rulebook.lab.stats import ALPHA, Test, holm, two_proportion_z, welch_t
from rulebook.lab.summary import Rate, Row, finished, seat_games


@dataclass(frozen=True)
class Change:
    """One figure in A and in B, and the test of the difference."""

    section: str
    name: str
    a: float
    b: float
    test: Test
    percent: bool = False
    #: the p-value after Holm's correction over every change of the comparison
    adjusted: float = 1.0

    @property
    def significant(self) -> bool:
        return self.adjusted < ALPHA


def _rates(section: str, a: Sequence[Rate], b: Sequence[Rate]) -> list[Change]:
    bs = {r.label: r for r in b}
    out = []
    for ra in a:
        rb = bs.get(ra.label)
        if rb is None or not ra.n or not rb.n:
            continue
        test = two_proportion_z(ra.wins, ra.n, rb.wins, rb.n)
        out.append(Change(section, ra.label, ra.rate, rb.rate, test, percent=True))
    return out


def _means(section: str, a: dict[str, list[float]], b: dict[str, list[float]]) -> list[Change]:
    out = []
    for name in sorted(set(a) & set(b)):
        va, vb = a[name], b[name]
        if len(va) < 2 or len(vb) < 2:
            continue
        test = welch_t(va, vb)
        out.append(Change(section, name, sum(va) / len(va), sum(vb) / len(vb), test))
    return out


def _values(rows: Sequence[Row]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Per-seat-game values: scores and categories by seat; plain counters."""
    scores: dict[str, list[float]] = {}
    counters: dict[str, list[float]] = {}
    pairs = seat_games(rows)
    names = {k for r, p in pairs for k in r["counters"][p] if ":" not in k}
    for r, p in pairs:
        scores.setdefault(f"{seat(p)} score", []).append(r["scores"][p])
        for k, v in r["breakdown"][p].items():
            scores.setdefault(f"{k}", []).append(v)
        for k in names:
            counters.setdefault(k, []).append(r["counters"][p].get(k, 0.0))
    return scores, counters


def _items(a: Sequence[Row], b: Sequence[Row]) -> list[Change]:
    pa, pb = seat_games(a), seat_games(b)
    if not pa or not pb:  # (every game of a side forfeited)
        return []
    keys = {k for r, p in [*pa, *pb] for k in r["counters"][p] if ":" in k}
    out = []
    for key in sorted(keys):
        xa = sum(r["counters"][p].get(key, 0) > 0 for r, p in pa)
        xb = sum(r["counters"][p].get(key, 0) > 0 for r, p in pb)
        test = two_proportion_z(xa, len(pa), xb, len(pb))
        out.append(Change("items taken", key, xa / len(pa), xb / len(pb), test, percent=True))
    return out


def setup_differences(a: Sequence[Row], b: Sequence[Row]) -> list[str]:
    """How the two runs differ besides their data (players, agents, variant, options): each
    such difference changes the figures too, so the comparison no longer isolates the data."""
    out = []
    first_a, first_b = a[0], b[0]
    for key, what in (("players", "players"), ("variant", "variant"), ("options", "options")):
        if first_a[key] != first_b[key]:
            out.append(f"{what} ({first_a[key]} in A, {first_b[key]} in B)")
    seats_a, seats_b = sorted(first_a["agents"]), sorted(first_b["agents"])
    if seats_a != seats_b:
        out.append(f"agents ({','.join(seats_a)} in A, {','.join(seats_b)} in B)")
    return out


def compare(a: Sequence[Row], b: Sequence[Row]) -> list[Change]:
    """Every comparable figure of two results (any two jobs of the same game)."""
    from rulebook.lab.summary import summarize

    sa, sb = summarize(a), summarize(b)
    changes = []
    if sa.players > 1 and sb.players > 1:
        changes += _rates("win rate per seat", sa.seats, sb.seats)
        changes += _rates("win rate per agent", sa.agents, sb.agents)
        changes += _rates("win rate per faction", sa.factions, sb.factions)
    elif sa.opponent and sb.opponent:  # solo against the game's opponent (the Trolls)
        changes += _rates(f"win rate against {sa.opponent}", sa.agents, sb.agents)
    done_a, done_b = finished(a), finished(b)  # the games played to the end
    scores_a, counters_a = _values(done_a)
    scores_b, counters_b = _values(done_b)
    changes += _means("mean score", scores_a, scores_b)
    changes += _means("counters", counters_a, counters_b)
    changes += _items(done_a, done_b)
    return corrected(changes)


def corrected(changes: Sequence[Change]) -> list[Change]:
    """``changes`` with their p-values corrected by Holm's method over all of them."""
    adjusted = holm([c.test.p_value for c in changes])
    return [replace(c, adjusted=p) for c, p in zip(changes, adjusted, strict=True)]
