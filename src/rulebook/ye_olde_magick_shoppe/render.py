"""The terminal view of a Ye Olde Magick Shoppe table, drawn from one seat's observation."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core import State
from rulebook.core.rollwrite.render import footer, header, line_text, sheet_table, unspent
from rulebook.ye_olde_magick_shoppe.content import ITEM_CATEGORIES, content


def _bonus(seat: dict[str, object]) -> str:
    count = seat["bonus_modifiers"]
    value = seat["bonus_values"]
    assert isinstance(count, dict) and isinstance(value, dict)
    return f"{count['minus']}x{value['minus']} {count['plus']}x+{value['plus']}"


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: dice, Certifications, their sheet, the customers."""
    obs = state.observation(player)
    c = content()
    extra = c.rules.extra_dice
    head, certifications = header(obs, "Customer deck", "Certifications")
    seats = Table(title="Shoppes", show_lines=False, header_style="bold")
    for name in ("seat", "stars", "bonus modifiers", "extra", "customers", "claimed"):
        seats.add_column(name)
    for p, seat in enumerate(obs["seats"]):
        seats.add_row(
            f"{p}{' (you)' if p == player else ''}{' done' if seat['done'] else ''}",
            str(seat["score"]),
            _bonus(seat),
            f"{seat['extra_dice_used']}/{extra}",
            line_text(seat, "customers", "stars"),
            str(len(seat["claimed"])),
        )
    mine = obs["seats"][player]
    reminder = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        "  dice left: ",
        (unspent(obs, mine) or "none", "bold cyan"),
        f"  bonus modifiers: {_bonus(mine)}",
        f"  extra dice used: {mine['extra_dice_used']}/{extra}",
    )
    return Group(
        head,
        certifications,
        seats,
        Text(f"Your sheet (seat {player})", style="bold"),
        sheet_table(c.layout, c.dice, mine, "stars", ITEM_CATEGORIES),
        reminder,
        *footer(obs),
    )
