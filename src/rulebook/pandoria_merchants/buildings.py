"""3.2. Buildings and 3.4. Monuments, with the Building Index's effects on what things cost.

"To build a Building, you must have previously bought that Card. Pay the amount of Wood shown
on the Building [...], circle the Building symbol (rectangle) and cross out the Spell symbol
(star)." A Monument is "built over previously built Buildings": cross one out, pay 1 Craft and
5 Wood minus that Building's Wood. The Building Index's Wizardry, Carpenter, Academy and
Poorhouse act here; the others where they fire (Bank and Market: 5.; Saw Mill, Tower,
Workshop, Treasury, Statue, Store: 4.; Shrine: 3.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants import buying
from rulebook.pandoria_merchants.content import Card
from rulebook.pandoria_merchants.terms import ACADEMY, BUILT, MONUMENT, MONUMENTS, WOOD, replaced

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def spell_cost(s: PandoriaSheets, p: int, card: Card) -> int:
    """3.1. Spells at ``p``'s price in Crystals; Wizardry: 1 Crystal less (but always 1)."""
    return max(1, card.crystals - s.built(p, "wizardry"))


def build_cost(s: PandoriaSheets, p: int, card: Card) -> int:
    """3.2. Buildings at ``p``'s price in Wood; Carpenter: 1 Wood less (but always 1)."""
    return max(1, card.wood - s.built(p, "carpenter"))


def monument_cost(s: PandoriaSheets, p: int, card: Card) -> list[int]:
    """3.4. Monuments: 1 Craft + 5 Wood minus the recycled Building's Wood (min 1); Carpenter 1
    less.

    Decision: a Carpenter being recycled no longer lowers the cost.
    """
    t = s.c.tracks
    carpenters = s.built(p, "carpenter") - (card.building == "carpenter")
    wood = 0 if s.free_wood else max(1, t.monument_wood - card.wood - carpenters)
    return [wood, 0, t.monument_craft, 0]


def monument_value(s: PandoriaSheets) -> int | None:
    """3.4. Monuments: the highest-scoring Monument remaining (None: none is left)."""
    for left, (value, _) in zip(s.monument_left, s.c.monuments, strict=True):
        if left:
            return value
    return None


def poorhouse(s: PandoriaSheets, p: int) -> None:
    """Poorhouse (Building Index): at the end of the turn, each of ``p``'s tracks at 0 goes up to
    1."""
    if not s.family and s.built(p, "poorhouse") and 0 in s.tracks[p]:
        s.tell("poorhouse", p)
        s.tracks = replaced(s.tracks, p, tuple([max(1, t) for t in s.tracks[p]]))


def can_monument(s: PandoriaSheets, p: int, card: Card) -> bool:
    """3.4. Monuments: whether ``p`` may build one over ``card``'s Building now."""
    return (
        monument_value(s) is not None
        and buying.crafts_needed(s, p, monument_cost(s, p, card)) is not None
    )


def academy(s: PandoriaSheets, p: int) -> None:
    """Academy (Building Index): 1 VP "every time you build a Building, Monument or Relic"."""
    s.add_vp(p, ACADEMY, s.c.tracks.academy_vp * s.built(p, "academy"))


def build(s: PandoriaSheets, p: int, card: Card) -> None:
    """3.2. Buildings: pay Wood (Construct: none), circle the Building, cross out the Spell.

    Decision: the Academy scores for later Buildings, Monuments and Relics, not itself.
    """
    if not s.free_wood:
        buying.pay(s, p, buying.cost_in(WOOD, build_cost(s, p, card)))
    academy(s, p)
    s.mark(p, card.index, BUILT)


def monument(s: PandoriaSheets, p: int, card: Card) -> None:
    """3.4. Monuments: cross out a Building, pay, circle the highest remaining Monument."""
    buying.pay(s, p, monument_cost(s, p, card))
    s.mark(p, card.index, MONUMENT)
    value = monument_value(s)
    assert value is not None
    s.monument_left = replaced(s.monument_left, s.monument_left.index(True), False)
    s.monuments_won = replaced(s.monuments_won, p, (*s.monuments_won[p], value))
    s.add_vp(p, MONUMENTS, value)
    academy(s, p)
