"""Merchants of Magick statistics for the balance lab (``Game.counters`` and ``Game.faction``).

Per seat at the end of a game (the sheet's counters are shared with Ye Olde Magick Shoppe, see
:mod:`rulebook.core.rollwrite.stats`): how many rows were completed and Orders claimed,
Potions left, Extra Dice used, Sponsored Adventurer Orders fulfilled and Masteries scored; and
one counter per row (``row:<id>``, 1 if completed) and per Order card (``order:<name>``, 1 if
claimed), which the report ranks by how often they are completed and how often their owner wins.
The "faction" of a seat is its Sponsored Adventurer (dealt at setup, GAME SETUP).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State
from rulebook.core.rollwrite.stats import sheet_counters
from rulebook.merchants_of_magick.content import ITEM_CATEGORIES

if TYPE_CHECKING:
    from rulebook.merchants_of_magick.rules import MerchantsState


def counters(state: State, player: int) -> dict[str, float]:
    """Game-specific counters of one seat (see the module docstring); the sheet's counters are
    shared with Ye Olde Magick Shoppe (:mod:`rulebook.core.rollwrite.stats`)."""
    s = cast("MerchantsState", state)
    out = sheet_counters(
        s, player, item_categories=ITEM_CATEGORIES, card="order", value="coins", mastery="masteries"
    )
    out["potions_left"] = float(s.potions[player])
    out["adventurer_orders"] = float(s.adventurer_done[player].bit_count())
    return out


def faction(state: State, player: int) -> str:
    """The seat's Sponsored Adventurer."""
    s = cast("MerchantsState", state)
    return s.content.adventurers[s.adventurer[player]].name
