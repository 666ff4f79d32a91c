"""Seeded chance: every die and shuffle of a game comes from here.

The state owns a :class:`Chance`, which is two integers: the seed and the number of chance
events drawn so far. Each event gets its own generator seeded from both, so cloning and saving a
state costs nothing, and the same seed with the same actions always gives the same game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


def _mix(seed: int, draw: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{draw}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """``rng.shuffle(items)``, the very same permutation from the very same draws, faster.

    It is CPython 3.11's ``Random.shuffle`` with ``_randbelow`` inlined (a Fisher-Yates
    shuffle drawing each index with ``getrandbits``, redrawing when out of range); search bots
    shuffle hidden cards on every iteration. ``tests/test_speed.py`` holds it to
    ``rng.shuffle``.
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class Chance:
    """The seeded source of randomness owned by one game state."""

    __slots__ = ("draws", "seed")

    def __init__(self, seed: int, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws

    def rng(self) -> random.Random:
        """A fresh generator for the next chance event (a roll of all dice, a shuffle)."""
        self.draws += 1
        return random.Random(_mix(self.seed, self.draws))

    def roll(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        """Roll one die per entry of ``sides`` at once."""
        rng = self.rng()
        return tuple(rng.randint(1, s) for s in sides)

    def shuffle(self, items: MutableSequence[T]) -> None:
        shuffle(items, self.rng())

    def copy(self) -> Chance:
        return Chance(self.seed, self.draws)

    def reseeded(self, rng: random.Random) -> Chance:
        """A chance source whose future draws are re-sampled from ``rng`` (for determinizing)."""
        return Chance(rng.getrandbits(63), 0)
