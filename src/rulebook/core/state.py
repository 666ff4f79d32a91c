"""The state protocol every game implements, the machinery they share, and the game that
makes the states.

A game subclasses :class:`State` and supplies the rules (``legal_actions``, ``_apply`` that
checks a move and ``_perform`` that makes it, ``_view`` of the table...). The base class owns
what is the same everywhere (as TAG's forward model and Pgx's ``step`` do): the action log,
parsing text moves, refusing moves from seats that are not to act, search's unchecked moves
(:meth:`State.apply_legal`), the seat checked before a view, greedy's lookahead (the game's
registered fast form, ``Game.lookahead``, or a clone per move), winners with tie-breakers, and
the save-file form (setup + action log, see :mod:`rulebook.core.replay`).

:class:`Game` describes a registered game (like OpenSpiel's ``Game``, it only describes; the
:class:`State` it creates evolves): its variants, options and the factory of its first state,
and the hooks of its package (evaluation, lookahead, views, encoder). It is declared here,
beside the :class:`State` that keeps it, as each refers to the other; its setup's parts
(:class:`~rulebook.core.game.Variant`, :class:`~rulebook.core.game.Option`,
:class:`~rulebook.core.game.Setup`) are below, in :mod:`rulebook.core.game`. Front ends hear
a move's steps with :func:`apply_heard` and end a game in one line with :func:`verdict`.
"""

from __future__ import annotations

import json
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import ModuleType
from typing import Any, ClassVar, TypeVar

from rulebook.core.action import Action as Action
from rulebook.core.chance import Chance, new_chance
from rulebook.core.errors import IllegalAction, RulebookError, SetupError
from rulebook.core.events import Event
from rulebook.core.game import ANCHOR, Option, Setup, Variant
from rulebook.core.words import player_count, plural, seat, seat_label

SAVE_FORMAT = "rulebook/1"

S = TypeVar("S", bound="State")
A = TypeVar("A", bound="Action")


def find_move(by_text: Mapping[str, A], text: object, looks_like: str) -> A:
    """The move whose text is ``text`` (case and spacing ignored) in a game's table of moves.

    Games whose moves form a fixed vocabulary keep it as ``{str(move): move}`` and parse with
    this; an unknown text raises :class:`IllegalAction` saying what moves look like.
    """
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} is not a move")
    move = by_text.get(" ".join(text.lower().split()))
    if move is None:
        raise IllegalAction(f"{text!r} is not a move; moves look like {looks_like}")
    return move


def log_texts(
    memo: tuple[tuple[int, str], ...], history: Sequence[tuple[int, Action]]
) -> tuple[tuple[int, str], ...]:
    """The action log as text, ``(seat, move)``, each move converted once: ``memo`` is what an
    earlier call returned for this game, extended here by the moves made since (started again
    if the log is shorter). A game keeps the result for the next call (its clones may share it:
    it is never changed, only replaced), as snapshots, taken often, show the whole log."""
    if len(memo) > len(history):
        memo = ()
    if len(memo) < len(history):
        memo += tuple((p, str(a)) for p, a in history[len(memo) :])
    return memo


@dataclass(frozen=True)
class Texts:
    """Where a game keeps what each seat sees and its moves in words, apart from its rules
    (boardgame.io's ``playerView`` in one place): each a function of the state, as
    :class:`State`'s method of that name takes it; one left ``None`` keeps the method's
    default. A game's State names its own (``texts = Texts(view=view.view, ...)``)."""

    #: :meth:`State._view`: the table as a seat sees it, or as every seat does (``None``)
    view: Callable[[Any, int | None], dict[str, Any]] | None = None
    #: :meth:`State.explain`, :meth:`State.announce`, :meth:`State.describe`,
    #: :meth:`State.describe_public`: ``(state, player, action) -> str``
    explain: Callable[[Any, int, Action], str] | None = None
    announce: Callable[[Any, int, Action], str] | None = None
    describe: Callable[[Any, int, Action], str] | None = None
    describe_public: Callable[[Any, int, Action], str] | None = None
    #: the module telling the steps the rules take on their own (:meth:`State.tell`): a
    #: function per step, named as the rules name it (``seasons.py``'s
    #: ``s.tell("battle", ...)`` calls ``aloud.battle(s, ...)``); the rules never import it
    aloud: ModuleType | None = None

    @classmethod
    def of(cls, *modules: ModuleType, aloud: ModuleType | None = None) -> Texts:
        """The functions defined in ``modules`` (not imported there) named as the fields
        (``view``, ``explain``...), e.g. a game's ``view`` and ``words`` modules; a name
        defined in two of them is an error. ``aloud``: the game's module of the steps told
        aloud."""
        found: dict[str, Any] = {"aloud": aloud}
        for module in modules:
            for name in cls.__dataclass_fields__:
                if name == "aloud":
                    continue
                function = getattr(module, name, None)
                if getattr(function, "__module__", None) != module.__name__:
                    continue
                if name in found:
                    raise TypeError(
                        f"{name} is in more than one of {[m.__name__ for m in modules]}"
                    )
                found[name] = function
        return cls(**found)


