"""Learn Craft (Craft Cards; Mastering a Craft): the Learn One Craft action.

"When you choose the Learn Craft action, take one of the five face-up Craft Cards and place it
next to your player mat." A card costs nothing, or one or two times your Levels in its Weapon;
it adds its Levels and its forge discount coins for good. The first player to the sixth Level
of a Weapon takes that Weapon's Craft Bonus card (Mastering a Craft).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants import two_players
from rulebook.battle_merchants.setup import EMPTY

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def craft_deck(s: Table) -> list[int]:
    """Player Turns, End of Season Cleanup: the Spring/Summer Craft deck in the first two
    Seasons, then the Autumn/Winter deck."""
    return s.spring_deck if s.season < 2 else s.autumn_deck


def learn_cost(s: Table, p: int, card: int) -> int:
    """Craft Cards: free, or x1 / x2 times your Levels in that Weapon."""
    t = s.tables
    return t.craft_multiplier[card] * s.levels[p][t.craft_weapon[card]]


def learn(s: Table, p: int, slot: int, free: bool) -> None:
    """Learn Craft: pay (unless ``free``, ExtraCrafty), take the card in Craft space ``slot``
    (from 0), gain its Levels and coins; the first to Level 6 takes the Craft Bonus card
    (Mastering a Craft)."""
    card = s.craft_pool[slot]
    k = s.content.crafts[card]
    if not free:
        s.gold[p] -= learn_cost(s, p, card)
    s.craft_pool[slot] = EMPTY
    two_players.discard_linked(s, "craft", slot)
    s.crafts[p] = [*s.crafts[p], card]
    levels = s.levels[p] = s.levels[p].copy()
    levels[k.weapon] += k.levels
    coins = s.coins[p] = s.coins[p].copy()
    coins[k.weapon] += k.coins
    if levels[k.weapon] >= s.content.rules.bonus_level and s.bonus_owner[k.weapon] == EMPTY:
        s.bonus_owner[k.weapon] = p
        s.bonus_up[k.weapon] = True
