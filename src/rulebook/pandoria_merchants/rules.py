"""Pandoria Merchants (rulebook ``003_85552cb3b950eabe.txt``): the game's table of contents,
the Player turn that steps through the sections and dispatches each move to its own.

Player turn: 1. Roll 2 Resource Dice, 2. Draw 2 Resources and one Worker on the Map, 3. Spell,
Building, Relic or Monument?, 4. Score any Enclosed Areas, 5. Buy a Card. :class:`PandoriaState`
steps through a turn (:meth:`_enter`) and hands each move to its section (:meth:`_options`,
:meth:`_do`); it derives from the sheets' fields
(:class:`~rulebook.pandoria_merchants.state.PandoriaSheets`: Preparation), and each section is
its own module, functions over them:

* :mod:`~rulebook.pandoria_merchants.dice` (1.), :mod:`~rulebook.pandoria_merchants.drawing`
  (2.), :mod:`~rulebook.pandoria_merchants.actions` (3.),
  :mod:`~rulebook.pandoria_merchants.buildings` (3.2, 3.4, Building Index),
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
from typing import Any, cast

from rulebook.core import Action, Game, IllegalAction, Setup
from rulebook.core.state import Texts
from rulebook.pandoria_merchants import (
    actions,
    aloud,
    buildings,
    buying,
    dice,
    drawing,
    family,
    final_score,
    scoring,
    solo,
    spells,
    view,
    words,
)
from rulebook.pandoria_merchants.board import Board
from rulebook.pandoria_merchants.moves import PASS, Move, move, parse_move
from rulebook.pandoria_merchants.state import PandoriaSheets
from rulebook.pandoria_merchants.terms import (
    ACTION,
    BRIDGE,
    BUY,
    CLAIM,
    DRAW,
    OVER,
    SETUP,
    SPELL,
    TROLL_COLUMN,
    TROLL_ELEMENT,
    WILD,
)
from rulebook.pandoria_merchants.vocabulary import vocabulary_of


class PandoriaState(PandoriaSheets):
    """A game of Pandoria Merchants: standard (2-4), family (2-4) or solo (1, vs the Trolls)."""

    #: what the table shows (:mod:`rulebook.pandoria_merchants.view`) and the moves in plain
    #: words (:mod:`rulebook.pandoria_merchants.words`)
    texts = Texts.of(view, words, aloud=aloud)

    # -- Preparation ---------------------------------------------------------------------------
    def __init__(
        self, game: Game, setup: Setup, board: Board | None = None, blank: bool = False
    ) -> None:
        """Preparation (the sheets: :class:`PandoriaSheets`), then each player "chooses one
        starting "card" [...] for free" (family: no starting card, the first turn begins);
        ``blank``: nothing set (for :meth:`clone`)."""
        super().__init__(game, setup, board, blank)
        if blank:
            return
        if self.family:
            self._begin_turn()
        else:
            self._enter(SETUP)

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
        """1. Roll 2 Resource Dice (:func:`dice.roll`): a "?" is chosen next
        (:func:`dice.wild_options`), else 2."""
        dice.roll(self)
        self._enter(WILD if -1 in self.dice else DRAW)

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
            return dice.wild_options(self)
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
            dice.choose(self, a.arg)
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

    def _resample_hidden(self, player: int, rng: random.Random | None) -> None:
        """Nothing is hidden (Components needed: every sheet is public); future dice come from
        the chance."""

    def snapshot(self) -> dict[str, Any]:
        """Every field, with the long ones as text (:func:`view.snapshot`)."""
        return view.snapshot(self)
