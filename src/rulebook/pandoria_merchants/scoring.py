"""4. Score any Enclosed Areas: "If one or more areas have been enclosed, you score them now."

"An enclosed area is made up of one or more adjacent resources of the same type that cannot be
expanded anymore"; "Every player who has Workers adjacent to an enclosed area scores for that
area: the number of Resources in the area multiplied by the number of their Workers adjacent
to that area." Tracks stop at 5: "every 2 Resources you earn after that instead give you 1
Victory Point". Collect Artifacts: only the player who encloses them. (The map's areas and
borders are :mod:`~rulebook.pandoria_merchants.board`'s.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants import family
from rulebook.pandoria_merchants.board import CITY, around
from rulebook.pandoria_merchants.terms import (
    AREAS_ENCLOSED,
    AREAS_SCORED,
    ARTIFACTS_COLLECTED,
    BONUS_BUILDING,
    CITIES,
    OVERFLOW,
    STORE,
    replaced,
)

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def pop_count(mask: int) -> int:
    """How many hexes ``mask`` holds."""
    return mask.bit_count()


def areas_at(s: PandoriaSheets, look: int, remember: bool = False) -> list[tuple[int, int, int]]:
    """4. Score any Enclosed Areas: each area not yet scored with a hex in ``look``, once: (kind,
    hexes, border), those of the position now, lowest first hex first. ``remember``: through the
    board's table of areas (:meth:`Board.area_and_border`), for bots that look at the same areas
    position after position."""
    b = s.board
    unscored = ~s.scored
    drawn = 0
    for mask in s.kinds:
        drawn |= mask
    todo = look & unscored & drawn  # hexes with a Resource (res[h] >= 0)
    found = []
    while todo:  # lowest hex first; each area once
        h = (todo & -todo).bit_length() - 1
        k = s.kind_at(h)
        if remember:
            area, border = b.area_and_border(s.kinds[k] & unscored, h)
        else:
            area = b.area(s.kinds[k] & unscored, h)
            border = b.border(area)
        todo &= ~area
        found.append((k, area, border))
    return found


def score_enclosed_areas(s: PandoriaSheets) -> None:
    """4. Score any Enclosed Areas: score every area enclosed this turn (only areas next to this
    turn's hexes can be)."""
    touched = s.touched
    if not touched:
        return
    for k, area, border in enclosed(s):
        score_area(s, area, border, k)


def enclosed(s: PandoriaSheets) -> list[tuple[int, int, int]]:
    """4. Score any Enclosed Areas: the unscored areas next to this turn's hexes that are
    enclosed, (kind, hexes, border). Those of the last position asked for are kept in a table
    clones share (search scores the same areas after each of a turn's action moves)."""
    key = (s.touched, s.empty, s.scored, *s.kinds)
    last = s.memo.last_enclosed
    found = last.get(key)
    if found is None:
        touched = s.touched
        look = touched | around(s.board.nbr, touched)
        found = [
            (k, area, border)
            for k, area, border in areas_at(s, look, remember=True)
            if not border & s.empty
        ]
        last.clear()
        last[key] = found
    return found


def score_area(s: PandoriaSheets, area: int, border: int, kind: int) -> None:
    """4. Score any Enclosed Areas: "Every player who has Workers adjacent to an enclosed area
    scores for that area" (Ships next to its lake, a Raged Worker counting 2 or 3); Collect
    Artifacts: only the player who encloses."""
    b = s.board
    # as they were, for the table to be told what the area gave (immutable: nothing copied)
    tracks = s.tracks
    vp = s.vp
    artifacts = s.artifacts
    s.enclosed_now += 1
    s.scored |= area
    s.pre_enclosed += pop_count(area & b.preprinted_mask)
    found = [h for h in s.artifacts if area >> h & 1]
    if found:  # Collect Artifacts: only the player who encloses
        collected = sum(s.artifacts[h] for h in found)
        s._count(s.turn, ARTIFACTS_COLLECTED, collected)
        held = s.held_artifacts
        s.held_artifacts = replaced(held, s.turn, held[s.turn] + collected)
        s.artifacts = {h: n for h, n in s.artifacts.items() if not area >> h & 1}
    s._count(s.turn, AREAS_ENCLOSED)
    size = pop_count(area)
    lakes = b.geo_border(area) if s.ships else 0
    for p in range(s.num_players):
        count = workers_next_to(s, p, border, lakes)
        if count:
            s._count(p, AREAS_SCORED)
            earn(s, p, kind, size, count)
    s.tell("area_scored", kind, area, border, tracks, vp, artifacts)


def workers_next_to(s: PandoriaSheets, p: int, border: int, lakes: int) -> int:
    """4. Score any Enclosed Areas: how many of ``p``'s Workers count for an area with that
    ``border``: those on it, a Ship on a lake it touches (``lakes``: the area's lake hexes,
    when there are Ships), and the Worker a Rage cast this turn makes count 2 or 3."""
    count = pop_count(border & s.workers[p])
    if lakes:
        lake_of = s.board.lake_of
        for ship, q in s.ships.items():
            if q == p and lakes & lake_of[ship]:
                count += 1
    if p == s.turn and s.rage_hex >= 0 and border >> s.rage_hex & 1:
        count += s.rage_extra
    return count


def earn(s: PandoriaSheets, p: int, kind: int, size: int, workers: int) -> None:
    """4. Score any Enclosed Areas: "the number of Resources in the area multiplied by the
    number of their Workers"; Cities give VP; the Building Index's Saw Mill, Tower, Workshop,
    Treasury and Statue add per space (not multiplied). Family: :func:`family.earn`."""
    if s.family:
        family.earn(s, p, kind, size, workers)
        return
    if kind == CITY:
        s.add_vp(p, CITIES, size * workers + building_bonus(s, p, kind, size))
        return
    gain(s, p, kind, size * workers + building_bonus(s, p, kind, size))


def building_bonus(s: PandoriaSheets, p: int, kind: int, size: int) -> int:
    """The Building Index's bonus of ``p`` for an area of ``size`` hexes of ``kind`` it scores
    (not multiplied by Workers): the Statue's VP per City hex; the Saw Mill's, Tower's,
    Workshop's or Treasury's Resources per hex of theirs."""
    t = s.c.tracks
    if kind == CITY:
        return t.statue_vp * size * s.built(p, "statue")
    return t.bonus_per_space * size * s.built(p, BONUS_BUILDING[kind])


def gain(s: PandoriaSheets, p: int, resource: int, amount: int) -> None:
    """4. Resources and Victory Points: add to a track; over the maximum of 5 every 2 give 1 VP
    (Store: 2 VP each time).

    Decision: an odd Resource left over beyond the maximum is lost.
    """
    t = s.c.tracks
    total = s.tracks[p][resource] + amount
    if total > t.maximum:
        s.add_vp(p, OVERFLOW, (total - t.maximum) // t.overflow_per_vp)
        s.add_vp(p, STORE, t.store_vp * s.built(p, "store"))
        total = t.maximum
    s.set_track(p, resource, total)
