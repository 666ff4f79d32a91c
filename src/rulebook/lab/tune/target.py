"""Balance targets of ``rulebook tune`` and the objective they define over simulated games.

A target is a comma-separated list of terms, each optionally weighted (``W*term``)::

    factions<=5            every faction's win rate within 5 points of the even share 1/N
    seats<=5               every seat's win rate within 5 points of the even share
    first<=3               the first seat's win rate within 3 points of the even share
    moves in 150..220      the mean game length (moves per game) between 150 and 220
    score in 60..80        the mean final score of a seat
    NAME in LOW..HIGH      the mean of the game's counter NAME per seat and game
    2*factions<=3, seats<=5, 0.1*moves in 150..220

Each term may name the rung of the ladder it is measured at (:mod:`rulebook.lab.ladder`) after
an ``@``: ``factions<=5 @ greedy`` on games with greedy in every seat, ``factions<=5 @
mcts:200-greedy`` on games of one mcts:200 seat against greedy ones, where a faction's figure
is the mcts seat's win rate with it against the mean over the factions (how much skill pays
must not depend on the faction). A term without ``@`` is measured on the games of the run's
``--agents``. Seat terms need one agent in every seat.

A term's *excess* is how far the games miss it: for ``factions``/``seats`` the points (of win
rate) beyond the tolerance, summed over the factions/seats; for a mean, the distance from the
mean to the range, in the counter's unit. The objective is the weighted sum of the excesses:
0 exactly when every term is met. Ties (several candidates meeting the target) are broken by
the distance from the data files' values (:meth:`rulebook.lab.tune.knobs.Knob.distance`).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook.core.data import DataError
from rulebook.lab.ladder import Rung, RungError, rates
from rulebook.lab.summary import Rate

Row = dict[str, Any]

_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_WEIGHT = rf"(?:(?P<weight>{_NUM})\s*\*\s*)?"
_RATES = re.compile(rf"^{_WEIGHT}(?P<what>factions|seats|first)\s*<=\s*(?P<tol>{_NUM})$")
_MEAN = re.compile(
    rf"^{_WEIGHT}(?P<what>[A-Za-z_][\w.:/ -]*?)\s+in\s+(?P<low>{_NUM})\s*\.\.\s*(?P<high>{_NUM})$"
)

SYNTAX = (
    "factions<=X, seats<=X, first<=X, NAME in LOW..HIGH (each may be weighted, 2*factions<=X, "
    "and name its rung, factions<=X @ mcts:200-greedy)"
)
#: what the objective is, said wherever it is printed
OBJECTIVE = (
    "objective: the points (or units) by which the games miss the target, summed over its "
    "terms; 0 = the target is met"
)


class TargetError(DataError):
    """A target that cannot be read: one line, before anything runs."""


@dataclass(frozen=True)
class Term:
    """One part of a target: win rates within a tolerance, or a mean within a range, measured
    at a rung of the ladder (``None``: the run's agents)."""

    what: str  # "factions", "seats", "first", "moves", "score" or a counter's name
    low: float  # the tolerance in points for factions/seats/first; the range for a mean
    high: float = 0.0
    weight: float = 1.0
    rung: Rung | None = None

    @property
    def rates(self) -> bool:
        return self.what in ("factions", "seats", "first")

    def __str__(self) -> str:
        weight = "" if self.weight == 1 else f"{self.weight:g}*"
        where = "" if self.rung is None else f" @ {self.rung}"
        if self.rates:
            return f"{weight}{self.what}<={self.low:g}{where}"
        return f"{weight}{self.what} in {self.low:g}..{self.high:g}{where}"


def parse_target(text: str) -> tuple[Term, ...]:
    """The terms of a target (see the module); :class:`TargetError` if malformed."""
    terms = []
    for part in text.split(","):
        part = " ".join(part.split())
        if not part:
            continue
        part, at, where = part.partition("@")
        part = part.strip()
        rung = None
        if at:
            try:
                rung = Rung.parse(where.strip())
            except RungError as exc:
                raise TargetError(f"target term {part!r}: {exc}") from None
            if rung.mixed and part.split("*")[-1].startswith(("seats", "first")):
                raise TargetError(
                    f"target term {part!r} @ {rung}: seat terms need one agent in every seat"
                )
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
            terms.append(Term(found["what"], tolerance, weight=weight, rung=rung))
        else:
            low, high = float(found["low"]), float(found["high"])
            if low > high:
                raise TargetError(f"target term {part!r}: the range {low:g}..{high:g} is empty")
            terms.append(Term(found["what"].strip(), low, high, weight, rung))
    if not terms:
        raise TargetError(f"the target is empty; terms: {SYNTAX}")
    names = [(t.what, str(t.rung)) for t in terms]
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


def rungs_of(terms: Sequence[Term]) -> list[Rung | None]:
    """The rungs a target is measured at, in the order of its terms (``None``: the run's
    agents)."""
    return list(dict.fromkeys(t.rung for t in terms))


def measure(terms: Sequence[Term], games: Mapping[Rung | None, Sequence[Row]]) -> Measure:
    """The objective of ``terms`` over the stored games of each rung they name."""
    figures: dict[str, float] = {}
    excesses: dict[str, float] = {}
    for term in terms:
        key = str(term)
        rows = games[term.rung]
        if term.rates:
            rung = term.rung or Rung(rows[0]["agents"][0], rows[0]["agents"][0])
            found = rates(rows, rung, "faction" if term.what == "factions" else "seat")
            if term.what == "first":
                found = found[:1]
            figures[key] = max((abs(100 * (r.rate - r.expected)) for r in found), default=0.0)
            excesses[key] = excess_of_rates(found, term.low)
        else:
            value = mean_of(term.what, rows)
            figures[key] = value
            excesses[key] = max(0.0, term.low - value, value - term.high)
    objective = sum(t.weight * excesses[str(t)] for t in terms)
    return Measure(round(objective, 9), figures, excesses, sum(len(v) for v in games.values()))
