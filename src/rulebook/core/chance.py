"""Seeded chance: every die and shuffle of a game comes from here.

The state owns a :class:`Chance`, which is two integers: the seed and the number of chance
events drawn so far. Each event gets its own generator seeded from both, so cloning and saving a
state costs nothing, and the same seed with the same actions always gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from rulebook.core.draws import mix, roll_reserved, shuffle_list

T = TypeVar("T")


def reorder(items: list[int], rng: random.Random | None) -> None:
    """Shuffle ``items`` with ``rng`` (:func:`shuffle`), or with ``None`` sort them: the one
    order :meth:`State.canonical` lays what a seat cannot see in."""
    if rng is None:
        items.sort()
    else:
        shuffle_list(items, rng)


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """``rng.shuffle(items)``, the very same permutation from the very same draws, faster
    (:func:`~rulebook.core.draws.shuffle_list` for a list, which may run compiled)."""
    if type(items) is list:
        shuffle_list(items, rng)
        return
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
        return random.Random(mix(self.seed, self.draws))

    def roll(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        """Roll one die per entry of ``sides`` at once: ``rng.randint(1, s)`` for each, the
        very same numbers from the very same draws, with CPython 3.11's ``_randbelow``
        inlined as in :func:`shuffle` (``tests/test_speed.py`` holds it to ``randint``)."""
        self.draws += 1
        return roll_reserved((self.seed, self.draws), sides)

    def reserve(self) -> tuple[int, int] | None:
        """Take the next chance event now and draw it later, when it is read: the event, for
        :func:`roll_reserved` (which rolls what :meth:`roll` would have rolled here). A game
        state that may never read a roll (a search's lookahead ending a round) so skips
        making its generator. ``None`` from a source that must draw its events in order
        (:class:`ScriptedChance`): roll at once then."""
        self.draws += 1
        return (self.seed, self.draws)

    def shuffle(self, items: MutableSequence[T]) -> None:
        shuffle(items, self.rng())

    def copy(self) -> Chance:
        return Chance(self.seed, self.draws)

    def reseeded(self, rng: random.Random) -> Chance:
        """A chance source whose future draws are re-sampled from ``rng`` (for determinizing)."""
        return Chance(rng.getrandbits(63), 0)


# -- chance driven from outside ----------------------------------------------------------------
class ChanceNeeded(Exception):
    """Raised by a :class:`ScriptedChance` whose script has no outcome left for a draw.

    ``outcomes`` is the number of equally likely outcomes of the draw asked for."""

    def __init__(self, outcomes: int) -> None:
        super().__init__(f"a chance event with {outcomes} outcomes has no scripted outcome")
        self.outcomes = outcomes


class _ScriptedRandom(random.Random):
    """A generator whose every whole number comes from a :class:`ScriptedChance`.

    Every die roll (``randint``), shuffle, ``randrange`` and ``choice`` of the standard library
    reduces to uniform draws among ``n`` (``_randbelow``, the documented way for a subclass to
    supply integers); a shuffle of ``n`` items is ``n - 1`` such draws (Fisher-Yates)."""

    def __init__(self, source: ScriptedChance) -> None:
        super().__init__(0)
        self._source = source

    def _randbelow(self, n: int) -> int:
        return self._source.draw(n)

    def random(self) -> float:
        raise TypeError("a scripted chance event draws whole numbers only")


class ScriptedChance(Chance):
    """Chance whose outcomes are given from outside, one uniform draw at a time.

    Every chance event of a game (a die, a step of a shuffle) is a draw among ``n`` equally
    likely outcomes ``0 .. n-1``; a die of ``s`` sides showing ``k + 1`` is outcome ``k``.
    The draws are taken from :attr:`script` in order; when it runs out, the draw raises
    :class:`ChanceNeeded` with its ``n``, so an interface with explicit chance nodes (such as
    OpenSpiel's) can stop a move there, ask for the outcome and play the move again with it.
    :attr:`sizes` records the ``n`` of every draw taken.
    """

    __slots__ = ("script", "sizes", "used")

    def __init__(self, script: Sequence[int] = (), seed: int = 0, draws: int = 0) -> None:
        super().__init__(seed, draws)
        self.script = list(script)
        self.used = 0
        self.sizes: list[int] = []

    def draw(self, n: int) -> int:
        """The next scripted outcome of a draw among ``n``."""
        if self.used >= len(self.script):
            raise ChanceNeeded(n)
        k = self.script[self.used]
        if not 0 <= k < n:
            raise ValueError(f"chance outcome {k} is not one of 0-{n - 1}")
        self.used += 1
        self.sizes.append(n)
        return k

    def rng(self) -> random.Random:
        self.draws += 1
        return _ScriptedRandom(self)

    def reserve(self) -> tuple[int, int] | None:
        """None: a scripted event is drawn when it happens, in order (:meth:`Chance.reserve`)."""
        return None

    def roll(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        """Each die through ``randint`` (so through ``_randbelow``: from the script)."""
        rng = self.rng()
        return tuple(rng.randint(1, s) for s in sides)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """A Fisher-Yates shuffle through ``_randbelow`` (the standard library's), so each of
        its ``len(items) - 1`` draws is taken from the script (the fast :func:`shuffle` draws
        bits directly and would bypass it)."""
        self.rng().shuffle(items)

    def copy(self) -> ScriptedChance:
        """A fresh scripted source (a copy starts with an empty script: its future is open)."""
        return ScriptedChance((), self.seed, self.draws)


_SCRIPTED: ContextVar[ScriptedChance | None] = ContextVar("scripted_chance", default=None)


def new_chance(seed: int) -> Chance:
    """The chance source of a new game state: seeded, or the scripted one of :func:`scripted`."""
    chance = _SCRIPTED.get()
    return Chance(seed) if chance is None else chance


@contextmanager
def scripted(chance: ScriptedChance) -> Iterator[ScriptedChance]:
    """Create game states inside this block with ``chance`` as their chance source, so even
    the setup's shuffles and rolls are drawn from its script."""
    token = _SCRIPTED.set(chance)
    try:
        yield chance
    finally:
        _SCRIPTED.reset(token)
