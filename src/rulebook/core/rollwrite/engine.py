"""The roll-and-write sheet engine, by the sections of the two rulebooks that share it.

Merchants of Magick (``000_ab43b6b995c67bb5.txt``) and its prototype Ye Olde Magick Shoppe
v0.7.2 (``002_b27f334b14e381b8.txt``) play the same round (GAMEPLAY; Round Flow): four dice
rolled; every seat at once spends results on circles of its sheet; the customers claimed when
their rows are complete; the two mastery cards scored; the customers moved on; the game over
after the last round. Each part of the round is a module of functions over the state:

=====================================================  =====================================
Merchants of Magick / Ye Olde Magick Shoppe             module
=====================================================  =====================================
GAMEPLAY / GAME OVERVIEW (the table)                    :mod:`.state`
THE RESOURCE PHASE, END OF GAME / Round Flow            :mod:`.rounds`
THE CRAFTING AND RESEARCH PHASE / HOW TO PLAY (moves)   :mod:`.moves`
CRAFTING, SPELL RESEARCH / Crafting, Spell Research     :mod:`.crafting`
EXTRA DICE / Extra Dice                                 :mod:`.extra_dice`
ORDERS / Customers (claiming)                           :mod:`.customers`
THE MASTERY PHASE / Certifications                      :mod:`.mastery`
THE CUSTOMER PHASE, SOLO VARIANT / Round Flow, Solo     :mod:`.customer_phase`
GAMEPLAY / Round Flow (what each seat sees)             :mod:`.view`
the moves in plain words                                :mod:`.describe`, :mod:`.words`
the steps the rules take on their own, told aloud       :mod:`.aloud`
=====================================================  =====================================

Each game's own rules (GAME SETUP and SETUP, POTIONS and Bonus Modifiers, SPONSORED
ADVENTURERS, END OF GAME and End of the Game and Scoring) are in its package; the bots' fast
lookahead is :mod:`.lookahead`, registered by the games, never imported by the rules.

This module is the table of contents: :class:`SheetState`, the class each game subclasses, is the
table (:class:`~.state.SheetTable`) answering the engine's protocol (the seats to act, the legal
moves, a move made) by the section of the round each question belongs to. It also names the
engine's parts for code that imports them from here.
"""

from __future__ import annotations

from rulebook.core.rollwrite import aloud, crafting, describe, rounds, view
from rulebook.core.rollwrite.customers import draw
from rulebook.core.rollwrite.moves import (
    CRAFTING,
    DONE,
    KNOWN_MOVES,
    OVER,
    Done,
    FreeMark,
    Moves,
    Spend,
)
from rulebook.core.rollwrite.state import EMPTY, C, SheetContent, SheetTable
from rulebook.core.state import Action, Texts, find_move

__all__ = [
    "CRAFTING",
    "DONE",
    "EMPTY",
    "KNOWN_MOVES",
    "OVER",
    "C",
    "Done",
    "FreeMark",
    "Moves",
    "SheetContent",
    "SheetState",
    "SheetTable",
    "Spend",
]


class SheetState(SheetTable[C]):
    """A roll-and-write sheet game: its table (:class:`~.state.SheetTable`), asked the
    engine's protocol and answering by the sections of a round. A game subclasses it and
    supplies only its differences (the table's hooks), its setup, scoring and extra views."""

    #: the sheet as each seat sees it (:mod:`rulebook.core.rollwrite.view`) and the moves in
    #: words (:mod:`rulebook.core.rollwrite.describe`)
    texts = Texts.of(view, describe, aloud=aloud)

    # -- setup ---------------------------------------------------------------------------------
    def _draw(self) -> int:
        """ORDERS, Customers: the top card of the deck (:func:`.customers.draw`)."""
        return draw(self)

    def _start(self) -> None:
        """Call at the end of a game's ``__init__``, once the setup is done: the first round
        begins (THE RESOURCE PHASE, :func:`.rounds.start_round`)."""
        rounds.start_round(self)

    # -- the protocol, by the sections of a round ----------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        """GAMEPLAY, Round Flow (:func:`.rounds.current_players`)."""
        return rounds.current_players(self)

    def is_terminal(self) -> bool:
        """END OF GAME, End of the Game and Scoring (:func:`.rounds.end_crafting`)."""
        return self.phase == OVER

    def legal_actions(self, player: object) -> list[Action]:
        """THE CRAFTING AND RESEARCH PHASE (:func:`.crafting.legal_actions`)."""
        return crafting.legal_actions(self, player)

    def parse_action(self, player: int, text: str) -> Action:
        return find_move(self.moves.by_text, text, self.moves.examples)

    def action_vocabulary(self) -> tuple[Action, ...]:
        return self.moves.vocabulary

    def pending_moves(self) -> int:
        return rounds.pending_moves(self)

    def _apply(self, player: int, action: Action) -> None:
        """Checked as it is made: :func:`~rulebook.core.rollwrite.crafting.act` raises before
        changing anything."""
        self._perform(player, action)

    def _perform(self, player: int, action: Action) -> None:
        """A seat's move in the simultaneous phase, made as :meth:`apply` makes it (search's
        moves too: :func:`~rulebook.core.rollwrite.crafting.act` checks only the move itself,
        not the seat or the turn, which :meth:`apply` checks); when it ends the seat's phase,
        :func:`~rulebook.core.rollwrite.rounds.finish`."""
        if self._origin is None and self.num_players > 1 and self.phase == CRAFTING:
            # the table as the crafting began: what the other seats see of this seat until all
            # are done (the phase is simultaneous: nobody waits to see another's choices)
            self._origin = self.clone()
            self._origin_len = len(self.history)
        if crafting.act(self, player, action):
            rounds.finish(self, player)

    # -- the move in plain words (:mod:`rulebook.core.rollwrite.describe`) ---------------------
    def menu_place(self, player: int, action: Action) -> tuple[str, str, int]:
        return describe.menu_place(self, player, action)
