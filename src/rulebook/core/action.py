"""What a move is, for every game (re-exported by :mod:`rulebook.core.state`).

Its own module so that the compiled modules (``rulebook.compiled``) can derive their moves from
it compiled, while every other game's moves derive from it as they are. Besides :class:`Action`
it holds what search asks of moves again and again, written once for every game: a move known
by its fields, hashed once (:class:`KeyedAction`), and a table that makes each move once
(:class:`Interned`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar, cast

from mypy_extensions import i64, mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)
class Action:
    """A move: a small immutable value whose ``str`` is its stable text form.

    Games define actions as frozen dataclasses deriving from this class; ``str(action)`` is
    what logs, save files, the terminal and the web API use, and
    ``state.parse_action(player, str(action)) == action`` always holds.
    """

    __slots__ = ()


@mypyc_attr(allow_interpreted_subclasses=True)
class KeyedAction(Action):
    """A move known by its fields: equal to a move of the same type with the same fields,
    hashed as the tuple of its fields, that hash worked out once (search bots look moves up in
    their trees and tables again and again), and pickled as its fields (the hash of a string
    differs between processes, so it is worked out again on loading).

    A game declares its moves as ``@dataclass(frozen=True, slots=True, eq=False)`` classes
    deriving from this one: ``eq=False`` keeps this class's equality and hash (the dataclass's
    own would be Python, and hash the fields at every lookup). A hand-built move whose fields
    cannot be hashed (a list given for a text) is still a move, equal to a move with equal
    fields, and raises ``TypeError`` when hashed, as a dataclass would (:func:`hashable`
    asks).
    """

    # no __slots__: the defaults below are class attributes in Python. They are what a move
    # without fields keeps (compiled, its construction does not call __post_init__)
    #: the move's fields, in their declared order
    _key: tuple[object, ...] = ()
    #: ``hash(_key)`` worked out once; ``None`` when it is not (no fields, or unhashable ones)
    _hash: int | None = None
    #: the same hash as a machine integer (0 when ``_hash`` is ``None``), compared first by
    #: :meth:`__eq__`: moves of a list that differ mostly differ there
    _code: i64 = 0

    def __post_init__(self) -> None:
        """Remember the fields and their hash (the dataclass's ``__init__`` calls this)."""
        key = tuple(getattr(self, name) for name in getattr(type(self), "__match_args__", ()))
        object.__setattr__(self, "_key", key)
        if key and hashable(key):
            known = hash(key)
            object.__setattr__(self, "_hash", known)
            object.__setattr__(self, "_code", known)

    def __hash__(self) -> int:
        known = self._hash
        return hash(self._key) if known is None else known  # raises when a field is unhashable

    def __eq__(self, other: object) -> bool:
        """The same type and the same fields."""
        if type(other) is not type(self):
            return NotImplemented
        # compiled, the cast checks the type faster than mypy's narrowing does
        same = cast(KeyedAction, other)  # type: ignore[redundant-cast]
        return self is same or (self._code == same._code and self._key == same._key)

    def __reduce__(self) -> tuple[type[KeyedAction], tuple[object, ...]]:
        """Pickled as its type and fields."""
        return (type(self), self._key)


def hashable(action: object) -> bool:
    """Whether a move can be looked up in a table (a hand-built one may hold lists or dicts)."""
    try:
        hash(action)
    except TypeError:
        return False
    return True


K = TypeVar("K", bound=KeyedAction)


class Interned(Generic[K]):
    """Moves of two text fields (a verb and what it names, a die and a circle...), each made
    once: listing moves then makes none (search lists them position after position), and the
    very same object is found at once in a search tree or a table (an identity check, before
    any comparison)."""

    def __init__(self, make: Callable[[str, str], K], *made: K) -> None:
        self._make = make
        self._by: dict[str, dict[str, K]] = {}
        for known in made:
            first, second = known._key
            assert isinstance(first, str) and isinstance(second, str)
            self._by.setdefault(first, {})[second] = known

    def get(self, first: str, second: str = "") -> K:
        """The move ``make(first, second)``, made the first time it is asked for."""
        by_second = self._by.get(first)
        if by_second is None:
            by_second = self._by[first] = {}
        found = by_second.get(second)
        if found is None:
            found = by_second[second] = self._make(first, second)
        return found
