"""Spell Index: what each Spell does, its targets, and whether it has any.

"3.1. Spells give you powerful one-time abilities": Acquire (a card without paying Gold), Clone
(a Worker next to one of yours), Conjure (a track to 5), Construct (build without Wood), Muster
(a Worker next to anything drawn), Rage ("One of your Workers is worth 2 (or 3) Workers when
scoring this turn"), Ship (a Worker on a Ship space, scoring areas next to its lake), Swamp
(1 or 2 empty hexes blackened, a boundary), Terrain (1 or 2 dice of Resources, no Worker). A
Spell with nothing to act on is not offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants import buildings, buying, dice, drawing
from rulebook.pandoria_merchants.board import KINDS, bits
from rulebook.pandoria_merchants.content import Card
from rulebook.pandoria_merchants.moves import SKIP, Move, move
from rulebook.pandoria_merchants.terms import (
    BUILT,
    CRAFT,
    NONE,
    OWNED,
    RESOURCES,
    SPELL,
    replaced,
    without,
)

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def clone_hexes(s: PandoriaSheets, p: int) -> int:
    """Spell Index, Clone: where the Spell may place a Worker: free hexes next to ``p``'s
    Workers."""
    return s.board.around(s.workers[p]) & drawing.free_hexes(s)


def has_target(s: PandoriaSheets, p: int, spell: str, card: Card | None = None) -> bool:
    """Spell Index: whether the Spell can do anything now (a Spell without one is not offered)."""
    if spell == "acquire":
        return any(s.cards[p][c.index] == NONE and buying.buyable(s, c) for c in s.c.cards)
    if spell == "clone":
        return bool(clone_hexes(s, p))
    if spell == "conjure":
        return True
    if spell == "construct":
        return any(
            (s.cards[p][c.index] == OWNED and c is not card)
            or (
                s.cards[p][c.index] == BUILT
                and buildings.monument_value(s) is not None
                and s.tracks[p][CRAFT] >= s.c.tracks.monument_craft
            )
            for c in s.c.cards
        )
    if spell == "muster":
        return bool(drawing.anchor_hexes(s))
    if spell == "rage":
        return bool(s.workers[p])
    if spell == "ship":
        return any(ship not in s.ships for ship in s.board.ships)
    if spell in ("swamp", "terrain"):
        return bool(s.near & drawing.free_hexes(s))
    raise AssertionError(spell)  # pragma: no cover


def spell_options(s: PandoriaSheets, p: int) -> list[Move]:
    """Spell Index: the targets of the Spell being cast, one at a time (Swamp and Terrain:
    while targets are left)."""
    spell = s.spell
    name = s.board.names
    free = drawing.free_hexes(s)
    if spell == "acquire":
        return [
            move("take", c.id)
            for c in s.c.cards
            if s.cards[p][c.index] == NONE and buying.buyable(s, c)
        ]
    if spell == "clone":
        return [move("worker", name[h]) for h in bits(clone_hexes(s, p))]
    if spell == "conjure":
        return [move("conjure", r) for r in RESOURCES]
    if spell == "construct":
        moves = [move("build", c.id) for c in s.c.cards if s.cards[p][c.index] == OWNED]
        moves += [
            move("monument", c.id)
            for c in s.c.cards
            if s.cards[p][c.index] == BUILT and buildings.can_monument(s, p, c)
        ]
        return moves
    if spell == "muster":
        return [move("worker", name[h]) for h in bits(drawing.anchor_hexes(s))]
    if spell == "rage":
        return [move("rage", name[h]) for h in bits(s.workers[p])]
    if spell == "ship":
        return [move("ship", name[ship]) for ship in s.board.ships if ship not in s.ships]
    if spell == "swamp":
        if s.spell_left <= 0:
            return []
        if s.spell_hex < 0:
            return [move("swamp", name[h]) for h in bits(s.near & free)]
        second = s.board.nbr[s.spell_hex] & free
        return [*(move("swamp", name[h]) for h in bits(second)), SKIP] if second else []
    if spell == "terrain":
        if -1 in s.dice:
            return dice.wild_options(s)
        if s.spell_left <= 0:
            return []
        kinds = sorted(set(s.dice))
        return [move(KINDS[k], name[h]) for h in bits(s.near & free) for k in kinds]
    raise AssertionError(spell)  # pragma: no cover


def start_spell(s: PandoriaSheets, spell: str, power: int) -> None:
    """3.1. Spells: "Then use the Spell (» Spell Index)": set it up (Construct: no Wood;
    Terrain: roll its 1 or 2 dice) and go to its targets."""
    s.spell = spell
    s.power = power
    s.spell_left = power
    s.spell_hex = -1
    s.free_wood = spell == "construct"
    if spell == "terrain":
        faces = s.c.faces
        rolled = s.chance.roll((len(faces),) * power)
        s.dice = tuple([faces[r - 1] for r in rolled])
        s.both_wild = all(d == -1 for d in s.dice)
        s.tell("terrain_rolled")
    s._enter(SPELL)


def do_spell(s: PandoriaSheets, p: int, a: Move) -> None:
    """Spell Index: the Spell being cast acts on one target (move ``a``); then on to 4., or
    to its next target."""
    spell = s.spell
    verb = a.verb
    done = True
    if spell == "acquire":
        buying.own(s, p, s._card(a))
    elif spell in ("clone", "muster"):
        h = s._hex(a)
        s.workers = replaced(s.workers, p, s.workers[p] | 1 << h)
        s.empty &= ~(1 << h)
        s.touched |= 1 << h
        s.near |= s.board.nbr[h]
    elif spell == "conjure":
        s.set_track(p, RESOURCES.index(a.arg), s.c.tracks.maximum)
    elif spell == "construct":
        card = s._card(a)
        if verb == "build":
            buildings.build(s, p, card)
        else:
            buildings.monument(s, p, card)
    elif spell == "rage":
        s.rage_hex = s._hex(a)
        s.rage_extra = s.power - 1
        s.raged = (p, s.rage_hex, s.power, 0)
    elif spell == "ship":
        s.ships = {**s.ships, s._hex(a): p}
    elif spell == "swamp":
        if verb == "skip":
            s.spell_left = 0
        else:
            h = s._hex(a)
            s.swamp |= 1 << h
            s.empty &= ~(1 << h)
            s.touched |= 1 << h
            s.spell_hex = h
            s.spell_left -= 1
        done = False
    elif spell == "terrain":
        if verb == "choose":
            dice.choose(s, a.arg)
        else:
            h = s._hex(a)
            kind = KINDS.index(verb)
            s.dice = without(s.dice, kind)
            drawing.place(s, h, kind)
            s.near |= s.board.nbr[h]
            s.spell_left -= 1
        done = False
    s.free_wood = False if done else s.free_wood
    if done:
        s._after_action()
    else:
        s._enter(SPELL)
