"""The terminal view of a Ye Olde Magick Shoppe table, drawn from one seat's observation.

Besides the dice, the Certifications, the shoppes and the seat's sheet, it spells out what the
sheet's symbols do: the Bonus Modifiers held and their value (Bonus Modifier Value), what each
Charm and Glyph gives, and every seat's boxes towards the two Certifications.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from rulebook.core import State, View
from rulebook.core.rollwrite import render as rollwrite_render
from rulebook.core.rollwrite.render import (
    line_block,
    line_text,
    masteries_line,
    rotation_note,
    sheet_group,
    table_group,
    turn_group,
)
from rulebook.core.words import seat as seat_name
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
    return f"{count['minus']} at {value['minus']}, {count['plus']} at +{value['plus']}"


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


def turn(state: State, player: int) -> RenderableType:
    """What a decision needs: the seat's customers with their rows, the Certifications, the
    Bonus Modifiers, the scores, then the dice and how to read the moves."""
    obs = state.observation(player)
    c = content()
    mine = obs["seats"][player]
    status = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        f"   you: {mine['score']} stars, {len(mine['claimed'])} claimed; Bonus Modifiers: "
        f"{_bonus_short(mine)}",
    )
    solo = obs["variant"] == "solo"
    spent = len(mine["results_spent"])
    extra = c.rules.extra_dice
    free = c.rules.results_per_round
    if spent < free:
        tail = f"results spent {spent}/{free}, then Extra Dice ({mine['extra_dice_used']}/{extra})"
    else:
        tail = f"next result: Extra Dice box {mine['extra_dice_used'] + 1}/{extra} (free)"
    top: list[RenderableType] = [
        status,
        *line_block(c.layout, mine, "customers", "stars", "Your customers", solo, c.words),
        masteries_line(obs, mine, c.layout, "Certifications", "stars", c.words),
    ]
    return turn_group(obs, player, top, "stars", "+n/-n: Bonus Modifiers change it", tail)


def sheet(state: State, player: int) -> RenderableType:
    """The seat's whole sheet, what its Charms and Glyphs do, and how to read it."""
    c = content()
    obs = state.observation(player)
    return sheet_group(
        c.layout, c.dice, obs, player, "stars", c.words, _legend(c, obs["seats"][player])
    )


def customers(state: State, player: int) -> RenderableType:
    """Every shoppe: stars, Bonus Modifiers, Extra Dice, Certifications and customers."""
    obs = state.observation(player)
    extra = content().rules.extra_dice
    lines = [Text(f"Customer deck: {obs['deck']['cards']} cards", style="bold")]
    for p, seat in enumerate(obs["seats"]):
        who = "you" if p == player else seat_name(p)
        certifications = _certifications(obs, seat).replace("\n", ", ")
        lines.append(
            Text(
                f"{who}: {seat['score']} stars, Bonus Modifiers {_bonus(seat)}, Extra Dice "
                f"{seat['extra_dice_used']}/{extra}, certifications {certifications}, "
                f"{len(seat['claimed'])} claimed",
                style="bold",
            )
        )
        lines.append(Text("  customers: " + line_text(seat, "customers", "stars")))
    lines.append(rotation_note("customer"))
    return Group(*lines)


def render(state: State, player: int) -> RenderableType:
    """The whole table as ``player`` sees it: dice, Certifications, every shoppe, their sheet."""
    return table_group(state, player, "Customer deck", "Certifications", (customers, sheet))


VIEWS = (
    View("sheet", "your whole sheet, what the Charms and Glyphs do", sheet),
    View("customers", "every shoppe's customers, stars and Bonus Modifiers", customers),
)

#: the sheet games' menu of moves, shared (:func:`rulebook.core.rollwrite.render.menu_entry`)
menu_entry = rollwrite_render.menu_entry
