"""2-player Game Rules: the side board's linked cards and Salesman Steve.

"When you take a Kingdom or Craft Card, you must also immediately discard whatever card is in
the box connected to it by a black line" (Kingdom and Craft Cards in the 2-player Game), the
Slush Fund excepted. "Immediately after you sell a Weapon, look at the Salesman Steve area of the
2-player side board. Salesman Steve will sell a Standard Weapon to the race marked by the cube"
(Salesman Steve). The rest of the 2-player rules sit with the sections they change: Setting
Up For 2 in :mod:`~rulebook.battle_merchants.setup`, Steve's Weapons in battle and the side
board at the End of a Season in :mod:`~rulebook.battle_merchants.seasons`, the 2-player Game
End's Defeated Weapons prize in :mod:`~rulebook.battle_merchants.year_end`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants.content import Space
from rulebook.battle_merchants.setup import EMPTY

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def linked_card(s: Table, where: tuple[str, int]) -> tuple[str, int, int] | None:
    """Kingdom and Craft Cards in the 2-player Game: the card that taking the card in
    ``where`` (kind, space from 0) discards (its black line), as (kind, space, card); None if
    there is none (3-4 players, an empty space; a Final card, Slush Fund, is never discarded)."""
    link = s.content.links.get(where) if s.two else None
    if link is None:
        return None
    kind, slot = link
    pool = s.craft_pool if kind == "craft" else s.kingdom_pool
    if slot >= len(pool) or pool[slot] == EMPTY:
        return None
    card = pool[slot]
    if kind == "kingdom" and s.content.kingdom[card].duration == "final":
        return None
    return kind, slot, card


def discard_linked(s: Table, kind: str, slot: int) -> None:
    """Kingdom and Craft Cards in the 2-player Game: a card taken from space ``slot`` (from 0)
    discards the card its black line links it to.

    Decision: using Slush Fund still discards the Craft Card linked to its space.
    """
    link = linked_card(s, (kind, slot))
    if link is None:
        return
    other, at, card = link
    if other == "kingdom":
        s.kingdom_discard.append(card)
        s.kingdom_pool[at] = EMPTY
    else:
        s.craft_discard.append(card)
        s.craft_pool[at] = EMPTY


def steve_target(s: Table, sold: Space, before_sale: bool = False) -> Space | None:
    """Salesman Steve: where he sells next, the lowest open space of his race (locks
    ignored); ties go to the first such row clockwise from the row just sold to. None if the
    race is full. ``before_sale``: asked before the sale to ``sold`` is made (its space counts
    as filled)."""
    race = s.steve_races[s.steve_cube]
    board = s.board
    rows = len(board.rows)
    best: tuple[int, int] | None = None
    target = None
    for row, row_spaces in enumerate(board.rows):
        if board.row_race[row] != race:
            continue
        for b, space in enumerate(row_spaces):
            if s.spaces[space] == EMPTY and not (before_sale and space == sold.index):
                key = (b, (row - sold.row) % rows)
                if best is None or key < best:
                    best, target = key, space
                break
    return None if target is None else board.spaces[target]


def steve_sells(s: Table, sold: Space) -> Space | None:
    """Salesman Steve sells a Standard Weapon (no owner, no gold) after the sale to ``sold``,
    then his cube moves one space. Returns the space he sold to (None: no sale), whose Demand
    Token the caller checks as after any sale ("This may send a Demand Token to the Season
    Area")."""
    target = steve_target(s, sold)
    if target is not None:
        s.spaces[target.index] = s.steve * 2
    s.steve_cube = (s.steve_cube + 1) % len(s.steve_races)
    return target