class State(ABC):
    """One moment of one game. Mutated in place by :meth:`apply`; :meth:`clone` to branch."""

    game: Game
    setup: Setup
    chance: Chance
    history: list[tuple[int, Action]]
    #: True on states made by :meth:`determinize`: search samples, never saved
    determinized: bool
    #: the game's views of the table and its moves in words (:class:`Texts`)
    texts: ClassVar[Texts] = Texts()
    #: what the rules told of the move under way (:meth:`tell`) while a front end listens
    #: (:func:`apply_heard`); None otherwise, as in search and in clones
    heard: list[Event] | None = None

    def __init__(self, game: Game, setup: Setup) -> None:
        self.game = game
        self.setup = setup
        self.chance = new_chance(setup.seed)
        self.history = []
        self.determinized = False

    # -- what each game supplies ------------------------------------------------------------
    @abstractmethod
    def current_players(self) -> Sequence[int]:
        """The seats that may act now: one on a turn, several in a simultaneous phase."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]:
        """Every move ``player`` may make now (empty when the seat is not to act; a number
        that is no seat raises :class:`IllegalAction`: games return :meth:`no_moves` for a
        seat not to act, which checks it).

        A game declares ``player: object`` and returns :meth:`no_moves` for a ``player`` that
        is no ``int`` (``type(player) is not int``) before anything else: compiled, a method
        declared to take an ``int`` refuses anything else with ``TypeError`` at the call,
        before it can say :class:`IllegalAction`, and a ``bool`` or a ``numpy.int64`` seat
        must go to :meth:`no_moves` (which takes an integer type as its seat)."""

    @abstractmethod
    def _apply(self, player: int, action: Action) -> None:
        """Check a move, raising :class:`IllegalAction` before changing anything, then make it
        with :meth:`_perform`."""

    def _perform(self, player: int, action: Action) -> None:
        """Make a move known to be legal (one of :meth:`legal_actions` of ``player`` in this
        very position), without checking it again: what :meth:`apply_legal` makes for search.

        A game whose moves are checked apart from being made overrides this with the unchecked
        move, and its :meth:`_apply` checks, then calls it; by default the move is checked
        again (:meth:`_apply`)."""
        self._apply(player, action)

    @abstractmethod
    def parse_action(self, player: int, text: str) -> Action:
        """The action whose text form is ``text``; :class:`IllegalAction` if there is none."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score now (final once the game is over)."""

    @abstractmethod
    def score_breakdown(self, player: int) -> dict[str, int]:
        """The rulebook's scoring categories for one seat."""

    @abstractmethod
    def tiebreak(self, player: int) -> tuple[int, ...]:
        """The rulebook's tie-breakers for one seat, most important first, higher is better."""

    def observation(self, player: int) -> dict[str, Any]:
        """JSON-able view of the game holding only what ``player`` may see: the game's
        :meth:`_view` of the seat (:class:`IllegalAction` for a number that is no seat)."""
        self.check_seat(player)
        return self._view(player)

    def public_observation(self) -> dict[str, Any]:
        """JSON-able view of the game for a spectator: what every seat may see, nothing more
        (no hand, no face-down card; in a simultaneous phase every seat as it was when the phase
        began). Shaped like :meth:`observation`, with ``"you": None``: the game's
        :meth:`_view` of no seat."""
        return self._view(None)

    def _view(self, player: int | None) -> dict[str, Any]:
        """The table as seat ``player`` sees it, or as every seat sees it (``None``): what a
        game supplies (``texts.view``) for :meth:`observation` and :meth:`public_observation`
        (unless it overrides both)."""
        view = self.texts.view
        if view is None:
            raise NotImplementedError(f"{type(self).__name__} has no view of the table")
        return view(self, player)

    @abstractmethod
    def clone(self: S) -> S:
        """An independent copy; cheap, for search."""

    @abstractmethod
    def _resample_hidden(self, player: int, rng: random.Random | None) -> None:
        """Re-sample in place everything ``player`` cannot see, consistently with what they saw
        (:func:`~rulebook.core.chance.reorder` each pile: ``rng`` None sorts them instead, for
        :meth:`canonical`)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """Every field of the state, hidden ones included, as plain data for exact comparisons
        (a copy: later moves do not change it)."""

    def tiebreak_labels(self) -> tuple[str, ...]:
        """What each entry of :meth:`tiebreak` counts, in the rulebook's words, for end screens
        ("most fulfilled Orders"); empty when the game has no tie-breaker."""
        return ()

    def explain(self, player: int, action: Action) -> str:
        """The move as a menu shows it (with costs, where a game has them): the game's
        ``texts.explain``, else the move's text."""
        explain = self.texts.explain
        return str(action) if explain is None else explain(self, player, action)

    def announce(self, player: int, action: Action) -> str:
        """The move as the other seats learn of it, before it is made: :meth:`explain` unless
        the move names something only ``player`` may see (a card taken from a face-down pile;
        the game's ``texts.announce``)."""
        announce = self.texts.announce
        return self.explain(player, action) if announce is None else announce(self, player, action)

    def describe(self, player: int, action: Action) -> str:
        """The move in plain words for someone who never read the rulebook, as an instruction
        to the seat about to make it: what it does and what it costs, in the rulebook's names
        (``Use the d8 (2) and 1 Potion to mark Backpack in Leather``). It begins with its verb,
        so that :func:`rulebook.core.words.third_person` can tell it of the seat afterwards
        (``seat 2 uses the d8 ...``). :meth:`explain` stays the short form for people who know
        the game. The game's ``texts.describe``, else :meth:`explain`."""
        describe = self.texts.describe
        return self.explain(player, action) if describe is None else describe(self, player, action)

    def describe_public(self, player: int, action: Action) -> str:
        """:meth:`describe` as the other seats learn of the move, before it is made: never
        more than :meth:`announce` tells. Default: :meth:`describe` where :meth:`announce`
        tells the others what :meth:`explain` tells the mover, else :meth:`announce`; a game
        that hides part of a move gives plain words of its own (``texts.describe_public``)."""
        public = self.texts.describe_public
        if public is not None:
            return public(self, player, action)
        told = self.announce(player, action)
        return self.describe(player, action) if told == self.explain(player, action) else told

    def rating_scale(self) -> list[tuple[int, str]]:
        """A solo variant's rating table, lowest first: the least score of each title, the
        first entry the title below every threshold (``[(0, "Unrated"), (60, "Apprentice"),
        ...]``). Empty where the game rates no score (multiplayer, or a solo game without a
        table)."""
        return []

    def score_notes(self) -> dict[str, str]:
        """What each scoring category of :meth:`score_breakdown` and :meth:`opponent_breakdown`
        counts, in plain words, for end screens that say where each point came from (and
        explain a surprising value, a negative one); every game notes every category (a test
        holds them to it). Empty by default."""
        return {}

    def pending_moves(self) -> int:
        """How many of the last moves of :attr:`history` were made in a simultaneous phase still
        under way. Each seat learns of the other seats' moves among them only when the phase
        ends (its :meth:`observation` shows the others as they were when the phase began), so
        front ends announce them then. 0 in games without simultaneous phases."""
        return 0

    def opponent_breakdown(self) -> dict[str, int]:
        """In a solo variant played against the game (``Variant.opponent``, such as the Trolls):
        the opponent's points by the rulebook's categories, which :meth:`winners` weighs against
        the seat's score. Empty in every other game."""
        return {}

    def lookahead(
        self, player: int, actions: Sequence[Action], evaluate: Callable[[State, int], float]
    ) -> list[float]:
        """``evaluate(after, player)`` for the state ``after`` each of ``actions`` (legal moves
        of ``player`` now), as the greedy policy compares them; this state is left unchanged.

        For the game's own evaluation (``evaluate is game.evaluate``), the game's fast form
        (:attr:`Game.lookahead`) where it registers one; otherwise
        :meth:`lookahead_on_clones`. A game may also override this with something cheaper
        that gives the same values (moves played on this state and undone, say); the tests
        hold every game's version to :meth:`lookahead_on_clones`. A seat that is no ``int`` is
        taken by :meth:`seat_number` (a ``numpy.int64`` as its seat, anything else refused).
        """
        if type(player) is not int:
            player = self.seat_number(player)
        game = self.game
        if game.lookahead is not None and evaluate is game.evaluate:
            return game.lookahead(self, player, actions)
        return self.lookahead_on_clones(player, actions, evaluate)

    def lookahead_on_clones(
        self, player: int, actions: Sequence[Action], evaluate: Callable[[State, int], float]
    ) -> list[float]:
        """What :meth:`lookahead` gives, by its definition: each move played on a
        :meth:`clone`, which is then evaluated."""
        values = []
        for action in actions:
            after = self.clone()
            after.apply_legal(player, action)
            values.append(evaluate(after, player))
        return values

    def action_vocabulary(self) -> Sequence[Action]:
        """Every action of the game, legal now or not (for fixed action spaces and tests)."""
        return ()

    # -- shared machinery --------------------------------------------------------------------
    def tell(self, step: str, *details: Any) -> None:
        """Tell the table of a step the rules take on their own (a battle, an area scored,
        a round's end), by its name and its details: the game's ``aloud`` module
        (:attr:`Texts.aloud`) has a function of that name, ``(state, *details)``, that puts it
        in plain words (:mod:`rulebook.core.events`). Only while a front end listens
        (:attr:`heard`); otherwise, as in search, nothing is said and nothing built."""
        heard = self.heard
        if heard is None:
            return
        say: Callable[..., Event | Sequence[Event] | None] = getattr(self.texts.aloud, step)
        told = say(self, *details)
        if isinstance(told, Event):
            heard.append(told)
        elif told is not None:
            heard.extend(told)

    @property
    def num_players(self) -> int:
        return self.setup.players

    def no_moves(self, player: object) -> list[Action]:
        """The moves of a seat that is not to act: none. Raises :class:`IllegalAction` if
        ``player`` is no seat of this game, so a bad seat is an error rather than "no moves".
        Each game's :meth:`legal_actions` returns this on its not-to-act path, so the check
        costs nothing when the seat asked about is the one to act. A seat given as another
        integer type (``numpy.int64``) is that seat: its moves, by :meth:`legal_actions`."""
        if type(player) is not int and not isinstance(player, bool):
            return self.legal_actions(self.seat_number(player))
        self.check_seat(player)
        return []

    def seat_number(self, player: object) -> int:
        """``player`` as a seat number: an ``int`` as it is, another integer type
        (``numpy.int64``) as its ``int``; anything else (text, a float, ``None``, a ``bool``)
        raises :class:`IllegalAction` (:meth:`check_seat`). The range is not checked."""
        if isinstance(player, bool) or not hasattr(type(player), "__index__"):
            self.check_seat(player)  # raises, naming what is wrong
        return operator.index(player)  # type: ignore[arg-type]

    def check_seat(self, player: object) -> None:
        """Raise :class:`IllegalAction` unless ``player`` is a seat number of this game."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise IllegalAction(f"player must be a seat number, not {player!r}")
        if not 0 <= player < self.num_players:
            raise IllegalAction(
                f"no seat {player}: this game has {plural(self.num_players, 'seat')}, "
                f"numbered from 0 in code (0-{self.num_players - 1})"
            )

    def apply(self, player: int, action: Action | str) -> None:
        """Perform ``action`` for ``player``; raise :class:`IllegalAction` and change nothing if
        it is malformed or not legal now."""
        if type(player) is not int or not 0 <= player < self.setup.players:
            self.check_seat(player)  # raises, naming what is wrong
        if isinstance(action, str):
            action = self.parse_action(player, action)
        elif not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not a move")
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if player not in self.current_players():
            waiting = ", ".join(seat(p) for p in self.current_players())
            raise IllegalAction(f"{seat(player)} is not to act now (waiting for {waiting})")
        self._apply(player, action)
        self.history.append((player, action))

    def apply_legal(self, player: int, action: Action) -> None:
        """Perform ``action``, one of :meth:`legal_actions` of ``player`` listed in this very
        position (or in the position this state is an unchanged clone of), as search bots do:
        :meth:`_perform`-ed without :meth:`apply`'s checks of the seat, the text and the turn,
        and without the game's own check of the move where it has a cheaper path. Any other
        move must go through :meth:`apply`.
        """
        self._perform(player, action)
        self.history.append((player, action))

    def winners(self) -> list[int]:
        """The seats that win: highest score, then the rulebook's tie-breakers; ties share.

        Empty when a solo seat loses to the game's own opponent (``Variant.opponent``); games
        with such a variant override this with their rulebook's verdict."""
        scores = self.scores()
        keys = [(scores[p], *self.tiebreak(p)) for p in range(self.num_players)]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def decided_by(self) -> str:
        """What decided the winner of a finished game: ``"score"`` (the highest score alone),
        the label of the tie-breaker that separated the winner from the last rival
        (:meth:`tiebreak_labels`), or ``"shared"`` when several seats share the win."""
        won = self.winners()
        if len(won) > 1:
            return "shared"
        if not won or self.num_players == 1:  # solo: the score against the game's own target
            return "score"
        scores = self.scores()
        keys = [(scores[p], *self.tiebreak(p)) for p in range(self.num_players)]
        winner = keys[won[0]]
        needed = 0
        for p, key in enumerate(keys):
            if p != won[0]:
                pairs = enumerate(zip(winner, key, strict=True))
                first = next((i for i, (a, b) in pairs if a != b), 0)
                needed = max(needed, first)
        if needed == 0:
            return "score"
        labels = self.tiebreak_labels()
        return labels[needed - 1] if needed - 1 < len(labels) else f"tie-breaker {needed}"

    def returns(self) -> list[float]:
        """Each seat's share of the win (1 for a sole winner, 1/k for k tied winners; all 0
        when nobody wins, as when a solo seat loses to the game's opponent)."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        won = self.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.num_players)]

    def determinize(self: S, player: int, rng: random.Random) -> S:
        """A copy in which all that ``player`` cannot see (deck orders, other hands, future
        dice) is re-sampled from ``rng``, consistently with what ``player`` has seen."""
        copy = self.clone()
        copy._resample_hidden(player, rng)
        copy.chance = self.chance.reseeded(rng)
        copy.determinized = True
        return copy

    def canonical(self: S, player: int) -> S:
        """A copy in which all that ``player`` cannot see is laid out in one fixed order (each
        unseen pile sorted, the future dice from a fixed seed): two states that differ only in
        what ``player`` cannot see give the same copy, so a search that starts from it and
        re-samples (:meth:`determinize`) decides from ``player``'s information alone."""
        copy = self.clone()
        copy._resample_hidden(player, None)
        copy.chance = self.chance.reseeded(random.Random(0))
        copy.determinized = True
        return copy

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields into a fresh clone (used by each game's :meth:`clone`)."""
        other.game = self.game
        other.setup = self.setup
        other.chance = self.chance.copy()
        other.history = self.history.copy()
        other.determinized = self.determinized

    def log(self) -> dict[str, Any]:
        """The save-file form of this game: its setup and the action log, as plain data."""
        if self.determinized:
            raise RulebookError("a determinized state is a search sample and cannot be saved")
        return {
            "format": SAVE_FORMAT,
            **self.setup.to_dict(),
            "log": [[p, str(a)] for p, a in self.history],
        }

    def to_json(self) -> str:
        """The save file: setup and action log; :func:`rulebook.from_json` replays it exactly."""
        return json.dumps(self.log(), separators=(",", ":"))

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.setup.game} players={self.num_players} "
            f"moves={len(self.history)}{' over' if self.is_terminal() else ''}>"
        )


