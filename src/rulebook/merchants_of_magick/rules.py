"""Merchants of Magick: every rule of the rulebook (``000_ab43b6b995c67bb5.txt``).

Round flow (GAMEPLAY): the Resource phase rolls the four dice; in the simultaneous Crafting and
Research phase every seat spends results (:class:`Spend`), resolves free marks won from its
Sponsored Adventurer (:class:`FreeMark`) and ends its phase (:class:`Done`); the Mastery phase
and the Customer phase then run by themselves. The game ends after the Mastery phase of round 10.

Rules decisions where the text is silent are marked ``Decision:`` in the docstrings below and
listed in docs/merchants-of-magick.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rulebook.core import Action, Game, IllegalAction, Setup, State
from rulebook.core.data import cached
from rulebook.core.sheet import Circle, has_all, rotate_clockwise, shift_left
from rulebook.merchants_of_magick.content import ITEM_CATEGORIES, Content, content

CRAFTING = "crafting"  # the Crafting and Research phase
OVER = "over"


# -- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Spend(Action):
    """Spend this round's result of ``die`` to mark ``circle`` ("row/column").

    Potions modify the result by exactly as much as the circle needs (POTIONS); beyond the
    second result of a round, the next Extra Dice slot is marked and its cost paid (EXTRA DICE).
    Decision: a result is never modified by more Potions than the chosen circle needs, since
    extra Potions would change nothing on the sheet.
    """

    die: str
    circle: str

    def __str__(self) -> str:
        return f"{self.die} {self.circle}"


@dataclass(frozen=True, slots=True)
class FreeMark(Action):
    """Mark any circle for free: the 2nd and 3rd Sponsored Adventurer rewards."""

    circle: str

    def __str__(self) -> str:
        return f"free {self.circle}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End your Crafting and Research phase for this round (unused results are lost)."""

    def __str__(self) -> str:
        return "done"


DONE = Done()


class Moves:
    """Every action of the game, built once per content and shared by all states."""

    def __init__(self, c: Content) -> None:
        layout = c.layout
        self.spend = {
            (d, circle.index): Spend(die, circle.id)
            for d, die in enumerate(c.dice)
            for circle in layout.by_die.get(die, ())
        }
        self.free = [FreeMark(circle.id) for circle in layout.circles]
        #: where each move acts: (die index, circle) for spends, circle for free marks
        self.spend_target = {a: (d, layout.circles[i]) for (d, i), a in self.spend.items()}
        self.free_target = {a: layout.circles[i] for i, a in enumerate(self.free)}
        self.by_text: dict[str, Action] = {"done": DONE}
        for a in (*self.spend.values(), *self.free):
            self.by_text[str(a)] = a
        #: per die index: (circle bit, threshold, crafting?, action) for legal-move generation
        self.options: list[list[tuple[int, int, bool, Spend]]] = [
            [
                (circle.bit, circle.threshold, circle.at_least, self.spend[(d, circle.index)])
                for circle in layout.by_die.get(die, ())
            ]
            for d, die in enumerate(c.dice)
        ]
        self.vocabulary: tuple[Action, ...] = (DONE, *self.spend.values(), *self.free)


@cached
def moves() -> Moves:
    return Moves(content())


def _hashable(action: Action) -> bool:
    """Whether a move can be looked up (a hand-built one may hold lists or dicts)."""
    try:
        hash(action)
    except TypeError:
        return False
    return True


