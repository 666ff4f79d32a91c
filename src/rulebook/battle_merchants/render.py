"""The terminal view of a Battle Merchants table, drawn from one seat's observation only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.battle_merchants.content import race_plural
from rulebook.core import Action, State, View
from rulebook.core.words import seat as seat_name

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


TOKENS = (
    "1F sword/mace: Battlefield 1 (centre), token F fire: open, L lock: closed; axe=red: "
    "red's (V- Vorpal); axe 5 (-2): Level, Forge discount; Craft {order}; Defeated "
    "Standard+Vorpal; +tile: Region Reward Tile"
)
BOARD_LEGEND = (
    "#: Battlefield (1 nearest the centre); token F: fire, face up, both spaces open; L: lock, "
    "face down, closed. axe:red is a Weapon sold by red (V- Vorpal); dim: an empty space."
)
DEFEATED = "Defeated: the Defeated Weapons pile, Standard and Vorpal (worth 1 and 2 points)."


def _head(obs: dict[str, Any], decks: bool = True) -> Text:
    head = Text.assemble(
        (f"{obs['season'].capitalize()}", "bold"),
        f"  Season Area {obs['season_area']}/3",
        (" (ending: last turns)" if obs["season_ending"] else ""),
        f"  Kingdom limit {obs['kingdom_limit']}",
    )
    if decks:
        head.append(f"  decks: craft {obs['decks']['craft']}, kingdom {obs['decks']['kingdom']}")
    return head


def _space(demand: str, weapon: str | None) -> str:
    if weapon is None:
        return demand
    owner, _, vorpal = weapon.partition(" ")
    return f"{'V-' if vorpal else ''}{demand}={owner}"


def board_lines(obs: dict[str, Any]) -> list[Text]:
    """The board in a line or two per Region: every Battlefield that is open or holds a
    Weapon (``1F sword/mace=steve``), the locked empty ones counted."""
    lines = []
    for region in obs["regions"]:
        a, b = region["races"]
        shown, locked = [], 0
        fields = zip(region["battlefields"], region["demands"], strict=True)
        for i, (bf, demand) in enumerate(fields):
            x, y = bf["weapons"]
            if bf["token"] == "lock" and x is None and y is None:
                locked += 1
                continue
            dx, dy = demand.split("-")
            token = {"fire": "F", "lock": "L", "none": ""}[bf["token"]]
            shown.append(f"{i + 1}{token} {_space(dx, x)}/{_space(dy, y)}")
        if locked:
            shown.append(f"{locked} locked")
        tile = " +tile" if region["region_tile_on_board"] else ""
        text = f"{region['name']} ({a}/{b}{tile}): " + "  ".join(shown)
        lines.append(Text(text))
    return lines


def _merchant(p: int, seat: dict[str, Any], player: int) -> Text:
    """One merchant: gold, supply, Craft Levels, tiles, cards, Defeated."""
    levels = ", ".join(
        f"{w} {lv}" + (f" (-{seat['discounts'][w]} gold)" if seat["discounts"][w] else "")
        for w, lv in seat["levels"].items()
        if lv
    )
    bonus = "".join(
        f", {b['weapon']} Craft Bonus{'' if b['face_up'] else ' (used)'}"
        for b in seat["craft_bonus"]
    )
    who = f"{'you' if p == player else seat_name(p)} ({seat['colour']})"
    supply = ", ".join(f"{k} x{v}" for k, v in seat["supply"].items()) or "-"
    tiles = ", ".join(f"{k} {v}" for k, v in seat["reward_tiles"].items()) or "-"
    defeated = seat["defeated"]
    return Text.assemble(
        (f"{who}: {seat['gold']} gold", "bold" if p == player else ""),
        f"; supply {supply}; Craft {levels}{bonus}; Reward Tiles {tiles}; Kingdom "
        f"{', '.join(seat['kingdom_cards']) or '-'}; Defeated {defeated['standard']} "
        f"Standard, {defeated['vorpal']} Vorpal",
    )


def _rival(p: int, seat: dict[str, Any]) -> str:
    """Another merchant in a line: gold, Weapons in supply, Craft Levels, Defeated."""
    weapons = sum(seat["supply"].values())
    levels = "/".join(str(lv) for lv in seat["levels"].values())
    defeated = seat["defeated"]
    return (
        f"{seat_name(p)} ({seat['colour']}): {seat['gold']} gold, {weapons} "
        f"Weapon{'' if weapons == 1 else 's'}, Craft {levels}, "
        f"Defeated {defeated['standard']}+{defeated['vorpal']}V"
    )


def _you(seat: dict[str, Any]) -> Text:
    """The viewer's own merchant: everything a decision may need."""
    levels = ", ".join(
        f"{w} {lv}" + (f" (-{seat['discounts'][w]})" if seat["discounts"][w] else "")
        for w, lv in seat["levels"].items()
        if lv
    )
    bonus = ", ".join(
        b["weapon"] + ("" if b["face_up"] else " (used)") for b in seat["craft_bonus"]
    )
    supply = ", ".join(f"{k} x{v}" for k, v in seat["supply"].items()) or "none"
    tiles = ", ".join(f"{k} {v}" for k, v in seat["reward_tiles"].items()) or "none"
    defeated = seat["defeated"]
    return Text.assemble(
        (f"you ({seat['colour']}): {seat['gold']} gold", "bold"),
        f"; Weapons {supply}; Craft {levels}"
        + (f"; Craft Bonus {bonus}" if bonus else "")
        + f"; Reward Tiles {tiles}; Kingdom Cards {len(seat['kingdom_cards'])}; Defeated "
        f"{defeated['standard']}+{defeated['vorpal']}V",
    )


