"""2. Draw 2 Resources and one Worker on the Map: 2.1. Resources and 2.2. Workers.

"First draw the 2 Resources, in any order, in empty hex spaces adjacent to each other. One of
the Resources must also be adjacent to at least one previously drawn Resource or Worker—or one
of the 4 Starting Resource spaces." Then "draw one Worker on any empty hex space that is
adjacent to one of the Resources you just drew." Draw Artifacts: doubles put an Artifact between
the two spaces. A symbol is forfeited only when the whole 2 + 1 no longer fits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rulebook.pandoria_merchants.board import KINDS, around, hexes
from rulebook.pandoria_merchants.moves import SKIP, Move, hex_moves
from rulebook.pandoria_merchants.terms import ACTION, DRAW, DRAWN, KIND_BYTES, replaced

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets

#: how many positions' first Resource hexes a game's states remember (:func:`first_hexes`)
KNOWN_TURNS: Final = 4096


def anchor_hexes(s: PandoriaSheets) -> int:
    """2.1. Resources: where a Resource may be drawn to meet 2.1's requirement (with the zone's free
    hexes)."""
    return (s.near | s.anchor_extra) & s.empty & s.zone


def free_hexes(s: PandoriaSheets) -> int:
    """2.1: the empty hexes one may draw on (solo: in the Territory being worked)."""
    return s.empty & s.zone


def pair_ok(s: PandoriaSheets, h: int, free: int, anchor: int) -> bool:
    """2.1. Resources, 2.2. Workers: whether a Resource on ``h`` can be followed by a second one and
    a Worker (2.1, 2.2)."""
    nbr = s.board.nbr
    hb = 1 << h
    rest = free & ~hb
    # some free r2 next to h, with h or r2 meeting 2.1's requirement, and a free hex next to
    # either for the Worker: with two free hexes next to h any such r2 leaves the other one
    near = nbr[h] & rest
    if not near or not (hb & anchor or near & anchor):
        return False
    if near & (near - 1):
        return True
    return bool(nbr[near.bit_length() - 1] & rest & ~near)


def first_candidates(s: PandoriaSheets) -> int:
    """2.1. Resources: the hexes a first Resource may be drawn to by the rules alone ( next to what
    is drawn, or next to such a hex for the second to be), a whole turn after it or not."""
    anchor = anchor_hexes(s)
    return (anchor | s.board.around(anchor)) & free_hexes(s)


def first_hexes(s: PandoriaSheets) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """2.1. Resources: hexes for the first Resource, those with a complete turn after them, and
    those that meet the rules only for what can still be drawn (when 2 + 1 no longer fit).
    Remembered by the free hexes and the anchor in a table clones share (search lists the same turns
    position after position)."""
    free = free_hexes(s)
    anchor = anchor_hexes(s)
    known = s.memo.first_hexes
    key = (free, anchor)
    found = known.get(key)
    if found is None:
        every = hexes(first_candidates(s))
        full = tuple([h for h in every if pair_ok(s, h, free, anchor)])
        if len(known) >= KNOWN_TURNS:
            known.clear()
        found = known[key] = (full, tuple(every))
    return found


def full_turn_fits(s: PandoriaSheets) -> bool:
    """2.1, 2.2: whether 2 Resources + 1 Worker can still be drawn (solo: Territory is finished when
    not): whether :func:`first_hexes` finds a hex with a complete turn after it (through its table:
    the next turn's first Resource, and a lookahead's siblings, ask the same)."""
    return bool(first_hexes(s)[0])


def finish_draw(s: PandoriaSheets) -> None:
    """2. Draw 2 Resources and one Worker on the Map, done: what is drawn is now "previously
    drawn" for 2.1's requirement; on to 3."""
    nbr = s.board.nbr
    s.near |= around(nbr, s.touched)
    s._enter(ACTION)


def draw_options(s: PandoriaSheets) -> list[Move]:
    """2.1. Resources and 2.2. Workers, one symbol at a time. A step offers only hexes from which
    the rest of the turn (2 Resources + 1 Worker) can still be drawn; only when none is left may the
    player forfeit (``skip``) what no longer fits.

    Decision: the forfeit rule ("less than 3 empty hex spaces adjacent to each other") is
    read as "the full 2 + 1 no longer fits"; then each symbol is drawn where the rules
    allow it alone, or skipped. A first Resource that touches nothing drawn is allowed only
    because the second will ("One of the Resources must also be adjacent..."), so the
    second may then not be forfeited: it must be drawn where it meets the requirement.
    """
    free = free_hexes(s)
    anchor = anchor_hexes(s)
    nbr = s.board.nbr
    table = hex_moves(s.board)
    if s.item == 0:
        full, local = first_hexes(s)
        rows = [table[KINDS[k]] for k in sorted(set(s.dice))]
        moves = [row[h] for h in (full or local) for row in rows]
        return moves if full or not moves else [*moves, SKIP]
    if s.item == 1:
        kinds = [s.dice[1]] if s.r1 >= 0 else sorted(set(s.dice))
        if s.r1 >= 0:
            cand = nbr[s.r1] & free
            if not s.r1_anchored:
                cand &= anchor
            base = nbr[s.r1]
        else:
            cand = anchor
            base = 0
        every = hexes(cand)
        fits = [h for h in every if (base | nbr[h]) & free & ~(1 << h)]
        moves = [table[KINDS[k]][h] for h in (fits or every) for k in kinds]
        forfeit = not fits and (s.r1 < 0 or s.r1_anchored)
        return [*moves, SKIP] if forfeit and moves else moves
    around = 0
    for h in (s.r1, s.r2):
        if h >= 0:
            around |= nbr[h]
    workers = table["worker"]
    return [workers[h] for h in hexes(around & free)]


def place(s: PandoriaSheets, h: int, kind: int) -> None:
    """2.1. Resources (or the Terrain Spell): draw a Resource of ``kind`` on hex ``h``."""
    res = s.res
    s.res = res[:h] + KIND_BYTES[kind] + res[h + 1 :]
    s.kinds[kind] |= 1 << h
    s.empty &= ~(1 << h)
    s.touched |= 1 << h


def draw(s: PandoriaSheets, p: int, a: Move) -> None:
    """2.1. Resources, 2.2. Workers: draw the symbol of move ``a`` (or forfeit it); Draw
    Artifacts on doubles."""
    if a.verb == "skip":
        s.item += 1
    elif a.verb == "worker":
        h = s._hex(a)
        s.workers = replaced(s.workers, p, s.workers[p] | 1 << h)
        s.empty &= ~(1 << h)
        s.touched |= 1 << h
        s.item = 3
    else:
        h = s._hex(a)
        kind = KINDS.index(a.verb)
        s._count(p, DRAWN + kind)
        if s.item == 0:
            s.r1_anchored = bool(anchor_hexes(s) >> h & 1)
            place(s, h, kind)
            s.r1 = h
            if s.dice[0] != kind:
                s.dice = (s.dice[1], s.dice[0])  # the other die is the second
        else:
            place(s, h, kind)
            s.r2 = h
            if s.r1 >= 0 and s.dice[0] == s.dice[1] and not s.family:
                # Draw Artifacts: doubles put one between the two spaces
                s.artifacts = {**s.artifacts, s.r1: s.artifacts.get(s.r1, 0) + 1}
        s.item += 1
    if s.item > 2:
        finish_draw(s)
    else:
        s._enter(DRAW)
