"""How a game may be set up: its variants and their player counts, its options, and the
:class:`Setup` of one game (the start of every save file).

The :class:`~rulebook.core.state.Game` these describe, and the
:class:`~rulebook.core.state.State` it creates, are in :mod:`rulebook.core.state`: a game makes
states and each state keeps the game that made it, so the two are declared together (as
OpenSpiel's ``spiel.h`` declares its ``Game`` and ``State``). Game packages register
themselves with :func:`rulebook.core.registry.register_package`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook.core.errors import SetupError

#: a heading's anchor in a how-to-play (``## Playing solo {#solo}``)
ANCHOR = re.compile(r"[ \t]*\{#[a-z0-9-]+\}[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Variant:
    """A way to play a game (standard, solo, family, ...) and the player counts it allows."""

    name: str
    min_players: int
    max_players: int
    description: str = ""
    #: a solo variant played against the game itself ("the Trolls"): the seat wins only by
    #: beating it, so ``winners()`` is empty when it loses (see ``State.opponent_breakdown``)
    opponent: str = ""


@dataclass(frozen=True)
class Option:
    """A setup option of a variant, such as a difficulty level.

    Its values are either listed (``choices``) or, when there are too many to list, given by a
    ``rule`` in words with a ``check`` that turns a value into its canonical form or raises
    ``ValueError`` saying what is wrong (Archmagi's Magi: any order of any of the four).
    Values are accepted in any case.
    """

    name: str
    choices: tuple[str, ...]
    default: str
    variants: tuple[str, ...] = ()  # the variants that take it; empty means all
    description: str = ""
    #: the valid values in words, for options whose values are not listed in ``choices``
    rule: str = ""
    #: a value (as typed) -> its canonical form; ``ValueError`` saying what is wrong
    check: Callable[[str], str] | None = None

    def accepts(self) -> str:
        """What the option accepts, in words: the rule, or the choices."""
        return self.rule or f"one of {', '.join(self.choices)}"

    def value(self, given: object) -> str:
        """The canonical form of a value given for this option; :class:`SetupError` naming
        what is expected and what was wrong."""
        if not isinstance(given, str):
            raise SetupError(f"option {self.name} takes text ({self.accepts()}), not {given!r}")
        text = given.strip()
        if self.check is not None:
            try:
                return self.check(text)
            except ValueError as exc:
                raise SetupError(
                    f"option {self.name}={given}: {exc}; expected {self.accepts()}"
                ) from None
        for choice in self.choices:
            if choice.lower() == text.lower():
                return choice
        raise SetupError(f"option {self.name} must be {self.accepts()}, not {given!r}")

    def values(self) -> tuple[str, ...]:
        """The values to try when every setting is covered (strength tables): the choices,
        or the default alone for an option given by a rule."""
        return self.choices or (self.default,)


@dataclass(frozen=True)
class Setup:
    """Everything needed to recreate a game's initial state: the start of every save file."""

    game: str
    players: int
    seed: int
    variant: str
    options: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Every field by its name (in their order), the options as a plain dict."""
        return {**vars(self), "options": dict(self.options)}


def tallied(tally: Mapping[str, int], *names: str) -> dict[str, float]:
    """The counters ``names`` of a seat's tally as :attr:`Game.counters` gives them (0 for a
    name never counted), in that order."""
    return {name: float(tally.get(name, 0)) for name in names}
