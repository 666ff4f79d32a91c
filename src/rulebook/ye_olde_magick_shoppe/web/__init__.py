"""The Ye Olde Magick Shoppe board for the web app: the player sheet (shared roll-and-write
sheet, ``rulebook.core.rollwrite.web``) with this game's own printed parts: the Bonus
Modifier each row circles (Bonus Modifiers), the Charms that circle the next Bonus Modifier
Value, the Glyphs' stars per item, the Bonus Modifier Value tracks and the Extra Dice boxes;
and the texts every part explains itself with, from the data files (the cards' the same as
``card NAME``)."""

from __future__ import annotations

from functools import partial
from typing import Any

from rulebook.core import Setup
from rulebook.core.rollwrite.web import sheet_static
from rulebook.core.rollwrite.words import listed, source_note, titled, with_note
from rulebook.ye_olde_magick_shoppe.cards import cards
from rulebook.ye_olde_magick_shoppe.content import ITEM_CATEGORIES, KINDS, Content, content
from rulebook.ye_olde_magick_shoppe.rules import CATEGORIES, TIEBREAKS, row_reward

SHARED = ("rulebook.core.rollwrite.web",)

#: a row of each category, as the tips name it
ROW_KINDS = {
    "gear": "Gear",
    "weapon": "Weapon",
    "armor": "Armor",
    "prefix": "Prefix Enchantment",
    "suffix": "Suffix Enchantment",
    "charm": "Charm",
    "glyph": "Glyph",
}
#: what each category of rows is (How to Play: Crafting, Spell Research)
ITEMS = (
    "items crafted on the left half of the sheet. A Customer asks for one item with an "
    "Enchantment, a Connoisseur with two."
)
CATEGORY_TEXTS = {
    "gear": f"Gear: {ITEMS}",
    "weapon": f"Weapons: {ITEMS}",
    "armor": f"Armor: {ITEMS}",
    "prefix": "Prefix Enchantments: spells named before the item (a Fiery Torch), researched "
    "on the right half of the sheet.",
    "suffix": "Suffix Enchantments: spells named after the item (a Torch of the Dragons), "
    "researched on the right half of the sheet.",
    "charm": "Charms: spells that make your Bonus Modifiers stronger: completing one circles "
    "the next Bonus Modifier Value of its kind.",
    "glyph": "Glyphs: spells that score stars at the end of the game for each item of one "
    "category you crafted.",
}
#: the scoring categories (End of the Game), as the tip of the score explains them
SCORE = {
    "items": "items crafted",
    "spells": "spells researched",
    "customers": "Customers and Connoisseurs claimed",
    "certifications": "Certifications",
    "glyphs": "Glyphs",
}


def static(setup: Setup) -> dict[str, Any]:
    """The printed sheet and cards' fixed texts (the same for every seed)."""
    c = content()
    solo = setup.variant == "solo"
    out = sheet_static(
        c,
        line="customers",
        value="stars",
        words={
            "line": "Customers",
            "value": "Stars",
            "masteries": "Certifications",
            "crafting": "Crafting",
            "research": "Spell Research",
        },
        crafting=ITEM_CATEGORIES,
        cards=cards(setup),
        row_reward=partial(row_reward, c),
        kinds=ROW_KINDS,
        categories=CATEGORY_TEXTS,
        texts=texts(c),
        solo=solo,
    )
    for row, spec in zip(out["rows"], c.rows, strict=True):
        row["bonus_kind"] = spec.bonus
        if spec.advances is not None:
            row["advances"] = spec.advances
        if spec.glyph_category is not None:
            row["glyph"] = f"{spec.glyph_stars} per {spec.glyph_category}"
        row["explain"] = with_note(row["explain"], source_note(spec))
    out["modifier_values"] = {"minus": list(c.values[0]), "plus": list(c.values[1])}
    return out


def texts(c: Content) -> dict[str, str]:
    """The tips of this game's own parts: the deck, the score, the Bonus Modifier tracks."""
    out = {
        "deck": "The Customer deck: each Customer claimed is replaced face-down from it; once "
        "it is empty, the space stays empty and moves on around the table.",
        "score": f"Your stars so far: {listed([SCORE[k] for k in CATEGORIES])}. The most stars "
        f"after round {c.rounds} wins; ties: {', then '.join(TIEBREAKS)}.",
    }
    for k, kind in enumerate(KINDS):
        gives = [
            name
            for cat, name in ROW_KINDS.items()
            if any(s.category == cat and s.bonus == kind for s in c.rows)
        ]
        charms = [s.name for s in c.rows if s.advances == kind]
        values = ", ".join(str(v) for v in c.values[k])
        sign, change = ("+", "raises") if kind == "plus" else ("-", "lowers")
        out[kind] = (
            f"{titled(kind)} Bonus Modifiers: each one spent with a result {change} it by the "
            f"circled {kind} value ({values}: {sign}{c.values[k][0]} at first). Completing a "
            f"{listed(gives, 'or')} row gives one; {listed(charms)} circle the next value."
        )
    return out
