"""The terminal views of a Merchants of Magick table, drawn from one seat's observation only.

``turn`` is the compact view before each decision (what the Orders and the Sponsored
Adventurer need, the Masteries, the scores, the dice); ``sheet`` and ``orders`` show the whole
sheet and every shoppe; ``render`` (the ``table`` command) shows everything at once.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from rulebook.core import State, View
from rulebook.core.rollwrite import render as rollwrite_render
from rulebook.core.rollwrite.render import (
    card_text,
    line_block,
    masteries_line,
    progress,
    rotation_note,
    sheet_group,
    table_group,
    turn_group,
)
from rulebook.core.words import seat as seat_name
from rulebook.merchants_of_magick.content import content


def _adventurer(seat: dict[str, Any]) -> Text:
    """The Sponsored Adventurer: the enchantment and the three items it wants, how far each
    row is, and what is fulfilled."""
    adv = seat["adventurer"]
    layout = content().layout
    marked = set(seat["marked"])
    items = ", ".join(
        f"{item} done" if item in adv["fulfilled"] else progress(layout, marked, item)
        for item in adv["items"]
    )
    return Text(
        f"Adventurer {adv['name']}: {progress(layout, marked, adv['enchantment'])} + "
        f"{items}; {len(adv['fulfilled'])}/3 done, {adv['coins']} coins for all"
    )


def _extra_dice(seat: dict[str, Any], spent: int) -> str:
    """What the next result costs: free within the round's two, then an Extra Die box."""
    c = content()
    costs = c.extra_dice_costs
    free = c.results_per_round
    used = seat["extra_dice_used"]
    if spent < free:
        return f"results spent {spent}/{free}, then Extra Dice ({used}/{len(costs)} used)"
    if used >= len(costs):
        return "no Extra Dice left this game"
    cost = costs[used]
    price = f"{cost} potion{'s' if cost != 1 else ''}" if cost else "free"
    return f"next result: Extra Die {used + 1}/{len(costs)} ({price})"


def turn(state: State, player: int) -> RenderableType:
    """What a decision needs: the seat's Orders and Adventurer with their rows, the
    Masteries, the scores, then the dice and how to read the moves."""
    obs = state.observation(player)
    layout = content().layout
    mine = obs["seats"][player]
    status = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        f"   you: {mine['score']} coins, {mine['potions']} potions, "
        f"{len(mine['claimed'])} Orders claimed",
    )
    if mine["free_marks"]:
        status.append(f"   {mine['free_marks']} free mark(s) to make now", style="bold magenta")
    solo = obs["variant"] == "solo"
    top: list[RenderableType] = [
        status,
        *line_block(layout, mine, "orders", "coins", "Your Orders", solo, content().words),
        _adventurer(mine),
        masteries_line(obs, mine, layout, "Masteries", "coins", content().words),
    ]
    tail = _extra_dice(mine, len(mine["results_spent"]))
    return turn_group(obs, player, top, "coins", "+n/-n: n Potions change the result", tail)


def sheet(state: State, player: int) -> RenderableType:
    """The seat's whole sheet, with how to read it."""
    c = content()
    return sheet_group(c.layout, c.dice, state.observation(player), player, "coins", c.words)


def orders(state: State, player: int) -> RenderableType:
    """Every shoppe: its Orders, coins, Potions, Extra Dice and Sponsored Adventurer."""
    obs = state.observation(player)
    lines = [Text(f"Orders deck: {obs['deck']['cards']} cards", style="bold")]
    for p, seat in enumerate(obs["seats"]):
        adv = seat["adventurer"]
        who = "you" if p == player else seat_name(p)
        lines.append(
            Text(
                f"{who}: {seat['score']} coins, {seat['potions']} potions, Extra Dice "
                f"{seat['extra_dice_used']}/{len(content().extra_dice_costs)}, "
                f"{len(seat['claimed'])} claimed, "
                f"{adv['name']} {len(adv['fulfilled'])}/3",
                style="bold",
            )
        )
        shop = ", ".join(card_text(o, "coins") for o in seat["orders"])
        lines.append(Text(f"  Orders: {shop}"))
        if seat["waiting"]:
            waiting = ", ".join(card_text(o, "coins") for o in seat["waiting"])
            lines.append(Text(f"  waiting: {waiting}"))
    lines.append(rotation_note("Order"))
    return Group(*lines)


def render(state: State, player: int) -> RenderableType:
    """The whole table as ``player`` sees it: dice, Masteries, every shoppe, their sheet."""
    return table_group(state, player, "Orders deck", "Masteries", (orders, sheet))


VIEWS = (
    View("sheet", "your whole sheet: every row, its circles and thresholds", sheet),
    View("orders", "every shoppe's Orders, coins, Potions and Adventurer", orders),
)

#: the sheet games' menu of moves, shared (:func:`rulebook.core.rollwrite.render.menu_entry`)
menu_entry = rollwrite_render.menu_entry
