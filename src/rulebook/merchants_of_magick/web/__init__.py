"""The Merchants of Magick board for the web app: the Shoppe sheet (shared roll-and-write
sheet, ``rulebook.core.rollwrite.web``) with this game's own printed parts: the Potion each
row gives (CRAFTING, SPELL RESEARCH), the Charms' bonus Coins, the Extra Dice boxes' Potion
costs (EXTRA DICE), the Sponsored Adventurer rewards and the solo rating table."""

from __future__ import annotations

from typing import Any

from rulebook.core import Setup
from rulebook.core.rollwrite.web import sheet_static
from rulebook.merchants_of_magick.content import ITEM_CATEGORIES, content

SHARED = ("rulebook.core.rollwrite.web",)


def static(setup: Setup) -> dict[str, Any]:
    """The printed sheet and cards' fixed texts (the same for every seed)."""
    c = content()
    out = sheet_static(
        c,
        line="orders",
        value="coins",
        words={
            "line": "Orders",
            "value": "Coins",
            "masteries": "Masteries",
            "crafting": "Crafting",
            "research": "Spell Research",
        },
        crafting=ITEM_CATEGORIES,
    )
    for row, spec in zip(out["rows"], c.rows, strict=True):
        row["potions"] = spec.potions if spec.potions is not None else c.rules.potions_per_row
        if spec.bonus_category is not None:
            row["bonus"] = {"coins": spec.bonus_coins, "category": spec.bonus_category}
    r = c.rewards
    out["adventurer_rewards"] = [
        f"{r.first_potions} Potions",
        f"{r.second_free_marks} free mark",
        f"{r.third_free_marks} free mark + Coins",
    ]
    if setup.variant == "solo":
        out["ratings"] = [[score, name] for score, name in c.solo.ratings]
    return out
