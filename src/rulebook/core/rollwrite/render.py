"""Terminal views shared by the roll-and-write sheet games (drawn from observations only)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from rulebook.core.sheet import Layout


def sheet_table(
    layout: Layout,
    dice: Sequence[str],
    seat: dict[str, Any],
    value: str,
    item_categories: Iterable[str],
) -> Table:
    """One seat's sheet: each row with its circles (threshold; x when marked)."""
    items = set(item_categories)
    marked = set(seat["marked"])
    completed = set(seat["completed"])
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("row")
    table.add_column(value, justify="right")
    for col in layout.columns:
        usable = [d for d in dice if d in col.dice]
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
        kind = "" if row.category in items else f" ({row.category})"
        table.add_row(Text(row.id + kind, style=style), str(row.value), *cells)
    return table


def card_text(card: dict[str, Any], value: str) -> str:
    if card.get("empty"):
        return "(empty)"
    if card.get("face_down"):
        return "(face down)"
    return f"{card['name']} ({card[value]})"


def line_text(seat: dict[str, Any], line: str, value: str) -> str:
    """A seat's customer line: the shoppe, then the waiting cards (solo)."""
    text = ", ".join(card_text(o, value) for o in seat[line])
    if seat["waiting"]:
        text += " | waiting: " + ", ".join(card_text(o, value) for o in seat["waiting"])
    return text


def header(obs: dict[str, Any], deck: str, masteries: str) -> tuple[Text, Text]:
    """The round, the dice and the deck; the two mastery cards."""
    head = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        "   dice: ",
        ("  ".join(f"{d}={v}" for d, v in obs["dice"].items()), "bold cyan"),
        f"   {deck}: {obs['deck']['cards']}",
    )
    cards = Text(
        f"{masteries}: "
        + "; ".join(
            f"{m['name']} ({m['circles']} {m['column']}, {m['side']} {m['value']})"
            for m in obs["masteries"]
        )
    )
    return head, cards


def unspent(obs: dict[str, Any], seat: dict[str, Any]) -> str:
    return "  ".join(f"{d}={v}" for d, v in obs["dice"].items() if d not in seat["results_spent"])


def footer(obs: dict[str, Any]) -> list[Text]:
    """The end of the game: winners (and the solo rating, where a game has one)."""
    if obs["phase"] != "over":
        return []
    lines = [Text(f"Game over. Winners: {obs['winners']}", style="bold magenta")]
    if "rating" in obs:
        lines.append(Text(f"Solo rating: {obs['rating']}", style="bold magenta"))
    return lines
