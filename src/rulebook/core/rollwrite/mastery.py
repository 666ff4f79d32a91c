"""The two mastery cards, scored after every round: Masteries (Merchants of Magick) and
Certifications (Ye Olde Magick Shoppe).

Merchants of Magick, THE MASTERY PHASE: "All players who meet the requirements of a Mastery
card immediately gain the Coins indicated on the card ... If any player scores a Mastery card,
flip that card to its Apprentice side (the lower value) at the end of the Mastery Phase ...
each player may score each Mastery card exactly once"; SOLO VARIANT: "You may only earn the
Apprentice (lower value) side". Ye Olde Magick Shoppe, Certifications: "The first player(s) who
completes the required conditions of a Certification card during the same turn will
immediately score the higher value of stars ... Each player may only score each Certification
only once"; Solo Variant: "You may only earn the lower star value".

Card 0 is the Material Mastery, card 1 the Energy Mastery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulebook.core.rollwrite.content import Mastery
    from rulebook.core.rollwrite.state import C, SheetTable


def mastery_card(s: SheetTable[C], k: int) -> Mastery:
    """THE MASTERY PHASE, Certifications: mastery card ``k`` of this game (0 material, 1 energy)."""
    c = s.content
    card: Mastery = c.material[s.mastery_cards[0]] if k == 0 else c.energy[s.mastery_cards[1]]
    return card


def mastery_value(s: SheetTable[C], k: int) -> int:
    """THE MASTERY PHASE: what mastery card ``k`` (0 material, 1 energy) pays now; solo: the lower
    value."""
    card = mastery_card(s, k)
    return card.master if s.mastery_master[k] and not s.solo else card.apprentice


def mastery_phase(s: SheetTable[C]) -> None:
    """THE MASTERY PHASE: everyone meeting a card this round scores its current value; once scored,
    the card pays its lower value. Each seat scores each card once."""
    for k in range(2):
        value = mastery_value(s, k)
        scored = 0  # the seats scoring it, one bit each
        for p in range(s.num_players):
            if masters(s, p, k):
                s.mastery_scored[p][k] = value
                scored |= 1 << p
        if scored:
            s.tell("mastered", k, scored)
            s.mastery_master[k] = False


def masters(s: SheetTable[C], p: int, k: int) -> bool:
    """THE MASTERY PHASE: whether seat ``p`` scores mastery card ``k`` this phase: not scored yet,
    and its marks in the card's column meet it."""
    card = mastery_card(s, k)
    mask = s.content.layout.columns[card.column].mask
    return s.mastery_scored[p][k] < 0 and (s.marks[p] & mask).bit_count() >= card.circles
