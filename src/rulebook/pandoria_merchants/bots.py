"""Pandoria Merchants bot knowledge: a hand-written evaluation of a seat's position.

Used by the game-agnostic greedy agent. VP count fully; Resources on the tracks, Buildings
and Artifacts by what they tend to bring; open areas next to the seat's Workers by their size,
weighted by how nearly they are enclosed.
"""

from __future__ import annotations

from typing import Final, cast

from rulebook.core import State
from rulebook.pandoria_merchants.board import CITY
from rulebook.pandoria_merchants.rules import PandoriaState
from rulebook.pandoria_merchants.scoring import areas_at
from rulebook.pandoria_merchants.terms import BUILT, OWNED, count_of, sum_of

#: weights of the evaluation (hand-tuned)
RESOURCE: Final = 0.45
BUILDING: Final = 3.0
CARD: Final = 1.5  # an unused card, on top of its 1 VP at the end: a Spell or Building to come
ARTIFACT: Final = 0.6
OPEN_AREA: Final = 0.35
RIVAL: Final = 0.5


#: an unscored area next to a Worker as the evaluation reads it: (kind, hexes, border, empty
#: hexes around)
OpenArea = tuple[int, int, int, int]


#: how many maps' open areas a game's states remember (:func:`open_areas`) before starting afresh
KNOWN_MAPS: Final = 4096

#: what the table of a map holds: its open areas, and the :func:`potential` of each seat with
#: each placing of the Workers (``(seat, *workers)``) asked for so far
Known = tuple[list[OpenArea], dict[tuple[int, ...], float]]


class Tables:
    """What the bots keep beside a game, shared by its clones (in the rules' ``memo.search``):
    the open areas of the maps seen (:func:`open_areas`) and, for greedy's lookahead, the areas
    next to Workers of the last map it valued moves on
    (:func:`rulebook.pandoria_merchants.lookahead.areas_next_to_workers`)."""

    def __init__(self) -> None:
        #: :data:`Known` by map, at most :data:`KNOWN_MAPS`
        self.open_areas: dict[tuple[int, ...], Known] = {}
        #: the last map's areas next to Workers, with the hexes next to Workers then
        self.last_areas: dict[tuple[int, ...], tuple[int, list[tuple[int, int, int]]]] = {}


def tables(s: PandoriaState) -> Tables:
    """The bots' tables of ``s``'s game, made when first asked for."""
    found = s.memo.search
    if found is None:
        found = s.memo.search = Tables()
    return cast(Tables, found)


def _known(s: PandoriaState) -> Known:
    """The table of ``s``'s map (:func:`open_areas`), worked out when first asked for."""
    key = (s.empty, s.scored, s.swamp, *s.kinds)
    known = tables(s).open_areas
    found = known.get(key)
    if found is None:
        workers = 0
        for w in s.workers:
            workers |= w
        areas = [
            (k, area.bit_count(), border, (border & s.empty).bit_count())
            for k, area, border in areas_at(s, s.board.around(workers), remember=True)
        ]
        if len(known) >= KNOWN_MAPS:
            known.clear()
        found = known[key] = (areas, {})
    return found


def open_areas(s: PandoriaState) -> list[OpenArea]:
    """The unscored areas next to any Worker, in
    :func:`~rulebook.pandoria_merchants.scoring.areas_at`'s order.

    The same for every seat, and for every position with the same map: worked out once per map
    and kept in a table that the game's clones share (search reaches the same map by many
    moves), keyed by the empty, scored and Swamp hexes and the Resources of each kind (the
    Workers are the hexes left).
    """
    return _known(s)[0]


#: what :func:`area_term` needs of the seat valued: its Workers, the other seats' Workers, its
#: Guild's kind (family; -1 otherwise) and the weight of a rival's Worker
Seat = tuple[int, int, int, float]


def seat_of(s: PandoriaState, player: int) -> Seat:
    """What :func:`area_term` reads of ``player`` in ``s``."""
    others = 0
    for p, w in enumerate(s.workers):
        if p != player:
            others |= w
    guild = s.guild[player] if s.family else -1
    return s.workers[player], others, guild, RIVAL / max(1, s.num_players - 1)


def area_term(family: bool, seat: Seat, kind: int, size: int, border: int, openings: int) -> float:
    """One open area's share of :func:`potential` (before the weight :data:`OPEN_AREA`): its
    size x the seat's Workers around it (family: plus the Guild bonus; standard: x 0.6 but for
    a City) less the rivals' share, over 1 + the empty hexes around it."""
    mine, others, guild, rival = seat
    if family:
        own = (border & mine).bit_count()
        worth = float(own) + (1.0 if own and kind == guild else 0.0)
        worth -= rival * (border & others).bit_count()
        return size * worth / (1 + openings)
    worth = (border & mine).bit_count() - rival * (border & others).bit_count()
    if kind != CITY:
        worth *= 0.6
    return size * worth / (1 + openings)


def potential(s: PandoriaState, player: int, areas: list[OpenArea]) -> float:
    """Open areas next to Workers (``areas``, as :func:`open_areas` gives them): size x own
    Workers (family: plus the Guild bonus), more the fewer empty hexes remain around them;
    rivals' shares count a little against (:func:`area_term` each, summed in order)."""
    seat = seat_of(s, player)
    family = s.family
    value = 0.0
    for k, size, border, openings in areas:
        value += area_term(family, seat, k, size, border, openings)
    return OPEN_AREA * value


def _trolls(s: PandoriaState) -> float:
    """Solo: the Trolls' points so far, their claims pending in this Territory and what the
    current Territory's table value would give them now (the player wins by beating them)."""
    total = float(s.trolls_total() + s.troll_gain)
    k = len(s.trolls)
    if k < s.c.solo.territories and not s.is_terminal():
        here = s.my_territory[k] if len(s.my_territory) > k else s.vp_total(0) - s.vp_start
        total += s.troll_values[k] - here
    return total


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``."""
    s = cast("PandoriaState", state)
    if s.is_terminal():
        return settled(s, player)
    areas, known = _known(s)
    seat = (player, *s.workers)
    value = known.get(seat)
    if value is None:  # the same map and Workers in many positions (moves that draw nothing)
        value = known[seat] = potential(s, player, areas)
    return settled(s, player) + value


def settled(s: PandoriaState, player: int) -> float:
    """:func:`evaluate` but the :func:`potential` of open areas (all of it once the game is
    over): VP, the Trolls' points in solo, and while the game runs, the seat's Resources,
    Buildings, unused cards and Artifacts (family: Spells held)."""
    value = float(s.score(player))
    if s.solo:
        value -= _trolls(s)
    if s.is_terminal():
        return value
    if not s.family:
        cards = s.cards[player]
        value += RESOURCE * float(sum_of(s.tracks[player]))
        value += BUILDING * float(count_of(cards, BUILT))
        value += CARD * float(count_of(cards, OWNED))
        value += ARTIFACT * float(s.held_artifacts[player])
    else:
        value += 0.8 * len(s.held[player])
    return value
