"""Merchants of Magick bot knowledge: a hand-written evaluation of a seat's position.

Used by the game-agnostic greedy and search agents (``rulebook.agents``). Coins already scored
count fully; unfinished work counts by the share of it done, weighted by what it will bring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from rulebook.core import Action, State
from rulebook.core.rollwrite.bots import add_progress, spend_values

if TYPE_CHECKING:
    from rulebook.merchants_of_magick.rules import MerchantsState

#: weights of the evaluation (hand-tuned)
POTION = 0.6
ROW_PROGRESS = 0.7
ORDER_PROGRESS = 0.5
ADVENTURER_PROGRESS = 0.5
FREE_MARK = 1.5


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: Coins plus weighted progress."""
    s = cast("MerchantsState", state)
    marks = s.marks[player]
    value = float(s.score(player))
    value += POTION * s.potions[player] + FREE_MARK * s.free_marks[player]
    if s.is_terminal():
        return value
    value = add_progress(value, s, player, ROW_PROGRESS, POTION, ORDER_PROGRESS)
    masks = s.adventurer_masks[player]
    coins = s.adventurer_coins[player]
    for k in range(3):
        if not s.adventurer_done[player] >> k & 1:
            mask = masks[k]
            done = (marks & mask).bit_count() / mask.bit_count()
            value += ADVENTURER_PROGRESS * (coins / 3 + 1) * done
    return value


def _potions_paid(change: int, extra: int) -> float:
    """What the Potions a result's change and an Extra Die cost were worth (POTIONS)."""
    return -POTION * (extra + abs(change))


def evaluate_moves(state: State, player: int, actions: Sequence[Action]) -> list[float | None]:
    """:func:`evaluate` after each move, without making the moves that complete no row
    (:func:`rulebook.core.rollwrite.bots.spend_values`): they pay Potions (spends) or use a
    free mark, and add to a row's, the Orders' and the Sponsored Adventurer's Orders' shares
    done."""
    s = cast("MerchantsState", state)
    if s.is_terminal():
        return [None] * len(actions)
    done = s.adventurer_done[player]
    weight = ADVENTURER_PROGRESS * (s.adventurer_coins[player] / 3 + 1)
    shares = [
        (mask, weight / mask.bit_count())
        for k, mask in enumerate(s.adventurer_masks[player])
        if not done >> k & 1
    ]
    base = evaluate(s, player)
    return spend_values(
        s,
        player,
        actions,
        base,
        _potions_paid,
        shares,
        ROW_PROGRESS,
        POTION,
        ORDER_PROGRESS,
        free_mark=-FREE_MARK,
    )
