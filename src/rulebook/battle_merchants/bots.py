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
SUPPLY_SHARE = 0.9  # of a Weapon's sale value, for one still in the supply with a buyer
UNSOLD_SHARE = 0.9  # of its End Value, for one beyond what open Weapon Spaces demand
SPARE_BUYERS = 1  # spaces of a Weapon type expected to open beyond those open now
LEVEL = 0.8  # per Craft Level while Seasons remain, up to the Vorpal level
COIN = 0.6  # per forge discount coin, per Season left
TILE = 1.2  # per Reward Tile, per Season left
BOARD = 2.0  # per own Weapon on the board (the next Repairs)
DEFEATED = 1.5  # per point of the Defeated Weapons pile


def _table(s: BattleState) -> tuple[list[int], list[list[int]]]:
    """What the evaluation reads of the board, the same for every seat: open Weapon Spaces per
    Weapon, and each seat's [Standard, Vorpal] Weapons on the board. Worked out once per
    position and kept on the state (keyed by the length of its history: a move changes it)."""
    version = len(s.history)
    cached = s.__dict__.get("_bot_table")
    if cached is not None and cached[0] == version:
        return cached[1]  # type: ignore[no-any-return]
    open_spaces = [0] * len(s.content.weapons)
    spaces = s.board.spaces
    for i in s.open_spaces():
        open_spaces[spaces[i].weapon] += 1
    found = (open_spaces, s._on_board())
    s.__dict__["_bot_table"] = (version, found)
    return found


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
    open_spaces, on_board = _table(s)
    for w in range(len(c.weapons)):
        # Weapons beyond what the open spaces can take are worth their End Value at best
        buyers = open_spaces[w] + SPARE_BUYERS
        for vorpal, sell, end in (
            (1, chart.sell_vorpal, chart.end_vorpal),
            (0, chart.sell_standard, chart.end_standard),
        ):
            have = supply[2 * w + vorpal]
            sold = min(have, buyers)
            buyers -= sold
            value += SUPPLY_SHARE * sell * sold + UNSOLD_SHARE * end * (have - sold)
    vorpal = c.rules.vorpal_level
    value += LEVEL * sum(min(level, vorpal + 1) for level in s.levels[player]) * min(left, 2)
    value += COIN * sum(s.coins[player]) * left
    value += TILE * (sum(s.race_tiles[player]) + sum(s.region_tiles[player])) * left
    std, vor = on_board[player]
    value += BOARD * (std + 1.5 * vor)
    value += DEFEATED * s.defeated_total(player)
    return value
