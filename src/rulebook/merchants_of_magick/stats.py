"""Merchants of Magick statistics for the balance lab (``Game.counters`` and ``Game.faction``).

Per seat at the end of a game: how many rows were completed and Orders claimed, Potions left,
Extra Dice used, Sponsored Adventurer Orders fulfilled and Masteries scored; and one counter
per row (``row:<id>``, 1 if completed) and per Order card (``order:<name>``, 1 if claimed),
which the report ranks by how often they are completed and how often their owner wins.
The "faction" of a seat is its Sponsored Adventurer (dealt at setup, GAME SETUP).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State

if TYPE_CHECKING:
    from rulebook.merchants_of_magick.rules import MerchantsState


def counters(state: State, player: int) -> dict[str, float]:
    """Game-specific counters of one seat (see the module docstring)."""
    s = cast("MerchantsState", state)
    c = s.content
    marks = s.marks[player]
    completed = c.layout.completed_rows(marks)
    claimed = [c.orders[o] for o in s.claimed[player]]
    out: dict[str, float] = {
        "rows_completed": float(len(completed)),
        "item_rows_completed": float(
            sum(r.category in ("accessory", "weapon", "armor") for r in completed)
        ),
        "orders_claimed": float(len(claimed)),
        "double_orders_claimed": float(sum(len(o.enchantments) == 2 for o in claimed)),
        "order_coins": float(sum(o.coins for o in claimed)),
        "potions_left": float(s.potions[player]),
        "extra_dice_used": float(s.extra_used[player]),
        "adventurer_orders": float(s.adventurer_done[player].bit_count()),
        "masteries_scored": float(sum(v >= 0 for v in s.mastery_scored[player])),
        "circles_marked": float(marks.bit_count()),
    }
    for row in completed:
        out[f"row:{row.id}"] = 1.0
    for order in claimed:
        out[f"order:{order.name}"] = 1.0
    return out


def faction(state: State, player: int) -> str:
    """The seat's Sponsored Adventurer."""
    s = cast("MerchantsState", state)
    return s.content.adventurers[s.adventurer[player]].name
