"""What the table says aloud of the steps nobody chooses (:mod:`rulebook.core.events`).

The rules tell of each step where they take it (``s.tell("area_scored", ...)``); each
function here puts one in plain words, in the project's own, from the state at that moment:

* 1. Roll 2 Resource Dice: the dice each turn begins with (and the Terrain Spell's);
* 2. Draw 2 Resources and one Worker on the Map: a symbol forfeited because nothing is left
  for it, a turn with nothing to draw;
* 4. Score any Enclosed Areas: each area enclosed, who scored what and why (the Workers next
  to it, the hexes, the Buildings' and the Guild's bonus, what a full track turns into VP),
  the Artifacts collected, the pre-printed spaces that bring the end nearer;
* the Building Index's Poorhouse;
* End of Game and Final Score: the end set off, and each seat's points by category at the end;
* SOLO VERSION: a Territory is finished (your points there), the Trolls' claims after the 8th,
  and Victory Points for the Trolls for each Territory.

Everything on Pandoria's sheets is public, so every line is told to all. An event about a
seat begins with its verb (``Enclose the Crystal area ...``: "You enclose ...", "Seat 2
encloses ..."), so it never says "your": the seat reads its own version (``own``) where the
line names other seats too. The rules name each step (``s.tell("area_scored", ...)``) and never
import this module, which reads theirs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.core import Event
from rulebook.core.words import plural, seat
from rulebook.pandoria_merchants import actions, buildings, final_score, scoring, solo
from rulebook.pandoria_merchants.board import CITY, KINDS, hexes
from rulebook.pandoria_merchants.cards import amount, title
from rulebook.pandoria_merchants.terms import (
    AREAS,
    BONUS_BUILDING,
    DRAWING,
    GUILD,
    OVERFLOW,
    RESOURCES,
    STORE,
    Row,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rulebook.pandoria_merchants.state import PandoriaSheets

#: the hexes of an area named one by one, up to this many (then "and 7 more")
NAMED_HEXES = 5

#: each category of the final score, as a line says what it is for
CATEGORY_WORDS = {
    "cities": "City areas",
    "overflow": "Resources beyond full tracks",
    "store": "the Store",
    "shrine": "the Shrine",
    "academy": "the Academy",
    "relics": "Relics",
    "monuments": "Monuments",
    "resources": "the Resources left",
    "unused_cards": "unused cards",
    "artifacts": "the Artifacts left",
    "areas": "Resources in enclosed areas",
    "guild": "the Guild's bonus",
}


def _face(d: int) -> str:
    """A die's face: ``Wood``, ``City``, ``?``."""
    return "?" if d < 0 else title(KINDS[d])


def _dice(dice: Row) -> str:
    """``Wood and Crystal``, ``Wood, ? and City``."""
    faces = [_face(d) for d in dice]
    return faces[0] if len(faces) == 1 else f"{', '.join(faces[:-1])} and {faces[-1]}"


def _wild(s: PandoriaSheets) -> str:
    """What a "?" may be chosen as (1. Roll 2 Resource Dice)."""
    known = sorted({d for d in s.dice if d >= 0})
    if -1 not in s.dice:
        return ""
    if not known:
        return ": each ? may be any Resource, the same one too"
    return f": the ? may be any Resource but {' or '.join(title(KINDS[k]) for k in known)}"


# -- 1. Roll 2 Resource Dice -------------------------------------------------------------------
def rolled(s: PandoriaSheets) -> Event:
    """1. Roll 2 Resource Dice: the roll a turn begins with (doubles: an Artifact goes between
    the two, but in the family version)."""
    text = f"Roll {_dice(s.dice)}"
    if s.dice[0] == s.dice[1] and s.dice[0] >= 0 and not s.family:
        text += ": doubles, so an Artifact goes between the two"
    return Event(s.turn, text + _wild(s))


def terrain_rolled(s: PandoriaSheets) -> Event:
    """Spell Index, Terrain: the 1 or 2 dice the Spell rolls."""
    dice = plural(len(s.dice), "die", "dice")
    return Event(s.turn, f"Roll {dice} for the Terrain Spell: {_dice(s.dice)}{_wild(s)}")


