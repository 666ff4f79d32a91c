"""Balance targets of ``rulebook tune`` and the objective they define over simulated games.

A target is a comma-separated list of terms, each optionally weighted (``W*term``)::

    factions<=5            every faction's win rate within 5 points of the even share 1/N
    seats<=5               every seat's win rate within 5 points of the even share
    moves in 150..220      the mean game length (moves per game) between 150 and 220
    score in 60..80        the mean final score of a seat
    NAME in LOW..HIGH      the mean of the game's counter NAME per seat and game
    2*factions<=3, seats<=5, 0.1*moves in 150..220

A term's *excess* is how far the games miss it: for ``factions``/``seats`` the points (of win
rate) beyond the tolerance, summed over the factions/seats; for a mean, the distance from the
mean to the range, in the counter's unit. The objective is the weighted sum of the excesses:
0 exactly when every term is met. Ties (several candidates meeting the target) are broken by
the distance from the data files' values (:meth:`rulebook.lab.tune.knobs.Knob.distance`).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulebook.core.data import DataError
from rulebook.lab.summary import Rate, faction_rates, seat_rates

Row = dict[str, Any]

_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_WEIGHT = rf"(?:(?P<weight>{_NUM})\s*\*\s*)?"
_RATES = re.compile(rf"^{_WEIGHT}(?P<what>factions|seats)\s*<=\s*(?P<tol>{_NUM})$")
_MEAN = re.compile(
    rf"^{_WEIGHT}(?P<what>[A-Za-z_][\w.:/ -]*?)\s+in\s+(?P<low>{_NUM})\s*\.\.\s*(?P<high>{_NUM})$"
)

SYNTAX = "factions<=X, seats<=X, NAME in LOW..HIGH (each may be weighted: 2*factions<=X)"


class TargetError(DataError):
    """A target that cannot be read: one line, before anything runs."""


@dataclass(frozen=True)
class Term:
    """One part of a target: win rates within a tolerance, or a mean within a range."""

    what: str  # "factions", "seats", "moves", "score" or a counter's name
    low: float  # the tolerance in points for factions/seats; the range for a mean
    high: float = 0.0
    weight: float = 1.0

    @property
    def rates(self) -> bool:
        return self.what in ("factions", "seats")

    def __str__(self) -> str:
        weight = "" if self.weight == 1 else f"{self.weight:g}*"
        if self.rates:
            return f"{weight}{self.what}<={self.low:g}"
        return f"{weight}{self.what} in {self.low:g}..{self.high:g}"


def parse_target(text: str) -> tuple[Term, ...]:
    """The terms of a target (see the module); :class:`TargetError` if malformed."""
    terms = []
    for part in text.split(","):
        part = " ".join(part.split())
        if not part:
            continue
        found = _RATES.match(part) or _MEAN.match(part)
        if found is None:
            raise TargetError(f"target term {part!r} not understood; terms: {SYNTAX}")
        weight = float(found["weight"]) if found["weight"] else 1.0
        if weight <= 0:
            raise TargetError(f"target term {part!r}: a weight must be positive")
        if found.re is _RATES:
            tolerance = float(found["tol"])
            if not 0 <= tolerance < 100:
                raise TargetError(f"target term {part!r}: the tolerance is in points, 0-100")
            terms.append(Term(found["what"], tolerance, weight=weight))
        else:
            low, high = float(found["low"]), float(found["high"])
            if low > high:
                raise TargetError(f"target term {part!r}: the range {low:g}..{high:g} is empty")
            terms.append(Term(found["what"].strip(), low, high, weight))
    if not terms:
        raise TargetError(f"the target is empty; terms: {SYNTAX}")
    names = [t.what for t in terms]
    if len(set(names)) != len(names):
        raise TargetError("the target names a term twice")
    return tuple(terms)


def check_target(terms: Sequence[Term], has_factions: bool, counters: set[str]) -> None:
    """Refuse terms the game cannot measure (no factions; an unknown counter)."""
    for term in terms:
        if term.what == "factions" and not has_factions:
            raise TargetError("this game (in this variant) has no factions to balance")
        if not term.rates and term.what not in {"moves", "score", *counters}:
            known = ", ".join(sorted({"moves", "score", *counters}))
            raise TargetError(f"the target names no counter {term.what!r} (counters: {known})")


def excess_of_rates(rates: Sequence[Rate], tolerance: float) -> float:
    """Points beyond ``tolerance`` from the even share, summed over the rates."""
    return sum(max(0.0, abs(100 * (r.rate - r.expected)) - tolerance) for r in rates)


def mean_of(what: str, rows: Sequence[Row]) -> float:
    """The mean of ``moves`` (per game), ``score`` or a counter (per seat and game)."""
    if what == "moves":
        return statistics.fmean(r["moves"] for r in rows)
    if what == "score":
        return statistics.fmean(s for r in rows for s in r["scores"])
    return statistics.fmean(c.get(what, 0.0) for r in rows for c in r["counters"])


@dataclass(frozen=True)
class Measure:
    """A target measured on some games: the objective and each term's figure and excess."""

    objective: float
    figures: dict[str, float]
    excesses: dict[str, float]
    games: int

    @property
    def met(self) -> bool:
        return self.objective == 0


def measure(terms: Sequence[Term], rows: Sequence[Row]) -> Measure:
    """The objective of ``terms`` over ``rows`` (stored games of one job)."""
    figures: dict[str, float] = {}
    excesses: dict[str, float] = {}
    for term in terms:
        key = str(term)
        if term.rates:
            rates = faction_rates(rows) if term.what == "factions" else seat_rates(rows)
            figures[key] = max((abs(100 * (r.rate - r.expected)) for r in rates), default=0.0)
            excesses[key] = excess_of_rates(rates, term.low)
        else:
            value = mean_of(term.what, rows)
            figures[key] = value
            excesses[key] = max(0.0, term.low - value, value - term.high)
    objective = sum(t.weight * excesses[str(t)] for t in terms)
    return Measure(round(objective, 9), figures, excesses, len(rows))
