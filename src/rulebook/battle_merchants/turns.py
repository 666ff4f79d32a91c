"""Player Turns: the face-up cards turned over, then one action; the turn's end, and the
Season's end after the last of the final turns.

"On your turn, you get to take one action of your choice." At the start of a turn the face-up
Craft and Kingdom Cards are refilled (:func:`start_turn`); the action itself is made by its
section (:mod:`~rulebook.battle_merchants.craft`, :mod:`~rulebook.battle_merchants.forge`,
:mod:`~rulebook.battle_merchants.sell`, :mod:`~rulebook.battle_merchants.kingdom`), which ends
the turn (:func:`end_turn`): the next player clockwise, or war (Season's End: Time For War!,
:mod:`~rulebook.battle_merchants.seasons`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants.actions import OVER, TURN
from rulebook.battle_merchants.craft import craft_deck
from rulebook.battle_merchants.seasons import end_season
from rulebook.battle_merchants.setup import EMPTY

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def start_turn(s: Table) -> None:
    """Player Turns: turn over Craft and Kingdom Cards up to five and three (no re-shuffle).
    With 2 players the side board's cards slide down to fill gaps first (Kingdom and Craft
    Cards in the 2-player Game)."""
    rules = s.content.rules
    s.craft_pool = [x for x in s.craft_pool if x != EMPTY]
    s.kingdom_pool = [x for x in s.kingdom_pool if x != EMPTY]
    deck = craft_deck(s)
    crafts, kingdom = len(s.craft_pool), len(s.kingdom_pool)
    while len(s.craft_pool) < rules.face_up_crafts and deck:
        s.craft_pool.append(deck.pop())
    while len(s.kingdom_pool) < rules.face_up_kingdom and s.kingdom_deck:
        s.kingdom_pool.append(s.kingdom_deck.pop())
    s.tell("turned_up", crafts, kingdom)
    s.step = TURN
    s.count = 0
    s.penalty = 0


def end_turn(s: Table, kind: str) -> None:
    """Player Turns: the turn ends after an action of ``kind``; the Season ends after the
    last of the final turns (Season's End: Time For War!).

    Decision: the text ends a Season only with the third Demand Token, and a table can
    freeze before that (every player broke, at the Kingdom Card limit, nothing to sell):
    ``pass`` is legal only when no action is, and passing changes nothing, so when every
    player in turn has passed the table can never change again. Then war breaks out as if
    the Season had been triggered. A Season in which anyone can still act goes on.
    """
    war = s.war_after_turn(kind)
    s.last_kind = kind
    n = s.seats
    last = s.current
    s.passes = s.passes + 1 if kind == "pass" else 0
    if war:
        end_season(s, last)
        if s.step == OVER:
            return
    else:
        s.current = (last + 1) % n
    start_turn(s)
