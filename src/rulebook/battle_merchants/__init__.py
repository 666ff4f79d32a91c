"""Battle Merchants (rulebook ``001_44ef98e54b9802c2.txt``): 2-4 players (2: Salesman Steve)."""

from rulebook.battle_merchants.actions import Bonus, Done, Forge, Learn, Pass, Sell, TakeKingdom
from rulebook.battle_merchants.rules import BattleState
from rulebook.core.registry import register_package

GAME = register_package(__name__, BattleState)

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
