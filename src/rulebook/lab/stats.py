"""Statistics of the balance lab: confidence intervals and tests, standard library only.

* :func:`wilson` — the Wilson score interval of a proportion (Wilson 1927), which behaves at 0
  and 1 where the normal approximation does not;
* :func:`two_proportion_z` — the pooled two-proportion z-test;
* :func:`welch_t` — Welch's unequal-variance t-test with the Welch–Satterthwaite degrees of
  freedom, its p-value from Student's t distribution (:func:`student_t_sf`, through the
  regularised incomplete beta function);
* :func:`holm` — Holm's step-down correction of several p-values (Holm 1979): wherever a page
  shows several tests, only those whose corrected p-value stays below 0.05 are highlighted, so
  the chance that any highlighted line is a fluke stays below 5%;
* :func:`precision` — whether a run is too small for its intervals to mean much, read from the
  intervals themselves.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: the 97.5th percentile of the standard normal: two-sided 95% intervals
Z95 = 1.959963984540054
#: the significance level of every highlighted test (after :func:`holm`)
ALPHA = 0.05
#: the half-width (points of win rate) below which a run's intervals can tell the differences a
#: balance question is about (the lab's targets are within 5 points of even)
PRECISE = 5.0


def count(wins: float) -> str:
    """A count of wins, shared wins included: ``12``, ``91.1`` (never ``91.0833``)."""
    return f"{wins:.0f}" if wins == int(wins) else f"{wins:.1f}"


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``successes / n`` (95% by default).

    ``successes`` may be fractional (shared wins count 1/k each). The interval always holds
    the proportion; at 0 successes its lower bound is exactly 0 and at ``n`` its upper bound
    exactly 1 (the formula gives them in exact arithmetic; in floating point the difference
    of two nearly equal terms left a tiny positive lower bound, an interval not containing 0).
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}, not {successes}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes == n else max(p, min(1.0, centre + half))
    return (low, high)


@dataclass(frozen=True)
class Test:
    """The result of a two-sample test: the difference (b - a), its statistic and p-value."""

    difference: float
    statistic: float
    p_value: float

    @property
    def significant(self) -> bool:
        """Whether p < 0.05 on its own: one test alone (several: see :func:`holm`)."""
        return self.p_value < ALPHA


def two_proportion_z(x1: float, n1: int, x2: float, n2: int) -> Test:
    """Two-sided pooled z-test of p1 = p2 for ``x1/n1`` against ``x2/n2``."""
    if n1 <= 0 or n2 <= 0:
        raise ValueError("both samples need at least one trial")
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return Test(p2 - p1, 0.0, 1.0)
    z = (p2 - p1) / se
    return Test(p2 - p1, z, min(1.0, 2 * normal_sf(abs(z))))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * betainc(df / 2, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1 - tail


def welch_t(a: Sequence[float], b: Sequence[float]) -> Test:
    """Two-sided Welch t-test of mean(a) = mean(b)."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError("Welch's t-test needs at least two values per sample")
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    va, vb = statistics.variance(a, ma) / len(a), statistics.variance(b, mb) / len(b)
    if va + vb == 0:
        return Test(mb - ma, 0.0, 1.0 if ma == mb else 0.0)
    t = (mb - ma) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return Test(mb - ma, t, min(1.0, 2 * student_t_sf(abs(t), df)))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = z * statistics.stdev(values, mean) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def one_proportion_z(successes: float, n: int, p0: float) -> Test:
    """Two-sided z-test of a proportion against ``p0`` (e.g. a seat's win rate against
    1/players); ``difference`` is p - p0."""
    if n <= 0:
        raise ValueError("the sample needs at least one trial")
    p = successes / n
    se = math.sqrt(p0 * (1 - p0) / n)
    if se == 0:
        return Test(p - p0, 0.0, 1.0 if p == p0 else 0.0)
    z = (p - p0) / se
    return Test(p - p0, z, min(1.0, 2 * normal_sf(abs(z))))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the i-th smallest of ``m``
    p-values is multiplied by ``m - i`` (i from 0), kept at least as large as the adjusted
    p-value before it and at most 1. A test survives the correction when its adjusted p-value
    is below 0.05: the family-wise error rate (any false positive among them) stays below 5%."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class Precision:
    """How far a run's widest 95% win-rate interval reaches on either side of its rate (in
    points), whose it is, and the games of the run: about how many games would bring every
    interval within :data:`PRECISE` points follows (a half-width shrinks as one over the square
    root of the games, and every rate's games grow with the run's)."""

    half_width: float
    label: str
    games: int

    @property
    def small(self) -> bool:
        return self.half_width > PRECISE

    @property
    def games_needed(self) -> int:
        """The run's games times (half-width / 5 points) squared, rounded up to hundreds."""
        scale = (self.half_width / PRECISE) ** 2
        return math.ceil(self.games * scale / 100.0) * 100

    def note(self) -> str:
        """One sentence for a page or a terminal: empty when the intervals are narrow."""
        if not self.small:
            return ""
        return (
            f"Small run ({self.games} game{'' if self.games == 1 else 's'}): its widest 95% "
            f"interval ({self.label}) reaches ±{self.half_width:.1f} points around the win "
            "rate, too wide to tell the few points a balance question is about; about "
            f"{self.games_needed} games would bring every interval within ±{PRECISE:g} points."
        )


def precision(rates: Sequence[tuple[str, float, int]], games: int) -> Precision:
    """The widest 95% Wilson interval of ``(label, wins, trials)`` rates measured over a run
    of ``games`` games, as half its width in points. Nothing to measure is precise."""
    widest = Precision(0.0, "", games)
    for label, wins, n in rates:
        if n <= 0:
            continue
        low, high = wilson(wins, n)
        half = 50.0 * (high - low)
        if half > widest.half_width:
            widest = Precision(half, label, games)
    return widest
