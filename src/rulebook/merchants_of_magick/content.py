"""Merchants of Magick content, read from ``data/*.toml`` and validated on load.

The files hold the sheet, the Orders deck, the Sponsored Adventurers, the Mastery cards and the
rules' numbers; :func:`content` checks every cross-reference and compiles them into the indexed
form the rules use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

import rulebook.core.rollwrite as rw
from rulebook.core.data import DataError, Sourced, Strict, content_from_files
from rulebook.core.sheet import Layout

PACKAGE = "rulebook.merchants_of_magick.data"
ITEM_CATEGORIES = ("accessory", "weapon", "armor")
ENCHANTMENT_CATEGORIES = ("prefix", "suffix")

#: the rulebook's names for the sheet's parts, in texts a newcomer reads
WORDS = rw.SheetWords(
    value="Coin",
    cards={"order": "Order"},
    circle="circle",
    circles="circles",
    phase="crafting and research",
    extra="Extra Dice slot",
    extras="Extra Dice slots",
    extra_unit="Potion",
    free_mark="a Sponsored Adventurer reward",
    modify="Each Potion spent with a result raises or lowers it by 1.",
    mastery={"material": "Material Mastery", "energy": "Energy Mastery"},
    sides=("Master side", "Apprentice side"),
    masteries="Masteries",
    scoring={
        "crafting": (
            "Crafting",
            "the Coins of every item completed on the left half of the sheet (Accessories, "
            "Weapons and Armor)",
        ),
        "material_mastery": (
            "Material Mastery",
            "the Coins of the Material Mastery card, scored once, in the round the circles "
            "marked in its column met it: its Master side for the first to meet it (everyone "
            "who did in that round), its Apprentice side later (solo: always the Apprentice side)",
        ),
        "spell_research": (
            "Spell Research",
            "the Coins of every spell researched on the right half of the sheet (Enchantments "
            "and Charms)",
        ),
        "energy_mastery": (
            "Energy Mastery",
            "the Coins of the Energy Mastery card, scored once, in the round the circles "
            "marked in its column met it: its Master side for the first to meet it (everyone "
            "who did in that round), its Apprentice side later (solo: always the Apprentice side)",
        ),
        "orders": (
            "Completed Orders",
            "the Coins on every Order card fulfilled (the Sponsored Adventurer's Orders are "
            "not Order cards: they give Potions, free marks and the Sponsored Adventurer's Coins)",
        ),
        "charms_bonus": (
            "Charms Bonus",
            "for each completed Charm that rewards an item category, its bonus Coins for every "
            "Order card of that category fulfilled",
        ),
        "sponsored_adventurer": (
            "Sponsored Adventurer",
            "the Coins on the Sponsored Adventurer card, once all three of its Orders are "
            "fulfilled",
        ),
    },
)


# -- schemas of the files --------------------------------------------------------------------
class SheetRow(rw.SheetRowSpec):
    category: Literal["accessory", "weapon", "armor", "prefix", "suffix", "charm"]
    coins: NonNegativeInt
    potions: int | None = Field(default=None, ge=0)
    bonus_category: Literal["accessory", "weapon", "armor"] | None = None
    bonus_coins: int = Field(default=0, ge=0)


SheetFile = rw.SheetFileBase[SheetRow]


class OrderSpec(rw.CardSpec):
    coins: NonNegativeInt


class OrdersFile(Strict):
    orders: list[OrderSpec] = Field(min_length=1)


class AdventurerSpec(Sourced):
    name: str
    enchantment: str
    items: list[str] = Field(min_length=3, max_length=3)
    coins: NonNegativeInt


class AdventurersFile(Strict):
    adventurers: list[AdventurerSpec] = Field(min_length=8)


class RulesSpec(Sourced):
    rounds: PositiveInt
    results_per_round: PositiveInt
    potions_per_row: NonNegativeInt
    extra_dice_costs: list[int]
    redeal_doubles: PositiveInt
    solo_waiting_orders: NonNegativeInt
    orders_per_player: dict[int, int]


class RewardsSpec(Sourced):
    first_potions: NonNegativeInt
    second_free_marks: NonNegativeInt
    third_free_marks: NonNegativeInt


class SoloSpec(Sourced):
    ratings: list[tuple[int, str]] = Field(min_length=1)
    below: str


class GameFile(Strict):
    rules: RulesSpec
    adventurer_rewards: RewardsSpec
    solo: SoloSpec

    @model_validator(mode="after")
    def _counts(self) -> GameFile:
        if sorted(self.rules.orders_per_player) != list(range(1, 9)):
            raise ValueError("orders_per_player must give 1 to 8 players")
        if any(cost < 0 for cost in self.rules.extra_dice_costs):
            raise ValueError("extra_dice_costs cannot be negative")
        return self


#: how many sheets' scores ``rules.sheet_scores`` remembers (in :attr:`Content._sheet_scores`)
KNOWN_SHEETS = 4096


# -- compiled content ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Order(rw.Card):
    """An Order card; its value is in Coins."""

    @property
    def coins(self) -> int:
        return self.value


@dataclass(frozen=True, slots=True)
class Adventurer:
    index: int
    name: str
    enchantment: str
    items: tuple[str, str, str]
    coins: int
    masks: tuple[int, int, int]  # one per Order: item row + enchantment row
    note: str  # where its data came from, for a player (``rw.source_note``)


@dataclass(frozen=True)
class Content(rw.SheetContentBase):
    rows: tuple[SheetRow, ...]  # data of each layout row, same order
    orders: tuple[Order, ...]
    adventurers: tuple[Adventurer, ...]
    rules: RulesSpec
    rewards: RewardsSpec
    solo: SoloSpec

    @property
    def cards(self) -> tuple[Order, ...]:
        """The Order cards, as the sheet engine calls them."""
        return self.orders

    @cached_property
    def scoring_rows(self) -> tuple[tuple[int, bool, int, str | None, int], ...]:
        """Per sheet row, what END OF GAME scores for it: its mask, whether it is an item row
        (Crafting) or not (Spell Research), its Coins, and a Charm's bonus category and Coins
        per Order of that category."""
        return tuple(
            (
                row.mask,
                row.category in ITEM_CATEGORIES,
                row.value,
                data.bonus_category,
                data.bonus_coins,
            )
            for row, data in zip(self.layout.rows, self.rows, strict=True)
        )

    @cached_property
    def _sheet_scores(self) -> dict[int, tuple[int, int, tuple[tuple[str, int], ...]]]:
        return {}


def compile_content(
    sheet: SheetFile,
    orders: OrdersFile,
    adventurers: AdventurersFile,
    masteries: rw.MasteriesFile,
    game: GameFile,
) -> Content:
    """Check cross-references between the files and build the runtime tables."""
    for r in sheet.rows:
        if (r.bonus_category is None) != (r.bonus_coins == 0):
            raise DataError(f"sheet: row {r.id} needs both bonus_category and bonus_coins")
    base = rw.compile_sheet(sheet, [r.coins for r in sheet.rows], ITEM_CATEGORIES, masteries)
    layout: Layout = base["layout"]
    built_orders = rw.compile_cards(
        [(o, o.coins, "order") for o in orders.orders],
        layout,
        ITEM_CATEGORIES,
        ENCHANTMENT_CATEGORIES,
        Order,
    )

    def row_mask(row_id: str, categories: tuple[str, ...], where: str) -> int:
        return rw.row_of(layout, row_id, categories, where).mask

    built_adventurers = []
    for i, a in enumerate(adventurers.adventurers):
        emask = row_mask(a.enchantment, ENCHANTMENT_CATEGORIES, f"adventurers: {a.name}")
        masks = [
            emask | row_mask(item, (want,), f"adventurers: {a.name}")
            for want, item in zip(ITEM_CATEGORIES, a.items, strict=True)
        ]
        built_adventurers.append(
            Adventurer(
                i,
                a.name,
                a.enchantment,
                (a.items[0], a.items[1], a.items[2]),
                a.coins,
                (masks[0], masks[1], masks[2]),
                rw.source_note(a),
            )
        )
    return Content(
        **base,
        rounds=game.rules.rounds,
        results_per_round=game.rules.results_per_round,
        extra_dice_costs=tuple(game.rules.extra_dice_costs),
        words=WORDS,
        rows=tuple(sheet.rows),
        orders=built_orders,
        adventurers=tuple(built_adventurers),
        rules=game.rules,
        rewards=game.adventurer_rewards,
        solo=game.solo,
    )


#: the game's content from its data files, each a parameter of :func:`compile_content`
#: (read and checked once per process)
content = content_from_files(PACKAGE, compile_content)
