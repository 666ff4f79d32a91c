"""FAMILY VERSION: one Spell a turn from the Archive, Guilds, 1 VP per Resource.

"In this version of the game, every Resource is one Victory Point"; Guild Scoring: "Whenever
you score for Resources matching your Guild [...], you score 1 bonus point for each hex space
with that Resource in the enclosed area." 5. Spell Archive: "When you enclose one or more areas
on your turn, you earn **one** Spell in the Archive." The game "can end earlier, if all level 3
spells have been taken".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.core import IllegalAction
from rulebook.pandoria_merchants import spells
from rulebook.pandoria_merchants.content import FamilySpell
from rulebook.pandoria_merchants.moves import PASS, Move, move
from rulebook.pandoria_merchants.terms import AREAS, GUILD, replaced, without

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def level3_exhausted(s: PandoriaSheets) -> bool:
    """End of Game and Final Score (family): "The game can end earlier, if all level 3 spells
    have been taken"."""
    rooms = [s.c.rooms[r] for r in s.rooms if s.c.rooms[r].level == 3]
    return all(s.taken[r.index] >= len(r.spells) for r in rooms)


def family_spell(s: PandoriaSheets, name: str) -> FamilySpell:
    """5. Spell Archive: the Spell of that name (what it does and its strength)."""
    for room in s.c.rooms:
        for fs in room.spells:
            if fs.name == name:
                return fs
    raise IllegalAction(f"no Spell {name!r} in the Archive")


def claimable(s: PandoriaSheets) -> list[int]:
    """5. Spell Archive: the room being filled until its Spells are all taken ("The next
    turn areas are enclosed, that player writes their initial on the next Spell in that
    room"); then any room with Spells left on the lowest such level."""
    rooms = s.c.rooms
    if s.open_room >= 0 and s.taken[s.open_room] < len(rooms[s.open_room].spells):
        return [s.open_room]
    left = [r for r in s.rooms if s.taken[r] < len(rooms[r].spells)]
    if not left:
        return []
    level = min(rooms[r].level for r in left)
    return [r for r in left if rooms[r].level == level]


def cast_options(s: PandoriaSheets, p: int, one: bool = False) -> list[Move]:
    """3. You may Cast one Spell: ``pass``, or one of ``p``'s Spells of the Archive that can
    act on something now (``one``: stop at the first)."""
    moves = [PASS]
    for spell in sorted(set(s.held[p])):
        fs = family_spell(s, spell)
        if spells.has_target(s, p, fs.spell):
            moves.append(move("cast", spell))
            if one:
                return moves
    return moves


def cast(s: PandoriaSheets, p: int, name: str) -> None:
    """3. You may Cast one Spell: "When you use one of your Spells, cross it out in the
    Archive"; then it acts (Spell Index)."""
    s.held = replaced(s.held, p, without(s.held[p], name))
    s.used_spells = replaced(s.used_spells, p, s.used_spells[p] + 1)
    fs = family_spell(s, name)
    spells.start_spell(s, fs.spell, fs.power)


def claim_options(s: PandoriaSheets) -> list[Move]:
    """5. Spell Archive: a Spell to claim from each room that may be chosen now."""
    return [move("claim", s.c.rooms[r].id) for r in claimable(s)]


def claim(s: PandoriaSheets, p: int, room_id: str) -> None:
    """5. Spell Archive: "write your initial on the top Spell in that room to claim it"."""
    room = next(r for r in s.c.rooms if r.id == room_id)
    spell = room.spells[s.taken[room.index]].name
    s.held = replaced(s.held, p, (*s.held[p], spell))
    s.taken = replaced(s.taken, room.index, s.taken[room.index] + 1)
    s.open_room = room.index


def earn(s: PandoriaSheets, p: int, kind: int, size: int, workers: int) -> None:
    """4. Score any Enclosed Areas (family): "every Resource is one Victory Point" per Worker;
    Guild Scoring: 1 bonus point per hex of the Guild's Resource, with at least one Worker."""
    s.add_vp(p, AREAS, size * workers)
    if s.guild[p] == kind:
        s.add_vp(p, GUILD, size)
