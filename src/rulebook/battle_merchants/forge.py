"""Forge Weapons: the Forge Up to Three Weapons action.

"When you choose the Forge Weapons action, you may make up to three Weapons. You must spend gold
for each Weapon you want to Forge": 5 for a Standard Weapon, 15 for a Vorpal one, less the coins
on your matching Craft Cards, never below 0. A Standard Weapon needs one Level in its Craft, a
Vorpal one five. Each Weapon is one ``forge`` move; the first chooses the action, ``done`` or the
limit ends it (:mod:`rulebook.battle_merchants.actions`). Free Samples' free Standard Weapon is
forged here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants.actions import FORGING, FREE_FORGE, Forge
from rulebook.battle_merchants.kingdom import effects
from rulebook.battle_merchants.turns import end_turn
from rulebook.core import Action

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def can_forge(s: Table, p: int, weapon: int, vorpal: bool) -> bool:
    """Forge Weapons: a Standard Weapon needs one Level in its Craft, a Vorpal one five."""
    need = s.content.rules.vorpal_level if vorpal else 1
    return s.levels[p][weapon] >= need


def forge_cost(s: Table, p: int, weapon: int, vorpal: bool) -> int:
    """Forge Weapons: 5 (Standard) or 15 (Vorpal), less the coins on your matching Craft Cards
    and Kingdom discounts, never below 0."""
    return forge_costs(s, p)[2 * weapon + int(vorpal)]


def forge_costs(s: Table, p: int) -> list[int]:
    """Forge Weapons: the cost of every Weapon and quality, as :func:`forge_cost` gives it
    (``[weapon * 2 + vorpal]``), remembered in ``costs_known`` by the seat's coins and Kingdom
    Cards, the only things it depends on (not to be changed)."""
    key = (*s.coins[p], -1, *s.kingdom_cards[p])
    costs = s.costs_known.get(key)
    if costs is None:
        costs = s.costs_known[key] = _price_forges(s, p)
    return costs


def _price_forges(s: Table, p: int) -> list[int]:
    """Forge Weapons: the chart's costs less Kingdom discounts, then each Weapon's coins."""
    chart = s.content.chart
    std, vor = chart.forge_standard, chart.forge_vorpal
    for card in effects(s, p, "forge_discount"):
        if card.quality is None or card.quality == 0:
            std -= card.amount
        if card.quality is None or card.quality == 1:
            vor -= card.amount
    out = []
    for coins in s.coins[p]:
        out.append(max(std - coins, 0))
        out.append(max(vor - coins, 0))
    return out


def forge_limit(s: Table, p: int) -> int:
    """Forge Weapons: up to three Weapons per action (more with a Kingdom Card)."""
    return s.content.rules.forge_limit + sum(k.amount for k in effects(s, p, "forge_limit"))


def last_forge(s: Table, p: int) -> bool:
    """Forge Weapons: whether the Weapon forged now is the last of the action."""
    return s.count + 1 >= forge_limit(s, p)


def forges(s: Table, p: int, out: list[Action], free: bool) -> None:
    """Forge Weapons: append to ``out`` every ``forge`` move seat ``p`` has the Craft and the
    gold for (``free``: Free Samples' Standard Weapon, every Craft held)."""
    gold = s.gold[p]
    levels = s.levels[p]
    vorpal_level = s.content.rules.vorpal_level
    forge = s.moves.forge
    costs = None if free else forge_costs(s, p)
    for w, level in enumerate(levels):
        if level < 1:
            continue
        if costs is None:
            out.append(forge[2 * w])
            continue
        if costs[2 * w] <= gold:
            out.append(forge[2 * w])
        if level >= vorpal_level and costs[2 * w + 1] <= gold:
            out.append(forge[2 * w + 1])


def forge(s: Table, p: int, action: Forge, step: str) -> None:
    """Forge Weapons: pay and take the Weapon into your supply; the action ends at the limit.
    With Free Samples (``step`` FREE_FORGE): a Standard Weapon for free, and the turn ends."""
    w = s.content.weapons.index(action.weapon)
    s.tally_one(p, "forged_vorpal" if action.vorpal and step != FREE_FORGE else "forged_standard")
    if step == FREE_FORGE:
        supply = s.supply[p] = s.supply[p].copy()
        supply[w * 2] += 1
        end_turn(s, "kingdom")
        return
    s.gold[p] -= forge_cost(s, p, w, action.vorpal)
    supply = s.supply[p] = s.supply[p].copy()
    supply[w * 2 + action.vorpal] += 1
    last = last_forge(s, p)
    s.count += 1
    s.step = FORGING
    if last:
        end_turn(s, "forge")
