"""Ye Olde Magick Shoppe v0.7.2 (rulebook ``002_b27f334b14e381b8.txt``): 1-8 players, solo."""

from rulebook.core import Game, Setup, Variant, register
from rulebook.core.rollwrite.render import menu_entry
from rulebook.ye_olde_magick_shoppe.bots import evaluate, evaluate_moves
from rulebook.ye_olde_magick_shoppe.cards import authored_cards, cards
from rulebook.ye_olde_magick_shoppe.encoding import encoder
from rulebook.ye_olde_magick_shoppe.render import VIEWS, render, turn
from rulebook.ye_olde_magick_shoppe.rules import Done, ShoppeState, Spend
from rulebook.ye_olde_magick_shoppe.stats import counters


def _create(setup: Setup) -> ShoppeState:
    return ShoppeState(GAME, setup)


GAME = register(
    Game(
        name="ye-olde-magick-shoppe",
        title="Ye Olde Magick Shoppe",
        rulebook="002_b27f334b14e381b8.txt",
        variants=(
            Variant("solo", 1, 1, "Solo variant: 4 customers and 2 waiting, lower certification"),
            Variant("standard", 2, 8, "2-8 players, the Customer Circle rotates clockwise"),
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
        data_package="rulebook.ye_olde_magick_shoppe.data",
        description="The prototype of Merchants of Magick: craft, research, claim customers.",
        counters=counters,
        common_players=4,
        encoder=encoder,
        web_view="rulebook.ye_olde_magick_shoppe.web",
    )
)

__all__ = ["GAME", "Done", "ShoppeState", "Spend"]
