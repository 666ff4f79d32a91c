"""The terminal view of a Battle Merchants table, drawn from one seat's observation only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core import State

_TOKEN = {"none": " ", "fire": "F", "lock": "L"}


def _weapon(demand: str, weapon: str | None) -> str:
    if weapon is None:
        return f"[dim]{demand}[/]"
    owner, _, vorpal = weapon.partition(" ")
    return f"[bold]{'V-' if vorpal else ''}{demand}[/]:{owner}"


def region_table(region: dict[str, Any]) -> Table:
    """One Region: its Battlefields from the centre outwards, the two races facing."""
    a, b = region["races"]
    tile = " [Region tile]" if region["region_tile_on_board"] else ""
    table = Table(title=f"{region['name']}{tile}", box=None, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(a)
    table.add_column("token", justify="center")
    table.add_column(b)
    for i, (bf, demand) in enumerate(zip(region["battlefields"], region["demands"], strict=True)):
        x, y = bf["weapons"]
        dx, dy = demand.split("-")
        table.add_row(str(i + 1), _weapon(dx, x), _TOKEN[bf["token"]], _weapon(dy, y))
    return table


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: board, face-up cards, every merchant's holdings."""
    obs = state.observation(player)
    head = Text.assemble(
        (f"{obs['season'].capitalize()}", "bold"),
        f"   Season Area: {obs['season_area']}/3",
        "  (ending: last turns)" if obs["season_ending"] else "",
        f"   Kingdom limit: {obs['kingdom_limit']}",
        f"   decks: craft {obs['decks']['craft']}, kingdom {obs['decks']['kingdom']}",
    )
    board = Table.grid(padding=(0, 3))
    tables = [region_table(r) for r in obs["regions"]]
    for i in range(0, len(tables), 2):  # two Regions a row: fits 80 columns
        board.add_row(*tables[i : i + 2])
    crafts = ", ".join(
        f"{i + 1}: {label}" for i, label in enumerate(obs["craft_cards"]) if label is not None
    )
    kingdom = "".join(
        f"\n  {i + 1}: {k['name']} ({k['duration']}, {k['gold']:+d} gold): {k['text']}"
        for i, k in enumerate(obs["kingdom_cards"])
        if k is not None
    )
    rewards = "; ".join(
        f"{race}: {', '.join(colours) or '-'}" for race, colours in obs["reward_spaces"].items()
    )
    seats = Table(title="Merchants", header_style="bold")
    for name in ("seat", "gold", "supply", "levels (discount)", "tiles", "kingdom", "defeated"):
        seats.add_column(name)
    for p, seat in enumerate(obs["seats"]):
        levels = ", ".join(
            f"{w} {lv}" + (f" (-{seat['discounts'][w]})" if seat["discounts"][w] else "")
            for w, lv in seat["levels"].items()
            if lv
        )
        bonus = "".join(
            f" [bonus {b['weapon']}{'' if b['face_up'] else ' used'}]" for b in seat["craft_bonus"]
        )
        seats.add_row(
            f"{p} {seat['colour']}{' (you)' if p == player else ''}",
            str(seat["gold"]),
            ", ".join(f"{k} x{v}" for k, v in seat["supply"].items()) or "-",
            levels + bonus,
            ", ".join(f"{k} {v}" for k, v in seat["reward_tiles"].items()),
            ", ".join(seat["kingdom_cards"]) or "-",
            f"{seat['defeated']['standard']}S {seat['defeated']['vorpal']}V",
        )
    parts: list[RenderableType] = [
        head,
        board,
        Text(f"Craft Cards: {crafts or '-'}"),
        Text(f"Kingdom Cards:{kingdom or ' -'}"),
        Text(f"Reward Tiles left this Season (race: colours): {rewards}"),
    ]
    if "side_board_links" in obs:
        parts.append(Text(f"Side board lines: {', '.join(obs['side_board_links'])}"))
    if "steve" in obs:
        parts.append(
            Text(
                f"Salesman Steve sells next to: {obs['steve']['next']} "
                f"(order {', '.join(obs['steve']['races'])})"
            )
        )
    parts.append(seats)
    if obs["step"] == "over":
        parts.append(Text(f"Game over. Winners: {obs['winners']}", style="bold magenta"))
    elif obs["step"] != "turn":
        parts.append(Text(f"Seat {obs['current_players'][0]} is in the {obs['step']} step"))
    return Group(*parts)
