"""The shared roll-and-write sheet engine (Merchants of Magick, Ye Olde Magick Shoppe).

:mod:`rulebook.core.sheet` holds the sheet's geometry, :mod:`.content` the data schemas and
compiled cards, :mod:`.state` the table, :mod:`.engine` the index of the shared rules by the
rulebooks' sections (one module of functions over the table each: :mod:`.rounds`,
:mod:`.moves`, :mod:`.crafting`...), :mod:`.words` the plain words shared by the moves, the card
texts and the board's tips.
"""

from rulebook.core.rollwrite.content import (
    Card,
    CardSpec,
    ColumnSpec,
    DieSpec,
    MasteriesFile,
    Mastery,
    MasterySpec,
    SheetContentBase,
    SheetFileBase,
    SheetRowSpec,
    build_layout,
    compile_cards,
    compile_masteries,
    compile_sheet,
    row_of,
)
from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.rollwrite.moves import CRAFTING, DONE, OVER, Done, FreeMark, Moves, Spend
from rulebook.core.rollwrite.state import SheetContent, SheetTable
from rulebook.core.rollwrite.words import SheetWords, source_note

__all__ = [
    "CRAFTING",
    "DONE",
    "OVER",
    "Card",
    "CardSpec",
    "ColumnSpec",
    "DieSpec",
    "Done",
    "FreeMark",
    "MasteriesFile",
    "Mastery",
    "MasterySpec",
    "Moves",
    "SheetContent",
    "SheetContentBase",
    "SheetFileBase",
    "SheetRowSpec",
    "SheetState",
    "SheetTable",
    "SheetWords",
    "Spend",
    "build_layout",
    "compile_cards",
    "compile_masteries",
    "compile_sheet",
    "row_of",
    "source_note",
]
