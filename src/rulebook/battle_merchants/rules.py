"""Battle Merchants (rulebook ``001_44ef98e54b9802c2.txt``): Playing the Game, Player Turns.

"A game of Battle Merchants is played over four “Seasons” in order: Spring, Summer, Autumn,
and Winter. During each season, players take turns, going clockwise around the table. On your
turn, you get to take one action of your choice." This module holds the state and the turn
flow (Player Turns: the face-up cards refilled, one action, the next player; the Season's end
after the last of the final turns) that the sections' modules hook into, each named after the
rulebook's heading:

- :mod:`~rulebook.battle_merchants.setup`: Setup, Setting Up For 2;
- :mod:`~rulebook.battle_merchants.actions`: Player Turns, the moves and the steps of a turn;
- :mod:`~rulebook.battle_merchants.craft`: Learn Craft (Craft Cards, Mastering a Craft);
- :mod:`~rulebook.battle_merchants.forge`: Forge Weapons;
- :mod:`~rulebook.battle_merchants.sell`: Sell Weapon (Regions and Battlefields, Selling
  Weapons) and Forge and Sell One Weapon;
- :mod:`~rulebook.battle_merchants.kingdom`: Take Kingdom Card (Kingdom Card Durations);
- :mod:`~rulebook.battle_merchants.seasons`: Season's End: Time For War! (Battles, Repairs,
  End of Season Cleanup);
- :mod:`~rulebook.battle_merchants.year_end`: Year's End (Winning the Game), 2-player Game End;
- :mod:`~rulebook.battle_merchants.two_players`: 2-player Game Rules (the side board's linked
  cards, Salesman Steve);
- :mod:`~rulebook.battle_merchants.view` and :mod:`~rulebook.battle_merchants.words`: Extra
  Notes (everything is public), the moves for menus and in plain words.

Rules decisions where the text is silent are marked ``Decision:`` in the docstrings and listed
in docs/battle-merchants.md. The bots (:mod:`~rulebook.battle_merchants.bots`) and their
lookahead (:mod:`~rulebook.battle_merchants.lookahead`) read the state; the rules never import
them.
"""

from __future__ import annotations

import random
from typing import Any

from rulebook.battle_merchants import aloud, view, words
from rulebook.battle_merchants.actions import (
    DONE,
    FORGING,
    FREE_CRAFT,
    FREE_FORGE,
    OVER,
    PASS,
    SALES_TWICE,
    SELLING,
    TURN,
    Bonus,
    Done,
    Forge,
    Learn,
    Moves,
    Pass,
    Sell,
    TakeKingdom,
    moves,
)
from rulebook.battle_merchants.content import Board, Content, content
from rulebook.battle_merchants.craft import craft_deck, learn, learn_cost
from rulebook.battle_merchants.forge import forge, forge_limit, forges
from rulebook.battle_merchants.kingdom import can_take_kingdom, take_kingdom
from rulebook.battle_merchants.seasons import end_season
from rulebook.battle_merchants.sell import forge_and_sell, forge_and_sell_moves, sales, sell_weapon
from rulebook.battle_merchants.setup import EMPTY, Tables, set_up, tables
from rulebook.battle_merchants.year_end import (
    score_breakdown,
    score_notes,
    tiebreak,
    tiebreak_labels,
)
from rulebook.core import Action, Game, IllegalAction, Setup, State, find_move
from rulebook.core.action import hashable
from rulebook.core.chance import shuffle
from rulebook.core.state import Texts
from rulebook.core.words import seat

__all__ = ["BattleState", "moves"]


