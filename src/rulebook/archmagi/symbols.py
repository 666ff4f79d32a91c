"""Archmagi's cards as the rules read them: an Action's symbols, Spells and Monsters.

Built from the data files by :mod:`rulebook.archmagi.content` (which validates them); a module
of their own so that they are compiled with the rules (``rulebook.compiled``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: the element of the Common Spells
COMMON = "common"


@dataclass(frozen=True, slots=True)
class Effect:
    """One symbol: ``kind`` and its number; ``then`` is the optional group of a "may"."""

    kind: str
    n: int
    then: tuple[Effect, ...] = ()

    def __reduce__(self) -> tuple[type[Effect], tuple[str, int, tuple[Effect, ...]]]:
        """Pickled as its fields (compiled, a frozen class cannot be pickled field by field)."""
        return (Effect, (self.kind, self.n, self.then))

    def text(self) -> str:
        if self.kind == "may":
            return "you may (" + ", ".join(e.text() for e in self.then) + ")"
        if self.kind == "look_draft":
            return f"look at {self.n} of your Spell Book, draft 1, reshuffle"
        words = {"gain": "gain {} crystal(s)", "spend": "spend {} crystal(s)", "plays": "+{} play"}
        return words.get(self.kind, self.kind + " {}").format(self.n)


@dataclass(frozen=True, slots=True)
class Spell:
    """A Spell (SPELLS): its element (or ``common``), which set it belongs to (SETUP, END OF
    ROUND), and its Top and Bottom Actions."""

    name: str
    element: str
    set: str
    round: int
    players: int
    top: tuple[Effect, ...]
    bottom: tuple[Effect, ...]

    def __reduce__(self) -> tuple[type[Spell], tuple[object, ...]]:
        """Pickled as its fields (compiled, a frozen class cannot be pickled field by field)."""
        fields = (self.name, self.element, self.set, self.round, self.players, self.top)
        return (Spell, (*fields, self.bottom))

    @property
    def common(self) -> bool:
        return self.element == COMMON


@dataclass(frozen=True, slots=True)
class Monster:
    """A Monster (MONSTER PHASE): its tier, what defeating it costs, its Reward and Favor."""

    name: str
    tier: int
    crystals: int
    spells: int
    reward: tuple[Effect, ...]
    favor: int

    def __reduce__(self) -> tuple[type[Monster], tuple[object, ...]]:
        """Pickled as its fields (compiled, a frozen class cannot be pickled field by field)."""
        fields = (self.name, self.tier, self.crystals, self.spells, self.reward, self.favor)
        return (Monster, fields)
