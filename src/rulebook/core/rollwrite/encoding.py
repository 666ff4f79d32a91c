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
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from librt.vecs import append, vec

from rulebook.core.errors import RulebookError
from rulebook.core.game import Setup
from rulebook.core.rollwrite.customers import EMPTY
from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.rollwrite.mastery import mastery_value
from rulebook.core.rollwrite.moves import CRAFTING, OVER
from rulebook.core.rollwrite.state import SheetContent
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
from rulebook.core.writes import Positions

PHASES = (CRAFTING, OVER)


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
    """A sheet game's observation tensor. A game supplies its State class (whose words the
    observation uses), the names of its scoring ``CATEGORIES``, the size of a seat's line of
    cards, a scale for scores, and its own seat parts (:meth:`declare_seat_extras`,
    :meth:`fill_seat_extras`)."""

    #: the game's words, as its State names them (:attr:`SheetState.LINE` and the rest): the
    #: key of a seat's line of cards, of a card's value, and the names of a mastery card's two
    #: values, the higher first (as the observation shows)
    LINE: str
    VALUE: str
    SIDES: tuple[str, str]
    #: the keys of ``score_breakdown`` (the rulebook's scoring categories), in order
    CATEGORIES: tuple[str, ...] = ()
    #: a score (and each category of it) is divided by this: about the best seat's final score
    SCORE_SCALE = 100.0
    #: scores are capped at this many times :attr:`SCORE_SCALE` (the rules set no highest
    #: score; simulated games stay below 1.3)
    SCORE_CAP = 3.0

    def __init__(
        self,
        setup: Setup,
        state: type[SheetState[Any]],
        content: SheetContent,
        shop_size: int,
        waiting: int,
    ) -> None:
        super().__init__(setup)
        self.LINE, self.VALUE, self.SIDES = state.LINE, state.VALUE, state.SIDES
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
        """The layout :class:`SheetRows` reads (once every part is declared)."""
        at = self.at_seat
        self._block = at[0]["to_act"]
        self._block_size = (
            at[1]["to_act"] - at[0]["to_act"] if self.players > 1 else self.parts.size - self._block
        )
        self._rel = {name: start - self._block for name, start in at[0].items()}
        if any(ci.bit != 1 << i for i, ci in enumerate(self.content.layout.circles)):
            raise RulebookError("the sheet's circles are not numbered by their bits")
        capped = [s for s in self.parts.slices if s.capped]
        inside = [s for s in capped if self._block <= s.start < self._block + self._block_size]
        if len(inside) != len(capped) // self.players or any(
            s.stop > self._block + self._block_size for s in inside
        ):
            raise RulebookError("a sheet's capped parts are not all in the seat blocks")
        #: per element of a seat block: the bounds it is clipped to (capped parts only)
        self._low = [-np.inf] * self._block_size
        self._high = [np.inf] * self._block_size
        for s in inside:
            for i in range(s.start - self._block, s.stop - self._block):
                self._low[i], self._high[i] = s.low, s.high
        if self.parts.size != self._block + self.players * self._block_size:
            raise RulebookError("a sheet's seat blocks are not the tensor's last parts")
        #: the tensors kept per batch size (:class:`SheetRows`)
        self._batches: dict[int, SheetRows] = {}

    def seat_extras(self) -> SeatExtras:
        """The game's own seat parts, as :class:`SheetRows` updates them (none here)."""
        return SeatExtras()

    def reads(self, state: State) -> bool:
        return isinstance(state, SheetState)

    def encode_into(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """The tensors of :meth:`encode` of each ``states[i].observation(players[i])`` into
        ``out[i]``, read from the states and kept (:class:`SheetRows`): a call rewrites only
        what changed since the last call of the same batch size."""
        if (
            out.shape != (len(states), self.parts.size)
            or out.dtype != np.float32
            or not out.flags.c_contiguous
            or not all(isinstance(s, SheetState) for s in states)
        ):
            super().encode_into(states, players, out)
            return
        sheets = [s for s in states if isinstance(s, SheetState)]
        self._rows(len(sheets)).write(sheets, list(players), out)

    def _rows(self, n: int) -> SheetRows:
        """The tensors kept for batches of ``n`` games (made at the first)."""
        rows = self._batches.get(n)
        if rows is None:
            rows = self._batches[n] = SheetRows(self, n)
        return rows

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


class SeatExtras:
    """A game's own parts of a seat block as :class:`SheetRows` keeps them (a game's encoder
    returns its own from :meth:`SheetEncoder.seat_extras`); the base shows none."""

    def blank(self) -> list[int]:
        """What a block of zeros shows, in the form :meth:`update` keeps (its ``shown``)."""
        return []

    def update(
        self, s: SheetState[Any], p: int, shown: list[int], at: int, changes: Changes
    ) -> bool:
        """List in ``changes`` the elements of seat ``p``'s block (``at``: its first
        element) that differ from what ``shown`` says it shows, and update ``shown``;
        whether any part the score counts changed (the score is read again only then, or when
        a row was completed, a card claimed or a mastery scored)."""
        return False

    def score_parts(self, s: SheetState[Any], p: int, categories: Sequence[str]) -> list[int]:
        """Seat ``p``'s score in each of ``categories`` (a game reads them without the
        dictionary of ``score_breakdown``)."""
        breakdown = s.score_breakdown(p)
        return [breakdown.get(name, 0) for name in categories]


class Changes:
    """Elements of an array to write: their flat indices and values, kept as machine numbers
    (:class:`~rulebook.core.writes.Positions`, librt's ``vec[float]``) that NumPy reads
    without converting one at a time."""

    def __init__(self) -> None:
        self.where = Positions()
        self.values: vec[float] = vec[float]()

    def put(self, i: int, value: float) -> None:
        self.where.append(i)
        self.values = append(self.values, value)

    def clear(self) -> None:
        self.where.clear()
        self.values = vec[float](capacity=len(self.values))

    def write(self, array: npt.NDArray[Any]) -> None:
        """Write them into ``array`` (C-contiguous), one NumPy call (the doubles round to the
        array's ``float32`` as one at a time would)."""
        if len(self.where):
            array.reshape(-1)[self.where.array()] = np.frombuffer(  # type: ignore[call-overload]
                self.values, np.float64
            )


class SeatShown:
    """What one kept seat block shows (at first: a block of zeros)."""

    def __init__(self, extras: list[int], categories: int) -> None:
        self.marks = 0
        self.spent = 0
        self.extra_used = 0
        self.shop_size = 0
        self.line: list[int] = []
        self.claimed: list[int] = []
        self.mastery = [-1, -1]
        self.extras = extras
        self.score = 0
        self.parts = [0] * categories


class TableShown:
    """What one kept table part shows (at first: zeros; -1: no one-hot set)."""

    def __init__(self, dice: int) -> None:
        self.you = -1
        self.round = -1
        self.phase = -1
        self.dice = [0] * dice
        self.cards = [-1, -1]
        self.mastery = [0.0, 0.0, 0.0, 0.0]
        self.deck = 0
        self.bottom: list[int] = []
        self.discards: list[int] = []


class SheetRows:
    """The tensors of a batch of ``n`` games, kept between calls: per game its table part,
    per game and seat (absolute, not relative) the seat's block, each with what it shows
    (:class:`TableShown`, :class:`SeatShown`). :meth:`write` compares each game's state with
    what is shown, rewrites only the elements that changed (one NumPy call for all the
    blocks, one for all the tables), then copies the batch into ``out`` in the viewers' seat
    orders (two calls) and sets the per-viewer flags (one). A caller may change ``out``, and
    the games may change in any way between calls (a new game in a row, another seat):
    what is kept is compared field by field, never trusted. ``tests/test_fast_encoding.py``
    holds it to :meth:`SheetEncoder.encode`."""

    def __init__(self, enc: SheetEncoder, n: int) -> None:
        self.n = n
        self.m = m = enc.players
        self.size = enc.parts.size
        self.start = enc._block
        self.block = enc._block_size
        self.extras = enc.seat_extras()
        self.categories = list(enc.CATEGORIES)
        # the table's layout
        self.at_you, self.at_round, self.at_phase = enc.at_you, enc.at_round, enc.at_phase
        self.at_dice = list(enc.at_dice)
        self.at_dice_value = enc.at_dice_value
        self.sides = [float(s) for s in enc.sides]
        self.at_material, self.at_energy = enc.at_material, enc.at_energy
        self.at_mastery, self.at_deck = enc.at_mastery, enc.at_deck
        self.at_bottom, self.at_discards = enc.at_bottom, enc.at_discards
        self.phases = dict(enc.phases)
        self.solo = enc.solo
        c = enc.content
        self.name_at = [enc.cards[card.name] for card in c.cards]
        self.material_at = [enc.material[x.name] for x in c.material]
        self.energy_at = [enc.energy[x.name] for x in c.energy]
        self.mastery_scale, self.deck_scale = enc.mastery_scale, enc.deck_scale
        # a seat block's layout
        rel = enc._rel
        self.to_act, self.done, self.winner = rel["to_act"], rel["done"], rel["winner"]
        self.marked, self.completed = rel["marked"], rel["completed"]
        self.spent, self.extra = rel["spent"], rel["extra"]
        self.line, self.waiting = rel["line"], rel["waiting"]
        self.claimed, self.masteries = rel["claimed"], rel["masteries"]
        self.score, self.breakdown = rel["score"], rel["breakdown"]
        self.extra_scale, self.score_scale = enc.extra_scale, enc.SCORE_SCALE
        self.low, self.high = list(enc._low), list(enc._high)
        self.row_masks = [row.mask for row in c.layout.rows]
        self.slot = enc.slot
        self.line_size = enc.shop_size * enc.slot
        self.waiting_size = enc.waiting * enc.slot
        #: a card space's values, per card number (then face down, then empty, then none)
        rows = len(enc.rows)
        slots: list[list[float]] = []
        for card in c.cards:
            values = [0.0] * enc.slot
            values[0] = 1.0
            values[3 + enc.rows[card.item]] = 1.0
            for row in card.enchantments:
                values[3 + enc.rows[row]] = 1.0
            values[3 + rows] = card.value / enc.card_scale
            slots.append(values)
        slots += [[0.0, 1.0] + [0.0] * (enc.slot - 2), [0.0, 0.0, 1.0] + [0.0] * (enc.slot - 3)]
        slots.append([0.0] * enc.slot)
        self.slots = slots
        self.nonzero = [[t for t, value in enumerate(v) if value != 0.0] for v in slots]
        self.face_down, self.empty, self.no_card = len(c.cards), len(c.cards) + 1, len(c.cards) + 2
        # what is kept
        self.blocks = np.zeros((n * m, self.block), np.float32)
        self.tables = np.zeros((n, self.start), np.float32)
        self.seats = [SeatShown(self.extras.blank(), len(self.categories)) for _ in range(n * m)]
        self.shown = [TableShown(len(self.at_dice)) for _ in range(n)]
        # what a call writes (kept: a call allocates no lists of its own)
        self.changes = Changes()
        self.table_changes = Changes()
        self.ones = Positions()
        #: the kept blocks a viewer sees, in its order: ``firsts[i] + turns[viewer]`` in game i
        self.firsts = np.arange(0, n * m, m, dtype=np.intp).reshape(n, 1)
        self.turns = np.array([[(v + k) % m for k in range(m)] for v in range(m)], np.intp)

    def write(
        self, states: Sequence[SheetState[Any]], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """The tensors of each ``states[i].observation(players[i])`` into ``out[i]``
        (C-contiguous ``float32``, ``(n, size)``)."""
        n, m, block, size, start = self.n, self.m, self.block, self.size, self.start
        changes, table_changes = self.changes, self.table_changes
        ones = self.ones
        changes.clear()
        table_changes.clear()
        ones.clear()
        seats = self.seats
        for i in range(n):
            s = states[i]
            player = players[i]
            # the table as the crafting began: a clone of ``s``, so of its class
            origin = cast("SheetState[Any] | None", s._origin) if s.phase == CRAFTING else None
            self._table(s, player, origin, self.shown[i], i * start, table_changes)
            current = s.current_players()
            winners = s.winners() if s.phase == OVER else []
            done = s.done
            for k in range(m):
                p = (player + k) % m
                seen = s if origin is None or p == player else origin
                kept = i * m + p
                self._seat(seen, p, seats[kept], kept * block, changes)
                at = i * size + start + k * block
                if done[p]:
                    ones.append(at + self.done)
                if p in current:
                    ones.append(at + self.to_act)
                if p in winners:
                    ones.append(at + self.winner)
        changes.write(self.blocks)
        table_changes.write(self.tables)
        out[:, :start] = self.tables
        # each viewer's blocks, its own first: game i's kept blocks rotated by its viewer
        viewers = np.fromiter(players, np.intp, n)
        out[:, start:].reshape(n, m, block)[...] = self.blocks[self.firsts + self.turns[viewers]]
        if len(ones):
            out.reshape(-1)[ones.array()] = 1.0

    def _table(
        self,
        s: SheetState[Any],
        player: int,
        origin: SheetState[Any] | None,
        shown: TableShown,
        base: int,
        changes: Changes,
    ) -> None:
        """List the elements of a game's table part (``base``: its first) that changed."""
        if player != shown.you:
            _one_hot(base + self.at_you, shown.you, player, changes)
            shown.you = player
        r = s.round - 1
        if r != shown.round:
            _one_hot(base + self.at_round, shown.round, r, changes)
            shown.round = r
        phase = self.phases[s.phase]
        if phase != shown.phase:
            _one_hot(base + self.at_phase, shown.phase, phase, changes)
            shown.phase = phase
        dice = s.dice
        kept = shown.dice
        for d in range(len(kept)):
            value = dice[d]
            if value != kept[d]:
                _one_hot(base + self.at_dice[d], kept[d] - 1, value - 1, changes)
                changes.put(base + self.at_dice_value + d, value / self.sides[d])
                kept[d] = value
        cards = s.mastery_cards
        material, energy = self.material_at[cards[0]], self.energy_at[cards[1]]
        if material != shown.cards[0]:
            _one_hot(base + self.at_material, shown.cards[0], material, changes)
            shown.cards[0] = material
        if energy != shown.cards[1]:
            _one_hot(base + self.at_energy, shown.cards[1], energy, changes)
            shown.cards[1] = energy
        mastery = shown.mastery
        for k in range(2):
            higher = 1.0 if s.mastery_master[k] and not s.solo else 0.0
            if higher != mastery[2 * k]:
                changes.put(base + self.at_mastery + 2 * k, higher)
                mastery[2 * k] = higher
            pays = mastery_value(s, k) / self.mastery_scale
            if pays != mastery[2 * k + 1]:
                changes.put(base + self.at_mastery + 2 * k + 1, pays)
                mastery[2 * k + 1] = pays
        table = s if origin is None else origin
        deck = table.deck
        left = len(deck) - (0 if origin is None else s._phase_draws[player])
        if left != shown.deck:
            changes.put(base + self.at_deck, left / self.deck_scale)
            shown.deck = left
        # the known bottom: ``deck[:deck_seen][:left]``, read in place
        seen = min(table.deck_seen, len(deck))
        count = min(seen, left) if left >= 0 else max(seen + left, 0)
        bottom = shown.bottom
        if count != len(bottom) or any(deck[j] != bottom[j] for j in range(count)):
            shown.bottom = _cards_changed(
                base + self.at_bottom, self.name_at, bottom, deck[:count], changes
            )
        if self.solo and s.discards != shown.discards:
            shown.discards = _cards_changed(
                base + self.at_discards, self.name_at, shown.discards, s.discards, changes
            )

    def _seat(
        self, s: SheetState[Any], p: int, shown: SeatShown, base: int, changes: Changes
    ) -> None:
        """List the elements of seat ``p``'s kept block (``base``: its first) that changed."""
        changed = False
        marks = s.marks[p]
        if marks != shown.marks:
            # a sheet scores by its complete rows (both games' scoring)
            changed = self._marks(shown.marks, marks, base, changes)
            shown.marks = marks
        spent = s.spent[p]
        if spent != shown.spent:
            diff = spent ^ shown.spent
            for d in range(diff.bit_length()):
                if diff >> d & 1:
                    changes.put(base + self.spent + d, float(spent >> d & 1))
            shown.spent = spent
        extra = s.extra_used[p]
        if extra != shown.extra_used:
            changes.put(base + self.extra, extra / self.extra_scale)
            shown.extra_used = extra
        line = s.lines[p]
        if s.shop_size != shown.shop_size or line != shown.line:
            self._line(shown, line, s.shop_size, base, changes)
        claimed = s.claimed[p]
        if claimed != shown.claimed:
            shown.claimed = _cards_changed(
                base + self.claimed, self.name_at, shown.claimed, claimed, changes
            )
            changed = True
        scored = s.mastery_scored[p]
        mastery = shown.mastery
        for k in range(2):
            value = scored[k]
            if value != mastery[k]:
                changes.put(base + self.masteries + 2 * k, 1.0 if value >= 0 else 0.0)
                changes.put(
                    base + self.masteries + 2 * k + 1,
                    value / self.mastery_scale if value >= 0 else 0.0,
                )
                mastery[k] = value
                changed = True
        if self.extras.update(s, p, shown.extras, base, changes):
            changed = True
        if changed:
            self._scores(s, p, shown, base, changes)

    def _marks(self, old: int, new: int, base: int, changes: Changes) -> bool:
        """The circles whose marks changed, and the rows that became (in)complete (whether
        any did)."""
        rows = False
        diff = old ^ new
        for i in range(diff.bit_length()):
            if diff >> i & 1:
                changes.put(base + self.marked + i, float(new >> i & 1))
        for j, mask in enumerate(self.row_masks):
            if diff & mask:
                complete = new & mask == mask
                if complete != (old & mask == mask):
                    changes.put(base + self.completed + j, 1.0 if complete else 0.0)
                    rows = True
        return rows

    def _line(
        self, shown: SeatShown, line: list[int], shop: int, base: int, changes: Changes
    ) -> None:
        """The card spaces of a seat's line (and waiting cards) that changed."""
        old = shown.line
        if shop != shown.shop_size:
            if old:  # every space moves: cleared in place, before this call's writes
                blocks = self.blocks.reshape(-1)
                blocks[base + self.line : base + self.line + self.line_size] = 0.0
                blocks[base + self.waiting : base + self.waiting + self.waiting_size] = 0.0
            old = []
        slot = self.slot
        for j in range(max(len(old), len(line))):
            was = self._code(old[j]) if j < len(old) else self.no_card
            now = self._code(line[j]) if j < len(line) else self.no_card
            if was == now:
                continue
            start = base + (self.line + j * slot if j < shop else self.waiting + (j - shop) * slot)
            before, after = self.slots[was], self.slots[now]
            for t in self.nonzero[was]:
                if after[t] != before[t]:
                    changes.put(start + t, after[t])
            for t in self.nonzero[now]:
                if before[t] == 0.0:
                    changes.put(start + t, after[t])
        shown.line = line.copy()
        shown.shop_size = shop

    def _code(self, card: int) -> int:
        """A card space's row of :attr:`slots`: the card's number, face down or empty."""
        if card >= 0:
            return card
        return self.empty if card == EMPTY else self.face_down

    def _scores(
        self, s: SheetState[Any], p: int, shown: SeatShown, base: int, changes: Changes
    ) -> None:
        """The score and its categories, where they changed (clipped to their bounds)."""
        parts = self.extras.score_parts(s, p, self.categories)
        scale, low, high = self.score_scale, self.low, self.high
        total = 0
        for value in parts:
            total += value
        if total != shown.score:
            at = self.score
            changes.put(base + at, min(max(total / scale, low[at]), high[at]))
            shown.score = total
        kept = shown.parts
        for k in range(len(kept)):
            value = parts[k]
            if value != kept[k]:
                at = self.breakdown + k
                changes.put(base + at, min(max(value / scale, low[at]), high[at]))
                kept[k] = value


def _one_hot(start: int, old: int, new: int, changes: Changes) -> None:
    """Move a one-hot from ``old`` to ``new`` (-1: none)."""
    if old >= 0:
        changes.put(start + old, 0.0)
    if new >= 0:
        changes.put(start + new, 1.0)


def _cards_changed(
    start: int,
    at: list[int],
    old: list[int],
    new: list[int],
    changes: Changes,
) -> list[int]:
    """Per card 1 if in ``new`` (``at``: each card's place, cards of one name share it): the
    places that changed from ``old``; a copy of ``new``."""
    before = [at[o] for o in old]
    after = [at[o] for o in new]
    for i in before:
        if i not in after:
            changes.put(start + i, 0.0)
    for i in after:
        if i not in before:
            changes.put(start + i, 1.0)
    return list(new)
