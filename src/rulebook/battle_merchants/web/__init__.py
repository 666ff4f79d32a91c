"""The Battle Merchants board for the web app: the game board (Regions, Battlefields with
their Weapon Spaces and Demand Tokens, the Season Area), the face-up Craft and Kingdom Cards,
the Craft Bonus cards, the merchants' mats and, with 2 players, Salesman Steve."""

from __future__ import annotations

from typing import Any

from rulebook.battle_merchants.cards import cards
from rulebook.battle_merchants.content import content
from rulebook.core import Setup


def static(setup: Setup) -> dict[str, Any]:
    """What the board and the mats print for this player count (Setup; the mats' chart), and
    the text of every card and component by name (:func:`rulebook.battle_merchants.cards.cards`,
    the terminal's ``card NAME``), for the board's tips."""
    c = content()
    chart = c.chart
    board = c.boards[setup.players]
    return {
        "weapons": list(c.weapons),
        "races": [c.races[r] for r in board.races],
        "colours": list(c.colours[: setup.players]),
        "seasons": list(c.rules.seasons),
        "season_tokens": c.rules.season_tokens,
        "vorpal_level": c.rules.vorpal_level,
        "bonus_level": c.rules.bonus_level,
        "forge_limit": c.rules.forge_limit,
        "chart": {
            "standard": {
                "forge": chart.forge_standard,
                "sell": chart.sell_standard,
                "end": chart.end_standard,
            },
            "vorpal": {
                "forge": chart.forge_vorpal,
                "sell": chart.sell_vorpal,
                "end": chart.end_vorpal,
            },
        },
        "steve": setup.players == 2,
        "texts": cards(setup),
    }
