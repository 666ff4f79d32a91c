"""Greedy's one-step lookahead in Pandoria Merchants, without making the moves.

Most of greedy's choices are where to draw a Resource (2.1): every hex where the rest of the
turn still fits, times the dice's kinds; then where to place the Worker (2.2). Such a move
changes nothing that is scored (areas are scored only after the action, 4.), so
:func:`rulebook.pandoria_merchants.bots.evaluate` changes only through the open areas next to
Workers (:func:`~rulebook.pandoria_merchants.bots.potential`):

* a Resource joins the unscored areas of its kind around it into one, and is one empty hex less
  around the others;
* a Worker is one empty hex less around the areas it touches and one more Worker of the seat
  next to them, and brings the areas next to it among those next to Workers. It is valued so
  only when the action phase that follows has a choice whatever the map (a Building, a
  Monument, a Relic or a Spell whose target no Worker takes, that the seat can afford);
  otherwise the action phase may pass by itself and areas be scored at once.

:func:`lookahead` works out the open areas of the position once, each area's share of the
potential (:func:`~rulebook.pandoria_merchants.bots.area_term`, the evaluation's own), their
sum, and which of them each hex drawn touches; each move's value is that sum less the shares it
changes plus the new ones. The sum is taken in another order than the evaluation's, so values
agree with it within 1e-9 (a few units in the last place), not bit for bit.

Two kinds of moves are valued on the position itself, what they change made and then given
back (the seat's tracks, cards and VP, the blocked columns: :func:`_kept`, :func:`_give_back`):
casting a Spell whose Spell phase then has a move (:data:`TARGETS_KEPT_WHEN_CAST`), and a
purchase (or passing it) when the next turn then begins at once (:func:`next_turn_rolls`); the
rules' own ``actions.cast``, ``buying.buy`` and ``buildings.poorhouse`` make the change, so
these values are the evaluation's, bit for bit.

Every other move (Buildings, Monuments, Relics and passing the action, which score the areas
enclosed; Construct; the solo steps; Resources when the rest of the turn no longer fits anywhere,
since the next steps may then resolve by themselves) is made on a clone and evaluated, as the
generic :meth:`rulebook.core.State.lookahead` does. Such a clone is a :class:`Sketch`, a state made
only to be evaluated: a turn it ends leaves the next turn's dice unrolled (:data:`ROLL`), and the
action and buy phases it reaches are asked only whether there is a choice (what the evaluation reads
is the same; ``tests/test_speed.py`` checks it). ``tests/test_speed.py`` holds this to the generic
lookahead on many positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rulebook.core import Action
from rulebook.pandoria_merchants import bots, buildings, buying, drawing, family
from rulebook.pandoria_merchants.actions import action_options
from rulebook.pandoria_merchants.actions import cast as cast_spell
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.moves import Move
from rulebook.pandoria_merchants.rules import PandoriaState
from rulebook.pandoria_merchants.scoring import areas_at
from rulebook.pandoria_merchants.terms import ACTION, BUY, DRAW, Row

#: an open area next to a Worker as the lookahead keeps it: (kind, hexes, border, empty hexes
#: around, its share of the potential now)
Share = tuple[int, int, int, int, float]


def lookahead(s: PandoriaState, player: int, actions: Sequence[Action]) -> list[float]:
    """``bots.evaluate`` after each of ``actions`` (legal moves of ``player`` now)."""
    resources = _resources_that_fit(s, actions)
    if not resources and not _workers_before_a_choice(s, actions):
        if s.phase == ACTION and not s.family:
            return [_action(s, player, action) for action in actions]
        if s.phase == BUY and next_turn_rolls(s):
            return [_bought(s, player, action) for action in actions]
        return [_made(s, player, action) for action in actions]
    board = s.board
    index = board.index
    workers = 0
    for w in s.workers:
        workers |= w
    near = board.around(workers)  # areas_at's ``look``
    places = [index[_as_move(action).arg] for action in actions]
    drawn = 0
    for h in places:
        drawn |= 1 << h
    # the open areas now: each one's share of the potential as it is (summed once), and which
    # of them a Resource or Worker on each hex touches (one empty hex less around them)
    family = s.family
    seat = bots.seat_of(s, player)
    empty_now = s.empty
    total = 0.0
    touching: dict[int, list[Share]] = {}
    for kind, area, edge in areas_next_to_workers(s, near):
        size = area.bit_count()
        openings = (edge & empty_now).bit_count()
        share = bots.area_term(family, seat, kind, size, edge, openings)
        total += share
        hit = edge & drawn
        while hit:
            low = hit & -hit
            h = low.bit_length() - 1
            hit ^= low
            entry = (kind, size, edge, openings, share)
            found = touching.get(h)
            if found is None:
                touching[h] = [entry]
            else:
                found.append(entry)
    settled = bots.settled(s, player)
    values = []
    for action, h in zip(actions, places, strict=True):
        if resources:
            value = _resource(s, seat, near, total, touching.get(h, []), h, action)
        else:
            value = _worker(s, seat, near, total, touching.get(h, []), h)
        values.append(settled + bots.OPEN_AREA * value)
    return values


def areas_next_to_workers(s: PandoriaState, near: int) -> list[tuple[int, int, int]]:
    """The unscored areas with a hex in ``near`` (the hexes next to Workers): those of
    ``areas_at(s, near, remember=True)``, in another order. Worked out from those of the last
    map asked for (kept in a table clones share) when ``s``'s map is that one with one
    Resource or Worker more: greedy asks for each step of a turn's draw in turn."""
    key = (s.empty, s.scored, s.swamp, *s.kinds)
    last = bots.tables(s).last_areas
    found: list[tuple[int, int, int]] | None = None
    for before, (near_before, areas) in last.items():  # the last map only
        if before == key:
            return areas
        found = _one_more(s, before, near_before, areas, near)
    if found is None:
        found = areas_at(s, near, remember=True)
    last.clear()
    last[key] = (near, found)
    return found


