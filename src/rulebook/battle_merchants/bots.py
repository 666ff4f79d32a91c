"""Battle Merchants bot knowledge: a hand-written evaluation of a seat's position.

Used by the game-agnostic greedy and search agents (``rulebook.agents``). Gold counts fully;
Weapons, Craft, Reward Tiles and Kingdom Cards count by what they are likely to bring before the
Year's End.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from rulebook.battle_merchants.content import Content
from rulebook.battle_merchants.sell import open_spaces
from rulebook.battle_merchants.state import per_content
from rulebook.battle_merchants.year_end import defeated_total, on_board
from rulebook.core import State

if TYPE_CHECKING:
    from rulebook.battle_merchants.rules import BattleState

#: weights of the evaluation (hand-tuned; Final: compiled, they are constants)
SUPPLY_SHARE: Final = 0.9  # of a Weapon's sale value, for one still in the supply with a buyer
UNSOLD_SHARE: Final = 0.9  # of its End Value, for one beyond what open Weapon Spaces demand
SPARE_BUYERS: Final = 1  # spaces of a Weapon type expected to open beyond those open now
LEVEL: Final = 0.8  # per Craft Level while Seasons remain, up to the Vorpal level
COIN: Final = 0.6  # per forge discount coin, per Season left
TILE: Final = 1.2  # per Reward Tile, per Season left
BOARD: Final = 2.0  # per own Weapon on the board (the next Repairs)
DEFEATED: Final = 1.5  # per point of the Defeated Weapons pile


class Prices:
    """The content's numbers :func:`value` and :func:`level_points` read, as plain attributes
    (the content's are pydantic fields; compiled, these are read directly), once per content
    (:func:`prices`)."""

    def __init__(self, c: Content) -> None:
        self.seasons = len(c.rules.seasons)
        self.weapons = len(c.weapons)
        self.sell_standard = c.chart.sell_standard
        self.sell_vorpal = c.chart.sell_vorpal
        self.end_standard = c.chart.end_standard
        self.end_vorpal = c.chart.end_vorpal
        #: Craft Levels count up to one above the Vorpal level
        self.level_cap = c.rules.vorpal_level + 1


#: the last content's :class:`Prices`
_prices: list[tuple[Content, Prices]] = []


def prices(c: Content) -> Prices:
    """The :class:`Prices` of content ``c``."""
    return per_content(_prices, c, Prices)


#: the last position :func:`board_reading` read: the state, the length of its history then
#: (a move changes it), and what was read. The evaluation reads one position for every seat in
#: a row (the search's leaves), so one is enough; the rules' state carries none of it.
_last_read: list[tuple[BattleState, int, tuple[list[int], list[list[int]]]]] = []


def board_reading(s: BattleState) -> tuple[list[int], list[list[int]]]:
    """What the evaluation reads of the board, the same for every seat: open Weapon Spaces per
    Weapon, and each seat's [Standard, Vorpal] Weapons on the board. Worked out once per
    position (:data:`_last_read`)."""
    version = len(s.history)
    if _last_read:
        last, at, found = _last_read[0]
        if last is s and at == version:
            return found
    spaces = [0] * prices(s.content).weapons
    weapon_of = s.moves.space_weapon  # per space: its Weapon * 2
    for i in open_spaces(s):
        spaces[weapon_of[i] >> 1] += 1
    found = (spaces, on_board(s))
    _last_read[:] = [(s, version, found)]
    return found


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: gold plus weighted prospects."""
    s = cast("BattleState", state)
    if s.is_terminal():
        return float(s.gold[player]) + 0.01 * s.tiebreak(player)[0]
    open_spaces, on_board = board_reading(s)
    std, vor = on_board[player]
    k = prices(s.content)
    return value(
        k,
        s.season,
        s.gold[player],
        s.supply[player],
        open_spaces,
        level_points(k, s.levels[player]),
        sum(s.coins[player]),
        sum(s.race_tiles[player]) + sum(s.region_tiles[player]),
        std,
        vor,
        defeated_total(s, player),
    )


def level_points(k: Prices, levels: list[int]) -> int:
    """Craft Levels as the evaluation counts them: each Weapon's up to one above the Vorpal
    level."""
    cap = k.level_cap
    total = 0
    for level in levels:
        total += level if level < cap else cap
    return total


def value(
    k: Prices,
    season: int,
    gold: int,
    supply: list[int],
    open_spaces: list[int],
    levels: int,
    coins: int,
    tiles: int,
    std: int,
    vor: int,
    defeated: int,
) -> float:
    """:func:`evaluate` of a game not over, from the content's numbers ``k`` (:func:`prices`) and
    what it reads of the position: the seat's gold,
    supply, Craft Levels (:func:`level_points`), coins, Reward Tiles, Standard and Vorpal Weapons
    on the board and Defeated Weapons points, and the open Weapon Spaces per Weapon. The greedy
    lookahead (:mod:`rulebook.battle_merchants.lookahead`) calls it with these after a move, so
    both give the same value, bit for bit."""
    result = float(gold)
    left = k.seasons - season
    for w in range(k.weapons):
        # Weapons beyond what the open spaces can take are worth their End Value at best
        buyers = open_spaces[w] + SPARE_BUYERS
        have = supply[2 * w + 1]
        if have:  # Vorpal first
            sold = min(have, buyers)
            buyers -= sold
            result += SUPPLY_SHARE * k.sell_vorpal * sold + UNSOLD_SHARE * k.end_vorpal * (
                have - sold
            )
        have = supply[2 * w]
        if have:
            sold = min(have, buyers)
            result += SUPPLY_SHARE * k.sell_standard * sold + (
                UNSOLD_SHARE * k.end_standard * (have - sold)
            )
    result += LEVEL * levels * min(left, 2)
    result += COIN * coins * left
    result += TILE * tiles * left
    result += BOARD * (std + 1.5 * vor)
    result += DEFEATED * defeated
    return result
