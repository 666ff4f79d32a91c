"""Battle Merchants bot knowledge: a hand-written evaluation of a seat's position.

Used by the game-agnostic greedy and search agents (``rulebook.agents``). Gold counts fully;
Weapons, Craft, Reward Tiles and Kingdom Cards count by what they are likely to bring before the
Year's End.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State

if TYPE_CHECKING:
    from rulebook.battle_merchants.rules import BattleState

#: weights of the evaluation (hand-tuned)
SUPPLY_SHARE = 0.8  # of a Weapon's sale value, for one still in the supply
LEVEL = 0.8  # per Craft Level while Seasons remain, up to the Vorpal level
COIN = 0.6  # per forge discount coin, per Season left
TILE = 1.2  # per Reward Tile, per Season left
BOARD = 2.0  # per own Weapon on the board (the next Repairs)
DEFEATED = 1.5  # per point of the Defeated Weapons pile


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: gold plus weighted prospects."""
    s = cast("BattleState", state)
    value = float(s.gold[player])
    if s.is_terminal():
        return value + 0.01 * s.tiebreak(player)[0]
    c = s.content
    left = len(c.rules.seasons) - s.season
    chart = c.chart
    supply = s.supply[player]
    value += SUPPLY_SHARE * chart.sell_standard * sum(supply[0::2])
    value += SUPPLY_SHARE * chart.sell_vorpal * sum(supply[1::2])
    vorpal = c.rules.vorpal_level
    value += LEVEL * sum(min(level, vorpal + 1) for level in s.levels[player]) * min(left, 2)
    value += COIN * sum(s.coins[player]) * left
    value += TILE * (sum(s.race_tiles[player]) + sum(s.region_tiles[player])) * left
    std, vor = s._on_board()[player]
    value += BOARD * (std + 1.5 * vor)
    value += DEFEATED * s.defeated_total(player)
    return value
