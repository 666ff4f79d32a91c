"""Take Kingdom Card (Kingdom Card Durations): the Take One Kingdom Card action, and what the
cards in front of a player do later.

"When you choose the Take Kingdom Card action, you take one of the three face-up Kingdom
Cards." Its gold is collected (or paid) at once; a Permanent or End card stays in front of you,
within the Season's limit (Spring 2, Summer and Autumn 3, Winter 4); an Immediate card acts and
is discarded; a Final card never leaves its space. The cards kept change other sections' numbers
through :func:`effects` (forge costs, sale values, battle Levels, repairs, the Year's End).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants import two_players
from rulebook.battle_merchants.actions import FREE_CRAFT, FREE_FORGE, SELLING, TURN
from rulebook.battle_merchants.content import KingdomCard
from rulebook.battle_merchants.setup import EMPTY

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def effects(s: Table, p: int, effect: str) -> list[KingdomCard]:
    """Take Kingdom Card: the cards in front of seat ``p`` whose text does ``effect``."""
    k = s.content.kingdom
    return [k[i] for i in s.kingdom_cards[p] if k[i].effect == effect]


def kingdom_limit(s: Table) -> int:
    """Take Kingdom Card: how many cards a player may have in front of them this Season."""
    return s.content.rules.kingdom_limit[s.season]


def can_take_kingdom(s: Table, p: int, card: int) -> bool:
    """Kingdom Card Durations: Permanent and End cards need room under the Season's limit; a
    card showing negative gold needs that gold."""
    k = s.content.kingdom[card]
    if k.duration in ("permanent", "end") and len(s.kingdom_cards[p]) >= kingdom_limit(s):
        return False
    return s.gold[p] + k.gold >= 0


def take_kingdom(s: Table, p: int, slot: int) -> str:
    """Take Kingdom Card: take the card in Kingdom space ``slot`` (from 0; a Final card stays
    there), collect or pay its gold, then apply it. Returns the next step of the turn (TURN
    when the turn is over): ExtraCrafty's free Craft Card, Free Samples' free Weapon, the two
    sales of Drive the Workers and Desperate Times (``penalty`` gold less per sale)."""
    c = s.content
    card = s.kingdom_pool[slot]
    k = c.kingdom[card]
    if k.duration != "final":
        s.kingdom_pool[slot] = EMPTY
    two_players.discard_linked(s, "kingdom", slot)
    s.tally_one(p, f"kingdom:{k.name}")
    s.gold[p] += k.gold
    if k.duration in ("permanent", "end"):
        s.kingdom_cards[p] = [*s.kingdom_cards[p], card]
    elif k.duration == "immediate":
        s.kingdom_discard.append(card)
    if k.effect == "free_craft":
        return FREE_CRAFT if any(x != EMPTY for x in s.craft_pool) else TURN
    if k.effect == "free_forge":
        return FREE_FORGE
    if k.effect == "sell_twice":
        s.penalty = k.amount
        return SELLING
    if k.effect == "region_tile" and k.region in s.board.regions:
        r = s.board.regions.index(k.region)
        if s.region_on_board[r]:
            s.region_on_board[r] = False
            tiles = s.region_tiles[p] = s.region_tiles[p].copy()
            tiles[r] += 1
    return TURN