def turn(state: State, player: int) -> RenderableType:
    """What a decision needs: the Season, the board's open Battlefields, the face-up cards
    (their texts are in the moves), and every merchant."""
    obs = state.observation(player)
    crafts = ", ".join(
        f"{i + 1}: {label}" for i, label in enumerate(obs["craft_cards"]) if label is not None
    )
    kingdom = ", ".join(
        f"{i + 1}: {k['name']}" for i, k in enumerate(obs["kingdom_cards"]) if k is not None
    )
    head = _head(obs, decks="steve" not in obs)
    if "steve" in obs:
        head.append(f"  Steve sells to the {race_plural(obs['steve']['next'])} next")
    parts: list[RenderableType] = [head, *board_lines(obs)]
    offered = {str(a).split(" ")[0] for a in state.legal_actions(player)}
    if "learn" not in offered:  # else the moves show them, with their costs
        parts.append(Text(f"Craft Cards: {crafts or '-'}"))
    if "kingdom" not in offered:
        parts.append(Text(f"Kingdom Cards: {kingdom or '-'} (card NAME: its text)"))
    parts.append(_you(obs["seats"][player]))
    rivals = [_rival(p, seat) for p, seat in enumerate(obs["seats"]) if p != player]
    parts += [Text(line) for line in rivals]
    order = "3/2/2/2: " + "/".join(obs["seats"][player]["levels"])
    parts.append(Text(TOKENS.format(order=order), style="dim"))
    if obs["step"] not in ("turn", "over"):
        who = seat_name(obs["current_players"][0])
        parts.append(Text(f"{who[:1].upper()}{who[1:]} is in the {obs['step']} step"))
    return Group(*parts)


def board(state: State, player: int) -> RenderableType:
    """The whole board, two Regions a row, with the Reward spaces and Steve."""
    obs = state.observation(player)
    grid = Table.grid(padding=(0, 3))
    tables = [region_table(r) for r in obs["regions"]]
    for i in range(0, len(tables), 2):  # two Regions a row: fits 80 columns
        grid.add_row(*tables[i : i + 2])
    rewards = "; ".join(
        f"{race}: {', '.join(colours) or '-'}" for race, colours in obs["reward_spaces"].items()
    )
    parts: list[RenderableType] = [
        _head(obs),
        grid,
        Text(f"Reward Tiles left this Season (race: colours): {rewards}"),
    ]
    if "steve" in obs:
        parts.append(
            Text(
                f"Salesman Steve sells next to: {obs['steve']['next']} "
                f"(order {', '.join(obs['steve']['races'])})"
            )
        )
    parts.append(Text(BOARD_LEGEND, style="dim"))
    return Group(*parts)


