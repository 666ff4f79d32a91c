"""The Pandoria Merchants board for the web app: the Map sheet (the hex map drawn as SVG, with
its rivers, lakes and Ship spaces; the Solo Map's Territories and Bridges), the Realm sheet
(Spell/Building Cards, Resource tracks, Relics and Monuments), the dice, the family version's
Spell Archive and Guilds, and the Trolls' table in solo."""

from __future__ import annotations

from typing import Any

from rulebook.core import Setup
from rulebook.core.data import load
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.content import PACKAGE, MapsFile, content


def static(setup: Setup) -> dict[str, Any]:
    """The printed sheets of this setting (Map, Realm sheet, Trolls' table)."""
    c = content()
    solo = setup.variant == "solo"
    board = c.boards[0 if solo else setup.players]
    maps = load(MapsFile, PACKAGE, "maps.toml")
    out: dict[str, Any] = {
        "width": board.width,
        "height": board.height,
        # the rivers printed across the map: the last one drawn is the boundary (fewer players)
        "rivers": []
        if solo
        else [r.after_row for r in maps.standard.rivers if r.after_row <= board.height],
        "boundary": None if solo or board.height == len(maps.standard.rows) else board.height,
        "bridges": [[board.names[a], board.names[b]] for a, b in board.bridges],
        "tracks": {"start": c.tracks.start, "maximum": c.tracks.maximum},
        "dice_faces": ["wild" if f < 0 else KINDS[f] for f in c.faces],
        "relics": [
            {"artifacts": artifacts, "values": [v for v, _ in row]} for artifacts, row in c.relics
        ],
        "monuments": [v for v, _ in c.monuments],
        "starting_column": 1,
    }
    if setup.variant == "family":
        out["guilds"] = [
            {"name": name, "resource": KINDS[kind]} for name, kind in c.guilds[: setup.players]
        ]
    if solo:
        out["territories"] = c.solo.territories
    return out
