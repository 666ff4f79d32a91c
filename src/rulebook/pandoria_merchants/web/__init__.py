"""The Pandoria Merchants board for the web app: the Map sheet (the hex map drawn as SVG, with
its rivers, lakes and Ship spaces; the Solo Map's Territories and Bridges), the Realm sheet
(Spell/Building Cards, Resource tracks, Relics and Monuments), the dice, the family version's
Spell Archive and Guilds, and the Trolls' table in solo; and what each part of them means
(``texts``: the texts of ``card NAME``, from the data files), for the board's tips."""

from __future__ import annotations

from typing import Any

from rulebook.core import Setup
from rulebook.core.data import load
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.cards import amount, cards, index, spell_title, title
from rulebook.pandoria_merchants.content import PACKAGE, MapsFile, content


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


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
        # what each card, Spell, Building and part of the sheets means (as `card NAME` says)
        "texts": cards(setup),
    }
    if setup.variant != "family":
        spells, buildings = index()
        areas = c.tracks.solo_buy_after_areas if solo else 1
        after = "an area" if areas == 1 else f"{areas} areas in one turn"
        # each part of a Realm card: its Spell, its Building and its price, with what it costs
        out["card_parts"] = {
            card.id: {
                "spell": f"Spell {spell_title(card.spell, card.power)}: costs "
                f"{amount(card.crystals, 'crystal')} to cast. "
                f"{_sentence(spells[card.spell].format(power=card.power))}.",
                "building": f"Building {title(card.building)}: costs "
                f"{amount(card.wood, 'wood')} to build. {_sentence(buildings[card.building])}.",
                "price": f"Price: {amount(card.gold, 'gold')} to buy this card, after "
                f"enclosing {after} (Crafts stand in for Gold you lack).",
            }
            for card in c.cards
        }
    if setup.variant == "family":
        out["guilds"] = [
            {"name": name, "resource": KINDS[kind]} for name, kind in c.guilds[: setup.players]
        ]
    if solo:
        out["territories"] = c.solo.territories
    return out