def apply_heard(state: State, seat: int, action: Action | str) -> tuple[Event, ...]:
    """Make a move (:meth:`State.apply`: checked, nothing changed if it is illegal) and
    return what the rules told of the steps it set off (:meth:`State.tell`,
    :mod:`rulebook.core.events`), in the order they were taken."""
    heard: list[Event] = []
    state.heard = heard
    try:
        state.apply(seat, action)
    finally:
        state.heard = None
    return tuple(heard)


def verdict(state: State, labels: Sequence[str] | None = None) -> str:
    """The end of a finished game in one line, the same wherever it is shown (the terminal,
    ``rulebook replay``, the web page): ``Winner: seat 2 (greedy)``, ``Winners (shared): ...``,
    ``Final score: 71`` (solo), ``Final score: 64, the Trolls 58: seat 1 wins`` (solo against
    the game's own opponent)."""
    won = state.winners()
    names = ", ".join(seat_label(p, labels) for p in won)
    opponent = state.game.variant(state.setup.variant).opponent
    if opponent:  # a solo game against the game itself: won only by beating it
        theirs = sum(state.opponent_breakdown().values())
        result = f"{names} wins" if won else f"{opponent} win"
        return f"Final score: {state.scores()[0]}, {opponent} {theirs}: {result}"
    if state.num_players == 1:
        return f"Final score: {state.scores()[0]}"
    if len(won) == 1:
        return f"Winner: {names}"
    return f"Winners (shared): {names}"


