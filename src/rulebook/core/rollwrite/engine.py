"""The roll-and-write sheet engine: one round flow for the dice roll-and-write games.

Merchants of Magick and its prototype Ye Olde Magick Shoppe share all of this: four dice
rolled each round; every seat at once spends results on circles of its sheet (a die may mark a
circle only in a column that lists it, crafting circles take a result ``>=`` the circle and
research circles one ``<=`` it); two results a round, more through the Extra Dice boxes; a row
is complete when all its circles are marked; a line of customer cards per seat, claimed when
their item and enchantment rows are complete, replaced face-down, rotated clockwise at the end
of the round (solo: shifted left) and then turned face-up; two mastery (certification) cards
scored at the end of each round, the higher value by the first seat(s), the lower one later
(solo: only the lower one); the game ends after the last round.

A game subclasses :class:`SheetState` and supplies only its differences: how a result is
modified and paid for (:meth:`SheetState._reach`, :meth:`SheetState._pay`), what completing a
row gives (:meth:`SheetState._row_completed`), its setup, scoring and extra views.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rulebook.core.action import KeyedAction, hashable
from rulebook.core.draws import roll_reserved, shuffle_list
from rulebook.core.errors import IllegalAction
from rulebook.core.game import Game, Setup
from rulebook.core.rollwrite.content import Card, Mastery
from rulebook.core.rollwrite.words import SheetWords, circle_said, listed, row_said
from rulebook.core.sheet import Circle, Layout, Row, has_all, rotate_clockwise, shift_left
from rulebook.core.state import Action, State, find_move
from rulebook.core.words import plural

CRAFTING = "crafting"  # the simultaneous crafting (and research) phase
OVER = "over"
#: an empty space of a customer line (a claimed card with no card left to replace it), in
#: games that keep such spaces (:attr:`SheetState.KEEP_EMPTY_SPACES`)
EMPTY = -(1 << 20)

#: how many positions' spendable results :class:`Moves` remembers before starting afresh
KNOWN_MOVES = 512

SS = TypeVar("SS", bound="SheetState[Any]")


class SheetContent(Protocol):
    """What the engine reads of a game's compiled content."""

    @property
    def dice(self) -> tuple[str, ...]: ...
    @property
    def sides(self) -> tuple[int, ...]: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def cards(self) -> Sequence[Card]: ...
    @property
    def material(self) -> Sequence[Mastery]: ...
    @property
    def energy(self) -> Sequence[Mastery]: ...
    @property
    def rounds(self) -> int: ...
    @property
    def results_per_round(self) -> int: ...
    @property
    def extra_dice_costs(self) -> Sequence[int]: ...
    @property
    def words(self) -> SheetWords: ...
    @property
    def column_notes(self) -> Sequence[str]: ...


#: a game's compiled content (its ``Content``, which has all a :class:`SheetContent` has)
C = TypeVar("C", bound=SheetContent)


# -- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Spend(KeyedAction):
    """Spend this round's result of ``die`` to mark ``circle`` ("row/column").

    The result is modified by exactly as much as the circle needs, paid as the game says;
    beyond the round's free results, the next Extra Dice box is marked. A result is never
    modified beyond what the chosen circle needs: it would change nothing on the sheet.
    """

    die: str
    circle: str

    def __str__(self) -> str:
        return f"{self.die} {self.circle}"


@dataclass(frozen=True, slots=True, eq=False)
class FreeMark(KeyedAction):
    """Mark any circle for free (when a game grants free marks)."""

    circle: str

    def __str__(self) -> str:
        return f"free {self.circle}"


@dataclass(frozen=True, slots=True, eq=False)
class Done(KeyedAction):
    """End your crafting phase for this round (unused results are lost)."""

    def __str__(self) -> str:
        return "done"


DONE = Done()


class Moves:
    """Every action of a sheet, built once per content and shared by all states."""

    def __init__(self, layout: Layout, dice: Sequence[str], free_marks: bool) -> None:
        self.spend = {
            (d, circle.index): Spend(die, circle.id)
            for d, die in enumerate(dice)
            for circle in layout.by_die.get(die, ())
        }
        self.free = [FreeMark(circle.id) for circle in layout.circles]
        #: where each move acts: (die index, circle) for spends, circle for free marks
        self.spend_target = {a: (d, layout.circles[i]) for (d, i), a in self.spend.items()}
        self.free_target = {a: layout.circles[i] for i, a in enumerate(self.free)}
        self.by_text: dict[str, Action] = {"done": DONE}
        for a in (*self.spend.values(), *(self.free if free_marks else ())):
            self.by_text[str(a)] = a
        #: per die index: its circles as (index, threshold, crafting?), for :meth:`reach`
        self._circles: list[list[tuple[int, int, bool]]] = [
            [(c.index, c.threshold, c.at_least) for c in layout.by_die.get(die, ())] for die in dice
        ]
        #: per die index, per circle index: the move spending that die there
        self.by_circle: list[dict[int, Spend]] = [
            {c.index: self.spend[(d, c.index)] for c in layout.by_die.get(die, ())}
            for d, die in enumerate(dice)
        ]
        self._reach: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        #: the results that may be spent, by (marks, dice spent, dice, reach up, reach down):
        #: search bots ask again and again in the same positions (at most :data:`KNOWN_MOVES`,
        #: the last ones asked: more costs random play more than it saves the search)
        self.known: dict[tuple[int, int, tuple[int, ...], int, int], list[Spend]] = {}
        self.vocabulary: tuple[Action, ...] = (
            DONE,
            *self.spend.values(),
            *(self.free if free_marks else ()),
        )
        #: what moves look like, for refusals of unknown text: real moves of this sheet
        self.examples = examples(layout, dice, free_marks)

    def reach(self, d: int, value: int) -> tuple[list[int], list[int]]:
        """The circles a result ``value`` of die ``d`` may mark, as masks by how far it may be
        moved: ``ups[k]`` the crafting circles it reaches moved up by at most ``k`` (a circle
        takes a result ``>=`` it), ``downs[k]`` the research ones moved down by at most ``k``
        (``<=``); the last mask of each holds for any larger move. Worked out once per die
        and value."""
        found = self._reach.get((d, value))
        if found is None:
            ups = [0]
            downs = [0]
            for index, threshold, at_least in self._circles[d]:
                need = max(threshold - value if at_least else value - threshold, 0)
                masks = ups if at_least else downs
                while len(masks) <= need:
                    masks.append(masks[-1])
                for k in range(need, len(masks)):
                    masks[k] |= 1 << index
            found = self._reach[(d, value)] = (ups, downs)
        return found


