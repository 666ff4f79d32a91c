"""The table of a roll-and-write sheet game: what is on it, and what each game supplies.

Merchants of Magick, GAMEPLAY: "played over 10 rounds ... There are no player turns in the
game. All players act simultaneously in each phase". Ye Olde Magick Shoppe, GAME OVERVIEW:
"Each round the dice are rolled and players simultaneously use that shared set of dice to
craft items and research spells on their player sheet".

:class:`SheetTable` holds the table (the sheets, the customer lines, the deck, the mastery
cards), the hooks a game fills in (how a result is modified and paid for, ``_reach`` and
``_pay``; what completing a row gives, ``_row_completed``; its own fields copied and saved), this
round's dice, the scores added up, copies and hidden cards. It imports no section of the round:
the sections (:mod:`rulebook.core.rollwrite.engine` lists them) are functions over it, and
:class:`~rulebook.core.rollwrite.engine.SheetState`, the class a game subclasses, answers the
engine's protocol by them.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from rulebook.core.chance import reorder
from rulebook.core.draws import roll_reserved
from rulebook.core.game import Setup
from rulebook.core.rollwrite.content import Card, Mastery
from rulebook.core.rollwrite.moves import CRAFTING, Moves, Spend
from rulebook.core.rollwrite.words import SheetWords
from rulebook.core.sheet import Layout, Row
from rulebook.core.state import Game, State

__all__ = ["EMPTY", "C", "SheetContent", "SheetTable"]


#: an empty space of a customer line (a claimed card with no card left to replace it), in
#: games that keep such spaces (:attr:`SheetTable.KEEP_EMPTY_SPACES`)
EMPTY: Final = -(1 << 20)


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


class SheetTable(State, Generic[C]):
    """A roll-and-write sheet game's table. Customer lines hold card numbers: ``n`` face-up,
    ``~n`` (negative) face-down, :data:`EMPTY` an empty space; the first ``shop_size`` cards of
    a line are the shoppe, the rest (solo) are waiting. The deck is a list whose last card is
    the top; its first ``deck_seen`` cards were seen by everyone when they were put back at the
    bottom."""

    #: the game's words: what the cards are called in views, what their value is counted in,
    #: and the names of a mastery card's two values
    LINE: ClassVar[str] = "customers"
    VALUE: ClassVar[str] = "stars"
    SIDES: ClassVar[tuple[str, str]] = ("higher", "lower")
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
    _origin: SheetTable[C] | None
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

    @abstractmethod
    def _blank(self) -> Self:
        """A state of this game with nothing set, for :meth:`clone` to fill (its class made
        without setting up a game: the classes may be compiled, where ``__new__`` runs
        ``__init__``)."""

    def _copy_into(self, new: Self) -> None:
        """Copy the game's own fields into a fresh clone."""

    def _snapshot_extra(self) -> dict[str, Any]:
        return {}

    @abstractmethod
    def _save_own(self, p: int) -> Any:
        """The game's own fields of seat ``p`` that a move may change, for the bots' moves
        made and undone (:mod:`rulebook.core.rollwrite.lookahead`; lists it changes in place
        are copied)."""

    @abstractmethod
    def _restore_own(self, p: int, saved: Any) -> None:
        """Put back what :meth:`_save_own` saved."""

    # -- this round's dice (THE RESOURCE PHASE) ---------------------------------------------
    @property
    def dice(self) -> tuple[int, ...]:
        """This round's result of each die (in the content's order of dice): THE RESOURCE
        PHASE's roll (Round Flow 1), drawn when first read."""
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

    # -- the scores ---------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """The sum of each seat's scoring categories (:meth:`score_breakdown`)."""
        return [self.score(p) for p in range(self.num_players)]

    def score(self, player: int) -> int:
        """The sum of ``player``'s scoring categories (:meth:`score_breakdown`); a game may
        add them up without building the breakdown (its evaluation asks at every position)."""
        return sum(self.score_breakdown(player).values())

    def score_notes(self) -> dict[str, str]:
        """What each scoring category counts, in plain words: the game's own
        (``SheetWords.scoring``)."""
        return {k: note for k, (_, note) in self.content.words.scoring.items()}

    # -- copies and hidden information ---------------------------------------------------------
    def clone(self) -> Self:
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

    def _resample_hidden(self, player: int, rng: random.Random | None) -> None:
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
        reorder(hidden, rng)
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
