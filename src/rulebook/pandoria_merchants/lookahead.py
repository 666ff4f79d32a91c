"""Greedy's one-step lookahead in Pandoria Merchants, without making the moves (issue 15).

Most of greedy's choices are where to draw the first Resource of a turn (2.1): every hex where a
whole turn still fits, times the dice's kinds. Such a move changes nothing that is scored (areas
are scored only after the action, 4.), so :func:`rulebook.pandoria_merchants.bots.evaluate`
changes only through the open areas next to Workers (:func:`~rulebook.pandoria_merchants.bots.
potential`): the new Resource joins the unscored areas of its kind around it into one, and is
one empty hex less around the others. :func:`lookahead` works out these areas from the
position's own, each area's share of the potential once (:func:`~rulebook.pandoria_merchants.
bots.area_term`, the evaluation's own), and sums the shares after each move in the
evaluation's order, so the values are the same, bit for bit.

Every other move (the second Resource, the Worker, which may lead to scoring at once; actions,
purchases, Spells, the solo steps) is made on a clone and evaluated, as the generic
:meth:`rulebook.core.State.lookahead` does; so is every first Resource when a whole turn no
longer fits anywhere (the next steps may then resolve by themselves). Such a clone is marked
``only_evaluated``: a turn it ends leaves the next turn's dice unrolled, and the action and buy
phases it reaches are asked only whether there is a choice (what the evaluation reads is the
same; ``tests/test_speed.py`` checks it). ``tests/test_speed.py`` holds this to the generic
lookahead on many positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.core import Action
from rulebook.pandoria_merchants import bots
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.rules import DRAW, Move, PandoriaState


def lookahead(s: PandoriaState, player: int, actions: Sequence[Action]) -> list[float]:
    """``bots.evaluate`` after each of ``actions`` (legal moves of ``player`` now)."""
    if not _first_resources(s, actions):
        return [_made(s, player, action) for action in actions]
    board = s.board
    nbr = board.nbr
    index = board.index
    workers = 0
    for w in s.workers:
        workers |= w
    near = board.around(workers)  # areas_at's ``look``
    # the open areas now, with the first hex areas_at meets each at (its place in the order)
    areas = [
        ((area & near) & -(area & near), k, area, border)
        for k, area, border in s.areas_at(near, remember=True)
    ]
    # each one's share of the potential as it is, and with one empty hex less around it
    family = s.family
    seat = bots.seat_of(s, player)
    empty_now = s.empty
    shares = []
    for _, kind, area, edge in areas:
        size = area.bit_count()
        openings = (edge & empty_now).bit_count()
        shares.append(
            (
                bots.area_term(family, seat, kind, size, edge, openings),
                bots.area_term(family, seat, kind, size, edge, openings - 1),
            )
        )
    unscored = ~s.scored
    settled = bots.settled(s, player)
    values = []
    for action in actions:
        assert isinstance(action, Move)
        h = index[action.arg]
        k = KINDS.index(action.verb)
        hb = 1 << h
        # the new Resource's area: it and the unscored areas of its kind next to it
        same = s.kinds[k] & unscored
        merged = hb
        border = nbr[h]
        rest = nbr[h] & same
        while rest:
            part, around_part = board.area_and_border(same, (rest & -rest).bit_length() - 1)
            merged |= part
            border |= around_part
            rest &= ~part
        border &= ~merged
        joined = bots.area_term(
            family, seat, k, merged.bit_count(), border, (border & empty_now & ~hb).bit_count()
        )
        # potential's sum over the open areas after the move, in areas_at's order
        value = 0.0
        first = (merged & near) & -(merged & near)
        for i, (at, kind, _, edge) in enumerate(areas):
            if first and at > first:
                value += joined
                first = 0
            if edge & hb:
                if kind == k:
                    continue  # joined to the new Resource's area
                value += shares[i][1]
            else:
                value += shares[i][0]
        if first:
            value += joined
        values.append(settled + bots.OPEN_AREA * value)
    return values


def _first_resources(s: PandoriaState, actions: Sequence[Action]) -> bool:
    """Whether ``actions`` are first Resources of a turn on hexes where the whole turn fits
    (:meth:`PandoriaState._draw_options` offers such hexes only, when there are any)."""
    if s.phase != DRAW or s.item != 0 or not actions:
        return False
    first = actions[0]
    if type(first) is not Move or first.verb not in KINDS:
        return False
    return s._pair_ok(s.board.index[first.arg], s._free(), s._anchor())


def _made(s: PandoriaState, player: int, action: Action) -> float:
    """The evaluation after ``action`` made on a clone (the generic lookahead's way)."""
    after = s.clone()
    after.only_evaluated = True  # the next turn's dice, if it begins, are left unrolled
    after.apply_legal(player, action)
    return bots.evaluate(after, player)
