"""Battle Merchants: every rule of the rulebook (``001_44ef98e54b9802c2.txt``).

The game runs over four Seasons of clockwise turns (Player Turns); each turn is one action
(see :mod:`rulebook.battle_merchants.actions` for how an action splits into moves). When the
third Demand Token reaches the Season Area every other player takes one last turn, then the
Season ends (Season's End: Time For War!): battles, repairs and the cleanup; after Winter comes
the Year's End scoring. With 2 players the side board and Salesman Steve apply (2-player Game
Rules).

Rules decisions where the text is silent are marked ``Decision:`` in the docstrings below and
listed in docs/battle-merchants.md.
"""

from __future__ import annotations

import random
from typing import Any, Final

from rulebook.battle_merchants.actions import (
    DONE,
    PASS,
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
from rulebook.battle_merchants.content import (
    Board,
    Content,
    KingdomCard,
    Space,
    card_text,
    content,
    race_plural,
    title,
)
from rulebook.core import Action, Game, IllegalAction, Setup, State, find_move
from rulebook.core.action import hashable
from rulebook.core.chance import shuffle
from rulebook.core.words import seat

# steps of a turn (Final: the compiled rules read them as constants)
TURN: Final = "turn"  # choose the action
FORGING: Final = "forge"  # Forge Up to Three Weapons, after the first Weapon
SELLING: Final = "sell"  # a second sale (Drive the Workers, Desperate Times)
FREE_CRAFT: Final = "free-craft"  # ExtraCrafty: take a Craft Card for free
FREE_FORGE: Final = "free-forge"  # Free Samples: forge one Standard Weapon for free
OVER: Final = "over"

# Demand Token states, per Battlefield
GONE: Final = 0
FIRE: Final = 1
LOCK: Final = 2
EMPTY: Final = -1
#: sales in the action of Drive the Workers and Desperate Times ("sell twice")
SALES_TWICE: Final = 2


class Tables:
    """What the compiled rules read of the content on every move, as plain attributes (the
    content's cards are Python dataclasses): made once per content (:func:`tables`)."""

    def __init__(self, c: Content) -> None:
        self.content = c
        #: per Kingdom Card: its pile, 0 for A to 3 for D
        self.pile = ["ABCD".index(k.pile) for k in c.kingdom]
        #: per Craft Card: its Weapon and its cost multiplier
        self.craft_weapon = [k.weapon for k in c.crafts]
        self.craft_multiplier = [k.multiplier for k in c.crafts]


#: the last content's :class:`Tables` (a game's content is one object, loaded once)
_tables: list[Tables] = []


def tables(c: Content) -> Tables:
    """The :class:`Tables` of content ``c``."""
    if _tables and _tables[0].content is c:
        return _tables[0]
    found = Tables(c)
    _tables[:] = [found]
    return found


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
    #: whether moves count in :attr:`tally`: not in the throwaway states of the bots' search
    #: (greedy's lookahead, determinized samples), whose counts nobody reads
    tallied: bool
    #: the bots' reading of the board (:func:`rulebook.battle_merchants.bots.board_reading`):
    #: (length of the history, what was read), shared by clones of the same position
    bot_table: tuple[int, tuple[list[int], list[list[int]]]] | None
    #: forge costs by a seat's coins and Kingdom Cards (:meth:`_forge_costs`), shared by clones
    costs_known: dict[tuple[int, ...], list[int]]

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        """A new game set up; ``blank``: nothing set (for :meth:`clone`, which fills it: the
        class may be compiled, where ``__new__`` runs ``__init__``)."""
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
        w = len(c.weapons)
        self.gold = [c.rules.start_gold] * n
        self.supply = [[0] * (2 * w) for _ in range(n)]
        self.crafts = [[] for _ in range(n)]
        self.levels = [[0] * w for _ in range(n)]
        self.coins = [[0] * w for _ in range(n)]
        self.race_tiles = [[0] * len(c.races) for _ in range(n)]
        self.region_tiles = [[0] * len(self.board.regions) for _ in range(n)]
        for p in range(n):
            for weapon in c.mat_crafts[p]:
                self.levels[p][weapon] += 1
            self.race_tiles[p][c.mat_reward[n][p]] += 1
        self.kingdom_cards = [[] for _ in range(n)]
        self.defeated = [[0, 0] for _ in range(n)]
        self.reward_spaces = [[r in self.board.races] * n for r in range(len(c.races))]
        self.region_on_board = [True] * len(self.board.regions)
        self.bonus_owner = [EMPTY] * w
        self.bonus_up = [False] * w
        self.spaces = [EMPTY] * len(self.board.spaces)
        fields = self.board.battlefields
        self.tokens = [FIRE if i % fields == 0 else LOCK for i in range(len(self.spaces) // 2)]
        self.season_area = 0
        self.tokens_discarded = 0
        self.ending_after = EMPTY
        self.passes = 0
        self.craft_discard = []
        self.kingdom_discard = []
        self.boxed = 0
        self.year_end = []
        self.tally = [{} for _ in range(n)]
        self.tallied = True
        self.bot_table = None
        self.costs_known = {}
        self._set_up()
        self._start_turn()

    # -- setup (Setup; Setting Up For 2) ---------------------------------------------------------
    def _set_up(self) -> None:
        """Build the Kingdom deck from piles A-D filtered by player count (A on top, the single
        D at the bottom), shuffle the Craft decks, place Steve's tiles, pick the start player.

        Decision: nobody has sold a Weapon to an Orc before the game, so the start player is
        random ("determine the start player randomly").
        """
        c, n = self.content, self.seats
        rng = self.chance.rng()
        deck: list[int] = []
        for pile in "DCBA":  # the deck's last card is its top
            cards = [k.index for k in c.kingdom if k.pile == pile and n in k.players]
            rng.shuffle(cards)
            deck += cards
        self.kingdom_deck = deck
        self.spring_deck = [k.index for k in c.crafts if k.deck == "spring_summer"]
        self.autumn_deck = [k.index for k in c.crafts if k.deck == "autumn_winter"]
        rng.shuffle(self.spring_deck)
        rng.shuffle(self.autumn_deck)
        self.craft_pool = []
        self.kingdom_pool = []
        self.steve_races = list(self.board.races) if self.two else []
        rng.shuffle(self.steve_races)
        self.steve_cube = 0
        self.current = rng.randrange(n)

    # -- small helpers ---------------------------------------------------------------------------
    @property
    def craft_deck(self) -> list[int]:
        """Spring/Summer Craft deck in the first two Seasons, then Autumn/Winter."""
        return self.spring_deck if self.season < 2 else self.autumn_deck

    def _effects(self, p: int, effect: str) -> list[KingdomCard]:
        k = self.content.kingdom
        return [k[i] for i in self.kingdom_cards[p] if k[i].effect == effect]

    def forge_cost(self, p: int, weapon: int, vorpal: bool) -> int:
        """Forge cost: 5 (Standard) or 15 (Vorpal), less the coins on your matching Craft Cards
        and Kingdom discounts, never below 0 (Forge Weapons)."""
        return self._forge_costs(p)[2 * weapon + int(vorpal)]

    def can_forge(self, p: int, weapon: int, vorpal: bool) -> bool:
        need = self.content.rules.vorpal_level if vorpal else 1
        return self.levels[p][weapon] >= need

    def learn_cost(self, p: int, card: int) -> int:
        """Free, or x1 / x2 times your Levels in that Weapon (Craft Cards)."""
        t = self.tables
        return t.craft_multiplier[card] * self.levels[p][t.craft_weapon[card]]

    def kingdom_limit(self) -> int:
        return self.content.rules.kingdom_limit[self.season]

    def can_take_kingdom(self, p: int, card: int) -> bool:
        """Permanent and End cards need room under the Season's limit; a card showing negative
        gold needs that gold (Take Kingdom Card)."""
        k = self.content.kingdom[card]
        if k.duration in ("permanent", "end") and len(self.kingdom_cards[p]) >= (
            self.kingdom_limit()
        ):
            return False
        return self.gold[p] + k.gold >= 0

    def open_for_sale(self, space: int) -> bool:
        """A Weapon may go on an empty space whose Battlefield has no Demand Token or a face-up
        one (Regions and Battlefields)."""
        return self.spaces[space] == EMPTY and self.tokens[space >> 1] != LOCK

    def open_spaces(self) -> list[int]:
        """Every space :meth:`open_for_sale`, in board order."""
        spaces = self.spaces
        out = []
        for bf, token in enumerate(self.tokens):  # most Battlefields are locked
            if token != LOCK:
                i = bf << 1
                if spaces[i] == EMPTY:
                    out.append(i)
                if spaces[i + 1] == EMPTY:
                    out.append(i + 1)
        return out

    def battle_level(self, owner: int, weapon: int) -> int:
        return self.levels[owner][weapon] + sum(
            k.amount for k in self._effects(owner, "battle_level")
        )

    def sale_value(self, p: int, space: Space, vorpal: bool) -> int:
        """Base Sell Value + 1 per matching race / Region Reward Tile (+ Kingdom bonuses)."""
        chart = self.content.chart
        value = chart.sell_vorpal if vorpal else chart.sell_standard
        value += self.race_tiles[p][space.race] + self.region_tiles[p][space.region]
        for k in self._effects(p, "sale_bonus"):
            if (k.race is None or k.race == space.race) and (
                k.quality is None or k.quality == int(vorpal)
            ):
                value += k.amount
        return max(value - self.penalty, 0)

    # -- turn flow -------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        """Turn over Craft and Kingdom Cards up to five and three (no re-shuffle). With 2
        players the side board's cards slide down to fill gaps first (Kingdom and Craft Cards
        in the 2-player Game)."""
        rules = self.content.rules
        self.craft_pool = [x for x in self.craft_pool if x != EMPTY]
        self.kingdom_pool = [x for x in self.kingdom_pool if x != EMPTY]
        deck = self.craft_deck
        while len(self.craft_pool) < rules.face_up_crafts and deck:
            self.craft_pool.append(deck.pop())
        while len(self.kingdom_pool) < rules.face_up_kingdom and self.kingdom_deck:
            self.kingdom_pool.append(self.kingdom_deck.pop())
        self.step = TURN
        self.count = 0
        self.penalty = 0

    def _end_turn(self, kind: str) -> None:
        """The turn ends; the Season ends after the last of the final turns.

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
            self._end_season(last)
            if self.step == OVER:
                return
        else:
            self.current = (last + 1) % n
        self._start_turn()

    def war_after_turn(self, kind: str) -> bool:
        """Whether the turn, ended now by an action of ``kind``, ends the Season
        (:meth:`_end_turn`): it was the last of the final turns, or every player has passed."""
        passes = self.passes + 1 if kind == "pass" else 0
        return self.current == self.ending_after or passes >= self.seats

    def last_forge(self, p: int) -> bool:
        """Whether the Weapon forged now is the last of the action (Forge Up to Three Weapons)."""
        return self.count + 1 >= self.forge_limit(p)

    def last_sale(self) -> bool:
        """Whether a sale now ends the action: always, but the first of the two sales of Drive the
        Workers or Desperate Times."""
        return self.step != SELLING or self.count + 1 >= SALES_TWICE

    def sale_sends_token(self, space: int) -> bool:
        """Whether a Weapon sold to the empty ``space`` fills a Battlefield under a face-up Demand
        Token (:meth:`_check_token` then sends it to the Season Area and flips the next one)."""
        return self.tokens[space >> 1] == FIRE and self.spaces[space ^ 1] != EMPTY

    # -- the Season's end (Season's End: Time For War!) -----------------------------------------
    def _end_season(self, last: int) -> None:
        """Battles, repairs, then the cleanup (or the Year's End after Winter); the player who
        triggered the end (to the left of the last player) starts the next Season."""
        self._battles()
        self._repairs()
        rules = self.content.rules
        if self.season == len(rules.seasons) - 1:
            self._year_end()
            return
        self._cleanup()
        self.season += 1
        self.season_area = 0
        self.ending_after = EMPTY
        self.passes = 0
        self.current = (last + 1) % self.seats

    def _battles(self) -> None:
        """Every Battlefield with two facing Weapons fights (Battles): Vorpal beats Standard,
        else the higher Craft Level of the sellers in their Weapon wins, else a tie (both
        removed, 1 gold to each owner). Steve's Weapons lose to any player's Weapon.

        Decision: two of Steve's Weapons facing each other tie (both go to the supply, no gold).
        """
        rules = self.content.rules
        steve = self.steve
        for a in range(0, len(self.spaces), 2):
            x, y = self.spaces[a], self.spaces[a + 1]
            if x == EMPTY or y == EMPTY:
                continue
            ox, oy = x >> 1, y >> 1
            if ox == steve and oy == steve:
                winner = 0
            elif ox == steve:
                winner = -1
            elif oy == steve:
                winner = 1
            elif (x & 1) != (y & 1):
                winner = 1 if x & 1 else -1
            else:
                lx = self.battle_level(ox, self.board.spaces[a].weapon)
                ly = self.battle_level(oy, self.board.spaces[a + 1].weapon)
                winner = (lx > ly) - (lx < ly)
            if winner == 0:
                for owner in (ox, oy):
                    if owner != steve:
                        self.gold[owner] += rules.tie_gold
                        self._count(owner, "battles_tied")
                self.spaces[a] = self.spaces[a + 1] = EMPTY
            else:
                win, lose = (a, a + 1) if winner > 0 else (a + 1, a)
                for space, outcome in ((win, "battles_won"), (lose, "battles_lost")):
                    if self.spaces[space] >> 1 != steve:
                        self._count(self.spaces[space] >> 1, outcome)
                owner = self.spaces[win] >> 1
                defeated = self.defeated[owner] = self.defeated[owner].copy()
                defeated[self.spaces[lose] & 1] += 1
                self.spaces[lose] = EMPTY

    def _repairs(self) -> None:
        """Two gold per Weapon a player owns on the board (Repairs), plus Kingdom bonuses."""
        rules = self.content.rules
        n = self.seats
        owned = [0] * (n + 1)
        for code in self.spaces:
            if code != EMPTY:
                owned[code >> 1] += 1
        for p in range(n):
            per = rules.repair_gold + sum(k.amount for k in self._effects(p, "repair_bonus"))
            self.gold[p] += per * owned[p]

    def _cleanup(self) -> None:
        """End of Season Cleanup. 3-4 players: the face-up Kingdom Cards are discarded (Final
        cards stay) and the face-up Craft Cards too. 2 players: nothing is discarded, unless
        the last action was neither Learn Craft nor Take Kingdom Card: then the cards in
        Kingdom space 1 and Craft space 1 go (Slush Fund never). After Summer the rest of the
        Spring/Summer deck leaves the game. Craft Bonus cards flip up; Reward spaces refill.

        Decision: in the 2-player game the side board's Spring/Summer cards stay on it into
        Autumn (only the refills come from the Autumn/Winter deck).
        """
        c = self.content
        self.craft_pool = [x for x in self.craft_pool if x != EMPTY]
        self.kingdom_pool = [x for x in self.kingdom_pool if x != EMPTY]
        if not self.two:
            final = [k for k in self.kingdom_pool if c.kingdom[k].duration == "final"]
            self.kingdom_discard += [k for k in self.kingdom_pool if k not in final]
            self.kingdom_pool = final
            self.craft_discard += self.craft_pool
            self.craft_pool = []
        elif self.last_kind not in ("learn", "kingdom"):
            if self.kingdom_pool and c.kingdom[self.kingdom_pool[0]].duration != "final":
                self.kingdom_discard.append(self.kingdom_pool.pop(0))
            if self.craft_pool:
                self.craft_discard.append(self.craft_pool.pop(0))
        if self.season == 1:  # end of Summer
            self.boxed += len(self.spring_deck)
            self.spring_deck = []
        self.bonus_up = [owner != EMPTY for owner in self.bonus_owner]
        for race in self.board.races:
            self.reward_spaces[race] = [True] * self.seats

    def _year_end(self) -> None:
        """Year's End: unsold Weapons at End Value; Defeated Weapons bonus (Vorpal 2, Standard
        1; 15 and 7 gold, 2 players 7 only); End Kingdom Cards.

        Decision: players tied for a place each get that place's gold and the next place is
        skipped; a Defeated total of 0 earns nothing.
        """
        c = self.content
        rules, chart = c.rules, c.chart
        n = self.seats
        parts: list[dict[str, int]] = [{} for _ in range(n)]
        for p in range(n):
            std = sum(self.supply[p][0::2])
            vor = sum(self.supply[p][1::2])
            parts[p]["unsold_weapons"] = std * chart.end_standard + vor * chart.end_vorpal
        totals = [self.defeated_total(p) for p in range(n)]
        prizes = rules.defeated_bonus_2p if self.two else rules.defeated_bonus
        bonus = [0] * n
        place = 0
        for value in sorted(set(totals), reverse=True):
            if value <= 0 or place >= len(prizes):
                break
            tied = [p for p in range(n) if totals[p] == value]
            for p in tied:
                bonus[p] = prizes[place]
            place += len(tied)
        on_board = self._on_board()
        for p in range(n):
            parts[p]["defeated_weapons"] = bonus[p]
            end = 0
            for k in self._effects_end(p):
                end += self._end_card_gold(p, k, on_board)
            parts[p]["end_cards"] = end
            self.gold[p] += sum(parts[p].values())
        self.year_end = parts
        self.step = OVER

    def _effects_end(self, p: int) -> list[KingdomCard]:
        k = self.content.kingdom
        return [k[i] for i in self.kingdom_cards[p] if k[i].duration == "end"]

    def _end_card_gold(self, p: int, k: KingdomCard, on_board: list[list[int]]) -> int:
        """What an End Kingdom Card pays at the Year's End."""
        if k.effect == "end_flat":
            return k.amount
        if k.effect == "end_per_defeated":
            count = self.defeated_total(p)
        elif k.effect == "end_per_reward":
            count = sum(self.race_tiles[p]) + sum(self.region_tiles[p])
        elif k.effect == "end_per_craft_card":
            count = len(self.crafts[p])
        elif k.effect == "end_per_unsold":
            count = sum(self.supply[p])
        else:  # end_per_board_weapon
            count = sum(on_board[p])
        return k.amount * (count // k.per)

    def defeated_total(self, p: int) -> int:
        rules = self.content.rules
        std, vor = self.defeated[p]
        return std * rules.defeated_standard + vor * rules.defeated_vorpal

    def _on_board(self) -> list[list[int]]:
        """Per seat: [Standard, Vorpal] Weapons it owns on the board."""
        n = self.seats
        counts = [[0, 0] for _ in range(n)]
        for code in self.spaces:
            if code != EMPTY and code >> 1 < n:
                counts[code >> 1][code & 1] += 1
        return counts

    # -- selling (Selling Weapons; Salesman Steve) -----------------------------------------------
    def _sell(self, p: int, space: Space, vorpal: bool) -> None:
        """Place the Weapon, take the gold, then the Reward Tile of your colour (one per race
        per Season: the space refills only at the cleanup), then check the Demand Token; with
        2 players Steve sells after every sale."""
        self.spaces[space.index] = p * 2 + int(vorpal)
        self.gold[p] += self.sale_value(p, space, vorpal)
        c = self.content
        self._count(p, f"race:{c.races[space.race]}")
        self._count(p, f"region:{self.board.regions[space.region]}")
        self._count(p, "sold_vorpal" if vorpal else "sold_standard")
        if self.reward_spaces[space.race][p]:
            spaces = self.reward_spaces[space.race] = self.reward_spaces[space.race].copy()
            spaces[p] = False
            tiles = self.race_tiles[p] = self.race_tiles[p].copy()
            tiles[space.race] += 1
        self._check_token(space)
        if self.two:
            self._steve_sells(space)

    def _count(self, p: int, key: str) -> None:
        # a new dict, never a change in place: clones share the seats' tallies
        if not self.tallied:
            return
        tally = dict(self.tally[p])
        tally[key] = tally.get(key, 0) + 1
        self.tally[p] = tally

    def _check_token(self, space: Space) -> None:
        """A face-up Demand Token with Weapons on both sides goes to the Season Area, and the
        next Battlefield's token flips face-up.

        Decision: a token flipped face-up between two Weapons already placed (by Steve, who
        ignores locks) leaves at once in the same way.
        """
        bf = space.index >> 1
        if self.tokens[bf] != FIRE or EMPTY in (self.spaces[2 * bf], self.spaces[2 * bf + 1]):
            return
        self.tokens[bf] = GONE
        if self.ending_after == EMPTY:
            self.season_area += 1
            if self.season_area >= self.content.rules.season_tokens:
                self.ending_after = (self.current - 1) % self.seats
        else:
            self.tokens_discarded += 1  # the Season is ending: "no further effect"
        if space.battlefield + 1 < self.board.battlefields and self.tokens[bf + 1] == LOCK:
            self.tokens[bf + 1] = FIRE
            self._check_token(self.board.spaces[2 * (bf + 1)])

    def steve_target(self, sold: Space, before_sale: bool = False) -> Space | None:
        """Where Steve sells next: the lowest open space of his race (locks ignored); ties go
        to the first such row clockwise from the row just sold to. None if the race is full.
        ``before_sale``: asked before the sale to ``sold`` is made (its space counts as
        filled)."""
        race = self.steve_races[self.steve_cube]
        board = self.board
        rows = len(board.rows)
        best: tuple[int, int] | None = None
        target = None
        for row, row_spaces in enumerate(board.rows):
            if board.row_race[row] != race:
                continue
            for b, s in enumerate(row_spaces):
                if self.spaces[s] == EMPTY and not (before_sale and s == sold.index):
                    key = (b, (row - sold.row) % rows)
                    if best is None or key < best:
                        best, target = key, s
                    break
        return None if target is None else board.spaces[target]

    def _steve_sells(self, sold: Space) -> None:
        """Salesman Steve sells a Standard Weapon (no owner, no gold), then his cube moves."""
        target = self.steve_target(sold)
        if target is not None:
            self.spaces[target.index] = self.steve * 2
            self._check_token(target)
        self.steve_cube = (self.steve_cube + 1) % len(self.steve_races)

    # -- cards -----------------------------------------------------------------------------------
    def _take_slot(self, pool: list[int], kind: str, slot: int) -> None:
        """Take the card in a face-up space; with 2 players discard the linked card (never
        Slush Fund: Final cards stay). A Final card taken stays in its space.

        Decision: using Slush Fund still discards the Craft Card linked to its space.
        """
        c = self.content
        card = pool[slot]
        if not (kind == "kingdom" and c.kingdom[card].duration == "final"):
            pool[slot] = EMPTY
        if not self.two:
            return
        link = c.links.get((kind, slot))
        if link is None:
            return
        other_pool = self.craft_pool if link[0] == "craft" else self.kingdom_pool
        if link[1] >= len(other_pool) or other_pool[link[1]] == EMPTY:
            return
        other = other_pool[link[1]]
        if link[0] == "kingdom":
            if c.kingdom[other].duration == "final":
                return
            self.kingdom_discard.append(other)
        else:
            self.craft_discard.append(other)
        other_pool[link[1]] = EMPTY

    def _learn(self, p: int, slot: int, free: bool) -> None:
        """Learn One Craft: pay, gain its Levels and coins; the first to Level 6 takes the Craft
        Bonus card (Mastering a Craft)."""
        card = self.craft_pool[slot]
        k = self.content.crafts[card]
        if not free:
            self.gold[p] -= self.learn_cost(p, card)
        self._take_slot(self.craft_pool, "craft", slot)
        self.crafts[p] = [*self.crafts[p], card]
        levels = self.levels[p] = self.levels[p].copy()
        levels[k.weapon] += k.levels
        coins = self.coins[p] = self.coins[p].copy()
        coins[k.weapon] += k.coins
        if (
            levels[k.weapon] >= self.content.rules.bonus_level
            and self.bonus_owner[k.weapon] == EMPTY
        ):
            self.bonus_owner[k.weapon] = p
            self.bonus_up[k.weapon] = True

    def _take_kingdom(self, p: int, slot: int) -> str:
        """Take One Kingdom Card: collect or pay its gold, then apply it. Returns the next
        step of the turn (TURN when the turn is over)."""
        c = self.content
        card = self.kingdom_pool[slot]
        k = c.kingdom[card]
        self._take_slot(self.kingdom_pool, "kingdom", slot)
        self._count(p, f"kingdom:{k.name}")
        self.gold[p] += k.gold
        if k.duration in ("permanent", "end"):
            self.kingdom_cards[p] = [*self.kingdom_cards[p], card]
        elif k.duration == "immediate":
            self.kingdom_discard.append(card)
        if k.effect == "free_craft":
            return FREE_CRAFT if any(x != EMPTY for x in self.craft_pool) else TURN
        if k.effect == "free_forge":
            return FREE_FORGE
        if k.effect == "sell_twice":
            self.penalty = k.amount
            return SELLING
        if k.effect == "region_tile" and k.region in self.board.regions:
            r = self.board.regions.index(k.region)
            if self.region_on_board[r]:
                self.region_on_board[r] = False
                tiles = self.region_tiles[p] = self.region_tiles[p].copy()
                tiles[r] += 1
        return TURN

    # -- the protocol ----------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        return () if self.step == OVER else (self.current,)

    def is_terminal(self) -> bool:
        return self.step == OVER

    def _sales(self, p: int, out: list[Action]) -> None:
        supply = self.supply[p]
        if not any(supply):
            return
        sell = self.moves.sell
        space_weapon = self.moves.space_weapon
        for i in self.open_spaces():
            w = space_weapon[i]
            if supply[w]:
                out.append(sell[2 * i])
            if supply[w + 1]:
                out.append(sell[2 * i + 1])

    def _forges(self, p: int, out: list[Action], free: bool) -> None:
        gold = self.gold[p]
        levels = self.levels[p]
        vorpal_level = self.content.rules.vorpal_level
        forge = self.moves.forge
        costs = None if free else self._forge_costs(p)
        for w, level in enumerate(levels):
            if level < 1:
                continue
            if costs is None:
                out.append(forge[2 * w])
                continue
            if costs[2 * w] <= gold:
                out.append(forge[2 * w])
            if level >= vorpal_level and costs[2 * w + 1] <= gold:
                out.append(forge[2 * w + 1])

    def _forge_costs(self, p: int) -> list[int]:
        """Forge cost of every Weapon and quality, as ``forge_cost`` gives it (remembered by the
        seat's coins and Kingdom Cards, the only things it depends on; not to be changed)."""
        key = (*self.coins[p], -1, *self.kingdom_cards[p])
        costs = self.costs_known.get(key)
        if costs is None:
            costs = self.costs_known[key] = self._price_forges(p)
        return costs

    def _price_forges(self, p: int) -> list[int]:
        chart = self.content.chart
        std, vor = chart.forge_standard, chart.forge_vorpal
        for card in self._effects(p, "forge_discount"):
            if card.quality is None or card.quality == 0:
                std -= card.amount
            if card.quality is None or card.quality == 1:
                vor -= card.amount
        out = []
        for coins in self.coins[p]:
            out.append(max(std - coins, 0))
            out.append(max(vor - coins, 0))
        return out

    def forge_limit(self, p: int) -> int:
        return self.content.rules.forge_limit + sum(
            k.amount for k in self._effects(p, "forge_limit")
        )

    def legal_actions(self, player: int) -> list[Action]:
        if self.step == OVER or player != self.current:
            return self.no_moves(player)
        p = player
        out: list[Action] = []
        step = self.step
        if step == FORGING:
            if self.count < self.forge_limit(p):
                self._forges(p, out, free=False)
            out.append(DONE)
            return out
        if step == SELLING:
            if self.count < SALES_TWICE:
                self._sales(p, out)
            out.append(DONE)
            return out
        if step == FREE_CRAFT:
            out += [self.moves.learn[i] for i, x in enumerate(self.craft_pool) if x != EMPTY]
            out.append(DONE)
            return out
        if step == FREE_FORGE:
            self._forges(p, out, free=True)
            out.append(DONE)
            return out
        gold = self.gold[p]
        for i, card in enumerate(self.craft_pool):
            if card != EMPTY and self.learn_cost(p, card) <= gold:
                out.append(self.moves.learn[i])
        self._forges(p, out, free=False)
        self._sales(p, out)
        for i, card in enumerate(self.kingdom_pool):
            if card != EMPTY and self.can_take_kingdom(p, card):
                out.append(self.moves.kingdom[i])
        for w, owner in enumerate(self.bonus_owner):
            if owner != p or not self.bonus_up[w]:
                continue
            for v in (False, True):
                if not self.can_forge(p, w, v) or self.forge_cost(p, w, v) > gold:
                    continue
                for s in self.board.spaces:
                    if s.weapon == w and self.open_for_sale(s.index):
                        out.append(self.moves.bonus[s.index * 2 + v])
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
        p = player
        step = self.step
        if type(action) is Pass:
            self._end_turn("pass")
        elif type(action) is Done:
            self._end_turn("forge" if step == FORGING else "kingdom")
        elif type(action) is Learn:
            self._learn(p, action.slot - 1, free=step == FREE_CRAFT)
            self._end_turn("kingdom" if step == FREE_CRAFT else "learn")
        elif type(action) is Forge:
            self._forge(p, action, step)
        elif type(action) is Sell:
            index = self.moves.index[action] >> 1
            supply = self.supply[p] = self.supply[p].copy()
            supply[self.board.spaces[index].weapon * 2 + action.vorpal] -= 1
            last = self.last_sale()
            self._sell(p, self.board.spaces[index], action.vorpal)
            if step == SELLING:
                self.count += 1
                if last:
                    self._end_turn("kingdom")
            else:
                self._end_turn("sell")
        elif type(action) is TakeKingdom:
            nxt = self._take_kingdom(p, action.slot - 1)
            if nxt == TURN:
                self._end_turn("kingdom")
            else:
                self.step = nxt
                self.count = 0
        elif type(action) is Bonus:
            space = self.board.spaces[self.moves.index[action] >> 1]
            self.gold[p] -= self.forge_cost(p, space.weapon, action.vorpal)
            self.bonus_up[space.weapon] = False
            self._sell(p, space, action.vorpal)
            self._end_turn("bonus")

    def _forge(self, p: int, action: Forge, step: str) -> None:
        w = self.content.weapons.index(action.weapon)
        self._count(
            p, "forged_vorpal" if action.vorpal and step != FREE_FORGE else "forged_standard"
        )
        if step == FREE_FORGE:
            supply = self.supply[p] = self.supply[p].copy()
            supply[w * 2] += 1
            self._end_turn("kingdom")
            return
        self.gold[p] -= self.forge_cost(p, w, action.vorpal)
        supply = self.supply[p] = self.supply[p].copy()
        supply[w * 2 + action.vorpal] += 1
        last = self.last_forge(p)
        self.count += 1
        self.step = FORGING
        if last:
            self._end_turn("forge")

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

    # -- scoring (Year's End) --------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.gold)

    def score_breakdown(self, player: int) -> dict[str, int]:
        """Gold: what was earned during the Seasons, then the three Year's End parts."""
        parts = (
            self.year_end[player]
            if self.year_end
            else {"unsold_weapons": 0, "defeated_weapons": 0, "end_cards": 0}
        )
        return {"seasons": self.gold[player] - sum(parts.values()), **parts}

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """Ties: 2 gold per Standard and 3 per Vorpal Weapon owned on the board; then shared."""
        rules = self.content.rules
        std, vor = self._on_board()[player]
        return (std * rules.tiebreak_standard + vor * rules.tiebreak_vorpal,)

    def tiebreak_labels(self) -> tuple[str, ...]:
        rules = self.content.rules
        return (
            f"Weapons on the board ({rules.tiebreak_standard} gold a Standard, "
            f"{rules.tiebreak_vorpal} a Vorpal)",
        )

    # -- views -----------------------------------------------------------------------------------
    def _view(self, player: int | None) -> dict[str, Any]:
        """The table as ``player`` sees it (``None``: as every seat sees it). Everything is
        public ("Everything you have ... is public") except the order of the decks and which
        Spring/Summer cards went back to the box.

        Besides the table: the seat whose turn ends the Season (after the third Demand
        Token), the Weapons forged or sales made in the action under way (``action_count``)
        and the gold less per sale (``sale_penalty``, Desperate Times), the passes in a row and
        the kind of the last action (the 2-player cleanup depends on it): all of it seen by
        everyone as the moves were made."""
        c = self.content
        board = self.board
        weapons = c.weapons
        crafts = c.crafts
        seats = []
        on_board = self._on_board()
        for p in range(self.seats):
            seats.append(
                {
                    "colour": c.colours[p],
                    "gold": self.gold[p],
                    "supply": {
                        f"{'vorpal ' if v else ''}{weapons[w]}": self.supply[p][w * 2 + v]
                        for w in range(len(weapons))
                        for v in (0, 1)
                        if self.supply[p][w * 2 + v]
                    },
                    "levels": dict(zip(weapons, self.levels[p], strict=True)),
                    "discounts": dict(zip(weapons, self.coins[p], strict=True)),
                    "craft_cards": [crafts[k].label(weapons) for k in self.crafts[p]],
                    "reward_tiles": {
                        **{c.races[r]: t for r, t in enumerate(self.race_tiles[p]) if t},
                        **{board.regions[r]: t for r, t in enumerate(self.region_tiles[p]) if t},
                    },
                    "kingdom_cards": [c.kingdom[k].name for k in self.kingdom_cards[p]],
                    "defeated": {"standard": self.defeated[p][0], "vorpal": self.defeated[p][1]},
                    "on_board": {"standard": on_board[p][0], "vorpal": on_board[p][1]},
                    "craft_bonus": [
                        {"weapon": weapons[w], "face_up": self.bonus_up[w]}
                        for w, o in enumerate(self.bonus_owner)
                        if o == p
                    ],
                    "score": self.gold[p],
                }
            )
        names = [c.colours[p] for p in range(self.seats)] + ["steve"]
        regions = []
        fields = board.battlefields
        for r, name in enumerate(board.regions):
            battlefields = []
            for bf in range(r * fields, (r + 1) * fields):
                codes = self.spaces[2 * bf], self.spaces[2 * bf + 1]
                battlefields.append(
                    {
                        "token": ("none", "fire", "lock")[self.tokens[bf]],
                        "weapons": [
                            None
                            if code == EMPTY
                            else names[code >> 1] + (" vorpal" if code & 1 else "")
                            for code in codes
                        ],
                    }
                )
            regions.append(
                {
                    "name": name,
                    "races": [c.races[x] for x in board.region_races[r]],
                    "demands": list(self.demands[r]),
                    "region_tile_on_board": self.region_on_board[r],
                    "battlefields": battlefields,
                }
            )
        obs: dict[str, Any] = {
            "game": self.setup.game,
            "you": player,
            "season": c.rules.seasons[self.season],
            "step": self.step,
            "current_players": list(self.current_players()),
            "kingdom_limit": self.kingdom_limit(),
            "season_area": self.season_area,
            "season_ending": self.ending_after != EMPTY,
            # what every seat saw happen this turn and Season (the moves are public)
            "season_ends_after": None if self.ending_after == EMPTY else self.ending_after,
            "action_count": self.count,
            "sale_penalty": self.penalty,
            "passes": self.passes,
            "last_action": self.last_kind,
            "tokens_discarded": self.tokens_discarded,
            "reward_spaces": {
                c.races[r]: [names[p] for p in range(self.seats) if self.reward_spaces[r][p]]
                for r in board.races
            },
            "craft_cards": [
                None if k == EMPTY else crafts[k].label(weapons) for k in self.craft_pool
            ],
            "craft_faces": [
                None if k == EMPTY else crafts[k].face(weapons) for k in self.craft_pool
            ],
            "kingdom_cards": [
                None if k == EMPTY else self._kingdom_view(k) for k in self.kingdom_pool
            ],
            "craft_bonus_available": [
                weapons[w] for w, o in enumerate(self.bonus_owner) if o == EMPTY
            ],
            "decks": {
                "craft": len(self.craft_deck),
                "autumn_winter": len(self.autumn_deck),
                "kingdom": len(self.kingdom_deck),
                "boxed": self.boxed,
            },
            "kingdom_discard": [c.kingdom[k].name for k in self.kingdom_discard],
            "craft_discard": [crafts[k].label(weapons) for k in self.craft_discard],
            "regions": regions,
            "seats": seats,
        }
        if self.two:
            lines: list[str] = []
            for (a, x), (b, y) in c.links.items():  # each line twice, first as written
                if f"{b} {y + 1} - {a} {x + 1}" not in lines:
                    lines.append(f"{a} {x + 1} - {b} {y + 1}")
            obs["side_board_links"] = lines
            obs["steve"] = {
                "races": [c.races[r] for r in self.steve_races],
                "next": c.races[self.steve_races[self.steve_cube]],
            }
        if self.step == OVER:
            obs["winners"] = self.winners()
            obs["year_end"] = self.year_end
        return obs

    @property
    def demands(self) -> list[list[str]]:
        """Per Region: the Weapons each Battlefield demands, "axe-sword" (first race first)."""
        return self.moves.demands

    def _kingdom_view(self, card: int) -> dict[str, Any]:
        k = self.content.kingdom[card]
        return {
            "name": k.name,
            "duration": k.duration,
            "gold": k.gold,
            "text": card_text(k, self.content),
        }

    def explain(self, player: int, action: Action) -> str:
        """The move with its card, cost or gold, for menus."""
        c = self.content
        try:
            if type(action) is Learn and self.craft_pool[action.slot - 1] != EMPTY:
                card = self.craft_pool[action.slot - 1]
                cost = 0 if self.step == FREE_CRAFT else self.learn_cost(player, card)
                return (
                    f"{action}: {c.crafts[card].label(c.weapons)} for {cost} gold"
                    + self._linked(("craft", action.slot - 1))
                )
            if type(action) is TakeKingdom and self.kingdom_pool[action.slot - 1] != EMPTY:
                k = c.kingdom[self.kingdom_pool[action.slot - 1]]
                return (
                    f"{action}: {k.name} ({k.duration}, {k.gold:+d} gold): {card_text(k, c)}"
                    + self._linked(("kingdom", action.slot - 1))
                )
            if type(action) is Forge:
                w = c.weapons.index(action.weapon)
                cost = 0 if self.step == FREE_FORGE else self.forge_cost(player, w, action.vorpal)
                return f"{action} ({cost} gold)"
            if type(action) is Sell:
                s = self.board.spaces[self.moves.index[action] >> 1]
                weapon = ("Vorpal " if action.vorpal else "") + c.weapons[s.weapon]
                value = self.sale_value(player, s, action.vorpal)
                return f"{action} ({weapon} to the {race_plural(c.races[s.race])}, {value} gold)"
            if type(action) is Bonus:
                s = self.board.spaces[self.moves.index[action] >> 1]
                weapon = ("Vorpal " if action.vorpal else "") + c.weapons[s.weapon]
                cost = self.forge_cost(player, s.weapon, action.vorpal)
                value = self.sale_value(player, s, action.vorpal)
                race = race_plural(c.races[s.race])
                return f"{action} (forge a {weapon} for {cost}, sell it to the {race} for {value})"
        except (IndexError, ValueError, KeyError):
            pass
        return str(action)

    def _linked(self, where: tuple[str, int]) -> str:
        """With 2 players: the card a take discards with it (its black line), for menus."""
        link = self._linked_card(where)
        if link is None:
            return ""
        kind, slot, card = link
        c = self.content
        name = c.kingdom[card].name if kind == "kingdom" else c.crafts[card].label(c.weapons)
        return f"; discards {kind} {slot + 1} ({name})"

    def _linked_card(self, where: tuple[str, int]) -> tuple[str, int, int] | None:
        """With 2 players: the card that taking the card in ``where`` (kind, space from 0)
        discards (its black line), as (kind, space, card); None if there is none (Kingdom
        and Craft Cards in the 2-player Game; a Final card is never discarded)."""
        link = self.content.links.get(where) if self.two else None
        if link is None:
            return None
        kind, slot = link
        pool = self.craft_pool if kind == "craft" else self.kingdom_pool
        if slot >= len(pool) or pool[slot] == EMPTY:
            return None
        card = pool[slot]
        if kind == "kingdom" and self.content.kingdom[card].duration == "final":
            return None
        return kind, slot, card

    # -- moves in plain words (issue 23) ---------------------------------------------------------
    def describe(self, player: int, action: Action) -> str:
        """The move in plain words for a newcomer, as an instruction beginning with its verb:
        what it costs, what it gives and what comes with it (a Reward Tile, a Demand Token to
        the Season Area, Salesman Steve's sale, the card its black line discards, the end of
        the Season). Card texts are quoted, so that the words read right told of another seat
        (:func:`rulebook.core.words.third_person`). Everything it names is public."""
        try:
            if type(action) is Learn:
                text = self._describe_learn(player, action.slot - 1)
            elif type(action) is TakeKingdom:
                text = self._describe_kingdom(player, action.slot - 1)
            elif type(action) is Forge:
                text = self._describe_forge(player, action)
            elif type(action) is Sell:
                text = self._describe_sale(player, action)
            elif type(action) is Bonus:
                text = self._describe_bonus(player, action)
            elif type(action) is Done:
                text = self._describe_done()
            elif type(action) is Pass:
                text = "Pass the turn: no action is possible"
                if not self.war_after_turn("pass"):
                    text += " (when every merchant passes in a row, the Season ends)"
            else:
                return self.explain(player, action)
        except (IndexError, ValueError, KeyError):
            return self.explain(player, action)
        return text + self._season_end_words(player, action)

    def _card_names(self, effect: str) -> str:
        """The Kingdom Cards of this game with ``effect`` (what a free step comes from)."""
        n = self.seats
        return " or ".join(
            k.name for k in self.content.kingdom if k.effect == effect and n in k.players
        )

    def _craft_words(self, slot: int) -> str:
        """``the Axe +2 Craft Card (Craft space 3)``."""
        c = self.content
        card = self.craft_pool[slot]
        if card == EMPTY:
            raise IndexError(slot)
        k = c.crafts[card]
        return f"the {title(c.weapons[k.weapon])} +{k.levels} Craft Card (Craft space {slot + 1})"

    def _kingdom_words(self, slot: int) -> str:
        """``the Kingdom Card Night Shift (Kingdom space 2)``."""
        card = self.kingdom_pool[slot]
        if card == EMPTY:
            raise IndexError(slot)
        return f"the Kingdom Card {self.content.kingdom[card].name} (Kingdom space {slot + 1})"

    def _discards_words(self, where: tuple[str, int]) -> str:
        """With 2 players: what the side board's black line discards with a card."""
        link = self._linked_card(where)
        if link is None:
            return ""
        kind, slot, _ = link
        card = self._kingdom_words(slot) if kind == "kingdom" else self._craft_words(slot)
        return f"; its black line discards {card}"

    def _describe_learn(self, p: int, slot: int) -> str:
        """Learn One Craft (or ExtraCrafty's free Craft Card): cost, Levels, coins, Vorpal,
        the Craft Bonus card."""
        c = self.content
        rules = c.rules
        card = self.craft_pool[slot]
        name = self._craft_words(slot)
        k = c.crafts[card]
        weapon = title(c.weapons[k.weapon])
        if self.step == FREE_CRAFT:
            head = f"Take {name} for free ({self._card_names('free_craft')})"
        else:
            cost = self.learn_cost(p, card)
            if cost:
                head = f"Pay {cost} gold ({k.multiplier} per {weapon} Level held) to learn {name}"
            elif k.multiplier:
                head = f"Learn {name} for free (x{k.multiplier}, no {weapon} Level yet)"
            else:
                head = f"Learn {name}, a free card"
        have = self.levels[p][k.weapon]
        after = have + k.levels
        gains = [f"{weapon} Craft from Level {have} to {after}"]
        if k.coins:
            gains.append(f"every {weapon} forged costs {k.coins} gold less")
        if have < rules.vorpal_level <= after:
            gains.append(f"Vorpal {weapon}s can be forged")
        if after >= rules.bonus_level and self.bonus_owner[k.weapon] == EMPTY:
            gains.append(f"the {weapon} Craft Bonus card comes with it")
        return f"{head}: {'; '.join(gains)}" + self._discards_words(("craft", slot))

    def _describe_kingdom(self, p: int, slot: int) -> str:
        """Take One Kingdom Card: its gold, where it goes (and the Season's limit), what it
        does, in the card's words."""
        c = self.content
        k = c.kingdom[self.kingdom_pool[slot]]
        name = self._kingdom_words(slot)
        if k.effect == "gold":
            if k.duration == "final":
                head = f"Use {name} to take {k.gold} gold (the card stays)"
            else:
                head = f"Take {name} and its {k.gold} gold"
            return head + self._discards_words(("kingdom", slot))
        if k.gold > 0:
            head = f"Take {name} and {k.gold} gold"
        elif k.gold < 0:
            head = f"Pay {-k.gold} gold to take {name}"
        else:
            head = f"Take {name}"
        if k.duration in ("permanent", "end"):
            kept = len(self.kingdom_cards[p]) + 1
            season = title(c.rules.seasons[self.season])
            head += f", kept ({kept} of {self.kingdom_limit()} Kingdom Cards this {season})"
        if k.effect == "region_tile" and k.region is not None:
            region = title(k.region)
            r = self.board.regions.index(k.region) if k.region in self.board.regions else -1
            if r >= 0 and self.region_on_board[r]:
                does = (
                    f"the {region} Reward Tile comes with it (1 more gold on every sale in the "
                    f"{region})"
                )
            else:
                does = f"the {region} Reward Tile is taken already: only the gold"
        elif k.effect == "sell_twice":
            does = "then sell up to two Weapons" + (
                f", each for {k.amount} gold less" if k.amount else ""
            )
            if self.two:
                does += ", Salesman Steve selling after each"
        else:
            text = card_text(k, c).removeprefix("then ")
            does = (
                f'then "{text[:1].upper()}{text[1:]}"'
                if k.duration == "immediate"
                else f'"{title(text)}"'
            )
        return f"{head}: {does}" + self._discards_words(("kingdom", slot))

    def _forge_cost_words(self, p: int, weapon: int, vorpal: bool) -> str:
        """How a forge cost comes about: `` (5 less 1 for Craft Card coins)``; empty when it is
        the chart's price."""
        c = self.content
        chart = c.chart
        base = chart.forge_vorpal if vorpal else chart.forge_standard
        less = []
        if self.coins[p][weapon]:
            less.append(f"{self.coins[p][weapon]} for Craft Card coins")
        for k in self._effects(p, "forge_discount"):
            if k.quality is None or k.quality == int(vorpal):
                less.append(f"{k.amount} for {k.name}")
        return f" ({base} less {', '.join(less)})" if less else ""

    def _describe_forge(self, p: int, action: Forge) -> str:
        """Forge Up to Three Weapons, one Weapon (or Free Samples' free Standard Weapon)."""
        c = self.content
        w = c.weapons.index(action.weapon)
        weapon = title(action.weapon)
        if self.step == FREE_FORGE:
            return f"Forge a Standard {weapon} for free ({self._card_names('free_forge')})"
        quality = "Vorpal" if action.vorpal else "Standard"
        cost = self.forge_cost(p, w, action.vorpal)
        why = self._forge_cost_words(p, w, action.vorpal)
        which = f"Weapon {self.count + 1} of up to {self.forge_limit(p)} this turn"
        if cost:
            return f"Pay {cost} gold{why} to forge a {quality} {weapon}, {which}"
        return f"Forge a {quality} {weapon} for free{why}, {which}"

    def _space_words(self, space: Space) -> str:
        """``the Orcs at Desert Battlefield 2``."""
        c = self.content
        region = title(self.board.regions[space.region])
        race = race_plural(c.races[space.race])
        return f"the {race} at {region} Battlefield {space.battlefield + 1}"

    def _sale_words(self, p: int, space: Space, vorpal: bool) -> str:
        """A sale's gold and how it comes about: ``8 gold (6 + 2 for Dwarf Reward Tiles)``;
        then the Reward Tile it takes, the Demand Token it sends and Steve's sale after it."""
        c = self.content
        chart = c.chart
        race = c.races[space.race]
        parts = []
        tiles = self.race_tiles[p][space.race]
        if tiles:
            parts.append(f" + {tiles} for {title(race)} Reward Tile{'s' if tiles > 1 else ''}")
        if self.region_tiles[p][space.region]:
            region = title(self.board.regions[space.region])
            parts.append(f" + {self.region_tiles[p][space.region]} for the {region} Reward Tile")
        for k in self._effects(p, "sale_bonus"):
            if (k.race is None or k.race == space.race) and (
                k.quality is None or k.quality == int(vorpal)
            ):
                parts.append(f" + {k.amount} for {k.name}")
        if self.penalty:
            names = " or ".join(
                k.name for k in c.kingdom if k.effect == "sell_twice" and k.amount == self.penalty
            )
            parts.append(f" - {self.penalty} for {names}")
        base = chart.sell_vorpal if vorpal else chart.sell_standard
        value = self.sale_value(p, space, vorpal)
        text = f"{value} gold" + (f" ({base}{''.join(parts)})" if parts else "")
        if self.reward_spaces[space.race][p]:
            article = "an" if race[:1] in "aeiou" else "a"
            text += f"; take {article} {title(race)} Reward Tile"
        text += self._token_words(space)
        if self.two:
            text += self._steve_words(space)
        return text

    def _token_words(self, space: Space) -> str:
        """What a sale to ``space`` does to its Battlefield's Demand Token (Selling Weapons,
        step 4; Season's End)."""
        if not self.sale_sends_token(space.index):
            return ""
        rules = self.content.rules
        field = f"Battlefield {space.battlefield + 1}"
        tokens = self.season_area + 1
        if self.ending_after != EMPTY:
            text = f"; {field}'s Demand Token goes back to the box (the Season is ending)"
        else:
            text = (
                f"; {field}'s Demand Token goes to the Season Area "
                f"({tokens} of {rules.season_tokens})"
            )
        if (
            space.battlefield + 1 < self.board.battlefields
            and self.tokens[(space.index >> 1) + 1] == LOCK
        ):
            text += f" and Battlefield {space.battlefield + 2} opens"
        if self.ending_after == EMPTY and tokens >= rules.season_tokens:
            text += ": every other merchant takes one last turn, then war"
        return text

    def _steve_words(self, space: Space) -> str:
        """Salesman Steve's sale after a sale to ``space`` (2 players)."""
        c = self.content
        target = self.steve_target(space, before_sale=True)
        race = race_plural(c.races[self.steve_races[self.steve_cube]])
        if target is None:
            return f"; Salesman Steve finds no open space among the {race}"
        weapon = title(c.weapons[target.weapon])
        return f"; then Salesman Steve sells a Standard {weapon} to {self._space_words(target)}"

    def _describe_sale(self, p: int, action: Sell) -> str:
        """Sell One Weapon (or one of the two sales of Drive the Workers, Desperate Times)."""
        space = self.board.spaces[self.moves.index[action] >> 1]
        quality = "Vorpal" if action.vorpal else "Standard"
        weapon = title(self.content.weapons[space.weapon])
        which = f" (sale {self.count + 1} of up to {SALES_TWICE})" if self.step == SELLING else ""
        return (
            f"Sell a {quality} {weapon} to {self._space_words(space)}{which} for "
            + self._sale_words(p, space, action.vorpal)
        )

    def _describe_bonus(self, p: int, action: Bonus) -> str:
        """Forge and Sell One Weapon, the Craft Bonus action."""
        space = self.board.spaces[self.moves.index[action] >> 1]
        quality = "Vorpal" if action.vorpal else "Standard"
        weapon = title(self.content.weapons[space.weapon])
        cost = self.forge_cost(p, space.weapon, action.vorpal)
        return (
            f"Use the {weapon} Craft Bonus card (once a Season) to forge a "
            f"{quality} {weapon} for {cost} gold and sell it at once to "
            f"{self._space_words(space)} for " + self._sale_words(p, space, action.vorpal)
        )

    def _describe_done(self) -> str:
        """Stop: forge no more, sell no more, or decline a free card or Weapon."""
        if self.step == FORGING:
            return f"Stop forging after {self.count} Weapon{'s' if self.count > 1 else ''}"
        if self.step == SELLING:
            if not self.count:
                return "Make no sale after all"
            return f"Stop selling after {self.count} sale{'s' if self.count > 1 else ''}"
        if self.step == FREE_CRAFT:
            return f"Decline the free Craft Card ({self._card_names('free_craft')})"
        if self.step == FREE_FORGE:
            return f"Decline the free Standard Weapon ({self._card_names('free_forge')})"
        return "End the turn"

    def _season_end_words(self, p: int, action: Action) -> str:
        """``; this ends the Spring: war follows`` when the move ends the turn that ends the
        Season (Season's End: Time For War!)."""
        if type(action) is Forge:
            ends = self.step == FREE_FORGE or self.last_forge(p)
        elif type(action) is Sell:
            ends = self.last_sale()
        elif type(action) is TakeKingdom:
            k = self.content.kingdom[self.kingdom_pool[action.slot - 1]]
            if k.effect == "free_craft":  # no Craft Card left to take for free: over
                left = {i for i, x in enumerate(self.craft_pool) if x != EMPTY}
                link = self._linked_card(("kingdom", action.slot - 1))
                if link is not None and link[0] == "craft":
                    left.discard(link[1])
                ends = not left
            else:
                ends = k.effect not in ("free_forge", "sell_twice")
        else:
            ends = True
        if not ends or not self.war_after_turn("pass" if type(action) is Pass else "other"):
            return ""
        seasons = self.content.rules.seasons
        if self.season == len(seasons) - 1:
            return (
                f"; this ends {title(seasons[self.season])} and the year: war, then the Year's End"
            )
        return f"; this ends {title(seasons[self.season])}: war follows"

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
        new.bot_table = self.bot_table  # of this very position (keyed by the history's length)
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
