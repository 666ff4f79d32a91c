"""Archmagi: every rule of the rulebook (``004_df6d88d5c0362155.txt``).

The turn (PLAYER TURN): Draw Phase, Play Phase (Plays: ``draw``, ``top X``, ``bottom X``, the
Fire Magi's ``both X``, the Flora Magi's ``plant X``; ``end``), Monster Phase (``defeat M`` or
``pass``), Discard Phase. Every Action is a list of symbols (SYMBOLS GUIDE) run left to right by
a small stack machine: a symbol that needs a decision (which Spell to discard, plant, uproot,
take or put back, whether to use a "you may") stops the machine and the deciding seat becomes
:meth:`ArchmagiState.current_players`. The Flow of Magic is such a decision: when a Spell of an
element is discarded by another player, that element's Magi is offered ``take X`` / ``pass`` at
that moment, and play resumes afterwards.

Rules decisions where the text is silent are marked ``Decision:`` and listed in
docs/archmagi.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from rulebook.archmagi.content import (
    COMMON,
    ELEMENTS,
    Content,
    Effect,
    MagiSpec,
    Monster,
    Spell,
    content,
)
from rulebook.core import Action, Game, IllegalAction, Setup, State, find_move
from rulebook.core.action import KeyedAction
from rulebook.core.chance import shuffle
from rulebook.core.data import cached
from rulebook.core.words import plural

PLAY: Final = "play"
MONSTER: Final = "monster"
DISCARD: Final = "discard"
OVER: Final = "over"

#: verbs of moves that name a Spell, a Monster, or nothing
SPELL_VERBS = ("top", "bottom", "both", "plant", "discard", "uproot", "take", "return", "draft")
PLAIN_VERBS = ("draw", "end", "pass", "use", "skip", "draft")
#: stack tasks that wait for a decision of their seat
INPUT: Final = frozenset(
    {
        "discard",
        "plant",
        "uproot",
        "search",
        "return",
        "look",
        "draft",
        "may",
        "flow",
        "pay",
        "limit",
    }
)

#: moves that choose a Spell among several seen: menus show the Spell's actions
CHOOSING = ("draft", "take")


def spell_text(spell: Spell) -> str:
    """A Spell's printed actions: ``top: gain 1 crystal(s); bottom: draft 1``."""
    top = ", ".join(e.text() for e in spell.top) or "-"
    if not spell.bottom:
        return f"{spell.element}; {top}"
    return f"{spell.element}; top: {top}; bottom: {', '.join(e.text() for e in spell.bottom)}"


#: each symbol in plain words, as an instruction (:func:`effect_words` fills it in)
EFFECT_WORDS = {
    "gain": "gain {crystals}",
    "spend": "spend {crystals}",
    "plays": "gain {more_plays}",
    "draw": "draw {spells} from the Magic Pool",
    "draft": "draft {spells} from {your} Spell Book onto the discard pile",
    "discard": "discard {spells} from {your} Hand",
    "plant": "plant {spells} from {your} Hand",
    "uproot": "uproot {planted}",
    "search": "look at {top} of the Magic Pool and take one into {your} Hand",
    "look_draft": "look at {top} of {your} Spell Book, draft one, then shuffle {your} Spell Book",
}


def effect_words(e: Effect, own: bool = True) -> str:
    """One symbol in plain words, as an instruction: ``gain 2 Crystals``, ``draw 1 Spell from
    the Magic Pool``; ``own``: told to its seat (``your Hand``), else of it (``their Hand``).
    A "you may" tells its group: ``you may uproot 1 Planted Spell and then gain 2 Crystals``."""
    if e.kind == "may":
        then = " and then ".join(effect_words(x, own) for x in e.then)
        return f"{'you' if own else 'they'} may {then}"
    n = e.n
    return EFFECT_WORDS[e.kind].format(
        crystals=plural(n, "Crystal"),
        more_plays=plural(n, "more Play", "more Plays"),
        spells=plural(n, "Spell"),
        planted=plural(n, "Planted Spell"),
        top=f"the top {plural(n, 'Spell')}" if n > 1 else "the top Spell",
        your="your" if own else "their",
    )


def effects_words(effects: Sequence[Effect], own: bool = True) -> str:
    """An Action's symbols in plain words, left to right: ``gain 1 Crystal, then draw ...``."""
    return ", then ".join(effect_words(e, own) for e in effects) or "nothing"


#: what a decision's move means, for menus and the move log: {task: {verb: text}}
DECISION_TEXTS = {
    "flow": {"take": "Flow of Magic", "pass": "Flow of Magic: leave it"},
    "pay": {"discard": "to take a Spell by the Flow of Magic"},
    "limit": {"discard": "hand limit"},
    "search": {"take": "Search"},
    "return": {"return": "on top of the Magic Pool"},
    "may": {"use": "", "skip": "you may: no"},
}

#: a task of the stack: (kind, seat, number, data)
Task = tuple[str, int, int, Any]


# -- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Move(KeyedAction):
    """A move: a verb, and the Spell or Monster it names (if any): ``top Ember``, ``pass``."""

    verb: str
    card: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.card}" if self.card else self.verb


class Moves:
    """Every move of the game, built once per content and shared by all states."""

    def __init__(self, c: Content) -> None:
        self.by_text: dict[str, Move] = {}
        vocab: list[Move] = [Move(v) for v in PLAIN_VERBS]
        vocab += [Move(v, n) for v in SPELL_VERBS for n in c.names]
        vocab += [Move("defeat", m.name) for m in c.monsters]
        for m in vocab:
            self.by_text[str(m).lower()] = m
        self.vocabulary = tuple(vocab)
        #: the moves by verb and card, made once: ``named[verb][card]``, ``plain[verb]``
        self.named: dict[str, dict[str, Move]] = {v: {} for v in (*SPELL_VERBS, "defeat")}
        self.plain: dict[str, Move] = {}
        for m in vocab:
            if m.card:
                self.named[m.verb][m.card] = m
            else:
                self.plain[m.verb] = m
        self.name_of = tuple(card.name for card in c.cards)


