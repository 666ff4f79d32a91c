"""The arithmetic of chance events: a shuffle's and a roll's draws from a generator.

Its own module so that it can be compiled (``rulebook.compiled``): :mod:`rulebook.core.chance`
cannot be (its scripted generator derives from ``random.Random``) and re-exports these. Search
bots shuffle the hidden cards of every sample they search (``State.determinize``), and games
roll dice at every round they look into.
"""

from __future__ import annotations

import _random
import hashlib
import random
from typing import TypeVar

T = TypeVar("T")


def mix(seed: int, draw: int) -> int:
    """The seed of chance event number ``draw`` of a game seeded ``seed``."""
    digest = hashlib.blake2b(f"{seed}:{draw}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def shuffle_list(items: list[T], rng: random.Random) -> None:
    """``rng.shuffle(items)``, the very same permutation from the very same draws, faster.

    It is CPython 3.11's ``Random.shuffle`` with ``_randbelow`` inlined (a Fisher-Yates
    shuffle drawing each index with ``getrandbits``, redrawing when out of range);
    ``tests/test_speed.py`` holds it to ``rng.shuffle``.
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def roll_reserved(event: tuple[int, int], sides: tuple[int, ...]) -> tuple[int, ...]:
    """The roll of chance event ``event`` (``(seed, draw)``, from ``Chance.reserve``): one die
    per entry of ``sides``, ``rng.randint(1, s)`` each from the event's generator, the very
    same numbers from the very same draws with CPython 3.11's ``_randbelow`` inlined
    (``tests/test_speed.py`` holds it to ``randint``). The generator is made with
    ``_random``'s constructor, which seeds a whole number exactly as ``random.Random`` does
    without going through its Python-level ``seed``."""
    getrandbits = _random.Random(mix(event[0], event[1])).getrandbits
    rolled = []
    for n in sides:
        k = n.bit_length()
        r: int = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        rolled.append(r + 1)
    return tuple(rolled)
