"""Plain words for the roll-and-write sheet games, for people who never read the rulebook: the
names of the sheet's parts (``Backpack in Leather``), the texts of the cards (``card NAME`` in
the terminal, the tips of the web board) and where a card's or a row's data came from.

The sheet's parts as the rulebooks name them: Merchants of Magick, GAME OVERVIEW ("you'll craft
accessories, weapons, and armor from leather, wood, and steel ... research spells"); Ye Olde
Magick Shoppe, HOW TO PLAY ("Crafting is further subdivided into 3 categories of items ... as
well as 3 crafting materials"). No rule is decided here.

The phrasing is shared; each game supplies its own names in a :class:`SheetWords` (Orders or
Customers, Coins or stars, Potions or Bonus Modifiers...), kept with its content.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from rulebook.core.sheet import Layout
from rulebook.core.words import plural


@dataclass(frozen=True)
class SheetWords:
    """A sheet game's own names, in the rulebook's words."""

    #: what a row or a card is worth, in the singular (``Coin``, ``star``)
    value: str
    #: each deck's card, by the card's kind: ``{"order": "Order"}``
    cards: Mapping[str, str]
    #: a circle of the sheet and circles (``circle``; the prototype's checkboxes: ``box``)
    circle: str
    circles: str
    #: the simultaneous phase a seat ends with ``done`` (``crafting and research``)
    phase: str
    #: one Extra Dice box and more (``Extra Dice slot``, ``Extra Dice slots``)
    extra: str
    extras: str
    #: what a paid Extra Dice box costs, in the singular (``Potion``; empty when none costs)
    extra_unit: str
    #: why a seat marks a circle for free (``a Sponsored Adventurer reward``)
    free_mark: str
    #: how a result may be changed, a sentence (``Each Potion raises or lowers a result by 1.``)
    modify: str
    #: the mastery cards' kinds (``{"material": "Material Mastery"}``) and their two values,
    #: higher first (``("Master side", "Apprentice side")``)
    mastery: Mapping[str, str]
    sides: tuple[str, str]
    #: the mastery cards together, as a heading (``Masteries``; ``Certifications``)
    masteries: str
    #: each scoring category of the game's ``score_breakdown``: its name on the score pad
    #: (``Completed Orders``) and what it counts, in plain words (``State.score_notes``)
    scoring: Mapping[str, tuple[str, str]]


class Provenance(Protocol):
    """Where a data entry's values come from (:class:`rulebook.core.data.Sourced`)."""

    @property
    def source(self) -> str: ...
    @property
    def why(self) -> str: ...
    @property
    def authored(self) -> dict[str, str]: ...


# -- names -----------------------------------------------------------------------------------
def titled(name: str) -> str:
    """A data id as a name: ``plate-armor`` -> ``Plate Armor``, ``of-the-elves`` -> ``Of the
    Elves`` (the first letter always capitalised)."""
    words = [w if w in ("of", "the") else w.capitalize() for w in name.replace("_", "-").split("-")]
    text = " ".join(w for w in words if w)
    return text[:1].upper() + text[1:]


def row_kind(category: str) -> str:
    """One row of ``category`` as the tips name it: ``Weapon``, ``Charm``; a spell's
    ``Prefix Enchantment``, ``Suffix Enchantment``."""
    return (
        f"{titled(category)} Enchantment" if category in ("prefix", "suffix") else titled(category)
    )


