"""Data of a roll-and-write sheet game, shared by the games built on the sheet engine.

The schemas every such game's files use (dice, columns, customer cards, mastery cards), the
compiled forms the engine reads (:class:`Card`, :class:`Mastery`) and the cross-checks between
the files: a row's circles sit in columns of its half of the sheet, a card names an item row
and enchantment rows of distinct kinds, a mastery card asks no more circles than its column has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import Field, NonNegativeInt, PositiveInt

from rulebook.core.data import DataError, Sourced, Strict
from rulebook.core.rollwrite.words import SheetWords, source_note
from rulebook.core.sheet import Layout, Row, RowSpec


# -- schemas of the files ------------------------------------------------------------------
class DieSpec(Sourced):
    id: str
    sides: int = Field(ge=2)


class ColumnSpec(Sourced):
    id: str
    section: Literal["crafting", "research"]
    dice: list[str] = Field(min_length=1)


class CardSpec(Sourced):
    """A customer card: an item and the enchantments it must carry."""

    name: str
    item: str
    enchantments: list[str] = Field(min_length=1, max_length=2)


class MasterySpec(Sourced):
    """A mastery (certification) card: mark ``circles`` circles in ``column``.

    ``master`` is the higher value (scored by the first seat(s) to meet it), ``apprentice`` the
    lower one (everyone later, and the solo player).
    """

    name: str
    column: str
    circles: PositiveInt
    master: NonNegativeInt
    apprentice: NonNegativeInt


class SheetRowSpec(Sourced):
    """A row of the sheet as the engine reads it; each game's row schema derives from it,
    names its categories and adds its own fields (its value, its bonus)."""

    id: str
    name: str
    category: str
    circles: dict[str, int] = Field(min_length=1)


R = TypeVar("R", bound=SheetRowSpec)


class SheetFileBase(Strict, Generic[R]):
    """A sheet file: its dice, columns and rows (``SheetFileBase[SheetRow]``: a game's row
    schema)."""

    dice: list[DieSpec] = Field(min_length=1)
    columns: list[ColumnSpec] = Field(min_length=1)
    rows: list[R] = Field(min_length=1)


class MasteriesFile(Strict):
    material: list[MasterySpec] = Field(min_length=1)
    energy: list[MasterySpec] = Field(min_length=1)


# -- compiled content ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Card:
    """A customer card as the engine uses it."""

    index: int
    name: str
    item: str
    category: str  # the item row's category
    enchantments: tuple[str, ...]
    value: int  # the card's coins or stars
    mask: int  # circles of the item row and its enchantment rows
    kind: str  # which deck: "order", "customer", "connoisseur"
    note: str = ""  # where its data came from, for a player (``words.source_note``)

    @property
    def double(self) -> bool:
        return len(self.enchantments) == 2


@dataclass(frozen=True, slots=True)
class Mastery:
    index: int
    kind: str  # material or energy
    name: str
    column: int
    circles: int
    master: int
    apprentice: int
    note: str = ""  # where its data came from, for a player (``words.source_note``)


C = TypeVar("C", bound=Card)


@dataclass(frozen=True)
class SheetContentBase:
    """The compiled content every sheet game has (what the engine reads); a game's
    ``Content`` derives from it and adds its own tables."""

    dice: tuple[str, ...]
    sides: tuple[int, ...]
    layout: Layout
    material: tuple[Mastery, ...]
    energy: tuple[Mastery, ...]
    rounds: int
    results_per_round: int
    extra_dice_costs: tuple[int, ...]
    #: the game's names for its parts, for texts a newcomer reads
    words: SheetWords
    #: per column: where the dice that mark it came from, for a player (``source_note``)
    column_notes: tuple[str, ...]


def compile_sheet(
    sheet: SheetFileBase[Any],
    values: Sequence[int],
    crafting_categories: Iterable[str],
    masteries: MasteriesFile,
) -> dict[str, Any]:
    """The dice, layout and mastery cards of a :class:`SheetContentBase` (as keywords)."""
    layout = build_layout(sheet.dice, sheet.columns, sheet.rows, values, crafting_categories)
    material, energy = compile_masteries(
        masteries, layout, {c.id: c.section for c in sheet.columns}
    )
    return {
        "dice": tuple(d.id for d in sheet.dice),
        "sides": tuple(d.sides for d in sheet.dice),
        "layout": layout,
        "material": material,
        "energy": energy,
        "column_notes": tuple(source_note(c) for c in sheet.columns),
    }


def build_layout(
    dice: Sequence[DieSpec],
    columns: Sequence[ColumnSpec],
    rows: Sequence[SheetRowSpec],
    values: Sequence[int],
    crafting_categories: Iterable[str],
) -> Layout:
    """Check the sheet (dice of the columns, circles in their half) and build its layout."""
    die_ids = [d.id for d in dice]
    if len(set(die_ids)) != len(die_ids):
        raise DataError("sheet: duplicate die ids")
    cols = {c.id: c for c in columns}
    for c in columns:
        unknown = set(c.dice) - set(die_ids)
        if unknown:
            raise DataError(f"sheet: column {c.id} takes unknown dice {sorted(unknown)}")
    if len({r.id for r in rows}) != len(rows):
        raise DataError("sheet: duplicate row ids")
    crafting_rows = set(crafting_categories)
    for r in rows:
        for cid in r.circles:
            if cid not in cols:
                raise DataError(f"sheet: row {r.id} has a circle in unknown column {cid}")
            if (cols[cid].section == "crafting") != (r.category in crafting_rows):
                raise DataError(f"sheet: row {r.id} has a circle in the other half of the sheet")
    return Layout(
        [(c.id, c.dice, c.section == "crafting") for c in columns],
        [
            RowSpec(r.id, r.name, r.category, r.category, v, r.circles)
            for r, v in zip(rows, values, strict=True)
        ],
    )


def row_of(layout: Layout, row_id: str, kinds: Sequence[str], where: str) -> Row:
    """The row ``row_id``, which must be of one of the categories ``kinds``."""
    row = layout.row_by_id.get(row_id)
    if row is None or row.category not in kinds:
        raise DataError(f"{where}: {row_id!r} is not a {' or '.join(kinds)} row")
    return row


def compile_cards(
    specs: Sequence[tuple[CardSpec, int, str]],
    layout: Layout,
    items: Iterable[str],
    enchantments: Iterable[str],
    make: Callable[..., C],
) -> tuple[C, ...]:
    """Customer cards from ``(spec, value, deck kind)``: each names one item row and
    enchantment rows of distinct categories (a prefix and a suffix at most)."""
    item_kinds, enchantment_kinds = tuple(items), tuple(enchantments)
    out = []
    for i, (spec, value, kind) in enumerate(specs):
        where = f"cards: {spec.name}"
        item = row_of(layout, spec.item, item_kinds, where)
        mask, category = item.mask, item.category
        seen = []
        for e in spec.enchantments:
            row = row_of(layout, e, enchantment_kinds, where)
            mask |= row.mask
            seen.append(row.category)
        if len(set(seen)) != len(seen):
            raise DataError(f"{where} has two enchantments of one kind")
        out.append(
            make(
                i,
                spec.name,
                spec.item,
                category,
                tuple(spec.enchantments),
                value,
                mask,
                kind,
                source_note(spec),
            )
        )
    return tuple(out)


def compile_masteries(
    files: MasteriesFile, layout: Layout, sections: Mapping[str, str]
) -> tuple[tuple[Mastery, ...], tuple[Mastery, ...]]:
    """The Material and Energy cards; ``sections`` maps column ids to their half."""

    def of(kind: str, specs: list[MasterySpec], section: str) -> tuple[Mastery, ...]:
        out = []
        for i, m in enumerate(specs):
            if sections.get(m.column) != section:
                raise DataError(f"masteries: {m.name} needs a {section} column, not {m.column}")
            column = layout.column_by_id[m.column]
            if m.circles > column.mask.bit_count():
                raise DataError(f"masteries: {m.name} asks more circles than {m.column} has")
            if m.apprentice > m.master:
                raise DataError(f"masteries: {m.name}: the lower value exceeds the higher")
            out.append(
                Mastery(
                    i,
                    kind,
                    m.name,
                    column.index,
                    m.circles,
                    m.master,
                    m.apprentice,
                    source_note(m),
                )
            )
        return tuple(out)

    return (
        of("material", files.material, "crafting"),
        of("energy", files.energy, "research"),
    )
