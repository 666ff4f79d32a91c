"""The terminal view of a Merchants of Magick table, drawn from one seat's observation only."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core import State
from rulebook.core.rollwrite.render import footer, header, line_text, sheet_table, unspent
from rulebook.merchants_of_magick.content import ITEM_CATEGORIES, content


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: dice, Masteries, their sheet, everyone's Orders."""
    obs = state.observation(player)
    c = content()
    head, masteries = header(obs, "Orders deck", "Masteries")
    seats = Table(title="Shoppes", show_lines=False, header_style="bold")
    for name in (
        "seat",
        "coins",
        "potions",
        "extra",
        "Orders in the shoppe",
        "claimed",
        "adventurer",
    ):
        seats.add_column(name)
    for p, seat in enumerate(obs["seats"]):
        adv = seat["adventurer"]
        seats.add_row(
            f"{p}{' (you)' if p == player else ''}{' done' if seat['done'] else ''}",
            str(seat["score"]),
            str(seat["potions"]),
            f"{seat['extra_dice_used']}/6",
            line_text(seat, "orders", "coins"),
            str(len(seat["claimed"])),
            f"{adv['name']} {len(adv['fulfilled'])}/3",
        )
    mine = obs["seats"][player]
    adv = mine["adventurer"]
    reminder = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        "  results left: ",
        (unspent(obs, mine) or "none", "bold cyan"),
        f"  potions: {mine['potions']}  extra dice used: {mine['extra_dice_used']}/6",
        f"  adventurer: {adv['name']} wants {adv['enchantment']} "
        f"{'/'.join(adv['items'])} (done: {', '.join(adv['fulfilled']) or 'none'})",
    )
    parts: list[RenderableType] = [
        head,
        masteries,
        seats,
        Text(f"Your sheet (seat {player})", style="bold"),
        sheet_table(c.layout, c.dice, mine, "coins", ITEM_CATEGORIES),
        reminder,
    ]
    return Group(*parts, *footer(obs))
