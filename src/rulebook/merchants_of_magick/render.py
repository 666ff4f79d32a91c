"""The terminal view of a Merchants of Magick table, drawn from one seat's observation only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core import State
from rulebook.merchants_of_magick.content import ITEM_CATEGORIES, content


def _order_text(order: dict[str, Any]) -> str:
    if order.get("face_down"):
        return "(face down)"
    return f"{order['name']} ({order['coins']})"


def sheet_table(seat: dict[str, Any], dice: dict[str, int]) -> Table:
    """One seat's Shoppe sheet: each row with its circles (threshold; x when marked)."""
    c = content()
    layout = c.layout
    marked = set(seat["marked"])
    completed = set(seat["completed"])
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("row")
    table.add_column("coins", justify="right")
    for col in layout.columns:
        usable = [d for d in c.dice if d in col.dice]
        table.add_column(f"{col.id}\n{'/'.join(usable)}", justify="center")
    previous = None
    for row in layout.rows:
        if previous is not None and row.category != previous:
            table.add_row()
        previous = row.category
        cells = []
        for col in layout.columns:
            cid = f"{row.id}/{col.id}"
            circle = layout.circle_by_id.get(cid)
            if circle is None:
                cells.append("")
            else:
                sign = ">=" if circle.at_least else "<="
                cells.append(
                    f"[green]x{circle.threshold}[/]"
                    if cid in marked
                    else f"{sign}{circle.threshold}"
                )
        style = "bold green" if row.id in completed else ""
        kind = "" if row.category in ITEM_CATEGORIES else f" ({row.category})"
        table.add_row(Text(row.id + kind, style=style), str(row.value), *cells)
    return table


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: dice, Masteries, their sheet, everyone's Orders."""
    obs = state.observation(player)
    dice = obs["dice"]
    head = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        "   dice: ",
        ("  ".join(f"{d}={v}" for d, v in dice.items()), "bold cyan"),
        f"   Orders deck: {obs['deck']['cards']}",
    )
    masteries = Text(
        "Masteries: "
        + "; ".join(
            f"{m['name']} ({m['circles']} {m['column']}, {m['side']} {m['value']})"
            for m in obs["masteries"]
        )
    )
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
        orders = ", ".join(_order_text(o) for o in seat["orders"])
        if seat["waiting"]:
            orders += " | waiting: " + ", ".join(_order_text(o) for o in seat["waiting"])
        seats.add_row(
            f"{p}{' (you)' if p == player else ''}{' done' if seat['done'] else ''}",
            str(seat["score"]),
            str(seat["potions"]),
            f"{seat['extra_dice_used']}/6",
            orders,
            str(len(seat["claimed"])),
            f"{adv['name']} {len(adv['fulfilled'])}/3",
        )
    mine = obs["seats"][player]
    adv = mine["adventurer"]
    unspent = [f"{d}={v}" for d, v in dice.items() if d not in mine["results_spent"]]
    reminder = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        "  results left: ",
        ("  ".join(unspent) or "none", "bold cyan"),
        f"  potions: {mine['potions']}  extra dice used: {mine['extra_dice_used']}/6",
        f"  adventurer: {adv['name']} wants {adv['enchantment']} "
        f"{'/'.join(adv['items'])} (done: {', '.join(adv['fulfilled']) or 'none'})",
    )
    parts: list[RenderableType] = [
        head,
        masteries,
        seats,
        Text(f"Your sheet (seat {player})", style="bold"),
        sheet_table(mine, dice),
        reminder,
    ]
    if obs["phase"] == "over":
        parts.append(Text(f"Game over. Winners: {obs['winners']}", style="bold magenta"))
        if "rating" in obs:
            parts.append(Text(f"Solo rating: {obs['rating']}", style="bold magenta"))
    return Group(*parts)
