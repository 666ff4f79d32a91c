"""Merchants of Magick (rulebook ``000_ab43b6b995c67bb5.txt``): 1-8 players, solo variant."""

from rulebook.core import Game, Setup, Variant, register
from rulebook.core.rollwrite.render import menu_entry
from rulebook.merchants_of_magick.bots import evaluate, evaluate_moves
from rulebook.merchants_of_magick.cards import authored_cards, cards
from rulebook.merchants_of_magick.encoding import encoder
from rulebook.merchants_of_magick.render import VIEWS, render, turn
from rulebook.merchants_of_magick.rules import Done, FreeMark, MerchantsState, Spend
from rulebook.merchants_of_magick.stats import counters, faction


def _create(setup: Setup) -> MerchantsState:
    return MerchantsState(GAME, setup)


GAME = register(
    Game(
        name="merchants-of-magick",
        title="Merchants of Magick",
        rulebook="000_ab43b6b995c67bb5.txt",
        variants=(
            Variant("solo", 1, 1, "Solo variant: 4 Orders and 2 waiting, Apprentice side only"),
            Variant("standard", 2, 8, "2-8 players, Orders rotate clockwise"),
        ),
        create=_create,
        evaluate=evaluate,
        evaluate_moves=evaluate_moves,
        render=render,
        turn_view=turn,
        views=VIEWS,
        menu_entry=menu_entry,
        cards=cards,
        authored_cards=authored_cards,
        data_package="rulebook.merchants_of_magick.data",
        description="Dice roll-and-write: craft items, research spells, fill Orders.",
        counters=counters,
        faction=faction,
        common_players=4,
        encoder=encoder,
        web_view="rulebook.merchants_of_magick.web",
    )
)

__all__ = ["GAME", "Done", "FreeMark", "MerchantsState", "Spend"]