def cards(state: State, player: int) -> RenderableType:
    """The face-up Craft and Kingdom Cards with their texts, the Craft Bonus cards, the
    discard piles and the side board's lines."""
    obs = state.observation(player)
    crafts = ", ".join(
        f"{i + 1}: {label}" for i, label in enumerate(obs["craft_cards"]) if label is not None
    )
    kingdom = "".join(
        f"\n  {i + 1}: {k['name']} ({k['duration']}, {k['gold']:+d} gold): {k['text']}"
        for i, k in enumerate(obs["kingdom_cards"])
        if k is not None
    )
    parts: list[RenderableType] = [
        Text(f"Craft Cards: {crafts or '-'}"),
        Text(
            "  (+n: Levels it gives; free / x1 / x2: its cost per Level you have; coins: "
            "Forge discount)",
            style="dim",
        ),
        Text(f"Kingdom Cards:{kingdom or ' -'}"),
        Text(f"Craft Bonus cards not yet taken: {', '.join(obs['craft_bonus_available']) or '-'}"),
        Text(f"Kingdom discard pile: {', '.join(obs['kingdom_discard']) or '-'}"),
    ]
    if "side_board_links" in obs:
        parts.append(Text(f"Side board lines: {', '.join(obs['side_board_links'])}"))
    return Group(*parts)


def merchants(state: State, player: int) -> RenderableType:
    """Every merchant: gold, supply, Craft Levels, Reward Tiles, Kingdom Cards, Defeated."""
    obs = state.observation(player)
    lines = [_merchant(p, seat, player) for p, seat in enumerate(obs["seats"])]
    return Group(*lines, Text(DEFEATED, style="dim"))


def render(state: State, player: int) -> RenderableType:
    """The whole table as ``player`` sees it: board, face-up cards, every merchant."""
    obs = state.observation(player)
    parts: list[RenderableType] = [board(state, player), cards(state, player)]
    parts.append(merchants(state, player))
    if obs["step"] == "over":
        parts.append(Text(f"Game over. Winners: {obs['winners']}", style="bold magenta"))
    return Group(*parts)


VIEWS = (
    View("board", "the whole board, the Reward spaces and Salesman Steve", board),
    View("cards", "the face-up Craft and Kingdom Cards with their texts", cards),
    View("merchants", "every merchant's gold, Weapons, Craft and cards", merchants),
)


def menu_entry(state: State, player: int, action: Action) -> tuple[str, str, int]:
    """The terminal menu's place of a move, from its explanation: learn and kingdom under
    their action with the card; forge with its cost; sales (and Craft Bonus sales) under the
    Region, labelled race/Battlefield, Weapon and gold."""
    text = state.explain(player, action)
    verb, _, rest = text.partition(" ")
    if verb in ("learn", "kingdom"):
        return verb, rest.partition(": ")[2] or rest, 0 if verb == "learn" else 9
    if verb == "forge":
        return verb, rest.replace(" gold)", ")"), 1
    if verb not in ("sell", "bonus"):
        return "", text, 0
    space, _, detail = rest.removeprefix("vorpal ").partition(" ")
    region, _, where = space.partition("/")
    detail = detail.strip("()")
    if verb == "sell":  # "sword to the Elves, 10 gold"
        weapon, _, value = detail.partition(" to the ")
        label = f"{where} {weapon} {value.partition(', ')[2]}"
    else:  # "forge a Vorpal axe for 13, sell it to the Orcs for 23"
        weapon = detail.removeprefix("forge a ").partition(" for ")[0]
        cost = detail.partition(" for ")[2].partition(",")[0]
        label = f"{where} {weapon} {cost}+{detail.rpartition(' for ')[2]}"
    return f"{verb} {region}", label, 2 if verb == "sell" else 6
