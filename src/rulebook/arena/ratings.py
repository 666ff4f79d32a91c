"""Ratings from whole finishing orders: a Plackett-Luce model fitted by Newton's method,
bootstrap intervals, and how stable the top of the table is.

The model: agent ``i`` has a strength ``w_i > 0``; a game's finishing order is drawn place by
place, the next place going to each agent still in the race with probability proportional to
its strength (two seats: the Bradley-Terry model). Seats that share a place (the game's own
tie: same score and tie-breakers, or a shared win) are handled as Breslow's approximation
does in survival analysis: each of the ``t`` tied seats is taken as chosen from the same set of
seats still in the race, ``prod(w_tied) / (sum of w in the race) ** t``. An agent may hold
several seats of one game (fewer agents than seats): each seat counts, with the same strength.

The fit maximises the likelihood times a weak Gamma prior on each strength (shape ``1 + PRIOR``,
rate ``PRIOR``: about ``PRIOR`` virtual wins, mode 1), as Caron and Doucet (2012) do for
Hunter's (2004) MM algorithm: the plain maximum-likelihood estimate does not exist when an
agent never wins or never loses (its strength runs off to infinity), and the prior keeps it
finite while weighing as little as half a game.

Ratings are shown as Elo points: ``400 * log10(w)``, so that between two seats the chance of
finishing ahead is ``1 / (1 + 10 ** (-difference / 400))`` as in chess; then shifted so that the
anchor agent (``random`` where it plays) is at 0.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: virtual wins of the Gamma prior on each strength (see the module docstring)
PRIOR = 0.5
#: Elo points per natural-log unit of strength: 400 / ln(10)
ELO = 400.0 / math.log(10.0)
#: the fit stops when no log-strength moves more than this in a step
TOLERANCE = 1e-9
#: ... or after this many steps
MAX_ITERATIONS = 100

Floats = npt.NDArray[np.float64]

#: a finishing order: groups of agent numbers, best first; the seats of a group share a place
Order = Sequence[Sequence[int]]


@dataclass(frozen=True)
class Stages:
    """The orders of a set of games, cut into the choices the model makes: stage ``s`` of game
    ``game[s]`` picks the agents counted in ``chosen[s]`` from those counted in ``race[s]``
    (both arrays: stages x agents, seat counts)."""

    race: Floats
    chosen: Floats
    game: npt.NDArray[np.int64]
    games: int

    @classmethod
    def of(cls, orders: Sequence[Order], agents: int) -> Stages:
        race: list[list[float]] = []
        chosen: list[list[float]] = []
        game: list[int] = []
        for g, order in enumerate(orders):
            left = [0.0] * agents
            for group in order:
                for a in group:
                    left[a] += 1
            for group in order:
                if len(group) == 1 and sum(left) == 1:
                    break  # the last seat alone: no choice is made
                picked = [0.0] * agents
                for a in group:
                    picked[a] += 1
                race.append(list(left))
                chosen.append(picked)
                game.append(g)
                for a in group:
                    left[a] -= 1
        shape = (len(race), agents)
        return cls(
            np.array(race, dtype=np.float64).reshape(shape),
            np.array(chosen, dtype=np.float64).reshape(shape),
            np.array(game, dtype=np.int64),
            len(orders),
        )


def fit(
    stages: Stages,
    weights: Floats | None = None,
    start: Floats | None = None,
    prior: float = PRIOR,
) -> Floats:
    """The log-strengths (natural log, one per agent) that maximise the likelihood of the
    stages' games (each counted ``weights[g]`` times: a bootstrap's resample) times the prior:
    Newton's method on the log-strengths, whose log-posterior is concave (strictly, thanks to
    the prior), with step halving should a step not raise it. ``start``: log-strengths to
    start from (a fit of nearly the same games converges in a few steps)."""
    agents = stages.race.shape[1]
    per_stage = np.ones(len(stages.game)) if weights is None else weights[stages.game]
    wins = per_stage @ stages.chosen
    size = stages.chosen.sum(axis=1) * per_stage  # t, the tied seats picked at a stage
    theta = np.zeros(agents) if start is None else start.copy()

    def value(t: Floats) -> float:
        total = stages.race @ np.exp(t)
        inside = size > 0
        return float(
            wins @ t - size[inside] @ np.log(total[inside]) + prior * np.sum(t - np.exp(t))
        )

    current = value(theta)
    for _ in range(MAX_ITERATIONS):
        w = np.exp(theta)
        share = stages.race * w / (stages.race @ w)[:, None]  # p[s, i]: i's chance at stage s
        gradient = wins - size @ share + prior * (1.0 - w)
        hessian = (share * size[:, None]).T @ share - np.diag(size @ share + prior * w)
        step = np.linalg.solve(hessian, -gradient)
        scale = 1.0
        while True:
            tried = theta + scale * step
            found = value(tried)
            if found >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        moved = float(np.max(np.abs(tried - theta))) if agents else 0.0
        theta, current = tried, found
        if moved < TOLERANCE:
            break
    return theta


def elo(theta: Floats, anchor: int) -> Floats:
    """Log-strengths as Elo points, the ``anchor`` agent at 0."""
    points: Floats = ELO * (theta - theta[anchor])
    return points


def places(keys: Sequence[Hashable], winners: Sequence[int]) -> list[list[int]]:
    """A finished game's finishing order as groups of seats, best first: the game's own
    winners (they share first place), then the other seats by ``keys[seat]`` (score, then
    tie-breakers: higher is better), seats with equal keys sharing a place."""
    first = sorted(winners)
    rest = [p for p in range(len(keys)) if p not in first]
    groups: dict[Hashable, list[int]] = {}
    for p in sorted(rest, key=lambda p: keys[p], reverse=True):  # type: ignore[arg-type,return-value]
        groups.setdefault(keys[p], []).append(p)
    return ([first] if first else []) + list(groups.values())


@dataclass(frozen=True)
class Rating:
    """One agent's rating: Elo points and the bootstrap's 95% interval."""

    points: float
    low: float
    high: float


@dataclass(frozen=True)
class Fitted:
    """A fit with its uncertainty: each agent's :class:`Rating`, the resamples it came from,
    and the share of random 1% drops of games after which the top places keep their order."""

    ratings: list[Rating]
    anchor: int
    resamples: int
    #: the top agents whose order the stability figure checks (at most ``TOP``), best first
    top: list[int]
    #: the share of drops after which ``top`` stays in the same order at the top
    stability: float
    drops: int


#: the stability figure checks the order of this many agents at the top
TOP = 3
#: the share of games dropped in each test of stability
DROP = 0.01


def rate(
    stages: Stages,
    anchor: int | None,
    seed: int,
    resamples: int = 200,
    drops: int = 200,
    strata: Sequence[int] | None = None,
) -> Fitted:
    """Fit, anchor (``None``: the lowest-rated agent), and measure the uncertainty: a
    percentile bootstrap over games (``resamples`` resamples of the games with replacement,
    within each stratum: ``strata[g]``, e.g. the game's title, so that every title keeps its
    share), and ``drops`` refits each without a random 1% of the games (at least one). Both
    are drawn from ``numpy.random.default_rng(seed)``: the same seed gives the same figures."""
    agents = stages.race.shape[1]
    theta = fit(stages)
    if anchor is None:
        anchor = int(np.argmin(theta))
    points = elo(theta, anchor)
    rng = np.random.default_rng(seed)
    groups = _strata(stages.games, strata)
    samples = np.empty((resamples, agents))
    for b in range(resamples):
        weights = np.zeros(stages.games)
        for members in groups:
            picked = rng.choice(members, size=len(members), replace=True)
            np.add.at(weights, picked, 1.0)
        samples[b] = elo(fit(stages, weights, start=theta), anchor)
    if resamples:
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    else:
        low = high = points
    top = [int(a) for a in np.argsort(-points, kind="stable")[: min(TOP, agents)]]
    kept = 0
    dropped = max(1, round(DROP * stages.games))
    for _ in range(drops):
        weights = np.ones(stages.games)
        weights[rng.choice(stages.games, size=dropped, replace=False)] = 0.0
        again = fit(stages, weights, start=theta)
        order = [int(a) for a in np.argsort(-again, kind="stable")[: len(top)]]
        kept += order == top
    ratings = [
        Rating(float(p), float(lo), float(hi)) for p, lo, hi in zip(points, low, high, strict=True)
    ]
    return Fitted(ratings, anchor, resamples, top, kept / drops if drops else 1.0, drops)


def _strata(games: int, strata: Sequence[int] | None) -> list[npt.NDArray[np.int64]]:
    if strata is None:
        return [np.arange(games)]
    found: dict[int, list[int]] = {}
    for g, s in enumerate(strata):
        found.setdefault(s, []).append(g)
    return [np.array(members, dtype=np.int64) for members in found.values()]
