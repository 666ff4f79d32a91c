"""The texts of Pandoria Merchants' cards and components, for looking one up in the terminal
(``card NAME``) and for the web board's tips: each Spell and Building (Spell Index, Building
Index; ``data/index.toml``, checked against the Realm sheet on load), each card of the Realm
sheet with its costs (marked authored, as ``data/realm.toml`` says), and what each part of the
sheets means (``data/glossary.toml``: Resources, dice, hexes and symbols, tracks, Relics,
Monuments, Guilds, the Spell Archive, Territories, Bridges, the Trolls)."""

from __future__ import annotations

import functools
from typing import Literal

from pydantic import Field

from rulebook.core import Setup
from rulebook.core.data import DataError, Sourced, Strict, authored_reasons, cached, load
from rulebook.pandoria_merchants.content import (
    BUILDINGS,
    PACKAGE,
    SPELLS,
    Card,
    RealmFile,
    content,
)

Variant = Literal["standard", "family", "solo"]
VARIANTS: tuple[Variant, ...] = ("standard", "family", "solo")
#: what a text says of a value or layout this project authored (the rulebook lacks it)
AUTHORED = "Authored for this project"
#: the note on a Spell of an authored room of the family version's Spell Archive
ARCHIVE_NOTE = (
    f". {AUTHORED}: the rulebook does not say which Spells each room of the Spell Archive "
    "holds; these rooms were drawn for it."
)


class Entry(Sourced):
    name: str
    text: str = Field(min_length=1)


class IndexFile(Strict):
    spells: list[Entry]
    buildings: list[Entry]


class Term(Sourced):
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    #: the variants it holds for (all when empty)
    variants: tuple[Variant, ...] = ()


class Notes(Sourced):
    authored_card: str = Field(min_length=1)


class GlossaryFile(Strict):
    notes: Notes
    entries: list[Term]


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


@cached
def glossary() -> tuple[dict[str, dict[str, str]], str, tuple[bool, ...]]:
    """Per variant, each component's text; the note on an authored Realm card; and, per card
    of the Realm sheet, whether realm.toml marks it authored. Checked: one text per name and
    variant, none named as a Spell, Building or card (whose texts come from index.toml), and
    every text of an entry with authored values says so."""
    data = load(GlossaryFile, PACKAGE, "glossary.toml")
    by_variant: dict[str, dict[str, str]] = {v: {} for v in VARIANTS}
    taken = {*SPELLS, *BUILDINGS, *(c.id for c in content().cards)}
    for term in data.entries:
        if term.name in taken:
            raise DataError(f"glossary: {term.name!r} is a Spell, Building or card of index.toml")
        if term.authored and AUTHORED not in term.text:
            raise DataError(f"glossary: {term.name!r} describes authored values: say so")
        for v in term.variants or VARIANTS:
            if term.name in by_variant[v]:
                raise DataError(f"glossary: two texts of {term.name!r} for the {v} version")
            by_variant[v][term.name] = term.text
    realm = load(RealmFile, PACKAGE, "realm.toml")
    authored = tuple(spec.source == "authored" for spec in realm.cards)
    return by_variant, data.notes.authored_card, authored


@functools.cache  # a few dozen names, spelled out for every menu at every move
def title(name: str) -> str:
    """A Spell, Building or Resource as the sheets print it: ``saw-mill`` -> ``Saw Mill``."""
    return " ".join(word.capitalize() for word in name.split("-"))


def spell_title(spell: str, power: int) -> str:
    """A Spell with the strength its card or Archive room gives it, where Spells come in two
    strengths (``Rage 3``); the others by name alone (``Muster``)."""
    strengths = content().default_power
    return f"{title(spell)} {power}" if spell in strengths else title(spell)


def card_title(card: Card) -> str:
    """``Rage 2 / Tower``: a Realm card by its Spell (with its strength) and its Building."""
    return f"{spell_title(card.spell, card.power)} / {title(card.building)}"


def amount(count: int, resource: str) -> str:
    """``3 Wood``, ``1 Crystal``, ``2 Crafts``, ``4 Gold``, ``2 Cities`` (Wood and Gold have
    no plural)."""
    noun = title(resource)
    if count == 1 or resource in ("wood", "gold"):
        return f"{count} {noun}"
    return f"{count} Cities" if resource == "city" else f"{count} {noun}s"


def realm_card_text(card: Card) -> str:
    """What a Realm card is: its column, price, Spell and Building with their printed costs
    and effects, and the note that it is authored where realm.toml says so."""
    spells, buildings = index()
    _, note, authored = glossary()
    text = (
        f"Realm card, column {card.column + 1}: costs {amount(card.gold, 'gold')} to buy. "
        f"Spell {spell_title(card.spell, card.power)}, cast for "
        f"{amount(card.crystals, 'crystal')}: {spells[card.spell].format(power=card.power)}. "
        f"Building {title(card.building)}, built for {amount(card.wood, 'wood')}: "
        f"{buildings[card.building]}."
    )
    return f"{text} {note}" if authored[card.index] else text


def cards(setup: Setup) -> dict[str, str]:
    """Every Spell, Building and Realm card and every component of the variant; the family
    version: the Archive's Spells and its components."""
    c = content()
    spells, buildings = index()
    terms = glossary()[0][setup.variant]
    if setup.variant == "family":
        rooms = authored_reasons(PACKAGE, "game.toml", "archive", "room")
        texts = {
            s.name: f"Spell (Spell Archive): {spells[s.spell].format(power=s.power)}"
            + (ARCHIVE_NOTE if room.id in rooms else "")
            for room in c.rooms
            for s in room.spells
        }
        return {**texts, **terms}
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
        texts[card.id] = realm_card_text(card)
    return {**texts, **terms}


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
