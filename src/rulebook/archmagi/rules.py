"""Archmagi's Player Turn: the state of a game and the order of its phases
(rulebook ``004_df6d88d5c0362155.txt``).

PLAYER TURN: "There are 4 Phases to each Turn. After all 4 Phases of your turn are finished,
the player to your left starts their Turn." This module is the table of contents: the table
itself (every pile, Hand and Crystal) is :class:`~rulebook.archmagi.state.Table`, and
:class:`ArchmagiState` steps it through the Draw, Play, Monster and Discard Phases, handing each
move to its section (:mod:`rulebook.archmagi.phases`, :mod:`rulebook.archmagi.monsters`). Every
Action is a list of symbols run left to right by a small stack machine
(:meth:`ArchmagiState._run`; the symbols in :mod:`rulebook.archmagi.actions`): a symbol that
needs a decision (which Spell to discard, plant, uproot, take or put back, whether to use a "you
may") stops the machine and the deciding seat becomes :meth:`ArchmagiState.current_players`.
The Flow of Magic is such a decision (:mod:`rulebook.archmagi.flow`): when a Spell of an element
is discarded by another player, that element's Magi is offered ``take X`` / ``pass`` at that
moment, and play resumes afterwards.

The other sections, each in its module: Setup (:mod:`~rulebook.archmagi.setup`), End of Round
(:mod:`~rulebook.archmagi.rounds`), Spells and the Symbols Guide's words
(:mod:`~rulebook.archmagi.symbols`), what each seat sees (:mod:`~rulebook.archmagi.view`).
Rules decisions where the text is silent are marked ``Decision:`` and listed in
docs/archmagi.md.
"""

from __future__ import annotations

import random
from typing import Any, cast

from rulebook.archmagi import actions, aloud, flow, monsters, phases, view
from rulebook.archmagi.content import content
from rulebook.archmagi.moves import (
    INPUT,
    MONSTER,
    OVER,
    PLAY,
    Move,
    Task,
    listed,
    moves,
)
from rulebook.archmagi.rounds import drafts_as_draws
from rulebook.archmagi.setup import set_up
from rulebook.archmagi.state import Table
from rulebook.core import Action, Game, IllegalAction, Setup, find_move
from rulebook.core.chance import reorder
from rulebook.core.state import Texts, log_texts


