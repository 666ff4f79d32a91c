"""Greedy's one-step lookahead in Battle Merchants, without making the moves.

:func:`rulebook.battle_merchants.bots.evaluate` reads little of a position: the seat's gold,
supply, Craft Levels, coins, Reward Tiles, Weapons on the board and Defeated Weapons, the open
Weapon Spaces per Weapon and the Season. Most moves change a few of these in a way the rules
give directly (Player Turns): Learn One Craft pays its cost and adds the card's Levels and coins,
a forge pays and adds a Weapon to the supply, a sale takes a space, the gold of
:func:`~rulebook.battle_merchants.sell.sale_value` and maybe a Reward Tile. So
:func:`lookahead` reads the position once and values each such move from what it changes,
with the very function the evaluation uses (:func:`~rulebook.battle_merchants.bots.value`),
which gives the same values bit for bit.

A move that does more is made on a clone and evaluated, as the generic
:meth:`rulebook.core.State.lookahead` does: one that ends the Season (battles, repairs, the
Year's End), a sale that sends a Demand Token (the next Battlefield opens, the Season may be
triggered), a Kingdom Card giving a Region Reward Tile, and every move with 2 players (Salesman
Steve sells after each sale; a take discards a linked card). ``tests/test_speed.py`` holds this
to the generic lookahead on many positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.battle_merchants import bots
from rulebook.battle_merchants.actions import (
    FREE_CRAFT,
    FREE_FORGE,
    Bonus,
    Done,
    Forge,
    Learn,
    Pass,
    Sell,
    TakeKingdom,
)
from rulebook.battle_merchants.craft import learn_cost
from rulebook.battle_merchants.forge import forge_costs, last_forge
from rulebook.battle_merchants.rules import BattleState
from rulebook.battle_merchants.sell import last_sale, sale_sends_token, sale_value
from rulebook.battle_merchants.setup import EMPTY
from rulebook.battle_merchants.year_end import defeated_total
from rulebook.core import Action

#: a position as the evaluation reads it for one seat: gold, supply, open Weapon Spaces per
#: Weapon, Craft Levels (as counted), coins, Reward Tiles, Standard and Vorpal Weapons on the
#: board
Reading = tuple[int, list[int], list[int], int, int, int, int, int]

#: Kingdom Card effects that only give or take gold (and continue the turn or end it)
_GOLD_ONLY = frozenset(
    (
        "gold",
        "battle_level",
        "forge_discount",
        "forge_limit",
        "repair_bonus",
        "sale_bonus",
        "end_flat",
        "end_per_board_weapon",
        "end_per_craft_card",
        "end_per_defeated",
        "end_per_reward",
        "end_per_unsold",
    )
)


def lookahead(s: BattleState, player: int, actions: Sequence[Action]) -> list[float]:
    """``bots.evaluate`` after each of ``actions`` (legal moves of ``player`` now)."""
    if s.two or s.is_terminal():
        return [_made(s, player, action) for action in actions]
    open_spaces, on_board = bots.board_reading(s)
    k = bots.prices(s.content)
    std, vor = on_board[player]
    tiles = sum(s.race_tiles[player]) + sum(s.region_tiles[player])
    now: Reading = (
        s.gold[player],
        s.supply[player],
        open_spaces,
        bots.level_points(k, s.levels[player]),
        sum(s.coins[player]),
        tiles,
        std,
        vor,
    )
    defeated = defeated_total(s, player)
    costs = forge_costs(s, player)
    season = s.season
    values = []
    for action in actions:
        after = _after(s, player, action, now, costs, k)
        if after is None:
            values.append(_made(s, player, action))
        else:
            gold, supply, opened, levels, coins, tiles, std, vor = after
            values.append(
                bots.value(
                    k, season, gold, supply, opened, levels, coins, tiles, std, vor, defeated
                )
            )
    return values


def _made(s: BattleState, player: int, action: Action) -> float:
    """The evaluation after ``action`` made on a clone (the generic lookahead's way)."""
    after = s.clone()
    after.tallied = False  # thrown away once valued
    after.apply_legal(player, action)
    return bots.evaluate(after, player)


def _after(
    s: BattleState, p: int, action: Action, now: Reading, costs: list[int], prices: bots.Prices
) -> Reading | None:
    """What the evaluation reads after ``action`` (as the rules' sections make it), or
    None for a move that changes more than these (see the module's docstring). ``costs``: the
    seat's forge costs (:func:`~rulebook.battle_merchants.forge.forge_costs`), ``prices`` the
    content's (:func:`bots.prices`)."""
    gold, supply, open_spaces, levels, coins, tiles, std, vor = now
    kind = type(action)
    if kind is Pass:
        return None if s.war_after_turn("pass") else now
    if kind is Done:
        return None if s.war_after_turn("forge") else now
    if kind is Learn:
        if s.war_after_turn("learn"):
            return None
        assert isinstance(action, Learn)
        card = s.craft_pool[action.slot - 1]
        k = s.content.crafts[card]
        if s.step != FREE_CRAFT:
            gold -= learn_cost(s, p, card)
        level = s.levels[p][k.weapon]
        levels += bots.level_points(prices, [level + k.levels]) - bots.level_points(prices, [level])
        coins += k.coins
        return gold, supply, open_spaces, levels, coins, tiles, std, vor
    if kind is Forge:
        assert isinstance(action, Forge)
        at = s.moves.index[action]  # weapon * 2 + vorpal
        supply = supply.copy()
        if s.step == FREE_FORGE:
            if s.war_after_turn("kingdom"):
                return None
            supply[at & ~1] += 1  # Free Samples: a Standard Weapon
        else:
            if last_forge(s, p) and s.war_after_turn("forge"):
                return None
            gold -= costs[at]
            supply[at] += 1
        return gold, supply, open_spaces, levels, coins, tiles, std, vor
    if kind is Sell or kind is Bonus:
        assert isinstance(action, (Sell, Bonus))
        i = s.moves.index[action] >> 1
        if sale_sends_token(s, i):
            return None
        space = s.board.spaces[i]
        vorpal = action.vorpal
        if kind is Sell:
            if last_sale(s) and s.war_after_turn("sell"):
                return None
            supply = supply.copy()
            supply[space.weapon * 2 + vorpal] -= 1
        else:
            if s.war_after_turn("bonus"):
                return None
            gold -= costs[space.weapon * 2 + vorpal]
        gold += sale_value(s, p, space, vorpal)
        open_spaces = open_spaces.copy()
        open_spaces[space.weapon] -= 1
        if s.reward_spaces[space.race][p]:
            tiles += 1
        if vorpal:
            vor += 1
        else:
            std += 1
        return gold, supply, open_spaces, levels, coins, tiles, std, vor
    if kind is TakeKingdom:
        assert isinstance(action, TakeKingdom)
        card_taken = s.content.kingdom[s.kingdom_pool[action.slot - 1]]
        if card_taken.effect in _GOLD_ONLY:
            if s.war_after_turn("kingdom"):
                return None
        elif card_taken.effect == "free_craft":
            if s.war_after_turn("kingdom") and not any(x != EMPTY for x in s.craft_pool):
                return None
        elif card_taken.effect not in ("free_forge", "sell_twice"):  # region_tile
            return None
        return gold + card_taken.gold, supply, open_spaces, levels, coins, tiles, std, vor
    return None
