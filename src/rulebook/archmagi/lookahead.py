"""Greedy's one-step lookahead in Archmagi: moves valued without being made.

:func:`rulebook.archmagi.bots.evaluate` reads a seat's Favor, Crystals, Hand, Planted Spells,
drafted Spells and Plays, the size of the Magic Pool and whose turn it is: counts. A move
changes them by the stack machine of :mod:`rulebook.archmagi.rules` (PLAYER TURN; the symbols
in :mod:`rulebook.archmagi.actions`) until a seat must decide. :class:`Counts` runs that
machine on the counts alone: the move (a Play, a Monster defeated or passed, a decision:
Discard, Plant, Uproot, Search, Look, Draft, "you may", the Flow of Magic and its payment),
then the symbols that follow (Gain and Spend Crystals through the rules' own ``gainable``,
Draw, Plays, and the symbols that push a decision), each decision asked of the rules' own
``waits`` (resolved as :func:`rulebook.archmagi.actions.settle` does when it does not wait),
the Monster Phase (:func:`rulebook.archmagi.monsters.can_defeat`), the Discard Phase with its
Flow of Magic offers (the rules' ``flows_to``) and hand limit, and the next turn's Draw Phase
and start-of-turn symbols (:func:`rulebook.archmagi.phases.turn_start_tasks`), up to the next
decision; then it values the counts with :func:`rulebook.archmagi.bots.prospects`, the
evaluation's own sum (the same values, bit for bit).

A move whose effects reach what the counts do not follow is made on a clone and evaluated, as
the generic :meth:`rulebook.core.State.lookahead` does: the Magic Pool running out (the Round
ends: a new Pool is shuffled), and the next turn of the Flora Magi when a Spell was planted or
uprooted meanwhile (its Planted Spells perform their Bottom Actions).
``tests/test_speed.py`` holds this to the generic lookahead on many positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.archmagi import bots
from rulebook.archmagi.actions import gainable, waits
from rulebook.archmagi.content import MagiSpec
from rulebook.archmagi.flow import flows_to
from rulebook.archmagi.monsters import can_defeat
from rulebook.archmagi.moves import DISCARD, INPUT, MONSTER, PLAY, Move, Task
from rulebook.archmagi.phases import turn_start_tasks
from rulebook.archmagi.rules import ArchmagiState
from rulebook.archmagi.symbols import Effect, Spell
from rulebook.core import Action


def lookahead(s: ArchmagiState, player: int, actions: Sequence[Action]) -> list[float]:
    """``bots.evaluate`` after each of ``actions`` (legal moves of ``player`` now)."""
    start = Counts(s, player)
    values = []
    for action in actions:
        value = start.copy().value_after(action) if type(action) is Move else None
        values.append(_made(s, player, action) if value is None else value)
    return values


def _made(s: ArchmagiState, player: int, action: Action) -> float:
    """The evaluation after ``action`` made on a clone (the generic lookahead's way)."""
    after = s.clone()
    after.apply_legal(player, action)
    return bots.evaluate(after, player)


class Counts:
    """What the evaluation of seat ``p`` reads of a position, and what the stack machine needs
    to go on: every seat's Crystals, Spells in Hand, Planted Spells and Spell Book by number,
    the Magic Pool's and the looked-at Spells' sizes, the stack, the Play Area's Spells, whose
    turn and phase it is and the Plays left."""

    s: ArchmagiState
    p: int
    #: the evaluation's weights of this Round, and the Spell Book's size (never changed here)
    w: tuple[float, ...]
    book_size: int
    #: what the rules read that no move here changes: each seat's Magi, whose Magi each element
    #: is, the hand limit, the main pile's Crystals, whether Drafts may be Draws this Round
    magi: list[MagiSpec]
    seat_of: dict[str, int]
    hand_limit: int
    pile: int
    drafts_as_draws: bool
    favor: int
    crystals: list[int]
    hands: list[int]
    planted: list[int]
    books: list[int]
    pool: int
    looking: int
    plays: int
    turn: int
    phase: str
    over: bool
    #: whether a Spell was planted or uprooted (the start-of-turn tasks read the Planted Spells)
    replanted: bool
    tasks: list[Task]
    area: list[Spell]

    def __init__(self, s: ArchmagiState, p: int, blank: bool = False) -> None:
        self.s = s
        self.p = p
        if blank:
            return
        self.w = bots.WEIGHTS[5 if s.final else s.round]
        rules = s.content.rules
        self.book_size = rules.book_size
        self.magi = s.magi_specs
        self.seat_of = s.seat_of
        self.hand_limit = rules.hand_limit
        self.pile = rules.crystals
        self.drafts_as_draws = s.round >= rules.drafts_as_draws_round
        self.favor = s.favor(p)
        self.crystals = s.crystals.copy()
        self.hands = [len(h) for h in s.hands]
        self.planted = [len(x) for x in s.planted]
        self.books = [len(b) for b in s.books]
        self.pool = len(s.pool)
        self.looking = len(s.looking)
        self.plays = s.plays
        self.turn = s.turn
        self.phase = s.phase
        self.over = s.is_terminal()
        self.replanted = False
        self.tasks = s.stack  # copied before any change (copy)
        cards = s.content.cards
        self.area = [cards[c] for c in s.play_area]

    def copy(self) -> Counts:
        new = Counts(self.s, self.p, blank=True)
        new.w = self.w
        new.book_size = self.book_size
        new.magi = self.magi
        new.seat_of = self.seat_of
        new.hand_limit = self.hand_limit
        new.pile = self.pile
        new.drafts_as_draws = self.drafts_as_draws
        new.favor = self.favor
        new.crystals = self.crystals.copy()
        new.hands = self.hands.copy()
        new.planted = self.planted.copy()
        new.books = self.books.copy()
        new.pool = self.pool
        new.looking = self.looking
        new.plays = self.plays
        new.turn = self.turn
        new.phase = self.phase
        new.over = self.over
        new.replanted = self.replanted
        new.tasks = self.tasks.copy()
        new.area = self.area  # replaced, never changed in place
        return new

    # -- the value -------------------------------------------------------------------------------
    def value(self) -> float:
        """``bots.evaluate`` of the counts (the same sum, in the same order)."""
        p = self.p
        favor = float(self.favor)
        if self.over:
            return favor
        mine = self.turn == p
        return favor + bots.prospects(
            self.w,
            self.crystals[p],
            self.hands[p],
            self.planted[p],
            self.book_size - self.books[p],
            self.plays if mine and self.phase == PLAY else 0,
            self.pool,
            mine,
        )

    def value_after(self, move: Move) -> float | None:
        """The value after ``move`` of seat ``p`` (legal now), or None if the counts cannot
        follow it (it must be made)."""
        if self.over:
            return None
        if self.tasks:
            done = self._decide(move)
        elif self.phase == MONSTER:
            done = self._monster(move)
        else:
            done = self._play(move)
        if not done or not self._run():
            return None
        return self.value()

    # -- the moves (as phases.play, monsters.defeat, actions.decide and flow.decide) -----------
    def _play(self, move: Move) -> bool:
        p, verb = self.p, move.verb
        if verb == "end":
            self.plays = 0
            return True
        self.plays -= 1
        if verb == "draw":
            return self._draw(p, 1)
        spell = self.s.content.spell_by_name[move.card]
        self.hands[p] -= 1
        if verb == "plant":
            self.planted[p] += 1
            self.replanted = True
            return True
        self.area = [*self.area, spell]
        if verb in ("bottom", "both"):
            self.tasks.append(("seq", p, 0, spell.bottom))
        if verb in ("top", "both"):
            self.tasks.append(("seq", p, 0, spell.top))
        return True

    def _monster(self, move: Move) -> bool:
        p = self.p
        self.tasks.append(("discard_phase", p, 0, None))
        if move.verb == "pass":
            return True
        monsters = self.s.content.monsters
        for path in self.s.paths:
            for m in path:
                monster = monsters[m]
                if monster.name == move.card:
                    self.crystals[p] -= monster.crystals
                    self.favor += monster.favor
                    self.tasks.append(("seq", p, 0, monster.reward))
                    if monster.spells:
                        self.tasks.append(("discard", p, monster.spells, None))
                    return True
        return False  # pragma: no cover - legality checked first

    def _decide(self, move: Move) -> bool:
        kind, _, n, data = self.tasks.pop()
        p, verb = self.p, move.verb
        spells = self.s.content.spell_by_name
        if kind in ("discard", "limit"):
            self.hands[p] -= 1
            if kind == "discard" and n > 1:
                self.tasks.append(("discard", p, n - 1, None))
            elif kind == "limit":
                self.tasks.append(("limit", p, 0, None))
            self._discard(p, spells[move.card])
        elif kind == "plant":
            self.hands[p] -= 1
            self.planted[p] += 1
            self.replanted = True
            if n > 1:
                self.tasks.append(("plant", p, n - 1, None))
        elif kind == "uproot":
            self.planted[p] -= 1
            self.replanted = True
            if n > 1:
                self.tasks.append(("uproot", p, n - 1, None))
            self._discard(p, spells[move.card])
        elif kind == "search":
            self.hands[p] += 1
            self.looking -= 1
            if self.looking:
                self.tasks.append(("return", p, 0, None))
            elif not self.pool:
                return False  # Search took the last Spell of the Magic Pool: the Round ends
        elif kind == "return":
            self.looking -= 1
            self.pool += 1
            self.tasks.append(("return", p, 0, None))
        elif kind == "look":
            if verb == "draw":
                return self._draw(p, 1)
            self.books[p] -= 1
        elif kind == "draft":
            if n > 1:
                self.tasks.append(("draft", p, n - 1, None))
            if verb == "draw":
                return self._draw(p, 1)
            self.books[p] -= 1
        elif kind == "may":
            if verb == "use":
                self.tasks.append(("seq", p, 0, data))
        elif kind == "flow":
            if verb == "take":
                if self.magi[p].free_flow:
                    self.hands[p] += 1
                else:
                    self.tasks.append(("pay", p, 0, data))
        elif kind == "pay":
            self._discard(p, spells[move.card])  # one Spell out, the offered one in
        else:  # pragma: no cover - every decision's task is above
            return False
        return True

    def _discard(self, p: int, spell: Spell) -> None:
        q = flows_to(p, spell, self.seat_of)
        if q is not None:
            self.tasks.append(("flow", q, 0, None))

    # -- the machine (as ArchmagiState._run) -------------------------------------------------
    def _run(self) -> bool:
        """Resolve the tasks up to a decision (True), or False where the counts cannot follow."""
        s, tasks = self.s, self.tasks
        while not self.over:
            if tasks:
                task = tasks[-1]
                kind, q, n, data = task
                if kind in INPUT:
                    if waits(
                        kind,
                        n,
                        data,
                        self.crystals[q],
                        self.hands[q],
                        self.planted[q],
                        self.books[q],
                        self.looking,
                        self.magi[q].free_flow,
                        self.drafts_as_draws,
                        self.hand_limit,
                    ):
                        return True
                    tasks.pop()
                    if not self._settle(kind, q, n):
                        return False
                    continue
                tasks.pop()
                if kind == "seq":
                    if n < len(data):
                        tasks.append(("seq", q, n + 1, data))
                        if not self._effect(q, data[n]):
                            return False
                elif kind == "monster":
                    self.phase = MONSTER
                elif kind == "discard_phase":
                    self._discard_phase(q)
                elif kind == "end" and not self._end_turn(q):
                    return False
                continue
            t = self.turn
            if self.phase == PLAY:
                if self.plays > 0:
                    return True
                tasks.append(("monster", t, 0, None))
            elif self.phase == MONSTER:
                if can_defeat(s, self.crystals[t], self.hands[t]):
                    return True
                tasks.append(("discard_phase", t, 0, None))
            else:  # pragma: no cover - the Discard Phase always ends in an "end" task
                return False
        return True

    def _settle(self, kind: str, q: int, n: int) -> bool:
        if kind == "return":
            self.pool += self.looking
            self.looking = 0
            return True
        if kind == "draft" and n > 0:
            if n > 1:
                self.tasks.append(("draft", q, n - 1, None))
            if self.books[q]:
                self.books[q] -= 1
                return True
            return self._draw(q, 1)
        if kind == "look":
            return self._draw(q, 1)
        return True

    def _effect(self, q: int, e: Effect) -> bool:
        kind, n = e.kind, e.n
        if kind == "gain":
            self.crystals[q] += gainable(n, sum(self.crystals), self.pile)
        elif kind == "spend":
            self.crystals[q] -= min(n, self.crystals[q])
        elif kind == "draw":
            return self._draw(q, n)
        elif kind == "plays":
            self.plays += n
        elif kind == "draft":
            self.tasks.append(("draft", q, n, None))
        elif kind == "look_draft":
            self.tasks.append(("look", q, n, None))
        elif kind == "search":
            k = min(n, self.pool)
            if k:
                self.looking = k
                self.pool -= k
                self.tasks.append(("search", q, 0, None))
        elif kind in ("discard", "plant", "uproot"):
            self.tasks.append((kind, q, n, None))
        elif kind == "may":
            self.tasks.append(("may", q, 0, e.then))
        else:  # pragma: no cover - content validation allows no other kind
            return False
        return True

    def _draw(self, q: int, n: int) -> bool:
        """Draw ``n`` Spells; False if the Magic Pool runs out (the Round ends)."""
        if not self.pool:
            return True  # only after the last Round ended: nothing left to draw
        if n >= self.pool:
            return False
        self.hands[q] += n
        self.pool -= n
        return True

    def _discard_phase(self, t: int) -> None:
        self.phase = DISCARD
        self.tasks.append(("end", t, 0, None))
        self.tasks.append(("limit", t, 0, None))
        offers: list[Task] = []
        for spell in self.area:
            q = flows_to(t, spell, self.seat_of)
            if q is not None:
                offers.append(("flow", q, 0, None))
        self.area = []
        self.tasks.extend(reversed(offers))

    def _end_turn(self, t: int) -> bool:
        s = self.s
        if s.final:
            self.over = True
            return True
        q = (t + 1) % len(self.magi)
        magi = self.magi[q]
        if self.replanted and magi.planted_bottoms:
            return False  # the start-of-turn tasks read the Planted Spells themselves
        self.turn = q
        self.phase = PLAY
        self.area = []
        if not self._draw(q, magi.draws):
            return False
        self.plays = magi.plays
        self.tasks.extend(turn_start_tasks(s, q))
        return True
