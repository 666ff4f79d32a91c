"""Ye Olde Magick Shoppe statistics for the balance lab (``Game.counters``).

Per seat at the end of a game, the sheet's counters shared with Merchants of Magick
(:mod:`rulebook.core.rollwrite.stats`): rows completed (all, and items), circles marked,
Customers claimed (all, and their stars), Extra Dice used,
Certifications scored, ``row:<id>`` per completed row and ``customer:<name>`` per claimed
Customer or Connoisseur; and this game's own: Connoisseurs claimed (the Customers asking
two enchantments), Bonus Modifiers left
unused and the Bonus Modifier Value reached per kind (Charms), and the stars from Glyphs.

No faction: every seat has the same sheet; the Connoisseur dealt at setup sits in the Customer
Circle and rotates with it, so it is not a seat's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State
from rulebook.core.rollwrite.stats import sheet_counters
from rulebook.ye_olde_magick_shoppe.content import ITEM_CATEGORIES, KINDS

if TYPE_CHECKING:
    from rulebook.ye_olde_magick_shoppe.rules import ShoppeState


def counters(state: State, player: int) -> dict[str, float]:
    """Game-specific counters of one seat (see the module docstring)."""
    s = cast("ShoppeState", state)
    c = s.content
    out = sheet_counters(
        s,
        player,
        item_categories=ITEM_CATEGORIES,
        card="customer",
        value="stars",
        mastery="certifications",
    )
    # the Customers asking two enchantments are the Connoisseurs: say so in the game's words
    del out["double_customers_claimed"]
    out["connoisseurs_claimed"] = float(
        sum(c.cards[o].kind == "connoisseur" for o in s.claimed[player])
    )
    for kind, name in enumerate(KINDS):
        out[f"{name}_modifiers_left"] = float(s.bonus[player][kind])
        out[f"{name}_modifier_value"] = float(s.modifier_value(player, kind))
    out["glyph_stars"] = float(s.score_breakdown(player)["glyphs"])
    return out
