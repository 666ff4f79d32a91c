"""Claiming customers: Orders (Merchants of Magick) and Customers (Ye Olde Magick Shoppe).

Merchants of Magick, ORDERS: "If a player completes both the Item and all Enchantments required
by a face-up Order currently in their shoppe, they immediately claim that Order ... replaced
with a face-down Order from the deck"; "In the rare case that the Orders deck is empty ... no
replacement Order is drawn". Ye Olde Magick Shoppe, Customers: "if you have completed both the
item and all enchancements that a customer in your shoppe is seeking, you claim that customer
and their stars" (Round Flow 3: "A new customer is drawn from the Customer deck and placed face
down in the empty space").

A seat's line holds card numbers: ``n`` face-up, ``~n`` face-down, :data:`EMPTY` a space left
by a claimed card with no card to replace it; its first ``shop_size`` cards are the shoppe.
"""

from __future__ import annotations

from rulebook.core.rollwrite.moves import CRAFTING
from rulebook.core.rollwrite.state import EMPTY, C, SheetTable
from rulebook.core.sheet import has_all

__all__ = ["EMPTY", "claim", "draw"]


def draw(s: SheetTable[C]) -> int:
    """ORDERS, Customers: the top card of the deck (the deck's known bottom shrinks with it)."""
    card = s.deck.pop()
    s.deck_seen = min(s.deck_seen, len(s.deck))
    return card


def claim(s: SheetTable[C], p: int) -> None:
    """ORDERS, Customers: claim every face-up card in ``p``'s shoppe whose item and enchantments are
    complete; each is replaced face-down from the deck; with the deck out its space is left empty or
    closed up (``SheetTable.KEEP_EMPTY_SPACES``)."""
    cards = s.content.cards
    line = s.lines[p]
    marks = s.marks[p]
    i = 0
    while i < min(s.shop_size, len(line)):
        card = line[i]
        if card >= 0 and has_all(marks, cards[card].mask):
            s.claimed[p].append(card)
            s.tell("claimed", p, card)
            if s.deck:
                line[i] = ~draw(s)
                if s.phase == CRAFTING:
                    s._phase_draws[p] += 1
            elif s.KEEP_EMPTY_SPACES:
                line[i] = EMPTY
            else:
                del line[i]
                continue
        i += 1
