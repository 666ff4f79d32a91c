"""What each seat sees of the table, while every seat acts at once.

Merchants of Magick, GAMEPLAY: "There are no player turns in the game. All players act
simultaneously in each phase"; Ye Olde Magick Shoppe, Round Flow: "All players simultaneously
spend 2 dice". Until every seat is done with the round's crafting, a seat sees the others as
they were when it began (and who is still deciding), never their choices so far. Everything on
the table is public but the deck's order and face-down cards (ORDERS, Customers: replacements
come "face-down").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebook.core.rollwrite.customers import EMPTY
from rulebook.core.rollwrite.mastery import mastery_card, mastery_value
from rulebook.core.rollwrite.moves import CRAFTING, OVER

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import SheetTable


def card_view(s: SheetTable[Any], card: int) -> dict[str, Any]:
    """ORDERS, Customers: a card of a line as everyone sees it: its face, face-down, or an empty
    space."""
    if card == EMPTY:
        return {"empty": True}
    if card < 0:
        return {"face_down": True}
    o = s.content.cards[card]
    return {
        "name": o.name,
        "kind": o.kind,
        "item": o.item,
        "enchantments": list(o.enchantments),
        s.VALUE: o.value,
    }


def public_seat(s: SheetTable[Any], p: int) -> dict[str, Any]:
    """GAMEPLAY, Round Flow: what everyone sees of seat ``p``'s sheet, shoppe and score."""
    c = s.content
    layout = c.layout
    line = s.lines[p]
    breakdown = s.score_breakdown(p)
    seat = {
        "marked": [ci.id for ci in layout.circles if s.marks[p] & ci.bit],
        "completed": [r.id for r in layout.completed_rows(s.marks[p])],
        "extra_dice_used": s.extra_used[p],
        "results_spent": [d for i, d in enumerate(c.dice) if s.spent[p] >> i & 1],
        "done": s.done[p],
        s.LINE: [card_view(s, o) for o in line[: s.shop_size]],
        "waiting": [card_view(s, o) for o in line[s.shop_size :]],
        "claimed": [c.cards[o].name for o in s.claimed[p]],
        "masteries": [v if v >= 0 else None for v in s.mastery_scored[p]],
        "score": sum(breakdown.values()),
        "breakdown": breakdown,
    }
    seat.update(s._seat_view(p))
    return seat


def view(s: SheetTable[Any], player: int | None) -> dict[str, Any]:
    """The table as ``player`` sees it (``None``: as every seat sees it). Everything on the
    table is public but the deck's order and face-down cards.


    The crafting phase is simultaneous: until every seat is done, a seat sees the others
    as they were when it began (and who is still deciding), never their choices so far;
    with no seat, every seat as it was when it began.
    """
    c = s.content
    layout = c.layout
    cards = c.cards
    origin = s._origin if s.phase == CRAFTING else None
    seats = []
    for p in range(s.num_players):
        if origin is None or p == player:
            seats.append(public_seat(s, p))
        else:
            seat = public_seat(origin, p)
            seat["done"] = s.done[p]
            seats.append(seat)
    table = s if origin is None else origin
    # during the crafting a seat sees the deck as it began less its own draws since; after
    # it (the game over) the deck as it is
    own = 0 if player is None or origin is None else s._phase_draws[player]
    deck_cards = len(table.deck) - own
    obs: dict[str, Any] = {
        "game": s.setup.game,
        "variant": s.setup.variant,
        "you": player,
        "round": s.round,
        "rounds": c.rounds,
        "phase": s.phase,
        "current_players": list(s.current_players()),
        "dice": dict(zip(c.dice, s.dice, strict=True)),
        "masteries": [
            {
                "kind": card.kind,
                "name": card.name,
                "column": layout.columns[card.column].id,
                "circles": card.circles,
                "side": s.SIDES[0 if s.mastery_master[k] and not s.solo else 1],
                "value": mastery_value(s, k),
            }
            for k, card in enumerate((mastery_card(s, 0), mastery_card(s, 1)))
        ],
        "deck": {
            "cards": deck_cards,
            "known_bottom": [cards[o].name for o in table.deck[: table.deck_seen]][:deck_cards],
        },
        "discards": [cards[o].name for o in s.discards],
        "seats": seats,
    }
    if s.phase == OVER:
        obs["winners"] = s.winners()
    return obs
