"""Evaluation pieces shared by the roll-and-write sheet games' bots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.rollwrite.extra_dice import extra_cost, out_of_results
from rulebook.core.rollwrite.moves import Done, FreeMark, Spend
from rulebook.core.sheet import Layout
from rulebook.core.state import Action

#: per (layout, row weight, row bonus): the mask of each row of two circles or more and its
#: progress term for each count of marked circles (0.0 for none, and for a complete row, which
#: the score counts instead; a row of one circle never has a term)
_ROW_TERMS: dict[tuple[Layout, float, float], tuple[tuple[int, tuple[float, ...]], ...]] = {}


#: per (layout, row weight, row bonus): each row's progress terms (indexed by row), ``None``
#: for a row of one circle
_TERMS_BY_ROW: dict[tuple[Layout, float, float], tuple[tuple[float, ...] | None, ...]] = {}


#: per (layout, row weight, row bonus), per marks: the rows' progress terms that are not 0.0, in
#: sheet order (adding 0.0 leaves a sum as it is, so adding these is adding every term); the
#: last :data:`KNOWN_SHEETS` sheets asked about are remembered (search bots ask again and again)
_PART_DONE: dict[tuple[Layout, float, float], dict[int, tuple[float, ...]]] = {}
KNOWN_SHEETS = 4096


def _row_terms(
    layout: Layout, row_weight: float, row_bonus: float
) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The progress term of every row by the number of its circles marked, worked out once
    per sheet and weights with the very arithmetic :func:`add_progress` describes (adding a
    term of 0.0 leaves a sum as it is, so only rows that can be part done are listed)."""
    key = (layout, row_weight, row_bonus)
    terms = _ROW_TERMS.get(key)
    if terms is None:
        terms = tuple(
            (
                row.mask,
                tuple(
                    row_weight * (row.value + row_bonus) * have / len(row.circles)
                    if have < len(row.circles)
                    else 0.0
                    for have in range(len(row.circles) + 1)
                ),
            )
            for row in layout.rows
            if len(row.circles) > 1
        )
        _ROW_TERMS[key] = terms
    return terms


def add_progress(
    value: float,
    s: SheetState[Any],
    player: int,
    row_weight: float,
    row_bonus: float,
    card_weight: float,
) -> float:
    """``value`` plus the weighted share done of each unfinished row (its stars or coins plus
    ``row_bonus``, what completing it gives: ``row_weight * (value + row_bonus) * marked /
    circles``) and of each face-up card in the shoppe (``card_weight * value * share``)."""
    marks = s.marks[player]
    key = (s.content.layout, row_weight, row_bonus)
    known = _PART_DONE.get(key)
    if known is None:
        known = _PART_DONE[key] = {}
    terms = known.get(marks)
    if terms is None:
        terms = tuple(
            term
            for mask, row_terms in _row_terms(s.content.layout, row_weight, row_bonus)
            if (term := row_terms[(marks & mask).bit_count()])
        )
        if len(known) >= KNOWN_SHEETS:
            known.clear()
        known[marks] = terms
    for term in terms:
        value += term
    masks = s.card_masks
    values = s.card_values
    for card in s.lines[player][: s.shop_size]:
        if card >= 0:
            mask = masks[card]
            done = (marks & mask).bit_count() / mask.bit_count()
            value += card_weight * values[card] * done
    return value


def _terms_by_row(
    layout: Layout, row_weight: float, row_bonus: float
) -> tuple[tuple[float, ...] | None, ...]:
    """:func:`_row_terms` indexed by row (``None`` for a row of one circle, which has none)."""
    key = (layout, row_weight, row_bonus)
    found = _TERMS_BY_ROW.get(key)
    if found is None:
        by_mask = dict(_row_terms(layout, row_weight, row_bonus))
        found = tuple(by_mask.get(row.mask) for row in layout.rows)
        _TERMS_BY_ROW[key] = found
    return found


