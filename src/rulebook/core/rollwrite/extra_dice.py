"""Extra Dice: results spent beyond the round's two.

Merchants of Magick, EXTRA DICE: "players may only spend 2 results per round. However, each
player has 6 Extra Dice slots ... The first 3 extra result slots are free, but the next 3 slots
cost Potions." Ye Olde Magick Shoppe, Extra Dice: "each player has 5 Extra Dice checkboxes that
may be used whenever they want to spend more than 2 dice in a round".

The number of free results and each box's cost are the game's content
(``results_per_round``, ``extra_dice_costs``); how a cost is paid is the game's ``_reach`` and
``_pay`` (Potions, or nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import C, SheetTable


def extra_cost(s: SheetTable[C], p: int) -> int | None:
    """EXTRA DICE: what ``p``'s next result costs as an Extra Die (0 within the round's free
    results), or None if no Extra Dice box is left."""
    if s.results[p] < s.free_results:
        return 0
    costs = s.extra_costs
    used = s.extra_used[p]
    return costs[used] if used < len(costs) else None


def out_of_results(s: SheetTable[C], p: int) -> bool:
    """EXTRA DICE: whether ``p`` can spend no further result this round: all dice spent, no Extra
    Dice box left, or none it can pay for."""
    if s.results[p] >= s.dice_count:
        return True
    extra = extra_cost(s, p)
    if extra is None:
        return True
    up, down = s._reach(p, extra)
    return up < 0 or down < 0
