"""The customers move on at the end of a round (solo: they shift left), then turn face-up.

Merchants of Magick, THE CUSTOMER PHASE: "Move all Orders one space clockwise around the table
... Finally, reveal all face-down Order cards"; SOLO VARIANT: "all Orders shift one space to the
left. The leftmost Order is discarded. A new face-up Order is added from the deck to the far
right end". Ye Olde Magick Shoppe, Round Flow 6-7: "the Customer Circle rotates. All Customer
cards are shifted clockwise one space. Flip over any face down cards"; Solo Variant: "all
customers shift one space to the left".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.core.rollwrite.customers import EMPTY, claim, draw
from rulebook.core.sheet import rotate_clockwise, shift_left

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import C, SheetTable


def customer_phase(s: SheetTable[C]) -> None:
    """THE CUSTOMER PHASE (Round Flow 6-7): customers move one seat clockwise (solo: shift left, the
    leftmost leaves, a face-up card joins at the right); then face-down cards are turned face-up.

    Decision: a card that arrives face-up (or is turned up) in a shoppe whose sheet already
    completes it is claimed at once, as at "the moment item and enchantments are complete".
    """
    moved = lines_moved(s)
    s.tell("customers_moved", moved)
    s.lines = moved
    for line in s.lines:
        turn_up(line)
    for p in range(s.num_players):
        claim(s, p)


def lines_moved(s: SheetTable[C]) -> list[list[int]]:
    """THE CUSTOMER PHASE, SOLO VARIANT: every customer line moved one seat clockwise (new
    lists); solo: the line shifted
    left, the leftmost card discarded and one drawn at the right."""
    if s.solo:
        incoming = draw(s) if s.deck else None
        line, left = shift_left(s.lines[0], incoming)
        if left is not None and left != EMPTY:
            s.discards.append(left if left >= 0 else ~left)
        return [line]
    return rotate_clockwise(s.lines)


def turn_up(line: list[int]) -> None:
    """Turn a line's face-down cards face-up ("reveal all face-down Order cards", "Flip over
    any face down cards")."""
    for i, card in enumerate(line):
        if card < 0 and card != EMPTY:
            line[i] = ~card
