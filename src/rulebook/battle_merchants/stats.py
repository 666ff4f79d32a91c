"""Battle Merchants statistics for the balance lab (``Game.counters`` and ``Game.faction``).

Per seat at the end of a game: Weapons sold (Standard, Vorpal, per race ``race:<race>`` and per
Region ``region:<region>``), Weapons forged (Standard, Vorpal), Crafts learned and the Craft
Level per Weapon, battles won, lost and tied, Weapons defeated and the Year's End gold for
them, Reward Tiles held, and one counter per Kingdom Card taken (``kingdom:<name>``) and per
Craft Card learned (``craft:<card>``), which the report ranks by how often they are taken and
how often their owner wins. The "faction" of a seat is its player mat (colour): the mats
differ in their starting Crafts and printed Reward Tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State
from rulebook.core.game import tallied

if TYPE_CHECKING:
    from rulebook.battle_merchants.rules import BattleState


def counters(state: State, player: int) -> dict[str, float]:
    """Game-specific counters of one seat (see the module docstring)."""
    s = cast("BattleState", state)
    c = s.content
    tally = s.tally[player]
    out = tallied(
        tally,
        "sold_standard",
        "sold_vorpal",
        "forged_standard",
        "forged_vorpal",
        "battles_won",
        "battles_lost",
        "battles_tied",
    )
    out["weapons_sold"] = out["sold_standard"] + out["sold_vorpal"]
    out["crafts_learned"] = float(len(s.crafts[player]))
    for w, level in enumerate(s.levels[player]):
        out[f"level_{c.weapons[w]}"] = float(level)
    std, vor = s.defeated[player]
    out["defeated_standard"] = float(std)
    out["defeated_vorpal"] = float(vor)
    out["defeated_gold"] = float(s.year_end[player].get("defeated_weapons", 0) if s.year_end else 0)
    out["reward_tiles"] = float(sum(s.race_tiles[player]) + sum(s.region_tiles[player]))
    out["kingdom_cards_taken"] = float(sum(v for k, v in tally.items() if k.startswith("kingdom:")))
    for key, value in tally.items():
        if ":" in key:
            out[key] = float(value)
    for card in s.crafts[player]:
        key = f"craft:{c.crafts[card].label(c.weapons)}"
        out[key] = out.get(key, 0.0) + 1.0
    return out


def faction(state: State, player: int) -> str:
    """The seat's player mat, by its colour."""
    s = cast("BattleState", state)
    return s.content.colours[player]
