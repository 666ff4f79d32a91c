"""The Ye Olde Magick Shoppe board for the web app: the player sheet (shared roll-and-write
sheet, ``rulebook.core.rollwrite.web``) with this game's own printed parts: the Bonus
Modifier each row circles (Bonus Modifiers), the Charms that circle the next Bonus Modifier
Value, the Glyphs' stars per item, the Bonus Modifier Value tracks and the Extra Dice boxes;
and the texts every part explains itself with, from the data files (the cards' the same as
``card NAME``)."""

from __future__ import annotations

from typing import Any

from rulebook.core import Setup
from rulebook.core.rollwrite.web import sheet_static, sheet_tips
from rulebook.core.rollwrite.words import listed, row_kind, source_note, titled, with_note
from rulebook.ye_olde_magick_shoppe.cards import cards
from rulebook.ye_olde_magick_shoppe.content import KINDS, Content, content
from rulebook.ye_olde_magick_shoppe.rules import CATEGORIES, TIEBREAKS, row_reward

SHARED = ("rulebook.core.rollwrite.web",)

#: what each category of rows is and the score pad's categories, as the tips say them
TIPS = sheet_tips(__name__)


def static(setup: Setup) -> dict[str, Any]:
    """The printed sheet and cards' fixed texts (the same for every seed)."""
    c = content()
    out = sheet_static(
        setup, c, cards, row_reward, TIPS.categories, texts(c), line="customers", value="stars"
    )
    for row, spec in zip(out["rows"], c.rows, strict=True):
        row["bonus_kind"] = spec.bonus
        if spec.advances is not None:
            row["advances"] = spec.advances
        if spec.glyph_category is not None:
            row["glyph"] = f"{spec.glyph_stars} per {spec.glyph_category}"
        row["explain"] = with_note(row["explain"], source_note(spec))
    out["modifier_values"] = {"minus": list(c.values[0]), "plus": list(c.values[1])}
    return out


def texts(c: Content) -> dict[str, str]:
    """The tips of this game's own parts: the deck, the score, the Bonus Modifier tracks."""
    out = {
        "deck": "The Customer deck: each Customer claimed is replaced face-down from it; once "
        "it is empty, the space stays empty and moves on around the table.",
        "score": f"Your stars so far: {listed([TIPS.score[k] for k in CATEGORIES])}. The "
        f"most stars after round {c.rounds} wins; ties: {', then '.join(TIEBREAKS)}.",
    }
    for k, kind in enumerate(KINDS):
        gives = [
            row_kind(cat)
            for cat in TIPS.categories
            if any(s.category == cat and s.bonus == kind for s in c.rows)
        ]
        charms = [s.name for s in c.rows if s.advances == kind]
        values = ", ".join(str(v) for v in c.values[k])
        sign, change = ("+", "raises") if kind == "plus" else ("-", "lowers")
        out[kind] = (
            f"{titled(kind)} Bonus Modifiers: each one spent with a result {change} it by the "
            f"circled {kind} value ({values}: {sign}{c.values[k][0]} at first). Completing a "
            f"{listed(gives, 'or')} row gives one; {listed(charms)} circle the next value."
        )
    return out
