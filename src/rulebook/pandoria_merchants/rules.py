"""Pandoria Merchants: every rule of the rulebook (``003_85552cb3b950eabe.txt``).

A turn (Player turn 1-5) is a chain of small moves, so each step's list stays short:
``choose KIND`` for a "?" die, ``KIND HEX`` for each Resource, ``worker HEX``, then one of
``cast``/``build``/``relic``/``monument`` or ``pass`` (3.), Spell targets, automatic scoring
of every enclosed area (4.) and ``buy CARD`` or ``pass`` (5.). The family version claims a
Spell from the Archive instead of buying (``claim ROOM``); the solo version adds the Trolls'
claims and the Bridges between Territories.

Rules decisions where the text is silent are marked ``Decision:`` and listed in
docs/pandoria-merchants.md.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar, cast

from rulebook.core import Action, Chance, Game, IllegalAction, Setup, State
from rulebook.core.action import Interned, KeyedAction
from rulebook.pandoria_merchants.board import CITY, KINDS, Board, around, bits, hexes
from rulebook.pandoria_merchants.cards import amount, card_title, index, spell_title, title
from rulebook.pandoria_merchants.content import Card, Content, FamilySpell, content

# tracks (Realm sheet): indices into KINDS
WOOD: Final = 0
CRYSTAL: Final = 1
CRAFT: Final = 2
GOLD: Final = 3
RESOURCES: Final = KINDS[:4]
BONUS_BUILDING: Final = ("saw-mill", "tower", "workshop", "treasury")

# card states on a Realm sheet
NONE: Final = 0
OWNED: Final = 1
CAST: Final = 2
BUILT: Final = 3
MONUMENT: Final = 4
CROSSED: Final = 5

CARD_STATES = ("none", "owned", "cast", "built", "monument", "crossed")

#: the symbol 2.1-2.2 draws next, by ``PandoriaState.item``
DRAWING = ("first resource", "second resource", "worker")

# phases
SETUP: Final = "setup"  # choose the starting card
WILD: Final = "wild"  # choose what a "?" die shows
DRAW: Final = "draw"  # 2.1 Resources, 2.2 Worker
ACTION: Final = "action"  # 3. Spell, Building, Relic or Monument
SPELL: Final = "spell"  # the targets of the Spell being cast
BUY: Final = "buy"  # 5. Buy a Card
CLAIM: Final = "claim"  # family 5. Spell Archive
TROLL_COLUMN: Final = "trolls-column"
TROLL_ELEMENT: Final = "trolls-element"
BRIDGE: Final = "bridge"
OVER: Final = "over"
ROLL: Final = "roll"  # a lookahead's clone at the next turn's roll, left unrolled (only evaluated)

STANDARD_VP = ("cities", "overflow", "store", "shrine", "academy", "relics", "monuments")
CITIES: Final = 0
OVERFLOW: Final = 1
STORE: Final = 2
SHRINE: Final = 3
ACADEMY: Final = 4
RELICS: Final = 5
MONUMENTS: Final = 6
FAMILY_VP = ("areas", "guild")
AREAS: Final = 0
GUILD: Final = 1

#: the lab's counters of a seat (:mod:`rulebook.pandoria_merchants.stats`), in their order in
#: :attr:`PandoriaState.tally`: Resources drawn per kind, areas enclosed and scored, Artifacts
#: collected
TALLY: Final = (
    *[f"drawn_{k}" for k in KINDS],
    "areas_enclosed",
    "areas_scored",
    "artifacts_collected",
)
DRAWN: Final = 0  # + the kind
AREAS_ENCLOSED: Final = len(KINDS)
AREAS_SCORED: Final = len(KINDS) + 1
ARTIFACTS_COLLECTED: Final = len(KINDS) + 2

T = TypeVar("T")

#: what :attr:`PandoriaState.res` holds for a hex with a Resource of each kind
KIND_BYTES: Final = tuple(bytes((k + 1,)) for k in range(len(KINDS)))

#: a seat's row of numbers (a track per Resource, VP per source, a state per card...)
Row = tuple[int, ...]


def replaced(row: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``row`` with item ``i`` set to ``value``: a new tuple (the fields that change rarely are
    tuples that clones share, replaced on change)."""
    changed = list(row)
    changed[i] = value
    return tuple(changed)


def without(row: tuple[T, ...], value: T) -> tuple[T, ...]:
    """``row`` without the first item equal to ``value`` (which it holds)."""
    i = row.index(value)
    return (*row[:i], *row[i + 1 :])


#: a move told to its mover, told of them: ``your`` -> ``their``, ``you`` -> ``they``
_SECOND_PERSON: Final = re.compile(r"\b([Yy])ou(r|rs)?\b")
_THIRD_PERSON: Final = {"": "hey", "r": "heir", "rs": "heirs"}


def _them(found: re.Match[str]) -> str:
    return ("T" if found[1] == "Y" else "t") + _THIRD_PERSON[found[2] or ""]


def _told_of_them(text: str) -> str:
    """A phrase in the second person told of the seat that moves: ``your Worker`` becomes
    ``their Worker``, ``you lack`` becomes ``they lack``."""
    return _SECOND_PERSON.sub(_them, text)


HEX_TEXT = re.compile(r"^[A-Z]\d{1,2}$")
HEX_VERBS = frozenset((*KINDS, "worker", "ship", "swamp", "rage", "bridge"))
VERBS = frozenset(
    (
        *HEX_VERBS,
        "start",
        "choose",
        "skip",
        "cast",
        "build",
        "relic",
        "monument",
        "pass",
        "conjure",
        "take",
        "buy",
        "claim",
        "trolls",
    )
)


@dataclass(frozen=True, slots=True, eq=False)
class Move(KeyedAction):
    """Every move of the game: a verb and at most one argument (a hex, a card, a kind...).

    Texts: ``wood C7``, ``worker D7``, ``choose gold``, ``cast rage/tower``, ``buy ship/statue``,
    ``relic 2``, ``monument bank/...``, ``claim 1a``, ``trolls column-3``, ``bridge E2``,
    ``skip``, ``pass``.
    """

    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else str(self.verb)


PASS: Final = Move("pass")
SKIP: Final = Move("skip")

#: every move listed so far, by verb and argument (:func:`move`)
MOVES: Final = Interned(Move, PASS, SKIP)


def move(verb: str, arg: str = "") -> Move:
    """The move ``verb arg``, made once: listing moves then makes none (search lists them
    position after position, and finds the very same move in its tree at once)."""
    return MOVES.get(verb, arg)


def _pop(mask: int) -> int:
    return mask.bit_count()


def sum_of(values: tuple[int, ...]) -> int:
    """``sum(values)`` as a loop (compiled, it runs natively; the builtin is a Python call)."""
    out = 0
    for v in values:
        out += v
    return out


def count_of(values: tuple[int, ...], wanted: int) -> int:
    """``values.count(wanted)`` as a loop (compiled: no comparison through Python objects)."""
    out = 0
    for v in values:
        if v == wanted:
            out += 1
    return out


#: how many positions' first Resource hexes a game's states remember (``first_hexes``)
KNOWN_TURNS: Final = 4096

#: per map (by ``id``, with the map kept beside): per verb naming a hex, its move on every hex
_HEX_MOVES: Final[dict[int, tuple[Board, dict[str, tuple[Move, ...]]]]] = {}


def hex_moves(board: Board) -> dict[str, tuple[Move, ...]]:
    """Every move naming a hex of ``board`` (``wood C7``, ``worker D7``...), made once per map:
    ``hex_moves(board)[verb][hex]``; listing moves then makes none."""
    found = _HEX_MOVES.get(id(board))
    if found is None or found[0] is not board:
        table = {verb: tuple(Move(verb, name) for name in board.names) for verb in HEX_VERBS}
        found = _HEX_MOVES[id(board)] = (board, table)
    return found[1]