# -- the game that makes the states ------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """A view of the table a player asks for by name at the terminal's prompt (``sheet``,
    ``orders``, ``map``...): drawn from the seat's observation only, as text or Rich."""

    name: str
    #: one line for the prompt's help: what the view shows
    about: str
    draw: Callable[[State, int], Any]


@dataclass(frozen=True)
class Game:
    """A registered game: its description and the factory of its initial state."""

    name: str
    title: str
    rulebook: str
    variants: tuple[Variant, ...]
    create: Callable[[Setup], State]
    options: tuple[Option, ...] = ()
    #: heuristic value of a state for a player, used by the greedy and search bots
    evaluate: Callable[[State, int], float] | None = None
    #: ``evaluate(after, player)`` for the state ``after`` each of ``actions`` (legal moves of
    #: ``player`` now), worked out without making the moves where the game knows how (within
    #: 1e-9 of :attr:`evaluate`, the sum in another order); ``None`` for a move that must be
    #: made to be judged. :meth:`State.lookahead` uses it for :attr:`evaluate` where a game
    #: implements it; the tests hold it to making each move
    evaluate_moves: Callable[[State, int, Sequence[Action]], list[float | None]] | None = None
    #: the exact fast form of :meth:`State.lookahead` for the game's own :attr:`evaluate`:
    #: ``evaluate(after, player)`` for the state ``after`` each of ``actions``, worked out
    #: without a clone per move; :meth:`State.lookahead` uses it for :attr:`evaluate` (the
    #: bots' speed machinery, registered by the game package so that the rules never import
    #: it), and the tests hold it to playing each move on a clone
    lookahead: Callable[[State, int, Sequence[Action]], list[float]] | None = None
    #: the table as a seat sees it, as a Rich renderable or text, for the terminal
    render: Callable[[State, int], Any] | None = None
    #: the compact view shown before each of a seat's decisions in the terminal: what the
    #: decision needs, fitting 80x40 with the moves (default: :attr:`render`)
    turn_view: Callable[[State, int], Any] | None = None
    #: further views a player may ask for by name at the terminal's prompt
    views: tuple[View, ...] = ()
    #: where a move sits in the terminal's menu of moves: the heading it is listed under
    #: ("" for none), its label there, and the heading's rank (headings are shown by rank);
    #: default: under the first word of its ``explain`` text, when other moves share it
    menu_entry: Callable[[State, int, Action], tuple[str, str, int]] | None = None
    #: the named cards of a configuration (Orders, Spells, Monsters...) and their printed
    #: texts, for looking a card up at the prompt: public data only
    cards: Callable[[Setup], Mapping[str, str]] | None = None
    #: the cards of :attr:`cards` whose content the project authored, in whole or in part
    #: (the rulebook lacks it), each with the one-line reason its data file gives
    #: (:func:`rulebook.core.data.authored_reasons`); cards not named are the rulebook's
    authored_cards: Callable[[Setup], Mapping[str, str]] | None = None
    #: the package of the game's data files; its ``rules.md`` is the game's short
    #: how-to-play (:meth:`how_to_play`)
    data_package: str | None = None
    description: str = ""
    #: playout policy for search bots: a legal move for the seat (default: uniformly random;
    #: :mod:`rulebook.core.policy` has the greedy one)
    rollout: Callable[[State, int, random.Random], Action] | None = None
    #: moves the search bots play with ``rollout`` past their tree before the evaluation
    #: judges the position (0: the evaluation judges the leaf itself)
    rollout_moves: int = 0
    #: game-specific statistics of one seat at the end of a game, for the balance lab: names
    #: like ``"rows_completed"`` or ``"order:Fiery Backpack"`` (``group:item`` names are the
    #: cards/rows/orders the report ranks by how often they are taken and the winners' share)
    counters: Callable[[State, int], Mapping[str, float]] | None = None
    #: the faction (Magi, race, ...) a seat plays, for the balance lab's per-faction table;
    #: ``""`` when the variant played has none (the lab then stores no factions for the game)
    faction: Callable[[State, int], str] | None = None
    #: the player count the game is most often played at (strength tables use it)
    common_players: int | None = None
    #: the fixed-shape observation tensor of a configuration, for learning agents: a
    #: :class:`rulebook.core.spaces.ObservationEncoder` (typed loosely here: the encoders read
    #: states, so their module sits above this one; :func:`rulebook.core.spaces.encoder`
    #: returns it typed)
    encoder: Callable[[Setup], Any] | None = None
    #: the package holding the game's board view for the web app: ``board.js`` (an ES module
    #: drawing a seat's view), optionally ``board.css`` and a ``static(setup)`` function giving
    #: the public, unchanging data the view draws (sheet layout, card texts)
    web_view: str | None = None

    def how_to_play(self, anchors: bool = False) -> str | None:
        """The game's how-to-play in the project's own words (``rules.md`` of its data
        package, Markdown), or None when the game has none. A heading may end with an anchor
        (``## Playing solo {#solo}``: the web page jumps to the variant's section by it); they
        are left out unless ``anchors``."""
        if self.data_package is None:
            return None
        text = resources.files(self.data_package).joinpath("rules.md").read_text("utf-8")
        return text if anchors else ANCHOR.sub("", text)

    def card_texts(self, setup: Setup) -> dict[str, tuple[str, str]]:
        """The named cards of ``setup`` (:attr:`cards`), each with its text and, when the
        project authored it, the reason (``""`` for the rulebook's own cards)."""
        if self.cards is None:
            return {}
        authored = self.authored_cards(setup) if self.authored_cards is not None else {}
        return {name: (text, authored.get(name, "")) for name, text in self.cards(setup).items()}

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        names = ", ".join(v.name for v in self.variants)
        raise SetupError(f"{self.title} has no variant {name!r} (variants: {names})")

    def player_counts(self) -> str:
        """The player counts of every variant: ``1 player (solo) or 2-8 players (standard)``."""
        counts = [f"{player_count(v.min_players, v.max_players)} ({v.name})" for v in self.variants]
        return ", ".join(counts[:-1]) + " or " + counts[-1] if len(counts) > 1 else counts[0]

    def default_variant(self, players: int) -> str:
        """The first variant, in declared order, that allows this many players."""
        for v in self.variants:
            if v.min_players <= players <= v.max_players:
                return v.name
        raise SetupError(
            f"{self.title} cannot be played by {plural(players, 'player')}: it takes "
            f"{self.player_counts()}"
        )

    def setup(
        self,
        players: int,
        seed: int,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
    ) -> Setup:
        """Check a requested setup and fill in defaults; :class:`SetupError` naming the problem
        if it is invalid."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError(f"players must be a whole number, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"seed must be a whole number, not {seed!r}")
        name = variant if variant is not None else self.default_variant(players)
        v = self.variant(name)
        if not v.min_players <= players <= v.max_players:
            raise SetupError(
                f"{self.title} ({v.name}) takes {player_count(v.min_players, v.max_players)}, "
                f"not {players}"
            )
        chosen: dict[str, str] = {}
        given = dict(options or {})
        for opt in self.options:
            if opt.variants and v.name not in opt.variants:
                continue
            chosen[opt.name] = opt.value(given.pop(opt.name, opt.default))
        if given:
            raise SetupError(f"{self.title} ({v.name}) has no option {', '.join(sorted(given))}")
        return Setup(self.name, players, seed, v.name, chosen)

    def new_game(
        self,
        players: int,
        seed: int = 0,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
    ) -> State:
        return self.create(self.setup(players, seed, variant, options))
