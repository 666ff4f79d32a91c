"""The terminal view of a Ye Olde Magick Shoppe table, drawn from one seat's observation.

Besides the dice, the Certifications, the shoppes and the seat's sheet, it spells out what the
sheet's symbols do: the Bonus Modifiers held and their value (Bonus Modifier Value), what each
Charm and Glyph gives, and every seat's boxes towards the two Certifications.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core import State
from rulebook.core.rollwrite.render import footer, header, line_text, sheet_table, unspent
from rulebook.ye_olde_magick_shoppe.content import ITEM_CATEGORIES, Content, content

CATEGORY_NAMES = {"gear": "Gear", "weapon": "Weapon", "armor": "Armor"}


def _bonus(seat: dict[str, Any]) -> str:
    """Unused Bonus Modifiers of each kind and what one is worth now."""
    count, value = seat["bonus_modifiers"], seat["bonus_values"]
    return (
        f"{count['minus']} minus ({value['minus']} each), "
        f"{count['plus']} plus (+{value['plus']} each)"
    )


def _bonus_short(seat: dict[str, Any]) -> str:
    count, value = seat["bonus_modifiers"], seat["bonus_values"]
    return f"{count['minus']} at {value['minus']}\n{count['plus']} at +{value['plus']}"


def _certifications(obs: dict[str, Any], seat: dict[str, Any]) -> str:
    """Boxes marked towards each Certification card, or the stars scored for it."""
    parts = []
    for mastery, scored in zip(obs["masteries"], seat["masteries"], strict=True):
        column = mastery["column"]
        if scored is not None:
            parts.append(f"{column} scored {scored}")
        else:
            marked = sum(1 for cid in seat["marked"] if cid.rsplit("/", 1)[1] == column)
            parts.append(f"{column} {marked}/{mastery['circles']}")
    return "\n".join(parts)


def _legend(c: Content, seat: dict[str, Any]) -> list[Text]:
    """What the Charms and Glyphs do (the sheet's printed reminders)."""
    completed = set(seat["completed"])
    crafted = {
        category: sum(1 for r in c.layout.rows if r.category == category and r.id in completed)
        for category in ITEM_CATEGORIES
    }
    lines = []
    for row in c.rows:
        done = " (done)" if row.id in completed else ""
        if row.advances is not None:
            lines.append(f"{row.name}: circle the next {row.advances} value{done}")
        elif row.glyph_category is not None:
            stars = f"{row.glyph_stars} star{'s' if row.glyph_stars != 1 else ''}"
            name = CATEGORY_NAMES[row.glyph_category]
            now = crafted[row.glyph_category]
            lines.append(f"{row.name}: {stars} per {name} crafted ({now} now){done}")
    return [Text("Charms and Glyphs: " + "; ".join(lines), style="dim")]


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: dice, Certifications, their sheet, the customers."""
    obs = state.observation(player)
    c = content()
    extra = c.rules.extra_dice
    head, certifications = header(obs, "Customer deck", "Certifications")
    seats = Table(title="Shoppes", show_lines=False, header_style="bold")
    for name in ("seat", "stars", "bonus mod.", "extra", "certifications", "customers"):
        seats.add_column(name)
    for p, seat in enumerate(obs["seats"]):
        seats.add_row(
            f"{p}{' (you)' if p == player else ''}{' done' if seat['done'] else ''}",
            str(seat["score"]),
            _bonus_short(seat),
            f"{seat['extra_dice_used']}/{extra}",
            _certifications(obs, seat),
            line_text(seat, "customers", "stars") + f" | claimed: {len(seat['claimed'])}",
        )
    mine = obs["seats"][player]
    reminder = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        "  dice left: ",
        (unspent(obs, mine) or "none", "bold cyan"),
        f"  bonus modifiers: {_bonus(mine)}",
        f"  Extra Dice boxes used: {mine['extra_dice_used']}/{extra}",
    )
    return Group(
        head,
        certifications,
        seats,
        Text(f"Your sheet (seat {player})", style="bold"),
        sheet_table(c.layout, c.dice, mine, "stars", ITEM_CATEGORIES),
        *_legend(c, mine),
        reminder,
        *footer(obs),
    )
