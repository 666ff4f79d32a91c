"""Components needed: a game of Pandoria Merchants as its sheets hold it (the Map sheet, each
seat's Realm sheet, the Trolls' solo) and the turn under way, as Preparation sets them.

Preparation: "Each player takes a Realm sheet", crosses out "the indicated Relics & Monuments
according to player count" and "sets all Resource markers to "1"". :class:`PandoriaSheets`
holds those fields (which are replaced whole and shared by clones, which change in place and
are copied) and the small reads and writes every section makes of them; it imports no section.
Each section of the rulebook is a module of functions over it
(:mod:`~rulebook.pandoria_merchants.drawing`, :mod:`~rulebook.pandoria_merchants.actions`...),
and the game, :class:`~rulebook.pandoria_merchants.rules.PandoriaState`, derives from it: the
Player turn that steps through the sections, and the state protocol.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping

from rulebook.core import Action, Chance, Game, Setup, State
from rulebook.pandoria_merchants.board import KINDS, Board
from rulebook.pandoria_merchants.content import Card, Content, content
from rulebook.pandoria_merchants.moves import Move
from rulebook.pandoria_merchants.terms import (
    BUILT,
    FAMILY_VP,
    NONE,
    SETUP,
    STANDARD_VP,
    TALLY,
    Row,
    replaced,
    sum_of,
)


class Memo:
    """The tables the clones of one game share: worked out once, read position after position
    (search lists the same turns again and again). Each is bounded where it is filled."""

    def __init__(self) -> None:
        #: :func:`drawing.first_hexes` by free hexes and anchor
        self.first_hexes: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        #: :func:`scoring.enclosed` of the last position asked for
        self.last_enclosed: dict[tuple[int, ...], list[tuple[int, int, int]]] = {}
        #: what a search of the game keeps beside it, shared by the clones the same way (the
        #: bots' tables: :class:`rulebook.pandoria_merchants.bots.Tables`); the rules never
        #: read it
        self.search: object = None


class PandoriaSheets(State):
    """The fields of a game of Pandoria Merchants (standard, family or solo): the Map sheet, the
    Realm sheets, the Trolls' (solo) and the turn under way. The game,
    :class:`~rulebook.pandoria_merchants.rules.PandoriaState`, derives from it and supplies the
    Player turn's steps the sections go on to (:meth:`_enter`...)."""

    c: Content
    board: Board
    _legal: list[Move] | None
    memo: Memo
    # the base class's fields, declared here too: compiled, the class then keeps them in its own
    # slots rather than in a dict per state (a clone made and dropped no longer makes one)
    game: Game
    setup: Setup
    chance: Chance
    history: list[tuple[int, Action]]
    determinized: bool

    # -- Preparation ---------------------------------------------------------------------------
    def __init__(
        self, game: Game, setup: Setup, board: Board | None = None, blank: bool = False
    ) -> None:
        """Preparation: the sheets of a new game, before anyone chooses a starting card;
        ``blank``: nothing set (for ``clone``: compiled, the class runs ``__init__`` in
        ``__new__``)."""
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
        #: the tables clones share (:class:`Memo`)
        self.memo = Memo()
        #: the action log as text (what ``snapshot`` shows), as far as it was needed (shared by
        #: clones: never changed)
        self._texts: tuple[tuple[int, str], ...] = ()

    # -- the Realm sheet and the Map sheet, as every section reads and writes them ----------
    def hex_name(self, h: int) -> str:
        """The Map sheet's name of hex ``h`` (``C7``)."""
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

    def vp_total(self, p: int) -> int:
        """The VP in ``p``'s Crown space."""
        return sum_of(self.vp[p])

    def _count(self, p: int, key: int, by: int = 1) -> None:
        """Count ``by`` more of :data:`TALLY`'s ``key`` for ``p``."""
        self.tally[p * len(TALLY) + key] += by

    def counts(self, p: int) -> dict[str, int]:
        """What the lab has counted of ``p`` so far, by :data:`TALLY`'s names (none at 0)."""
        at = p * len(TALLY)
        return {key: n for key, n in zip(TALLY, self.tally[at : at + len(TALLY)], strict=True) if n}

    def _hex(self, action: Move) -> int:
        """The hex a move names."""
        return self.board.index[action.arg]

    def _card(self, action: Move) -> Card:
        """The card a move names."""
        return self.c.card_by_id[action.arg]

    # -- the Player turn, as the sections go on through it (the game supplies it) --------------
    @abstractmethod
    def _enter(self, phase: str) -> None:
        """Player turn: go to step ``phase`` (steps with nothing to choose resolve by
        themselves)."""

    @abstractmethod
    def _after_action(self) -> None:
        """Player turn: after 3., on to 4. Score any Enclosed Areas and 5. Buy a Card."""

    @abstractmethod
    def _game_over(self) -> None:
        """End of Game and Final Score: no one moves any more."""

    @abstractmethod
    def _legal_moves(self) -> list[Move]:
        """The moves of the step now (listed once per position)."""

    # -- copies --------------------------------------------------------------------------------
    def copy_into(self, new: PandoriaSheets) -> None:
        """Make ``new``, a state made ``blank``, a copy of this one: what changes in place is
        copied, the immutable values and the tables (:class:`Memo`) are shared."""
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
        new.memo = self.memo
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
