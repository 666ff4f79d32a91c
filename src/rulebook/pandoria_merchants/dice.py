"""1. Roll 2 Resource Dice: the dice say which Resources are drawn in 2.; a "?" is any Resource
but the other die's, chosen before drawing (the Terrain Spell's dice too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.moves import Move, move
from rulebook.pandoria_merchants.terms import replaced

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def roll(s: PandoriaSheets) -> None:
    """1. Roll 2 Resource Dice: each die shows a Resource or a "?" (``-1``)."""
    faces = s.c.faces
    rolled = s.chance.roll((len(faces), len(faces)))
    s.dice = (faces[rolled[0] - 1], faces[rolled[1] - 1])
    s.both_wild = s.dice == (-1, -1)
    s.tell("rolled")


def wild_options(s: PandoriaSheets) -> list[Move]:
    """1. Roll 2 Resource Dice: "If you roll a "?" you can choose any Resource, but not the
    one on the other die. If you roll two "?", you may choose the same Resource for both
    dice." (The Terrain Spell's dice too.)"""
    dice = s.dice
    others = [d for d in dice if d >= 0]
    allowed = [k for k in range(len(KINDS)) if s.both_wild or k not in others]
    return [move("choose", KINDS[k]) for k in allowed]


def choose(s: PandoriaSheets, kind: str) -> None:
    """1. Roll 2 Resource Dice: the first "?" left becomes Resource ``kind``."""
    s.dice = replaced(s.dice, s.dice.index(-1), KINDS.index(kind))
