"""Ye Olde Magick Shoppe bot knowledge: a hand-written evaluation of a seat's position.

Used by the game-agnostic greedy and search agents (``rulebook.agents``). Stars already scored
count fully; unused Bonus Modifiers by their current value; unfinished rows and customers by
the share of them done, weighted by what they will bring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from rulebook.core import Action, State
from rulebook.core.rollwrite.bots import add_progress, spend_values
from rulebook.ye_olde_magick_shoppe.rules import ShoppeState, modifiers_needed

#: weights of the evaluation (hand-tuned)
MODIFIER = 0.35  # per point of change an unused Bonus Modifier is worth
ROW_PROGRESS = 0.7
ROW_BONUS = 0.5  # the Bonus Modifier a completed row circles
CUSTOMER_PROGRESS = 0.5
CHARM_LEVEL = 1.0  # per step of Bonus Modifier Value


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: stars plus weighted progress."""
    s = cast(ShoppeState, state)
    value = float(s.score(player))
    if s.is_terminal():
        return value
    for kind in (0, 1):
        value += MODIFIER * s.bonus[player][kind] * s.modifier_value(player, kind)
        value += CHARM_LEVEL * s.level[player][kind]
    return add_progress(value, s, player, ROW_PROGRESS, ROW_BONUS, CUSTOMER_PROGRESS)


def evaluate_moves(state: State, player: int, actions: Sequence[Action]) -> list[float | None]:
    """:func:`evaluate` after each move, without making the moves that complete no row
    (:func:`rulebook.core.rollwrite.bots.spend_values`): they cross out Bonus Modifiers and
    add to a row's and the customers' shares done."""
    s = cast(ShoppeState, state)
    if s.is_terminal():
        return [None] * len(actions)

    def paid(change: int, extra: int) -> float:
        """What the Bonus Modifiers crossed out were worth (Extra Dice cost nothing)."""
        if not change:
            return 0.0
        kind = 1 if change > 0 else 0
        each = s.modifier_value(player, kind)
        return -MODIFIER * modifiers_needed(abs(change), each) * each

    base = evaluate(s, player)
    return spend_values(
        s, player, actions, base, paid, (), ROW_PROGRESS, ROW_BONUS, CUSTOMER_PROGRESS
    )
