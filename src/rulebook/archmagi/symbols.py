"""Archmagi's cards as the rules read them (SPELLS, MONSTERS) and the SYMBOLS GUIDE in words.

SPELLS: "Any Magi can use the Top Action of any Spell"; "Bottom Actions of Spells can only be
used by Magi of that specific Element"; each Spell shows the Round it is added and the player
count it needs. An Action is a row of symbols (SYMBOLS GUIDE: Draw, Draft, Discard, Search,
Plant, Uproot, Gain Crystals, Spend Crystals), each an :class:`Effect`; a Monster shows its
Tier, its Cost to Defeat, its Reward and its Favor Points.

Built from the data files by :mod:`rulebook.archmagi.content` (which validates them); a module
of their own so that they are compiled with the rules (``rulebook.compiled``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulebook.core.words import plural

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


#: each symbol in plain words, as an instruction (:func:`effect_words` fills it in)
EFFECT_WORDS = {
    "gain": "gain {crystals}",
    "spend": "spend {crystals}",
    "plays": "gain {more_plays}",
    "draw": "draw {spells} from the Magic Pool",
    "draft": "draft {spells} from {your} Spell Book onto the discard pile",
    "discard": "discard {spells} from {your} Hand",
    "plant": "plant {spells} from {your} Hand",
    "uproot": "uproot {planted}",
    "search": "look at {top} of the Magic Pool and take one into {your} Hand",
    "look_draft": "look at {top} of {your} Spell Book, draft one, then shuffle {your} Spell Book",
}


def effect_words(e: Effect, own: bool = True) -> str:
    """One symbol in plain words, as an instruction (SYMBOLS GUIDE): ``gain 2 Crystals``,
    ``draw 1 Spell from the Magic Pool``; ``own``: told to its seat (``your Hand``), else of it
    (``their Hand``). A "you may" tells its group: ``you may uproot 1 Planted Spell and then
    gain 2 Crystals``."""
    if e.kind == "may":
        then = " and then ".join(effect_words(x, own) for x in e.then)
        return f"{'you' if own else 'they'} may {then}"
    n = e.n
    return EFFECT_WORDS[e.kind].format(
        crystals=plural(n, "Crystal"),
        more_plays=plural(n, "more Play", "more Plays"),
        spells=plural(n, "Spell"),
        planted=plural(n, "Planted Spell"),
        top=f"the top {plural(n, 'Spell')}" if n > 1 else "the top Spell",
        your="your" if own else "their",
    )


def effects_words(effects: Sequence[Effect], own: bool = True) -> str:
    """An Action's symbols in plain words, left to right: ``gain 1 Crystal, then draw ...``."""
    return ", then ".join(effect_words(e, own) for e in effects) or "nothing"