class BattleState(State):
    """A game of Battle Merchants for 2 to 4 players.

    Weapons in a supply are counted per ``weapon * 2 + vorpal``. A Weapon Space holds ``EMPTY``
    or ``owner * 2 + vorpal``, where owner ``n`` (the number of players) is Salesman Steve.
    Face-up card spaces hold a card number or ``EMPTY`` (a gap closed at the next turn's start).
    Decks are lists whose last card is the top. The rows of the per-seat tables (supply,
    Craft Cards, Levels, coins, Reward Tiles, Kingdom Cards, Defeated Weapons) and of
    ``reward_spaces`` are shared by clones: a move never changes one in place, it replaces the
    row it changes.
    """

    #: what each seat sees (:mod:`rulebook.battle_merchants.view`) and the moves in plain words
    #: (:mod:`rulebook.battle_merchants.words`)
    texts = Texts.of(view, words, aloud=aloud)

    content: Content
    board: Board
    moves: Moves
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
    #: (determinized samples, :meth:`_resample_hidden`; greedy's lookahead), whose counts
    #: nobody reads
    tallied: bool
    #: forge costs by a seat's coins and Kingdom Cards
    #: (:func:`~rulebook.battle_merchants.forge.forge_costs`), shared by clones
    costs_known: dict[tuple[int, ...], list[int]]

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        """Setup: a new game set up (:func:`~rulebook.battle_merchants.setup.set_up`), its first
        turn begun; ``blank``: nothing set (for :meth:`clone`, which fills it: the class may be
        compiled, where ``__new__`` runs ``__init__``)."""
        if blank:
            return
        super().__init__(game, setup)
        c = self.content = content()
        n = self.seats = setup.players
        self.board = c.boards[n]
        self.moves = moves(n)
        self.tables = tables(c)
        self.two = n == 2
        self.steve = n
        self.season = 0
        self.step = TURN
        self.count = 0
        self.penalty = 0
        self.last_kind = ""
        self.tally = [{} for _ in range(n)]
        self.tallied = True
        self.costs_known = {}
        set_up(self)
        self.start_turn()

    def tally_one(self, p: int, key: str) -> None:
        """One more of ``key`` in seat ``p``'s :attr:`tally` (the balance lab's counts)."""
        # a new dict, never a change in place: clones share the seats' tallies
        if not self.tallied:
            return
        tally = dict(self.tally[p])
        tally[key] = tally.get(key, 0) + 1
        self.tally[p] = tally

    # -- Player Turns ----------------------------------------------------------------------------
    def start_turn(self) -> None:
        """Player Turns: turn over Craft and Kingdom Cards up to five and three (no re-shuffle).
        With 2 players the side board's cards slide down to fill gaps first (Kingdom and Craft
        Cards in the 2-player Game)."""
        rules = self.content.rules
        self.craft_pool = [x for x in self.craft_pool if x != EMPTY]
        self.kingdom_pool = [x for x in self.kingdom_pool if x != EMPTY]
        deck = craft_deck(self)
        crafts, kingdom = len(self.craft_pool), len(self.kingdom_pool)
        while len(self.craft_pool) < rules.face_up_crafts and deck:
            self.craft_pool.append(deck.pop())
        while len(self.kingdom_pool) < rules.face_up_kingdom and self.kingdom_deck:
            self.kingdom_pool.append(self.kingdom_deck.pop())
        self.tell("turned_up", crafts, kingdom)
        self.step = TURN
        self.count = 0
        self.penalty = 0

    def end_turn(self, kind: str) -> None:
        """Player Turns: the turn ends after an action of ``kind``; the Season ends after the
        last of the final turns (Season's End: Time For War!).

        Decision: the text ends a Season only with the third Demand Token, and a table can
        freeze before that (every player broke, at the Kingdom Card limit, nothing to sell):
        ``pass`` is legal only when no action is, and passing changes nothing, so when every
        player in turn has passed the table can never change again. Then war breaks out as if
        the Season had been triggered. A Season in which anyone can still act goes on.
        """
        war = self.war_after_turn(kind)
        self.last_kind = kind
        n = self.seats
        last = self.current
        self.passes = self.passes + 1 if kind == "pass" else 0
        if war:
            end_season(self, last)
            if self.step == OVER:
                return
        else:
            self.current = (last + 1) % n
        self.start_turn()

    def war_after_turn(self, kind: str) -> bool:
        """Season's End: whether the turn, ended now by an action of ``kind``, ends the Season
        (:meth:`end_turn`): it was the last of the final turns, or every player has passed."""
        passes = self.passes + 1 if kind == "pass" else 0
        return self.current == self.ending_after or passes >= self.seats

    # -- the protocol ----------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        return () if self.step == OVER else (self.current,)

    def is_terminal(self) -> bool:
        return self.step == OVER

    def legal_actions(self, player: object) -> list[Action]:
        """Player Turns: the actions the seat has the cards, Craft and gold for, or the moves of
        the step under way (the next Weapon to forge, the second sale, a free card); ``pass``
        only when there is none."""
        if self.step == OVER or type(player) is not int or player != self.current:
            return self.no_moves(player)
        p = player
        out: list[Action] = []
        step = self.step
        if step == FORGING:
            if self.count < forge_limit(self, p):
                forges(self, p, out, free=False)
            out.append(DONE)
            return out
        if step == SELLING:
            if self.count < SALES_TWICE:
                sales(self, p, out)
            out.append(DONE)
            return out
        if step == FREE_CRAFT:
            out += [self.moves.learn[i] for i, x in enumerate(self.craft_pool) if x != EMPTY]
            out.append(DONE)
            return out
        if step == FREE_FORGE:
            forges(self, p, out, free=True)
            out.append(DONE)
            return out
        gold = self.gold[p]
        for i, card in enumerate(self.craft_pool):
            if card != EMPTY and learn_cost(self, p, card) <= gold:
                out.append(self.moves.learn[i])
        forges(self, p, out, free=False)
        sales(self, p, out)
        for i, card in enumerate(self.kingdom_pool):
            if card != EMPTY and can_take_kingdom(self, p, card):
                out.append(self.moves.kingdom[i])
        forge_and_sell_moves(self, p, out)
        if not out:
            out.append(PASS)
        return out

    def parse_action(self, player: int, text: str) -> Action:
        return find_move(
            self.moves.by_text,
            text,
            "'learn 2', 'forge axe', 'forge vorpal mace', 'sell desert/orc/1', "
            "'sell vorpal desert/orc/1', 'kingdom 1', 'bonus desert/orc/1', 'done' or 'pass'",
        )

    def action_vocabulary(self) -> tuple[Action, ...]:
        return self.moves.vocabulary

    def _apply(self, player: int, action: Action) -> None:
        """Check the move completely (raising before any change), then perform it."""
        if not hashable(action) or (
            action not in self.moves.index and type(action) not in (Done, Pass)
        ):
            raise IllegalAction(f"{action!r} is not a Battle Merchants move")
        if action not in self.legal_actions(player):
            raise IllegalAction(f"{action} is not legal now ({self._why_not(player, action)})")
        self._perform(player, action)

    def _perform(self, player: int, action: Action) -> None:
        """Player Turns: the move made, by the section of its action."""
        p = player
        step = self.step
        if type(action) is Pass:
            self.end_turn("pass")
        elif type(action) is Done:
            self.end_turn("forge" if step == FORGING else "kingdom")
        elif type(action) is Learn:
            learn(self, p, action.slot - 1, free=step == FREE_CRAFT)
            self.end_turn("kingdom" if step == FREE_CRAFT else "learn")
        elif type(action) is Forge:
            forge(self, p, action, step)
        elif type(action) is Sell:
            sell_weapon(self, p, action, step)
        elif type(action) is TakeKingdom:
            nxt = take_kingdom(self, p, action.slot - 1)
            if nxt == TURN:
                self.end_turn("kingdom")
            else:
                self.step = nxt
                self.count = 0
        elif type(action) is Bonus:
            forge_and_sell(self, p, action)

    def _why_not(self, p: int, action: Action) -> str:
        if p != self.current:
            return f"it is {seat(self.current)}'s turn"
        if self.step != TURN:
            return f"finish the current action first ({self.step} step)"
        if type(action) in (Sell, Bonus):
            return "no such Weapon to sell, or that Weapon Space is taken or locked"
        if type(action) is Forge:
            return "not enough Craft or gold"
        if type(action) in (Learn, TakeKingdom):
            return "no card there, not enough gold, or at the Kingdom Card limit"
        return "not now"

    # -- scoring (Year's End), views and words (Extra Notes; The Actions) --------------------------
    def scores(self) -> list[int]:
        return list(self.gold)

    def score_breakdown(self, player: int) -> dict[str, int]:
        return score_breakdown(self, player)

    def tiebreak(self, player: int) -> tuple[int, ...]:
        return tiebreak(self, player)

    def tiebreak_labels(self) -> tuple[str, ...]:
        return tiebreak_labels(self)

    def score_notes(self) -> dict[str, str]:
        return score_notes(self)

    # -- copies and hidden information -----------------------------------------------------------
    def clone(self) -> BattleState:
        new = BattleState(self.game, self.setup, blank=True)
        self._copy_base(new)
        new.content = self.content
        new.board = self.board
        new.moves = self.moves
        new.tables = self.tables
        new.seats = self.seats
        new.two = self.two
        new.steve = self.steve
        new.season = self.season
        new.step = self.step
        new.current = self.current
        new.count = self.count
        new.penalty = self.penalty
        new.last_kind = self.last_kind
        new.season_area = self.season_area
        new.tokens_discarded = self.tokens_discarded
        new.ending_after = self.ending_after
        new.passes = self.passes
        new.boxed = self.boxed
        new.steve_cube = self.steve_cube
        new.gold = self.gold.copy()
        new.region_on_board = self.region_on_board.copy()
        new.bonus_owner = self.bonus_owner.copy()
        new.bonus_up = self.bonus_up.copy()
        new.spaces = self.spaces.copy()
        new.tokens = self.tokens.copy()
        new.craft_pool = self.craft_pool.copy()
        new.kingdom_pool = self.kingdom_pool.copy()
        new.spring_deck = self.spring_deck.copy()
        new.autumn_deck = self.autumn_deck.copy()
        new.kingdom_deck = self.kingdom_deck.copy()
        new.kingdom_discard = self.kingdom_discard.copy()
        new.craft_discard = self.craft_discard.copy()
        new.steve_races = self.steve_races.copy()
        # the rows of these are never changed in place (a move replaces the row it changes):
        # clones share them
        new.supply = self.supply.copy()
        new.crafts = self.crafts.copy()
        new.levels = self.levels.copy()
        new.coins = self.coins.copy()
        new.race_tiles = self.race_tiles.copy()
        new.region_tiles = self.region_tiles.copy()
        new.kingdom_cards = self.kingdom_cards.copy()
        new.defeated = self.defeated.copy()
        new.reward_spaces = self.reward_spaces.copy()
        # neither is changed in place (replaced whole): clones share their dicts
        new.year_end = self.year_end.copy()
        new.tally = self.tally.copy()
        new.tallied = self.tallied
        new.costs_known = self.costs_known
        return new

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """The decks are reshuffled; the Kingdom deck within its piles (A above B above C).
        The sample, a search's, counts nothing more in :attr:`tally`."""
        self.tallied = False
        pile = self.tables.pile
        deck = self.kingdom_deck
        places: list[list[int]] = [[], [], [], []]
        for i, k in enumerate(deck):
            places[pile[k]].append(i)
        for where in places:  # A, B, C, D: the order the piles are shuffled in
            if len(where) < 2:
                continue  # nothing to shuffle: no draw
            cards = [deck[i] for i in where]
            shuffle(cards, rng)
            for i, k in zip(where, cards, strict=True):
                deck[i] = k
        shuffle(self.spring_deck, rng)
        shuffle(self.autumn_deck, rng)

    def snapshot(self) -> dict[str, Any]:
        texts = self.moves.text
        return {
            "setup": self.setup.to_dict(),
            "chance": (self.chance.seed, self.chance.draws),
            "history": [(p, texts[a]) for p, a in self.history],
            "steve": self.steve,
            "season": self.season,
            "step": self.step,
            "current": self.current,
            "count": self.count,
            "penalty": self.penalty,
            "last_kind": self.last_kind,
            "season_area": self.season_area,
            "tokens_discarded": self.tokens_discarded,
            "ending_after": self.ending_after,
            "passes": self.passes,
            "boxed": self.boxed,
            "steve_cube": self.steve_cube,
            "gold": self.gold.copy(),
            "region_on_board": self.region_on_board.copy(),
            "bonus_owner": self.bonus_owner.copy(),
            "bonus_up": self.bonus_up.copy(),
            "spaces": self.spaces.copy(),
            "tokens": self.tokens.copy(),
            "craft_pool": self.craft_pool.copy(),
            "kingdom_pool": self.kingdom_pool.copy(),
            "spring_deck": self.spring_deck.copy(),
            "autumn_deck": self.autumn_deck.copy(),
            "kingdom_deck": self.kingdom_deck.copy(),
            "kingdom_discard": self.kingdom_discard.copy(),
            "craft_discard": self.craft_discard.copy(),
            "steve_races": self.steve_races.copy(),
            "supply": [x.copy() for x in self.supply],
            "crafts": [x.copy() for x in self.crafts],
            "levels": [x.copy() for x in self.levels],
            "coins": [x.copy() for x in self.coins],
            "race_tiles": [x.copy() for x in self.race_tiles],
            "region_tiles": [x.copy() for x in self.region_tiles],
            "kingdom_cards": [x.copy() for x in self.kingdom_cards],
            "defeated": [x.copy() for x in self.defeated],
            "reward_spaces": [x.copy() for x in self.reward_spaces],
            "year_end": [dict(x) for x in self.year_end],
            "tally": [dict(x) for x in self.tally],
        }