# -- 2. Draw 2 Resources and one Worker on the Map ---------------------------------------------
def forfeited(s: PandoriaSheets) -> Event:
    """2. Draw 2 Resources and one Worker: a symbol with no hex left for it is forfeited."""
    if s.item == 2:
        return Event(
            s.turn, "Forfeit the Worker: no empty hex is left next to the Resources just drawn"
        )
    return Event(
        s.turn,
        f"Forfeit the {DRAWING[s.item].replace('resource', 'Resource')}: no hex is left for it",
    )


def nothing_to_draw(s: PandoriaSheets, ended: bool) -> Event:
    """2.1. Resources: no empty hex is left where a Resource may be drawn (``ended``: the end
    of the game was set off before)."""
    text = "Draw nothing this turn: no empty hex is left where a Resource may go"
    if not ended and not s.solo:
        text += f"; the game ends with this round, after {seat(s.num_players - 1)}'s turn"
    return Event(s.turn, text)


# -- 4. Score any Enclosed Areas ---------------------------------------------------------------
def _hex_list(s: PandoriaSheets, area: int) -> str:
    names = [s.board.names[h] for h in hexes(area)]
    if len(names) <= NAMED_HEXES:
        return ", ".join(names)
    shown = NAMED_HEXES - 1
    return f"{', '.join(names[:shown])} and {len(names) - shown} more"


def _workers(s: PandoriaSheets, p: int, border: int, lakes: int, count: int, size: int) -> str:
    """The Workers of ``p`` that count for the area times its hexes (``count`` Workers in
    all): ``2 Workers × 3 hexes``; ``3 Workers, 1 of them on a Ship: 3 × 2 hexes``; ``1
    Worker, the one on C4 counting 3 by Rage: 3 × 2 hexes``."""
    b = s.board
    ships = sum(1 for ship, q in s.ships.items() if q == p and lakes & b.lake_of[ship])
    raged = p == s.turn and s.rage_hex >= 0 and border >> s.rage_hex & 1 and s.rage_extra
    hexes = plural(size, "hex", "hexes")
    if not ships and not raged:
        return f"{plural(count, 'Worker')} × {hexes}"
    workers = count - s.rage_extra if raged else count
    extras = []
    if ships:
        extras.append(f"{ships} of them on a Ship" if workers > 1 else "on a Ship")
    if raged:
        extras.append(f"the one on {b.names[s.rage_hex]} counting {s.rage_extra + 1} by Rage")
    sep = " " if workers == 1 and ships else ", "
    return f"{plural(workers, 'Worker')}{sep}{' and '.join(extras)}: {count} × {hexes}"


def _bonus_words(s: PandoriaSheets, p: int, kind: int, bonus: int) -> str:
    """`` + 4 for the Tower``: the Building Index's bonus of an area (none: "")."""
    if not bonus:
        return ""
    building = "statue" if kind == CITY else BONUS_BUILDING[kind]
    built = s.built(p, building)
    name = title(building)
    return f" + {bonus} for the {name}" if built == 1 else f" + {bonus} for {built} {name}s"


def _share(
    s: PandoriaSheets,
    p: int,
    you: bool,
    kind: int,
    size: int,
    count: int,
    times: str,
    before: tuple[Row, Row],
) -> str:
    """What ``p`` got for an area (told to ``p`` itself when ``you``): its ``count`` Workers
    times the hexes (``times``, in words: :func:`_workers`), and the Buildings' or the Guild's
    bonus; the Resources beyond a full track turned into VP. ``before``: ``p``'s track and VP
    before."""
    track, vp = before
    who = "you" if you else seat(p)
    gains, scores = (f"{who} gain", f"{who} score") if you else (f"{who} gains", f"{who} scores")
    if s.family:
        areas = s.vp[p][AREAS] - vp[AREAS]
        guild = s.vp[p][GUILD] - vp[GUILD]
        extra = f" + {guild} for the {_guild(s, p)} Guild" if guild else ""
        return f"{scores} {areas + guild} VP ({times}{extra})"
    bonus = scoring.building_bonus(s, p, kind, size)
    extra = _bonus_words(s, p, kind, bonus)
    got = size * count + bonus
    if kind == CITY:
        return f"{scores} {got} VP ({times}{extra})"
    said = f"{gains} {amount(got, RESOURCES[kind])} ({times}{extra})"
    t = s.c.tracks
    over = track[kind] + got - t.maximum
    if over <= 0:
        return said
    turned = s.vp[p][OVERFLOW] - vp[OVERFLOW]
    lost = over - turned * t.overflow_per_vp
    if not turned:
        said += f", {over} beyond a full track, lost"
    else:
        said += f", {over} beyond a full track: {turned} VP" + (f" ({lost} lost)" if lost else "")
    store = s.vp[p][STORE] - vp[STORE]
    if store:
        said += f", + {store} VP for the Store"
    return said


