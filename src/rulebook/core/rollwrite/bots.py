"""Evaluation pieces shared by the roll-and-write sheet games' bots."""

from __future__ import annotations

from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.sheet import Layout

#: per (layout, row weight, row bonus): the mask of each row of two circles or more and its
#: progress term for each count of marked circles (0.0 for none, and for a complete row, which
#: the score counts instead; a row of one circle never has a term)
_ROW_TERMS: dict[tuple[Layout, float, float], tuple[tuple[int, tuple[float, ...]], ...]] = {}


def _row_terms(
    layout: Layout, row_weight: float, row_bonus: float
) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The progress term of every row by the number of its circles marked, worked out once
    per sheet and weights with the very arithmetic :func:`add_progress` describes (adding a
    term of 0.0 leaves a sum as it is, so only rows that can be part done are listed)."""
    key = (layout, row_weight, row_bonus)
    terms = _ROW_TERMS.get(key)
    if terms is None:
        terms = tuple(
            (
                row.mask,
                tuple(
                    row_weight * (row.value + row_bonus) * have / len(row.circles)
                    if have < len(row.circles)
                    else 0.0
                    for have in range(len(row.circles) + 1)
                ),
            )
            for row in layout.rows
            if len(row.circles) > 1
        )
        _ROW_TERMS[key] = terms
    return terms


def add_progress(
    value: float,
    s: SheetState,
    player: int,
    row_weight: float,
    row_bonus: float,
    card_weight: float,
) -> float:
    """``value`` plus the weighted share done of each unfinished row (its stars or coins plus
    ``row_bonus``, what completing it gives: ``row_weight * (value + row_bonus) * marked /
    circles``) and of each face-up card in the shoppe (``card_weight * value * share``)."""
    marks = s.marks[player]
    for mask, terms in _row_terms(s.content.layout, row_weight, row_bonus):
        value += terms[(marks & mask).bit_count()]
    cards = s.content.cards
    for card in s.lines[player][: s.shop_size]:
        if card >= 0:
            c = cards[card]
            done = (marks & c.mask).bit_count() / c.mask.bit_count()
            value += card_weight * c.value * done
    return value
