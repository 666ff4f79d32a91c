"""The Archmagi board for the web app: Spell cards with their Top and Bottom Actions (SYMBOLS
GUIDE), the Magic Pool, the discard and exhausted piles, the three Monster Paths, the Magi
Ability Cards and Planted areas, the viewer's own Hand, and the decisions inside a turn (the
Flow of Magic, Search, Draft, "you may")."""

from __future__ import annotations

from typing import Any

from rulebook.archmagi.content import content
from rulebook.core import Setup


def static(setup: Setup) -> dict[str, Any]:
    """Every Spell's printed card (element, Top and Bottom Actions) and the Magi Ability Cards;
    the same for every seed (the cards in play are in the observation)."""
    c = content()
    spells: dict[str, Any] = {}
    for spell in c.cards:
        spells.setdefault(
            spell.name,
            {
                "element": spell.element,
                "top": [e.text() for e in spell.top],
                "bottom": [e.text() for e in spell.bottom],
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
    }
