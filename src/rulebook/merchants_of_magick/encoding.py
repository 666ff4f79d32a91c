"""Merchants of Magick's observation tensor: the shared sheet layout
(:mod:`rulebook.core.rollwrite.encoding`) with the Orders line and, per seat, its Potions, free
marks and Sponsored Adventurer (SPONSORED ADVENTURERS). Slices: ``docs/research.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebook.core import RulebookError, Setup
from rulebook.core.rollwrite.encoding import SheetEncoder, sheet_ignored
from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.spaces import Vector, hot, index_of, lookup
from rulebook.merchants_of_magick import rules
from rulebook.merchants_of_magick.content import content

#: Potions are divided by this (a seat rarely holds more: each pays one result's change)
POTION_SCALE = 10.0
#: Potions are capped at this many times the scale (no limit in the rules; simulated games
#: stay below 1.7)
POTION_CAP = 4.0


class MerchantsEncoder(SheetEncoder):
    LINE = "orders"
    VALUE = "coins"
    SIDES = ("master", "apprentice")
    #: the best solo rating ("Master") needs 90 Coins
    SCORE_SCALE = 100.0
    IGNORED: Mapping[str, str] = {
        **sheet_ignored("orders"),
        "seats[*].adventurer.enchantment": "follows from the Sponsored Adventurer",
        "seats[*].adventurer.items": "follows from the Sponsored Adventurer",
        "seats[*].adventurer.coins": "follows from the Sponsored Adventurer",
        "rating": "solo, at the end: follows from the score",
    }

    def __init__(self, setup: Setup) -> None:
        self.CATEGORIES = rules.CATEGORIES  # here: in the class body mypyc cannot type it
        c = content()
        self.adventurers = index_of(a.name for a in c.adventurers)
        self.items = {a.name: a.items for a in c.adventurers}
        self.free_scale = float(c.rewards.second_free_marks + c.rewards.third_free_marks)
        waiting = c.rules.solo_waiting_orders if setup.variant == "solo" else 0
        super().__init__(setup, c, c.rules.orders_per_player[setup.players], waiting)

    def declare_seat_extras(self, prefix: str) -> dict[str, int]:
        add = self.parts.add
        return {
            "potions": add(
                prefix + "potions", 1, f"Potions / {POTION_SCALE:g}", high=POTION_CAP, capped=True
            ),
            "free_marks": add(
                prefix + "free_marks", 1, f"free marks to make now / {self.free_scale:g}"
            ),
            "adventurer": add(
                prefix + "adventurer",
                len(self.adventurers),
                "one-hot: the Sponsored Adventurer (in data file order)",
            ),
            "fulfilled": add(
                prefix + "adventurer_fulfilled",
                3,
                "per Adventurer Order (accessory, weapon, armor): 1 if fulfilled",
            ),
        }

    def fill_seat_extras(
        self, seat: Mapping[str, Any], at: Mapping[str, int], out: Vector, ones: list[int]
    ) -> None:
        out[at["potions"]] = seat["potions"] / POTION_SCALE
        out[at["free_marks"]] = seat["free_marks"] / self.free_scale
        adventurer = seat["adventurer"]
        index = lookup(self.adventurers, adventurer["name"], "Sponsored Adventurer")
        hot(ones, at["adventurer"], len(self.adventurers), index)
        items = self.items[adventurer["name"]]
        for item in adventurer["fulfilled"]:
            if item not in items:
                raise RulebookError(f"{adventurer['name']} asks for no {item!r}")
            ones.append(at["fulfilled"] + items.index(item))

    def seat_extras_key(self, state: SheetState[Any], p: int) -> object:
        assert isinstance(state, rules.MerchantsState)
        return (state.potions[p], state.adventurer[p], state.adventurer_done[p])


def encoder(setup: Setup) -> MerchantsEncoder:
    """The observation encoder of a Merchants of Magick configuration (``Game.encoder``)."""
    return MerchantsEncoder(setup)
