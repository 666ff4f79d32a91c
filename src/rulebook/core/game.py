"""What a game is: its name, variants, player counts and the factory of its initial state.

Like OpenSpiel's ``Game``, a :class:`Game` only describes; the :class:`~rulebook.core.state.State`
it creates evolves. Game packages register themselves with
:func:`rulebook.core.registry.register_package`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from rulebook.core.errors import SetupError
from rulebook.core.words import player_count, plural

if TYPE_CHECKING:
    from rulebook.core.spaces import ObservationEncoder
    from rulebook.core.state import Action, State


#: a heading's anchor in a how-to-play (``## Playing solo {#solo}``)
ANCHOR = re.compile(r"[ \t]*\{#[a-z0-9-]+\}[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Variant:
    """A way to play a game (standard, solo, family, ...) and the player counts it allows."""

    name: str
    min_players: int
    max_players: int
    description: str = ""
    #: a solo variant played against the game itself ("the Trolls"): the seat wins only by
    #: beating it, so ``winners()`` is empty when it loses (see ``State.opponent_breakdown``)
    opponent: str = ""


@dataclass(frozen=True)
class Option:
    """A setup option of a variant, such as a difficulty level.

    Its values are either listed (``choices``) or, when there are too many to list, given by a
    ``rule`` in words with a ``check`` that turns a value into its canonical form or raises
    ``ValueError`` saying what is wrong (Archmagi's Magi: any order of any of the four).
    Values are accepted in any case.
    """

    name: str
    choices: tuple[str, ...]
    default: str
    variants: tuple[str, ...] = ()  # the variants that take it; empty means all
    description: str = ""
    #: the valid values in words, for options whose values are not listed in ``choices``
    rule: str = ""
    #: a value (as typed) -> its canonical form; ``ValueError`` saying what is wrong
    check: Callable[[str], str] | None = None

    def accepts(self) -> str:
        """What the option accepts, in words: the rule, or the choices."""
        return self.rule or f"one of {', '.join(self.choices)}"

    def value(self, given: object) -> str:
        """The canonical form of a value given for this option; :class:`SetupError` naming
        what is expected and what was wrong."""
        if not isinstance(given, str):
            raise SetupError(f"option {self.name} takes text ({self.accepts()}), not {given!r}")
        text = given.strip()
        if self.check is not None:
            try:
                return self.check(text)
            except ValueError as exc:
                raise SetupError(
                    f"option {self.name}={given}: {exc}; expected {self.accepts()}"
                ) from None
        for choice in self.choices:
            if choice.lower() == text.lower():
                return choice
        raise SetupError(f"option {self.name} must be {self.accepts()}, not {given!r}")

    def values(self) -> tuple[str, ...]:
        """The values to try when every setting is covered (strength tables): the choices,
        or the default alone for an option given by a rule."""
        return self.choices or (self.default,)


@dataclass(frozen=True)
class Setup:
    """Everything needed to recreate a game's initial state: the start of every save file."""

    game: str
    players: int
    seed: int
    variant: str
    options: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Every field by its name (in their order), the options as a plain dict."""
        return {**vars(self), "options": dict(self.options)}


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
    #: the fixed-shape observation tensor of a configuration, for learning agents
    #: (:mod:`rulebook.core.spaces`)
    encoder: Callable[[Setup], ObservationEncoder] | None = None
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


def tallied(tally: Mapping[str, int], *names: str) -> dict[str, float]:
    """The counters ``names`` of a seat's tally as :attr:`Game.counters` gives them (0 for a
    name never counted), in that order."""
    return {name: float(tally.get(name, 0)) for name in names}
