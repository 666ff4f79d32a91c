"""The Ye Olde Magick Shoppe board for the web app: the player sheet (shared roll-and-write
sheet, ``rulebook.core.rollwrite.web``) with this game's own printed parts: the Bonus
Modifier each row circles (Bonus Modifiers), the Charms that circle the next Bonus Modifier
Value, the Glyphs' stars per item, the Bonus Modifier Value tracks and the Extra Dice boxes."""

from __future__ import annotations

from typing import Any

from rulebook.core import Setup
from rulebook.core.rollwrite.web import sheet_static
from rulebook.ye_olde_magick_shoppe.content import ITEM_CATEGORIES, content

SHARED = ("rulebook.core.rollwrite.web",)


def static(setup: Setup) -> dict[str, Any]:
    """The printed sheet (the same for every seed)."""
    c = content()
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
    )
    for row, spec in zip(out["rows"], c.rows, strict=True):
        row["bonus_kind"] = spec.bonus
        if spec.advances is not None:
            row["advances"] = spec.advances
        if spec.glyph_category is not None:
            row["glyph"] = f"{spec.glyph_stars} per {spec.glyph_category}"
    out["modifier_values"] = {"minus": list(c.values[0]), "plus": list(c.values[1])}
    return out