# -- state -----------------------------------------------------------------------------------
class MerchantsState(State):
    """A game of Merchants of Magick, 1 (solo variant) to 8 players.

    Order lines hold card numbers: ``n`` face-up, ``~n`` (negative) face-down; the first
    ``shop_size`` cards of a line are the shoppe, the rest (solo) are waiting. The deck is a list
    whose last card is the top; its first ``deck_seen`` cards were seen by everyone when they
    were returned to the bottom at setup.
    """

    content: Content
    moves: Moves
    solo: bool
    round: int
    phase: str
    dice: tuple[int, ...]
    marks: list[int]
    potions: list[int]
    extra_used: list[int]
    spent: list[int]
    results: list[int]
    done: list[bool]
    free_marks: list[int]
    lines: list[list[int]]
    shop_size: int
    claimed: list[list[int]]
    adventurer: list[int]
    adventurer_done: list[int]
    mastery_cards: tuple[int, int]
    mastery_master: list[bool]
    mastery_scored: list[list[int]]
    deck: list[int]
    deck_seen: int
    discards: list[int]
    _current: tuple[int, ...] | None

    def __init__(self, game: Game, setup: Setup) -> None:
        super().__init__(game, setup)
        self.content = content()
        self.moves = moves()
        n = setup.players
        self.solo = setup.variant == "solo"
        self.round = 1
        self.phase = CRAFTING
        self.marks = [0] * n
        self.potions = [0] * n
        self.extra_used = [0] * n
        self.spent = [0] * n
        self.results = [0] * n
        self.done = [False] * n
        self.free_marks = [0] * n
        self.claimed = [[] for _ in range(n)]
        self.adventurer_done = [0] * n
        self.mastery_scored = [[-1, -1] for _ in range(n)]
        self.discards = []
        self._current = None
        self._set_up()
        self._start_round()

    # -- setup (GAME SETUP) --------------------------------------------------------------------
    def _set_up(self) -> None:
        """Shuffle the Orders, deal one Sponsored Adventurer each, deal the Orders by player
        count (solo: 4 and 2 waiting), and draw one Material and one Energy Mastery."""
        c, n = self.content, self.num_players
        rng = self.chance.rng()
        self.deck = list(range(len(c.orders)))
        rng.shuffle(self.deck)
        adventurers = list(range(len(c.adventurers)))
        rng.shuffle(adventurers)
        self.adventurer = adventurers[:n]
        self.deck_seen = 0
        self.shop_size = c.rules.orders_per_player[n]
        self.lines = [self._deal_orders() for _ in range(n)]
        if self.solo:
            for _ in range(c.rules.solo_waiting_orders):
                if self.deck:
                    self.lines[0].append(self._draw())
        self.mastery_cards = (rng.randrange(len(c.material)), rng.randrange(len(c.energy)))
        self.mastery_master = [True, True]

    def _draw(self) -> int:
        card = self.deck.pop()
        self.deck_seen = min(self.deck_seen, len(self.deck))
        return card

    def _deal_orders(self) -> list[int]:
        """Deal one seat's Orders; 3+ double-Enchantment Orders go to the bottom and are re-dealt.

        Decision: the re-deal repeats until the set is acceptable, at most once per card in the
        deck (then the last set stands), so setup always ends.
        """
        c = self.content
        line: list[int] = []
        for _ in range(len(c.orders) + 1):
            line = [self._draw() for _ in range(min(self.shop_size, len(self.deck)))]
            doubles = sum(c.orders[o].double for o in line)
            if doubles < c.rules.redeal_doubles or len(self.deck) < self.shop_size:
                return line
            self.deck[0:0] = line
            self.deck_seen += len(line)
        return line

    # -- round flow ----------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Resource phase: roll all four dice; then everyone crafts and researches at once."""
        self.dice = self.chance.roll(self.content.sides)
        n = self.num_players
        self.spent = [0] * n
        self.results = [0] * n
        self.done = [False] * n
        self._current = None
        self.phase = CRAFTING

    def _end_crafting(self) -> None:
        self._mastery_phase()
        if self.round >= self.content.rules.rounds:
            self.phase = OVER  # "No Customer Phase is resolved in the final round"
            self._current = None
            return
        self._customer_phase()
        self.round += 1
        self._start_round()

    def mastery_value(self, k: int) -> int:
        """What Mastery card ``k`` (0 material, 1 energy) pays now; solo: Apprentice only."""
        c = self.content
        card = c.material[self.mastery_cards[0]] if k == 0 else c.energy[self.mastery_cards[1]]
        return card.master if self.mastery_master[k] and not self.solo else card.apprentice

    def _mastery_phase(self) -> None:
        """MASTERY PHASE: everyone meeting a card scores its side's value; scored -> flipped."""
        c = self.content
        cards = (c.material[self.mastery_cards[0]], c.energy[self.mastery_cards[1]])
        for k, card in enumerate(cards):
            mask = c.layout.columns[card.column].mask
            value = self.mastery_value(k)
            scored = False
            for p in range(self.num_players):
                met = (self.marks[p] & mask).bit_count() >= card.circles
                if self.mastery_scored[p][k] < 0 and met:
                    self.mastery_scored[p][k] = value
                    scored = True
            if scored:
                self.mastery_master[k] = False

    def _customer_phase(self) -> None:
        """CUSTOMER PHASE: Orders move one seat clockwise (solo: shift left, the leftmost is
        discarded, a face-up Order joins at the right); then face-down Orders are revealed.

        Decision: an Order that arrives face-up (or is revealed) in a shoppe whose sheet already
        completes it is claimed at once, as "the moment item and enchantments are complete".
        """
        if self.solo:
            incoming = self._draw() if self.deck else None
            line, left = shift_left(self.lines[0], incoming)
            if left is not None:
                self.discards.append(left if left >= 0 else ~left)
            self.lines = [line]
        else:
            self.lines = rotate_clockwise(self.lines)
        for line in self.lines:
            for i, card in enumerate(line):
                if card < 0:
                    line[i] = ~card
        for p in range(self.num_players):
            self._claim_orders(p)

    # -- marking and its consequences ----------------------------------------------------------
    def _mark(self, p: int, circle: Circle) -> None:
        """Mark a circle; a completed row gives its Potion(s), claims Orders and may fulfil the
        Sponsored Adventurer (CRAFTING, SPELL RESEARCH, ORDERS, SPONSORED ADVENTURERS)."""
        c = self.content
        marks = self.marks[p] = self.marks[p] | circle.bit
        row = c.layout.rows[circle.row]
        if marks & row.mask != row.mask:
            return
        potions = c.rows[row.index].potions
        self.potions[p] += potions if potions is not None else c.rules.potions_per_row
        self._claim_orders(p)
        adv = c.adventurers[self.adventurer[p]]
        done = self.adventurer_done[p]
        for k in range(3):
            if not done >> k & 1 and marks & adv.masks[k] == adv.masks[k]:
                done |= 1 << k
                fulfilled = done.bit_count()
                if fulfilled == 1:
                    self.potions[p] += c.rewards.first_potions
                elif fulfilled == 2:
                    self.free_marks[p] += c.rewards.second_free_marks
                else:
                    self.free_marks[p] += c.rewards.third_free_marks
        self.adventurer_done[p] = done
        if marks == c.layout.all_mask:
            self.free_marks[p] = 0  # nothing left to mark

    def _claim_orders(self, p: int) -> None:
        """Claim every face-up Order in the shoppe whose item and enchantments are complete;
        each is replaced face-down from the deck (none if the deck is empty)."""
        orders = self.content.orders
        line = self.lines[p]
        marks = self.marks[p]
        i = 0
        while i < min(self.shop_size, len(line)):
            card = line[i]
            if card >= 0 and has_all(marks, orders[card].mask):
                self.claimed[p].append(card)
                if self.deck:
                    line[i] = ~self._draw()
                else:
                    del line[i]
                    continue
            i += 1

    # -- the protocol --------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        if self._current is None:
            self._current = (
                tuple(p for p in range(self.num_players) if not self.done[p])
                if self.phase == CRAFTING
                else ()
            )
        return self._current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _extra_cost(self, p: int) -> int | None:
        """Potions the next result costs in Extra Dice, or None if no slot is left."""
        if self.results[p] < self.content.rules.results_per_round:
            return 0
        costs = self.content.rules.extra_dice_costs
        used = self.extra_used[p]
        return costs[used] if used < len(costs) else None

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase != CRAFTING or not 0 <= player < self.num_players or self.done[player]:
            return []
        marks = self.marks[player]
        if self.free_marks[player]:
            return [a for i, a in enumerate(self.moves.free) if not marks >> i & 1]
        actions: list[Action] = [DONE]
        extra = self._extra_cost(player)
        if extra is None:
            return actions
        budget = self.potions[player] - extra
        if budget < 0:
            return actions
        spent = self.spent[player]
        dice = self.dice
        for d, options in enumerate(self.moves.options):
            if spent >> d & 1:
                continue
            value = dice[d]
            for bit, threshold, at_least, action in options:
                if marks & bit:
                    continue
                need = threshold - value if at_least else value - threshold
                if need <= budget:
                    actions.append(action)
        return actions

    def parse_action(self, player: int, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(f"{text!r} is not a move")
        action = self.moves.by_text.get(" ".join(text.lower().split()))
        if action is None:
            raise IllegalAction(
                f"{text!r} is not a move; moves look like 'd6 greaves/steel' (spend a result), "
                "'free divine/wild' (a free mark) or 'done'"
            )
        return action

    def action_vocabulary(self) -> tuple[Action, ...]:
        return self.moves.vocabulary

    def _apply(self, player: int, action: Action) -> None:
        if type(action) is Spend:
            target = self.moves.spend_target.get(action) if _hashable(action) else None
            if target is None:
                raise IllegalAction(f"{action}: the {action.die} cannot mark {action.circle}")
            self._spend(player, action, *target)
        elif type(action) is FreeMark:
            circle = self.moves.free_target.get(action) if _hashable(action) else None
            if circle is None:
                raise IllegalAction(f"{action}: there is no circle {action.circle}")
            if not self.free_marks[player]:
                raise IllegalAction("you have no free mark to make")
            if self.marks[player] & circle.bit:
                raise IllegalAction(f"{circle.id} is already marked")
            self.free_marks[player] -= 1
            self._mark(player, circle)
        elif type(action) is Done:
            if self.free_marks[player]:
                raise IllegalAction("make your free mark first")
            self._finish(player)
            return
        else:
            raise IllegalAction(f"{action!r} is not a Merchants of Magick move")
        if not self.free_marks[player] and self._out_of_results(player):
            self._finish(player)

    def _spend(self, p: int, action: Spend, die: int, circle: Circle) -> None:
        c = self.content
        if self.free_marks[p]:
            raise IllegalAction("make your free mark first")
        if self.spent[p] >> die & 1:
            raise IllegalAction(f"you already spent the {action.die} this round")
        if self.marks[p] & circle.bit:
            raise IllegalAction(f"{circle.id} is already marked")
        extra = self._extra_cost(p)
        if extra is None:
            raise IllegalAction("all Extra Dice are used: no more results this round")
        value = self.dice[die]
        cost = extra + abs(circle.change_needed(value))
        if cost > self.potions[p]:
            extra_text = f", {extra} for the Extra Die" if extra else ""
            raise IllegalAction(
                f"{action} needs {cost} Potion(s) ({value} on the {action.die}{extra_text}); "
                f"you have {self.potions[p]}"
            )
        self.potions[p] -= cost
        if self.results[p] >= c.rules.results_per_round:
            self.extra_used[p] += 1
        self.results[p] += 1
        self.spent[p] |= 1 << die
        self._mark(p, circle)

    def _out_of_results(self, p: int) -> bool:
        """Whether ``p`` can spend no further result this round (all spent, or no Extra Die)."""
        if self.results[p] >= len(self.dice):
            return True
        extra = self._extra_cost(p)
        return extra is None or extra > self.potions[p]

    def _finish(self, p: int) -> None:
        self.done[p] = True
        self._current = None
        if all(self.done):
            self._end_crafting()

    # -- scoring (END OF GAME) -------------------------------------------------------------------
    def score_breakdown(self, player: int) -> dict[str, int]:
        """The seven scoring categories of END OF GAME (the Coins so far while the game runs).

        Decision: Charms count every Order card fulfilled, whenever the Charm was completed
        (the text scores them at the end), and not the Sponsored Adventurer's Orders.
        """
        c = self.content
        marks = self.marks[player]
        crafting = research = charms = 0
        claimed = [c.orders[o] for o in self.claimed[player]]
        for row in c.layout.rows:
            if marks & row.mask != row.mask:
                continue
            if row.category in ITEM_CATEGORIES:
                crafting += row.value
            else:
                research += row.value
                charm = c.rows[row.index]
                if charm.bonus_category is not None:
                    charms += charm.bonus_coins * sum(
                        o.category == charm.bonus_category for o in claimed
                    )
        adv = c.adventurers[self.adventurer[player]]
        return {
            "crafting": crafting,
            "material_mastery": max(self.mastery_scored[player][0], 0),
            "spell_research": research,
            "energy_mastery": max(self.mastery_scored[player][1], 0),
            "orders": sum(o.coins for o in claimed),
            "charms_bonus": charms,
            "sponsored_adventurer": adv.coins if self.adventurer_done[player] == 0b111 else 0,
        }

    def scores(self) -> list[int]:
        return [sum(self.score_breakdown(p).values()) for p in range(self.num_players)]

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """Ties: most fulfilled Orders, then most Potions; then the victory is shared.

        Decision: "fulfilled Orders" counts Order cards, not the Sponsored Adventurer's.
        """
        return (len(self.claimed[player]), self.potions[player])

    def rating(self, player: int = 0) -> str:
        """The solo rating of a seat's score (SOLO VARIANT table: 60/70/80/90)."""
        score = self.scores()[player]
        title = self.content.solo.below
        for threshold, name in self.content.solo.ratings:
            if score >= threshold:
                title = name
        return title

    # -- views -----------------------------------------------------------------------------------
    def _order_view(self, card: int) -> dict[str, Any]:
        if card < 0:
            return {"face_down": True}
        o = self.content.orders[card]
        return {
            "name": o.name,
            "item": o.item,
            "enchantments": list(o.enchantments),
            "coins": o.coins,
        }

    def observation(self, player: int) -> dict[str, Any]:
        """Everything on the table is public but the deck's order and face-down Orders."""
        if not 0 <= player < self.num_players:
            raise IllegalAction(f"no seat {player}")
        c = self.content
        layout = c.layout
        cards = (c.material[self.mastery_cards[0]], c.energy[self.mastery_cards[1]])
        seats = []
        for p in range(self.num_players):
            adv = c.adventurers[self.adventurer[p]]
            line = self.lines[p]
            breakdown = self.score_breakdown(p)
            seats.append(
                {
                    "marked": [ci.id for ci in layout.circles if self.marks[p] & ci.bit],
                    "completed": [r.id for r in layout.completed_rows(self.marks[p])],
                    "potions": self.potions[p],
                    "extra_dice_used": self.extra_used[p],
                    "results_spent": [d for i, d in enumerate(c.dice) if self.spent[p] >> i & 1],
                    "done": self.done[p],
                    "free_marks": self.free_marks[p],
                    "orders": [self._order_view(o) for o in line[: self.shop_size]],
                    "waiting": [self._order_view(o) for o in line[self.shop_size :]],
                    "claimed": [c.orders[o].name for o in self.claimed[p]],
                    "adventurer": {
                        "name": adv.name,
                        "enchantment": adv.enchantment,
                        "items": list(adv.items),
                        "coins": adv.coins,
                        "fulfilled": [
                            adv.items[k] for k in range(3) if self.adventurer_done[p] >> k & 1
                        ],
                    },
                    "masteries": [v if v >= 0 else None for v in self.mastery_scored[p]],
                    "score": sum(breakdown.values()),
                    "breakdown": breakdown,
                }
            )
        obs: dict[str, Any] = {
            "game": self.setup.game,
            "variant": self.setup.variant,
            "you": player,
            "round": self.round,
            "rounds": c.rules.rounds,
            "phase": self.phase,
            "current_players": list(self.current_players()),
            "dice": dict(zip(c.dice, self.dice, strict=True)),
            "masteries": [
                {
                    "kind": card.kind,
                    "name": card.name,
                    "column": layout.columns[card.column].id,
                    "circles": card.circles,
                    "side": "master" if self.mastery_master[k] and not self.solo else "apprentice",
                    "value": self.mastery_value(k),
                }
                for k, card in enumerate(cards)
            ],
            "deck": {
                "cards": len(self.deck),
                "known_bottom": [c.orders[o].name for o in self.deck[: self.deck_seen]],
            },
            "discards": [c.orders[o].name for o in self.discards],
            "seats": seats,
        }
        if self.phase == OVER:
            obs["winners"] = self.winners()
            if self.solo:
                obs["rating"] = self.rating()
        return obs

    def explain(self, player: int, action: Action) -> str:
        """The move with what it costs, for menus: ``d6 greaves/steel (5+2: 2 potions)``."""
        target = self.moves.spend_target.get(action) if type(action) is Spend else None
        if target is None:
            return str(action)
        die, circle = target
        value = self.dice[die]
        change = circle.change_needed(value)
        extra = self._extra_cost(player) or 0
        parts = []
        if change:
            parts.append(f"{value}{change:+d}")
        if extra:
            parts.append(f"extra die {extra}")
        cost = abs(change) + extra
        if cost:
            return f"{action} ({', '.join(parts)}: {cost} potion{'s' if cost > 1 else ''})"
        return str(action)

    # -- copies and hidden information ---------------------------------------------------------
    def clone(self) -> MerchantsState:
        new = MerchantsState.__new__(MerchantsState)
        self._copy_base(new)
        new.content = self.content
        new.moves = self.moves
        new.solo = self.solo
        new.round = self.round
        new.phase = self.phase
        new.dice = self.dice
        new.marks = self.marks.copy()
        new.potions = self.potions.copy()
        new.extra_used = self.extra_used.copy()
        new.spent = self.spent.copy()
        new.results = self.results.copy()
        new.done = self.done.copy()
        new.free_marks = self.free_marks.copy()
        new.lines = [line.copy() for line in self.lines]
        new.shop_size = self.shop_size
        new.claimed = [c.copy() for c in self.claimed]
        new.adventurer = self.adventurer
        new.adventurer_done = self.adventurer_done.copy()
        new.mastery_cards = self.mastery_cards
        new.mastery_master = self.mastery_master.copy()
        new.mastery_scored = [m.copy() for m in self.mastery_scored]
        new.deck = self.deck.copy()
        new.deck_seen = self.deck_seen
        new.discards = self.discards.copy()
        new._current = None
        return new

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """Unseen Orders (the deck above its known bottom, face-down cards) are reshuffled."""
        hidden = self.deck[self.deck_seen :]
        slots = [(p, i) for p, line in enumerate(self.lines) for i, o in enumerate(line) if o < 0]
        hidden += [~self.lines[p][i] for p, i in slots]
        rng.shuffle(hidden)
        for p, i in slots:
            self.lines[p][i] = ~hidden.pop()
        self.deck[self.deck_seen :] = hidden

    def snapshot(self) -> dict[str, Any]:
        return {
            "setup": self.setup.to_dict(),
            "chance": (self.chance.seed, self.chance.draws),
            "history": [(p, str(a)) for p, a in self.history],
            "round": self.round,
            "phase": self.phase,
            "dice": self.dice,
            "marks": self.marks.copy(),
            "potions": self.potions.copy(),
            "extra_used": self.extra_used.copy(),
            "spent": self.spent.copy(),
            "results": self.results.copy(),
            "done": self.done.copy(),
            "free_marks": self.free_marks.copy(),
            "lines": [line.copy() for line in self.lines],
            "claimed": [c.copy() for c in self.claimed],
            "adventurer": self.adventurer.copy(),
            "adventurer_done": self.adventurer_done.copy(),
            "mastery_cards": self.mastery_cards,
            "mastery_master": self.mastery_master.copy(),
            "mastery_scored": [m.copy() for m in self.mastery_scored],
            "deck": self.deck.copy(),
            "deck_seen": self.deck_seen,
            "discards": self.discards.copy(),
        }
