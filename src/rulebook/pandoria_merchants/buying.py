"""5. Buy a Card: "If you enclose at least one area, you may buy **one** card."

Pay its Gold and circle it; Blocking Cards: whoever has bought all 3 cards of a column closes it
to everyone. Crafts stand in for any Resource one lacks, 2:1 (the Market: 1:1), for every cost
of the game, so paying is here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants.content import Card
from rulebook.pandoria_merchants.moves import PASS, Move, move
from rulebook.pandoria_merchants.terms import (
    CRAFT,
    CROSSED,
    CRYSTAL,
    GOLD,
    NONE,
    OWNED,
    WOOD,
    replaced,
)

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def crafts_needed(s: PandoriaSheets, p: int, need: list[int]) -> int | None:
    """Crafts (Triangle): the Crafts this cost takes from ``p``, substituting 2:1 for what
    ``p`` lacks ("only when you do not have enough of the other Resource"; the Market: 1:1),
    or None if ``p`` cannot pay it."""
    t = s.tracks[p]
    rate = s.market_rate if s.built(p, "market") else s.craft_rate
    crafts = need[CRAFT]
    for r in (WOOD, CRYSTAL, GOLD):
        short = need[r] - t[r]
        if short > 0:
            crafts += short * rate
    return crafts if crafts <= t[CRAFT] else None


def pay(s: PandoriaSheets, p: int, need: list[int]) -> None:
    """Pay a cost (5., Crafts): each Resource as far as it goes, Crafts for the rest."""
    crafts = crafts_needed(s, p, need)
    assert crafts is not None
    t = list(s.tracks[p])
    for r in (WOOD, CRYSTAL, GOLD):
        t[r] -= min(need[r], t[r])
    t[CRAFT] -= crafts
    s.tracks = replaced(s.tracks, p, tuple(t))


def cost_in(resource: int, amount: int) -> list[int]:
    """A cost (5., Crafts) of ``amount`` of one Resource, as :func:`pay` takes it."""
    need = [0, 0, 0, 0]
    need[resource] = amount
    return need


def gold_cost(s: PandoriaSheets, p: int, card: Card) -> int:
    """5. Buy a Card at ``p``'s price; the Bank (Building Index): 1 Gold less (but always at least
    1)."""
    return max(1, card.gold - s.built(p, "bank"))


def buyable(s: PandoriaSheets, card: Card) -> bool:
    """Blocking Cards: "No further cards may be purchased from this column by any player"."""
    return not s.blocked >> card.column & 1


def buy(s: PandoriaSheets, p: int, card: Card) -> None:
    """5. Buy a Card: "Pay the amount of Gold listed on the Card" and circle it. Changes only
    ``p``'s tracks and cards and the blocked columns."""
    pay(s, p, cost_in(GOLD, gold_cost(s, p, card)))
    own(s, p, card)


def own(s: PandoriaSheets, p: int, card: Card) -> None:
    """5. Buy a Card: circle a card; all 3 of a column bought blocks it for everyone (Blocking
    Cards)."""
    s.mark(p, card.index, OWNED)
    column = [c.index for c in s.c.cards if c.column == card.column]
    if all(s.cards[p][i] not in (NONE, CROSSED) for i in column):
        s.blocked |= 1 << card.column


def buy_options(s: PandoriaSheets, p: int, one: bool = False) -> list[Move]:
    """5. Buy a Card, or not: ``pass`` and each card ``p`` can pay for that is not blocked
    (``one``: stop at the first card, enough to tell whether there is any)."""
    cards = s.cards[p]
    moves = [PASS]
    for card in s.c.cards:
        if (
            cards[card.index] == NONE
            and buyable(s, card)
            and crafts_needed(s, p, cost_in(GOLD, gold_cost(s, p, card))) is not None
        ):
            moves.append(move("buy", card.id))
            if one:
                break
    return moves
