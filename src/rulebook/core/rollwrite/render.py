"""Terminal views shared by the roll-and-write sheet games (drawn from observations only)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core.rollwrite.content import Card, SheetContentBase
from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.rollwrite.words import SheetWords, customer_text, mastery_text, with_note
from rulebook.core.sheet import Layout
from rulebook.core.state import Action, State
from rulebook.core.words import seat as seat_name


def sheet_table(layout: Layout, dice: Sequence[str], seat: dict[str, Any], value: str) -> Table:
    """One seat's sheet: each row with its circles (the prototype's boxes: threshold; x when
    marked), each group of rows under its category."""
    marked = set(seat["marked"])
    completed = set(seat["completed"])
    table = Table(
        show_edge=False, pad_edge=False, box=None, header_style="bold", padding=(0, 1, 0, 0)
    )
    table.add_column("row", no_wrap=True)
    table.add_column(value, justify="right")
    for col in layout.columns:
        usable = [d for d in dice if d in col.dice]
        table.add_column(f"{col.id}\n{' '.join(usable)}", justify="center", overflow="fold")
    previous = None
    for row in layout.rows:
        if row.category != previous:
            table.add_row(Text(row.category, style="dim italic"))
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
        table.add_row(Text(" " + row.id, style=style), str(row.value), *cells)
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


def footer(obs: dict[str, Any]) -> list[Text]:
    """The end of the game: winners (and the solo rating, where a game has one)."""
    if obs["phase"] != "over":
        return []
    lines = [Text(f"Game over. Winners: {obs['winners']}", style="bold magenta")]
    if "rating" in obs:
        lines.append(Text(f"Solo rating: {obs['rating']}", style="bold magenta"))
    return lines


def table_group(
    state: State,
    player: int,
    deck: str,
    masteries: str,
    views: Sequence[Callable[[State, int], RenderableType]],
) -> Group:
    """A sheet game's whole table as ``player`` sees it (the ``table`` command): the round, the
    dice and the ``deck``, the two mastery cards (``masteries``: the game's name for them), the
    game's ``views`` in order (every shoppe, the seat's sheet), then the end of the game."""
    obs = state.observation(player)
    head, cards = header(obs, deck, masteries)
    return Group(head, cards, *[view(state, player) for view in views], *footer(obs))


# -- the compact turn view ------------------------------------------------------------------------
def progress(layout: Layout, marked: set[str], row_id: str) -> str:
    """A row's progress: ``plate-armor 1/3`` (circles marked of its circles), or ``done``."""
    row = layout.row_by_id[row_id]
    done = sum(layout.circles[i].id in marked for i in row.circles)
    return f"{row_id} done" if done == len(row.circles) else f"{row_id} {done}/{len(row.circles)}"


def card_needs(layout: Layout, seat: dict[str, Any], card: dict[str, Any], value: str) -> str:
    """A customer card and how far the seat's sheet is from it, row by row."""
    if card.get("empty") or card.get("face_down"):
        return card_text(card, value)
    marked = set(seat["marked"])
    rows = [progress(layout, marked, r) for r in (card["item"], *card["enchantments"])]
    return f"{card['name']} ({card[value]}): {', '.join(rows)}"


def line_block(
    layout: Layout,
    seat: dict[str, Any],
    line: str,
    value: str,
    title: str,
    solo: bool,
    words: SheetWords,
) -> list[Text]:
    """The seat's customer line with each card's rows (marked circles/circles, in the game's
    ``words``: the prototype's boxes); the card that leaves at the end of the round is marked
    ``>``."""
    leaving = "leaves" if solo else "passes on"
    marks = f"{words.circles} marked/all"
    out = [Text(f"{title} (rows needed: {marks}; > {leaving} next round):", "bold")]
    for i, card in enumerate(seat[line]):
        out.append(Text(("> " if i == 0 else "  ") + card_needs(layout, seat, card, value)))
    if seat["waiting"]:
        waiting = ", ".join(card_text(c, value) for c in seat["waiting"])
        out.append(Text(f"  waiting to come in: {waiting}"))
    return out


