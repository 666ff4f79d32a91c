"""3. Spell, Building, Relic or Monument? "You may only do **one** of these things (3.1. -
3.4.) each turn."

3.1. Spells: "You must have previously bought the Card (» 5.) with the Spell. Pay the amount
shown in Crystals on the Card. Then use the Spell (» Spell Index)". 3.3. Relics: "cross out 2 or
3 of your collected Artifacts and pay 1 Craft. Then circle the highest-scoring Relic remaining".
Buildings (3.2) and Monuments (3.4) are built by :mod:`~rulebook.pandoria_merchants.buildings`,
Spells take their targets in :mod:`~rulebook.pandoria_merchants.spells`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants import buildings, buying, family, spells
from rulebook.pandoria_merchants.content import Card
from rulebook.pandoria_merchants.moves import PASS, Move, move
from rulebook.pandoria_merchants.terms import (
    BUILT,
    CAST,
    CRAFT,
    CRYSTAL,
    OWNED,
    RELICS,
    SHRINE,
    WOOD,
    replaced,
)

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def relic_value(s: PandoriaSheets, kind: int) -> int | None:
    """3.3. To make a Relic: the highest-scoring Relic of ``kind`` remaining (None: none)."""
    for value_left, (value, _) in zip(s.relic_left[kind], s.c.relics[kind][1], strict=True):
        if value_left:
            return value
    return None


def action_options(s: PandoriaSheets, p: int, one: bool = False) -> list[Move]:
    """3. Spell, Building, Relic or Monument? One of them, or nothing (``pass``); ``one``:
    stop at the first of them (family: 3. You may Cast one Spell)."""
    if s.family:
        return family.cast_options(s, p, one)
    moves = [PASS]
    cards = s.cards[p]
    for card in s.c.cards:
        state = cards[card.index]
        if state == OWNED:
            crystals = buying.cost_in(CRYSTAL, buildings.spell_cost(s, p, card))
            if (
                spells.has_target(s, p, card.spell, card)
                and buying.crafts_needed(s, p, crystals) is not None
            ):
                moves.append(move("cast", card.id))
                if one:
                    return moves
            wood = buying.cost_in(WOOD, buildings.build_cost(s, p, card))
            if buying.crafts_needed(s, p, wood) is not None:
                moves.append(move("build", card.id))
                if one:
                    return moves
        elif state == BUILT and buildings.can_monument(s, p, card):
            moves.append(move("monument", card.id))
            if one:
                return moves
    for kind, (artifacts, _) in enumerate(s.c.relics):
        if (
            s.held_artifacts[p] >= artifacts
            and s.tracks[p][CRAFT] >= s.c.tracks.relic_craft
            and relic_value(s, kind) is not None
        ):
            moves.append(move("relic", str(artifacts)))
    return moves


def act(s: PandoriaSheets, p: int, a: Move) -> None:
    """3. Spell, Building, Relic or Monument? Do the one chosen (``pass``: none), then on to
    4. (a Spell first takes its targets)."""
    verb = a.verb
    if verb == "pass":
        s._after_action()
        return
    if verb == "relic":
        make_relic(s, p, int(a.arg))
        s._after_action()
        return
    if s.family:
        family.cast(s, p, a.arg)
        return
    card = s._card(a)
    if verb == "cast":
        cast(s, p, card)
        spells.start_spell(s, card.spell, card.power)
        return
    if verb == "build":
        buildings.build(s, p, card)
    else:
        buildings.monument(s, p, card)
    s._after_action()


def cast(s: PandoriaSheets, p: int, card: Card) -> None:
    """3.1. Spells: "Pay the amount shown in Crystals on the Card", cross out the card's
    symbols (the card is cast); the Shrine (Building Index): 3 VP. Changes only ``p``'s
    tracks, cards and VP."""
    buying.pay(s, p, buying.cost_in(CRYSTAL, buildings.spell_cost(s, p, card)))
    s.mark(p, card.index, CAST)
    s.add_vp(p, SHRINE, s.c.tracks.shrine_vp * s.built(p, "shrine"))


def make_relic(s: PandoriaSheets, p: int, artifacts: int) -> None:
    """3.3. To make a Relic: cross out 2 or 3 Artifacts, pay 1 Craft, circle the highest remaining
    Relic."""
    kind = next(i for i, (n, _) in enumerate(s.c.relics) if n == artifacts)
    value = relic_value(s, kind)
    assert value is not None
    s.held_artifacts = replaced(s.held_artifacts, p, s.held_artifacts[p] - artifacts)
    s.set_track(p, CRAFT, s.tracks[p][CRAFT] - s.c.tracks.relic_craft)
    relic_taken(s, kind)
    s.relics_won = replaced(s.relics_won, p, (*s.relics_won[p], value))
    s.add_vp(p, RELICS, value)
    buildings.academy(s, p)


def relic_taken(s: PandoriaSheets, kind: int) -> None:
    """3.3 (and the Trolls' claims, solo): cross out the highest remaining Relic of ``kind``."""
    row = s.relic_left[kind]
    s.relic_left = replaced(s.relic_left, kind, replaced(row, row.index(True), False))
