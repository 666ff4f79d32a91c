"""The Archmagi board for the web app: Spell cards with their Top and Bottom Actions (SYMBOLS
GUIDE), the Magic Pool, the discard and exhausted piles, the three Monster Paths, the Magi
Ability Cards and Planted areas, the viewer's own Hand, and the decisions inside a turn (the
Flow of Magic, Search, Draft, "you may"). Every card, pile, token and symbol explains itself
with the texts of :func:`static`."""

from __future__ import annotations

from typing import Any

from rulebook.archmagi.cards import cards
from rulebook.archmagi.content import content, glossary
from rulebook.archmagi.symbols import effects_words
from rulebook.core import Setup


def static(setup: Setup) -> dict[str, Any]:
    """Every Spell's printed card (element, Top and Bottom Actions, also in plain words) and
    the Magi Ability Cards; the texts the board explains its parts with: every card's (as
    ``card NAME`` shows it), the symbols' and the table's (``data/glossary.toml``). The same
    for every seed (the cards in play are in the observation)."""
    c = content()
    words = glossary()

    def marked(name: str, text: str) -> str:
        ruling = words.authored.get(name)
        return f"{text}\nA ruling of this project: {ruling}." if ruling else text

    spells: dict[str, Any] = {}
    for spell in c.cards:
        spells.setdefault(
            spell.name,
            {
                "element": spell.element,
                "top": [e.text() for e in spell.top],
                "bottom": [e.text() for e in spell.bottom],
                "top_words": effects_words(spell.top),
                "bottom_words": effects_words(spell.bottom) if spell.bottom else "",
            },
        )
    return {
        "spells": spells,
        "magi": [
            {"element": m.element, "name": m.name, "ability": m.ability, "plays": m.plays}
            for m in c.magi
        ],
        "rounds": c.rules.rounds,
        "hand_limit": c.rules.hand_limit,
        "cards": cards(setup),
        "symbols": [
            {"kind": kind, "name": name, "text": marked(name, text)}
            for kind, (name, text) in words.symbols.items()
        ],
        "terms": {name: marked(name, text) for name, text in words.terms.items()},
    }