def _one_more(
    s: PandoriaState,
    before: tuple[int, ...],
    near_before: int,
    areas: list[tuple[int, int, int]],
    near: int,
) -> list[tuple[int, int, int]] | None:
    """The areas next to Workers on ``s``'s map from ``areas``, those of the map ``before``
    (keyed as in :func:`areas_next_to_workers`), if ``s``'s map is that one with one hex
    drawn on more (None otherwise). A Resource joins the areas of its kind around it into
    one; a Worker brings the areas next to it."""
    empty, scored, swamp = before[0], before[1], before[2]
    taken = empty ^ s.empty
    if scored != s.scored or swamp != s.swamp or taken & s.empty or taken & (taken - 1):
        return None
    if not taken:
        return None
    h = taken.bit_length() - 1
    kinds = s.kinds
    grown = -1
    for k in range(len(kinds)):
        if before[3 + k] != kinds[k]:
            if grown >= 0 or kinds[k] != before[3 + k] | taken:
                return None
            grown = k
    if grown < 0:  # a Worker on h: the areas next to it join those next to Workers
        if near != near_before | s.board.nbr[h]:
            return None
        added = _areas_brought(s, near_before, h)
        return areas + added if added else areas
    if near != near_before:
        return None
    # a Resource on h: it joins the areas of its kind around it (those whose border holds h)
    merged, border = s.board.area_and_border(kinds[grown] & ~s.scored, h)
    out = [a for a in areas if a[0] != grown or not a[2] >> h & 1]
    if merged & near:
        out.append((grown, merged, border))
    return out


def _as_move(action: Action) -> Move:
    """``action``, a legal move of this game (typed as such)."""
    assert isinstance(action, Move)
    return action