@cached
def moves() -> Moves:
    return Moves(content())


def _listed(move: Move, actions: list[Action]) -> bool:
    """Whether ``move`` (one of :class:`Moves`) is among ``actions`` (made of them too): found
    by identity, without comparing fields."""
    return any(action is move for action in actions)


def _distinct(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def pays(monster: Monster, crystals: int, spells: int) -> bool:
    """Whether ``crystals`` Crystals and ``spells`` Spells in Hand pay for ``monster``
    (MONSTER PHASE)."""
    return crystals >= monster.crystals and spells >= monster.spells


def affordable(crystals: int, effects: tuple[Effect, ...]) -> bool:
    """Whether ``crystals`` Crystals pay every Spend Crystals of ``effects`` when it comes
    (gains before it count)."""
    have = crystals
    for e in effects:
        if e.kind == "gain":
            have += e.n
        elif e.kind == "spend":
            have -= e.n
            if have < 0:
                return False
    return True


def may_possible(crystals: int, hand: int, planted: int, effects: tuple[Effect, ...]) -> bool:
    """Decision: a "you may" part can be used only if its costs can be paid in full (Spend,
    Discard, Uproot), so that it is never a free gain; for a seat holding ``crystals``
    Crystals, ``hand`` Spells in Hand and ``planted`` Planted Spells."""
    if not affordable(crystals, effects):
        return False
    for e in effects:
        if e.kind == "discard":
            hand -= e.n
            if hand < 0:
                return False
        elif e.kind == "uproot":
            planted -= e.n
            if planted < 0:
                return False
        elif e.kind in ("draw",):
            hand += e.n
        elif e.kind == "plant":
            hand -= e.n
            planted += e.n
    return True


def waits(
    kind: str,
    n: int,
    data: Any,
    crystals: int,
    hand: int,
    planted: int,
    book: int,
    looking: int,
    free_flow: bool,
    drafts_as_draws: bool,
    hand_limit: int,
) -> bool:
    """Whether the input task ``(kind, p, n, data)`` waits for a decision of its seat, holding
    ``crystals`` Crystals, ``hand`` Spells in Hand, ``planted`` Planted Spells and ``book`` in
    its Spell Book, with ``looking`` Spells looked at; ``free_flow``: its Magi takes Spells by
    the Flow of Magic for free; ``drafts_as_draws``: from Round 4 (END OF ROUND 3).
    :meth:`ArchmagiState._ready` asks it of the position, the greedy lookahead of positions it
    works out."""
    if kind == "limit":
        return hand > hand_limit
    if kind == "pay":
        return hand > 0
    if kind in ("discard", "plant"):
        return hand > 0 and n > 0
    if kind == "uproot":
        return planted > 0 and n > 0
    if kind == "flow":
        return hand > 0 or free_flow
    if kind == "return":
        return looking > 1
    if kind == "search":
        return looking > 0
    if kind == "draft":
        return n > 0 and book > 0 and drafts_as_draws
    if kind == "look":
        return book > 0
    if kind == "may":
        return may_possible(crystals, hand, planted, data)
    return True


def gainable(n: int, held: int, crystals: int) -> int:
    """How many of ``n`` Crystals are gained when the players hold ``held`` of the main pile's
    ``crystals``: no more than are left."""
    return max(0, min(n, crystals - held))


def flows_to(p: int, spell: Spell, seat_of: dict[str, int]) -> int | None:
    """The seat whose Magi is offered ``spell`` by the Flow of Magic when ``p`` discards it:
    its element's Magi (``seat_of``), if in play and not ``p``'s."""
    if spell.element == COMMON:
        return None
    q = seat_of.get(spell.element)
    return None if q is None or q == p else q


# -- state -----------------------------------------------------------------------------------
class ArchmagiState(State):
    """A game of Archmagi for 2-4 players.

    Cards are indices into ``content.cards``; piles are lists whose last card is the top. Seat
    ``p`` plays the Magi of element ``magi[p]``.
    """

    content: Content
    moves: Moves
    magi: list[str]
    #: each seat's Magi Ability Card (shared by clones: never changed)
    magi_specs: list[MagiSpec]
    seat_of: dict[str, int]
    round: int
    final: bool
    phase: str
    turn: int
    plays: int
    pool: list[int]
    discard: list[int]
    exhausted: list[int]
    books: list[list[int]]
    hands: list[list[int]]
    planted: list[list[int]]
    play_area: list[int]
    looking: list[int]
    crystals: list[int]
    trophies: list[list[int]]
    monster_decks: list[list[int]]
    paths: list[list[int]]
    stack: list[Task]
    #: per seat, what the balance lab counts (:mod:`rulebook.archmagi.stats`): Crystals gained,
    #: Spells played (``spell:<name>``), planted, drafted, Flow of Magic offers taken or left
    tally: list[dict[str, int]]
    #: the action log as text, as far as it was needed (shared by clones: never changed)
    _texts: tuple[tuple[int, str], ...]

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        """A new game set up; ``blank``: nothing set (for :meth:`clone`; the class may be
        compiled, where ``__new__`` runs ``__init__``)."""
        if blank:
            return
        super().__init__(game, setup)
        self.content = content()
        self.moves = moves()
        self._texts = ()
        self._set_up()
        self._start_turn(0)
        self._run()

    # -- setup (SETUP) -------------------------------------------------------------------------
    def _set_up(self) -> None:
        """SETUP 1-5, with the Magi dealt at random from the seed.

        The ``magi`` option chooses the first seats' Magi (SETUP 5: "their chosen color"); the
        other seats are dealt at random from the seed, so simulations rotate the Magi over the
        seats. With 2-3 players the unused Magi's Spells stay in the box.
        """
        c, n = self.content, self.num_players
        rng = self.chance.rng()
        order = list(ELEMENTS)
        rng.shuffle(order)
        chosen = self.setup.options.get("magi", "random")
        if chosen != "random":
            named = chosen.split(",")
            order = named + [e for e in order if e not in named]
        self.magi = order[:n]
        self.magi_specs = [c.magi[ELEMENTS.index(e)] for e in self.magi]
        self.seat_of = {e: p for p, e in enumerate(self.magi)}
        cards = c.cards
        self.pool = [
            i
            for i, s in enumerate(cards)
            if (s.set == "round" and s.round == 1 and s.players <= n)
            or (s.set == "starting" and s.element in self.seat_of)
        ]
        rng.shuffle(self.pool)
        self.monster_decks = []
        for tier in (1, 2, 3):
            deck = [i for i, m in enumerate(c.monsters) if m.tier == tier]
            rng.shuffle(deck)
            self.monster_decks.append(deck)
        self.paths = [[], [], []]
        starting = [i for i, s in enumerate(cards) if s.set == "starting_common"]
        k = c.rules.starting_hand
        self.hands = [starting[p * k : (p + 1) * k] for p in range(n)]
        self.books = []
        for e in self.magi:
            book = [i for i, s in enumerate(cards) if s.set == "book" and s.element == e]
            rng.shuffle(book)
            self.books.append(book)
        self.planted = [[] for _ in range(n)]
        self.crystals = [0] * n
        self.tally = [{} for _ in range(n)]
        self.trophies = [[] for _ in range(n)]
        self.discard = []
        self.exhausted = []
        self.play_area = []
        self.looking = []
        self.stack = []
        self.round = 1
        self.final = False
        self.phase = PLAY
        self.turn = 0
        self.plays = 0

    def magi_of(self, p: int) -> MagiSpec:
        return self.magi_specs[p]

    # -- turn flow (PLAYER TURN) ---------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        """Draw Phase: draw the top Spell; then the Play Phase's Plays (2 unless the Magi says
        otherwise). The Flora Magi's Planted Flora Spells perform their Bottom Actions first,
        and a Magi's start-of-turn symbols (authored Lightning ability) come before them."""
        self.turn = p
        self.phase = PLAY
        self.play_area = []
        magi = self.magi_of(p)
        self._draw(p, magi.draws)
        self.plays = magi.plays
        self.stack.extend(self.turn_start_tasks(p))

    def turn_start_tasks(self, p: int) -> list[Task]:
        """The symbols ``p`` performs as the Play Phase begins, as tasks of the stack (the
        last runs first): the Planted Flora Spells' Bottom Actions, then the Magi's own."""
        tasks: list[Task] = []
        start = self.content.turn_start[ELEMENTS.index(self.magi[p])]
        if start:
            tasks.append(("seq", p, 0, start))
        if self.magi_of(p).planted_bottoms:
            cards = self.content.cards
            for card in reversed(self.planted[p]):
                if cards[card].element == self.magi[p]:
                    tasks.append(("seq", p, 0, cards[card].bottom))
        return tasks

    def _end_turn(self, p: int) -> None:
        """END OF ROUND 4: the player whose turn it is finishes it, then the game is over."""
        if self.final:
            self.phase = OVER
            return
        self._start_turn((p + 1) % self.num_players)

    def _discard_phase(self, p: int) -> None:
        """DISCARD PHASE: the Play Area goes to the discard pile (Commons: Exhausted pile), then
        the hand limit. Decision: Spells discarded from the Play Area are "discarded" for the
        Flow of Magic."""
        self.phase = DISCARD
        self.stack.append(("end", p, 0, None))
        self.stack.append(("limit", p, 0, None))
        area, self.play_area = self.play_area, []
        offers: list[Task] = []
        for card in area:
            offer = self._to_discard(p, card)
            if offer is not None:
                offers.append(offer)
        self.stack.extend(reversed(offers))

    def _monster_options(self, p: int) -> list[int]:
        """Monsters in the Paths that ``p`` can pay for (Crystals and Spells in Hand)."""
        return self.monsters_for(self.crystals[p], len(self.hands[p]))

    def can_defeat(self, crystals: int, spells: int) -> bool:
        """Whether ``crystals`` Crystals and ``spells`` Spells in Hand buy a Monster in the
        Paths (:meth:`monsters_for` is not empty)."""
        monsters = self.content.monsters
        return any(pays(monsters[m], crystals, spells) for path in self.paths for m in path)

    def monsters_for(self, crystals: int, spells: int) -> list[int]:
        """Monsters in the Paths that ``crystals`` Crystals and ``spells`` Spells in Hand buy."""
        monsters = self.content.monsters
        return [m for path in self.paths for m in path if pays(monsters[m], crystals, spells)]

    # -- the Magic Pool and the rounds (END OF ROUND) --------------------------------------------
    def _end_round(self) -> None:
        """The Magic Pool has run out: set up the next Round (or mark the last turn).

        Decision: the discard pile of the Magic Pool is shuffled with the next Round's Common
        Spells into the new Magic Pool (the Exhausted pile stays out), since Drafts feed the
        discard pile "of the Magic Pool" and the Magic Pool is the deck all players build.
        """
        c = self.content
        if self.round >= c.rules.rounds:
            self.final = True
            return
        tier = self.round - 1
        deck = self.monster_decks[tier]
        for _ in range(c.rules.path_size):
            if deck:
                self.paths[tier].append(deck.pop())
        self.round += 1
        n = self.num_players
        new = [
            i
            for i, s in enumerate(c.cards)
            if s.set == "round" and s.round == self.round and s.players <= n
        ]
        self.pool = self.discard + new
        self.discard = []
        self.chance.shuffle(self.pool)

    def _draw(self, p: int, n: int) -> None:
        """Draw ``n`` Spells from the Magic Pool, one at a time; the Round ends the moment the
        Pool runs out, even mid-Draw, and the Draw resumes from the next Round's Pool."""
        for _ in range(n):
            if not self.pool:
                return  # only after the last Round ended: nothing left to draw
            self.hands[p].append(self.pool.pop())
            if not self.pool:
                self._end_round()

    def _to_discard(self, p: int, card: int) -> Task | None:
        """``p`` discards ``card``: Commons are Exhausted; an Elemental Spell goes to the
        discard pile of the Magic Pool and may Flow to its Magi (returned as a task)."""
        spell = self.content.cards[card]
        if spell.element == COMMON:
            self.exhausted.append(card)
            return None
        self.discard.append(card)
        q = self.flows_to(p, spell)
        return None if q is None else ("flow", q, 0, card)

    def flows_to(self, p: int, spell: Spell) -> int | None:
        """The seat offered ``spell`` by the Flow of Magic when ``p`` discards it
        (:func:`flows_to`)."""
        return flows_to(p, spell, self.seat_of)

    def _discard_card(self, p: int, card: int) -> None:
        offer = self._to_discard(p, card)
        if offer is not None:
            self.stack.append(offer)

    def _gain(self, p: int, n: int) -> None:
        """Gain Crystals from the main pile (80 tokens; no more than are left)."""
        got = self.gainable(n, sum(self.crystals))
        self.crystals[p] += got
        self._count(p, "crystals_gained", got)

    def gainable(self, n: int, held: int) -> int:
        """How many of ``n`` Crystals are gained when the players hold ``held``: no more than
        are left in the main pile (:func:`gainable`)."""
        return gainable(n, held, self.content.rules.crystals)

    def _count(self, p: int, key: str, by: int = 1) -> None:
        if self.determinized:
            return  # a search's sample: never counted by the lab
        # a new dict, never a change in place: clones share the seats' tallies
        tally = dict(self.tally[p])
        tally[key] = tally.get(key, 0) + by
        self.tally[p] = tally

    # -- the effect machine --------------------------------------------------------------------
    def _affordable(self, p: int, effects: tuple[Effect, ...]) -> bool:
        """Whether every Spend Crystals of ``effects`` can be paid when it comes (gains before it
        count). Decision: an Action whose Spend cannot be paid cannot be played; other symbols
        do as much as they can (Discard 2 with one Spell in Hand discards it)."""
        return affordable(self.crystals[p], effects)

    def _effect(self, p: int, e: Effect) -> None:
        """Perform one symbol (SYMBOLS GUIDE); symbols that need a decision push a task."""
        kind = e.kind
        if kind == "gain":
            self._gain(p, e.n)
        elif kind == "spend":
            self.crystals[p] -= min(e.n, self.crystals[p])
        elif kind == "draw":
            self._draw(p, e.n)
        elif kind == "plays":
            self.plays += e.n
        elif kind == "draft":
            self.stack.append(("draft", p, e.n, None))
        elif kind == "look_draft":
            self.stack.append(("look", p, e.n, None))
        elif kind == "search":
            k = min(e.n, len(self.pool))
            if k:
                self.looking = self.pool[-k:]
                del self.pool[-k:]
                self.stack.append(("search", p, 0, None))
        elif kind in ("discard", "plant", "uproot"):
            self.stack.append((kind, p, e.n, None))
        elif kind == "may":
            self.stack.append(("may", p, 0, e.then))
        else:  # pragma: no cover - content validation allows no other kind
            raise ValueError(f"unknown effect {kind}")

    def _drafts_as_draws(self) -> bool:
        return self.round >= self.content.rules.drafts_as_draws_round

    def _ready(self, task: Task) -> bool:
        """Whether an input task waits for a decision now (else :meth:`_settle` resolves it)."""
        kind, p, n, data = task
        return waits(
            kind,
            n,
            data,
            self.crystals[p],
            len(self.hands[p]),
            len(self.planted[p]),
            len(self.books[p]),
            len(self.looking),
            self.magi_specs[p].free_flow,
            self._drafts_as_draws(),
            self.content.rules.hand_limit,
        )

    def _settle(self, task: Task) -> None:
        """Resolve an input task that needs no decision: a Draft before Round 4 (or a Draw
        with an empty Spell Book: SPELL BOOK clarification), the last Spell of a Search put
        back; a discard, plant, uproot or Flow of Magic that cannot happen is skipped."""
        kind, p, n, _ = task
        if kind == "return":
            self.pool.extend(self.looking)
            self.looking = []
        elif kind == "draft" and n > 0:
            if n > 1:
                self.stack.append(("draft", p, n - 1, None))
            if self.books[p]:
                self._count(p, "spells_drafted")
                self.discard.append(self.books[p].pop())
            else:
                self._draw(p, 1)
        elif kind == "look":
            self._draw(p, 1)  # nothing to look at: the Draft is a Draw

    def _run(self) -> None:
        """Resolve the stack until a seat must decide, then the phases that need no one."""
        stack = self.stack  # never replaced while a move is made
        while self.phase != OVER:
            if stack:
                task = stack[-1]
                kind, p, n, data = task
                if kind in INPUT:
                    if self._ready(task):
                        return
                    stack.pop()
                    self._settle(task)
                    continue
                stack.pop()
                if kind == "seq":
                    if n < len(data):
                        stack.append(("seq", p, n + 1, data))
                        self._effect(p, data[n])
                elif kind == "monster":
                    self.phase = MONSTER
                elif kind == "discard_phase":
                    self._discard_phase(p)
                elif kind == "end":
                    self._end_turn(p)
                continue
            if self.phase == PLAY:
                if self.plays > 0:
                    return
                stack.append(("monster", self.turn, 0, None))
            elif self.phase == MONSTER:
                if self.can_defeat(self.crystals[self.turn], len(self.hands[self.turn])):
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

    def _names(self, cards: list[int]) -> list[str]:
        name_of = self.moves.name_of
        return _distinct([name_of[c] for c in cards])

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player not in self.current_players():
            return self.no_moves(player)
        c = self.content
        named = self.moves.named
        plain = self.moves.plain
        if self.stack:
            kind, p, n, data = self.stack[-1]
            if kind in ("discard", "limit", "pay"):
                return [named["discard"][x] for x in self._names(self.hands[p])]
            if kind == "plant":
                return [named["plant"][x] for x in self._names(self.hands[p])]
            if kind == "uproot":
                return [named["uproot"][x] for x in self._names(self.planted[p])]
            if kind == "search":
                return [named["take"][x] for x in self._names(self.looking)]
            if kind == "return":
                return [named["return"][x] for x in self._names(self.looking)]
            if kind == "look":
                out: list[Action] = [named["draft"][x] for x in self._names(self.books[p][-n:])]
                if self._drafts_as_draws():
                    out.append(plain["draw"])
                return out
            if kind == "draft":
                return [plain["draft"], plain["draw"]]
            if kind == "may":
                return [plain["use"], plain["skip"]]
            if kind == "flow":
                return [named["take"][self.moves.name_of[data]], plain["pass"]]
            raise RuntimeError(f"no moves for task {kind}")  # pragma: no cover
        p = self.turn
        if self.phase == MONSTER:
            monsters = c.monsters
            names = _distinct([monsters[m].name for m in self._monster_options(p)])
            return [*(named["defeat"][x] for x in names), plain["pass"]]
        magi = self.magi_of(p)
        element = self.magi[p]
        actions: list[Action] = []
        if self.pool:
            actions.append(plain["draw"])
        cards = c.cards
        seen: set[str] = set()
        for card in self.hands[p]:
            spell = cards[card]
            if spell.name in seen:
                continue
            seen.add(spell.name)
            if self._affordable(p, spell.top):
                actions.append(named["top"][spell.name])
            if spell.element != element:
                continue
            if magi.plant_as_play:
                actions.append(named["plant"][spell.name])
                continue
            if self._affordable(p, spell.bottom):
                actions.append(named["bottom"][spell.name])
            if magi.top_then_bottom and self._affordable(p, spell.top + spell.bottom):
                actions.append(named["both"][spell.name])
        actions.append(plain["end"])
        return actions

    def parse_action(self, player: int, text: str) -> Action:
        return find_move(
            self.moves.by_text,
            text,
            "'draw', 'top Ember', 'bottom Ember', "
            "'defeat Troll', 'discard Ember', 'take Ember', 'pass' or 'end'",
        )

    def action_vocabulary(self) -> tuple[Action, ...]:
        return self.moves.vocabulary

    def _take(self, pile: list[int], name: str) -> int:
        """Remove and return the first card called ``name`` from ``pile``."""
        name_of = self.moves.name_of
        for i, card in enumerate(pile):
            if name_of[card] == name:
                return pile.pop(i)
        raise IllegalAction(f"no {name} there")  # pragma: no cover - legality checked first

    def _apply(self, player: int, action: Action) -> None:
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
        if known is None or not _listed(known, self.legal_actions(player)):
            raise IllegalAction(f"{action} is not a legal move now")
        self._perform(player, known)

    def _perform(self, player: int, action: Action) -> None:
        move = cast(Move, action)
        if self.stack:
            self._decide(player, move)
        elif self.phase == MONSTER:
            self._monster(player, move)
        else:
            self._play(player, move)
        self._run()

    def _play(self, p: int, move: Move) -> None:
        """Spend a Play (PLAY PHASE), or end the Play Phase."""
        verb = move.verb
        if verb == "end":
            self.plays = 0
            return
        self.plays -= 1
        if verb == "draw":
            self._draw(p, 1)
            return
        card = self._take(self.hands[p], move.card)
        spell = self.content.cards[card]
        if verb == "plant":
            self._count(p, "spells_planted")
            self.planted[p].append(card)
            return
        self._count(p, "spells_played")
        self._count(p, f"spell:{spell.name}")
        self.play_area.append(card)
        if verb in ("bottom", "both"):
            self.stack.append(("seq", p, 0, spell.bottom))
        if verb in ("top", "both"):
            self.stack.append(("seq", p, 0, spell.top))

    def _monster(self, p: int, move: Move) -> None:
        """MONSTER PHASE: defeat one Monster of one Path (pay, Rewards, Favor, refill), or pass."""
        self.stack.append(("discard_phase", p, 0, None))
        if move.verb == "pass":
            return
        monsters = self.content.monsters
        for tier, path in enumerate(self.paths):
            for i, m in enumerate(path):
                if monsters[m].name == move.card:
                    deck = self.monster_decks[tier]
                    if deck:
                        path[i] = deck.pop()
                    else:
                        del path[i]
                    monster = monsters[m]
                    self.crystals[p] -= monster.crystals
                    self.trophies[p].append(m)
                    self.stack.append(("seq", p, 0, monster.reward))
                    if monster.spells:
                        self.stack.append(("discard", p, monster.spells, None))
                    return

    def _decide(self, p: int, move: Move) -> None:
        """A decision inside an Action, a Reward, the hand limit or the Flow of Magic."""
        kind, _, n, data = self.stack.pop()
        verb = move.verb
        hand = self.hands[p]
        if kind in ("discard", "limit"):
            card = self._take(hand, move.card)
            if kind == "discard" and n > 1:
                self.stack.append(("discard", p, n - 1, None))
            elif kind == "limit":
                self.stack.append(("limit", p, 0, None))
            self._discard_card(p, card)
        elif kind == "plant":
            self._count(p, "spells_planted")
            self.planted[p].append(self._take(hand, move.card))
            if n > 1:
                self.stack.append(("plant", p, n - 1, None))
        elif kind == "uproot":
            card = self._take(self.planted[p], move.card)
            if n > 1:
                self.stack.append(("uproot", p, n - 1, None))
            self._discard_card(p, card)
        elif kind == "search":
            hand.append(self._take(self.looking, move.card))
            if self.looking:
                self.stack.append(("return", p, 0, None))
            elif not self.pool:
                self._end_round()  # Search took the last Spell of the Magic Pool
        elif kind == "return":
            self.pool.append(self._take(self.looking, move.card))
            self.stack.append(("return", p, 0, None))
        elif kind == "look":
            book = self.books[p]
            if verb == "draw":
                self._draw(p, 1)
            else:
                top = book[-n:]
                card = self._take(top, move.card)
                book.remove(card)
                self._count(p, "spells_drafted")
                self.discard.append(card)
            self.chance.shuffle(book)
        elif kind == "draft":
            if n > 1:
                self.stack.append(("draft", p, n - 1, None))
            if verb == "draw":
                self._draw(p, 1)
            else:
                self._count(p, "spells_drafted")
                self.discard.append(self.books[p].pop())
        elif kind == "may":
            if verb == "use":
                self.stack.append(("seq", p, 0, data))
        elif kind == "flow":
            self._count(p, "flow_taken" if verb == "take" else "flow_left")
            if verb == "take":
                if self.magi_of(p).free_flow:
                    self.discard.remove(data)
                    hand.append(data)
                else:
                    self.stack.append(("pay", p, 0, data))
        elif kind == "pay":
            card = self._take(hand, move.card)
            self.discard.remove(data)
            hand.append(data)
            self._discard_card(p, card)

    # -- scoring (END OF ROUND 4) ----------------------------------------------------------------
    def favor(self, player: int) -> int:
        monsters = self.content.monsters
        return sum(monsters[m].favor for m in self.trophies[player])

    def score_breakdown(self, player: int) -> dict[str, int]:
        """The Favor Points of the Monsters a seat defeated (the only scoring of the game)."""
        return {"favor": self.favor(player)}

    def scores(self) -> list[int]:
        return [self.favor(p) for p in range(self.num_players)]

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """Decision: the text gives no tie-breaker; tied players share the victory."""
        return ()

    # -- views -----------------------------------------------------------------------------------
    def _monster_view(self, m: int) -> dict[str, Any]:
        monster = self.content.monsters[m]
        return {
            "name": monster.name,
            "tier": monster.tier,
            "crystals": monster.crystals,
            "spells": monster.spells,
            "reward": [e.text() for e in monster.reward],
            "favor": monster.favor,
        }

    def _choice_view(self, player: int | None) -> dict[str, Any] | None:
        """The decision waited for: its kind and seat for everyone; its cards only for the
        seat deciding (and the Spell offered by the Flow of Magic, which lies face up)."""
        if not self.stack or self.phase == OVER:
            return None
        kind, p, n, data = self.stack[-1]
        view: dict[str, Any] = {"kind": kind, "seat": p, "count": n}
        name_of = self.moves.name_of
        if kind in ("flow", "pay"):
            view["spell"] = name_of[data]
        if p == player:
            if kind in ("search", "return"):
                view["looking"] = [name_of[c] for c in self.looking]
            elif kind == "look":
                view["looking"] = [name_of[c] for c in self.books[p][-n:]]
            elif kind == "may":
                view["effects"] = [e.text() for e in data]
        return view

    def _view(self, player: int | None) -> dict[str, Any]:
        """The table as ``player`` sees it (``None``: as every seat sees it, without a Hand or
        a decision's cards). Public: piles face up, Paths, Planted areas, Crystals, Favor and
        the sizes of the hidden piles. Hidden: the order of the Magic Pool, Spell Books and
        Monster decks, and every Hand but the viewer's own."""
        name_of = self.moves.name_of
        seats = []
        for p in range(self.num_players):
            magi = self.magi_of(p)
            seats.append(
                {
                    "magi": magi.name,
                    "element": magi.element,
                    "crystals": self.crystals[p],
                    "favor": self.favor(p),
                    "monsters": [self.content.monsters[m].name for m in self.trophies[p]],
                    "hand": len(self.hands[p]),
                    "spell_book": len(self.books[p]),
                    "planted": [name_of[c] for c in self.planted[p]],
                }
            )
        obs: dict[str, Any] = {
            "game": self.setup.game,
            "you": player,
            "round": self.round,
            "rounds": self.content.rules.rounds,
            "last_turn": self.final,
            "phase": self.phase,
            "turn": self.turn,
            "plays": self.plays if self.phase == PLAY else 0,
            "current_players": list(self.current_players()),
            "magic_pool": len(self.pool) + len(self.looking),
            "discard_pile": [name_of[c] for c in self.discard],
            "exhausted": [name_of[c] for c in self.exhausted],
            "play_area": [name_of[c] for c in self.play_area],
            "paths": [[self._monster_view(m) for m in path] for path in self.paths],
            "monster_decks": [len(d) for d in self.monster_decks],
            "seats": seats,
            "choice": self._choice_view(player),
        }
        if player is not None:
            obs["hand"] = [name_of[c] for c in self.hands[player]]
        if self.phase == OVER:
            obs["winners"] = self.winners()
        return obs

    def explain(self, player: int, action: Action) -> str:
        """The move with what it does, for menus: ``top Ember (gain 1 crystal(s))``."""
        if type(action) is not Move:
            return str(action)
        kind = self.stack[-1][0] if self.stack else ""
        if kind in DECISION_TEXTS and action.verb in DECISION_TEXTS[kind]:
            text = f"{action} ({DECISION_TEXTS[kind][action.verb]})"
            spell = self.content.spell_by_name.get(action.card) if action.card else None
            if spell is not None and action.verb in CHOOSING:
                text = f"{text[:-1]}: {spell_text(spell)})"
            if kind == "may" and action.verb == "use":
                group = ", ".join(e.text() for e in self.stack[-1][3])
                text = f"{action} ({group})"
            return text
        if not action.card:
            return str(action)
        c = self.content
        if action.verb == "defeat":
            for m in c.monsters:
                if m.name == action.card:
                    reward = ", ".join(e.text() for e in m.reward) or "nothing"
                    return (
                        f"{action} (pay {m.crystals} crystals, {m.spells} spells; "
                        f"reward {reward}; {m.favor} favor)"
                    )
        spell = c.spell_by_name.get(action.card)
        if spell is None:
            return str(action)
        effects: tuple[Effect, ...] = ()
        if action.verb == "top":
            effects = spell.top
        elif action.verb == "bottom":
            effects = spell.bottom
        elif action.verb == "both":
            effects = spell.top + spell.bottom
        if action.verb in CHOOSING:
            return f"{action} ({spell_text(spell)})"
        if not effects:
            return str(action)
        return f"{action} ({', '.join(e.text() for e in effects)})"

    def announce(self, player: int, action: Action) -> str:
        """The move as the other seats learn of it: a Search's ``take`` and ``return`` name
        Spells of the face-down Magic Pool (SYMBOLS GUIDE, Search), so they are not named."""
        if self._searched(action):
            if self.stack[-1][0] == "search":
                return "take a Spell (Search)"
            return "return a Spell to the top of the Magic Pool (Search)"
        return self.explain(player, action)

    def _searched(self, action: Action) -> bool:
        """Whether ``action`` names a Spell a Search looks at: a Spell of the face-down Magic
        Pool, named to the searching seat alone (SYMBOLS GUIDE, Search)."""
        return (
            bool(self.stack)
            and type(action) is Move
            and bool(action.card)
            and self.stack[-1][0] in ("search", "return")
        )

    # -- moves in plain words (issue 23) ---------------------------------------------------------
    def describe(self, player: int, action: Action) -> str:
        """The move in plain words, with what it costs: ``Play the Top Action of Ember (a Fire
        Spell): gain 1 Crystal; uses 1 of your 2 Plays``."""
        return self._plain(player, action, own=True)

    def describe_public(self, player: int, action: Action) -> str:
        """The move in plain words as the others learn of it (``their Hand``); a Search's
        ``take`` and ``return`` name no Spell (as :meth:`announce`)."""
        if self._searched(action):
            if self.stack[-1][0] == "search":
                return "Take one of the Spells they looked at into their Hand (Search)"
            return "Put one of the Spells they looked at back on top of the Magic Pool (Search)"
        return self._plain(player, action, own=False)

    def _plain(self, p: int, action: Action, own: bool) -> str:
        """:meth:`describe` told to ``p`` (``own``: "your Hand") or of ``p`` ("their Hand")."""
        if type(action) is not Move:
            return str(action)
        if self.stack:
            return self._plain_decision(p, action, own)
        if self.phase == MONSTER:
            return self._plain_monster(p, action, own)
        return self._plain_play(p, action, own)

    def _kind_of(self, spell: Spell) -> str:
        if spell.element == COMMON:
            return "a Common Spell, Exhausted after use"
        return f"a {spell.element.capitalize()} Spell"

    def _plays_used(self, own: bool) -> str:
        """What a Play costs: one of the Plays left this turn."""
        your = "your" if own else "their"
        if self.plays == 1:
            return f"uses {your} last Play"
        return f"uses 1 of {your} {self.plays} Plays"

    def _grows(self, p: int, spell: Spell, own: bool) -> str:
        """What a Spell Planted by ``p`` will do (the Flora Magi's Planted Spells), or ""."""
        if not self.magi_of(p).planted_bottoms or spell.element != self.magi[p]:
            return ""
        your = "your" if own else "their"
        return (
            f"; its Bottom Action ({effects_words(spell.bottom, own)}) then happens at the start "
            f"of each of {your} Play Phases"
        )

    def _goes(self, p: int, spell: Spell) -> str:
        """Where a Spell ``p`` discards goes, and who may take it by the Flow of Magic."""
        if spell.element == COMMON:
            return "to the Exhausted pile"
        q = self.flows_to(p, spell)
        if q is None:
            return "to the discard pile"
        return f"to the discard pile (the {self.magi_of(q).name} may take it by the Flow of Magic)"

    def _plain_play(self, p: int, move: Move, own: bool) -> str:
        """A Play (PLAY PHASE): draw, an Action of a Spell, the Flora Magi's Plant, or end."""
        your = "your" if own else "their"
        verb = move.verb
        if verb == "end":
            if not self.plays:
                return "End the Play Phase"
            return f"End the Play Phase, losing {plural(self.plays, 'unused Play')}"
        cost = self._plays_used(own)
        if verb == "draw":
            return f"Draw the top Spell of the Magic Pool into {your} Hand; {cost}"
        spell = self.content.spell_by_name.get(move.card)
        if spell is None:
            return self.explain(p, move)
        name = spell.name
        if verb == "plant":
            grows = self._grows(p, spell, own)
            return f"Plant {name} from {your} Hand in {your} Planted area{grows}; {cost}"
        if verb == "top":
            part, effects = f"the Top Action of {name}", spell.top
        elif verb == "bottom":
            part, effects = f"the Bottom Action of {name}", spell.bottom
        else:
            part, effects = f"both Actions of {name}, Top then Bottom", spell.top + spell.bottom
        return f"Play {part} ({self._kind_of(spell)}): {effects_words(effects, own)}; {cost}"

    def _plain_monster(self, p: int, move: Move, own: bool) -> str:
        """MONSTER PHASE: defeat a Monster (its cost, Favor and Reward), or none."""
        if move.verb != "defeat":
            return "Defeat no Monster this turn"
        monster = next((m for m in self.content.monsters if m.name == move.card), None)
        if monster is None:
            return self.explain(p, move)
        your = "your" if own else "their"
        cost = plural(monster.crystals, "Crystal")
        if monster.spells:
            cost += f" and {plural(monster.spells, 'Spell')} discarded from {your} Hand"
        reward = f"Reward: {effects_words(monster.reward, own)}" if monster.reward else "no Reward"
        return (
            f"Defeat the {monster.name} (Tier {monster.tier}) for {cost}, "
            f"worth {plural(monster.favor, 'Favor Point')}; {reward}"
        )

    def _plain_decision(self, p: int, move: Move, own: bool) -> str:
        """A decision inside an Action, a Reward, the hand limit or the Flow of Magic."""
        kind, _, n, data = self.stack[-1]
        your = "your" if own else "their"
        verb = move.verb
        rules = self.content.rules
        name = move.card
        spell = self.content.spell_by_name.get(name) if name else None
        instead = (
            "Draw the top Spell of the Magic Pool instead of drafting "
            f"(allowed from Round {rules.drafts_as_draws_round} on)"
        )
        if kind == "may":
            effects = effects_words(data, own)
            return f"Choose to {effects}" if verb == "use" else f"Decline to {effects}"
        if kind == "flow":
            offered = self.moves.name_of[data]
            if verb == "pass":
                return f"Decline to answer the Flow of Magic, leaving {offered} in the discard pile"
            magi = self.magi_of(p)
            price = (
                f"free for the {magi.name}"
                if magi.free_flow
                else f"paid with a Spell discarded from {your} Hand next"
            )
            return (
                f"Take {offered} from the discard pile into {your} Hand by the Flow of Magic, "
                f"{price}"
            )
        if kind == "draft":
            if verb == "draw":
                return instead
            more = f" ({n} Drafts to make)" if n > 1 else ""
            return (
                f"Draft the top Spell of {your} Spell Book onto the discard pile of the "
                f"Magic Pool{more}"
            )
        if kind == "look":
            if verb == "draw":
                return f"{instead}; the Spell Book is shuffled afterwards"
            seen = len(self.books[p][-n:])
            return (
                f"Draft {name} from the top {plural(seen, 'Spell')} of {your} Spell Book onto the "
                "discard pile of the Magic Pool; the Spell Book is shuffled afterwards"
            )
        if kind == "search":
            return f"Take {name} into {your} Hand from the Spells looked at (Search)"
        if kind == "return":
            return (
                f"Put {name} back on top of the Magic Pool (Search): the Spells put back "
                "after it lie above it"
            )
        if spell is None:
            return self.explain(p, move)
        if kind == "plant":
            grows = self._grows(p, spell, own)
            return f"Plant {name} from {your} Hand in {your} Planted area{grows}"
        goes = self._goes(p, spell)
        if kind == "uproot":
            return f"Uproot {name} from {your} Planted area {goes}"
        text = f"Discard {name} from {your} Hand {goes}"
        if kind == "limit":
            held = len(self.hands[p])
            return f"{text}, to get down to the hand limit of {rules.hand_limit} ({held} in Hand)"
        if kind == "pay":
            return f"{text}, to take {self.moves.name_of[data]} by the Flow of Magic"
        return f"{text} ({n} to discard)" if n > 1 else text

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

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """Reshuffle what ``player`` cannot see: the Magic Pool together with the other Hands
        and the Spells another seat's Search looks at (sizes kept), the Spell Books (the
        viewer's own not while they look at its top) and the Monster decks."""
        others = [p for p in range(self.num_players) if p != player]
        # the Spells another seat's Search looks at are as unknown as the rest of the Pool
        searcher = next((t[1] for t in self.stack if t[0] in ("search", "return")), player)
        looking = self.looking if searcher != player else []
        unknown = self.pool + looking + [c for p in others for c in self.hands[p]]
        shuffle(unknown, rng)
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
                shuffle(book, rng)
        for deck in self.monster_decks:
            shuffle(deck, rng)

    def _history_texts(self) -> list[tuple[int, str]]:
        """The action log as text, converted once per move (snapshots are taken often)."""
        texts = self._texts
        if len(texts) > len(self.history):
            texts = ()
        if len(texts) < len(self.history):
            texts += tuple((p, str(a)) for p, a in self.history[len(texts) :])
            self._texts = texts
        return list(texts)

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
