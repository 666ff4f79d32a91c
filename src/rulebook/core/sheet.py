"""The roll-and-write sheet engine: columns fed by dice, rows of circles, customer lines.

Shared by the dice roll-and-write games (Merchants of Magick and its prototype Ye Olde Magick
Shoppe). A sheet has columns, each fed by some dice types, and rows of circles; a circle sits in
one column and holds a threshold. A crafting circle takes a result ``>=`` its threshold, a
research circle one ``<=`` it. A row is complete when all its circles are marked. A player's
marks are one integer, one bit per circle, so copying a sheet costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Column:
    index: int
    id: str
    dice: frozenset[str]
    #: True for crafting columns (result >= circle), False for research (result <= circle)
    at_least: bool
    mask: int


@dataclass(frozen=True, slots=True)
class Circle:
    index: int
    id: str  # "row/column", the name players type
    row: int
    column: int
    threshold: int
    at_least: bool
    bit: int

    def change_needed(self, value: int) -> int:
        """The smallest change to ``value`` that lets it mark this circle (signed)."""
        if self.at_least:
            return self.threshold - value if value < self.threshold else 0
        return self.threshold - value if value > self.threshold else 0


@dataclass(frozen=True, slots=True)
class Row:
    index: int
    id: str
    name: str
    section: str
    category: str
    value: int  # the coins or stars printed on the row
    circles: tuple[int, ...]
    mask: int


@dataclass(frozen=True)
class RowSpec:
    """A row as a data file gives it: thresholds by column id."""

    id: str
    name: str
    section: str
    category: str
    value: int
    thresholds: Mapping[str, int]


class Layout:
    """A sheet's fixed geometry, indexed for fast legal-move generation."""

    def __init__(
        self,
        columns: Sequence[tuple[str, Iterable[str], bool]],
        rows: Sequence[RowSpec],
    ) -> None:
        col_index = {cid: i for i, (cid, _, _) in enumerate(columns)}
        circles: list[Circle] = []
        built_rows: list[Row] = []
        for r, spec in enumerate(rows):
            idx: list[int] = []
            for cid, threshold in spec.thresholds.items():
                if cid not in col_index:
                    raise ValueError(f"row {spec.id!r}: no column {cid!r}")
                c = col_index[cid]
                n = len(circles)
                circles.append(
                    Circle(n, f"{spec.id}/{cid}", r, c, threshold, columns[c][2], 1 << n)
                )
                idx.append(n)
            mask = sum(circles[i].bit for i in idx)
            built_rows.append(
                Row(
                    r, spec.id, spec.name, spec.section, spec.category, spec.value, tuple(idx), mask
                )
            )
        self.circles: tuple[Circle, ...] = tuple(circles)
        self.rows: tuple[Row, ...] = tuple(built_rows)
        self.columns: tuple[Column, ...] = tuple(
            Column(
                i,
                cid,
                frozenset(dice),
                at_least,
                sum(c.bit for c in circles if c.column == i),
            )
            for i, (cid, dice, at_least) in enumerate(columns)
        )
        self.row_by_id = {row.id: row for row in self.rows}
        self.circle_by_id = {c.id: c for c in self.circles}
        self.column_by_id = {col.id: col for col in self.columns}
        dice_types = sorted({d for col in self.columns for d in col.dice})
        #: for each die type, the circles it may mark, in sheet order
        self.by_die: dict[str, tuple[Circle, ...]] = {
            d: tuple(c for c in self.circles if d in self.columns[c.column].dice)
            for d in dice_types
        }
        self.all_mask = (1 << len(self.circles)) - 1

    def is_complete(self, marks: int, row: Row) -> bool:
        return marks & row.mask == row.mask

    def completed_rows(self, marks: int) -> list[Row]:
        return [row for row in self.rows if marks & row.mask == row.mask]

    def column_count(self, marks: int, column: Column) -> int:
        return (marks & column.mask).bit_count()

    def unmarked(self, marks: int) -> list[Circle]:
        return [c for c in self.circles if not marks & c.bit]


def has_all(marks: int, mask: int) -> bool:
    """Whether every circle of ``mask`` (an order's rows, say) is marked."""
    return marks & mask == mask


def rotate_clockwise(lines: Sequence[list[T]]) -> list[list[T]]:
    """The customer line rotation: every seat passes its leftmost card to the seat on its left,
    the rest slide left, and the card received from the right goes to the far right.

    Seats are numbered clockwise, so the seat on the left of seat ``i`` is ``i + 1``.
    """
    n = len(lines)
    passed = [line[0] if line else None for line in lines]
    rotated: list[list[T]] = []
    for i, line in enumerate(lines):
        new = line[1:]
        incoming = passed[(i - 1) % n]
        if incoming is not None:
            new.append(incoming)
        rotated.append(new)
    return rotated


def shift_left(line: list[T], incoming: T | None) -> tuple[list[T], T | None]:
    """The solo line: every card shifts one space left, the leftmost leaves, a new card joins
    at the far right. Returns the new line and the card that left."""
    left = line[0] if line else None
    new = line[1:]
    if incoming is not None:
        new.append(incoming)
    return new, left
