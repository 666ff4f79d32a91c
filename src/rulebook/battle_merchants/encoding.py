"""Battle Merchants' observation tensor, built from ``observation(p)`` alone (see
:mod:`rulebook.core.spaces`; slices: ``docs/research.md``).

The table: the Season, the step of the turn, the action under way, the Season Area, the Reward
spaces left per race and seat, the face-up Craft Cards (by Weapon, Levels, cost and coins) and
Kingdom Cards, the Craft Bonus cards not yet won, the decks' sizes, the discards, every
Battlefield (its Demand Token and whose Weapon, Standard or Vorpal, stands on each side) and,
with 2 players, Salesman Steve's races. Then one block per seat, the viewer first: gold,
supply, Craft Levels and discounts, Craft Cards, Reward Tiles, Kingdom Cards, defeated Weapons
and Weapons on the board, Craft Bonus cards, and the Year's End scoring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rulebook.battle_merchants.actions import (
    FORGING,
    FREE_CRAFT,
    FREE_FORGE,
    MAX_KINGDOM_SLOTS,
    OVER,
    SELLING,
    TURN,
)
from rulebook.battle_merchants.content import CraftCard, content
from rulebook.battle_merchants.craft import craft_deck
from rulebook.battle_merchants.kingdom import kingdom_limit
from rulebook.battle_merchants.rules import BattleState
from rulebook.battle_merchants.setup import EMPTY
from rulebook.battle_merchants.year_end import on_board
from rulebook.core import RulebookError, Setup, State
from rulebook.core.spaces import (
    DirectEncoder,
    Pile,
    Vector,
    hot,
    index_of,
    lookup,
    positions,
    relative,
)
from rulebook.core.writes import Positions, Writes, sums

STEPS = (TURN, FORGING, SELLING, FREE_CRAFT, FREE_FORGE, OVER)
TOKENS = ("none", "fire", "lock")
QUALITIES = ("standard", "vorpal")
#: kinds of the last action taken ("" before any); the 2-player cleanup depends on it
ACTIONS = ("", "learn", "forge", "sell", "kingdom", "bonus", "pass")
YEAR_END = ("unsold_weapons", "defeated_weapons", "end_cards")
#: gold (scores) is divided by this: a strong seat ends with about 100-150 gold
GOLD_SCALE = 150.0
#: Weapons in a supply, Defeated Weapons and Weapons on the board are divided by this
WEAPON_SCALE = 10.0
#: Craft Levels are divided by this (a mat starts at 1-2, Craft Cards add 1-2 each)
LEVEL_SCALE = 10.0
#: Reward Tiles of one race or Region are divided by this
TILE_SCALE = 5.0
#: caps (times the scale) of the amounts the rules leave open, at least twice the largest seen
#: in simulated games: the action under way (1.4), gold (1.1), the Year's End scoring (-0.06 to
#: 0.6), Weapons in supply (1.2), Defeated (2.7) and on the board (1.4), Craft Levels (1.1),
#: discounts and Reward Tiles (up to 1)
ACTION_CAP, GOLD_CAP, YEAR_END_LOW, YEAR_END_CAP = 3.0, 4.0, -1.0, 3.0
SUPPLY_CAP, DEFEATED_CAP, ON_BOARD_CAP, LEVEL_CAP, DISCOUNT_CAP, TILE_CAP = (
    4.0,
    6.0,
    4.0,
    3.0,
    3.0,
    3.0,
)


#: a seat's Year's End scoring before the game is over (the block shows zeros)
NO_YEAR_END = (0,) * len(YEAR_END)
#: the Year's End parts' places in their slot, in order
YEAR_END_PLACES = list(range(len(YEAR_END)))


class SeatShown:
    """What a seat block showed (:meth:`BattleEncoder.write_seat`): its Year's End scoring,
    the seat's rows it was read from, copied, the board's spaces its Weapons on the board
    were counted from and the Craft Bonus cards."""

    def __init__(self, s: BattleState, p: int, year_end: tuple[int, ...]) -> None:
        self.year_end = year_end
        self.gold = s.gold[p]
        self.counts = [row.copy() for row in _counts(s, p)]
        self.crafts = s.crafts[p].copy()
        self.kingdom_cards = s.kingdom_cards[p].copy()
        self.spaces = s.spaces.copy()
        self.owned = on_board(s)[p]
        self.bonus_owner = s.bonus_owner.copy()
        self.bonus_up = s.bonus_up.copy()


class MarketShown:
    """What a game's market run showed (:meth:`BattleEncoder.write_run`): the lists it was
    read from, copied, and the decks' sizes."""

    def __init__(self, s: BattleState) -> None:
        self.craft_pool = s.craft_pool.copy()
        self.kingdom_pool = s.kingdom_pool.copy()
        self.bonus_owner = s.bonus_owner.copy()
        self.craft_left = len(craft_deck(s))
        self.autumn_left = len(s.autumn_deck)
        self.kingdom_left = len(s.kingdom_deck)
        self.boxed = s.boxed
        self.kingdom_discard = s.kingdom_discard.copy()
        self.craft_discard = s.craft_discard.copy()

    def shows(self, s: BattleState) -> bool:
        return (
            self.craft_left == len(craft_deck(s))
            and self.autumn_left == len(s.autumn_deck)
            and self.kingdom_left == len(s.kingdom_deck)
            and self.boxed == s.boxed
            and self.craft_pool == s.craft_pool
            and self.kingdom_pool == s.kingdom_pool
            and self.bonus_owner == s.bonus_owner
            and self.kingdom_discard == s.kingdom_discard
            and self.craft_discard == s.craft_discard
        )


