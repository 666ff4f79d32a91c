"""The observation tensor of the roll-and-write sheet games (Merchants of Magick, Ye Olde Magick
Shoppe), built from ``observation(p)`` alone (see :mod:`rulebook.core.spaces`).

The table (what every seat sees, :meth:`SheetState.observation`): the round, the phase, the four
dice, the two mastery cards and the side they pay, the deck's size and its known bottom, the
discards (solo). Then one block per seat in relative order (the viewer first, then the seats on
its left, clockwise): whether it is still deciding, its sheet (circles marked, rows completed),
this round's results and Extra Dice, its line of customer cards (each card by the rows it needs
and its value; face-down and empty spaces flagged), the cards it claimed, the masteries it
scored, its score by category, and what the game adds (Potions and the Sponsored Adventurer in
Merchants of Magick, Bonus Modifiers in Ye Olde Magick Shoppe). During the simultaneous
crafting phase the other seats' blocks show them as they were when the phase began, as the
observation does.

Each game's ``encoding`` module subclasses :class:`SheetEncoder` with its words and extras.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Any

import numpy as np
import numpy.typing as npt

from rulebook.core.errors import RulebookError
from rulebook.core.game import Setup
from rulebook.core.rollwrite.customers import EMPTY
from rulebook.core.rollwrite.mastery import mastery_value
from rulebook.core.rollwrite.moves import CRAFTING, OVER
from rulebook.core.rollwrite.state import SheetContent, SheetState
from rulebook.core.spaces import (
    FlatEncoder,
    Pile,
    Vector,
    hot,
    index_of,
    lookup,
    positions,
)
from rulebook.core.state import State

PHASES = (CRAFTING, OVER)
#: seat blocks (and sheets, lines) :meth:`SheetEncoder.encode_state` keeps: past this, the
#: older half is dropped (what a batch of games uses now was made last, and stays)
BLOCKS_KEPT = 8192


def _keep(cache: dict[Any, Any]) -> None:
    """Drop the older half of ``cache`` once it holds more than :data:`BLOCKS_KEPT`."""
    if len(cache) > BLOCKS_KEPT:
        for key in list(islice(cache, len(cache) // 2)):
            del cache[key]


def sheet_ignored(line: str) -> dict[str, str]:
    """The fields of a sheet game's observation its tensor leaves out (``line``: the name of a
    seat's line of cards), and why."""
    card = "a card is shown by the rows it needs and its value"
    return {
        "variant": "fixed by the configuration",
        "rounds": "fixed by the game's data",
        "masteries[*].kind": "the first mastery card is the Material one, the second Energy",
        "masteries[*].column": "follows from the card",
        "masteries[*].circles": "follows from the card",
        f"seats[*].{line}[*].name": card,
        "seats[*].waiting[*].name": card,
        f"seats[*].{line}[*].kind": "follows from the card (the deck it came from)",
        "seats[*].waiting[*].kind": "follows from the card (the deck it came from)",
    }