def _resource(
    s: PandoriaState,
    seat: bots.Seat,
    near: int,
    total: float,
    touched: list[Share],
    h: int,
    action: Action,
) -> float:
    """The open areas' sum after a Resource of ``action``'s kind is drawn on ``h``."""
    board = s.board
    k = KINDS.index(_as_move(action).verb)
    hb = 1 << h
    # the new Resource's area: it and the unscored areas of its kind next to it
    same = s.kinds[k] & ~s.scored
    merged = hb
    border = board.nbr[h]
    rest = border & same
    while rest:
        part, around_part = board.area_and_border(same, (rest & -rest).bit_length() - 1)
        merged |= part
        border |= around_part
        rest &= ~part
    border &= ~merged
    family = s.family
    value = total
    if merged & near:  # an open area next to a Worker: it counts
        openings = (border & s.empty & ~hb).bit_count()
        value += bots.area_term(family, seat, k, merged.bit_count(), border, openings)
    # the areas it touches: those of its kind join its area (their share goes), the others have
    # one empty hex less around them
    for kind, size, edge, openings, share in touched:
        if kind != k:
            value += bots.area_term(family, seat, kind, size, edge, openings - 1)
        value -= share
    return value


def _worker(
    s: PandoriaState, seat: bots.Seat, near: int, total: float, touched: list[Share], h: int
) -> float:
    """The open areas' sum after the seat's Worker is placed on ``h``."""
    hb = 1 << h
    mine, others, guild, rival = seat
    with_it = (mine | hb, others, guild, rival)
    family = s.family
    value = total
    for kind, size, edge, openings, share in touched:
        value += bots.area_term(family, with_it, kind, size, edge, openings - 1) - share
    empty = s.empty & ~hb
    for kind, area, edge in _areas_brought(s, near, h):
        openings = (edge & empty).bit_count()
        value += bots.area_term(family, with_it, kind, area.bit_count(), edge, openings)
    return value


def _areas_brought(s: PandoriaState, near: int, h: int) -> list[tuple[int, int, int]]:
    """The unscored areas a Worker on ``h`` brings next to Workers: those next to it with no
    hex in ``near`` (the hexes next to the Workers without it)."""
    new = s.board.nbr[h] & ~near
    if not new:
        return []
    return [a for a in areas_at(s, new, remember=True) if not a[1] & near]


def _resources_that_fit(s: PandoriaState, actions: Sequence[Action]) -> bool:
    """Whether ``actions`` are Resources of a turn's draw (2.1) on hexes after which the rest of the
    turn fits: the first Resource where a whole turn fits, or the second where a Worker still fits
    next to the two (:func:`~rulebook.pandoria_merchants.drawing.draw_options` offers such hexes
    only, when there are any; then the draw goes on with a choice, and nothing is scored)."""
    if s.phase != DRAW or s.item > 1 or not actions:
        return False
    first = actions[0]
    if type(first) is not Move or first.verb not in KINDS:
        return False
    h = s.board.index[first.arg]
    if s.item == 0:
        return drawing.pair_ok(s, h, drawing.free_hexes(s), drawing.anchor_hexes(s))
    nbr = s.board.nbr
    base = nbr[s.r1] if s.r1 >= 0 else 0
    return bool((base | nbr[h]) & drawing.free_hexes(s) & ~(1 << h))


#: Spells that keep a target once they have one whatever Worker is placed: they look at cards,
#: Ships, or (Rage) whether the seat has a Worker at all; the others look at empty hexes next
#: to Workers or drawn Resources, which a Worker may take
KEPT_TARGETS = frozenset({"acquire", "conjure", "construct", "ship", "rage"})


def _workers_before_a_choice(s: PandoriaState, actions: Sequence[Action]) -> bool:
    """Whether ``actions`` are Workers to place (2.2) and the action phase after any of them
    has a choice whatever the map: a Building, Monument, Relic or Spell with a kept target
    (:data:`KEPT_TARGETS`) ``s``'s seat can afford now (a Worker changes no track or card)."""
    if s.phase != DRAW or s.item != 2 or not actions:
        return False
    for action in actions:
        if type(action) is not Move or action.verb != "worker":
            return False
    for option in action_options(s, s.turn):
        if option.verb == "cast":
            if s.family:
                spell = family.family_spell(s, option.arg).spell
            else:
                spell = s.c.card_by_id[option.arg].spell
            if spell in KEPT_TARGETS:
                return True
        elif option.verb != "pass":
            return True
    return False


