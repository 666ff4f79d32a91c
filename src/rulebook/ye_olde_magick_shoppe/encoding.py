"""Ye Olde Magick Shoppe's observation tensor: the shared sheet layout
(:mod:`rulebook.core.rollwrite.encoding`) with the Customer Circle and, per seat, its circled
Bonus Modifiers and their current values (Bonus Modifiers, Charms). Slices:
``docs/research.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebook.core import Setup
from rulebook.core.rollwrite.encoding import (
    Changes,
    SeatExtras,
    SheetEncoder,
    sheet_ignored,
)
from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.spaces import Vector
from rulebook.ye_olde_magick_shoppe import rules
from rulebook.ye_olde_magick_shoppe.content import KINDS, content

#: circled, unused Bonus Modifiers of a kind are divided by this (one per completed row)
BONUS_SCALE = 5.0


class ShoppeEncoder(SheetEncoder):
    #: a strong seat's final score is about 50-60 stars (README, strength table)
    SCORE_SCALE = 60.0
    IGNORED: Mapping[str, str] = sheet_ignored("customers")

    def __init__(self, setup: Setup) -> None:
        self.CATEGORIES = rules.CATEGORIES  # here: in the class body mypyc cannot type it
        c = content()
        r = c.rules
        self.value_scale = tuple(float(max(v)) for v in c.values)
        #: a completed row circles one Bonus Modifier of its kind: at most the rows of a kind
        self.most_bonus = max(c.bonus_kind.count(k) for k in range(len(KINDS))) / BONUS_SCALE
        shop = r.customers_per_player[setup.players] + r.connoisseurs_per_player
        waiting = r.solo_waiting if setup.variant == "solo" else 0
        super().__init__(setup, rules.ShoppeState, c, shop, waiting)

    def declare_seat_extras(self, prefix: str) -> dict[str, int]:
        add = self.parts.add
        kinds = ", ".join(KINDS)
        return {
            "bonus": add(
                prefix + "bonus_modifiers",
                len(KINDS),
                f"circled unused Bonus Modifiers per kind ({kinds}) / {BONUS_SCALE:g}",
                high=self.most_bonus,
            ),
            "values": add(
                prefix + "bonus_values",
                len(KINDS),
                f"what one Bonus Modifier of each kind ({kinds}) is worth now / its highest "
                f"value ({', '.join(f'{v:g}' for v in self.value_scale)})",
            ),
        }

    def fill_seat_extras(
        self, seat: Mapping[str, Any], at: Mapping[str, int], out: Vector, ones: list[int]
    ) -> None:
        bonus, values = seat["bonus_modifiers"], seat["bonus_values"]
        for k, kind in enumerate(KINDS):
            out[at["bonus"] + k] = bonus[kind] / BONUS_SCALE
            out[at["values"] + k] = abs(values[kind]) / self.value_scale[k]

    def seat_extras(self) -> ShoppeExtras:
        return ShoppeExtras(self._rel["bonus"], self._rel["values"], list(self.value_scale))


class ShoppeExtras(SeatExtras):
    """A seat's circled Bonus Modifiers and their values, kept by
    :class:`~rulebook.core.rollwrite.encoding.SheetRows`: what a block shows is ``[circled
    minus, plus, the value circled on the minus, plus track (-1: none shown yet)]`` (a value
    is read again only when its track moves)."""

    def __init__(self, bonus: int, values: int, value_scale: list[float]) -> None:
        self.bonus = bonus
        self.values = values
        self.value_scale = value_scale

    def blank(self) -> list[int]:
        return [0] * len(KINDS) + [-1] * len(KINDS)

    def update(
        self, s: SheetState[Any], p: int, shown: list[int], at: int, changes: Changes
    ) -> bool:
        assert isinstance(s, rules.ShoppeState)
        bonus, level = s.bonus[p], s.level[p]
        kinds = len(KINDS)
        for k in range(kinds):
            if bonus[k] != shown[k]:
                changes.put(at + self.bonus + k, bonus[k] / BONUS_SCALE)
                shown[k] = bonus[k]
            if level[k] != shown[kinds + k]:
                worth = abs(s.modifier_value(p, k))
                changes.put(at + self.values + k, worth / self.value_scale[k])
                shown[kinds + k] = level[k]
        return False  # no score counts them

    def score_parts(self, s: SheetState[Any], p: int, categories: Sequence[str]) -> list[int]:
        assert isinstance(s, rules.ShoppeState)
        return list(s._score_parts(p))


def encoder(setup: Setup) -> ShoppeEncoder:
    """The observation encoder of a Ye Olde Magick Shoppe configuration (``Game.encoder``)."""
    return ShoppeEncoder(setup)
