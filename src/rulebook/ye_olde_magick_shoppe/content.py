"""Ye Olde Magick Shoppe content, read from ``data/*.toml`` and validated on load.

The files hold the player sheet (``sheet.toml``: dice, columns, rows with their stars, Bonus
kinds, Charms and Glyphs), the Customer and Connoisseur decks (``customers.toml``), the six
Certification cards (``certifications.toml``) and the rules' numbers (``game.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

import rulebook.core.rollwrite as rw
from rulebook.core.data import DataError, Sourced, Strict, content_from_files

PACKAGE = "rulebook.ye_olde_magick_shoppe.data"
ITEM_CATEGORIES = ("gear", "weapon", "armor")
ENCHANTMENT_CATEGORIES = ("prefix", "suffix")
#: the two kinds of Bonus Modifier: minus (down-triangle) and plus (up-triangle)
KINDS = ("minus", "plus")
Kind = Literal["minus", "plus"]

#: the rulebook's names for the sheet's parts, in texts a newcomer reads
WORDS = rw.SheetWords(
    value="star",
    cards={"customer": "Customer", "connoisseur": "Connoisseur"},
    circle="box",
    circles="boxes",
    phase="crafting and research",
    extra="Extra Dice box",
    extras="Extra Dice boxes",
    extra_unit="",
    free_mark="",
    modify=(
        "Bonus Modifiers spent with a result change it: a plus one raises it, a minus one "
        "lowers it, by its circled Bonus Modifier Value."
    ),
    mastery={
        "material": "Material Mastery Certification",
        "energy": "Energy Mastery Certification",
    },
    sides=("higher value", "lower value"),
    masteries="Certifications",
    scoring={
        "items": (
            "Items",
            "the stars of every item crafted on the left half of the sheet (Gear, Weapons and "
            "Armor)",
        ),
        "spells": (
            "Spells",
            "the stars of every spell researched on the right half of the sheet (Enchantments, "
            "Charms and Glyphs)",
        ),
        "customers": ("Customers", "the stars of every Customer and Connoisseur claimed"),
        "certifications": (
            "Certifications",
            "the stars of the Material and Energy Mastery Certifications earned, each once: its "
            "higher value for the first to meet it (everyone who did in that round), its lower "
            "value later (solo: always the lower value)",
        ),
        "glyphs": (
            "Glyphs",
            "for each completed Glyph, its stars for every item of its category crafted",
        ),
    },
)


# -- schemas of the files --------------------------------------------------------------------
class SheetRow(rw.SheetRowSpec):
    category: Literal["gear", "weapon", "armor", "prefix", "suffix", "charm", "glyph"]
    stars: NonNegativeInt
    #: the Bonus Modifier completing the row circles
    bonus: Kind
    #: Charms: the Bonus Modifier Value they advance ("circle next (-) modifier value")
    advances: Kind | None = None
    #: Glyphs: the item category they score, and the stars per item crafted
    glyph_category: Literal["gear", "weapon", "armor"] | None = None
    glyph_stars: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _kinds(self) -> SheetRow:
        if (self.category == "charm") != (self.advances is not None):
            raise ValueError(f"row {self.id}: exactly the Charms advance a Bonus Modifier Value")
        if (self.category == "glyph") != (self.glyph_category is not None):
            raise ValueError(f"row {self.id}: exactly the Glyphs name an item category")
        return self


SheetFile = rw.SheetFileBase[SheetRow]


class CustomerSpec(rw.CardSpec):
    stars: NonNegativeInt


class CustomersFile(Strict):
    customers: list[CustomerSpec] = Field(min_length=1)
    connoisseurs: list[CustomerSpec] = Field(min_length=1)


class RulesSpec(Sourced):
    rounds: PositiveInt
    results_per_round: PositiveInt
    extra_dice: NonNegativeInt
    connoisseurs_per_player: NonNegativeInt
    solo_waiting: NonNegativeInt
    minus_values: list[int] = Field(min_length=1)
    plus_values: list[int] = Field(min_length=1)
    customers_per_player: dict[int, int]


class GameFile(Strict):
    rules: RulesSpec

    @model_validator(mode="after")
    def _counts(self) -> GameFile:
        if sorted(self.rules.customers_per_player) != list(range(1, 9)):
            raise ValueError("customers_per_player must give 1 to 8 players")
        if any(v < 1 for v in (*self.rules.minus_values, *self.rules.plus_values)):
            raise ValueError("Bonus Modifier Values must be at least 1")
        return self


#: how many sheets' scores ``rules.sheet_scores`` remembers (in :attr:`Content._sheet_scores`)
KNOWN_SHEETS = 4096


# -- compiled content ------------------------------------------------------------------------
@dataclass(frozen=True)
class Content(rw.SheetContentBase):
    rows: tuple[SheetRow, ...]  # data of each layout row, same order
    cards: tuple[rw.Card, ...]  # the Customers, then the Connoisseurs
    customers: tuple[int, ...]  # card numbers of the Customer deck
    connoisseurs: tuple[int, ...]  # card numbers of the Connoisseur deck
    rules: RulesSpec
    #: per kind (minus, plus): its Bonus Modifier Values, in track order
    values: tuple[tuple[int, ...], tuple[int, ...]]
    #: per row: the kind of Bonus Modifier it gives (0 minus, 1 plus)
    bonus_kind: tuple[int, ...]
    #: per row: the kind whose value a Charm advances, or -1
    advances: tuple[int, ...]

    @cached_property
    def scoring_rows(self) -> tuple[tuple[int, str | None, int, str | None, int], ...]:
        """Per sheet row, what End of the Game scores for it: its mask, its item category
        (None for a spell row), its stars, and a Glyph's category and stars per item crafted
        of that category."""
        return tuple(
            (
                row.mask,
                row.category if row.category in ITEM_CATEGORIES else None,
                row.value,
                data.glyph_category,
                data.glyph_stars,
            )
            for row, data in zip(self.layout.rows, self.rows, strict=True)
        )

    @cached_property
    def _sheet_scores(self) -> dict[int, tuple[int, int, int]]:
        return {}


def compile_content(
    sheet: SheetFile, customers: CustomersFile, certifications: rw.MasteriesFile, game: GameFile
) -> Content:
    """Check cross-references between the files and build the runtime tables."""
    base = rw.compile_sheet(sheet, [r.stars for r in sheet.rows], ITEM_CATEGORIES, certifications)
    cards = rw.compile_cards(
        [(c, c.stars, "customer") for c in customers.customers]
        + [(c, c.stars, "connoisseur") for c in customers.connoisseurs],
        base["layout"],
        ITEM_CATEGORIES,
        ENCHANTMENT_CATEGORIES,
        rw.Card,
    )
    n = len(customers.customers)
    for card in cards[n:]:
        if not card.double:
            raise DataError(f"customers: the Connoisseur {card.name} needs two enchantments")
    for card in cards[:n]:
        if card.double:
            raise DataError(f"customers: the Customer {card.name} has one enchantment only")
    r = game.rules
    most = max(r.customers_per_player[p] * p for p in range(2, 9))
    if n < most + r.solo_waiting or len(customers.connoisseurs) < 8 * r.connoisseurs_per_player:
        raise DataError("customers: too few cards to deal 8 players")
    return Content(
        **base,
        rounds=r.rounds,
        results_per_round=r.results_per_round,
        extra_dice_costs=(0,) * r.extra_dice,  # Extra Dice cost nothing but their box
        words=WORDS,
        rows=tuple(sheet.rows),
        cards=cards,
        customers=tuple(range(n)),
        connoisseurs=tuple(range(n, len(cards))),
        rules=r,
        values=(tuple(r.minus_values), tuple(r.plus_values)),
        bonus_kind=tuple(KINDS.index(row.bonus) for row in sheet.rows),
        advances=tuple(
            -1 if row.advances is None else KINDS.index(row.advances) for row in sheet.rows
        ),
    )


#: the game's content from its data files, each a parameter of :func:`compile_content`
#: (read and checked once per process)
content = content_from_files(PACKAGE, compile_content)
