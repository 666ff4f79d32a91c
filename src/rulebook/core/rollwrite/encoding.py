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
from typing import Any

from rulebook.core.errors import RulebookError
from rulebook.core.game import Setup
from rulebook.core.rollwrite.state import CRAFTING, OVER, SheetContent
from rulebook.core.spaces import FlatEncoder, Vector, hot, index_of, lookup, positions

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
