"""Sell Weapon (Regions and Battlefields; The Races; Selling Weapons), and the Craft Bonus
action, Forge and Sell One Weapon.

"When you choose the Sell Weapon action, you may sell one Weapon to one of the races at war."
The Weapon goes on a Weapon Space showing its type, on a Battlefield with no Demand Token or a
face-up one; the race nearest to it buys. Selling Weapons, in four steps: place the Weapon,
receive the Sell Value (plus one gold per matching race or Region Reward Tile), take the race's
Reward Tile of your colour if it is there, check the Demand Token. With a Craft Bonus card face
up, Forge and Sell One Weapon forges one Weapon of its type and sells it as one action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants import two_players
from rulebook.battle_merchants.actions import SALES_TWICE, SELLING, Bonus, Sell
from rulebook.battle_merchants.content import Space
from rulebook.battle_merchants.forge import can_forge, forge_cost
from rulebook.battle_merchants.kingdom import effects
from rulebook.battle_merchants.seasons import check_token
from rulebook.battle_merchants.setup import EMPTY, FIRE, LOCK
from rulebook.battle_merchants.turns import end_turn
from rulebook.core import Action

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def open_for_sale(s: Table, space: int) -> bool:
    """Regions and Battlefields: a Weapon may go on an empty space whose Battlefield has no
    Demand Token or a face-up one."""
    return s.spaces[space] == EMPTY and s.tokens[space >> 1] != LOCK


def open_spaces(s: Table) -> list[int]:
    """Regions and Battlefields: every space :func:`open_for_sale`, in board order."""
    spaces = s.spaces
    out = []
    for bf, token in enumerate(s.tokens):  # most Battlefields are locked
        if token != LOCK:
            i = bf << 1
            if spaces[i] == EMPTY:
                out.append(i)
            if spaces[i + 1] == EMPTY:
                out.append(i + 1)
    return out


def sale_value(s: Table, p: int, space: Space, vorpal: bool) -> int:
    """Selling Weapons, step 2: the base Sell Value + 1 per matching race / Region Reward Tile
    (+ Kingdom bonuses, - Desperate Times' penalty)."""
    chart = s.content.chart
    value = chart.sell_vorpal if vorpal else chart.sell_standard
    value += s.race_tiles[p][space.race] + s.region_tiles[p][space.region]
    for k in effects(s, p, "sale_bonus"):
        if (k.race is None or k.race == space.race) and (
            k.quality is None or k.quality == int(vorpal)
        ):
            value += k.amount
    return max(value - s.penalty, 0)


def last_sale(s: Table) -> bool:
    """Sell Weapon: whether a sale now ends the action: always, but the first of the two sales
    of Drive the Workers or Desperate Times."""
    return s.step != SELLING or s.count + 1 >= SALES_TWICE


def sale_sends_token(s: Table, space: int) -> bool:
    """Selling Weapons, step 4: whether a Weapon sold to the empty ``space`` fills a
    Battlefield under a face-up Demand Token (:func:`~rulebook.battle_merchants.seasons.
    check_token` then sends it to the Season Area and flips the next one)."""
    return s.tokens[space >> 1] == FIRE and s.spaces[space ^ 1] != EMPTY


def sales(s: Table, p: int, out: list[Action]) -> None:
    """Sell Weapon: append to ``out`` every ``sell`` move of a Weapon in seat ``p``'s supply."""
    supply = s.supply[p]
    if not any(supply):
        return
    sell_moves = s.moves.sell
    space_weapon = s.moves.space_weapon
    for i in open_spaces(s):
        w = space_weapon[i]
        if supply[w]:
            out.append(sell_moves[2 * i])
        if supply[w + 1]:
            out.append(sell_moves[2 * i + 1])


def sell_weapon(s: Table, p: int, action: Sell, step: str) -> None:
    """Sell Weapon: a Weapon from the supply sold (:func:`sell`); the turn ends, or after the
    second sale of Drive the Workers or Desperate Times (``step`` SELLING)."""
    index = s.moves.index[action] >> 1
    supply = s.supply[p] = s.supply[p].copy()
    supply[s.board.spaces[index].weapon * 2 + action.vorpal] -= 1
    last = last_sale(s)
    sell(s, p, s.board.spaces[index], action.vorpal)
    if step == SELLING:
        s.count += 1
        if last:
            end_turn(s, "kingdom")
    else:
        end_turn(s, "sell")


def sell(s: Table, p: int, space: Space, vorpal: bool) -> None:
    """Selling Weapons: place the Weapon, take the gold, then the Reward Tile of your colour
    (one per race per Season: the space refills only at the cleanup), then check the Demand
    Token; with 2 players Salesman Steve sells after every sale."""
    s.spaces[space.index] = p * 2 + int(vorpal)
    s.gold[p] += sale_value(s, p, space, vorpal)
    c = s.content
    s.tally_one(p, f"race:{c.races[space.race]}")
    s.tally_one(p, f"region:{s.board.regions[space.region]}")
    s.tally_one(p, "sold_vorpal" if vorpal else "sold_standard")
    if s.reward_spaces[space.race][p]:
        spaces = s.reward_spaces[space.race] = s.reward_spaces[space.race].copy()
        spaces[p] = False
        tiles = s.race_tiles[p] = s.race_tiles[p].copy()
        tiles[space.race] += 1
    check_token(s, space)
    if s.two:
        steve = two_players.steve_sells(s, space)
        if steve is not None:
            check_token(s, steve)


def forge_and_sell_moves(s: Table, p: int, out: list[Action]) -> None:
    """Forge and Sell One Weapon: append to ``out`` every ``bonus`` move of seat ``p``: a face-up
    Craft Bonus card, the Craft and gold to forge its Weapon, a space open for it."""
    gold = s.gold[p]
    for w, owner in enumerate(s.bonus_owner):
        if owner != p or not s.bonus_up[w]:
            continue
        for v in (False, True):
            if not can_forge(s, p, w, v) or forge_cost(s, p, w, v) > gold:
                continue
            for space in s.board.spaces:
                if space.weapon == w and open_for_sale(s, space.index):
                    out.append(s.moves.bonus[space.index * 2 + v])


def forge_and_sell(s: Table, p: int, action: Bonus) -> None:
    """Forge and Sell One Weapon: turn the Craft Bonus card face down, pay the forge cost and
    sell the Weapon at once (:func:`sell`); the turn ends."""
    space = s.board.spaces[s.moves.index[action] >> 1]
    s.gold[p] -= forge_cost(s, p, space.weapon, action.vorpal)
    s.bonus_up[space.weapon] = False
    sell(s, p, space, action.vorpal)
    end_turn(s, "bonus")