def _guild(s: PandoriaSheets, p: int) -> str:
    """The family version's Guild of ``p`` (the one of its Resource)."""
    return next(name for name, kind in s.c.guilds if kind == s.guild[p])


def area_scored(
    s: PandoriaSheets,
    kind: int,
    area: int,
    border: int,
    tracks: tuple[Row, ...],
    vp: tuple[Row, ...],
    artifacts: Mapping[int, int],
) -> Event:
    """4. Score any Enclosed Areas: the area of ``kind`` (its hexes ``area``, its ``border``)
    just scored, told by the seat that enclosed it; ``tracks``, ``vp`` and ``artifacts``: as
    they were before. One line: every seat's share (their Workers times the hexes, the
    Buildings' or the Guild's bonus, what went beyond a full track), the Artifacts the
    encloser collects, the pre-printed spaces among its hexes."""
    b = s.board
    size = area.bit_count()
    mover = s.turn
    head = f"the {title(KINDS[kind])} area of {plural(size, 'hex', 'hexes')} ({_hex_list(s, area)})"
    lakes = b.geo_border(area) if s.ships else 0
    own_parts, parts = [], []
    for p in range(s.num_players):
        count = scoring.workers_next_to(s, p, border, lakes)
        if not count:
            continue
        times = _workers(s, p, border, lakes, count, size)
        before = (tracks[p], vp[p])
        parts.append(_share(s, p, False, kind, size, count, times, before))
        own_parts.append(_share(s, p, p == mover, kind, size, count, times, before))
    if not parts:
        parts.append("no Worker is next to it, so nobody scores")
        own_parts.append(parts[0])
    collected = sum(n for h, n in artifacts.items() if area >> h & 1)
    if collected:
        things = plural(collected, "Artifact")
        parts.append(f"{seat(mover)} collects {things}")
        own_parts.append(f"you collect {things}")
    tail = ""
    if area & b.preprinted_mask and not s.solo:
        tail = f"; {_end_count(s)}"
    return Event(
        mover,
        f"Enclose {head}: {'; '.join(parts)}{tail}",
        own=f"Enclose {head}: {'; '.join(own_parts)}{tail}",
    )


# -- the Building Index ------------------------------------------------------------------------
def poorhouse(s: PandoriaSheets, p: int) -> Event:
    """Poorhouse: told before the tracks at 0 go up to 1."""
    empty = [amount(1, RESOURCES[r]) for r, level in enumerate(s.tracks[p]) if level == 0]
    things = empty[0] if len(empty) == 1 else f"{', '.join(empty[:-1])} and {empty[-1]}"
    return Event(p, f"Gain {things} from the Poorhouse (tracks at 0 go up to 1)")


# -- End of Game and Final Score ---------------------------------------------------------------
def _end_count(s: PandoriaSheets) -> str:
    """The pre-printed Resource spaces enclosed and scored: ``9 of the 12 pre-printed
    Resource spaces are enclosed (11 end the game)``."""
    total = s.board.preprinted_mask.bit_count()
    needed = s.c.end_needed[s.num_players]
    are = "is" if s.pre_enclosed == 1 else "are"
    return (
        f"{s.pre_enclosed} of the {total} pre-printed Resource spaces {are} enclosed "
        f"({needed} end the game)"
    )


def end_near(s: PandoriaSheets) -> Event:
    """End of Game and Final Score: the end is set off at the end of a turn (enough
    pre-printed Resource spaces enclosed; family: every level 3 Spell taken); the round is
    played to its conclusion."""
    needed = s.c.end_needed[s.num_players]
    if s.pre_enclosed >= needed:
        why = _end_count(s)
    else:
        why = "every level 3 Spell of the Archive is taken"
    last = s.num_players - 1
    if s.turn == last:
        return Event(None, f"The game ends: {why}, and the round is complete.")
    return Event(
        None, f"The end is near: {why}; the round is played to its end, {seat(last)}'s turn last."
    )


