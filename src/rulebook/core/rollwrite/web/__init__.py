"""The board view shared by the roll-and-write sheet games (``sheet.js``, ``sheet.css``).

:func:`sheet_static` gives what every such sheet prints and never changes: the dice, the
columns they feed, the rows with their circles and thresholds and the value printed on each
row, the Extra Dice boxes. A game's own board package (``rulebook.<game>.web``) adds its own
printed parts to it and lists this package in ``SHARED`` so its ``board.js`` can import
``./sheet.js``.
"""

from __future__ import annotations

from typing import Any

from rulebook.core.rollwrite.engine import SheetContent

__all__ = ["sheet_static"]


def sheet_static(
    content: SheetContent,
    *,
    line: str,
    value: str,
    words: dict[str, str],
    crafting: tuple[str, ...],
) -> dict[str, Any]:
    """The printed sheet of a game on the shared engine.

    ``line`` and ``value`` are the observation's words for the customer line and what a card
    is worth ("orders"/"coins"); ``words`` the game's names for its parts (``line``,
    ``value``, ``masteries``, ``crafting``, ``research``); ``crafting`` the item categories
    (the crafting half of the sheet), in printed order.
    """
    layout = content.layout
    return {
        "dice": [{"id": d, "sides": s} for d, s in zip(content.dice, content.sides, strict=True)],
        "columns": [
            {
                "id": col.id,
                "section": "crafting" if col.at_least else "research",
                "dice": [d for d in content.dice if d in col.dice],
            }
            for col in layout.columns
        ],
        "rows": [
            {
                "id": row.id,
                "name": row.name,
                "category": row.category,
                "section": "crafting" if row.category in crafting else "research",
                "value": row.value,
                "circles": [
                    {
                        "id": layout.circles[i].id,
                        "column": layout.columns[layout.circles[i].column].id,
                        "threshold": layout.circles[i].threshold,
                        "at_least": layout.circles[i].at_least,
                    }
                    for i in row.circles
                ],
            }
            for row in layout.rows
        ],
        "rounds": content.rounds,
        "results_per_round": content.results_per_round,
        "extra_dice_costs": list(content.extra_dice_costs),
        "line": line,
        "value": value,
        "words": dict(words),
    }