class PandoriaState(State):
    """A game of Pandoria Merchants: standard (2-4), family (2-4) or solo (1, vs the Trolls)."""

    c: Content
    board: Board
    _legal: list[Move] | None
    # the base class's fields, declared here too: compiled, the class then keeps them in its own
    # slots rather than in a dict per state (a clone made and dropped no longer makes one)
    game: Game
    setup: Setup
    chance: Chance
    history: list[tuple[int, Action]]
    determinized: bool

    # -- setup (Preparation) -------------------------------------------------------------------
    def __init__(
        self, game: Game, setup: Setup, board: Board | None = None, blank: bool = False
    ) -> None:
        """A new game set up; ``blank``: nothing set (for :meth:`clone`: compiled, the class
        runs ``__init__`` in ``__new__``)."""
        if blank:
            return
        super().__init__(game, setup)
        c = self.c = content()
        n = setup.players
        self.mode = setup.variant
        self.solo = self.mode == "solo"
        self.family = self.mode == "family"
        self.level = setup.options.get("level", "")
        #: solo: the Trolls' table with the level's values for the last 2 Territories
        self.troll_values = (*c.solo.table, *c.solo.last[self.level or "beginner"])
        #: read by every cost (the content's, kept at hand)
        self.building_cards = c.building_cards
        self.craft_rate = c.tracks.craft_rate
        self.market_rate = c.tracks.market_rate
        self.board = board if board is not None else c.boards[0 if self.solo else n]
        b = self.board
        #: the Resources on the map: the hexes of each kind, and per hex its kind + 1 (0: none;
        #: what :meth:`kind_at` reads), replaced when a Resource is drawn (clones share it)
        self.kinds = [0] * len(KINDS)
        res = bytearray(b.width * b.height)
        for h, k in (*b.preprinted.items(), *b.starts.items()):
            res[h] = k + 1
            self.kinds[k] |= 1 << h
        self.res = bytes(res)
        self.empty = b.land & ~b.preprinted_mask & ~b.starts_mask
        self.swamp = 0
        # The fields below that change only now and then (a Worker drawn, a Ship, an Artifact,
        # a card bought, cast or built, a Relic or Monument, a Territory) are immutable values
        # (tuples, a read-only mapping) replaced when they change: a clone shares them.
        self.workers: Row = (0,) * n
        #: Ships on lakes: their seat by lake hex (in the order they were cast)
        self.ships: Mapping[int, int] = {}
        self.scored = 0
        self.near = 0  # hexes adjacent to a drawn Resource or Worker
        self.anchor_extra = b.border(b.starts_mask)  # adjacent to a Starting space
        self.zone = b.land
        #: Artifacts on the map: how many by hex (in the order they were drawn)
        self.artifacts: Mapping[int, int] = {}
        self.pre_enclosed = 0
        t = c.tracks
        #: per seat: the Realm tracks, the VP by source, each card's state
        self.tracks: tuple[Row, ...] = ((t.start,) * 4,) * n
        self.vp: tuple[Row, ...] = (
            (0,) * (len(FAMILY_VP) if self.family else len(STANDARD_VP)),
        ) * n
        self.cards: tuple[Row, ...] = ((NONE,) * len(c.cards),) * n
        self.held_artifacts: Row = (0,) * n
        counted = max(n, 2)  # solo: "Set up as in the 2-player game"
        self.relic_left: tuple[tuple[bool, ...], ...] = tuple(
            tuple(mp <= counted for _, mp in row) for _, row in c.relics
        )
        self.monument_left: tuple[bool, ...] = tuple(mp <= counted for _, mp in c.monuments)
        self.relics_won: tuple[Row, ...] = ((),) * n
        self.monuments_won: tuple[Row, ...] = ((),) * n
        self.blocked = 0  # columns with an X at the bottom
        # family version
        self.guild: Row = tuple(c.guilds[p][1] for p in range(n)) if self.family else ()
        self.rooms: Row = (
            tuple(r.index for r in c.rooms if r.min_players <= n) if self.family else ()
        )
        self.taken: Row = (0,) * len(c.rooms)
        self.open_room = -1  # the Archive room being filled (family)
        self.held: tuple[tuple[str, ...], ...] = ((),) * n
        self.used_spells: Row = (0,) * n
        #: what the balance lab counts (:mod:`rulebook.pandoria_merchants.stats`), seat after
        #: seat, :data:`TALLY` for each (:meth:`counts` names them)
        self.tally = [0] * (len(TALLY) * n)
        # solo version
        self.territory = c.first_territory if self.solo else 0
        if self.solo:
            self.zone = b.territories[self.territory]
        self.finished: Row = ()
        self.my_territory: Row = ()
        self.trolls: Row = ()
        self.troll_columns: Row = ()
        self.troll_claims: tuple[str, ...] = ()
        self.vp_start = 0
        self.troll_gain = 0
        #: the Trolls' points from crossed-out cards and from claimed Relics and Monuments
        self.troll_cards = 0
        self.troll_elements = 0
        #: per finished Territory: the Trolls' VP from crossed-out cards and from the Relics
        #: and Monuments they took there (what their points are made of, for the views)
        self.troll_parts: tuple[Row, ...] = ()
        # turn
        self.turn = 0
        self.round = 1
        self.phase = SETUP
        self.dice: Row = (-1, -1)
        self.both_wild = False
        self.item = 0
        self.r1 = self.r2 = -1
        self.r1_anchored = False
        self.touched = 0
        self.spell = ""
        self.power = 0
        self.spell_left = 0
        self.spell_hex = -1
        self.free_wood = False
        self.rage_hex = -1
        self.rage_extra = 0
        #: the last Rage cast, for the views: (seat, hex, what the Worker counted as, 0 on the
        #: turn it was cast, 1 on the next); () when none is to be shown
        self.raged: Row = ()
        self.enclosed_now = 0
        self.end_triggered = False
        self._legal = None
        #: a clone made only to be evaluated (greedy's lookahead): the next turn's dice are not
        #: rolled (:meth:`_begin_turn`); never set on a state that is played on
        self.only_evaluated = False
        #: the bots' open areas by map (:func:`rulebook.pandoria_merchants.bots.open_areas`),
        #: shared by clones
        #: :meth:`_first_hexes` by free hexes and anchor, shared by clones
        self.first_hexes: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        #: :meth:`_enclosed` of the last position asked for, shared by clones
        self.last_enclosed: dict[tuple[int, ...], list[tuple[int, int, int]]] = {}
        #: greedy's lookahead: the areas next to Workers of the last map it valued moves on
        #: (:func:`rulebook.pandoria_merchants.lookahead.areas_next_to_workers`), shared by
        #: clones
        self.last_areas: dict[tuple[int, ...], tuple[int, list[tuple[int, int, int]]]] = {}
        self.bot_areas: dict[
            tuple[int, ...],
            tuple[list[tuple[int, int, int, int]], dict[tuple[int, ...], float]],
        ] = {}
        #: the action log as text (what ``snapshot`` shows), as far as it was needed (shared by
        #: clones: never changed)
        self._texts: tuple[tuple[int, str], ...] = ()
        if self.family:
            self._begin_turn()
        else:
            self._enter(SETUP)

    # -- helpers -----------------------------------------------------------------------------
    def hex_name(self, h: int) -> str:
        return self.board.names[h]

    def kind_at(self, h: int) -> int:
        """The kind of Resource on hex ``h`` (an index into ``KINDS``), -1 if none."""
        return self.res[h] - 1

    def set_track(self, p: int, resource: int, level: int) -> None:
        """Write ``level`` on ``p``'s track of ``resource``."""
        self.tracks = replaced(self.tracks, p, replaced(self.tracks[p], resource, level))

    def add_vp(self, p: int, source: int, amount: int) -> None:
        """``amount`` VP more for ``p`` from ``source`` (an index into ``vp[p]``)."""
        if amount:
            row = self.vp[p]
            self.vp = replaced(self.vp, p, replaced(row, source, row[source] + amount))

    def mark(self, p: int, card: int, state: int) -> None:
        """Mark card ``card`` (its index) on ``p``'s Realm sheet as ``state`` (owned...)."""
        self.cards = replaced(self.cards, p, replaced(self.cards[p], card, state))

    def built(self, p: int, building: str) -> int:
        """How many built (circled, not recycled) Buildings of that name ``p`` has."""
        cards = self.cards[p]
        count = 0
        for i in self.building_cards[building]:
            if cards[i] == BUILT:
                count += 1
        return count

    def _anchor(self) -> int:
        """Where a Resource may be drawn to meet 2.1's requirement (with the zone's free hexes)."""
        return (self.near | self.anchor_extra) & self.empty & self.zone

    def _free(self) -> int:
        return self.empty & self.zone

    def _pair_ok(self, h: int, free: int, anchor: int) -> bool:
        """Whether a Resource on ``h`` can be followed by a second one and a Worker (2.1, 2.2)."""
        nbr = self.board.nbr
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

    def _first_candidates(self) -> int:
        """The hexes a first Resource may be drawn to by the rules alone (2.1: next to what is
        drawn, or next to such a hex for the second to be), a whole turn after it or not."""
        anchor = self._anchor()
        return (anchor | self.board.around(anchor)) & self._free()

    def _first_hexes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Hexes for the first Resource: those with a complete turn after them, and those
        that meet the rules only for what can still be drawn (when 2 + 1 no longer fit).
        Remembered by the free hexes and the anchor in a table clones share (search lists
        the same turns position after position)."""
        free = self._free()
        anchor = self._anchor()
        known = self.first_hexes
        key = (free, anchor)
        found = known.get(key)
        if found is None:
            every = hexes(self._first_candidates())
            full = tuple([h for h in every if self._pair_ok(h, free, anchor)])
            if len(known) >= KNOWN_TURNS:
                known.clear()
            found = known[key] = (full, tuple(every))
        return found

    def full_turn_fits(self) -> bool:
        """Whether 2 Resources + 1 Worker can still be drawn (solo: the Territory goes on):
        whether :meth:`_first_hexes` finds a hex with a complete turn after it (through its
        table: the next turn's first Resource, and a lookahead's siblings, ask the same)."""
        return bool(self._first_hexes()[0])

    def _need(self, p: int, need: list[int]) -> int | None:
        """Crafts this cost takes from ``p``, substituting for shortfalls (5., Market), or None
        if ``p`` cannot pay it."""
        t = self.tracks[p]
        rate = self.market_rate if self.built(p, "market") else self.craft_rate
        crafts = need[CRAFT]
        for r in (WOOD, CRYSTAL, GOLD):
            short = need[r] - t[r]
            if short > 0:
                crafts += short * rate
        return crafts if crafts <= t[CRAFT] else None

    def _pay(self, p: int, need: list[int]) -> None:
        crafts = self._need(p, need)
        assert crafts is not None
        t = list(self.tracks[p])
        for r in (WOOD, CRYSTAL, GOLD):
            t[r] -= min(need[r], t[r])
        t[CRAFT] -= crafts
        self.tracks = replaced(self.tracks, p, tuple(t))

    @staticmethod
    def _cost(resource: int, amount: int) -> list[int]:
        need = [0, 0, 0, 0]
        need[resource] = amount
        return need

    def spell_cost(self, p: int, card: Card) -> int:
        """Wizardry: 1 Crystal less (but always 1)."""
        return max(1, card.crystals - self.built(p, "wizardry"))

    def build_cost(self, p: int, card: Card) -> int:
        """Carpenter: 1 Wood less (but always 1)."""
        return max(1, card.wood - self.built(p, "carpenter"))

    def monument_cost(self, p: int, card: Card) -> list[int]:
        """1 Craft + 5 Wood minus the recycled Building's Wood (min 1); Carpenter 1 less.

        Decision: a Carpenter being recycled no longer lowers the cost.
        """
        t = self.c.tracks
        carpenters = self.built(p, "carpenter") - (card.building == "carpenter")
        wood = 0 if self.free_wood else max(1, t.monument_wood - card.wood - carpenters)
        return [wood, 0, t.monument_craft, 0]

    def gold_cost(self, p: int, card: Card) -> int:
        """Bank: 1 Gold less (but always at least 1)."""
        return max(1, card.gold - self.built(p, "bank"))

    def _buyable(self, card: Card) -> bool:
        return not self.blocked >> card.column & 1

    def _relic_value(self, kind: int) -> int | None:
        for value_left, (value, _) in zip(
            self.relic_left[kind], self.c.relics[kind][1], strict=True
        ):
            if value_left:
                return value
        return None

    def _monument_value(self) -> int | None:
        for left, (value, _) in zip(self.monument_left, self.c.monuments, strict=True):
            if left:
                return value
        return None

    def vp_total(self, p: int) -> int:
        return sum_of(self.vp[p])

    # -- turn flow ---------------------------------------------------------------------------
    def _enter(self, phase: str) -> None:
        """Go to ``phase``; steps with nothing to choose resolve by themselves."""
        while True:
            self.phase = phase
            self._legal = None
            if phase == DRAW and self.item == 0 and self._first_candidates():
                return  # there are first Resources to draw: listed when asked for
            # a lookahead's clone (only evaluated) only needs to know whether there is a choice
            options = self._options(self.only_evaluated)
            if phase == ACTION and options == [PASS]:
                self._after_action()
                return
            if phase == BUY and options == [PASS]:
                self._end_turn()
                return
            if options:
                # a clone only evaluated may hold a part of them: listed afresh if asked for
                self._legal = None if self.only_evaluated else options
                return
            if phase == DRAW:
                self.item += 1
                if self.item > 2:
                    self._finish_draw()
                    return
                continue
            if phase == SPELL:
                self._after_action()
                return
            if phase in (CLAIM, BUY):
                self._end_turn()
                return
            if phase == TROLL_COLUMN:
                phase = TROLL_ELEMENT
                continue
            if phase == TROLL_ELEMENT:
                self._close_territory()
                return
            if phase == BRIDGE:
                self._game_over()
                return
            raise AssertionError(f"no move in phase {phase}")  # pragma: no cover

    def _begin_turn(self) -> None:
        """1. Roll 2 Resource Dice (after checking that anything can be drawn at all).

        Decision: when no Resource can be drawn anywhere any more, the end of the game is
        triggered as by the threshold (the round is finished), so every game ends.
        """
        self.touched = 0
        self.enclosed_now = 0
        self.r1 = self.r2 = -1
        self.r1_anchored = False
        self.item = 0
        self.rage_hex = -1
        self.rage_extra = 0
        self.spell = ""
        self.free_wood = False
        self.dice = (-1, -1)
        if not self._anchor():
            self.end_triggered = True
            self._enter(ACTION)
            return
        if self.only_evaluated:
            # a lookahead's clone: the roll and the next seat's first step (a choice, always:
            # the anchor is free) change nothing the evaluation reads; left undone
            self.phase = ROLL
            self._legal = []
            return
        faces = self.c.faces
        rolled = self.chance.roll((len(faces), len(faces)))
        self.dice = (faces[rolled[0] - 1], faces[rolled[1] - 1])
        self.both_wild = self.dice == (-1, -1)
        self._enter(WILD if -1 in self.dice else DRAW)

    def _finish_draw(self) -> None:
        nbr = self.board.nbr
        self.near |= around(nbr, self.touched)
        self._enter(ACTION)

    def _after_action(self) -> None:
        """4. Score enclosed areas, then 5. buy a card (family: claim a Spell)."""
        self._score()
        self.rage_hex = -1
        if self.family:
            self._enter(CLAIM if self.enclosed_now else BUY)
            return
        needed = self.c.tracks.solo_buy_after_areas if self.solo else 1
        if self.enclosed_now >= needed:
            self._enter(BUY)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Poorhouse, then the end-of-game check and the next player (solo: the Territory)."""
        p = self.turn
        if self.raged:  # shown for the rest of the turn it was cast and for the next turn
            self.raged = () if self.raged[3] else (*self.raged[:3], 1)
        self._poorhouse(p)
        if self.solo:
            if self.full_turn_fits():
                self._begin_turn()
            else:
                self._finish_territory()
            return
        if self.pre_enclosed >= self.c.end_needed[self.num_players]:
            self.end_triggered = True
        if self.family and self._level3_exhausted():
            self.end_triggered = True
        if self.end_triggered and p == self.num_players - 1:
            self._game_over()
            return
        self.turn = (p + 1) % self.num_players
        if self.turn == 0:
            self.round += 1
        self._begin_turn()

    def _poorhouse(self, p: int) -> None:
        """Poorhouse: at the end of the turn, each of ``p``'s tracks at 0 goes up to 1."""
        if not self.family and self.built(p, "poorhouse") and 0 in self.tracks[p]:
            self.tracks = replaced(self.tracks, p, tuple([max(1, t) for t in self.tracks[p]]))

    def _next_turn_rolls(self) -> bool:
        """Whether :meth:`_end_turn` now goes on to the next turn's roll after the Poorhouse,
        nothing else happening (greedy's lookahead values purchases so): solo, while a whole
        turn fits (else the Territory ends); otherwise when the game does not end with this
        seat and a Resource can be drawn (else the next seat goes to its action at once)."""
        if self.family:
            return False
        if self.solo:
            return self.full_turn_fits()
        ending = self.end_triggered or self.pre_enclosed >= self.c.end_needed[self.num_players]
        return not (ending and self.turn == self.num_players - 1) and bool(self._anchor())

    def _game_over(self) -> None:
        self.phase = OVER
        self._legal = []

    def _level3_exhausted(self) -> bool:
        rooms = [self.c.rooms[r] for r in self.rooms if self.c.rooms[r].level == 3]
        return all(self.taken[r.index] >= len(r.spells) for r in rooms)

    # -- 4. scoring ----------------------------------------------------------------------------
    def areas_at(self, look: int, remember: bool = False) -> list[tuple[int, int, int]]:
        """Each area not yet scored with a hex in ``look``, once: (kind, hexes, border), those
        of the position now, lowest first hex first. ``remember``: through the
        board's table of areas (:meth:`Board.area_and_border`), for bots that look at the same
        areas position after position."""
        b = self.board
        unscored = ~self.scored
        drawn = 0
        for mask in self.kinds:
            drawn |= mask
        todo = look & unscored & drawn  # hexes with a Resource (res[h] >= 0)
        found = []
        while todo:  # lowest hex first; each area once
            h = (todo & -todo).bit_length() - 1
            k = self.kind_at(h)
            if remember:
                area, border = b.area_and_border(self.kinds[k] & unscored, h)
            else:
                area = b.area(self.kinds[k] & unscored, h)
                border = b.border(area)
            todo &= ~area
            found.append((k, area, border))
        return found

    def _score(self) -> None:
        """Score every area enclosed this turn (only areas next to this turn's hexes can be)."""
        touched = self.touched
        if not touched:
            return
        for k, area, border in self._enclosed():
            self._score_area(area, border, k)

    def _enclosed(self) -> list[tuple[int, int, int]]:
        """The unscored areas next to this turn's hexes that are enclosed (4.): (kind, hexes,
        border). Those of the last position asked for are kept in a table clones share:
        greedy's lookahead scores the same areas after each of its action moves."""
        key = (self.touched, self.empty, self.scored, *self.kinds)
        last = self.last_enclosed
        found = last.get(key)
        if found is None:
            touched = self.touched
            look = touched | around(self.board.nbr, touched)
            found = [
                (k, area, border)
                for k, area, border in self.areas_at(look, remember=True)
                if not border & self.empty
            ]
            last.clear()
            last[key] = found
        return found

    def _score_area(self, area: int, border: int, kind: int) -> None:
        b = self.board
        self.enclosed_now += 1
        self.scored |= area
        self.pre_enclosed += _pop(area & b.preprinted_mask)
        found = [h for h in self.artifacts if area >> h & 1]
        if found:  # Collect Artifacts: only the player who encloses
            collected = sum(self.artifacts[h] for h in found)
            self._count(self.turn, ARTIFACTS_COLLECTED, collected)
            held = self.held_artifacts
            self.held_artifacts = replaced(held, self.turn, held[self.turn] + collected)
            self.artifacts = {h: n for h, n in self.artifacts.items() if not area >> h & 1}
        self._count(self.turn, AREAS_ENCLOSED)
        size = _pop(area)
        lakes = b.geo_border(area) if self.ships else 0
        for p in range(self.num_players):
            count = _pop(border & self.workers[p])
            for ship, q in self.ships.items():
                if q == p and lakes & b.lake_of[ship]:
                    count += 1
            if p == self.turn and self.rage_hex >= 0 and border >> self.rage_hex & 1:
                count += self.rage_extra
            if count:
                self._count(p, AREAS_SCORED)
                self._earn(p, kind, size, count)

    def _count(self, p: int, key: int, by: int = 1) -> None:
        """Count ``by`` more of :data:`TALLY`'s ``key`` for ``p``."""
        self.tally[p * len(TALLY) + key] += by

    def counts(self, p: int) -> dict[str, int]:
        """What the lab has counted of ``p`` so far, by :data:`TALLY`'s names (none at 0)."""
        at = p * len(TALLY)
        return {key: n for key, n in zip(TALLY, self.tally[at : at + len(TALLY)], strict=True) if n}

    def _earn(self, p: int, kind: int, size: int, workers: int) -> None:
        """Resources x Workers; Buildings' bonuses per space (not multiplied); family: 1 VP per
        Resource and the Guild bonus."""
        t = self.c.tracks
        if self.family:
            self.add_vp(p, AREAS, size * workers)
            if self.guild[p] == kind:
                self.add_vp(p, GUILD, size)
            return
        if kind == CITY:
            self.add_vp(p, CITIES, size * workers + t.statue_vp * size * self.built(p, "statue"))
            return
        bonus = t.bonus_per_space * size * self.built(p, BONUS_BUILDING[kind])
        self.gain(p, kind, size * workers + bonus)

    def gain(self, p: int, resource: int, amount: int) -> None:
        """Add to a track; over the maximum of 5 every 2 give 1 VP (Store: 2 VP each time).

        Decision: an odd Resource left over beyond the maximum is lost.
        """
        t = self.c.tracks
        total = self.tracks[p][resource] + amount
        if total > t.maximum:
            self.add_vp(p, OVERFLOW, (total - t.maximum) // t.overflow_per_vp)
            self.add_vp(p, STORE, t.store_vp * self.built(p, "store"))
            total = t.maximum
        self.set_track(p, resource, total)

    # -- options -----------------------------------------------------------------------------
    def _options(self, one: bool = False) -> list[Move]:
        """The moves now; ``one``: in the action and buy phases, stop at the first move besides
        ``pass`` (enough to tell whether there is any)."""
        phase = self.phase
        p = self.turn
        if phase == SETUP:
            return [move("start", self.c.cards[i].id) for i in self.c.starting]
        if phase == WILD:
            return self._wild_options()
        if phase == DRAW:
            return self._draw_options()
        if phase == ACTION:
            return self._action_options(p, one)
        if phase == SPELL:
            return self._spell_options(p)
        if phase == BUY:
            if self.family:
                return []
            cards = self.cards[p]
            moves = [PASS]
            for card in self.c.cards:
                if (
                    cards[card.index] == NONE
                    and self._buyable(card)
                    and self._need(p, self._cost(GOLD, self.gold_cost(p, card))) is not None
                ):
                    moves.append(move("buy", card.id))
                    if one:
                        break
            return moves
        if phase == CLAIM:
            return [move("claim", self.c.rooms[r].id) for r in self._claimable()]
        if phase == TROLL_COLUMN:
            return [
                move("trolls", f"column-{col + 1}")
                for col in range(self.c.columns)
                if col not in self.troll_columns
            ]
        if phase == TROLL_ELEMENT:
            k = len(self.finished)
            if not self.c.solo.troll_relics_from <= k < self.c.solo.territories:
                return []
            return [move("trolls", name) for name in self._troll_elements()]
        if phase == BRIDGE:
            return [move("bridge", self.hex_name(h)) for h in self._bridges()]
        return []

    def _wild_options(self) -> list[Move]:
        """A "?" is any Resource but the one on the other die; with two "?" both are free."""
        dice = self.dice
        others = [d for d in dice if d >= 0]
        allowed = [k for k in range(len(KINDS)) if self.both_wild or k not in others]
        return [move("choose", KINDS[k]) for k in allowed]

    def _draw_options(self) -> list[Move]:
        """2.1 and 2.2, one symbol at a time. A step offers only hexes from which the rest of
        the turn (2 Resources + 1 Worker) can still be drawn; only when none is left may the
        player forfeit (``skip``) what no longer fits.

        Decision: the forfeit rule ("less than 3 empty hex spaces adjacent to each other") is
        read as "the full 2 + 1 no longer fits"; then each symbol is drawn where the rules
        allow it alone, or skipped. A first Resource that touches nothing drawn is allowed only
        because the second will ("One of the Resources must also be adjacent..."), so the
        second may then not be forfeited: it must be drawn where it meets the requirement.
        """
        free = self._free()
        anchor = self._anchor()
        nbr = self.board.nbr
        table = hex_moves(self.board)
        if self.item == 0:
            full, local = self._first_hexes()
            rows = [table[KINDS[k]] for k in sorted(set(self.dice))]
            moves = [row[h] for h in (full or local) for row in rows]
            return moves if full or not moves else [*moves, SKIP]
        if self.item == 1:
            kinds = [self.dice[1]] if self.r1 >= 0 else sorted(set(self.dice))
            if self.r1 >= 0:
                cand = nbr[self.r1] & free
                if not self.r1_anchored:
                    cand &= anchor
                base = nbr[self.r1]
            else:
                cand = anchor
                base = 0
            every = hexes(cand)
            fits = [h for h in every if (base | nbr[h]) & free & ~(1 << h)]
            moves = [table[KINDS[k]][h] for h in (fits or every) for k in kinds]
            forfeit = not fits and (self.r1 < 0 or self.r1_anchored)
            return [*moves, SKIP] if forfeit and moves else moves
        around = 0
        for h in (self.r1, self.r2):
            if h >= 0:
                around |= nbr[h]
        workers = table["worker"]
        return [workers[h] for h in hexes(around & free)]

    def _action_options(self, p: int, one: bool = False) -> list[Move]:
        """3. One of Spell / Building / Relic / Monument, or nothing (``one``: stop at the
        first of them)."""
        moves = [PASS]
        if self.family:
            for spell in sorted(set(self.held[p])):
                fs = self._family_spell(spell)
                if self._has_target(p, fs.spell):
                    moves.append(move("cast", spell))
                    if one:
                        return moves
            return moves
        cards = self.cards[p]
        for card in self.c.cards:
            state = cards[card.index]
            if state == OWNED:
                crystals = self._cost(CRYSTAL, self.spell_cost(p, card))
                if self._has_target(p, card.spell, card) and self._need(p, crystals) is not None:
                    moves.append(move("cast", card.id))
                    if one:
                        return moves
                if self._need(p, self._cost(WOOD, self.build_cost(p, card))) is not None:
                    moves.append(move("build", card.id))
                    if one:
                        return moves
            elif state == BUILT and self._can_monument(p, card):
                moves.append(move("monument", card.id))
                if one:
                    return moves
        for kind, (artifacts, _) in enumerate(self.c.relics):
            if (
                self.held_artifacts[p] >= artifacts
                and self.tracks[p][CRAFT] >= self.c.tracks.relic_craft
                and self._relic_value(kind) is not None
            ):
                moves.append(move("relic", str(artifacts)))
        return moves

    def _can_monument(self, p: int, card: Card) -> bool:
        return (
            self._monument_value() is not None
            and self._need(p, self.monument_cost(p, card)) is not None
        )

    def _family_spell(self, name: str) -> FamilySpell:
        for room in self.c.rooms:
            for fs in room.spells:
                if fs.name == name:
                    return fs
        raise IllegalAction(f"no Spell {name!r} in the Archive")

    def _clone_hexes(self, p: int) -> int:
        """Where the Clone Spell may place a Worker: free hexes next to ``p``'s Workers."""
        return self.board.around(self.workers[p]) & self._free()

    def _has_target(self, p: int, spell: str, card: Card | None = None) -> bool:
        """Whether the Spell can do anything now (a Spell without one is not offered)."""
        if spell == "acquire":
            return any(self.cards[p][c.index] == NONE and self._buyable(c) for c in self.c.cards)
        if spell == "clone":
            return bool(self._clone_hexes(p))
        if spell == "conjure":
            return True
        if spell == "construct":
            return any(
                (self.cards[p][c.index] == OWNED and c is not card)
                or (
                    self.cards[p][c.index] == BUILT
                    and self._monument_value() is not None
                    and self.tracks[p][CRAFT] >= self.c.tracks.monument_craft
                )
                for c in self.c.cards
            )
        if spell == "muster":
            return bool(self._anchor())
        if spell == "rage":
            return bool(self.workers[p])
        if spell == "ship":
            return any(s not in self.ships for s in self.board.ships)
        if spell in ("swamp", "terrain"):
            return bool(self.near & self._free())
        raise AssertionError(spell)  # pragma: no cover

    def _spell_options(self, p: int) -> list[Move]:
        spell = self.spell
        name = self.board.names
        free = self._free()
        if spell == "acquire":
            return [
                move("take", c.id)
                for c in self.c.cards
                if self.cards[p][c.index] == NONE and self._buyable(c)
            ]
        if spell == "clone":
            return [move("worker", name[h]) for h in bits(self._clone_hexes(p))]
        if spell == "conjure":
            return [move("conjure", r) for r in RESOURCES]
        if spell == "construct":
            moves = [move("build", c.id) for c in self.c.cards if self.cards[p][c.index] == OWNED]
            moves += [
                move("monument", c.id)
                for c in self.c.cards
                if self.cards[p][c.index] == BUILT and self._can_monument(p, c)
            ]
            return moves
        if spell == "muster":
            return [move("worker", name[h]) for h in bits(self._anchor())]
        if spell == "rage":
            return [move("rage", name[h]) for h in bits(self.workers[p])]
        if spell == "ship":
            return [move("ship", name[s]) for s in self.board.ships if s not in self.ships]
        if spell == "swamp":
            if self.spell_left <= 0:
                return []
            if self.spell_hex < 0:
                return [move("swamp", name[h]) for h in bits(self.near & free)]
            second = self.board.nbr[self.spell_hex] & free
            return [*(move("swamp", name[h]) for h in bits(second)), SKIP] if second else []
        if spell == "terrain":
            if -1 in self.dice:
                return self._wild_options()
            if self.spell_left <= 0:
                return []
            kinds = sorted(set(self.dice))
            return [move(KINDS[k], name[h]) for h in bits(self.near & free) for k in kinds]
        raise AssertionError(spell)  # pragma: no cover

    def _claimable(self) -> list[int]:
        """5. Spell Archive: the room being filled until its Spells are all taken ("The next
        turn areas are enclosed, that player writes their initial on the next Spell in that
        room"); then any room with Spells left on the lowest such level."""
        rooms = self.c.rooms
        if self.open_room >= 0 and self.taken[self.open_room] < len(rooms[self.open_room].spells):
            return [self.open_room]
        left = [r for r in self.rooms if self.taken[r] < len(rooms[r].spells)]
        if not left:
            return []
        level = min(rooms[r].level for r in left)
        return [r for r in left if rooms[r].level == level]

    def _troll_elements(self) -> list[str]:
        out = []
        for kind, (artifacts, _) in enumerate(self.c.relics):
            if self._relic_value(kind) is not None:
                out.append(f"relic-{artifacts}")
        if self._monument_value() is not None:
            out.append("monument")
        return out

    def _bridges(self) -> list[int]:
        """Bridge ends in undiscovered Territories, from any finished Territory."""
        b = self.board
        ends = set()
        for x, y in b.bridges:
            for here, there in ((x, y), (y, x)):
                if b.territory[here] in self.finished and b.territory[there] not in self.finished:
                    ends.add(there)
        return sorted(ends)

    # -- the protocol --------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.turn,)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = self._options()
        return self._legal

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player != self.turn:
            return self.no_moves(player)
        return list(self._legal_moves())

    def action_vocabulary(self) -> tuple[Action, ...]:
        """Every move of this configuration (:mod:`rulebook.pandoria_merchants.vocabulary`)."""
        from rulebook.pandoria_merchants.vocabulary import vocabulary_of  # it imports Move

        return vocabulary_of(self.board, self.mode, self.num_players)

    def parse_action(self, player: int, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(f"{text!r} is not a move")
        parts = text.split()
        if not 1 <= len(parts) <= 2 or parts[0].lower() not in VERBS:
            raise IllegalAction(
                f"{text!r} is not a move; moves look like 'wood C7', 'worker D7', "
                "'choose gold', 'cast rage/tower', 'buy ship/statue' or 'pass'"
            )
        verb = parts[0].lower()
        arg = parts[1] if len(parts) == 2 else ""
        arg = arg.upper() if verb in HEX_VERBS and HEX_TEXT.match(arg.upper()) else arg.lower()
        return Move(verb, arg)

    def _apply(self, player: int, action: Action) -> None:
        if (
            type(action) is not Move
            or not isinstance(action.verb, str)
            or not isinstance(action.arg, str)
        ):
            raise IllegalAction(f"{action!r} is not a Pandoria Merchants move")
        if action not in self._legal_moves():
            from rulebook.pandoria_merchants.refusals import why_not  # only when refusing

            raise IllegalAction(why_not(self, action))
        self._perform(player, action)

    def _perform(self, player: int, action: Action) -> None:
        self._legal = None
        self._do(player, cast(Move, action))

    # -- performing moves ----------------------------------------------------------------------
    def _hex(self, action: Move) -> int:
        return self.board.index[action.arg]

    def _card(self, action: Move) -> Card:
        return self.c.card_by_id[action.arg]

    def _do(self, p: int, a: Move) -> None:
        verb = a.verb
        phase = self.phase
        if phase == SETUP:
            self._own(p, self._card(a))
            if p + 1 < self.num_players:
                self.turn = p + 1
                self._enter(SETUP)
            else:
                self.turn = 0
                self._begin_turn()
        elif phase == WILD:
            self.dice = replaced(self.dice, self.dice.index(-1), KINDS.index(a.arg))
            self._enter(WILD if -1 in self.dice else DRAW)
        elif phase == DRAW:
            self._do_draw(p, a)
        elif phase == ACTION:
            self._do_action(p, a)
        elif phase == SPELL:
            self._do_spell(p, a)
        elif phase == BUY:
            if verb == "buy":
                self._buy(p, self._card(a))
            self._end_turn()
        elif phase == CLAIM:
            room = next(r for r in self.c.rooms if r.id == a.arg)
            spell = room.spells[self.taken[room.index]].name
            self.held = replaced(self.held, p, (*self.held[p], spell))
            self.taken = replaced(self.taken, room.index, self.taken[room.index] + 1)
            self.open_room = room.index
            self._end_turn()
        elif phase == TROLL_COLUMN:
            self._troll_column(int(a.arg.split("-")[1]) - 1)
            self._enter(TROLL_ELEMENT)
        elif phase == TROLL_ELEMENT:
            self._troll_claim(a.arg)
            self._close_territory()
        elif phase == BRIDGE:
            h = self._hex(a)
            self.territory = self.board.territory[h]
            self.zone = self.board.territories[self.territory]
            self.anchor_extra = 1 << h  # "Start on the space ... connected to that bridge"
            self.vp_start = self.vp_total(0)
            self._begin_turn()

    def _buy(self, p: int, card: Card) -> None:
        """5. Buy a card: pay its Gold and circle it. Changes only ``p``'s tracks and cards and
        the blocked columns (greedy's lookahead undoes it so)."""
        self._pay(p, self._cost(GOLD, self.gold_cost(p, card)))
        self._own(p, card)

    def _own(self, p: int, card: Card) -> None:
        """Circle a card; all 3 of a column bought blocks it for everyone (Blocking Cards)."""
        self.mark(p, card.index, OWNED)
        column = [c.index for c in self.c.cards if c.column == card.column]
        if all(self.cards[p][i] not in (NONE, CROSSED) for i in column):
            self.blocked |= 1 << card.column

    def _place(self, h: int, kind: int) -> None:
        res = self.res
        self.res = res[:h] + KIND_BYTES[kind] + res[h + 1 :]
        self.kinds[kind] |= 1 << h
        self.empty &= ~(1 << h)
        self.touched |= 1 << h

    def _do_draw(self, p: int, a: Move) -> None:
        if a.verb == "skip":
            self.item += 1
        elif a.verb == "worker":
            h = self._hex(a)
            self.workers = replaced(self.workers, p, self.workers[p] | 1 << h)
            self.empty &= ~(1 << h)
            self.touched |= 1 << h
            self.item = 3
        else:
            h = self._hex(a)
            kind = KINDS.index(a.verb)
            self._count(p, DRAWN + kind)
            if self.item == 0:
                self.r1_anchored = bool(self._anchor() >> h & 1)
                self._place(h, kind)
                self.r1 = h
                if self.dice[0] != kind:
                    self.dice = (self.dice[1], self.dice[0])  # the other die is the second
            else:
                self._place(h, kind)
                self.r2 = h
                if self.r1 >= 0 and self.dice[0] == self.dice[1] and not self.family:
                    # Draw Artifacts: doubles put one between the two spaces
                    self.artifacts = {**self.artifacts, self.r1: self.artifacts.get(self.r1, 0) + 1}
            self.item += 1
        if self.item > 2:
            self._finish_draw()
        else:
            self._enter(DRAW)

    def _academy(self, p: int) -> None:
        self.add_vp(p, ACADEMY, self.c.tracks.academy_vp * self.built(p, "academy"))

    def _do_action(self, p: int, a: Move) -> None:
        verb = a.verb
        if verb == "pass":
            self._after_action()
            return
        if verb == "relic":
            self._make_relic(p, int(a.arg))
            self._after_action()
            return
        if self.family:
            self.held = replaced(self.held, p, without(self.held[p], a.arg))
            self.used_spells = replaced(self.used_spells, p, self.used_spells[p] + 1)
            fs = self._family_spell(a.arg)
            self._start_spell(fs.spell, fs.power)
            return
        card = self._card(a)
        if verb == "cast":
            self._cast(p, card)
            self._start_spell(card.spell, card.power)
            return
        if verb == "build":
            self._build(p, card)
        else:
            self._monument(p, card)
        self._after_action()

    def _cast(self, p: int, card: Card) -> None:
        """3.1: pay the Crystals, cross out the Building (the card is cast); Shrine: VP. Changes
        only ``p``'s tracks, cards and VP (greedy's lookahead undoes it so)."""
        self._pay(p, self._cost(CRYSTAL, self.spell_cost(p, card)))
        self.mark(p, card.index, CAST)
        self.add_vp(p, SHRINE, self.c.tracks.shrine_vp * self.built(p, "shrine"))

    def _build(self, p: int, card: Card) -> None:
        """3.2: pay Wood (Construct: none), circle the Building, cross out the Spell.

        Decision: the Academy scores for later Buildings, Monuments and Relics, not itself.
        """
        if not self.free_wood:
            self._pay(p, self._cost(WOOD, self.build_cost(p, card)))
        self._academy(p)
        self.mark(p, card.index, BUILT)

    def _monument(self, p: int, card: Card) -> None:
        """3.4: cross out a Building, pay, circle the highest remaining Monument."""
        self._pay(p, self.monument_cost(p, card))
        self.mark(p, card.index, MONUMENT)
        value = self._monument_value()
        assert value is not None
        self.monument_left = replaced(self.monument_left, self.monument_left.index(True), False)
        self.monuments_won = replaced(self.monuments_won, p, (*self.monuments_won[p], value))
        self.add_vp(p, MONUMENTS, value)
        self._academy(p)

    def _make_relic(self, p: int, artifacts: int) -> None:
        """3.3: cross out 2 or 3 Artifacts, pay 1 Craft, circle the highest remaining Relic."""
        kind = next(i for i, (n, _) in enumerate(self.c.relics) if n == artifacts)
        value = self._relic_value(kind)
        assert value is not None
        self.held_artifacts = replaced(self.held_artifacts, p, self.held_artifacts[p] - artifacts)
        self.set_track(p, CRAFT, self.tracks[p][CRAFT] - self.c.tracks.relic_craft)
        self._relic_taken(kind)
        self.relics_won = replaced(self.relics_won, p, (*self.relics_won[p], value))
        self.add_vp(p, RELICS, value)
        self._academy(p)

    def _relic_taken(self, kind: int) -> None:
        """Cross out the highest remaining Relic of ``kind``."""
        row = self.relic_left[kind]
        self.relic_left = replaced(self.relic_left, kind, replaced(row, row.index(True), False))

    def _start_spell(self, spell: str, power: int) -> None:
        self.spell = spell
        self.power = power
        self.spell_left = power
        self.spell_hex = -1
        self.free_wood = spell == "construct"
        if spell == "terrain":
            faces = self.c.faces
            rolled = self.chance.roll((len(faces),) * power)
            self.dice = tuple([faces[r - 1] for r in rolled])
            self.both_wild = all(d == -1 for d in self.dice)
        self._enter(SPELL)

    def _do_spell(self, p: int, a: Move) -> None:
        """The Spell Index, one target at a time."""
        spell = self.spell
        verb = a.verb
        done = True
        if spell == "acquire":
            self._own(p, self._card(a))
        elif spell in ("clone", "muster"):
            h = self._hex(a)
            self.workers = replaced(self.workers, p, self.workers[p] | 1 << h)
            self.empty &= ~(1 << h)
            self.touched |= 1 << h
            self.near |= self.board.nbr[h]
        elif spell == "conjure":
            self.set_track(p, RESOURCES.index(a.arg), self.c.tracks.maximum)
        elif spell == "construct":
            card = self._card(a)
            if verb == "build":
                self._build(p, card)
            else:
                self._monument(p, card)
        elif spell == "rage":
            self.rage_hex = self._hex(a)
            self.rage_extra = self.power - 1
            self.raged = (p, self.rage_hex, self.power, 0)
        elif spell == "ship":
            self.ships = {**self.ships, self._hex(a): p}
        elif spell == "swamp":
            if verb == "skip":
                self.spell_left = 0
            else:
                h = self._hex(a)
                self.swamp |= 1 << h
                self.empty &= ~(1 << h)
                self.touched |= 1 << h
                self.spell_hex = h
                self.spell_left -= 1
            done = False
        elif spell == "terrain":
            if verb == "choose":
                self.dice = replaced(self.dice, self.dice.index(-1), KINDS.index(a.arg))
            else:
                h = self._hex(a)
                kind = KINDS.index(verb)
                self.dice = without(self.dice, kind)
                self._place(h, kind)
                self.near |= self.board.nbr[h]
                self.spell_left -= 1
            done = False
        self.free_wood = False if done else self.free_wood
        if done:
            self._after_action()
        else:
            self._enter(SPELL)

    # -- solo: Territories and Trolls ----------------------------------------------------------
    def _finish_territory(self) -> None:
        """Territory is finished: write its points, then the Trolls claim (from the 3rd: a
        column; from the 4th: a Relic or Monument), then a Bridge leads on."""
        self.my_territory += (self.vp_total(0) - self.vp_start,)
        self.finished += (self.territory,)
        self.troll_gain = 0
        k = len(self.finished)
        solo = self.c.solo
        if k == solo.territories:  # "After the 8th Territory, there are 3 elements"
            for name in self._troll_elements()[: solo.final_elements]:
                self._troll_claim(name)
        if k >= solo.troll_columns_from:
            self._enter(TROLL_COLUMN)
        else:
            self._close_territory()

    def _troll_column(self, col: int) -> None:
        """The Trolls claim a column: X at its bottom; 1 VP per card crossed out."""
        self.troll_columns += (col,)
        self.blocked |= 1 << col
        for card in self.c.cards:
            if card.column == col and self.cards[0][card.index] == NONE:
                self.mark(0, card.index, CROSSED)
                self.troll_gain += 1
                self.troll_cards += 1

    def _troll_claim(self, name: str) -> None:
        """The Trolls claim the highest remaining Relic of one type, or Monument."""
        if name == "monument":
            value = self._monument_value()
            assert value is not None
            self.monument_left = replaced(self.monument_left, self.monument_left.index(True), False)
        else:
            kind = next(i for i, (n, _) in enumerate(self.c.relics) if f"relic-{n}" == name)
            value = self._relic_value(kind)
            assert value is not None
            self._relic_taken(kind)
        self.troll_claims += (name,)
        self.troll_gain += value
        self.troll_elements += value

    def troll_table(self) -> list[int]:
        """The scoring table with the chosen level's values for the last 2 Territories."""
        return list(self.troll_values)

    def _close_territory(self) -> None:
        """Victory Points for the Trolls: "points shown for that Territory in the table minus
        your score for that Territory" (as written: below 0 when you beat the table), plus the
        cards, Relics and Monument they claimed."""
        k = len(self.finished)
        base = self.troll_table()[k - 1] - self.my_territory[-1]
        cards = self.troll_cards - sum(part[0] for part in self.troll_parts)
        self.troll_parts += ((cards, self.troll_gain - cards),)
        self.trolls += (base + self.troll_gain,)
        self.troll_gain = 0
        if k >= self.c.solo.territories:
            self._game_over()
        else:
            self._enter(BRIDGE)

    def trolls_total(self) -> int:
        return sum_of(self.trolls)

    # -- scoring (End of Game and Final Score) -------------------------------------------------
    def score_breakdown(self, player: int) -> dict[str, int]:
        """Crown VP by source plus the final conversions (what they would give now, while the
        game runs): Resources 2:1 each, 1 per unused card, 1 per remaining Artifact.
        Family: 1 VP per Resource scored and the Guild bonus."""
        vp = self.vp[player]
        if self.family:
            return dict(zip(FAMILY_VP, vp, strict=True))
        out = dict(zip(STANDARD_VP, vp, strict=True))
        out["resources"], out["unused_cards"], out["artifacts"] = self._conversions(player)
        return out

    def _conversions(self, player: int) -> tuple[int, int, int]:
        """The final conversions of :meth:`score_breakdown` (standard and solo): Resources 2:1,
        unused cards, remaining Artifacts."""
        rate = self.c.tracks.overflow_per_vp
        resources = 0
        for t in self.tracks[player]:
            resources += t // rate
        return resources, count_of(self.cards[player], OWNED), self.held_artifacts[player]

    def score(self, player: int) -> int:
        """A seat's score now: the sum of :meth:`score_breakdown` (without making it)."""
        vp = sum_of(self.vp[player])
        if self.family:
            return vp
        resources, unused, artifacts = self._conversions(player)
        return vp + resources + unused + artifacts

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.num_players)]

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """Standard and solo: the highest Monument built; family: most unused Spells."""
        if self.family:
            return (len(self.held[player]),)
        return (max(self.monuments_won[player], default=0),)

    def tiebreak_labels(self) -> tuple[str, ...]:
        return ("most unused Spells",) if self.family else ("highest Monument built",)

    def winners(self) -> list[int]:
        """Standard and family: most VP, then the tie-breaker. Solo (End of Game and Final
        Score): "If you have more total points than the Trolls, you win!": only strictly more
        wins; a tie is not more, so the Trolls win it (no one is named the winner)."""
        if self.solo:
            return [0] if self.scores()[0] > self.trolls_total() else []
        return super().winners()

    def solo_won(self) -> bool:
        """Solo: whether the game is over and the player beat the Trolls."""
        return self.is_terminal() and self.winners() == [0]

    def opponent_breakdown(self) -> dict[str, int]:
        """Solo: the Trolls' points (Victory Points for the Trolls): each finished Territory's
        table value minus your score there, 1 VP per card they crossed out, and the Relics and
        Monuments they claimed. Empty outside solo."""
        if not self.solo:
            return {}
        table = self.troll_table()
        return {
            "territories": sum(table[k] - self.my_territory[k] for k in range(len(self.trolls))),
            "cards": self.troll_cards,
            "relics_and_monuments": self.troll_elements,
        }

    def score_notes(self) -> dict[str, str]:
        """Solo: what the Trolls' points count (their Territories can be below 0)."""
        if not self.solo:
            return {}
        return {
            "territories": "for each finished Territory, the table's value minus your score "
            "there: below 0 when you scored more than the table",
            "cards": "1 Victory Point for each card the Trolls crossed out",
            "relics_and_monuments": "the Relics and Monuments the Trolls claimed",
        }

    # -- views -------------------------------------------------------------------------------
    def _row_text(self, r: int) -> str:
        """One map row as 2 characters a hex: symbol then mark (see render.LEGEND)."""
        b = self.board
        cells = []
        for h in range(r * b.width, (r + 1) * b.width):
            bit = 1 << h
            mark = " "
            if not b.land & bit:
                if h in self.ships:
                    cells.append(f"S{self.ships[h]}")
                else:
                    cells.append("S " if h in b.lake_of else "~ ")
                continue
            if self.swamp & bit:
                sym = "#"
            elif self.kind_at(h) >= 0:
                sym = "WCKGT"[self.kind_at(h)]
                if b.starts_mask & bit:
                    mark = "@"
                elif b.preprinted_mask & bit:
                    mark = "*"
                if self.scored & bit:
                    mark = "x"
                if h in self.artifacts:
                    mark = "a"
            else:
                sym = "."
                for p, w in enumerate(self.workers):
                    if w & bit:
                        sym = str(p)
            cells.append(sym + mark)
        return "".join(cells)

    def _view(self, player: int | None) -> dict[str, Any]:
        """The table as ``player`` sees it (``None``: as every seat sees it). Everything is
        public: the map and every Realm sheet. Only future dice are unknown."""
        b = self.board
        c = self.c
        grid = [self._row_text(r) for r in range(b.height)]
        seats = []
        for p in range(self.num_players):
            seat: dict[str, Any] = {
                "score": self.score(p),
                "ships": [b.names[h] for h, q in self.ships.items() if q == p],
            }
            if self.family:
                seat["guild"] = c.guilds[p][0]
                seat["guild_resource"] = KINDS[c.guilds[p][1]]
                seat["spells"] = sorted(self.held[p])
                seat["used_spells"] = self.used_spells[p]
            else:
                seat["tracks"] = dict(zip(RESOURCES, self.tracks[p], strict=True))
                states = self.cards[p]
                seat["cards"] = {
                    name: ids
                    for code, name in enumerate(CARD_STATES)
                    if code != NONE
                    and (ids := [card.id for card in c.cards if states[card.index] == code])
                }
                seat["artifacts"] = self.held_artifacts[p]
                seat["relics"] = list(self.relics_won[p])
                seat["monuments"] = list(self.monuments_won[p])
            seats.append(seat)
        obs: dict[str, Any] = {
            "game": self.setup.game,
            "variant": self.mode,
            "you": player,
            "turn": self.turn,
            "round": self.round,
            "phase": self.phase,
            "current_players": list(self.current_players()),
            "dice": ["?" if d < 0 else KINDS[d] for d in self.dice],
            "spell": self.spell if self.phase == SPELL else "",
            # what everyone watched happen this turn: the Resources drawn, which symbol of
            # 2.1-2.2 is drawn next, and the Spell's targets so far
            "this_turn": {
                "drawn": [b.names[h] for h in (self.r1, self.r2) if h >= 0],
                "drawing": DRAWING[self.item] if self.phase == DRAW else "",
                "spell_power": self.power if self.phase == SPELL else 0,
                "spell_targets_left": self.spell_left if self.phase == SPELL else 0,
                "spell_hex": b.names[self.spell_hex]
                if self.phase == SPELL and self.spell_hex >= 0
                else "",
            },
            "columns": self.c.columns,
            "map": {
                "columns": [chr(ord("A") + i) for i in range(b.width)],
                "rows": grid,
                "territories": [
                    "".join(str(t) for t in b.territory[r * b.width : (r + 1) * b.width])
                    for r in range(b.height)
                ]
                if self.solo
                else [],
            },
            "artifacts_on_map": {b.names[h]: n for h, n in self.artifacts.items()},
            # the Worker made to count more by the last Rage: this turn (scored so) or the last
            "rage": {
                "seat": self.raged[0],
                "hex": b.names[self.raged[1]],
                "counts_as": self.raged[2],
                "this_turn": self.raged[3] == 0,
            }
            if self.raged
            else None,
            "pre_printed_enclosed": self.pre_enclosed,
            "end_triggered": self.end_triggered,
            "seats": seats,
        }
        if not self.solo:
            obs["end_needed"] = c.end_needed[self.num_players]
        if not self.family:
            obs["blocked_columns"] = [
                col + 1 for col in range(c.columns) if self.blocked >> col & 1
            ]
            obs["relics_left"] = {
                f"relic-{n}": [
                    v for (v, _), left in zip(row, self.relic_left[k], strict=True) if left
                ]
                for k, (n, row) in enumerate(c.relics)
            }
            obs["monuments_left"] = [
                v for (v, _), left in zip(c.monuments, self.monument_left, strict=True) if left
            ]
            obs["realm"] = [
                {
                    "column": card.column + 1,
                    "card": card.id,
                    "gold": card.gold,
                    "crystals": card.crystals,
                    "wood": card.wood,
                    "power": card.power if card.spell in c.default_power else 0,
                }
                for card in c.cards
            ]
        else:
            obs["archive"] = [
                {
                    "room": c.rooms[r].id,
                    "level": c.rooms[r].level,
                    "spells": [fs.name for fs in c.rooms[r].spells],
                    "taken": self.taken[r],
                    "filling": r == self.open_room,
                }
                for r in self.rooms
            ]
        if self.solo:
            obs["solo"] = {
                "level": self.level,
                "territory": self.territory,
                "finished": list(self.finished),
                "your_territory_scores": list(self.my_territory),
                "troll_scores": list(self.trolls),
                "troll_columns": [col + 1 for col in self.troll_columns],
                "troll_claims": list(self.troll_claims),
                "table": self.troll_table(),
                "trolls_total": self.trolls_total(),
                "territory_points_now": self.vp_total(0) - self.vp_start,
                "bridges": [f"{b.names[x]}-{b.names[y]}" for x, y in b.bridges],
                **self._solo_words(),
            }
        if self.phase == OVER:
            obs["winners"] = self.winners()
            if self.solo:
                won = obs["solo"]["won"] = self.solo_won()
                me, trolls = self.scores()[0], self.trolls_total()
                # the rating names only the result, so the lab can count it across games
                obs["rating"] = "You beat the Trolls" if won else "The Trolls win"
                obs["solo"]["final"] = f"you {me}, the Trolls {trolls}"
        return obs

    def _solo_words(self) -> dict[str, Any]:
        """Solo: how far the game is (``Territory 3 of 8``: the Territories in the order they
        are played, which the table counts), and what the Trolls' points are made of, a
        Territory at a time and in all, in words (their points for a Territory fall below zero
        when you beat the table)."""
        total = self.c.solo.territories
        done = len(self.finished)
        if self.phase == OVER:
            progress = f"All {total} Territories finished"
        elif self.territory in self.finished:
            progress = f"Territory {done} of {total} finished"
        else:
            progress = f"Territory {done + 1} of {total}"
        table = self.troll_table()
        points = []
        for k, (cards, elements) in enumerate(self.troll_parts):
            base = table[k] - self.my_territory[k]
            t = self.finished[k]
            where = f"Territory {k + 1}" + (f" (the map's {t})" if t != k + 1 else "")
            words = f"{where}: the table's {table[k]} minus your {self.my_territory[k]} = {base}"
            if base < 0:
                words += f" (you beat the table by {-base})"
            if cards:
                words += f", + {cards} for crossed-out cards"
            if elements:
                words += f", + {elements} for Relics and Monuments"
            points.append(
                {
                    "territory": self.finished[k],
                    "table": table[k],
                    "yours": self.my_territory[k],
                    "cards": cards,
                    "relics_and_monuments": elements,
                    "total": self.trolls[k],
                    "words": f"{words}: {self.trolls[k]} for the Trolls",
                }
            )
        parts = self.opponent_breakdown()
        explained = (
            f"The Trolls have {self.trolls_total()} points: {parts['territories']} from the "
            f"Territories (each Territory's table value minus your points there, below zero "
            f"where you scored more than the table), {parts['cards']} for the cards they "
            f"crossed out (1 VP each) and {parts['relics_and_monuments']} for the Relics and "
            f"Monuments they took."
        )
        return {
            "territories": total,
            "playing": done if self.territory in self.finished else done + 1,
            "progress": progress,
            "troll_points": points,
            "trolls_explained": explained,
        }

    def explain(self, player: int, action: Action) -> str:
        """The move as menus show it, with what it costs: ``buy ship/statue (3 gold)``."""
        text = str(action)
        if type(action) is not Move or not isinstance(action.arg, str):
            return text
        card = self.c.card_by_id.get(action.arg)
        if card is None or self.family:
            return text
        strength = f" {card.power}" if card.spell in self.c.default_power else ""
        if action.verb == "cast":
            crystals = 0 if self.phase == SPELL else self.spell_cost(player, card)
            return f"{text} ({card.spell}{strength}: {crystals} crystal)"
        if action.verb == "build":
            wood = 0 if self.free_wood else self.build_cost(player, card)
            return f"{text} ({card.building}: {wood} wood)"
        if action.verb in ("buy", "take", "start"):
            gold = self.gold_cost(player, card) if action.verb == "buy" else 0
            return f"{text} ({gold} gold; Spell {card.spell}{strength}, Building {card.building})"
        if action.verb == "monument":
            wood, _, craft, _ = self.monument_cost(player, card)
            return f"{text} ({wood} wood, {craft} craft)"
        return text

    # -- moves in plain words (issue 23) ---------------------------------------------------------
    def describe(self, player: int, action: Action) -> str:
        """The move in plain words, as an instruction with what it costs and gives, in the
        sheets' names: ``Buy the Rage 2 / Tower card for 3 Gold: ...``. Worked out from the
        position before the move (the costs ``player`` pays now, the VP still to be had). A move
        that is not legal now (the web app tells a move before it is checked) keeps its short
        form: it is refused, never told."""
        legal = self._legal_moves() if player in self.current_players() else []
        if type(action) is not Move or action not in legal:
            return self.explain(player, action)
        return self._plain(player, action)

    def describe_public(self, player: int, action: Action) -> str:
        """:meth:`describe` told of the seat that moves (nothing in a move is hidden): its
        Worker, Resources and cards are "their" Worker, Resources and cards."""
        return _told_of_them(self.describe(player, action))

    def _plain(self, p: int, a: Move) -> str:
        """:meth:`describe` of a move of this phase (its verb names what it does)."""
        phase = self.phase
        verb = a.verb
        if verb == "choose":
            return self._plain_choice(a.arg)
        if phase == DRAW:
            return self._plain_draw(a)
        if phase == ACTION:
            return self._plain_action(p, a)
        if phase == SPELL:
            return self._plain_spell(p, a)
        if phase == SETUP:
            card = self.c.card_by_id[a.arg]
            use = self._use(p, card)
            return f"Take the {card_title(card)} card free as your starting card: {use}"
        if phase == BUY:
            if verb == "pass":
                return "Buy no card this turn"
            card = self.c.card_by_id[a.arg]
            cost = self._paying(p, self._cost(GOLD, self.gold_cost(p, card)))
            return (
                f"Buy the {card_title(card)} card for {cost}: {self._use(p, card)}"
                f"{self._blocking(p, card)}"
            )
        if phase == CLAIM:
            room = next(r for r in self.c.rooms if r.id == a.arg)
            fs = room.spells[self.taken[room.index]]
            return (
                f"Claim {spell_title(fs.spell, fs.power)} from room {room.id} of the Spell "
                f"Archive, to cast on a later turn"
            )
        if phase == TROLL_COLUMN:
            col = int(a.arg.split("-")[1]) - 1
            crossed = sum(
                1 for c in self.c.cards if c.column == col and self.cards[0][c.index] == NONE
            )
            if not crossed:
                return (
                    f"Give column {col + 1} to the Trolls for 0 VP: it closes (you own its cards)"
                )
            return (
                f"Give column {col + 1} to the Trolls for {crossed} VP: it closes, and its cards "
                f"you have not bought ({crossed}) are crossed out, 1 VP each"
            )
        if phase == TROLL_ELEMENT:
            if a.arg == "monument":
                return f"Give the Trolls the best Monument left, worth {self._monument_value()} VP"
            kind = next(i for i, (n, _) in enumerate(self.c.relics) if f"relic-{n}" == a.arg)
            artifacts = self.c.relics[kind][0]
            return (
                f"Give the Trolls the best Relic of {artifacts} Artifacts left, worth "
                f"{self._relic_value(kind)} VP"
            )
        if phase == BRIDGE:
            t = self.board.territory[self._hex(a)]
            return (
                f"Cross the Bridge to {a.arg} into the map's Territory {t} (your Territory "
                f"{len(self.finished) + 1} of {self.c.solo.territories})"
            )
        return str(a)  # pragma: no cover - every phase's moves are told above

    def _plain_choice(self, kind: str) -> str:
        """A "?" die read as ``kind`` (the turn's roll, or the Terrain Spell's)."""
        which = "the first ? die" if self.dice.count(-1) > 1 else "the ? die"
        spell = " of the Terrain Spell" if self.phase == SPELL else ""
        return f"Choose {title(kind)} for {which}{spell}"

    def _plain_draw(self, a: Move) -> str:
        """2.1 and 2.2: a Resource (first or second), the Worker, or a forfeit."""
        which = "first" if self.item == 0 else "second"
        if a.verb == "skip":
            if self.item == 0:
                return "Forfeit your first Resource: 2 Resources and a Worker no longer fit here"
            return "Forfeit your second Resource: no hex is left for it with room for a Worker"
        if a.verb == "worker":
            drawn = "Resources" if self.r1 >= 0 and self.r2 >= 0 else "Resource"
            return f"Draw your Worker on {a.arg}, next to the {drawn} you just drew"
        kind = KINDS.index(a.verb)
        what = f"{'a ' if kind == CITY else ''}{title(a.verb)}"
        text = f"Draw {what} on {a.arg} as your {which} Resource"
        if self.item == 0 and self.dice[0] != self.dice[1]:
            other = self.dice[1] if self.dice[0] == kind else self.dice[0]
            return f"{text} (the {title(KINDS[other])} goes next to it)"
        if self.item == 0:
            artifact = "" if self.family else ", with an Artifact between them: doubles"
            return f"{text} (the other {title(a.verb)} goes next to it{artifact})"
        if self.item == 1 and self.r1 >= 0 and self.dice[0] == self.dice[1] and not self.family:
            return f"{text}, with an Artifact between the two (doubles)"
        return text

    def _plain_action(self, p: int, a: Move) -> str:
        """3. a Spell, a Building, a Relic or a Monument (family: a Spell of the Archive)."""
        verb = a.verb
        if verb == "pass":
            if self.family:
                return "Go on without casting a Spell this turn"
            return "Go on without a Spell, Building, Relic or Monument this turn"
        if verb == "relic":
            n = int(a.arg)
            kind = next(i for i, (k, _) in enumerate(self.c.relics) if k == n)
            craft = amount(self.c.tracks.relic_craft, "craft")
            return (
                f"Make a Relic worth {self._relic_value(kind)} VP from {n} of your Artifacts "
                f"for {craft}{self._academy_words(p)}"
            )
        if self.family:
            fs = self._family_spell(a.arg)
            spells, _ = index()
            effect = spells[fs.spell].format(power=fs.power)
            name = spell_title(fs.spell, fs.power)
            return f"Cast your {name} Spell; it is used up. {name}: {effect}"
        card = self.c.card_by_id[a.arg]
        if verb == "cast":
            spells, _ = index()
            cost = self._paying(p, self._cost(CRYSTAL, self.spell_cost(p, card)))
            shrine = self.c.tracks.shrine_vp * self.built(p, "shrine")
            gain = f"; your Shrine scores {shrine} VP" if shrine else ""
            name = spell_title(card.spell, card.power)
            effect = spells[card.spell].format(power=card.power)
            return (
                f"Cast {name} from your {card_title(card)} card for {cost}; the card is used "
                f"up{gain}. {name}: {effect}"
            )
        if verb == "build":
            return self._plain_build(p, card)
        return self._plain_monument(p, card)

    def _plain_build(self, p: int, card: Card) -> str:
        """3.2 (or the Construct Spell): a Building, its cost and what it does."""
        _, buildings = index()
        building = title(card.building)
        cost = (
            "without paying Wood (Construct)"
            if self.free_wood
            else f"for {self._paying(p, self._cost(WOOD, self.build_cost(p, card)))}"
        )
        return (
            f"Build the {building} of your {card_title(card)} card {cost}; its Spell is lost"
            f"{self._academy_words(p)}. {building}: {buildings[card.building]}"
        )

    def _plain_monument(self, p: int, card: Card) -> str:
        """3.4 (or the Construct Spell): a Monument over a Building, its cost and its VP."""
        building = title(card.building)
        cost = self._paying(p, self.monument_cost(p, card))
        free = " and no Wood (Construct)" if self.free_wood else ""
        recycled = int(card.building == "academy")  # crossed out before it would score
        return (
            f"Build a Monument worth {self._monument_value()} VP over your {building} "
            f"({card_title(card)} card) for {cost}{free}: the {building} stops working"
            f"{self._academy_words(p, recycled)}"
        )

    def _plain_spell(self, p: int, a: Move) -> str:
        """A target of the Spell being cast (Spell Index)."""
        spell = self.spell
        verb = a.verb
        if spell == "acquire":
            card = self.c.card_by_id[a.arg]
            return (
                f"Take the {card_title(card)} card without paying its "
                f"{amount(card.gold, 'gold')} (Acquire): {self._use(p, card)}"
                f"{self._blocking(p, card)}"
            )
        if spell == "clone":
            return f"Draw an extra Worker on {a.arg}, next to one of your Workers (Clone)"
        if spell == "muster":
            return f"Draw an extra Worker on {a.arg} (Muster)"
        if spell == "conjure":
            level = self.tracks[p][RESOURCES.index(a.arg)]
            top = self.c.tracks.maximum
            return f"Move your {title(a.arg)} marker from {level} to {top} (Conjure)"
        if spell == "construct":
            card = self.c.card_by_id[a.arg]
            if verb == "build":
                return self._plain_build(p, card)
            return self._plain_monument(p, card)
        if spell == "rage":
            return (
                f"Make your Worker on {a.arg} count as {self.power} Workers when scoring this "
                f"turn (Rage)"
            )
        if spell == "ship":
            return (
                f"Put a Worker on the Ship space {a.arg}: it scores every area next to its lake "
                f"enclosed from now on (Ship)"
            )
        if spell == "swamp":
            if verb == "skip":
                return "Stop at one Swamp hex"
            if self.spell_hex >= 0:
                return f"Blacken {a.arg} too, next to {self.hex_name(self.spell_hex)} (Swamp)"
            more = " (you may blacken a hex next to it too)" if self.spell_left > 1 else ""
            return f"Blacken {a.arg} as a Swamp: nothing goes there and it closes areas{more}"
        # terrain: a Resource of its dice
        what = f"{'a ' if KINDS.index(verb) == CITY else ''}{title(verb)}"
        return f"Draw {what} on {a.arg} from the Terrain dice (no Worker comes with it)"

    def _use(self, p: int, card: Card) -> str:
        """What a card is for, at ``p``'s costs: its Spell to cast or its Building to build."""
        crystals = amount(self.spell_cost(p, card), "crystal")
        wood = amount(self.build_cost(p, card), "wood")
        return (
            f"its Spell {spell_title(card.spell, card.power)} costs {crystals} to cast, its "
            f"Building {title(card.building)} {wood} to build"
        )

    def _blocking(self, p: int, card: Card) -> str:
        """Whether owning ``card`` makes ``p`` the owner of its whole column (Blocking Cards),
        which closes it to everyone else; nothing to say in solo."""
        if self.solo:
            return ""
        others = [c for c in self.c.cards if c.column == card.column and c is not card]
        if all(self.cards[p][c.index] not in (NONE, CROSSED) for c in others):
            return f"; with it you own all of column {card.column + 1}: nobody else may buy there"
        return ""

    def _academy_words(self, p: int, recycled: int = 0) -> str:
        """The VP ``p``'s Academies score for what is built (less one recycled into it)."""
        vp = self.c.tracks.academy_vp * (self.built(p, "academy") - recycled)
        return f"; your Academy scores {vp} VP" if vp else ""

    def _paying(self, p: int, need: list[int]) -> str:
        """A cost as ``p`` pays it: ``3 Wood``, ``1 Craft and 2 Wood``, and the Crafts that
        stand in for what ``p`` lacks (2 for 1; 1 for 1 with the Market)."""
        tracks = self.tracks[p]
        rate = self.market_rate if self.built(p, "market") else self.craft_rate
        parts = []
        lacking = []
        crafts = 0
        for r in (WOOD, CRYSTAL, GOLD, CRAFT):
            if need[r] <= 0:
                continue
            parts.append(amount(need[r], RESOURCES[r]))
            if r != CRAFT and need[r] > tracks[r]:
                short = need[r] - tracks[r]
                crafts += short * rate
                lacking.append(amount(short, RESOURCES[r]))
        text = " and ".join(parts)
        if crafts:
            text += f" ({amount(crafts, 'craft')} for the {' and '.join(lacking)} you lack)"
        return text

    # -- copies --------------------------------------------------------------------------------
    def clone(self) -> PandoriaState:
        new = PandoriaState(self.game, self.setup, blank=True)
        self._copy_base(new)
        new.c = self.c
        new.mode = self.mode
        new.solo = self.solo
        new.family = self.family
        new.level = self.level
        new.troll_values = self.troll_values
        new.building_cards = self.building_cards
        new.craft_rate = self.craft_rate
        new.market_rate = self.market_rate
        new.board = self.board
        new.empty = self.empty
        new.swamp = self.swamp
        new.scored = self.scored
        new.near = self.near
        new.anchor_extra = self.anchor_extra
        new.zone = self.zone
        new.pre_enclosed = self.pre_enclosed
        new.blocked = self.blocked
        new.guild = self.guild
        new.rooms = self.rooms
        new.open_room = self.open_room
        new.territory = self.territory
        new.vp_start = self.vp_start
        new.troll_gain = self.troll_gain
        new.troll_cards = self.troll_cards
        new.troll_elements = self.troll_elements
        new.troll_parts = self.troll_parts
        new.raged = self.raged
        new.turn = self.turn
        new.round = self.round
        new.phase = self.phase
        new.both_wild = self.both_wild
        new.item = self.item
        new.r1 = self.r1
        new.r2 = self.r2
        new.r1_anchored = self.r1_anchored
        new.touched = self.touched
        new.spell = self.spell
        new.power = self.power
        new.spell_left = self.spell_left
        new.spell_hex = self.spell_hex
        new.free_wood = self.free_wood
        new.rage_hex = self.rage_hex
        new.rage_extra = self.rage_extra
        new.enclosed_now = self.enclosed_now
        new.end_triggered = self.end_triggered
        new._legal = self._legal
        new.only_evaluated = False
        new.bot_areas = self.bot_areas
        new.first_hexes = self.first_hexes
        new.last_enclosed = self.last_enclosed
        new.last_areas = self.last_areas
        new._texts = self._texts
        # immutable: shared
        new.workers = self.workers
        new.held_artifacts = self.held_artifacts
        new.monument_left = self.monument_left
        new.taken = self.taken
        new.used_spells = self.used_spells
        new.finished = self.finished
        new.my_territory = self.my_territory
        new.trolls = self.trolls
        new.troll_columns = self.troll_columns
        new.troll_claims = self.troll_claims
        new.dice = self.dice
        new.ships = self.ships
        new.artifacts = self.artifacts
        new.tracks = self.tracks
        new.vp = self.vp
        new.cards = self.cards
        new.relic_left = self.relic_left
        new.relics_won = self.relics_won
        new.monuments_won = self.monuments_won
        new.held = self.held
        # changed in place: copied
        new.res = self.res
        new.kinds = self.kinds.copy()
        new.tally = self.tally.copy()
        return new

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """Nothing is hidden: the sheets are public and future dice come from the chance."""

    def _history_texts(self) -> tuple[tuple[int, str], ...]:
        """The action log as text, converted once per move (snapshots are taken often)."""
        texts = self._texts
        if len(texts) > len(self.history):
            texts = ()
        if len(texts) < len(self.history):
            texts += tuple((p, str(a)) for p, a in self.history[len(texts) :])
            self._texts = texts
        return texts

    #: the fields :meth:`snapshot` shows as they are (lists and dicts as tuples)
    _PLAIN = (
        "mode",
        "solo",
        "family",
        "level",
        "empty",
        "swamp",
        "scored",
        "near",
        "anchor_extra",
        "zone",
        "pre_enclosed",
        "blocked",
        "guild",
        "rooms",
        "open_room",
        "territory",
        "vp_start",
        "troll_gain",
        "troll_cards",
        "troll_elements",
        "troll_parts",
        "raged",
        "turn",
        "round",
        "phase",
        "both_wild",
        "item",
        "r1",
        "r2",
        "r1_anchored",
        "touched",
        "spell",
        "power",
        "spell_left",
        "spell_hex",
        "free_wood",
        "rage_hex",
        "rage_extra",
        "enclosed_now",
        "end_triggered",
        "kinds",
        "workers",
        "held_artifacts",
        "monument_left",
        "taken",
        "used_spells",
        "finished",
        "my_territory",
        "trolls",
        "troll_columns",
        "troll_claims",
        "dice",
        "ships",
        "artifacts",
    )
    _NESTED = ("tracks", "vp", "relic_left", "relics_won", "monuments_won", "held")

    def snapshot(self) -> dict[str, Any]:
        """Every field, with the long ones as text (cheap to copy and compare)."""
        n = self.num_players
        out: dict[str, Any] = {
            "setup": self.setup.to_dict(),
            "chance": (self.chance.seed, self.chance.draws),
            "history": "\n".join(f"{p} {t}" for p, t in self._history_texts()),
            "res": self.res,
            "cards": tuple("".join(map(str, cards)) for cards in self.cards),
            "tally": tuple(tuple(sorted(self.counts(p).items())) for p in range(n)),
        }
        for key in self._PLAIN:
            value = getattr(self, key)
            if type(value) is list:
                value = tuple(value)
            elif type(value) is dict:
                value = tuple(sorted(value.items()))
            out[key] = value
        for key in self._NESTED:
            out[key] = tuple(tuple(v) for v in getattr(self, key))
        return out
