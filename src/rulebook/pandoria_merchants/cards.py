"""The texts of Pandoria Merchants' cards, for looking one up in the terminal: each Spell and
Building (Spell Index, Building Index; ``data/index.toml``, checked against the Realm sheet on
load) and each card of the Realm sheet with its costs."""

from __future__ import annotations

from pydantic import Field

from rulebook.core import Setup
from rulebook.core.data import DataError, Sourced, Strict, authored_reasons, cached, load
from rulebook.pandoria_merchants.content import BUILDINGS, PACKAGE, SPELLS, content


class Entry(Sourced):
    name: str
    text: str = Field(min_length=1)


class IndexFile(Strict):
    spells: list[Entry]
    buildings: list[Entry]


@cached
def index() -> tuple[dict[str, str], dict[str, str]]:
    """The Spell and Building texts, checked: exactly the Realm sheet's Spells and Buildings."""
    data = load(IndexFile, PACKAGE, "index.toml")
    spells = {e.name: e.text for e in data.spells}
    buildings = {e.name: e.text for e in data.buildings}
    if sorted(spells) != sorted(SPELLS) or len(spells) != len(data.spells):
        raise DataError("index: one text for each of the 9 Spells")
    if sorted(buildings) != sorted(BUILDINGS) or len(buildings) != len(data.buildings):
        raise DataError("index: one text for each of the 13 Buildings")
    return spells, buildings


def cards(setup: Setup) -> dict[str, str]:
    """Every Spell, Building and Realm card; the family version: the Archive's Spells."""
    c = content()
    spells, buildings = index()
    if setup.variant == "family":
        return {
            s.name: f"Spell (Spell Archive): {spells[s.spell].format(power=s.power)}"
            for room in c.rooms
            for s in room.spells
        }
    powers: dict[str, set[int]] = {}
    for card in c.cards:
        if card.power:
            powers.setdefault(card.spell, set()).add(card.power)
    texts = {
        name: "Spell: "
        + spells[name].format(power=" or ".join(str(p) for p in sorted(powers.get(name, {1}))))
        for name in SPELLS
    }
    for name in BUILDINGS:
        texts[name] = f"Building: {buildings[name]}"
    for card in c.cards:
        spell = spells[card.spell].format(power=card.power)
        strength = f" {card.power}" if card.power else ""
        texts[card.id] = (
            f"Realm card, column {card.column + 1}: {card.gold} Gold to buy. Spell "
            f"{card.spell}{strength} ({card.crystals} Crystals): {spell}. Building "
            f"{card.building} ({card.wood} Wood): {buildings[card.building]}"
        )
    return texts


def authored_cards(setup: Setup) -> dict[str, str]:
    """The cards the project authored, each with its data file's reason: every Realm card
    (the rulebook does not say which Spell and Building share a card, nor any cost) and, in
    the family version, the Spell Archive's Spells (its rooms are not in the text)."""
    if setup.variant == "family":
        rooms = authored_reasons(PACKAGE, "game.toml", "archive", "room")
        return {s.name: rooms[r.id] for r in content().rooms for s in r.spells if r.id in rooms}
    return index_reasons() | authored_reasons(
        PACKAGE, "realm.toml", "cards", lambda e: f"{e.get('spell')}/{e.get('building')}"
    )


def index_reasons() -> dict[str, str]:
    """The Spell and Building texts the project authored (none, where the index is the
    rulebook's)."""
    return authored_reasons(PACKAGE, "index.toml", "spells") | authored_reasons(
        PACKAGE, "index.toml", "buildings"
    )