def listed(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def row_said(name: str) -> str:
    """A row's name inside a sentence: a suffix Enchantment is quoted (``“of the Elves”``), as
    the rulebooks quote it; others as they are (``Greaves``, ``Potion Supplier``)."""
    return name if name[:1].isupper() else f"“{name}”"


def circle_said(layout: Layout, index: int) -> str:
    """A circle by its row and column: ``Greaves in Steel``."""
    circle = layout.circles[index]
    return f"{row_said(layout.rows[circle.row].name)} in {titled(layout.columns[circle.column].id)}"


def item_said(layout: Layout, item: str, enchantments: Sequence[str]) -> str:
    """An item with its enchantments as the cards name it: prefixes before the item, suffixes
    after (``Fiery Ring``, ``Ring of the Elves``, ``Everlasting Pendant of the Elves``)."""
    rows = layout.row_by_id
    before = [rows[e].name for e in enchantments if rows[e].category != "suffix"]
    after = [rows[e].name for e in enchantments if rows[e].category == "suffix"]
    return " ".join([*before, rows[item].name, *after])


def threshold_said(at_least: bool, threshold: int) -> str:
    """What a circle asks of a result: ``7 or more`` (crafting), ``6 or less`` (research)."""
    return f"{threshold} or {'more' if at_least else 'less'}"


def dice_said(dice: Sequence[str]) -> str:
    """``the d6``, ``the d8 or the d10``."""
    return listed([f"the {d}" for d in dice], "or")


# -- where data came from --------------------------------------------------------------------
#: a parenthesis of a data file's reason that points at the project's files, not for players
_FILES = re.compile(r"\s*\([^()]*(README|\.toml|docs/|\brun )[^()]*\)")
#: the longest reason shown whole (longer ones: their first clause)
LONGEST_REASON = 320


def _for_players(reason: str, whole: bool) -> str:
    """A data file's one-line reason as a player reads it: without pointers to the project's
    files, "the text" called the rulebook; the first clause only unless ``whole`` (and short)."""
    text = _FILES.sub("", reason).replace("the text", "the rulebook").strip().rstrip(".")
    if not whole or len(text) > LONGEST_REASON:
        depth = 0
        for i, ch in enumerate(text):  # the first ";" outside parentheses
            depth += (ch == "(") - (ch == ")")
            if ch == ";" and depth == 0:
                return text[:i].strip()
    return text


#: data fields as a player names them, in :func:`source_note`
FIELDS = {
    "coins": "Coins",
    "master": "higher value",
    "apprentice": "lower value",
    "circles": "circles",
    "glyph_stars": "stars per item",
    "extra_dice_costs": "Extra Dice costs",
    "below": "title below the table",
}


def source_note(entry: Provenance, fields: Mapping[str, str] = FIELDS) -> str:
    """Where an entry's values come from, for a player: empty for the rulebook's own; else
    ``Authored for this project: ...`` (a whole entry the rulebook lacks, with the first
    clause of its reason), ``From public sources, not the rulebook.``, and each authored value
    named by ``fields`` (other names with spaces for underscores)."""
    names = fields
    notes = []
    if entry.source == "authored":
        why = _for_players(entry.why, whole=True) if entry.why.strip() else "not in the rulebook"
        notes.append(f"Authored for this project: {why}.")
    elif entry.source == "public":
        notes.append("From public sources, not the rulebook.")
    if entry.authored and entry.source != "authored":
        values = [
            f"its {names.get(k, k.replace('_', ' '))} ({_for_players(why, whole=False)})"
            for k, why in entry.authored.items()
        ]
        notes.append(f"Authored for this project: {listed(values)}.")
    return " ".join(notes)


def with_note(text: str, note: str) -> str:
    """A text and its source note on a line of its own (the tips keep line breaks)."""
    return f"{text}\n{note}" if note else text


# -- card texts (``card NAME``, the board's tips) --------------------------------------------
def customer_text(
    words: SheetWords, layout: Layout, kind: str, item: str, enchantments: Sequence[str], value: int
) -> str:
    """A customer card: the rows it asks for, how it is claimed, what it pays."""
    rows = [row_said(layout.row_by_id[r].name) for r in (item, *enchantments)]
    return (
        f"{words.cards[kind]}: complete the {listed(rows)} rows of your sheet while this card "
        f"is face-up in your shoppe, and you claim it for {plural(value, words.value)}."
    )


def mastery_text(
    words: SheetWords, layout: Layout, kind: str, column: int, circles: int, high: int, low: int
) -> str:
    """A mastery card: what it asks, its two sides, who scores which."""
    higher, lower = words.sides
    name = titled(layout.columns[column].id)
    return (
        f"{words.mastery[kind]}: mark {plural(circles, words.circle, words.circles)} in the "
        f"{name} column. Whoever does it first (everyone who does in that same round) scores "
        f"its {higher}, {plural(high, words.value)}; later it pays its {lower}, "
        f"{plural(low, words.value)}. Each seat scores it once; solo, only the {lower} counts."
    )
