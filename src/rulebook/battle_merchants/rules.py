"""Battle Merchants (rulebook ``001_44ef98e54b9802c2.txt``): Playing the Game, Player Turns.

"A game of Battle Merchants is played over four “Seasons” in order: Spring, Summer, Autumn,
and Winter. During each season, players take turns, going clockwise around the table. On your
turn, you get to take one action of your choice." This module is the table of contents: the
table itself (every supply, deck and space) is :class:`~rulebook.battle_merchants.state.Table`,
and :class:`BattleState` lists the legal moves and hands each move to the section of its
action, each module named after the rulebook's heading:

- :mod:`~rulebook.battle_merchants.turns`: Player Turns, the face-up cards refilled before the
  action, the next player after it, the Season's end after the last of the final turns;
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
    Pass,
    Sell,
    TakeKingdom,
    moves,
)
from rulebook.battle_merchants.content import content
from rulebook.battle_merchants.craft import learn, learn_cost
from rulebook.battle_merchants.forge import forge, forge_limit, forges
from rulebook.battle_merchants.kingdom import can_take_kingdom, take_kingdom
from rulebook.battle_merchants.sell import forge_and_sell, forge_and_sell_moves, sales, sell_weapon
from rulebook.battle_merchants.setup import EMPTY, set_up
from rulebook.battle_merchants.state import Table, tables
from rulebook.battle_merchants.turns import end_turn, start_turn
from rulebook.battle_merchants.year_end import (
    score_breakdown,
    score_notes,
    tiebreak,
    tiebreak_labels,
)
from rulebook.core import Action, Game, IllegalAction, Setup, find_move
from rulebook.core.action import hashable
from rulebook.core.chance import reorder
from rulebook.core.state import Texts
from rulebook.core.words import seat

__all__ = ["BattleState", "moves"]


class BattleState(Table):
    """A game of Battle Merchants for 2 to 4 players: the table
    (:class:`~rulebook.battle_merchants.state.Table`, its fields) with the game's protocol, each
    move handed to its section."""

    #: what each seat sees (:mod:`rulebook.battle_merchants.view`) and the moves in plain words
    #: (:mod:`rulebook.battle_merchants.words`)
    texts = Texts.of(view, words, aloud=aloud)

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
        start_turn(self)

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
            end_turn(self, "pass")
        elif type(action) is Done:
            end_turn(self, "forge" if step == FORGING else "kingdom")
        elif type(action) is Learn:
            learn(self, p, action.slot - 1, free=step == FREE_CRAFT)
            end_turn(self, "kingdom" if step == FREE_CRAFT else "learn")
        elif type(action) is Forge:
            forge(self, p, action, step)
        elif type(action) is Sell:
            sell_weapon(self, p, action, step)
        elif type(action) is TakeKingdom:
            nxt = take_kingdom(self, p, action.slot - 1)
            if nxt == TURN:
                end_turn(self, "kingdom")
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

    def _resample_hidden(self, player: int, rng: random.Random | None) -> None:
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
            reorder(cards, rng)
            for i, k in zip(where, cards, strict=True):
                deck[i] = k
        reorder(self.spring_deck, rng)
        reorder(self.autumn_deck, rng)

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
