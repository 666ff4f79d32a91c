"""Merchants of Magick content, read from ``data/*.toml`` and validated on load.

The files hold the sheet, the Orders deck, the Sponsored Adventurers, the Mastery cards and the
rules' numbers; :func:`content` checks every cross-reference and compiles them into the indexed
form the rules use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field, model_validator

from rulebook.core.data import DataError, Sourced, Strict, cached, load
from rulebook.core.sheet import Layout, RowSpec

PACKAGE = "rulebook.merchants_of_magick.data"
ITEM_CATEGORIES = ("accessory", "weapon", "armor")
ENCHANTMENT_CATEGORIES = ("prefix", "suffix")


# -- schemas of the files --------------------------------------------------------------------
class DieSpec(Sourced):
    id: str
    sides: int = Field(ge=2)


class ColumnSpec(Sourced):
    id: str
    section: Literal["crafting", "research"]
    dice: list[str] = Field(min_length=1)


class SheetRow(Sourced):
    id: str
    name: str
    category: Literal["accessory", "weapon", "armor", "prefix", "suffix", "charm"]
    coins: int = Field(ge=0)
    circles: dict[str, int] = Field(min_length=1)
    potions: int | None = Field(default=None, ge=0)
    bonus_category: Literal["accessory", "weapon", "armor"] | None = None
    bonus_coins: int = Field(default=0, ge=0)


class SheetFile(Strict):
    dice: list[DieSpec] = Field(min_length=1)
    columns: list[ColumnSpec] = Field(min_length=1)
    rows: list[SheetRow] = Field(min_length=1)


class OrderSpec(Sourced):
    name: str
    item: str
    enchantments: list[str] = Field(min_length=1, max_length=2)
    coins: int = Field(ge=0)


class OrdersFile(Strict):
    orders: list[OrderSpec] = Field(min_length=1)


class AdventurerSpec(Sourced):
    name: str
    enchantment: str
    items: list[str] = Field(min_length=3, max_length=3)
    coins: int = Field(ge=0)


class AdventurersFile(Strict):
    adventurers: list[AdventurerSpec] = Field(min_length=8)


class MasterySpec(Sourced):
    name: str
    column: str
    circles: int = Field(ge=1)
    master: int = Field(ge=0)
    apprentice: int = Field(ge=0)


class MasteriesFile(Strict):
    material: list[MasterySpec] = Field(min_length=1)
    energy: list[MasterySpec] = Field(min_length=1)


class RulesSpec(Sourced):
    rounds: int = Field(ge=1)
    results_per_round: int = Field(ge=1)
    potions_per_row: int = Field(ge=0)
    extra_dice_costs: list[int]
    redeal_doubles: int = Field(ge=1)
    solo_waiting_orders: int = Field(ge=0)
    orders_per_player: dict[int, int]


class RewardsSpec(Sourced):
    first_potions: int = Field(ge=0)
    second_free_marks: int = Field(ge=0)
    third_free_marks: int = Field(ge=0)


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


# -- compiled content ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Order:
    index: int
    name: str
    item: str
    category: str  # accessory, weapon or armor
    enchantments: tuple[str, ...]
    coins: int
    mask: int  # circles of the item row and its enchantment rows

    @property
    def double(self) -> bool:
        return len(self.enchantments) == 2


@dataclass(frozen=True, slots=True)
class Adventurer:
    index: int
    name: str
    enchantment: str
    items: tuple[str, str, str]
    coins: int
    masks: tuple[int, int, int]  # one per Order: item row + enchantment row


@dataclass(frozen=True, slots=True)
class Mastery:
    index: int
    kind: str  # material or energy
    name: str
    column: int
    circles: int
    master: int
    apprentice: int


@dataclass(frozen=True)
class Content:
    dice: tuple[str, ...]
    sides: tuple[int, ...]
    layout: Layout
    rows: tuple[SheetRow, ...]  # data of each layout row, same order
    orders: tuple[Order, ...]
    adventurers: tuple[Adventurer, ...]
    material: tuple[Mastery, ...]
    energy: tuple[Mastery, ...]
    rules: RulesSpec
    rewards: RewardsSpec
    solo: SoloSpec


def compile_content(
    sheet: SheetFile,
    orders: OrdersFile,
    adventurers: AdventurersFile,
    masteries: MasteriesFile,
    game: GameFile,
) -> Content:
    """Check cross-references between the files and build the runtime tables."""
    dice = [d.id for d in sheet.dice]
    if len(set(dice)) != len(dice):
        raise DataError("sheet: duplicate die ids")
    cols = {c.id: c for c in sheet.columns}
    for c in sheet.columns:
        unknown = set(c.dice) - set(dice)
        if unknown:
            raise DataError(f"sheet: column {c.id} takes unknown dice {sorted(unknown)}")
    rows = {r.id: r for r in sheet.rows}
    if len(rows) != len(sheet.rows):
        raise DataError("sheet: duplicate row ids")
    for r in sheet.rows:
        crafting = r.category in ITEM_CATEGORIES
        for cid in r.circles:
            if cid not in cols:
                raise DataError(f"sheet: row {r.id} has a circle in unknown column {cid}")
            if (cols[cid].section == "crafting") != crafting:
                raise DataError(f"sheet: row {r.id} has a circle in the other half of the sheet")
        if (r.bonus_category is None) != (r.bonus_coins == 0):
            raise DataError(f"sheet: row {r.id} needs both bonus_category and bonus_coins")
    layout = Layout(
        [(c.id, c.dice, c.section == "crafting") for c in sheet.columns],
        [RowSpec(r.id, r.name, r.category, r.category, r.coins, r.circles) for r in sheet.rows],
    )

    def row_mask(row_id: str, categories: tuple[str, ...], where: str) -> int:
        if row_id not in rows or rows[row_id].category not in categories:
            raise DataError(f"{where}: {row_id!r} is not a {' or '.join(categories)} row")
        return layout.row_by_id[row_id].mask

    built_orders = []
    for i, o in enumerate(orders.orders):
        mask = row_mask(o.item, ITEM_CATEGORIES, f"orders: {o.name}")
        kinds = []
        for e in o.enchantments:
            mask |= row_mask(e, ENCHANTMENT_CATEGORIES, f"orders: {o.name}")
            kinds.append(rows[e].category)
        if len(set(kinds)) != len(kinds):
            raise DataError(f"orders: {o.name} has two enchantments of one kind")
        built_orders.append(
            Order(i, o.name, o.item, rows[o.item].category, tuple(o.enchantments), o.coins, mask)
        )
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
            )
        )

    def masteries_of(kind: str, specs: list[MasterySpec], section: str) -> tuple[Mastery, ...]:
        out = []
        for i, m in enumerate(specs):
            if m.column not in cols or cols[m.column].section != section:
                raise DataError(f"masteries: {m.name} needs a {section} column, not {m.column}")
            column = layout.column_by_id[m.column]
            if m.circles > column.mask.bit_count():
                raise DataError(f"masteries: {m.name} asks more circles than {m.column} has")
            out.append(Mastery(i, kind, m.name, column.index, m.circles, m.master, m.apprentice))
        return tuple(out)

    return Content(
        dice=tuple(dice),
        sides=tuple(d.sides for d in sheet.dice),
        layout=layout,
        rows=tuple(sheet.rows),
        orders=tuple(built_orders),
        adventurers=tuple(built_adventurers),
        material=masteries_of("material", masteries.material, "crafting"),
        energy=masteries_of("energy", masteries.energy, "research"),
        rules=game.rules,
        rewards=game.adventurer_rewards,
        solo=game.solo,
    )


@cached
def content() -> Content:
    """The game's content from its data files (read and checked once per process)."""
    return compile_content(
        load(SheetFile, PACKAGE, "sheet.toml"),
        load(OrdersFile, PACKAGE, "orders.toml"),
        load(AdventurersFile, PACKAGE, "adventurers.toml"),
        load(MasteriesFile, PACKAGE, "masteries.toml"),
        load(GameFile, PACKAGE, "game.toml"),
    )
