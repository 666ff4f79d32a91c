"""The board view shared by the roll-and-write sheet games (``sheet.js``, ``sheet.css``).

:func:`sheet_static` gives what every such sheet prints and never changes: the dice, the
columns they feed, the rows with their circles and thresholds and the value printed on each
row, the Extra Dice boxes; and the texts each part explains itself with on the board (a tip on
hover, focus or tap), in the game's words (:class:`~rulebook.core.rollwrite.words.SheetWords`),
the cards' texts the same as the terminal's ``card NAME``. A game's own board package
(``rulebook.<game>.web``) adds its own printed parts and texts to it and lists this package in
``SHARED`` so its ``board.js`` can import ``./sheet.js``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulebook.core.data import Strict, load
from rulebook.core.game import Setup
from rulebook.core.rollwrite.state import C, SheetContent
from rulebook.core.rollwrite.words import (
    dice_said,
    listed,
    row_kind,
    row_said,
    threshold_said,
    titled,
    with_note,
)
from rulebook.core.sheet import Layout

__all__ = ["SheetTips", "sheet_static", "sheet_tips"]


class SheetTips(Strict):
    """A sheet game's ``tips.toml``, beside its board: what each category of rows is, and the
    score pad's categories as the tip of the score names them, in the project's words."""

    categories: dict[str, str]
    score: dict[str, str]


def sheet_tips(package: str) -> SheetTips:
    """The tips of ``package`` (a sheet game's board package): its ``tips.toml``, validated."""
    return load(SheetTips, package, "tips.toml")


def sheet_static(
    setup: Setup,
    content: C,
    cards: Callable[[Setup], Mapping[str, str]],
    row_reward: Callable[[C, int], str],
    categories: Mapping[str, str],
    texts: Mapping[str, str],
    *,
    line: str,
    value: str,
) -> dict[str, Any]:
    """The printed sheet of a game on the shared engine in configuration ``setup``, and what
    each part explains.

    ``line`` and ``value`` are the observation's words for the line of cards and what a card
    is worth (the state's ``LINE`` and ``VALUE``: "orders"/"coins"). From the game's
    ``content``: its names for its parts (``content.words``: "Orders", "Coins", its
    ``masteries``), which half of the sheet each row is in (its circles' columns). For the
    tips: ``cards``
    every card's text by name (the game's ``Game.cards``), ``row_reward`` what completing a
    row gives (``4 Coins and 1 Potion``), ``categories`` each row category's text, ``texts``
    the texts of the game's other parts (``deck``, ``score``... and its own), added to the
    shared ones (``extra``, ``face_down``, ``empty``, ``waiting``, ``line``: solo or not).
    """
    solo = setup.variant == "solo"
    layout = content.layout
    said = content.words
    card = next(iter(said.cards.values()))
    words = {
        "line": titled(f"{card}s"),
        "value": titled(f"{said.value}s"),
        "masteries": said.masteries,
        "circle": said.circle,
        "circles": said.circles,
        "crafting": "Crafting",
        "research": "Spell Research",
    }
    return {
        "dice": [
            {"id": d, "sides": s, "explain": _die_text(content, d, s)}
            for d, s in zip(content.dice, content.sides, strict=True)
        ],
        "columns": [
            {
                "id": col.id,
                "section": "crafting" if col.at_least else "research",
                "dice": [d for d in content.dice if d in col.dice],
                "explain": with_note(
                    _column_text(content, col.index), content.column_notes[col.index]
                ),
            }
            for col in layout.columns
        ],
        "rows": [
            {
                "id": row.id,
                "name": row.name,
                "category": row.category,
                "section": "crafting" if layout.circles[row.circles[0]].at_least else "research",
                "value": row.value,
                "explain": _row_text(
                    content, row.index, row_reward(content, row.index), card, row_kind(row.category)
                ),
                "reward_explain": f"Completing {row_said(row.name)} gives "
                f"{row_reward(content, row.index)}.",
                "circles": [
                    {
                        "id": layout.circles[i].id,
                        "column": layout.columns[layout.circles[i].column].id,
                        "threshold": layout.circles[i].threshold,
                        "at_least": layout.circles[i].at_least,
                        "explain": _circle_text(content, i),
                    }
                    for i in row.circles
                ],
            }
            for row in layout.rows
        ],
        "rounds": content.rounds,
        "results_per_round": content.results_per_round,
        "extra_dice_costs": list(content.extra_dice_costs),
        "line": line,
        "value": value,
        "words": words,
        "cards": dict(cards(setup)),
        "categories": dict(categories),
        "explain": {**_shared_texts(content, card, solo), **texts},
    }


def _columns_of(layout: Layout, die: str) -> list[str]:
    return [titled(col.id) for col in layout.columns if die in col.dice]


def _die_text(content: SheetContent, die: str, sides: int) -> str:
    """A die: its sides, the columns its result marks, how many results a round."""
    said = content.words
    columns = _columns_of(content.layout, die)
    column = "column" if len(columns) == 1 else "columns"
    return (
        f"The {die}, {sides} sides: its result can mark a {said.circle} in the "
        f"{listed(columns, 'or')} {column}. Everyone uses the same dice; each seat spends "
        f"{content.results_per_round} results a round (more with Extra Dice), each on one "
        f"{said.circle}."
    )


def _column_text(content: SheetContent, index: int) -> str:
    """A column: the dice that mark it and what a result must be."""
    said = content.words
    col = content.layout.columns[index]
    dice = [d for d in content.dice if d in col.dice]
    half, bound = ("crafting", "at least") if col.at_least else ("spell research", "at most")
    verb = "marks" if len(dice) == 1 else "mark"
    return (
        f"{titled(col.id)}, a {half} column: {dice_said(dice)} {verb} its {said.circles}, with "
        f"a result {bound} the number in the {said.circle}. {said.modify}"
    )


def _row_text(content: SheetContent, index: int, reward: str, card: str, kind: str) -> str:
    """A row: its kind, the circles that complete it, what completing it gives."""
    said = content.words
    layout = content.layout
    row = layout.rows[index]
    circles = [
        f"{titled(layout.columns[layout.circles[i].column].id)} "
        f"{threshold_said(layout.circles[i].at_least, layout.circles[i].threshold)}"
        for i in row.circles
    ]
    marks = f"its {said.circle}" if len(circles) == 1 else f"its {len(circles)} {said.circles}"
    text = f"{kind}. Mark {marks} ({listed(circles)}) to complete it: {reward}."
    if any(c.item == row.id or row.id in c.enchantments for c in content.cards):
        text += f" Once complete, it counts for every {card} that asks for it."
    return text


def _circle_text(content: SheetContent, index: int) -> str:
    """A circle: which dice mark it, with what result."""
    said = content.words
    layout = content.layout
    circle = layout.circles[index]
    column = layout.columns[circle.column]
    dice = [d for d in content.dice if d in column.dice]
    return (
        f"{titled(column.id)} {said.circle} of {row_said(layout.rows[circle.row].name)}: "
        f"a result of {threshold_said(circle.at_least, circle.threshold)} on "
        f"{dice_said(dice)} marks it."
    )


def _shared_texts(content: SheetContent, card: str, solo: bool) -> dict[str, str]:
    """The texts every sheet game's board shares: the Extra Dice, the line of cards above the
    sheet, a face-down card, an empty space, the waiting cards (solo)."""
    said = content.words
    costs = list(content.extra_dice_costs)
    paid = [(i + 1, cost) for i, cost in enumerate(costs) if cost]
    extra = (
        f"Extra Dice: each result spent beyond {content.results_per_round} in a round takes the "
        f"next of these {len(costs)} {said.extras}, for the whole game."
    )
    if paid:
        slots = listed([str(i) for i, _ in paid])
        prices = listed([str(cost) for _, cost in paid])
        extra += (
            f" {said.extras[:1].upper()}{said.extras[1:]} {slots} cost {prices} "
            f"{said.extra_unit}s; the others are free."
        )
    moves = (
        f"After each round the line shifts left: the leftmost {card} leaves and the first "
        f"waiting one comes in."
        if solo
        else f"After each round every shoppe passes its leftmost {card} to the next seat and "
        f"the others slide left; face-down {card}s then turn up."
    )
    return {
        "extra": extra,
        "line": f"Your shoppe's {card}s: you claim one by completing its rows while it is "
        f"face-up here. {moves}",
        "face_down": f"A face-down {card}, drawn to replace one just claimed: it turns face-up "
        f"at the end of the round.",
        "empty": f"An empty space: the {card} deck ran out. It moves on with the {card}s.",
        "waiting": f"Waiting {card}s (solo): each round the line shifts left, the first of "
        f"these enters the shoppe and a new {card} joins at the right.",
    }
