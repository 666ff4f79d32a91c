"""Merchants of Magick's observation tensor: the shared sheet layout
(:mod:`rulebook.core.rollwrite.encoding`) with the Orders line and, per seat, its Potions, free
marks and Sponsored Adventurer (SPONSORED ADVENTURERS). Slices: ``docs/research.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebook.core import RulebookError, Setup
from rulebook.core.rollwrite.encoding import (
    Changes,
    SeatExtras,
    SheetEncoder,
    sheet_ignored,
)
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
        shop = c.rules.orders_per_player[setup.players]
        waiting = c.rules.solo_waiting_orders if setup.variant == "solo" else 0
        super().__init__(setup, rules.MerchantsState, c, shop, waiting)

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

    def seat_extras(self) -> MerchantsExtras:
        rel = self._rel
        c = content()
        return MerchantsExtras(
            (rel["potions"], rel["free_marks"], rel["adventurer"], rel["fulfilled"]),
            self.free_scale,
            [self.adventurers[a.name] for a in c.adventurers],
            [[self.items[a.name].index(item) for item in a.items] for a in c.adventurers],
        )


class MerchantsExtras(SeatExtras):
    """A seat's Potions, free marks and Sponsored Adventurer, kept by
    :class:`~rulebook.core.rollwrite.encoding.SheetRows`: what a block shows is ``[potions,
    free marks, adventurer (-1: none), its fulfilled Orders' bits]``."""

    def __init__(
        self,
        at: tuple[int, int, int, int],
        free_scale: float,
        order: list[int],
        places: list[list[int]],
    ) -> None:
        self.potions, self.free_marks, self.adventurer, self.fulfilled = at
        self.free_scale = free_scale
        #: per adventurer: its place in the one-hot, and the places of its three Orders
        self.order = order
        self.places = places

    def blank(self) -> list[int]:
        return [0, 0, -1, 0]

    def update(
        self, s: SheetState[Any], p: int, shown: list[int], at: int, changes: Changes
    ) -> bool:
        assert isinstance(s, rules.MerchantsState)
        potions = s.potions[p]
        if potions != shown[0]:
            changes.put(at + self.potions, min(max(potions / POTION_SCALE, 0.0), POTION_CAP))
            shown[0] = potions
        free = s.free_marks[p]
        if free != shown[1]:
            changes.put(at + self.free_marks, free / self.free_scale)
            shown[1] = free
        adventurer, done = s.adventurer[p], s.adventurer_done[p]
        if adventurer == shown[2] and done == shown[3]:
            return False
        old = self.order[shown[2]] if shown[2] >= 0 else -1
        new = self.order[adventurer]
        if old != new:
            if old >= 0:
                changes.put(at + self.adventurer + old, 0.0)
            changes.put(at + self.adventurer + new, 1.0)
        before = self._fulfilled(shown[2], shown[3])
        after = self._fulfilled(adventurer, done)
        for k in range(3):
            if before[k] != after[k]:
                changes.put(at + self.fulfilled + k, after[k])
        shown[2], shown[3] = adventurer, done
        return True  # the Sponsored Adventurer's Coins may have changed

    def _fulfilled(self, adventurer: int, done: int) -> list[float]:
        """The three values of an adventurer's fulfilled Orders (``done``: their bits)."""
        shown = [0.0, 0.0, 0.0]
        if adventurer >= 0:
            places = self.places[adventurer]
            for k in range(3):
                if done >> k & 1:
                    shown[places[k]] = 1.0
        return shown

    def score_parts(self, s: SheetState[Any], p: int, categories: Sequence[str]) -> list[int]:
        assert isinstance(s, rules.MerchantsState)
        return list(s._score_parts(p))


def encoder(setup: Setup) -> MerchantsEncoder:
    """The observation encoder of a Merchants of Magick configuration (``Game.encoder``)."""
    return MerchantsEncoder(setup)
