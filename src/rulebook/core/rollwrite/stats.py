"""Counters both sheet games share, for the balance lab (``Game.counters``).

Per seat at the end of a game: rows completed (all, and item rows), circles marked, customer
cards claimed (all, those asking two enchantments, and their value), Extra Dice used, mastery
cards scored; one counter per completed row (``row:<id>``) and per claimed card
(``<word>:<name>``). Each game names the cards and their value in its own words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulebook.core.rollwrite.engine import SheetState


def sheet_counters(
    s: SheetState[Any],
    player: int,
    *,
    item_categories: Iterable[str],
    card: str,
    value: str,
    mastery: str,
) -> dict[str, float]:
    """The shared counters of seat ``player``; claimed cards are ``<card>s_claimed``,
    ``double_<card>s_claimed``, ``<card>_<value>`` and ``<card>:<name>``, mastery cards
    scored ``<mastery>_scored``."""
    c = s.content
    marks = s.marks[player]
    items = set(item_categories)
    completed = c.layout.completed_rows(marks)
    claimed = [c.cards[o] for o in s.claimed[player]]
    out: dict[str, float] = {
        "rows_completed": float(len(completed)),
        "item_rows_completed": float(sum(r.category in items for r in completed)),
        f"{card}s_claimed": float(len(claimed)),
        f"double_{card}s_claimed": float(sum(o.double for o in claimed)),
        f"{card}_{value}": float(sum(o.value for o in claimed)),
        "extra_dice_used": float(s.extra_used[player]),
        f"{mastery}_scored": float(sum(v >= 0 for v in s.mastery_scored[player])),
        "circles_marked": float(marks.bit_count()),
    }
    for row in completed:
        out[f"row:{row.id}"] = 1.0
    for o in claimed:
        out[f"{card}:{o.name}"] = 1.0
    return out
