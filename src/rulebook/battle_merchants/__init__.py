"""Battle Merchants (rulebook ``001_44ef98e54b9802c2.txt``): 2-4 players (2: Salesman Steve)."""

from rulebook.battle_merchants.actions import Bonus, Done, Forge, Learn, Pass, Sell, TakeKingdom
from rulebook.battle_merchants.bots import evaluate
from rulebook.battle_merchants.cards import authored_cards, cards
from rulebook.battle_merchants.encoding import encoder
from rulebook.battle_merchants.render import VIEWS, menu_entry, render, turn
from rulebook.battle_merchants.rules import BattleState
from rulebook.battle_merchants.stats import counters, faction
from rulebook.core import Game, Setup, Variant, register


def _create(setup: Setup) -> BattleState:
    return BattleState(GAME, setup)


GAME = register(
    Game(
        name="battle-merchants",
        title="Battle Merchants",
        rulebook="001_44ef98e54b9802c2.txt",
        variants=(
            Variant(
                "standard",
                2,
                4,
                "2-4 players; with 2, the side board and Salesman Steve join automatically",
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
        data_package="rulebook.battle_merchants.data",
        description="Forge and sell Weapons to warring races over four Seasons of battles.",
        counters=counters,
        faction=faction,
        common_players=4,
        encoder=encoder,
        web_view="rulebook.battle_merchants.web",
    )
)

__all__ = [
    "GAME",
    "BattleState",
    "Bonus",
    "Done",
    "Forge",
    "Learn",
    "Pass",
    "Sell",
    "TakeKingdom",
]