def spend_values(
    s: SheetState[Any],
    player: int,
    actions: Sequence[Action],
    base: float,
    paid: Callable[[int, int], float],
    shares: Sequence[tuple[int, float]],
    row_weight: float,
    row_bonus: float,
    card_weight: float,
    free_mark: float = 0.0,
) -> list[float | None]:
    """The value after each move of an evaluation made of ``base`` (its value now) and
    :func:`add_progress`, for the moves that change only what is listed here, without making
    them (``Game.evaluate_moves``); ``None`` for the others, which must be made.

    A spend that completes no row marks one circle and pays for its result: the value gains
    ``paid(change, extra)`` (the game's resources spent on moving the result by ``change``,
    signed, with an Extra Die costing ``extra``), the row's next progress term, the share of
    one circle of every face-up card in the shoppe needing it, and the ``share`` of every
    ``(mask, share)`` of ``shares`` whose mask holds it (the game's own progress terms). No
    row completes, so nothing is scored, claimed or earned. ``done`` changes nothing on the
    sheet. A free mark that completes no row marks one circle and uses the free mark: the
    value gains ``free_mark`` and what the circle adds, as for a spend. Any of them ends the
    crafting phase when it is the seat's last and every other seat is done (then the Mastery
    and Customer phases follow): such a move is made. So are moves that complete a row.
    The sum is taken in another order than the evaluation's, so the values
    may differ from it in the last bits (the tests allow 1e-9, the greedy policy's tie margin).
    """
    others_done = all(d for q, d in enumerate(s.done) if q != player)
    extra = extra_cost(s, player)
    layout = s.content.layout
    rows = layout.rows
    terms = _terms_by_row(layout, row_weight, row_bonus)
    marks = s.marks[player]
    dice = s.dice
    targets = s.moves.spend_target
    free_targets = s.moves.free_target
    #: whether a free mark ends the crafting phase: the seat's last one, with no result left
    free_ends = others_done and s.free_marks[player] == 1 and out_of_results(s, player)
    masks = s.card_masks
    card_values = s.card_values
    shop = [
        (masks[o], card_weight * card_values[o] / masks[o].bit_count())
        for o in s.lines[player][: s.shop_size]
        if o >= 0
    ]
    #: per circle: what marking it adds (``None``: it completes its row); per change of a
    #: result: what paying for it adds (``None``: the seat's crafting then ends)
    gains: dict[int, float | None] = {}
    costs: dict[int, float | None] = {}
    values: list[float | None] = []
    for action in actions:
        kind = type(action)
        if kind is Done:
            values.append(None if others_done else base)
            continue
        if kind is Spend and extra is not None:
            die, circle = targets[action]  # type: ignore[index]
        elif kind is FreeMark and not free_ends:
            die, circle = -1, free_targets[action]  # type: ignore[index]
        else:
            values.append(None)
            continue
        index = circle.index
        if index in gains:
            gain = gains[index]
        else:
            row_terms = terms[circle.row]
            have = (marks & rows[circle.row].mask).bit_count()
            if row_terms is None or have + 1 == len(row_terms) - 1:  # it completes the row
                gain = None
            else:
                gain = row_terms[have + 1] - row_terms[have]
                bit = circle.bit
                for mask, share in shop:
                    if mask & bit:
                        gain += share
                for mask, share in shares:
                    if mask & bit:
                        gain += share
            gains[index] = gain
        if gain is None:
            values.append(None)
            continue
        if die < 0 or extra is None:  # a free mark (a spend has an Extra Die's cost)
            values.append(base + free_mark + gain)
            continue
        change = circle.change_needed(dice[die])
        if change in costs:
            cost = costs[change]
        else:
            ends = others_done and ends_turn_after_spend(s, player, change, extra)
            cost = costs[change] = None if ends else paid(change, extra)
        values.append(None if cost is None else base + cost + gain)
    return values


def ends_turn_after_spend(s: SheetState[Any], p: int, change: int, extra: int) -> bool:
    """Whether a spend by ``p`` that completes no row, moving a result by ``change`` with an
    Extra Die costing ``extra``, leaves ``p`` with no further result this round (as
    :func:`~rulebook.core.rollwrite.extra_dice.out_of_results` would find after the move),
    worked out without making it (the game's resources paid and given back)."""
    results = s.results[p] + 1
    if results >= s.dice_count:
        return True
    if results < s.free_results:
        after = 0
    else:
        used = s.extra_used[p] + (s.results[p] >= s.free_results)
        if used >= len(s.extra_costs):
            return True
        after = s.extra_costs[used]
    saved = s._save_own(p)
    s._pay(p, change, extra)
    up, down = s._reach(p, after)
    s._restore_own(p, saved)
    return up < 0 or down < 0
