"""Evaluation pieces shared by the roll-and-write sheet games' bots."""

from __future__ import annotations

from rulebook.core.rollwrite.engine import SheetState


def add_progress(
    value: float,
    s: SheetState,
    player: int,
    row_weight: float,
    row_bonus: float,
    card_weight: float,
) -> float:
    """``value`` plus the weighted share done of each unfinished row (its stars or coins plus
    ``row_bonus``, what completing it gives) and of each face-up card in the shoppe."""
    layout = s.content.layout
    marks = s.marks[player]
    for row in layout.rows:
        have = (marks & row.mask).bit_count()
        total = len(row.circles)
        if have < total:
            value += row_weight * (row.value + row_bonus) * have / total
    cards = s.content.cards
    for card in s.lines[player][: s.shop_size]:
        if card >= 0:
            c = cards[card]
            done = (marks & c.mask).bit_count() / c.mask.bit_count()
            value += card_weight * c.value * done
    return value
