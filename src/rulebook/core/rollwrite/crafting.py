"""Spending results on the sheet: Crafting (``>=``) and Spell Research (``<=``), and what a
completed row gives.

Merchants of Magick, THE CRAFTING AND RESEARCH PHASE, CRAFTING: "The type of result spent must
match one of the types shown at the top of the material column containing the circle. The
result spent must be greater than or equal to the number inside the circle"; SPELL RESEARCH:
"... less than or equal to the number inside the circle"; "When all the circles on a row are
marked, that item is considered complete". Ye Olde Magick Shoppe, Crafting: "The value of the
die must be greater than or equal to the number inside the checkbox"; Spell Research: "less
than or equal"; "When all the checkboxes on a row are marked, that item is considered
complete and crafted".

A result may be moved by exactly as much as the circle needs, paid as the game says (its
``_reach`` and ``_pay``: POTIONS, Bonus Modifiers); a completed row gives what the game says
(its ``_row_completed``) and claims customers (:mod:`rulebook.core.rollwrite.customers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.core.action import hashable
from rulebook.core.errors import IllegalAction
from rulebook.core.rollwrite.customers import claim
from rulebook.core.rollwrite.extra_dice import extra_cost, out_of_results
from rulebook.core.rollwrite.moves import CRAFTING, DONE, KNOWN_MOVES, Done, FreeMark, Spend
from rulebook.core.sheet import Circle

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import C, SheetTable
    from rulebook.core.state import Action


def legal_actions(s: SheetTable[C], player: object) -> list[Action]:
    """THE CRAFTING AND RESEARCH PHASE (Round Flow 3): ``done``, and every result ``player`` may
    spend this round on a circle it may mark (the die listed in the circle's column, the result
    moved as far as the seat can pay); a seat with a free mark to make makes it first."""
    if (
        s.phase != CRAFTING
        or type(player) is not int
        or not 0 <= player < s.num_players
        or s.done[player]
    ):
        return s.no_moves(player)
    marks = s.marks[player]
    if s.free_marks[player]:
        return [a for i, a in enumerate(s.moves.free) if not marks >> i & 1]
    actions: list[Action] = [DONE]
    extra = extra_cost(s, player)
    if extra is None:
        return actions
    up, down = s._reach(player, extra)
    if up < 0 or down < 0:
        return actions
    spent = s.spent[player]
    dice = s.dice
    moves = s.moves
    key = (marks, spent, dice, up, down)
    spends = moves.known.get(key)
    if spends is None:
        spends = []
        unmarked = ~marks
        for d, value in enumerate(dice):
            if spent >> d & 1:
                continue
            ups, downs = moves.reach(d, value)
            legal = unmarked & (ups[min(up, len(ups) - 1)] | downs[min(down, len(downs) - 1)])
            by_circle = moves.by_circle[d]
            while legal:  # lowest circle first: the sheet's order
                low = legal & -legal
                spends.append(by_circle[low.bit_length() - 1])
                legal ^= low
        if len(moves.known) >= KNOWN_MOVES:
            moves.known.clear()
        moves.known[key] = spends
    actions.extend(spends)
    return actions


def act(s: SheetTable[C], player: int, action: Action) -> bool:
    """THE CRAFTING AND RESEARCH PHASE: make ``action`` on ``player``'s sheet (it changes only the
    seat's own fields and the deck), checked as it is made: it raises :class:`IllegalAction` before
    changing anything. Whether the seat's crafting phase ends with it."""
    if type(action) is Spend:
        target = s.moves.spend_target.get(action) if hashable(action) else None
        if target is None:
            raise IllegalAction(f"{action}: the {action.die} cannot mark {action.circle}")
        die, at = target
        spend(s, player, action, die, at)
    elif type(action) is FreeMark and s.FREE_MARKS:
        circle = s.moves.free_target.get(action) if hashable(action) else None
        if circle is None:
            raise IllegalAction(f"{action}: there is no circle {action.circle}")
        if not s.free_marks[player]:
            raise IllegalAction("you have no free mark to make")
        if s.marks[player] & circle.bit:
            raise IllegalAction(f"{circle.id} is already marked")
        s.free_marks[player] -= 1
        mark(s, player, circle)
    elif type(action) is Done:
        if s.free_marks[player]:
            raise IllegalAction("make your free mark first")
        return True
    else:
        raise IllegalAction(f"{action!r} is not a {s.game.title} move")
    if s.free_marks[player] or not out_of_results(s, player):
        return False
    s.tell("out_of_results", player)
    return True


def spend(s: SheetTable[C], p: int, action: Spend, die: int, circle: Circle) -> None:
    """CRAFTING, SPELL RESEARCH: spend die number ``die`` on ``circle``: each result marks a single
    circle, once per round; beyond the round's free results an Extra Dice box is marked (EXTRA
    DICE)."""
    if s.free_marks[p]:
        raise IllegalAction("make your free mark first")
    if s.spent[p] >> die & 1:
        raise IllegalAction(f"you already spent the {action.die} this round")
    if s.marks[p] & circle.bit:
        raise IllegalAction(f"{circle.id} is already marked")
    extra = extra_cost(s, p)
    if extra is None:
        raise IllegalAction("all Extra Dice are used: no more results this round")
    value = s.dice[die]
    change = circle.change_needed(value)
    up, down = s._reach(p, extra)
    if up < 0 or down < 0 or change > up or -change > down:
        raise IllegalAction(s._cannot_pay(p, action, value, change, extra))
    s._pay(p, change, extra)
    if s.results[p] >= s.free_results:
        s.extra_used[p] += 1
    s.results[p] += 1
    s.spent[p] |= 1 << die
    mark(s, p, circle)


def mark(s: SheetTable[C], p: int, circle: Circle) -> None:
    """CRAFTING, SPELL RESEARCH: mark a circle; a completed row gives its bonus (the game's
    ``_row_completed``) and claims customers."""
    layout = s.content.layout
    marks = s.marks[p] = s.marks[p] | circle.bit
    row = layout.rows[circle.row]
    if marks & row.mask != row.mask:
        return
    s._row_completed(p, row)
    claim(s, p)
    if marks == layout.all_mask:
        s.free_marks[p] = 0  # nothing left to mark
