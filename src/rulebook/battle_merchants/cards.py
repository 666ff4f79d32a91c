"""The texts of Battle Merchants' named cards, for looking one up in the terminal: the Kingdom
Cards of the player count (Take Kingdom Card) and the Craft Bonus cards (Mastering a Craft),
from the game's data files."""

from __future__ import annotations

from rulebook.battle_merchants.content import card_text, content
from rulebook.core import Setup
from rulebook.core.data import authored_reasons


def cards(setup: Setup) -> dict[str, str]:
    """The named cards of a game with ``setup.players`` players (all public)."""
    c = content()
    texts = {
        k.name: f"Kingdom Card ({k.duration}, {k.gold:+d} gold when taken): {card_text(k, c)}"
        for k in c.kingdom
        if setup.players in k.players
    }
    for weapon in c.weapons:
        texts[f"{weapon.capitalize()} Craft Bonus"] = (
            f"Craft Bonus card, to the first to reach Level {c.rules.bonus_level} of {weapon} "
            f"Craft: once per Season, Forge and Sell One {weapon} as one action"
        )
    return texts


def authored_cards(setup: Setup) -> dict[str, str]:
    """The Kingdom Cards the project authored (the rulebook lacks their list), each with its
    data file's reason; the Craft Bonus cards are the rulebook's."""
    return authored_reasons("rulebook.battle_merchants.data", "kingdom.toml", "cards")
