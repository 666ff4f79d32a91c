"""Pandoria Merchants (rulebook ``003_85552cb3b950eabe.txt``): the state, its Preparation and
the Player turn that steps through the sections.

Preparation: "Each player takes a Realm sheet", crosses out "the indicated Relics & Monuments
according to player count", "sets all Resource markers to "1"" and "chooses one starting
"card" [...] for free". Player turn: 1. Roll 2 Resource Dice, 2. Draw 2 Resources and one
Worker on the Map, 3. Spell, Building, Relic or Monument?, 4. Score any Enclosed Areas, 5. Buy
a Card. :class:`PandoriaState` holds the sheets and steps through a turn (:meth:`_enter`,
:meth:`_do`); each section is its own module, functions over the state:

* :mod:`~rulebook.pandoria_merchants.drawing` (2.), :mod:`~rulebook.pandoria_merchants.actions`
  (3.), :mod:`~rulebook.pandoria_merchants.buildings` (3.2, 3.4, Building Index),
  :mod:`~rulebook.pandoria_merchants.spells` (Spell Index),
  :mod:`~rulebook.pandoria_merchants.scoring` (4.), :mod:`~rulebook.pandoria_merchants.buying`
  (5.), :mod:`~rulebook.pandoria_merchants.final_score` (End of Game and Final Score);
* :mod:`~rulebook.pandoria_merchants.family` (FAMILY VERSION),
  :mod:`~rulebook.pandoria_merchants.solo` (SOLO VERSION);
* the sheets' terms (:mod:`~rulebook.pandoria_merchants.terms`), the moves
  (:mod:`~rulebook.pandoria_merchants.moves`), what the table shows
  (:mod:`~rulebook.pandoria_merchants.view`, :mod:`~rulebook.pandoria_merchants.words`).

Rules decisions where the text is silent are marked ``Decision:`` and listed in
docs/pandoria-merchants.md. The bots' evaluation and lookahead are not here (``bots.py``,
``lookahead.py``): the game package registers them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from rulebook.core import Action, Chance, Game, IllegalAction, Setup, State
from rulebook.core.state import Texts
from rulebook.pandoria_merchants import (
    actions,
    aloud,
    buildings,
    buying,
    drawing,
    family,
    final_score,
    scoring,
    solo,
    spells,
    view,
    words,
)
from rulebook.pandoria_merchants.board import KINDS, Board
from rulebook.pandoria_merchants.content import Card, Content, content
from rulebook.pandoria_merchants.moves import PASS, Move, move, parse_move
from rulebook.pandoria_merchants.terms import (
    ACTION,
    BRIDGE,
    BUILT,
    BUY,
    CLAIM,
    DRAW,
    FAMILY_VP,
    NONE,
    OVER,
    SETUP,
    SPELL,
    STANDARD_VP,
    TALLY,
    TROLL_COLUMN,
    TROLL_ELEMENT,
    WILD,
    Row,
    replaced,
    sum_of,
)
from rulebook.pandoria_merchants.vocabulary import vocabulary_of


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


class PandoriaState(State):
    """A game of Pandoria Merchants: standard (2-4), family (2-4) or solo (1, vs the Trolls)."""

    #: what the table shows (:mod:`rulebook.pandoria_merchants.view`) and the moves in plain
    #: words (:mod:`rulebook.pandoria_merchants.words`)
    texts = Texts.of(view, words, aloud=aloud)

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
        """Preparation: a new game set up; ``blank``: nothing set (for :meth:`clone`: compiled, the
        class runs ``__init__`` in ``__new__``)."""
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
        if self.family:
            self._begin_turn()
        else:
            self._enter(SETUP)

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

    # -- Player turn ---------------------------------------------------------------------------
    def _enter(self, phase: str) -> None:
        """Player turn: go to step ``phase``; steps with nothing to choose resolve by
        themselves."""
        while True:
            self.phase = phase
            self._legal = None
            if phase == DRAW and self.item == 0 and drawing.first_candidates(self):
                return  # there are first Resources to draw: listed when asked for
            options = self._choices()
            if phase == ACTION and options == [PASS]:
                self._after_action()
                return
            if phase == BUY and options == [PASS]:
                self._end_turn()
                return
            if options:
                self._offer(options)
                return
            if phase == DRAW:
                self.tell("forfeited")
                self.item += 1
                if self.item > 2:
                    drawing.finish_draw(self)
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
                solo.close_territory(self)
                return
            if phase == BRIDGE:
                self._game_over()
                return
            raise AssertionError(f"no move in phase {phase}")  # pragma: no cover

    def _choices(self) -> list[Move]:
        """Player turn: the moves of the step :meth:`_enter` has just entered, as far as it
        needs them to decide whether the step has a choice."""
        return self._options()

    def _offer(self, options: list[Move]) -> None:
        """Player turn: the step entered has a choice, ``options`` (from :meth:`_choices`):
        they are the legal moves."""
        self._legal = options

    def _begin_turn(self) -> None:
        """Player turn: a new turn begins with 1. Roll 2 Resource Dice (after checking that
        anything can be drawn at all).

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
        if not drawing.anchor_hexes(self):
            self.tell("nothing_to_draw", self.end_triggered)
            self.end_triggered = True
            self._enter(ACTION)
            return
        self._roll()

    def _roll(self) -> None:
        """1. Roll 2 Resource Dice: a "?" is chosen next (:meth:`_wild_options`), else 2."""
        faces = self.c.faces
        rolled = self.chance.roll((len(faces), len(faces)))
        self.dice = (faces[rolled[0] - 1], faces[rolled[1] - 1])
        self.both_wild = self.dice == (-1, -1)
        self.tell("rolled")
        self._enter(WILD if -1 in self.dice else DRAW)

    def _wild_options(self) -> list[Move]:
        """1. Roll 2 Resource Dice: "If you roll a "?" you can choose any Resource, but not the
        one on the other die. If you roll two "?", you may choose the same Resource for both
        dice." (The Terrain Spell's dice too.)"""
        dice = self.dice
        others = [d for d in dice if d >= 0]
        allowed = [k for k in range(len(KINDS)) if self.both_wild or k not in others]
        return [move("choose", KINDS[k]) for k in allowed]

    def _after_action(self) -> None:
        """Player turn: 4. Score any Enclosed Areas, then 5. Buy a Card (family: 5. Spell
        Archive; solo: "only buy a card after you enclose at least 2 areas in one turn")."""
        scoring.score_enclosed_areas(self)
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
        """Player turn, its end: the Poorhouse, then End of Game and Final Score's check ("the
        round is played to its conclusion") and the next player (solo: Territory is
        finished)."""
        p = self.turn
        if self.raged:  # shown for the rest of the turn it was cast and for the next turn
            self.raged = () if self.raged[3] else (*self.raged[:3], 1)
        buildings.poorhouse(self, p)
        if self.solo:
            if drawing.full_turn_fits(self):
                self._begin_turn()
            else:
                solo.finish_territory(self)
            return
        ended = self.end_triggered
        if self.pre_enclosed >= self.c.end_needed[self.num_players]:
            self.end_triggered = True
        if self.family and family.level3_exhausted(self):
            self.end_triggered = True
        if self.end_triggered and not ended:
            self.tell("end_near")
        if self.end_triggered and p == self.num_players - 1:
            self._game_over()
            return
        self.turn = (p + 1) % self.num_players
        if self.turn == 0:
            self.round += 1
        self._begin_turn()

    def _game_over(self) -> None:
        """End of Game and Final Score: no one moves any more."""
        self.phase = OVER
        self._legal = []
        self.tell("game_over")

    def _options(self, one: bool = False) -> list[Move]:
        """Player turn: the moves of the step now; ``one``: in 3. and 5., stop at the first
        move besides ``pass`` (enough to tell whether there is any)."""
        phase = self.phase
        p = self.turn
        if phase == SETUP:
            return [move("start", self.c.cards[i].id) for i in self.c.starting]
        if phase == WILD:
            return self._wild_options()
        if phase == DRAW:
            return drawing.draw_options(self)
        if phase == ACTION:
            return actions.action_options(self, p, one)
        if phase == SPELL:
            return spells.spell_options(self, p)
        if phase == BUY:
            return [] if self.family else buying.buy_options(self, p, one)
        if phase == CLAIM:
            return family.claim_options(self)
        if phase == TROLL_COLUMN:
            return solo.column_options(self)
        if phase == TROLL_ELEMENT:
            return solo.element_options(self)
        if phase == BRIDGE:
            return solo.bridge_options(self)
        return []

    def _do(self, p: int, a: Move) -> None:
        """Player turn: make move ``a`` of the step now (each section makes its own)."""
        phase = self.phase
        if phase == SETUP:
            buying.own(self, p, self._card(a))
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
            drawing.draw(self, p, a)
        elif phase == ACTION:
            actions.act(self, p, a)
        elif phase == SPELL:
            spells.do_spell(self, p, a)
        elif phase == BUY:
            if a.verb == "buy":
                buying.buy(self, p, self._card(a))
            self._end_turn()
        elif phase == CLAIM:
            family.claim(self, p, a.arg)
            self._end_turn()
        elif phase == TROLL_COLUMN:
            solo.troll_column(self, int(a.arg.split("-")[1]) - 1)
            self._enter(TROLL_ELEMENT)
        elif phase == TROLL_ELEMENT:
            solo.troll_claim(self, a.arg)
            solo.close_territory(self)
        elif phase == BRIDGE:
            solo.cross_bridge(self, self._hex(a))
            self._begin_turn()

    def _hex(self, action: Move) -> int:
        """The hex a move names."""
        return self.board.index[action.arg]

    def _card(self, action: Move) -> Card:
        """The card a move names."""
        return self.c.card_by_id[action.arg]

    # -- the protocol --------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.turn,)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = self._options()
        return self._legal

    def legal_actions(self, player: object) -> list[Action]:
        if self.phase == OVER or type(player) is not int or player != self.turn:
            return self.no_moves(player)
        return list(self._legal_moves())

    def action_vocabulary(self) -> tuple[Action, ...]:
        """Every move of this configuration (:mod:`rulebook.pandoria_merchants.vocabulary`)."""
        return vocabulary_of(self.board, self.mode, self.num_players)

    def parse_action(self, player: int, text: str) -> Action:
        return parse_move(text)

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

    # -- End of Game and Final Score (:mod:`rulebook.pandoria_merchants.final_score`) ---------
    def score_breakdown(self, player: int) -> dict[str, int]:
        return final_score.score_breakdown(self, player)

    def score(self, player: int) -> int:
        """A seat's score now (:func:`final_score.score`)."""
        return final_score.score(self, player)

    def scores(self) -> list[int]:
        return [final_score.score(self, p) for p in range(self.num_players)]

    def tiebreak(self, player: int) -> tuple[int, ...]:
        return final_score.tiebreak(self, player)

    def tiebreak_labels(self) -> tuple[str, ...]:
        return ("most unused Spells",) if self.family else ("highest Monument built",)

    def winners(self) -> list[int]:
        """Standard and family: most VP, then the tie-breaker; solo: beating the Trolls
        (:func:`final_score.solo_beats_the_trolls`), else no one is named the winner."""
        if self.solo:
            return [0] if final_score.solo_beats_the_trolls(self) else []
        return super().winners()

    def solo_won(self) -> bool:
        """Solo: whether the game is over and the player beat the Trolls."""
        return self.is_terminal() and self.winners() == [0]

    def troll_table(self) -> list[int]:
        """Solo: the Trolls' table (:func:`solo.troll_table`)."""
        return solo.troll_table(self)

    def trolls_total(self) -> int:
        """Solo: Victory Points for the Trolls so far (:func:`solo.trolls_total`)."""
        return solo.trolls_total(self)

    def opponent_breakdown(self) -> dict[str, int]:
        return solo.opponent_breakdown(self)

    def score_notes(self) -> dict[str, str]:
        return final_score.score_notes(self)

    # -- copies --------------------------------------------------------------------------------
    def clone(self) -> PandoriaState:
        new = PandoriaState(self.game, self.setup, blank=True)
        self.copy_into(new)
        return new

    def copy_into(self, new: PandoriaState) -> None:
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

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """Nothing is hidden (Components needed: every sheet is public); future dice come from
        the chance."""

    def snapshot(self) -> dict[str, Any]:
        """Every field, with the long ones as text (:func:`view.snapshot`)."""
        return view.snapshot(self)
