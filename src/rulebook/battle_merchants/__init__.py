"""Battle Merchants (rulebook ``001_44ef98e54b9802c2.txt``): 2-4 players (2: Salesman Steve)."""

from rulebook.battle_merchants.actions import Bonus, Done, Forge, Learn, Pass, Sell, TakeKingdom
from rulebook.battle_merchants.rules import BattleState
from rulebook.core import Variant
from rulebook.core.registry import register_package

GAME = register_package(
    __name__,
    BattleState,
    title="Battle Merchants",
    rulebook="001_44ef98e54b9802c2.txt",
    description="Forge and sell Weapons to warring races over four Seasons of battles.",
    variants=(
        Variant(
            "standard",
            2,
            4,
            "2-4 players; with 2, the side board and Salesman Steve join automatically",
        ),
    ),
    common_players=4,
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