def masteries_line(
    obs: dict[str, Any],
    seat: dict[str, Any],
    layout: Layout,
    title: str,
    value: str,
    words: SheetWords,
) -> Text:
    """The two mastery cards: what each asks (in the game's ``words``: circles or boxes), how
    far the seat is, what it pays now."""
    marked = set(seat["marked"])
    parts = []
    for card, scored in zip(obs["masteries"], seat["masteries"], strict=True):
        column = layout.column_by_id[card["column"]]
        have = sum(1 for c in layout.circles if c.column == column.index and c.id in marked)
        asks = f"{card['circles']} {card['column']} {words.circles}"
        if scored is not None:
            parts.append(f"{asks} (you scored {scored})")
        else:
            parts.append(f"{asks} (you {have}): {card['value']} {value}")
    return Text(f"{title}: " + "; ".join(parts))


def scores_line(obs: dict[str, Any], player: int, value: str) -> Text:
    """Every seat's score so far, and who is done this round (``*``)."""
    parts = []
    for p, seat in enumerate(obs["seats"]):
        who = f"{p + 1} (you)" if p == player else str(p + 1)
        parts.append(f"{who}: {seat['score']}{'*' if seat['done'] and p != player else ''}")
    return Text(f"{value.capitalize()} by seat (* done this round): " + ", ".join(parts))


def dice_line(obs: dict[str, Any], seat: dict[str, Any], tail: str) -> Text:
    """This round's dice, those the seat has spent, and what it may still spend."""
    spent = set(seat["results_spent"])
    line = Text("Dice: ", style="bold")
    for die, result in obs["dice"].items():
        line.append(f"{die}={result}", style="dim strike" if die in spent else "bold cyan")
        line.append("  ")
    if spent:
        line.append(f"(spent: {' '.join(d for d in obs['dice'] if d in spent)})  ")
    line.append(tail)
    return line


def turn_group(
    obs: dict[str, Any], player: int, top: list[RenderableType], value: str, legend: str, tail: str
) -> Group:
    """A sheet game's turn view: the game's own ``top`` lines, everyone's score (not solo),
    how to read the moves, then the dice and what the next result costs (``tail``)."""
    parts = list(top)
    if obs["variant"] != "solo":
        parts.append(scores_line(obs, player, value))
    mine = obs["seats"][player]
    parts += [Text(f"{MENU_LEGEND}; {legend}", style="dim"), dice_line(obs, mine, tail)]
    return Group(*parts, *footer(obs))


def sheet_group(
    layout: Layout,
    dice: Sequence[str],
    obs: dict[str, Any],
    player: int,
    value: str,
    words: SheetWords,
    notes: Sequence[Text] = (),
) -> Group:
    """The seat's whole sheet, the game's ``notes`` on it, and how to read it (in the game's
    ``words``)."""
    return Group(
        Text(f"Your sheet ({seat_name(player)})", style="bold"),
        sheet_table(layout, dice, obs["seats"][player], value),
        *notes,
        Text(sheet_legend(words), style="dim"),
    )


def rotation_note(card: str) -> Text:
    """How the customer line moves on after each round, for the views of every shoppe."""
    return Text(
        f"After each round every shoppe's first {card} passes to the next seat (the last "
        f"seat's to seat 1); the solo line shifts left instead, its first {card} leaving.",
        style="dim",
    )


def sheet_legend(words: SheetWords) -> str:
    """How to read a sheet in the terminal, naming its places as the game does (a circle, the
    prototype's box)."""
    place = words.circle
    return (
        f"A crafting {place} >=5 takes a result of 5 or more; a research {place} <=6 a result "
        f"of 6 or less; x5 is a marked {place}. A die marks only the columns that list it "
        "(under the column name). Green rows are complete."
    )


MENU_LEGEND = "Moves: die=result, column: rows it can mark"


# -- card texts (for ``card NAME`` and the board's tips) --------------------------------------
def card_texts(content: SheetContentBase, cards: Iterable[Card]) -> dict[str, str]:
    """Each customer card's and each mastery card's text, in the game's words, with where its
    data came from (:mod:`rulebook.core.rollwrite.words`)."""
    words, layout = content.words, content.layout
    texts = {
        card.name: with_note(
            customer_text(words, layout, card.kind, card.item, card.enchantments, card.value),
            card.note,
        )
        for card in cards
    }
    for m in (*content.material, *content.energy):
        text = mastery_text(words, layout, m.kind, m.column, m.circles, m.master, m.apprentice)
        texts[m.name] = with_note(text, m.note)
    return texts


def menu_entry(state: State, player: int, action: Action) -> tuple[str, str, int]:
    """The terminal menu's place of a sheet game's move (:meth:`SheetState.menu_place`)."""
    if not isinstance(state, SheetState):
        raise TypeError(f"{state!r} is not a sheet game")
    return state.menu_place(player, action)
