"""A move in plain words: spending a result on the sheet, told as the rulebooks tell it.

Merchants of Magick, THE CRAFTING AND RESEARCH PHASE ("each player crosses off that result ...
and marks the corresponding circled number"; POTIONS: "Each Potion adds one (+1) or subtracts
one (-1) to the result spent"). Ye Olde Magick Shoppe, HOW TO PLAY ("The core of the game is
spending dice for either Crafting ... or Spell Research"; Bonus Modifiers). No rule is decided
here: these functions tell a seat what a move does and costs (``SheetState.explain``,
``describe``, ``menu_place``), in each game's names (``SheetContent.words``) and with what each
game adds (its ``_cost_text``, ``_change_paid``, ``_row_reward_words``, ``_fulfils_words``,
``_change_text``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebook.core.action import hashable
from rulebook.core.rollwrite.extra_dice import extra_cost
from rulebook.core.rollwrite.moves import Done, FreeMark, Spend
from rulebook.core.rollwrite.words import circle_said, listed, row_said
from rulebook.core.sheet import Circle, has_all
from rulebook.core.words import plural

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import SheetTable
    from rulebook.core.state import Action


def explain(s: SheetTable[Any], player: int, action: Action) -> str:
    """The move with what it costs, for menus: ``d6 greaves/steel (5+2: 2 potions)``."""
    target = s.moves.spend_target.get(action) if type(action) is Spend else None
    if target is None:
        return str(action)
    die, circle = target
    value = s.dice[die]
    change = circle.change_needed(value)
    cost = s._cost_text(player, value, change, extra_cost(s, player) or 0)
    return f"{action} ({cost})" if cost else str(action)


def describe(s: SheetTable[Any], player: int, action: Action) -> str:
    """The move in plain words, an instruction to ``player`` in the game's names
    (:attr:`SheetContent.words`): the die and its result, what else it costs (what changes
    the result, the game's ``_change_paid``; the Extra Dice box it takes and what that costs), the
    circle, and what marking it completes and claims; or the end of the seat's phase and
    the dice it leaves unused. ``Use the d8 (2) and 1 Potion to mark Backpack in Leather
    (2 raised to 3), completing Backpack (1 Coin and 1 Potion)``."""
    words = s.content.words
    if type(action) is Done:
        return f"Finish {words.phase} for this round{unused_words(s, player)}"
    if type(action) is FreeMark and hashable(action):
        circle = s.moves.free_target.get(action)
        if circle is not None:
            where = circle_said(s.content.layout, circle.index)
            return f"Mark {where} for free ({words.free_mark}){completes(s, player, circle)}"
    if type(action) is Spend and hashable(action):
        target = s.moves.spend_target.get(action)
        if target is not None:
            return spend_words(s, player, target[0], target[1])
    return f"Make the move {action}"


def spend_words(s: SheetTable[Any], p: int, die: int, circle: Circle) -> str:
    """:func:`describe` of spending die number ``die`` on ``circle``."""
    words = s.content.words
    value = s.dice[die]
    change = circle.change_needed(value)
    box = s.extra_used[p] if s.results[p] >= s.free_results else -1
    extra = s.extra_costs[box] if 0 <= box < len(s.extra_costs) else 0
    count, unit, each = s._change_paid(p, change) if change else (0, "", "")
    if count and extra and unit == words.extra_unit:
        paid = [plural(count + extra, unit)]
    else:
        paid = [plural(n, noun) for n, noun in ((count, unit), (extra, words.extra_unit)) if n]
    how = []
    if change:
        moved = f"{value} {'raised' if change > 0 else 'lowered'} to {value + change}"
        if each:
            moved += f", {each}"
        if count and extra:
            moved += f" with {plural(count, unit)}"
        how.append(moved)
    if 0 <= box < len(s.extra_costs):
        slot = f"{words.extra} {box + 1} of {len(s.extra_costs)}"
        if extra:
            slot += f" for {plural(extra, words.extra_unit)}"
        elif any(s.extra_costs):
            slot += ", free"
        how.append(slot)
    text = f"Use the {s.content.dice[die]} ({value})"
    if paid:
        text += " and " + listed(paid)
    text += " to mark " + circle_said(s.content.layout, circle.index)
    if how:
        text += f" ({'; '.join(how)})"
    return text + completes(s, p, circle)


def unused_words(s: SheetTable[Any], p: int) -> str:
    """The dice ``p`` leaves unused by ending its phase now (``, leaving the d10 (7)
    unused``), or nothing."""
    spent = s.spent[p]
    left = [
        f"the {die} ({value})"
        for d, (die, value) in enumerate(zip(s.content.dice, s.dice, strict=True))
        if not spent >> d & 1
    ]
    return f", leaving {listed(left)} unused" if left else ""


def completes(s: SheetTable[Any], p: int, circle: Circle) -> str:
    """What marking ``circle`` completes for ``p``: its row (with what the row gives,
    the game's ``_row_reward_words``), the face-up cards of the shoppe it claims, and the game's
    own (the game's ``_fulfils_words``); nothing if it completes no row."""
    c = s.content
    before = s.marks[p]
    after = before | circle.bit
    row = c.layout.rows[circle.row]
    if before & circle.bit or after & row.mask != row.mask:
        return ""
    reward = s._row_reward_words(row.index)
    done = [f"completing {row_said(row.name)}" + (f" ({reward})" if reward else "")]
    for card in s.lines[p][: s.shop_size]:
        if card >= 0 and has_all(after, s.card_masks[card]):
            o = c.cards[card]
            value = plural(o.value, c.words.value)
            done.append(f"claiming the {c.words.cards[o.kind]} {o.name} ({value})")
    done += s._fulfils_words(p, after)
    return ", " + listed(done)


def menu_place(s: SheetTable[Any], player: int, action: Action) -> tuple[str, str, int]:
    """Where a move sits in the terminal's menu: a spend under its die (with the result)
    and column, labelled with its row and the change the result needs (``d6=5 steel`` /
    ``greaves +2``), dice and columns in sheet order; a free mark under its column."""
    layout = s.content.layout
    columns = len(layout.columns)
    if type(action) is Spend and hashable(action) and action in s.moves.spend_target:
        die, circle = s.moves.spend_target[action]
        value = s.dice[die]
        change = circle.change_needed(value)
        label = layout.rows[circle.row].id
        if change:
            label += " " + s._change_text(player, change)
        column = layout.columns[circle.column]
        return f"{action.die}={value} {column.id}", label, die * columns + column.index
    if type(action) is FreeMark and hashable(action) and action in s.moves.free_target:
        circle = s.moves.free_target[action]
        column = layout.columns[circle.column]
        return f"free mark {column.id}", layout.rows[circle.row].id, column.index
    return "", str(action), 0
