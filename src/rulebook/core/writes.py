"""What the fast encoders write into a batch of observation rows (compiled, see
:mod:`rulebook.compiled`): :class:`Writes` collects, for every row of a batch, the amounts, the
ones and the runs of values a :class:`~rulebook.core.spaces.DirectEncoder` reads from a state,
and writes them all with a few NumPy calls (one assignment for thousands of positions is much
cheaper than one each). One is kept per encoder and cleared between batches, so a step
allocates no lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rulebook.core.errors import RulebookError


class Writes:
    """The positions of a batch (offset by each row's start) and what they hold: each amount
    at ``where[j]`` is ``values[j]``, each run ``(start, array)`` of ``chunks`` is written at
    ``start`` (a position at most once among them), each position of ``ones`` holds 1 (written
    after the amounts)."""

    def __init__(self) -> None:
        self.where: list[int] = []
        self.values: list[float] = []
        self.ones: list[int] = []
        self.chunks: list[tuple[int, Any]] = []

    def clear(self) -> None:
        self.where.clear()
        self.values.clear()
        self.ones.clear()
        self.chunks.clear()

    def amount(self, at: int, value: float) -> None:
        """``value`` at position ``at``."""
        self.where.append(at)
        self.values.append(value)

    def hot(self, start: int, size: int, index: int) -> None:
        """A 1 at ``start + index``, for a one-hot part of ``size`` values at ``start``."""
        if not 0 <= index < size:
            raise RulebookError(f"value {index!r} is outside a part of {size}")
        self.ones.append(start + index)

    def count(
        self, places: Sequence[int], cards: Iterable[int], start: int, sums: list[float]
    ) -> None:
        """Cards given by number counted per place (``places[card]``), as ``fill`` counts
        copies one ``out[i] += step`` at a time (``sums[k]``: ``k`` of them, :func:`sums`):
        each place's count at ``start + place``."""
        counted: dict[int, int] = {}
        for card in cards:
            i = places[card]
            counted[i] = counted.get(i, 0) + 1
        for i, k in counted.items():
            self.where.append(start + i)
            self.values.append(sums[k])

    def seats(
        self,
        at_seat: list[dict[str, int]],
        you: int,
        base: int,
        current: Sequence[int],
        winners: Sequence[int],
    ) -> list[tuple[int, dict[str, int]]]:
        """Each seat in relative order from ``you`` with its slots (``at_seat``), having
        marked the ``to_act`` slot of each seat in ``current`` and the ``winner`` slot of each
        of ``winners`` (the row at ``base``)."""
        n = len(at_seat)
        order: list[tuple[int, dict[str, int]]] = []
        for k in range(n):
            p = (you + k) % n
            at = at_seat[k]
            if p in current:
                self.ones.append(base + at["to_act"])
            if p in winners:
                self.ones.append(base + at["winner"])
            order.append((p, at))
        return order

    def write(self, flat: Any) -> None:
        """Write everything listed into ``flat`` (the batch's rows, one after the other, zeros
        where nothing is listed)."""
        for start, chunk in self.chunks:
            flat[start : start + len(chunk)] = chunk
        if self.where:
            flat[self.where] = self.values
        if self.ones:
            flat[self.ones] = 1.0


def sums(step: float, most: int) -> list[float]:
    """``k`` times ``step`` added one at a time into a ``float32`` (``out[i] += step``, as
    ``fill`` counts copies), for ``k`` in ``0 .. most``: a count's value in one lookup, the
    very same number."""
    cell = np.zeros(1, np.float32)
    made = [0.0]
    for _ in range(most):
        cell[0] += step
        made.append(float(cell[0]))
    return made