def _final(s: PandoriaSheets, p: int) -> Event:
    """End of Game and Final Score: ``p``'s points by category (those above 0), with what the
    Resources left were."""
    said = []
    for k, v in s.score_breakdown(p).items():
        if not v:
            continue
        words = f"{v} for {CATEGORY_WORDS[k]}"
        if k == "resources":
            left = zip(RESOURCES, s.tracks[p], strict=True)
            words += f" (1 VP for 2 of each: {', '.join(f'{title(r)} {n}' for r, n in left)})"
        said.append(words)
    total = f"End the game with {final_score.score(s, p)} VP"
    return Event(p, f"{total}: {', '.join(said)}" if said else total)


def game_over(s: PandoriaSheets) -> list[Event]:
    """End of Game and Final Score: each seat's points by category (standard and solo: with
    the conversions of what is left); solo: the Trolls' points."""
    said = [Event(None, "The game is over: the final score.")]
    said += [_final(s, p) for p in range(s.num_players)]
    if s.solo:
        parts = s.opponent_breakdown()
        said.append(
            Event(
                None,
                f"The Trolls end with {solo.trolls_total(s)} points: {parts['territories']} from "
                f"the Territories, {parts['cards']} for crossed-out cards, "
                f"{parts['relics_and_monuments']} for Relics and Monuments.",
            )
        )
    return said


# -- SOLO VERSION ------------------------------------------------------------------------------
def _territory(s: PandoriaSheets, k: int) -> str:
    """The ``k``-th Territory played (from 0): ``Territory 3 of 8 (the map's 5)``."""
    t = s.finished[k]
    total = s.c.solo.territories
    return f"Territory {k + 1} of {total}" + (f" (the map's {t})" if t != k + 1 else "")


def territory_finished(s: PandoriaSheets) -> Event:
    """Territory is finished: its points are written down (areas left open there are not
    scored) and the count starts again from 0."""
    k = len(s.finished) - 1
    points = s.my_territory[k]
    return Event(
        0,
        f"Finish {_territory(s, k)} with {plural(points, 'point')} there: 2 Resources and a "
        f"Worker no longer fit; its open areas are not scored",
    )


def trolls_take(s: PandoriaSheets, names: list[str]) -> Event:
    """Relics and Monuments for the Trolls: "After the 8th Territory, there are 3 elements"
    crossed out, told before they are (the best left of each kind named)."""
    taken = []
    for name in names:
        if name == "monument":
            taken.append(f"the Monument worth {buildings.monument_value(s)} VP")
        else:
            kind = next(i for i, (n, _) in enumerate(s.c.relics) if f"relic-{n}" == name)
            value = actions.relic_value(s, kind)
            taken.append(f"the Relic of {s.c.relics[kind][0]} Artifacts worth {value} VP")
    if not taken:
        return Event(None, "After the last Territory no Relic or Monument is left for the Trolls.")
    listed = taken[0] if len(taken) == 1 else f"{', '.join(taken[:-1])} and {taken[-1]}"
    return Event(None, f"After the last Territory the Trolls take the best left: {listed}.")


def trolls_scored(s: PandoriaSheets) -> Event:
    """Victory Points for the Trolls: "points shown for that Territory in the table minus your
    score for that Territory", + 1 per card crossed out there, + the Relics and Monuments
    they claimed there."""
    k = len(s.trolls) - 1
    table = solo.troll_table(s)[k]
    yours = s.my_territory[k]
    cards, elements = s.troll_parts[k]
    base = table - yours
    said = f"the table's {table} minus the {yours} scored there = {base}"
    if base < 0:
        said += f" (the table beaten by {-base})"
    if cards:
        said += f", + {cards} for crossed-out cards"
    if elements:
        said += f", + {elements} for Relics and Monuments"
    points = plural(s.trolls[k], "point")
    return Event(None, f"The Trolls score {points} for {_territory(s, k)}: {said}.")