def examples(layout: Layout, dice: Sequence[str], free_marks: bool) -> str:
    """Examples of a sheet's moves taken from its own layout: the largest die spent on the
    last circle it may mark (a research circle where it has one), a free mark on the first
    circle (where the game grants them), and ``done``."""
    die = next(d for d in reversed(dice) if layout.by_die.get(d))
    circle = layout.by_die[die][-1]
    shown = [f"'{die} {circle.id}' (spend the {die} result on the circle row/column)"]
    if free_marks:
        shown.append(f"'free {layout.circles[0].id}' (a free mark)")
    return ", ".join(shown) + " or 'done'"


def _turn_up(line: list[int]) -> None:
    """Turn a line's face-down cards face-up."""
    for i, card in enumerate(line):
        if card < 0 and card != EMPTY:
            line[i] = ~card


# -- state -----------------------------------------------------------------------------------
class SheetState(State, Generic[C]):
    """A roll-and-write sheet game. Customer lines hold card numbers: ``n`` face-up, ``~n``
    (negative) face-down; the first ``shop_size`` cards of a line are the shoppe, the rest
    (solo) are waiting. The deck is a list whose last card is the top; its first ``deck_seen``
    cards were seen by everyone when they were put back at the bottom."""

    #: the game's words: what the cards are called in views, what their value is counted in,
    #: and the names of a mastery card's two values
    LINE = "customers"
    VALUE = "stars"
    SIDES = ("higher", "lower")
    #: whether the game grants free marks (then "free row/column" moves exist)
    FREE_MARKS = False
    #: when the deck is out, a claimed card's space stays empty (:data:`EMPTY`) and moves on
    #: with the line like a card (True), or the line closes up (False)
    KEEP_EMPTY_SPACES = False

    content: C
    moves: Moves
    #: results spent each round before Extra Dice, and what each Extra Die box costs
    free_results: int
    extra_costs: tuple[int, ...]
    solo: bool
    round: int
    phase: str
    #: this round's dice (:attr:`dice`), ``None`` until read; the chance event they are
    #: rolled as, while not yet read (rolled when first read: a lookahead that ends the round
    #: never reads the next one's)
    _dice: tuple[int, ...] | None
    _dice_event: tuple[int, int] | None
    #: how many dice are rolled each round
    dice_count: int
    marks: list[int]
    extra_used: list[int]
    spent: list[int]
    results: list[int]
    done: list[bool]
    free_marks: list[int]
    lines: list[list[int]]
    shop_size: int
    claimed: list[list[int]]
    #: per card number: its circles' mask and its value (stars or coins), taken from the
    #: content once per game (the evaluations read them at every position)
    card_masks: tuple[int, ...]
    card_values: tuple[int, ...]
    mastery_cards: tuple[int, int]
    mastery_master: list[bool]
    mastery_scored: list[list[int]]
    deck: list[int]
    deck_seen: int
    discards: list[int]
    _current: tuple[int, ...] | None
    #: the table as it was when this round's crafting began (taken at its first move), and
    #: how long the action log was then: the other seats see each seat as it was then
    _origin: SheetState[C] | None
    _origin_len: int
    #: cards each seat drew (face-down replacements) since the crafting began
    _phase_draws: list[int]

    def __init__(self, game: Game, setup: Setup, content: C, moves: Moves) -> None:
        super().__init__(game, setup)
        self.content = content
        self.moves = moves
        self.free_results = content.results_per_round
        self.extra_costs = tuple(content.extra_dice_costs)
        n = setup.players
        self.solo = setup.variant == "solo"
        self.round = 1
        self.phase = CRAFTING
        self.dice_count = len(content.sides)
        self._dice = None
        self._dice_event = None
        self.marks = [0] * n
        self.extra_used = [0] * n
        self.spent = [0] * n
        self.results = [0] * n
        self.done = [False] * n
        self.free_marks = [0] * n
        self.claimed = [[] for _ in range(n)]
        self.card_masks = tuple(card.mask for card in content.cards)
        self.card_values = tuple(card.value for card in content.cards)
        self.mastery_scored = [[-1, -1] for _ in range(n)]
        self.mastery_master = [True, True]
        self.discards = []
        self.deck = []
        self.deck_seen = 0
        self._current = None
        self._origin = None
        self._origin_len = 0
        self._phase_draws = [0] * n

    # -- what each game supplies ---------------------------------------------------------------
    @abstractmethod
    def _reach(self, p: int, extra: int) -> tuple[int, int]:
        """How far ``p`` can move a result up and down after paying ``extra`` for an Extra Die
        (negative when the Extra Die cannot be paid)."""

    @abstractmethod
    def _pay(self, p: int, change: int, extra: int) -> None:
        """Pay for a result moved by ``change`` (signed) and an Extra Die costing ``extra``."""

    @abstractmethod
    def _cannot_pay(self, p: int, action: Spend, value: int, change: int, extra: int) -> str:
        """Why ``p`` cannot pay for ``action`` (the IllegalAction message)."""

    @abstractmethod
    def _row_completed(self, p: int, row: Row) -> None:
        """What completing ``row`` gives ``p`` (its bonus), before customers are claimed."""

    def _cost_text(self, p: int, value: int, change: int, extra: int) -> str:
        """The cost of a move for menus (empty when free)."""
        return ""

    def _seat_view(self, p: int) -> dict[str, Any]:
        """The game's own part of a seat's public view."""
        return {}

    @abstractmethod
    def _blank(self: SS) -> SS:
        """A state of this game with nothing set, for :meth:`clone` to fill (its class made
        without setting up a game: the classes may be compiled, where ``__new__`` runs
        ``__init__``)."""

    def _copy_into(self, new: SheetState[C]) -> None:
        """Copy the game's own fields into a fresh clone."""

    def _snapshot_extra(self) -> dict[str, Any]:
        return {}

    @abstractmethod
    def _save_own(self, p: int) -> Any:
        """The game's own fields of seat ``p`` that a move may change (for
        :meth:`lookahead`; lists it changes in place are copied)."""

    @abstractmethod
    def _restore_own(self, p: int, saved: Any) -> None:
        """Put back what :meth:`_save_own` saved."""

    # -- setup helpers ---------------------------------------------------------------------------
    def _draw(self) -> int:
        card = self.deck.pop()
        self.deck_seen = min(self.deck_seen, len(self.deck))
        return card

    def _start(self) -> None:
        """Call at the end of a game's ``__init__``, once the setup is done."""
        self._start_round()

    # -- round flow ----------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Roll all four dice; then everyone crafts and researches at once.

        The roll is the next chance event, drawn when the dice are first read (:attr:`dice`):
        the same numbers as rolled at once (a scripted source rolls at once)."""
        event = self.chance.reserve()
        self._dice_event = event
        self._dice = self.chance.roll(self.content.sides) if event is None else None
        n = self.num_players
        self.spent = [0] * n
        self.results = [0] * n
        self.done = [False] * n
        self._current = None
        self._origin = None
        self._phase_draws = [0] * n
        self.phase = CRAFTING

    @property
    def dice(self) -> tuple[int, ...]:
        """This round's result of each die (in the content's order of dice)."""
        dice = self._dice
        if dice is None:
            assert self._dice_event is not None
            dice = self._dice = roll_reserved(self._dice_event, self.content.sides)
            self._dice_event = None
        return dice

    @dice.setter
    def dice(self, dice: tuple[int, ...]) -> None:
        self._dice = dice
        self._dice_event = None

    def _end_crafting(self) -> None:
        """Masteries are scored after every round; the customers move after every round but
        the last (nothing follows it)."""
        self._mastery_phase()
        if self.round >= self.content.rounds:
            self.phase = OVER
            self._current = None
            return
        self._customer_phase()
        self.round += 1
        self._start_round()

    def mastery_card(self, k: int) -> Mastery:
        c = self.content
        return c.material[self.mastery_cards[0]] if k == 0 else c.energy[self.mastery_cards[1]]

    def mastery_value(self, k: int) -> int:
        """What mastery card ``k`` (0 material, 1 energy) pays now; solo: the lower value."""
        card = self.mastery_card(k)
        return card.master if self.mastery_master[k] and not self.solo else card.apprentice

    def _mastery_phase(self) -> None:
        """Everyone meeting a card this round scores its current value; once scored, the card
        pays its lower value. Each seat scores each card once."""
        for k in range(2):
            value = self.mastery_value(k)
            scored = False
            for p in range(self.num_players):
                if self._masters(p, k):
                    self.mastery_scored[p][k] = value
                    scored = True
            if scored:
                self.mastery_master[k] = False

    def _masters(self, p: int, k: int) -> bool:
        """Whether seat ``p`` scores mastery card ``k`` in this Mastery phase: not scored yet,
        and its marks in the card's column meet it."""
        card = self.mastery_card(k)
        mask = self.content.layout.columns[card.column].mask
        return self.mastery_scored[p][k] < 0 and (self.marks[p] & mask).bit_count() >= card.circles

    def _customer_phase(self) -> None:
        """Customers move one seat clockwise (solo: shift left, the leftmost leaves, a face-up
        card joins at the right); then face-down cards are turned face-up.

        Decision: a card that arrives face-up (or is turned up) in a shoppe whose sheet already
        completes it is claimed at once, as at "the moment item and enchantments are complete".
        """
        self.lines = self._lines_moved()
        for line in self.lines:
            _turn_up(line)
        for p in range(self.num_players):
            self._claim(p)

    def _lines_moved(self) -> list[list[int]]:
        """Every customer line moved one seat clockwise (new lists); solo: the line shifted
        left, the leftmost card discarded and one drawn at the right."""
        if self.solo:
            incoming = self._draw() if self.deck else None
            line, left = shift_left(self.lines[0], incoming)
            if left is not None and left != EMPTY:
                self.discards.append(left if left >= 0 else ~left)
            return [line]
        return rotate_clockwise(self.lines)

    # -- marking and its consequences ----------------------------------------------------------
    def _mark(self, p: int, circle: Circle) -> None:
        """Mark a circle; a completed row gives its bonus and claims customers."""
        layout = self.content.layout
        marks = self.marks[p] = self.marks[p] | circle.bit
        row = layout.rows[circle.row]
        if marks & row.mask != row.mask:
            return
        self._row_completed(p, row)
        self._claim(p)
        if marks == layout.all_mask:
            self.free_marks[p] = 0  # nothing left to mark

    def _claim(self, p: int) -> None:
        """Claim every face-up card in the shoppe whose item and enchantments are complete;
        each is replaced face-down from the deck; with the deck out its space is left empty
        or closed up (:attr:`KEEP_EMPTY_SPACES`)."""
        cards = self.content.cards
        line = self.lines[p]
        marks = self.marks[p]
        i = 0
        while i < min(self.shop_size, len(line)):
            card = line[i]
            if card >= 0 and has_all(marks, cards[card].mask):
                self.claimed[p].append(card)
                if self.deck:
                    line[i] = ~self._draw()
                    if self.phase == CRAFTING:
                        self._phase_draws[p] += 1
                elif self.KEEP_EMPTY_SPACES:
                    line[i] = EMPTY
                else:
                    del line[i]
                    continue
            i += 1

    # -- the protocol --------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        if self._current is None:
            self._current = (
                tuple(p for p in range(self.num_players) if not self.done[p])
                if self.phase == CRAFTING
                else ()
            )
        return self._current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _extra_cost(self, p: int) -> int | None:
        """What the next result costs as an Extra Die, or None if no box is left."""
        if self.results[p] < self.free_results:
            return 0
        costs = self.extra_costs
        used = self.extra_used[p]
        return costs[used] if used < len(costs) else None

    def legal_actions(self, player: int) -> list[Action]:
        if (
            self.phase != CRAFTING
            or type(player) is not int
            or not 0 <= player < self.num_players
            or self.done[player]
        ):
            return self.no_moves(player)
        marks = self.marks[player]
        if self.free_marks[player]:
            return [a for i, a in enumerate(self.moves.free) if not marks >> i & 1]
        actions: list[Action] = [DONE]
        extra = self._extra_cost(player)
        if extra is None:
            return actions
        up, down = self._reach(player, extra)
        if up < 0 or down < 0:
            return actions
        spent = self.spent[player]
        dice = self.dice
        moves = self.moves
        key = (marks, spent, dice, up, down)
        spends = moves.known.get(key)
        if spends is None:
            spends = []
            unmarked = ~marks
            for d, value in enumerate(dice):
                if spent >> d & 1:
                    continue
                ups, downs = moves.reach(d, value)
                legal = unmarked & (ups[min(up, len(ups) - 1)] | downs[min(down, len(downs) - 1)])
                by_circle = moves.by_circle[d]
                while legal:  # lowest circle first: the sheet's order
                    low = legal & -legal
                    spends.append(by_circle[low.bit_length() - 1])
                    legal ^= low
            if len(moves.known) >= KNOWN_MOVES:
                moves.known.clear()
            moves.known[key] = spends
        actions.extend(spends)
        return actions

    def parse_action(self, player: int, text: str) -> Action:
        return find_move(self.moves.by_text, text, self.moves.examples)

    def action_vocabulary(self) -> tuple[Action, ...]:
        return self.moves.vocabulary

    def pending_moves(self) -> int:
        """The moves made since this round's crafting began: a seat learns of the others' ones
        when the phase ends (until then :meth:`observation` shows the other seats as they were
        when it began)."""
        if self._origin is None or self.phase != CRAFTING:
            return 0
        return len(self.history) - self._origin_len

    def _apply(self, player: int, action: Action) -> None:
        """Checked as it is made: :meth:`_act` raises before changing anything."""
        self._perform(player, action)

    def _perform(self, player: int, action: Action) -> None:
        """The move, made as :meth:`apply` makes it (search's moves too: :meth:`_act` checks
        only the move itself, not the seat or the turn, which :meth:`apply` checks)."""
        if self._origin is None and self.num_players > 1 and self.phase == CRAFTING:
            # the table as the crafting began: what the other seats see of this seat until all
            # are done (the phase is simultaneous: nobody waits to see another's choices)
            self._origin = self.clone()
            self._origin_len = len(self.history)
        if self._act(player, action):
            self._finish(player)

    def _act(self, player: int, action: Action) -> bool:
        """Make ``action`` on ``player``'s sheet (it changes only the seat's own fields and the
        deck); whether the seat's crafting phase ends with it."""
        if type(action) is Spend:
            target = self.moves.spend_target.get(action) if hashable(action) else None
            if target is None:
                raise IllegalAction(f"{action}: the {action.die} cannot mark {action.circle}")
            die, at = target
            self._spend(player, action, die, at)
        elif type(action) is FreeMark and self.FREE_MARKS:
            circle = self.moves.free_target.get(action) if hashable(action) else None
            if circle is None:
                raise IllegalAction(f"{action}: there is no circle {action.circle}")
            if not self.free_marks[player]:
                raise IllegalAction("you have no free mark to make")
            if self.marks[player] & circle.bit:
                raise IllegalAction(f"{circle.id} is already marked")
            self.free_marks[player] -= 1
            self._mark(player, circle)
        elif type(action) is Done:
            if self.free_marks[player]:
                raise IllegalAction("make your free mark first")
            return True
        else:
            raise IllegalAction(f"{action!r} is not a {self.game.title} move")
        return not self.free_marks[player] and self._out_of_results(player)

    def lookahead(
        self, player: int, actions: Sequence[Action], evaluate: Callable[[State, int], float]
    ) -> list[float]:
        """Each move is made on this state and undone: a move changes only the seat's own
        fields and the deck (:meth:`_act`), which are saved before and put back after. A move
        that ends the crafting phase (the seat's last, with every other seat done) is followed
        by the seat's part of the Mastery and Customer phases (:meth:`_round_end_value`) for
        the game's own evaluation, and played on a clone for any other.

        For the game's own evaluation, the moves the game values without making them
        (``Game.evaluate_moves``: a spend that completes no row changes only a row's share
        done, the cards' and the resources) are not made at all; and of spends marking the
        same circle with results that need the same change, one is made: they differ only in
        the die spent, which the sheet games' evaluations never read (the position after
        each is the same but for the round's spent dice), so they have the very same value."""
        done = self.done
        others_done = all(d for q, d in enumerate(done) if q != player)
        game = self.game
        own = evaluate is game.evaluate
        known = (
            game.evaluate_moves(self, player, actions)
            if own and game.evaluate_moves is not None
            else None
        )
        #: per (circle, change) of a spend made: its value (for the game's own evaluation)
        alike: dict[int, float] = {}
        targets = self.moves.spend_target
        values = []
        for i, action in enumerate(actions):
            if known is not None:
                quick = known[i]
                if quick is not None:
                    values.append(quick)
                    continue
            key = -1
            if own and type(action) is Spend:
                target = targets.get(action)
                if target is not None:
                    die, circle = target
                    # the circle and the change (signed, |change| < 128) in one number
                    key = circle.index << 8 | circle.change_needed(self.dice[die]) & 255
                    same = alike.get(key)
                    if same is not None:
                        values.append(same)
                        continue
            saved = self._save_seat(player)
            try:
                ends_phase = self._act(player, action) and others_done
                if not ends_phase:
                    value = evaluate(self, player)
                elif own:
                    value = self._round_end_value(player, evaluate)
            finally:
                self._restore_seat(player, saved)
            if ends_phase and not own:
                after = self.clone()
                after.apply(player, action)
                value = evaluate(after, player)
            if key >= 0:
                alike[key] = value
            values.append(value)
        return values

    def _round_end_value(self, p: int, evaluate: Callable[[State, int], float]) -> float:
        """The game's own evaluation of seat ``p`` after the Mastery phase and (but in the last
        round) the Customer phase that follow this position, worked out for ``p`` alone on
        this state (in the middle of :meth:`lookahead`, whose :meth:`_restore_seat` puts back
        ``p``'s line, claims and the deck) and put back.

        ``p``'s part of a round's end is the masteries it scores (:meth:`_masters`, at the
        values the cards have before anyone scores them), the line it receives
        (:meth:`_lines_moved`, turned up) and the cards it claims from it (:meth:`_claim`);
        the game ends after the last round. A sheet game's evaluation of ``p`` reads ``p``'s
        own part of the table and whether the game is over, nothing else the round's end
        changes (the other seats, the next roll); the cards other seats claim first change only
        which face-down cards ``p`` draws (a non-solo line holds no waiting cards), which no
        evaluation reads. ``tests/test_speed.py`` holds the values to a clone's."""
        scored = self.mastery_scored[p]
        was = scored.copy()
        for k in range(2):
            if self._masters(p, k):
                scored[k] = self.mastery_value(k)
        discards = len(self.discards)
        try:
            if self.round >= self.content.rounds:
                self.phase = OVER
                return evaluate(self, p)
            moved = self._lines_moved()[p]
            _turn_up(moved)
            self.lines[p] = moved
            self._claim(p)
            return evaluate(self, p)
        finally:
            self.phase = CRAFTING
            self.mastery_scored[p] = was
            del self.discards[discards:]

    def _save_seat(self, p: int) -> tuple[Any, ...]:
        """What :meth:`_act` may change for seat ``p``; the line and the deck are swapped for
        copies (the moves change them in place) and the originals kept."""
        line = self.lines[p]
        deck = self.deck
        self.lines[p] = line.copy()
        self.deck = deck.copy()
        return (
            self.marks[p],
            self.extra_used[p],
            self.spent[p],
            self.results[p],
            self.free_marks[p],
            line,
            len(self.claimed[p]),
            deck,
            self.deck_seen,
            self._phase_draws[p],
            self._save_own(p),
        )

    def _restore_seat(self, p: int, saved: tuple[Any, ...]) -> None:
        (
            self.marks[p],
            self.extra_used[p],
            self.spent[p],
            self.results[p],
            self.free_marks[p],
            self.lines[p],
            claimed,
            self.deck,
            self.deck_seen,
            self._phase_draws[p],
            own,
        ) = saved
        del self.claimed[p][claimed:]
        self._restore_own(p, own)

    def _spend(self, p: int, action: Spend, die: int, circle: Circle) -> None:
        if self.free_marks[p]:
            raise IllegalAction("make your free mark first")
        if self.spent[p] >> die & 1:
            raise IllegalAction(f"you already spent the {action.die} this round")
        if self.marks[p] & circle.bit:
            raise IllegalAction(f"{circle.id} is already marked")
        extra = self._extra_cost(p)
        if extra is None:
            raise IllegalAction("all Extra Dice are used: no more results this round")
        value = self.dice[die]
        change = circle.change_needed(value)
        up, down = self._reach(p, extra)
        if up < 0 or down < 0 or change > up or -change > down:
            raise IllegalAction(self._cannot_pay(p, action, value, change, extra))
        self._pay(p, change, extra)
        if self.results[p] >= self.free_results:
            self.extra_used[p] += 1
        self.results[p] += 1
        self.spent[p] |= 1 << die
        self._mark(p, circle)

    def ends_turn_after_spend(self, p: int, change: int, extra: int) -> bool:
        """Whether a spend by ``p`` that completes no row, moving a result by ``change`` with an
        Extra Die costing ``extra``, leaves ``p`` with no further result this round (as
        :meth:`_out_of_results` would find after the move), worked out without making it."""
        results = self.results[p] + 1
        if results >= self.dice_count:
            return True
        if results < self.free_results:
            after = 0
        else:
            used = self.extra_used[p] + (self.results[p] >= self.free_results)
            if used >= len(self.extra_costs):
                return True
            after = self.extra_costs[used]
        saved = self._save_own(p)
        self._pay(p, change, extra)
        up, down = self._reach(p, after)
        self._restore_own(p, saved)
        return up < 0 or down < 0

    def _out_of_results(self, p: int) -> bool:
        """Whether ``p`` can spend no further result this round (all spent, or no Extra Die)."""
        if self.results[p] >= self.dice_count:
            return True
        extra = self._extra_cost(p)
        if extra is None:
            return True
        up, down = self._reach(p, extra)
        return up < 0 or down < 0

    def _finish(self, p: int) -> None:
        self.done[p] = True
        self._current = None
        if all(self.done):
            self._end_crafting()

    def scores(self) -> list[int]:
        """The sum of each seat's scoring categories (:meth:`score_breakdown`)."""
        return [self.score(p) for p in range(self.num_players)]

    def score(self, player: int) -> int:
        """The sum of ``player``'s scoring categories (:meth:`score_breakdown`); a game may
        add them up without building the breakdown (its evaluation asks at every position)."""
        return sum(self.score_breakdown(player).values())

    def explain(self, player: int, action: Action) -> str:
        """The move with what it costs, for menus: ``d6 greaves/steel (5+2: 2 potions)``."""
        target = self.moves.spend_target.get(action) if type(action) is Spend else None
        if target is None:
            return str(action)
        die, circle = target
        value = self.dice[die]
        change = circle.change_needed(value)
        cost = self._cost_text(player, value, change, self._extra_cost(player) or 0)
        return f"{action} ({cost})" if cost else str(action)

    # -- the move in plain words -------------------------------------------------------------
    def describe(self, player: int, action: Action) -> str:
        """The move in plain words, an instruction to ``player`` in the game's names
        (:attr:`SheetContent.words`): the die and its result, what else it costs (what changes
        the result, :meth:`_change_paid`; the Extra Dice box it takes and what that costs), the
        circle, and what marking it completes and claims; or the end of the seat's phase and
        the dice it leaves unused. ``Use the d8 (2) and 1 Potion to mark Backpack in Leather
        (2 raised to 3), completing Backpack (1 Coin and 1 Potion)``."""
        words = self.content.words
        if type(action) is Done:
            return f"Finish {words.phase} for this round{self._unused_words(player)}"
        if type(action) is FreeMark and hashable(action):
            circle = self.moves.free_target.get(action)
            if circle is not None:
                where = circle_said(self.content.layout, circle.index)
                return f"Mark {where} for free ({words.free_mark}){self._completes(player, circle)}"
        if type(action) is Spend and hashable(action):
            target = self.moves.spend_target.get(action)
            if target is not None:
                return self._spend_words(player, target[0], target[1])
        return f"Make the move {action}"

    def _spend_words(self, p: int, die: int, circle: Circle) -> str:
        """:meth:`describe` of spending die number ``die`` on ``circle``."""
        words = self.content.words
        value = self.dice[die]
        change = circle.change_needed(value)
        box = self.extra_used[p] if self.results[p] >= self.free_results else -1
        extra = self.extra_costs[box] if 0 <= box < len(self.extra_costs) else 0
        count, unit, each = self._change_paid(p, change) if change else (0, "", "")
        if count and extra and unit == words.extra_unit:
            paid = [plural(count + extra, unit)]
        else:
            paid = [plural(n, noun) for n, noun in ((count, unit), (extra, words.extra_unit)) if n]
        how = []
        if change:
            moved = f"{value} {'raised' if change > 0 else 'lowered'} to {value + change}"
            if each:
                moved += f", {each}"
            if count and extra:
                moved += f" with {plural(count, unit)}"
            how.append(moved)
        if 0 <= box < len(self.extra_costs):
            slot = f"{words.extra} {box + 1} of {len(self.extra_costs)}"
            if extra:
                slot += f" for {plural(extra, words.extra_unit)}"
            elif any(self.extra_costs):
                slot += ", free"
            how.append(slot)
        text = f"Use the {self.content.dice[die]} ({value})"
        if paid:
            text += " and " + listed(paid)
        text += " to mark " + circle_said(self.content.layout, circle.index)
        if how:
            text += f" ({'; '.join(how)})"
        return text + self._completes(p, circle)

    def _unused_words(self, p: int) -> str:
        """The dice ``p`` leaves unused by ending its phase now (``, leaving the d10 (7)
        unused``), or nothing."""
        spent = self.spent[p]
        left = [
            f"the {die} ({value})"
            for d, (die, value) in enumerate(zip(self.content.dice, self.dice, strict=True))
            if not spent >> d & 1
        ]
        return f", leaving {listed(left)} unused" if left else ""

    def _completes(self, p: int, circle: Circle) -> str:
        """What marking ``circle`` completes for ``p``: its row (with what the row gives,
        :meth:`_row_reward_words`), the face-up cards of the shoppe it claims, and the game's
        own (:meth:`_fulfils_words`); nothing if it completes no row."""
        c = self.content
        before = self.marks[p]
        after = before | circle.bit
        row = c.layout.rows[circle.row]
        if before & circle.bit or after & row.mask != row.mask:
            return ""
        reward = self._row_reward_words(row.index)
        done = [f"completing {row_said(row.name)}" + (f" ({reward})" if reward else "")]
        for card in self.lines[p][: self.shop_size]:
            if card >= 0 and has_all(after, self.card_masks[card]):
                o = c.cards[card]
                value = plural(o.value, c.words.value)
                done.append(f"claiming the {c.words.cards[o.kind]} {o.name} ({value})")
        done += self._fulfils_words(p, after)
        return ", " + listed(done)

    def _change_paid(self, p: int, change: int) -> tuple[int, str, str]:
        """What changing a result by ``change`` costs ``p``, for :meth:`describe`: how many of
        what (the singular, ``Potion``), and what each one is worth when not 1 (``+2 each``)."""
        return 0, "", ""

    def _row_reward_words(self, row: int) -> str:
        """What completing row number ``row`` gives, for :meth:`describe` (``4 Coins and 1
        Potion``)."""
        return ""

    def _fulfils_words(self, p: int, marks: int) -> list[str]:
        """What else the sheet ``marks`` (after a move) completes for ``p``, in the game's
        words, for :meth:`describe` (a Sponsored Adventurer's Order)."""
        return []

    def _change_text(self, p: int, change: int) -> str:
        """A result's change for the terminal's menu (``+2``; a game adds what it spends)."""
        return f"{change:+d}"

    def menu_place(self, player: int, action: Action) -> tuple[str, str, int]:
        """Where a move sits in the terminal's menu: a spend under its die (with the result)
        and column, labelled with its row and the change the result needs (``d6=5 steel`` /
        ``greaves +2``), dice and columns in sheet order; a free mark under its column."""
        layout = self.content.layout
        columns = len(layout.columns)
        if type(action) is Spend and hashable(action) and action in self.moves.spend_target:
            die, circle = self.moves.spend_target[action]
            value = self.dice[die]
            change = circle.change_needed(value)
            label = layout.rows[circle.row].id
            if change:
                label += " " + self._change_text(player, change)
            column = layout.columns[circle.column]
            return f"{action.die}={value} {column.id}", label, die * columns + column.index
        if type(action) is FreeMark and hashable(action) and action in self.moves.free_target:
            circle = self.moves.free_target[action]
            column = layout.columns[circle.column]
            return f"free mark {column.id}", layout.rows[circle.row].id, column.index
        return "", str(action), 0

    # -- views -----------------------------------------------------------------------------------
    def card_view(self, card: int) -> dict[str, Any]:
        if card == EMPTY:
            return {"empty": True}
        if card < 0:
            return {"face_down": True}
        o = self.content.cards[card]
        return {
            "name": o.name,
            "kind": o.kind,
            "item": o.item,
            "enchantments": list(o.enchantments),
            self.VALUE: o.value,
        }

    def public_seat(self, p: int) -> dict[str, Any]:
        """What everyone sees of seat ``p``'s sheet, shoppe and score."""
        c = self.content
        layout = c.layout
        line = self.lines[p]
        breakdown = self.score_breakdown(p)
        seat = {
            "marked": [ci.id for ci in layout.circles if self.marks[p] & ci.bit],
            "completed": [r.id for r in layout.completed_rows(self.marks[p])],
            "extra_dice_used": self.extra_used[p],
            "results_spent": [d for i, d in enumerate(c.dice) if self.spent[p] >> i & 1],
            "done": self.done[p],
            self.LINE: [self.card_view(o) for o in line[: self.shop_size]],
            "waiting": [self.card_view(o) for o in line[self.shop_size :]],
            "claimed": [c.cards[o].name for o in self.claimed[p]],
            "masteries": [v if v >= 0 else None for v in self.mastery_scored[p]],
            "score": sum(breakdown.values()),
            "breakdown": breakdown,
        }
        seat.update(self._seat_view(p))
        return seat

    def _view(self, player: int | None) -> dict[str, Any]:
        """The table as ``player`` sees it (``None``: as every seat sees it). Everything on the
        table is public but the deck's order and face-down cards.

        The crafting phase is simultaneous: until every seat is done, a seat sees the others
        as they were when it began (and who is still deciding), never their choices so far;
        with no seat, every seat as it was when it began.
        """
        c = self.content
        layout = c.layout
        cards = c.cards
        origin = self._origin if self.phase == CRAFTING else None
        seats = []
        for p in range(self.num_players):
            if origin is None or p == player:
                seats.append(self.public_seat(p))
            else:
                seat = origin.public_seat(p)
                seat["done"] = self.done[p]
                seats.append(seat)
        table = self if origin is None else origin
        # during the crafting a seat sees the deck as it began less its own draws since; after
        # it (the game over) the deck as it is
        own = 0 if player is None or origin is None else self._phase_draws[player]
        deck_cards = len(table.deck) - own
        obs: dict[str, Any] = {
            "game": self.setup.game,
            "variant": self.setup.variant,
            "you": player,
            "round": self.round,
            "rounds": c.rounds,
            "phase": self.phase,
            "current_players": list(self.current_players()),
            "dice": dict(zip(c.dice, self.dice, strict=True)),
            "masteries": [
                {
                    "kind": card.kind,
                    "name": card.name,
                    "column": layout.columns[card.column].id,
                    "circles": card.circles,
                    "side": self.SIDES[0 if self.mastery_master[k] and not self.solo else 1],
                    "value": self.mastery_value(k),
                }
                for k, card in enumerate((self.mastery_card(0), self.mastery_card(1)))
            ],
            "deck": {
                "cards": deck_cards,
                "known_bottom": [cards[o].name for o in table.deck[: table.deck_seen]][:deck_cards],
            },
            "discards": [cards[o].name for o in self.discards],
            "seats": seats,
        }
        if self.phase == OVER:
            obs["winners"] = self.winners()
        return obs

    # -- copies and hidden information ---------------------------------------------------------
    def clone(self: SS) -> SS:
        new = self._blank()
        self._copy_base(new)
        new.content = self.content
        new.moves = self.moves
        new.free_results = self.free_results
        new.extra_costs = self.extra_costs
        new.solo = self.solo
        new.round = self.round
        new.phase = self.phase
        new._dice = self._dice
        new._dice_event = self._dice_event
        new.dice_count = self.dice_count
        new.marks = self.marks.copy()
        new.extra_used = self.extra_used.copy()
        new.spent = self.spent.copy()
        new.results = self.results.copy()
        new.done = self.done.copy()
        new.free_marks = self.free_marks.copy()
        new.lines = [line.copy() for line in self.lines]
        new.shop_size = self.shop_size
        new.claimed = [c.copy() for c in self.claimed]
        new.card_masks = self.card_masks
        new.card_values = self.card_values
        new.mastery_cards = self.mastery_cards
        new.mastery_master = self.mastery_master.copy()
        new.mastery_scored = [m.copy() for m in self.mastery_scored]
        new.deck = self.deck.copy()
        new.deck_seen = self.deck_seen
        new.discards = self.discards.copy()
        new._current = None
        new._origin = self._origin
        new._origin_len = self._origin_len
        new._phase_draws = self._phase_draws.copy()
        self._copy_into(new)
        return new

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """Unseen cards (the deck above its known bottom, face-down cards) are reshuffled.
        This round's dice are public: rolled now if not yet read, before the chance source is
        re-seeded (:meth:`State.determinize`)."""
        self._dice = self.dice
        hidden = self.deck[self.deck_seen :]
        slots = [
            (p, i)
            for p, line in enumerate(self.lines)
            for i, o in enumerate(line)
            if o < 0 and o != EMPTY
        ]
        hidden += [~self.lines[p][i] for p, i in slots]
        shuffle_list(hidden, rng)
        for p, i in slots:
            self.lines[p][i] = ~hidden.pop()
        self.deck[self.deck_seen :] = hidden

    def snapshot(self) -> dict[str, Any]:
        return {
            "setup": self.setup.to_dict(),
            "chance": (self.chance.seed, self.chance.draws),
            "history": [(p, str(a)) for p, a in self.history],
            "round": self.round,
            "phase": self.phase,
            "dice": self.dice,
            "marks": self.marks.copy(),
            "extra_used": self.extra_used.copy(),
            "spent": self.spent.copy(),
            "results": self.results.copy(),
            "done": self.done.copy(),
            "free_marks": self.free_marks.copy(),
            "lines": [line.copy() for line in self.lines],
            "claimed": [c.copy() for c in self.claimed],
            "mastery_cards": self.mastery_cards,
            "mastery_master": self.mastery_master.copy(),
            "mastery_scored": [m.copy() for m in self.mastery_scored],
            "deck": self.deck.copy(),
            "deck_seen": self.deck_seen,
            "discards": self.discards.copy(),
            **self._snapshot_extra(),
        }