#: Spells whose Spell phase has a move whenever the Spell may be cast :
#: (:func:`~rulebook.pandoria_merchants.spells.has_target`): their targets do not depend on what
#: casting pays (Construct's Monuments do)
TARGETS_KEPT_WHEN_CAST = frozenset(
    {"acquire", "clone", "conjure", "muster", "rage", "ship", "swamp", "terrain"}
)


def _action(s: PandoriaState, player: int, action: Action) -> float:
    """An action move's value: a Spell cast (3.1) is valued on ``s`` itself, its cost paid and
    then given back (``actions.cast`` changes the seat's tracks, cards and VP only;
    the Spell phase that follows has a move, so nothing else happens before the evaluation,
    whose open areas do not change); any other move is made on a clone."""
    assert isinstance(action, Move)
    if action.verb != "cast":
        return _made(s, player, action)
    card = s.c.card_by_id[action.arg]
    if card.spell not in TARGETS_KEPT_WHEN_CAST:
        return _made(s, player, action)
    kept = _kept(s, player)
    cast_spell(s, player, card)
    value = bots.evaluate(s, player)
    _give_back(s, player, kept)
    return value


def _bought(s: PandoriaState, player: int, action: Action) -> float:
    """A purchase's value (5.), or passing it, when the next turn then begins at once
    (:func:`next_turn_rolls`): valued on ``s`` itself, the card bought (``buying.buy``) and
    the Poorhouse applied, then given back (nothing else the
    evaluation reads changes before the next turn's roll)."""
    assert isinstance(action, Move)
    kept = _kept(s, player)
    if action.verb == "buy":
        buying.buy(s, player, s.c.card_by_id[action.arg])
    buildings.poorhouse(s, player)
    value = bots.evaluate(s, player)
    _give_back(s, player, kept)
    return value


#: what a move valued in place may change: the tracks, cards and VP (immutable: a move replaces
#: them), the blocked columns
Kept = tuple[tuple[Row, ...], tuple[Row, ...], tuple[Row, ...], int]


def _kept(s: PandoriaState, player: int) -> Kept:
    return (s.tracks, s.cards, s.vp, s.blocked)


def _give_back(s: PandoriaState, player: int, kept: Kept) -> None:
    s.tracks, s.cards, s.vp, s.blocked = kept


def _made(s: PandoriaState, player: int, action: Action) -> float:
    """The evaluation after ``action`` made on a clone (the generic lookahead's way)."""
    after = Sketch(s.game, s.setup, blank=True)
    s.copy_into(after)  # the next turn's dice, if it begins, are left unrolled
    after.apply_legal(player, action)
    return bots.evaluate(after, player)


def next_turn_rolls(s: PandoriaState) -> bool:
    """Whether the turn's end now goes on to the next turn's roll after the Poorhouse, nothing
    else happening (:func:`_bought` values purchases so): solo, while a whole turn fits (else
    the Territory is finished); otherwise when the game does not end with this seat and a
    Resource can be drawn (else the next seat goes to its action at once)."""
    if s.family:
        return False
    if s.solo:
        return drawing.full_turn_fits(s)
    ending = s.end_triggered or s.pre_enclosed >= s.c.end_needed[s.num_players]
    return not (ending and s.turn == s.num_players - 1) and bool(drawing.anchor_hexes(s))


#: the phase of a :class:`Sketch` whose turn has ended: the next turn's dice are not rolled
ROLL: Final = "roll"


class Sketch(PandoriaState):
    """A state made only to be evaluated (:func:`_made`), never played on: a turn it ends
    stops before the next turn's roll (:data:`ROLL`), and a step it enters is asked only
    whether it has a choice (its moves are listed afresh if asked for). The roll and the next
    seat's first step (a choice, always: there is a hex to draw on) change nothing the
    evaluation reads; ``tests/test_speed.py`` holds sketched values to played ones. Its clones
    are ordinary states."""

    def _choices(self) -> list[Move]:
        return self._options(True)

    def _offer(self, options: list[Move]) -> None:
        self._legal = None  # perhaps a part of them (``_options(True)``)

    def _roll(self) -> None:
        self.phase = ROLL
        self._legal = []