class ArchmagiState(Table):
    """A game of Archmagi for 2-4 players: the table (:class:`~rulebook.archmagi.state.Table`,
    its fields) with the game's protocol, each move dispatched to its section."""

    #: what each seat sees and the moves in words (:mod:`rulebook.archmagi.view`)
    texts = Texts.of(view, aloud=aloud)

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        """A new game set up (SETUP, then the first player's Draw Phase); ``blank``: nothing
        set (for :meth:`clone`; the class may be compiled, where ``__new__`` runs
        ``__init__``)."""
        if blank:
            return
        super().__init__(game, setup)
        self.content = content()
        self.moves = moves()
        self._texts = ()
        set_up(self)
        phases.start_turn(self, 0)
        self._run()

    # -- the stack machine (PLAYER TURN; ADDITIONAL RULES CLARIFICATIONS: left to right) -------
    def _ready(self, task: Task) -> bool:
        """Whether an input task waits for a decision now (else :func:`actions.settle` resolves
        it): :func:`actions.waits` of this position."""
        kind, p, n, data = task
        return actions.waits(
            kind,
            n,
            data,
            self.crystals[p],
            len(self.hands[p]),
            len(self.planted[p]),
            len(self.books[p]),
            len(self.looking),
            self.magi_specs[p].free_flow,
            drafts_as_draws(self),
            self.content.rules.hand_limit,
        )

    def _run(self) -> None:
        """Resolve the stack until a seat must decide, then the phases that need no one: the
        Play Phase ends when no Play is left, the Monster Phase when no Monster can be paid for,
        the Discard Phase with the turn (PLAYER TURN)."""
        stack = self.stack  # never replaced while a move is made
        while self.phase != OVER:
            if stack:
                task = stack[-1]
                kind, p, n, data = task
                if kind in INPUT:
                    if self._ready(task):
                        return
                    stack.pop()
                    actions.settle(self, task)
                    continue
                stack.pop()
                if kind == "seq":
                    if n < len(data):
                        stack.append(("seq", p, n + 1, data))
                        actions.effect(self, p, data[n])
                elif kind == "monster":
                    self.phase = MONSTER
                elif kind == "discard_phase":
                    phases.discard_phase(self, p)
                elif kind == "end":
                    phases.end_turn(self, p)
                continue
            if self.phase == PLAY:
                if self.plays > 0:
                    return
                stack.append(("monster", self.turn, 0, None))
            elif self.phase == MONSTER:
                t = self.turn
                if monsters.can_defeat(self, self.crystals[t], len(self.hands[t])):
                    return
                stack.append(("discard_phase", self.turn, 0, None))
            else:  # pragma: no cover - the Discard Phase always ends in an "end" task
                raise RuntimeError("the Discard Phase left no task")

    # -- the protocol --------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.stack:
            return (self.stack[-1][1],)
        return (self.turn,)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, player: object) -> list[Action]:
        """A decision's choices (:func:`actions.choices`), else the Monster Phase's
        (:func:`monsters.options`) or the Play Phase's Plays (:func:`phases.plays`)."""
        if self.phase == OVER or type(player) is not int or player not in self.current_players():
            return self.no_moves(player)
        if self.stack:
            return actions.choices(self, self.stack[-1])
        if self.phase == MONSTER:
            return monsters.options(self)
        return phases.plays(self)

    def parse_action(self, player: int, text: str) -> Action:
        return find_move(
            self.moves.by_text,
            text,
            "'draw', 'top Ember', 'bottom Ember', "
            "'defeat Troll', 'discard Ember', 'take Ember', 'pass' or 'end'",
        )

    def action_vocabulary(self) -> tuple[Action, ...]:
        return self.moves.vocabulary

    def _apply(self, player: int, action: Action) -> None:
        """A move checked: an Archmagi move, legal now (core's ``apply`` checked the seat)."""
        if (
            type(action) is not Move
            or not isinstance(action.verb, str)
            or not isinstance(action.card, str)
        ):
            raise IllegalAction(f"{action!r} is not an Archmagi move")
        moves = self.moves
        known = (
            moves.named.get(action.verb, {}).get(action.card)
            if action.card
            else moves.plain.get(action.verb)
        )
        if known is None or not listed(known, self.legal_actions(player)):
            raise IllegalAction(f"{action} is not a legal move now")
        self._perform(player, known)

    def _perform(self, player: int, action: Action) -> None:
        """A legal move made (PLAYER TURN): the decision the stack waits for (FLOW OF MAGIC, or
        a symbol's: :func:`actions.decide`), else a Monster defeated or not (MONSTER PHASE),
        else a Play (PLAY PHASE); then the stack runs to the next decision."""
        move = cast(Move, action)
        if self.stack:
            task = self.stack.pop()
            if task[0] in ("flow", "pay"):
                flow.decide(self, player, move, task[0], task[3])
            else:
                actions.decide(self, player, move, task)
        elif self.phase == MONSTER:
            monsters.defeat(self, player, move)
        else:
            phases.play(self, player, move)
        self._run()

    # -- scoring (END OF ROUND 4: "The player with the most Favor Points wins!") -----------------
    def favor(self, player: int) -> int:
        """The Favor Points of the Monsters ``player`` defeated (:func:`monsters.favor`)."""
        return monsters.favor(self, player)

    def score_breakdown(self, player: int) -> dict[str, int]:
        """The Favor Points of the Monsters a seat defeated (the only scoring of the game)."""
        return {"favor": self.favor(player)}

    def score_notes(self) -> dict[str, str]:
        """What the Favor Points count (MONSTERS, Favor Points)."""
        return {
            "favor": "the Favor Points printed on each Monster you defeated, added up "
            "(the only way to score)"
        }

    def scores(self) -> list[int]:
        return [self.favor(p) for p in range(self.num_players)]

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """Decision: the text gives no tie-breaker; tied players share the victory."""
        return ()

    # -- copies and hidden information ---------------------------------------------------------
    def clone(self) -> ArchmagiState:
        new = ArchmagiState(self.game, self.setup, blank=True)
        self._copy_base(new)
        new.content = self.content
        new.moves = self.moves
        new.magi = self.magi
        new.magi_specs = self.magi_specs
        new.seat_of = self.seat_of
        new.round = self.round
        new.final = self.final
        new.phase = self.phase
        new.turn = self.turn
        new.plays = self.plays
        new.pool = self.pool.copy()
        new.discard = self.discard.copy()
        new.exhausted = self.exhausted.copy()
        new.books = [b.copy() for b in self.books]
        new.hands = [h.copy() for h in self.hands]
        new.planted = [x.copy() for x in self.planted]
        new.play_area = self.play_area.copy()
        new.looking = self.looking.copy()
        new.crystals = self.crystals.copy()
        new.tally = self.tally.copy()  # their dicts are replaced, never changed (_count)
        new.trophies = [t.copy() for t in self.trophies]
        new.monster_decks = [d.copy() for d in self.monster_decks]
        new.paths = [x.copy() for x in self.paths]
        new.stack = self.stack.copy()
        new._texts = self._texts
        return new

    def _resample_hidden(self, player: int, rng: random.Random | None) -> None:
        """Reshuffle what ``player`` cannot see: the Magic Pool together with the other Hands
        and the Spells another seat's Search looks at (sizes kept), the Spell Books (the
        viewer's own not while they look at its top) and the Monster decks."""
        others = [p for p in range(self.num_players) if p != player]
        # the Spells another seat's Search looks at are as unknown as the rest of the Pool
        searcher = next((t[1] for t in self.stack if t[0] in ("search", "return")), player)
        looking = self.looking if searcher != player else []
        unknown = self.pool + looking + [c for p in others for c in self.hands[p]]
        reorder(unknown, rng)
        for p in others:
            k = len(self.hands[p])
            self.hands[p] = unknown[:k]
            del unknown[:k]
        if looking:
            k = len(looking)
            self.looking = unknown[:k]
            del unknown[:k]
        self.pool = unknown
        looking_own = any(t[0] == "look" and t[1] == player for t in self.stack)
        for p, book in enumerate(self.books):
            if p != player or not looking_own:
                reorder(book, rng)
        for deck in self.monster_decks:
            reorder(deck, rng)

    def _history_texts(self) -> list[tuple[int, str]]:
        """The action log as text, converted once per move (snapshots are taken often)."""
        self._texts = log_texts(self._texts, self.history)
        return list(self._texts)

    def snapshot(self) -> dict[str, Any]:
        return {
            "setup": self.setup.to_dict(),
            "chance": (self.chance.seed, self.chance.draws),
            "history": self._history_texts(),
            "magi": self.magi.copy(),
            "round": self.round,
            "final": self.final,
            "phase": self.phase,
            "turn": self.turn,
            "plays": self.plays,
            "pool": self.pool.copy(),
            "discard": self.discard.copy(),
            "exhausted": self.exhausted.copy(),
            "books": [b.copy() for b in self.books],
            "hands": [h.copy() for h in self.hands],
            "planted": [x.copy() for x in self.planted],
            "play_area": self.play_area.copy(),
            "looking": self.looking.copy(),
            "crystals": self.crystals.copy(),
            "tally": [t.copy() for t in self.tally],
            "trophies": [t.copy() for t in self.trophies],
            "monster_decks": [d.copy() for d in self.monster_decks],
            "paths": [x.copy() for x in self.paths],
            "stack": [
                (k, p, n, [e.text() for e in d] if k in ("seq", "may") else d)
                for k, p, n, d in self.stack
            ],
        }