class BoardShown:
    """What the board run showed a viewer: the Region Tiles, Demand Tokens and Battlefield
    spaces it was read from (the viewer is the row's)."""

    def __init__(self, s: BattleState) -> None:
        self.region_on_board = s.region_on_board.copy()
        self.tokens = s.tokens.copy()
        self.spaces = s.spaces.copy()

    def shows(self, s: BattleState) -> bool:
        return (
            self.spaces == s.spaces
            and self.tokens == s.tokens
            and self.region_on_board == s.region_on_board
        )


class SteveShown:
    """What Salesman Steve's run showed: his races and the race he sells to next."""

    def __init__(self, s: BattleState) -> None:
        self.races = s.steve_races.copy()
        self.cube = s.steve_cube

    def shows(self, s: BattleState) -> bool:
        return self.cube == s.steve_cube and self.races == s.steve_races


class BattleEncoder(DirectEncoder):
    STATE = BattleState

    IGNORED: Mapping[str, str] = {
        "regions[*].name": "fixed by the board side (player count): the Regions in its order",
        "regions[*].races": "fixed by the board side",
        "regions[*].demands": "fixed by the board side",
        "regions[*].demands[*]": "fixed by the board side",
        "kingdom_cards[*].duration": "follows from the card",
        "kingdom_cards[*].gold": "follows from the card",
        "kingdom_cards[*].text": "follows from the card",
        "season_ending": "follows from season_ends_after",
        "craft_faces": "the face-up Craft Cards again, field by field (craft_cards)",
        "side_board_links": "fixed by the side board (2 players)",
        "seats[*].colour": "follows from the seat number",
        "seats[*].score": "equals the seat's gold",
    }

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        c = self.content = content()
        n = self.players
        board = c.boards[n]
        rules = c.rules
        self.two = n == 2
        self.colours = index_of(c.colours[:n])
        self.owners = n + (1 if self.two else 0)  # the seats, then Salesman Steve
        self.weapons = index_of(c.weapons)
        self.races = index_of(c.races)
        self.seasons = index_of(rules.seasons)
        self.steps = index_of(STEPS)
        self.tokens = index_of(TOKENS)
        self.actions = index_of(ACTIONS)
        self.kingdom = index_of(k.name for k in c.kingdom)
        self.labels = {k.label(c.weapons): k for k in c.crafts}
        self.label_index = index_of(k.label(c.weapons) for k in c.crafts)
        self.copies = float(max(Counter(k.label(c.weapons) for k in c.crafts).values()))
        self.regions = index_of(board.regions)
        self.tile_names = index_of([*c.races, *(r for b in c.boards.values() for r in b.regions)])
        self.fields = board.battlefields
        self.max_levels = float(max(k.levels for k in c.crafts))
        self.max_coins = float(max(max(k.coins for k in c.crafts), 1))
        self.deck_sizes = {
            deck: float(sum(k.deck == deck for k in c.crafts))
            for deck in ("spring_summer", "autumn_winter")
        }
        self.limit_scale = float(max(rules.kingdom_limit))
        self.face_up_crafts = rules.face_up_crafts
        self.face_up_kingdom = MAX_KINGDOM_SLOTS
        self.season_tokens = rules.season_tokens
        self.craft_slot = 1 + len(self.weapons) + 1 + 3 + 1
        self.kingdom_slot = 1 + len(self.kingdom)
        self.side = self.owners + 1
        self.field_size = len(TOKENS) + 2 * self.side
        self._declare()
        self._prepare_fast()

    # -- layout ------------------------------------------------------------------------------
    def _declare(self) -> None:
        n, add = self.players, self.parts.add
        weapons = ", ".join(self.weapons)
        owners = "seats in relative order" + (", then Salesman Steve" if self.two else "")
        self.at_you = add("you", n, "one-hot: the viewer's seat number (0 = first player)")
        self.at_season = add("season", len(self.seasons), f"one-hot: {', '.join(self.seasons)}")
        self.at_step = add(
            "step", len(STEPS), f"one-hot: the step of the turn ({', '.join(STEPS)})"
        )
        self.at_action = add(
            "action",
            2,
            f"Weapons forged or sales made in the action under way / 3; gold less per sale "
            f"(Desperate Times) / {self.max_coins:g}",
            high=ACTION_CAP,
            capped=True,
        )
        self.at_last = add(
            "last_action",
            len(ACTIONS),
            f"one-hot: the last action ({', '.join(a or 'none' for a in ACTIONS)})",
        )
        self.at_passes = add("passes", 1, f"passes in a row / {n}")
        self.at_ends = add(
            "season_ends_after",
            n,
            "one-hot: the seat whose turn ends the Season (relative), all 0 until triggered",
        )
        self.at_limit = add("kingdom_limit", 1, f"Kingdom Card limit / {self.limit_scale:g}")
        self.at_area = add(
            "season_area",
            self.season_tokens + 1,
            f"one-hot: Demand Tokens in the Season Area (0-{self.season_tokens})",
        )
        self.at_discarded = add("tokens_discarded", 1, "Demand Tokens discarded / Battlefields")
        self.at_rewards = add(
            "reward_spaces",
            len(self.races) * n,
            f"per race ({', '.join(self.races)}), per seat (relative): 1 if its Reward space "
            "is still free",
        )
        self.at_crafts = add(
            "craft_cards",
            self.face_up_crafts * self.craft_slot,
            f"per face-up Craft Card space ({self.craft_slot} values): a card there, its Weapon "
            f"({weapons}), Levels / {self.max_levels:g}, cost one-hot (free, x1, x2), coins / "
            f"{self.max_coins:g}",
        )
        self.at_kingdom = add(
            "kingdom_cards",
            self.face_up_kingdom * self.kingdom_slot,
            f"per face-up Kingdom Card space ({self.kingdom_slot} values): a card there, "
            "one-hot which card (data file order)",
        )
        self.at_bonus = add(
            "craft_bonus_available",
            len(self.weapons),
            f"per Weapon ({weapons}): 1 if nobody won its Craft Bonus card",
        )
        self.at_decks = add(
            "decks",
            4,
            "cards left: the Craft deck in use, the Autumn/Winter deck (each / its size), the "
            "Kingdom deck / its size, and Spring/Summer cards boxed / their deck's size",
        )
        self.at_kingdom_discard = add(
            "kingdom_discard", len(self.kingdom), "per Kingdom Card: 1 if discarded"
        )
        self.at_craft_discard = add(
            "craft_discard",
            len(self.label_index),
            f"per kind of Craft Card (Weapon, Levels, cost, coins): discarded / {self.copies:g}",
        )
        self.at_regions = add(
            "region_tiles", len(self.regions), "per Region: 1 if its Reward Tile is on the board"
        )
        self.at_fields = add(
            "battlefields",
            len(self.regions) * self.fields * self.field_size,
            f"per Region, per Battlefield from the centre ({self.field_size} values): its "
            f"Demand Token one-hot ({', '.join(TOKENS)}); then per side (first race first): "
            f"whose Weapon stands there one-hot ({owners}) and 1 if it is Vorpal",
        )
        two = len(self.races) if self.two else 0
        self.at_steve = add(
            "steve.races",
            two * len(self.races),
            "per place in Salesman Steve's order: one-hot its race",
        )
        self.at_steve_next = add("steve.next", two, "one-hot: the race Steve sells to next")
        self.declare_seats(self._declare_seat)

    def _declare_seat(self, p: str) -> dict[str, int]:
        add = self.parts.add
        weapons = ", ".join(self.weapons)
        return {
            "gold": add(p + "gold", 1, f"gold / {GOLD_SCALE:g}", high=GOLD_CAP, capped=True),
            "supply": add(
                p + "supply",
                2 * len(self.weapons),
                f"Weapons in supply per Weapon ({weapons}), Standard then Vorpal / "
                f"{WEAPON_SCALE:g}",
                high=SUPPLY_CAP,
                capped=True,
            ),
            "levels": add(
                p + "levels",
                len(self.weapons),
                f"Craft Level per Weapon / {LEVEL_SCALE:g}",
                high=LEVEL_CAP,
                capped=True,
            ),
            "discounts": add(
                p + "discounts",
                len(self.weapons),
                f"forge discount (coins) per Weapon / {self.max_coins * 3:g}",
                high=DISCOUNT_CAP,
                capped=True,
            ),
            "crafts": add(
                p + "craft_cards",
                len(self.label_index),
                f"Craft Cards held per kind / {self.copies:g}",
            ),
            "tiles": add(
                p + "reward_tiles",
                len(self.tile_names),
                f"Reward Tiles per race, then per Region / {TILE_SCALE:g}",
                high=TILE_CAP,
                capped=True,
            ),
            "kingdom": add(p + "kingdom_cards", len(self.kingdom), "per Kingdom Card: 1 if held"),
            "defeated": add(
                p + "defeated",
                2,
                f"Defeated Weapons, Standard then Vorpal / {WEAPON_SCALE:g}",
                high=DEFEATED_CAP,
                capped=True,
            ),
            "on_board": add(
                p + "on_board",
                2,
                f"Weapons on the board, Standard then Vorpal / {WEAPON_SCALE:g}",
                high=ON_BOARD_CAP,
                capped=True,
            ),
            "bonus": add(
                p + "craft_bonus",
                2 * len(self.weapons),
                "per Weapon: 1 if this seat won its Craft Bonus card; 1 if that card is face up",
            ),
            "year_end": add(
                p + "year_end",
                len(YEAR_END),
                f"the Year's End scoring ({', '.join(YEAR_END)}) / {GOLD_SCALE:g}",
                low=YEAR_END_LOW,
                high=YEAR_END_CAP,
                capped=True,
            ),
        }

    # -- encoding ----------------------------------------------------------------------------
    def _seat(self, colour: object, you: int) -> int:
        return relative(lookup(self.colours, colour, "colour"), you, self.players)

    def fill(self, observation: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        obs, n = observation, self.players
        you = obs["you"]
        hot(ones, self.at_you, n, you)
        hot(ones, self.at_season, len(self.seasons), lookup(self.seasons, obs["season"], "Season"))
        hot(ones, self.at_step, len(STEPS), lookup(self.steps, obs["step"], "step"))
        out[self.at_action] = obs["action_count"] / 3
        out[self.at_action + 1] = obs["sale_penalty"] / self.max_coins
        hot(ones, self.at_last, len(ACTIONS), lookup(self.actions, obs["last_action"], "action"))
        out[self.at_passes] = obs["passes"] / n
        if obs["season_ends_after"] is not None:
            hot(ones, self.at_ends, n, relative(obs["season_ends_after"], you, n))
        out[self.at_limit] = obs["kingdom_limit"] / self.limit_scale
        hot(ones, self.at_area, self.season_tokens + 1, obs["season_area"])
        out[self.at_discarded] = obs["tokens_discarded"] / (len(self.regions) * self.fields)
        for race, colours in obs["reward_spaces"].items():
            start = self.at_rewards + lookup(self.races, race, "race") * n
            ones += [start + self._seat(colour, you) for colour in colours]
        self._fill_crafts(obs["craft_cards"], out, ones)
        kingdom = obs["kingdom_cards"]
        if len(kingdom) > self.face_up_kingdom:
            raise RulebookError(
                f"{len(kingdom)} face-up Kingdom Cards, more than there is room for"
            )
        for i, card in enumerate(kingdom):
            if card is not None:
                base = self.at_kingdom + i * self.kingdom_slot
                ones.append(base)
                ones.append(base + 1 + lookup(self.kingdom, card["name"], "Kingdom Card"))
        ones += positions(self.weapons, obs["craft_bonus_available"], self.at_bonus, "Weapon")
        decks, sizes = obs["decks"], self.deck_sizes
        out[self.at_decks] = decks["craft"] / sizes["spring_summer"]
        out[self.at_decks + 1] = decks["autumn_winter"] / sizes["autumn_winter"]
        out[self.at_decks + 2] = decks["kingdom"] / len(self.kingdom)
        out[self.at_decks + 3] = decks["boxed"] / sizes["spring_summer"]
        ones += positions(
            self.kingdom, obs["kingdom_discard"], self.at_kingdom_discard, "Kingdom Card"
        )
        for label in obs["craft_discard"]:
            out[self.at_craft_discard + lookup(self.label_index, label, "Craft Card")] += (
                1 / self.copies
            )
        self._fill_board(obs["regions"], you, out, ones)
        if self.two:
            steve = obs["steve"]
            for i, race in enumerate(steve["races"]):
                hot(
                    ones,
                    self.at_steve + i * len(self.races),
                    len(self.races),
                    lookup(self.races, race, "race"),
                )
            hot(
                ones, self.at_steve_next, len(self.races), lookup(self.races, steve["next"], "race")
            )
        year_end = obs.get("year_end") or []
        seats = obs["seats"]
        for p, at in self.seats(obs, ones):
            if year_end:
                for j, part in enumerate(YEAR_END):
                    out[at["year_end"] + j] = year_end[p][part] / GOLD_SCALE
            self._fill_seat(seats[p], at, out, ones)

    def _fill_crafts(self, cards: list[str | None], out: Vector, ones: list[int]) -> None:
        if len(cards) > self.face_up_crafts:
            raise RulebookError(f"{len(cards)} face-up Craft Cards, more than there is room for")
        for i, label in enumerate(cards):
            if label is None:
                continue
            card: CraftCard | None = self.labels.get(label)
            if card is None:
                raise RulebookError(f"the observation names an unknown Craft Card: {label!r}")
            base = self.at_crafts + i * self.craft_slot
            ones.append(base)
            ones.append(base + 1 + card.weapon)
            w = len(self.weapons)
            out[base + 1 + w] = card.levels / self.max_levels
            ones.append(base + 2 + w + card.multiplier)
            out[base + 5 + w] = card.coins / self.max_coins

    def _fill_board(
        self, regions: list[Mapping[str, Any]], you: int, out: Vector, ones: list[int]
    ) -> None:
        n = self.players
        if len(regions) != len(self.regions):
            raise RulebookError(
                f"{len(regions)} Regions, not the {len(self.regions)} of this board"
            )
        for r, region in enumerate(regions):
            if region["region_tile_on_board"]:
                ones.append(self.at_regions + r)
            for b, field in enumerate(region["battlefields"]):
                base = self.at_fields + (r * self.fields + b) * self.field_size
                hot(ones, base, len(TOKENS), lookup(self.tokens, field["token"], "Demand Token"))
                for side, weapon in enumerate(field["weapons"]):
                    if weapon is None:
                        continue
                    at = base + len(TOKENS) + side * self.side
                    owner, _, quality = weapon.partition(" ")
                    if owner == "steve" and self.two:
                        ones.append(at + n)
                    else:
                        ones.append(at + self._seat(owner, you))
                    if quality == "vorpal":
                        ones.append(at + self.owners)

    def _fill_seat(
        self, seat: Mapping[str, Any], at: Mapping[str, int], out: Vector, ones: list[int]
    ) -> None:
        w = len(self.weapons)
        out[at["gold"]] = seat["gold"] / GOLD_SCALE
        for name, count in seat["supply"].items():
            vorpal, _, weapon = name.rpartition(" ")
            index = lookup(self.weapons, weapon, "Weapon") + (w if vorpal else 0)
            out[at["supply"] + index] = count / WEAPON_SCALE
        for weapon, level in seat["levels"].items():
            out[at["levels"] + lookup(self.weapons, weapon, "Weapon")] = level / LEVEL_SCALE
        for weapon, coins in seat["discounts"].items():
            out[at["discounts"] + lookup(self.weapons, weapon, "Weapon")] = coins / (
                self.max_coins * 3
            )
        for label in seat["craft_cards"]:
            out[at["crafts"] + lookup(self.label_index, label, "Craft Card")] += 1 / self.copies
        for name, count in seat["reward_tiles"].items():
            out[at["tiles"] + lookup(self.tile_names, name, "Reward Tile")] = count / TILE_SCALE
        ones += positions(self.kingdom, seat["kingdom_cards"], at["kingdom"], "Kingdom Card")
        for j, quality in enumerate(QUALITIES):
            out[at["defeated"] + j] = seat["defeated"][quality] / WEAPON_SCALE
            out[at["on_board"] + j] = seat["on_board"][quality] / WEAPON_SCALE
        for bonus in seat["craft_bonus"]:
            index = lookup(self.weapons, bonus["weapon"], "Weapon")
            ones.append(at["bonus"] + 2 * index)
            if bonus["face_up"]:
                ones.append(at["bonus"] + 2 * index + 1)

    # -- from the state itself (the fast path) -------------------------------------------------
    #: the fast path (:meth:`_prepare_fast`)
    fast: BattleTensor

    def _prepare_fast(self) -> None:
        """The fast path's positions and tables (:class:`BattleTensor`)."""
        self.fast = BattleTensor(self)

    keeps_seats = True

    def fill_table_state(self, state: Any, player: int, base: int, out: Writes) -> None:
        """:meth:`fill_state` up to the seat blocks, but the kept runs (:meth:`kept_runs`)."""
        self.fast.fill_table(state, player, base, out)

    def kept_runs(self) -> list[tuple[int, int, bool, bool]]:
        """The market (face-up cards to the Craft discard), per game; the board (Region Tiles
        and Battlefields), per game and viewer (whose Weapons stand where is relative); and
        with 2 players Salesman Steve's races, per game. The board is patched (only the
        Regions, Battlefields and spaces that changed); the others are listed whole when they
        changed. In 2-player self-play a game's market changes at about 41% of steps, the
        board at 25%."""
        runs = [
            (self.at_crafts, self.at_regions, False, False),
            (self.at_regions, self.at_steve, True, True),
        ]
        if self.two:
            runs.append((self.at_steve, self.at_steve_next + len(self.races), False, False))
        return runs

    def seat_flags(self, state: Any) -> tuple[Sequence[int], Sequence[int]]:
        s: BattleState = state
        return s.current_players(), s.winners() if s.step == OVER else ()

    def seat_facts(self, state: Any) -> list[dict[str, int]] | None:
        """The Year's End scoring, once the game is over."""
        s: BattleState = state
        return s.year_end if s.step == OVER else None

    def fill_seat_state(
        self, state: Any, p: int, facts: Any, base: int, at: Mapping[str, int], out: Writes
    ) -> None:
        self.fast.fill_seat(state, p, facts, base, at, out)

    def write_seat(
        self,
        state: Any,
        p: int,
        facts: Any,
        last: object,
        base: int,
        at: Mapping[str, int],
        out: Writes,
    ) -> object:
        """Seat ``p``'s block patched from what it showed (``KeptSeats.write_seat``):
        :meth:`BattleTensor.write_seat`."""
        return self.fast.write_seat(state, p, facts, last, base, at, out)

    # -- what no seat sees (the privileged global state) --------------------------------------
    def piles(self) -> tuple[Pile, ...]:
        """The Kingdom deck and the two Craft decks, in order."""
        c = self.content
        return (
            Pile("kingdom_deck", len(c.kingdom), "the Kingdom deck's order (per Kingdom card)"),
            Pile("spring_deck", len(c.crafts), "the Spring/Summer Craft deck's order"),
            Pile("autumn_deck", len(c.crafts), "the Autumn/Winter Craft deck's order"),
        )

    def hidden(self, state: State) -> list[list[int]]:
        assert isinstance(state, BattleState)
        return [state.kingdom_deck, state.spring_deck, state.autumn_deck]


class BattleTensor:
    """The tensor read from a Battle Merchants state (:class:`BattleEncoder`'s fast path): its
    positions and tables, and what lists each part into a :class:`Writes`. A class of its own
    so that, compiled, its attributes sit at fixed places and its methods are called directly
    (the encoder derives from a Python class, so it looks up each by name), as Pandoria
    Merchants' ``StateTensor``."""

    def __init__(self, enc: BattleEncoder) -> None:
        c = enc.content
        self.players, self.two, self.owners = enc.players, enc.two, enc.owners
        self.fields, self.field_size, self.side = enc.fields, enc.field_size, enc.side
        self.weapon_count, self.race_count = len(enc.weapons), len(enc.races)
        self.region_count, self.kingdom_count = len(enc.regions), len(enc.kingdom)
        self.steps, self.actions = enc.steps, enc.actions
        self.max_coins, self.limit_scale = enc.max_coins, enc.limit_scale
        self.season_tokens = enc.season_tokens
        self.face_up_crafts, self.craft_slot = enc.face_up_crafts, enc.craft_slot
        self.face_up_kingdom, self.kingdom_slot = enc.face_up_kingdom, enc.kingdom_slot
        self.at_you, self.at_season, self.at_step = enc.at_you, enc.at_season, enc.at_step
        self.at_action, self.at_last, self.at_passes = enc.at_action, enc.at_last, enc.at_passes
        self.at_ends, self.at_limit, self.at_area = enc.at_ends, enc.at_limit, enc.at_area
        self.at_discarded, self.at_rewards = enc.at_discarded, enc.at_rewards
        self.at_crafts, self.at_kingdom, self.at_bonus = enc.at_crafts, enc.at_kingdom, enc.at_bonus
        self.at_decks, self.at_kingdom_discard = enc.at_decks, enc.at_kingdom_discard
        self.at_craft_discard, self.at_regions = enc.at_craft_discard, enc.at_regions
        self.at_fields, self.at_steve = enc.at_fields, enc.at_steve
        self.at_steve_next = enc.at_steve_next
        # the tables: each card's place and a count's value
        labels = [k.label(c.weapons) for k in c.crafts]
        #: per Craft Card: its kind's place
        self._craft_kind = [enc.label_index[label] for label in labels]
        self._kingdom_at = [enc.kingdom[k.name] for k in c.kingdom]
        self._weapon_at = [enc.weapons[w] for w in c.weapons]
        self._race_at = [enc.races[r] for r in c.races]
        self._season_at = [enc.seasons[season] for season in c.rules.seasons]
        board = c.boards[enc.players]
        self._race_tile_at = [enc.tile_names[r] for r in c.races]
        self._region_tile_at = [enc.tile_names[r] for r in board.regions]
        self._sums = sums(1 / enc.copies, len(c.crafts))
        #: per Craft Card: its Weapon, cost (multiplier), Levels and coins as written (by
        #: the card its label names, as ``fill`` reads them)
        cards = [enc.labels[label] for label in labels]
        self._craft_weapon = [k.weapon for k in cards]
        self._craft_cost = [k.multiplier for k in cards]
        self._craft_levels = [k.levels / enc.max_levels for k in cards]
        self._craft_coins = [k.coins / self.max_coins for k in cards]
        #: a count's value for the counts a game reaches (:func:`_over`: the same number as
        #: the division, made once instead of a new float per value written)
        self._spring_size = enc.deck_sizes["spring_summer"]
        self._autumn_size = enc.deck_sizes["autumn_winter"]
        self._gold = [k / GOLD_SCALE for k in range(512)]
        self._weapons = [k / WEAPON_SCALE for k in range(64)]
        self._levels = [k / LEVEL_SCALE for k in range(64)]
        self._tiles = [k / TILE_SCALE for k in range(64)]
        #: per count of a seat's supply (Weapon by Weapon, Standard then Vorpal) its place
        w = self.weapon_count
        self._supply_at = [self._weapon_at[k // 2] + (k % 2) * w for k in range(2 * w)]
        #: per row of :func:`_counts`: its slot, each count's place there, its values' table
        #: and scale (:func:`_over`)
        self._count_parts: list[tuple[str, list[int], list[float], float]] = [
            ("supply", self._supply_at, self._weapons, WEAPON_SCALE),
            ("levels", self._weapon_at, self._levels, LEVEL_SCALE),
            ("discounts", self._weapon_at, [], self.max_coins * 3),
            ("tiles", self._race_tile_at, self._tiles, TILE_SCALE),
            ("tiles", self._region_tile_at, self._tiles, TILE_SCALE),
            ("defeated", [0, 1], self._weapons, WEAPON_SCALE),
        ]

    def fill_table(self, s: BattleState, you: int, base: int, out: Writes) -> None:
        """:meth:`BattleEncoder.fill_table_state`."""
        n = self.players
        ones = out.ones
        ones.append(base + self.at_you + you)
        ones.append(base + self.at_season + self._season_at[s.season])
        ones.append(base + self.at_step + self.steps[s.step])
        # a count of 0 is left out (the row is zeros: the same +0.0)
        if s.count:
            out.amount(base + self.at_action, s.count / 3)
        if s.penalty:
            out.amount(base + self.at_action + 1, s.penalty / self.max_coins)
        ones.append(base + self.at_last + self.actions[s.last_kind])
        if s.passes:
            out.amount(base + self.at_passes, s.passes / n)
        if s.ending_after != EMPTY:
            ones.append(base + self.at_ends + (s.ending_after - you) % n)
        out.amount(base + self.at_limit, kingdom_limit(s) / self.limit_scale)
        out.hot(base + self.at_area, self.season_tokens + 1, s.season_area)
        if s.tokens_discarded:
            out.amount(
                base + self.at_discarded, s.tokens_discarded / (self.region_count * self.fields)
            )
        race_at = self._race_at
        for r in s.board.races:
            start = base + self.at_rewards + race_at[r] * n
            spaces = s.reward_spaces[r]
            for p in range(n):
                if spaces[p]:
                    ones.append(start + (p - you) % n)

    def write_run(
        self, s: BattleState, you: int, run: int, last: object, base: int, out: Writes
    ) -> object:
        """:meth:`BattleEncoder.write_run`."""
        if run == 0:
            if isinstance(last, MarketShown) and last.shows(s):
                return last
            self._market_state(s, base, out)
            return MarketShown(s)
        if run == 1:
            if isinstance(last, BoardShown):
                if last.shows(s):
                    return last
                self._board_patch(s, you, last, base, out)
            else:
                self._board_state(s, you, base, out.ones)
            return BoardShown(s)
        if isinstance(last, SteveShown) and last.shows(s):
            return last
        race_at, races = self._race_at, self.race_count
        for i, r in enumerate(s.steve_races):
            out.hot(base + self.at_steve + i * races, races, race_at[r])
        out.ones.append(base + self.at_steve_next + race_at[s.steve_races[s.steve_cube]])
        return SteveShown(s)

    def _market_state(self, s: BattleState, base: int, out: Writes) -> None:
        """The face-up Craft and Kingdom Cards, the Craft Bonus cards not won, the decks and
        the discards (:meth:`fill`), read from the state."""
        ones = out.ones
        pool = s.craft_pool
        if len(pool) > self.face_up_crafts:
            raise RulebookError(f"{len(pool)} face-up Craft Cards, more than there is room for")
        w = self.weapon_count
        weapon, cost, levels, coins = (
            self._craft_weapon,
            self._craft_cost,
            self._craft_levels,
            self._craft_coins,
        )
        for i, k in enumerate(pool):
            if k == EMPTY:
                continue
            at = base + self.at_crafts + i * self.craft_slot
            ones.append(at)
            ones.append(at + 1 + weapon[k])
            ones.append(at + 2 + w + cost[k])
            out.amount(at + 1 + w, levels[k])
            if coins[k]:
                out.amount(at + 5 + w, coins[k])
        if len(s.kingdom_pool) > self.face_up_kingdom:
            raise RulebookError(
                f"{len(s.kingdom_pool)} face-up Kingdom Cards, more than there is room for"
            )
        kingdom_at = self._kingdom_at
        for i, k in enumerate(s.kingdom_pool):
            if k != EMPTY:
                at = base + self.at_kingdom + i * self.kingdom_slot
                ones.append(at)
                ones.append(at + 1 + kingdom_at[k])
        weapon_at = self._weapon_at
        for k, o in enumerate(s.bonus_owner):
            if o == EMPTY:
                ones.append(base + self.at_bonus + weapon_at[k])
        spring, autumn = self._spring_size, self._autumn_size
        at = base + self.at_decks
        left = len(craft_deck(s))
        if left:
            out.amount(at, left / spring)
        if s.autumn_deck:
            out.amount(at + 1, len(s.autumn_deck) / autumn)
        if s.kingdom_deck:
            out.amount(at + 2, len(s.kingdom_deck) / self.kingdom_count)
        if s.boxed:
            out.amount(at + 3, s.boxed / spring)
        at = base + self.at_kingdom_discard
        for k in s.kingdom_discard:
            ones.append(at + kingdom_at[k])
        out.count(self._craft_kind, s.craft_discard, base + self.at_craft_discard, self._sums)

    def fill_seat(
        self,
        s: BattleState,
        p: int,
        year_end: list[dict[str, int]] | None,
        base: int,
        at: Mapping[str, int],
        out: Writes,
    ) -> None:
        """:meth:`BattleEncoder.fill_seat_state`."""
        if year_end:
            start = base + at["year_end"]
            for j, part in enumerate(YEAR_END):
                out.amount(start + j, year_end[p][part] / GOLD_SCALE)
        self._seat_state(s, p, on_board(s)[p], base, at, out)

    def write_seat(
        self,
        s: BattleState,
        p: int,
        year_end: list[dict[str, int]] | None,
        last: object,
        base: int,
        at: Mapping[str, int],
        out: Writes,
    ) -> object:
        """Seat ``p``'s block patched from what it showed (``KeptSeats.write_seat``):
        each field compared with the record's copy, and of a field that changed only the
        values that differ listed (a zero included). In 2-player self-play about 0.9 of the 2
        blocks change a step, a few values each."""
        scores = tuple([year_end[p][part] for part in YEAR_END]) if year_end else NO_YEAR_END
        if not isinstance(last, SeatShown):
            self.fill_seat(s, p, year_end, base, at, out)
            return SeatShown(s, p, scores)
        if scores != last.year_end:
            _patch(
                out, base + at["year_end"], YEAR_END_PLACES, scores, last.year_end, [], GOLD_SCALE
            )
            last.year_end = scores
        if s.gold[p] != last.gold:
            out.amount(base + at["gold"], _over(self._gold, s.gold[p], GOLD_SCALE))
            last.gold = s.gold[p]
        rows, kept = _counts(s, p), last.counts
        for f in range(len(rows)):
            if rows[f] != kept[f]:
                name, places, table, scale = self._count_parts[f]
                _patch(out, base + at[name], places, rows[f], kept[f], table, scale)
                kept[f] = rows[f].copy()
        row = s.crafts[p]
        if row != last.crafts:
            kind, start = self._craft_kind, base + at["crafts"]
            kinds = [kind[k] for k in row]
            for k in last.crafts:
                if kind[k] not in kinds:  # no longer held (a held kind is counted below)
                    out.amount(start + kind[k], 0.0)
            out.count(kind, row, start, self._sums)
            last.crafts = row.copy()
        row = s.kingdom_cards[p]
        if row != last.kingdom_cards:
            start, kingdom_at = base + at["kingdom"], self._kingdom_at
            for k in last.kingdom_cards:
                out.amount(start + kingdom_at[k], 0.0)
            for k in row:  # ones are written after the amounts
                out.ones.append(start + kingdom_at[k])
            last.kingdom_cards = row.copy()
        if s.spaces != last.spaces:
            owned = on_board(s)[p]
            _patch(
                out, base + at["on_board"], [0, 1], owned, last.owned, self._weapons, WEAPON_SCALE
            )
            last.owned = owned
            last.spaces = s.spaces.copy()
        if s.bonus_owner != last.bonus_owner or s.bonus_up != last.bonus_up:
            self._bonus_patch(s, p, last, base + at["bonus"], out)
            last.bonus_owner = s.bonus_owner.copy()
            last.bonus_up = s.bonus_up.copy()
        return last

    def _bonus_patch(
        self, s: BattleState, p: int, last: SeatShown, start: int, out: Writes
    ) -> None:
        """The Craft Bonus cards of seat ``p`` that changed since ``last``: won, face up."""
        weapon_at = self._weapon_at
        for k in range(len(s.bonus_owner)):
            mine, was = s.bonus_owner[k] == p, last.bonus_owner[k] == p
            up, was_up = mine and s.bonus_up[k], was and last.bonus_up[k]
            at = start + 2 * weapon_at[k]
            if mine != was:
                out.amount(at, 1.0 if mine else 0.0)
            if up != was_up:
                out.amount(at + 1, 1.0 if up else 0.0)

    def _board_state(self, s: BattleState, you: int, base: int, ones: Positions) -> None:
        """:meth:`_fill_board`, read from the state."""
        fields = self.fields
        if len(s.region_on_board) != self.region_count:
            raise RulebookError(
                f"{len(s.region_on_board)} Regions, not the {self.region_count} of this board"
            )
        steve = s.seats
        tokens = len(TOKENS)
        for r in range(self.region_count):
            if s.region_on_board[r]:
                ones.append(base + self.at_regions + r)
            for b in range(fields):
                bf = r * fields + b
                at_field = base + self.at_fields + bf * self.field_size
                token = s.tokens[bf]
                if not 0 <= token < tokens:
                    raise RulebookError(f"value {token!r} is outside a part of {tokens}")
                ones.append(at_field + token)
                for side in range(2):
                    code = s.spaces[2 * bf + side]
                    if code == EMPTY:
                        continue
                    at = at_field + tokens + side * self.side
                    ones.append(self._owner_at(code, at, you, steve))
                    if code & 1:
                        ones.append(at + self.owners)

    def _owner_at(self, code: int, at: int, you: int, steve: int) -> int:
        """Where a Battlefield side (its owner one-hot at ``at``) shows the owner of the
        Weapon ``code`` (owner, then 1 if Vorpal)."""
        owner = code >> 1
        if owner == steve:
            if not self.two:
                raise RulebookError("Salesman Steve on a board of more than 2")
            return at + self.players
        return at + (owner - you) % self.players

    def _board_patch(
        self, s: BattleState, you: int, last: BoardShown, base: int, out: Writes
    ) -> None:
        """What changed on the board since it showed ``last`` (:meth:`_board_state`): a 0
        where a Region Tile, Demand Token or Weapon was, a 1 where one is."""
        if len(s.region_on_board) != len(last.region_on_board):
            raise RulebookError(
                f"{len(s.region_on_board)} Regions, not the {self.region_count} of this board"
            )
        ones, tokens = out.ones, len(TOKENS)
        for r in range(len(s.region_on_board)):
            if s.region_on_board[r] != last.region_on_board[r]:
                out.amount(base + self.at_regions + r, 1.0 if s.region_on_board[r] else 0.0)
        for bf in range(len(s.tokens)):
            token, was = s.tokens[bf], last.tokens[bf]
            if token != was:
                if not 0 <= token < tokens:
                    raise RulebookError(f"value {token!r} is outside a part of {tokens}")
                at = base + self.at_fields + bf * self.field_size
                out.amount(at + was, 0.0)
                ones.append(at + token)
        steve = s.seats
        for k in range(len(s.spaces)):
            code, was = s.spaces[k], last.spaces[k]
            if code != was:
                at = base + self.at_fields + (k >> 1) * self.field_size + tokens
                at += (k & 1) * self.side
                if was != EMPTY:
                    out.amount(self._owner_at(was, at, you, steve), 0.0)
                    if was & 1:
                        out.amount(at + self.owners, 0.0)
                if code != EMPTY:
                    ones.append(self._owner_at(code, at, you, steve))
                    if code & 1:
                        ones.append(at + self.owners)

    def _seat_state(
        self,
        s: BattleState,
        p: int,
        owned: tuple[int, int] | list[int],
        base: int,
        at: Mapping[str, int],
        out: Writes,
    ) -> None:
        """:meth:`_fill_seat` of seat ``p``, read from the state."""
        w = self.weapon_count
        weapon_at = self._weapon_at
        gold, weapons, levels, tiles_at = self._gold, self._weapons, self._levels, self._tiles
        out.amount(base + at["gold"], _over(gold, s.gold[p], GOLD_SCALE))
        supply = s.supply[p]
        start = base + at["supply"]
        for k in range(w):
            count = supply[k * 2]
            if count:
                out.amount(start + weapon_at[k], _over(weapons, count, WEAPON_SCALE))
            count = supply[k * 2 + 1]
            if count:
                out.amount(start + weapon_at[k] + w, _over(weapons, count, WEAPON_SCALE))
        start = base + at["levels"]
        for k, level in enumerate(s.levels[p]):
            out.amount(start + weapon_at[k], _over(levels, level, LEVEL_SCALE))
        start = base + at["discounts"]
        scale = self.max_coins * 3
        for k, coins in enumerate(s.coins[p]):
            out.amount(start + weapon_at[k], coins / scale)
        out.count(self._craft_kind, s.crafts[p], base + at["crafts"], self._sums)
        start = base + at["tiles"]
        for r, tiles in enumerate(s.race_tiles[p]):
            if tiles:
                out.amount(start + self._race_tile_at[r], _over(tiles_at, tiles, TILE_SCALE))
        for r, tiles in enumerate(s.region_tiles[p]):
            if tiles:
                out.amount(start + self._region_tile_at[r], _over(tiles_at, tiles, TILE_SCALE))
        start = base + at["kingdom"]
        ones = out.ones
        for k in s.kingdom_cards[p]:
            ones.append(start + self._kingdom_at[k])
        defeated = s.defeated[p]
        for j in range(2):
            out.amount(base + at["defeated"] + j, _over(weapons, defeated[j], WEAPON_SCALE))
            out.amount(base + at["on_board"] + j, _over(weapons, owned[j], WEAPON_SCALE))
        start = base + at["bonus"]
        for k, owner in enumerate(s.bonus_owner):
            if owner == p:
                ones.append(start + 2 * weapon_at[k])
                if s.bonus_up[k]:
                    ones.append(start + 2 * weapon_at[k] + 1)


def _counts(s: BattleState, p: int) -> list[list[int]]:
    """Seat ``p``'s rows of counts its block shows count by count: Weapons in supply, Craft
    Levels, discounts, Reward Tiles per race and per Region, Defeated Weapons."""
    return [
        s.supply[p],
        s.levels[p],
        s.coins[p],
        s.race_tiles[p],
        s.region_tiles[p],
        s.defeated[p],
    ]


def _patch(
    out: Writes,
    start: int,
    places: list[int],
    now: Sequence[int],
    was: Sequence[int],
    table: list[float],
    scale: float,
) -> None:
    """Each count of ``now`` that differs from ``was`` at ``start + places[k]``: ``now[k] /
    scale`` (from ``table``, :func:`_over`)."""
    for k in range(len(places)):
        count = now[k]
        if count != was[k]:
            out.amount(start + places[k], _over(table, count, scale))


def _over(table: list[float], k: int, scale: float) -> float:
    """``k / scale``, from ``table`` (``table[i] == i / scale``) where it holds ``k``."""
    return table[k] if 0 <= k < len(table) else k / scale


def encoder(setup: Setup) -> BattleEncoder:
    """The observation encoder of a Battle Merchants configuration (``Game.encoder``)."""
    return BattleEncoder(setup)
