"""Pandoria Merchants (rulebook ``003_85552cb3b950eabe.txt``): standard 2-4, family, solo."""

from rulebook.core import Game, Option, Setup, Variant, register
from rulebook.pandoria_merchants.bots import evaluate
from rulebook.pandoria_merchants.cards import authored_cards, cards
from rulebook.pandoria_merchants.encoding import encoder
from rulebook.pandoria_merchants.render import VIEWS, menu_entry, render, turn
from rulebook.pandoria_merchants.rules import Move, PandoriaState
from rulebook.pandoria_merchants.stats import counters, faction


def _create(setup: Setup) -> PandoriaState:
    return PandoriaState(GAME, setup)


GAME = register(
    Game(
        name="pandoria-merchants",
        title="Pandoria Merchants",
        rulebook="003_85552cb3b950eabe.txt",
        variants=(
            Variant("standard", 2, 4, "2-4 players, Realm sheets: Spells, Buildings, Relics"),
            Variant("family", 2, 4, "streamlined: Guilds, 1 VP per Resource, Spell Archive"),
            Variant(
                "solo", 1, 1, "one player against the Trolls, 8 Territories", opponent="the Trolls"
            ),
        ),
        options=(
            Option(
                "level",
                ("beginner", "intermediate", "expert"),
                "beginner",
                variants=("solo",),
                description="the Trolls' score for Territories 7 and 8: 60/70, 65/80, 70/100",
            ),
        ),
        create=_create,
        evaluate=evaluate,
        render=render,
        turn_view=turn,
        views=VIEWS,
        menu_entry=menu_entry,
        cards=cards,
        authored_cards=authored_cards,
        data_package="rulebook.pandoria_merchants.data",
        description="Hex-map roll-and-write: draw Resources and Workers, enclose areas, score.",
        counters=counters,
        faction=faction,
        common_players=4,
        encoder=encoder,
        web_view="rulebook.pandoria_merchants.web",
    )
)

__all__ = ["GAME", "Move", "PandoriaState"]