class SheetEncoder(FlatEncoder):
    """A sheet game's observation tensor. A game supplies its words (``LINE``, ``VALUE``, the
    names of its scoring ``CATEGORIES``), the size of a seat's line of cards, a scale for
    scores, and its own seat parts (:meth:`declare_seat_extras`, :meth:`fill_seat_extras`)."""

    LINE = "customers"
    VALUE = "stars"
    #: the names of a mastery card's two values, the higher first (as the observation shows)
    SIDES = ("higher", "lower")
    #: the keys of ``score_breakdown`` (the rulebook's scoring categories), in order
    CATEGORIES: tuple[str, ...] = ()
    #: a score (and each category of it) is divided by this: about the best seat's final score
    SCORE_SCALE = 100.0
    #: scores are capped at this many times :attr:`SCORE_SCALE` (the rules set no highest
    #: score; simulated games stay below 1.3)
    SCORE_CAP = 3.0

    def __init__(self, setup: Setup, content: SheetContent, shop_size: int, waiting: int) -> None:
        super().__init__(setup)
        c = self.content = content
        layout = c.layout
        self.solo = setup.variant == "solo"
        self.dice = tuple(c.dice)
        self.die_index = index_of(self.dice)
        self.phases = index_of(PHASES)
        self.sides = tuple(c.sides)
        self.circles = index_of(ci.id for ci in layout.circles)
        self.rows = index_of(r.id for r in layout.rows)
        self.cards = index_of(card.name for card in c.cards)
        self.material = index_of(m.name for m in c.material)
        self.energy = index_of(m.name for m in c.energy)
        self.categories = index_of(self.CATEGORIES)
        self.shop_size = shop_size
        self.waiting = waiting
        self.card_scale = float(max(card.value for card in c.cards))
        self.mastery_scale = float(max(m.master for m in (*c.material, *c.energy)))
        self.deck_scale = float(len(c.cards))
        self.extra_scale = float(max(len(c.extra_dice_costs), 1))
        #: a card space: face-up, face-down, empty, the rows it needs, its value
        self.slot = 3 + len(self.rows) + 1
        self._declare()
        self._prepare_fast()

    # -- layout ------------------------------------------------------------------------------
    def _declare(self) -> None:
        n, c, add = self.players, self.content, self.parts.add
        self.at_you = add("you", n, "one-hot: the viewer's seat number (0 = first player)")
        self.at_round = add("round", c.rounds, "one-hot: the round being played (1 first)")
        self.at_phase = add("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.at_dice = []
        for die, sides in zip(self.dice, self.sides, strict=True):
            self.at_dice.append(
                add(f"dice.{die}", sides, f"one-hot: this round's {die} (1-{sides})")
            )
        self.at_dice_value = add(
            "dice_values", len(self.dice), f"each die's result / its sides ({', '.join(self.dice)})"
        )
        self.at_material = add(
            "mastery.material", len(self.material), "one-hot: the Material mastery card in play"
        )
        self.at_energy = add(
            "mastery.energy", len(self.energy), "one-hot: the Energy mastery card in play"
        )
        self.at_mastery = add(
            "mastery.value",
            4,
            "Material then Energy: 1 if the higher value is still on offer; the value it "
            f"pays now / {self.mastery_scale:g}",
        )
        self.at_deck = add("deck", 1, f"cards left in the deck / {self.deck_scale:g}")
        self.at_bottom = add(
            "deck.known_bottom",
            len(self.cards),
            "per card: 1 if everyone saw it put back at the bottom of the deck",
        )
        self.at_discards = add(
            "discards", len(self.cards) if self.solo else 0, "per card: 1 if discarded (solo)"
        )
        self.at_seat = [self._declare_seat(k) for k in range(n)]

    def _declare_seat(self, k: int) -> dict[str, int]:
        add = self.parts.add
        p = f"seat{k}."
        slot = (
            f"per space ({self.slot} values): face-up card, face-down card, empty space, the "
            f"rows the card needs ({len(self.rows)}, sheet order), its {self.VALUE} / "
            f"{self.card_scale:g}"
        )
        at = {
            "to_act": add(p + "to_act", 1, "1 if the seat is still to act this phase"),
            "done": add(p + "done", 1, "1 if the seat ended this round's crafting"),
            "marked": add(p + "marked", len(self.circles), "per circle (sheet order): 1 if marked"),
            "completed": add(p + "completed", len(self.rows), "per row: 1 if complete"),
            "spent": add(p + "results_spent", len(self.dice), "per die: 1 if spent this round"),
            "extra": add(
                p + "extra_dice_used", 1, f"Extra Dice boxes marked / {self.extra_scale:g}"
            ),
            "line": add(p + self.LINE, self.shop_size * self.slot, f"the shoppe's cards, {slot}"),
            "waiting": add(
                p + "waiting", self.waiting * self.slot, f"the waiting cards (solo), {slot}"
            ),
            "claimed": add(p + "claimed", len(self.cards), "per card: 1 if claimed"),
            "masteries": add(
                p + "masteries",
                4,
                f"Material then Energy: 1 if scored; the value scored / {self.mastery_scale:g}",
            ),
            "score": add(
                p + "score",
                1,
                f"score so far / {self.SCORE_SCALE:g}",
                high=self.SCORE_CAP,
                capped=True,
            ),
            "breakdown": add(
                p + "breakdown",
                len(self.categories),
                f"per scoring category ({', '.join(self.CATEGORIES)}) / {self.SCORE_SCALE:g}",
                high=self.SCORE_CAP,
                capped=True,
            ),
            "winner": add(p + "winner", 1, "1 if this seat won (the game is over)"),
        }
        at.update(self.declare_seat_extras(p))
        return at

    def declare_seat_extras(self, prefix: str) -> dict[str, int]:
        """The game's own parts of a seat block, named ``prefix + name``; returns the starts."""
        return {}

    def fill_seat_extras(
        self, seat: Mapping[str, Any], at: Mapping[str, int], out: Vector, ones: list[int]
    ) -> None:
        """Write the game's own parts of one seat's view (``at``: the starts)."""

    # -- from the state itself (the fast path) -------------------------------------------------
    def _prepare_fast(self) -> None:
        """The tables of :meth:`encode_state` (once every part is declared)."""
        c = self.content
        layout = c.layout
        at = self.at_seat
        self._block = at[0]["to_act"]
        self._block_size = (
            at[1]["to_act"] - at[0]["to_act"] if self.players > 1 else self.parts.size - self._block
        )
        self._rel = {name: start - self._block for name, start in at[0].items()}
        if any(ci.bit != 1 << i for i, ci in enumerate(layout.circles)):
            raise RulebookError("the sheet's circles are not numbered by their bits")
        self._row_masks = [row.mask for row in layout.rows]
        self._name_at = [self.cards[card.name] for card in c.cards]
        self._material_at = [self.material[m.name] for m in c.material]
        self._energy_at = [self.energy[m.name] for m in c.energy]
        #: a card space's values, per card (then face down, then empty)
        rows = len(self.rows)
        table = np.zeros((len(c.cards) + 2, self.slot), np.float32)
        for o, card in enumerate(c.cards):
            table[o, 0] = 1.0
            table[o, 3 + self.rows[card.item]] = 1.0
            for row in card.enchantments:
                table[o, 3 + self.rows[row]] = 1.0
            table[o, 3 + rows] = card.value / self.card_scale
        table[len(c.cards), 1] = 1.0
        table[len(c.cards) + 1, 2] = 1.0
        self._card_rows = table
        self._face_down = len(c.cards)
        self._empty = len(c.cards) + 1
        capped = [s for s in self.parts.slices if s.capped]
        inside = [s for s in capped if self._block <= s.start < self._block + self._block_size]
        if len(inside) != len(capped) // self.players or any(
            s.stop > self._block + self._block_size for s in inside
        ):
            raise RulebookError("a sheet's capped parts are not all in the seat blocks")
        self._block_caps = [
            (i - self._block, s.low, s.high) for s in inside for i in range(s.start, s.stop)
        ]
        if self.parts.size != self._block + self.players * self._block_size:
            raise RulebookError("a sheet's seat blocks are not the tensor's last parts")
        self._sheets: dict[int, npt.NDArray[np.intp]] = {}
        self._lines: dict[tuple[int, ...], Vector] = {}
        #: seat blocks made so far: each key's (:meth:`_seat_key`) row of :attr:`_made`
        self._blocks: dict[tuple[object, ...], int] = {}
        self._made = np.zeros((256, self._block_size), np.float32)

    def reads(self, state: State) -> bool:
        return isinstance(state, SheetState)

    def encode_into(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """The tensors of :meth:`encode` of each ``states[i].observation(players[i])`` into
        ``out[i]``, read from the states, the whole batch written with a few NumPy calls
        (:meth:`_encode_rows`)."""
        if (
            out.shape != (len(states), self.parts.size)
            or out.dtype != np.float32
            or not out.flags.c_contiguous
            or not all(isinstance(s, SheetState) for s in states)
        ):
            super().encode_into(states, players, out)
            return
        self._encode_rows(states, players, out)

    def _encode_rows(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """The fast path: no observation is built, and a seat block is made once for what it
        shows (:meth:`_seat_key`), kept as a row of :attr:`_made`, and copied (during the
        crafting the other seats show as the phase began, so most blocks repeat). Per game,
        Python lists what to write (the blocks' rows, the 1s, the other values, as flat
        indices of ``out``); then four NumPy calls write the batch. ``out``: C-contiguous
        ``float32``, ``(len(states), size)``. ``tests/test_fast_encoding.py`` holds it to
        :meth:`encode`."""
        n, m, size = len(states), self.players, self.parts.size
        cache = self._blocks
        if len(cache) + n * m > max(BLOCKS_KEPT, n * m):
            cache.clear()  # not mid-batch: every row listed below stays as it is
        start0, block_size, rel = self._block, self._block_size, self._rel
        at_done, at_to_act, at_winner = rel["done"], rel["to_act"], rel["winner"]
        at_you, at_round, at_phase = self.at_you, self.at_round, self.at_phase
        at_dice, at_dice_value, sides_of = self.at_dice, self.at_dice_value, self.sides
        at_mastery, at_deck, at_bottom = self.at_mastery, self.at_deck, self.at_bottom
        name_at, phases, solo = self._name_at, self.phases, self.solo
        ones: list[int] = []
        where: list[int] = []
        values: list[float] = []
        rows: list[int] = []
        for i in range(n):
            s = states[i]
            assert isinstance(s, SheetState)
            player = players[i]
            base = i * size
            ones.append(base + at_you + player)
            ones.append(base + at_round + s.round - 1)
            ones.append(base + at_phase + phases[s.phase])
            for d, value in enumerate(s.dice):
                ones.append(base + at_dice[d] + value - 1)
                where.append(base + at_dice_value + d)
                values.append(value / sides_of[d])
            ones.append(base + self.at_material + self._material_at[s.mastery_cards[0]])
            ones.append(base + self.at_energy + self._energy_at[s.mastery_cards[1]])
            for k in range(2):
                where.append(base + at_mastery + 2 * k)
                values.append(1.0 if s.mastery_master[k] and not s.solo else 0.0)
                where.append(base + at_mastery + 2 * k + 1)
                values.append(mastery_value(s, k) / self.mastery_scale)
            origin = s._origin if s.phase == CRAFTING else None
            table = s if origin is None else origin
            cards = len(table.deck) - (0 if origin is None else s._phase_draws[player])
            where.append(base + at_deck)
            values.append(cards / self.deck_scale)
            ones += [base + at_bottom + name_at[o] for o in table.deck[: table.deck_seen][:cards]]
            if solo:
                ones += [base + self.at_discards + name_at[o] for o in s.discards]
            current = s.current_players()
            winners = s.winners() if s.phase == OVER else ()
            done = s.done
            for k in range(m):
                p = (player + k) % m
                seen = s if origin is None or p == player else origin
                key = self._seat_key(seen, p)
                row = cache.get(key)
                if row is None:
                    row = self._keep_block(key, self._seat_block(seen, p))
                rows.append(row)
                start = base + start0 + k * block_size
                where.append(start + at_done)
                values.append(done[p])
                if p in current:
                    ones.append(start + at_to_act)
                if p in winners:
                    ones.append(start + at_winner)
        out[:, :start0] = 0.0
        blocks = out[:, start0:].reshape(n, m, block_size)
        blocks[...] = self._made[np.array(rows, np.intp).reshape(n, m)]
        flat = out.reshape(-1)
        flat[where] = values
        flat[ones] = 1.0

    def _keep_block(self, key: tuple[object, ...], block: Vector) -> int:
        """Keep a new seat block as the next row of :attr:`_made` (grown as needed)."""
        row = self._blocks[key] = len(self._blocks)
        if row == len(self._made):
            grown = np.zeros((2 * row, self._block_size), np.float32)
            grown[:row] = self._made
            self._made = grown
        self._made[row] = block
        return row

    def _seat_key(self, s: SheetState[Any], p: int) -> tuple[object, ...]:
        """Everything seat ``p``'s block shows of ``s`` (but ``done``, ``to_act``,
        ``winner``): equal keys, equal blocks."""
        return (
            s.marks[p],
            s.spent[p],
            s.extra_used[p],
            s.free_marks[p],
            s.shop_size,
            tuple(s.lines[p]),
            tuple(s.claimed[p]),
            tuple(s.mastery_scored[p]),
            self.seat_extras_key(s, p),
        )

    def seat_extras_key(self, state: SheetState[Any], p: int) -> object:
        """What the game's own seat parts (:meth:`fill_seat_extras`) show of seat ``p``, as
        a hashable value (part of the key blocks are kept by)."""
        return None

    def _seat_block(self, s: SheetState[Any], p: int) -> Vector:
        """Seat ``p``'s block as ``s`` shows it (but ``done``, ``to_act`` and ``winner``)."""
        rel = self._rel
        block = np.zeros(self._block_size, np.float32)
        block[self._sheet_ones(s.marks[p])] = 1.0
        spent = s.spent[p]
        for d in range(len(self.dice)):
            if spent >> d & 1:
                block[rel["spent"] + d] = 1.0
        block[rel["extra"]] = s.extra_used[p] / self.extra_scale
        line = s.lines[p]
        for part, cards in (("line", line[: s.shop_size]), ("waiting", line[s.shop_size :])):
            if cards:
                begin = rel[part]
                block[begin : begin + len(cards) * self.slot] = self._line(tuple(cards))
        name_at = self._name_at
        for o in s.claimed[p]:
            block[rel["claimed"] + name_at[o]] = 1.0
        for k, value in enumerate(s.mastery_scored[p]):
            if value >= 0:
                block[rel["masteries"] + 2 * k] = 1.0
                block[rel["masteries"] + 2 * k + 1] = value / self.mastery_scale
        breakdown = s.score_breakdown(p)
        block[rel["score"]] = sum(breakdown.values()) / self.SCORE_SCALE
        start = rel["breakdown"]
        for name, value in breakdown.items():
            block[start + self.categories[name]] = value / self.SCORE_SCALE
        ones: list[int] = []
        self.fill_seat_extras(s._seat_view(p), rel, block, ones)
        for i in ones:
            block[i] = 1.0
        for i, low, high in self._block_caps:
            shown = float(block[i])
            if shown < low or shown > high:
                block[i] = min(max(shown, low), high)
        return block

    def _sheet_ones(self, marks: int) -> npt.NDArray[np.intp]:
        """Where a seat block holds 1 for the circles ``marks`` marks and the rows they
        complete (kept per sheet: a seat's marks take a few dozen values a game)."""
        known = self._sheets.get(marks)
        if known is None:
            _keep(self._sheets)
            rel = self._rel
            ones = [rel["marked"] + i for i in range(marks.bit_length()) if marks >> i & 1]
            start = rel["completed"]
            ones += [start + j for j, mask in enumerate(self._row_masks) if marks & mask == mask]
            known = self._sheets[marks] = np.array(ones, np.intp)
        return known

    def _line(self, cards: tuple[int, ...]) -> Vector:
        """A line of card spaces' values (the ``slot`` layout), kept per line."""
        known = self._lines.get(cards)
        if known is None:
            _keep(self._lines)
            rows = [o if o >= 0 else self._face_down if o != EMPTY else self._empty for o in cards]
            known = self._lines[cards] = self._card_rows[rows].reshape(-1)
        return known

    # -- what no seat sees (the privileged global state) --------------------------------------
    def piles(self) -> tuple[Pile, ...]:
        """The deck above its known bottom, and each seat's face-down cards."""
        cards = len(self.content.cards)
        deck = Pile("deck", cards, "the deck's order (its known bottom left out)")
        return (
            deck,
            *(
                Pile(f"seat{p}.face_down", cards, f"seat {p}'s face-down cards, in line order")
                for p in range(self.players)
            ),
        )

    def hidden(self, state: State) -> list[list[int]]:
        assert isinstance(state, SheetState)
        return [
            state.deck[state.deck_seen :],
            *([~o for o in line if o < 0 and o != EMPTY] for line in state.lines),
        ]

    # -- encoding ----------------------------------------------------------------------------
    def fill(self, observation: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        obs = observation
        n = self.players
        you = obs["you"]
        hot(ones, self.at_you, n, you)
        hot(ones, self.at_round, self.content.rounds, obs["round"] - 1)
        hot(ones, self.at_phase, len(PHASES), lookup(self.phases, obs["phase"], "phase"))
        dice = obs["dice"]
        for d, (die, sides) in enumerate(zip(self.dice, self.sides, strict=True)):
            value = dice[die]
            hot(ones, self.at_dice[d], sides, value - 1)
            out[self.at_dice_value + d] = value / sides
        material, energy = obs["masteries"]
        hot(
            ones,
            self.at_material,
            len(self.material),
            lookup(self.material, material["name"], "card"),
        )
        hot(ones, self.at_energy, len(self.energy), lookup(self.energy, energy["name"], "card"))
        for k, card in enumerate((material, energy)):
            out[self.at_mastery + 2 * k] = card["side"] == self.SIDES[0]
            out[self.at_mastery + 2 * k + 1] = card["value"] / self.mastery_scale
        deck = obs["deck"]
        out[self.at_deck] = deck["cards"] / self.deck_scale
        ones += positions(self.cards, deck["known_bottom"], self.at_bottom, "card")
        if self.solo:
            ones += positions(self.cards, obs["discards"], self.at_discards, "card")
        seats = obs["seats"]
        for p, at in self.seats(obs, ones):
            self._fill_seat(seats[p], at, out, ones)

    def _fill_seat(
        self, seat: Mapping[str, Any], at: Mapping[str, int], out: Vector, ones: list[int]
    ) -> None:
        out[at["done"]] = seat["done"]
        ones += positions(self.circles, seat["marked"], at["marked"], "circle")
        ones += positions(self.rows, seat["completed"], at["completed"], "row")
        ones += positions(self.die_index, seat["results_spent"], at["spent"], "die")
        out[at["extra"]] = seat["extra_dice_used"] / self.extra_scale
        self._fill_line(seat[self.LINE], self.shop_size, at["line"], out, ones)
        self._fill_line(seat["waiting"], self.waiting, at["waiting"], out, ones)
        ones += positions(self.cards, seat["claimed"], at["claimed"], "card")
        for k, value in enumerate(seat["masteries"]):
            if value is not None:
                ones.append(at["masteries"] + 2 * k)
                out[at["masteries"] + 2 * k + 1] = value / self.mastery_scale
        out[at["score"]] = seat["score"] / self.SCORE_SCALE
        start = at["breakdown"]
        for name, value in seat["breakdown"].items():
            out[start + lookup(self.categories, name, "scoring category")] = (
                value / self.SCORE_SCALE
            )
        self.fill_seat_extras(seat, at, out, ones)

    def _fill_line(
        self,
        cards: Sequence[Mapping[str, Any]],
        spaces: int,
        start: int,
        out: Vector,
        ones: list[int],
    ) -> None:
        """A line of card spaces (see the ``slot`` layout)."""
        if len(cards) > spaces:
            raise RulebookError(f"a line of {len(cards)} cards, more than its {spaces} spaces")
        rows = self.rows
        for i, card in enumerate(cards):
            base = start + i * self.slot
            if card.get("face_down"):
                ones.append(base + 1)
            elif card.get("empty"):
                ones.append(base + 2)
            else:
                ones.append(base)
                ones.append(base + 3 + lookup(rows, card["item"], "row"))
                ones += positions(rows, card["enchantments"], base + 3, "row")
                out[base + 3 + len(rows)] = card[self.VALUE] / self.card_scale
