"""Battle Merchants' table (Playing the Game): what a game holds between turns, and the small
helpers that need no section of the rules.

"A game of Battle Merchants is played over four “Seasons” in order: Spring, Summer, Autumn,
and Winter. During each season, players take turns, going clockwise around the table." Every
section of the rules (:mod:`~rulebook.battle_merchants.setup`,
:mod:`~rulebook.battle_merchants.turns`, :mod:`~rulebook.battle_merchants.craft`,
:mod:`~rulebook.battle_merchants.forge`, :mod:`~rulebook.battle_merchants.sell`,
:mod:`~rulebook.battle_merchants.kingdom`, :mod:`~rulebook.battle_merchants.seasons`,
:mod:`~rulebook.battle_merchants.year_end`, :mod:`~rulebook.battle_merchants.two_players`) is a
set of functions over a :class:`Table`; :class:`rulebook.battle_merchants.rules.BattleState` is
the table with the game's protocol (legal moves, each move handed to its section, copies), and
the only class a game is made of. The content's lookup tables that the table holds
(:class:`Tables`) are here too. This module imports no section.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rulebook.battle_merchants.actions import Moves
from rulebook.battle_merchants.content import Board, Content
from rulebook.core import State


class Table(State):
    """The fields of a game of Battle Merchants for 2 to 4 players, and their invariants.

    Weapons in a supply are counted per ``weapon * 2 + vorpal``. A Weapon Space holds ``EMPTY``
    or ``owner * 2 + vorpal``, where owner ``n`` (the number of players) is Salesman Steve.
    Face-up card spaces hold a card number or ``EMPTY`` (a gap closed at the next turn's start).
    Decks are lists whose last card is the top. The rows of the per-seat tables (supply,
    Craft Cards, Levels, coins, Reward Tiles, Kingdom Cards, Defeated Weapons) and of
    ``reward_spaces`` are shared by clones: a move never changes one in place, it replaces the
    row it changes.
    """

    content: Content
    board: Board
    moves: Moves
    #: the content's lookup tables (:class:`Tables`)
    tables: Tables
    #: the number of players (``num_players``, kept as a plain attribute: the compiled rules
    #: read it often)
    seats: int
    two: bool
    steve: int
    season: int
    step: str
    current: int
    count: int  # Weapons forged / sales made in this action
    penalty: int  # gold less per sale (Desperate Times)
    last_kind: str  # the kind of the last action taken (2-player cleanup)
    gold: list[int]
    supply: list[list[int]]
    crafts: list[list[int]]
    levels: list[list[int]]
    coins: list[list[int]]
    race_tiles: list[list[int]]
    region_tiles: list[list[int]]
    kingdom_cards: list[list[int]]
    defeated: list[list[int]]
    reward_spaces: list[list[bool]]
    region_on_board: list[bool]
    bonus_owner: list[int]
    bonus_up: list[bool]
    spaces: list[int]
    tokens: list[int]
    season_area: int
    tokens_discarded: int
    ending_after: int
    passes: int  # passes in a row: a full round of them means the table is frozen
    craft_pool: list[int]
    kingdom_pool: list[int]
    spring_deck: list[int]
    autumn_deck: list[int]
    boxed: int
    kingdom_deck: list[int]
    kingdom_discard: list[int]
    craft_discard: list[int]
    steve_races: list[int]
    steve_cube: int
    year_end: list[dict[str, int]]
    #: per seat, what the balance lab counts (:mod:`rulebook.battle_merchants.stats`): sales
    #: per race and Region, Weapons forged, Kingdom Cards taken, battles won, lost and tied
    tally: list[dict[str, int]]
    #: whether moves count in :attr:`tally`: not in the throwaway states of a search
    #: (determinized samples, ``_resample_hidden``; greedy's lookahead), whose counts nobody
    #: reads
    tallied: bool
    #: forge costs by a seat's coins and Kingdom Cards
    #: (:func:`~rulebook.battle_merchants.forge.forge_costs`), shared by clones
    costs_known: dict[tuple[int, ...], list[int]]

    def tally_one(self, p: int, key: str) -> None:
        """One more of ``key`` in seat ``p``'s :attr:`tally` (the balance lab's counts)."""
        # a new dict, never a change in place: clones share the seats' tallies
        if not self.tallied:
            return
        tally = dict(self.tally[p])
        tally[key] = tally.get(key, 0) + 1
        self.tally[p] = tally

    def war_after_turn(self, kind: str) -> bool:
        """Season's End: whether the turn, ended now by an action of ``kind``, ends the Season
        (:func:`~rulebook.battle_merchants.turns.end_turn`): it was the last of the final turns,
        or every player has passed."""
        passes = self.passes + 1 if kind == "pass" else 0
        return self.current == self.ending_after or passes >= self.seats


# -- the content as the compiled rules read it ----------------------------------------------
class Tables:
    """What the compiled rules read of the content on every move, as plain attributes (the
    content's cards are Python dataclasses): made once per content (:func:`tables`)."""

    def __init__(self, c: Content) -> None:
        #: per Kingdom Card: its pile, 0 for A to 3 for D
        self.pile = ["ABCD".index(k.pile) for k in c.kingdom]
        #: per Craft Card: its Weapon and its cost multiplier
        self.craft_weapon = [k.weapon for k in c.crafts]
        self.craft_multiplier = [k.multiplier for k in c.crafts]


T = TypeVar("T")


def per_content(kept: list[tuple[Content, T]], c: Content, make: Callable[[Content], T]) -> T:
    """``make(c)``, made once per content and ``kept`` (a game's content is one object, loaded
    once; a designer's override loads another, which replaces it)."""
    if kept and kept[0][0] is c:
        return kept[0][1]
    found = make(c)
    kept[:] = [(c, found)]
    return found


#: the last content's :class:`Tables`
_tables: list[tuple[Content, Tables]] = []


def tables(c: Content) -> Tables:
    """The :class:`Tables` of content ``c``."""
    return per_content(_tables, c, Tables)
