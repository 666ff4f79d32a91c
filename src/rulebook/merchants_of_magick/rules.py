"""Merchants of Magick: the rules that are this game's own (rulebook ``000_ab43b6b995c67bb5.txt``).

The round (GAMEPLAY), the sheet (CRAFTING, SPELL RESEARCH), the Orders (ORDERS), EXTRA DICE,
THE MASTERY PHASE and THE CUSTOMER PHASE are the shared sheet engine's
(:mod:`rulebook.core.rollwrite`, whose ``engine`` module lists them by section). Here:

- GAME SETUP: "Shuffle and deal 1 Sponsored Adventurer card to each player ... Deal Order cards
  ... If any player was dealt 3 or more Orders with double Enchantments ... deal that player a
  new set of Orders";
- POTIONS: "Each Potion adds one (+1) or subtracts one (-1) to the result spent", also paying for
  Extra Dice ("the next 3 slots cost Potions"); "gain 1 Potion" for each completed row;
- SPONSORED ADVENTURERS: "1st Order completed — Gain 3 Potions", the 2nd and 3rd a free mark (the
  3rd also its Coins at the end);
- END OF GAME: the seven scoring categories, Charms' bonus Coins, the tie-breakers;
- SOLO VARIANT: the waiting Orders at setup and the rating table.

Rules decisions where the text is silent are marked ``Decision:`` and listed in
docs/merchants-of-magick.md.
"""

from __future__ import annotations

from typing import Any

from rulebook.core import Game, Setup
from rulebook.core.data import cached
from rulebook.core.rollwrite import Done, FreeMark, Moves, SheetState, Spend
from rulebook.core.rollwrite.words import item_said, titled
from rulebook.core.sheet import Row
from rulebook.core.words import plural
from rulebook.merchants_of_magick.content import KNOWN_SHEETS, Adventurer, Content, content

__all__ = ["Done", "FreeMark", "MerchantsState", "Spend", "moves"]


#: the scoring categories of END OF GAME, in the score pad's order
CATEGORIES = (
    "crafting",
    "material_mastery",
    "spell_research",
    "energy_mastery",
    "orders",
    "charms_bonus",
    "sponsored_adventurer",
)
#: the tie-breakers of END OF GAME, in order
TIEBREAKS = ("most fulfilled Orders", "most Potions")


@cached
def moves() -> Moves:
    c = content()
    return Moves(c.layout, c.dice, free_marks=True)


def sheet_scores(content: Content, marks: int) -> tuple[int, int, tuple[tuple[str, int], ...]]:
    """What a sheet's complete rows score (END OF GAME): the Crafting Coins, the Spell
    Research Coins, and each complete Charm's bonus category and Coins per Order of it.
    The last :data:`KNOWN_SHEETS` sheets asked about are remembered."""
    known = content._sheet_scores
    found = known.get(marks)
    if found is None:
        crafting = research = 0
        charms: list[tuple[str, int]] = []
        for mask, item, coins, bonus_category, bonus_coins in content.scoring_rows:
            if marks & mask != mask:
                continue
            if item:
                crafting += coins
            else:
                research += coins
                if bonus_category is not None:
                    charms.append((bonus_category, bonus_coins))
        if len(known) >= KNOWN_SHEETS:
            known.clear()
        found = known[marks] = (crafting, research, tuple(charms))
    return found


def row_reward(c: Content, row: int) -> str:
    """What completing a row gives, in words: its Coins and Potions (CRAFTING, SPELL RESEARCH;
    Potion Supplier gives more), and a Charm's bonus Coins at the end (END OF GAME)."""
    spec = c.rows[row]
    potions = spec.potions if spec.potions is not None else c.rules.potions_per_row
    text = f"{plural(spec.coins, 'Coin')} and {plural(potions, 'Potion')}"
    if spec.bonus_category is not None:
        text += (
            f"; at the end, {plural(spec.bonus_coins, 'Coin')} more per "
            f"{titled(spec.bonus_category)} Order fulfilled"
        )
    return text


def adventurer_reward(c: Content, adv: Adventurer, fulfilled: int) -> str:
    """What the Sponsored Adventurer's ``fulfilled``-th Order gives (SPONSORED ADVENTURERS)."""
    r = c.rewards
    if fulfilled == 1:
        return plural(r.first_potions, "Potion")
    if fulfilled == 2:
        return plural(r.second_free_marks, "free mark")
    return f"{plural(r.third_free_marks, 'free mark')} and {plural(adv.coins, 'Coin')} at the end"


class MerchantsState(SheetState[Content]):
    """A game of Merchants of Magick, 1 (solo variant) to 8 players.

    Potions modify a result by exactly as much as the chosen circle needs (POTIONS).
    Decision: a result is never modified by more Potions than the chosen circle needs, since
    extra Potions would change nothing on the sheet. Extra Dice beyond the third cost Potions.
    """

    LINE = "orders"
    VALUE = "coins"
    SIDES = ("master", "apprentice")
    FREE_MARKS = True

    potions: list[int]
    adventurer: list[int]
    #: per seat: its Sponsored Adventurer's three Orders (masks) and Coins, taken from the
    #: content as the game is set up (the evaluation reads them at every position)
    adventurer_masks: list[tuple[int, int, int]]
    adventurer_coins: list[int]
    adventurer_done: list[int]
    #: the content's memo of what sheets score (:func:`sheet_scores`), read here first
    _sheet_scores: dict[int, tuple[int, int, tuple[tuple[str, int], ...]]]

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        """A new game set up; ``blank``: nothing set (for :meth:`clone`)."""
        if blank:
            return
        super().__init__(game, setup, content(), moves())
        n = setup.players
        self._sheet_scores = self.content._sheet_scores
        self.potions = [0] * n
        self.adventurer_done = [0] * n
        self._set_up()
        self._start()

    # -- setup (GAME SETUP) --------------------------------------------------------------------
    def _set_up(self) -> None:
        """GAME SETUP: shuffle the Orders, deal one Sponsored Adventurer each, deal the Orders by
        player count (solo: 4 and 2 waiting), and draw one Material and one Energy Mastery."""
        c, n = self.content, self.num_players
        rng = self.chance.rng()
        self.deck = list(range(len(c.orders)))
        rng.shuffle(self.deck)
        adventurers = list(range(len(c.adventurers)))
        rng.shuffle(adventurers)
        self.adventurer = adventurers[:n]
        self.adventurer_masks = [c.adventurers[a].masks for a in self.adventurer]
        self.adventurer_coins = [c.adventurers[a].coins for a in self.adventurer]
        self.deck_seen = 0
        self.shop_size = c.rules.orders_per_player[n]
        self.lines = [self._deal_orders() for _ in range(n)]
        if self.solo:
            for _ in range(c.rules.solo_waiting_orders):
                if self.deck:
                    self.lines[0].append(self._draw())
        self.mastery_cards = (rng.randrange(len(c.material)), rng.randrange(len(c.energy)))

    def _deal_orders(self) -> list[int]:
        """GAME SETUP, 3. DEAL ORDERS: one seat's Orders; 3+ double-Enchantment Orders go to
        the bottom and are re-dealt.

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

    # -- Potions (POTIONS, EXTRA DICE) ---------------------------------------------------------
    def _reach(self, p: int, extra: int) -> tuple[int, int]:
        """POTIONS: each Potion moves a result by 1 either way; the Extra Die is paid first
        (EXTRA DICE)."""
        budget = self.potions[p] - extra
        return budget, budget

    def _pay(self, p: int, change: int, extra: int) -> None:
        """POTIONS, EXTRA DICE: the Potions moving the result and buying the Extra Die."""
        self.potions[p] -= extra + abs(change)

    def _cannot_pay(self, p: int, action: Spend, value: int, change: int, extra: int) -> str:
        cost = extra + abs(change)
        extra_text = f", {extra} for the Extra Die" if extra else ""
        return (
            f"{action} needs {plural(cost, 'Potion')} ({value} on the {action.die}{extra_text}); "
            f"you have {self.potions[p]}"
        )

    def _cost_text(self, p: int, value: int, change: int, extra: int) -> str:
        parts = []
        if change:
            parts.append(f"{value}{change:+d}")
        if extra:
            parts.append(f"extra die {extra}")
        cost = abs(change) + extra
        return f"{', '.join(parts)}: {cost} potion{'s' if cost > 1 else ''}" if cost else ""

    # -- the move in plain words (``describe``, shared: rulebook.core.rollwrite.engine) ----------
    def _change_paid(self, p: int, change: int) -> tuple[int, str, str]:
        """A Potion per 1 a result is moved (POTIONS)."""
        return abs(change), "Potion", ""

    def _row_reward_words(self, row: int) -> str:
        return row_reward(self.content, row)

    def _fulfils_words(self, p: int, marks: int) -> list[str]:
        """SPONSORED ADVENTURERS: the Orders the sheet ``marks`` fulfils, with their rewards."""
        c = self.content
        adv = c.adventurers[self.adventurer[p]]
        done = self.adventurer_done[p]
        out = []
        for k in range(3):
            if not done >> k & 1 and marks & adv.masks[k] == adv.masks[k]:
                done |= 1 << k
                item = item_said(c.layout, adv.items[k], (adv.enchantment,))
                out.append(
                    f"fulfilling the Sponsored Adventurer's {item} "
                    f"({adventurer_reward(c, adv, done.bit_count())})"
                )
        return out

    # -- completing a row (CRAFTING, SPELL RESEARCH, SPONSORED ADVENTURERS) --------------------
    def _row_completed(self, p: int, row: Row) -> None:
        """CRAFTING, SPELL RESEARCH, SPONSORED ADVENTURERS: a completed row gives its Potion(s)
        and may fulfil the Sponsored Adventurer's
        Orders: the 1st gives 3 Potions, the 2nd and 3rd a free mark each."""
        c = self.content
        potions = c.rows[row.index].potions
        self.potions[p] += potions if potions is not None else c.rules.potions_per_row
        marks = self.marks[p]
        masks = self.adventurer_masks[p]
        done = self.adventurer_done[p]
        for k in range(3):
            if not done >> k & 1 and marks & masks[k] == masks[k]:
                done |= 1 << k
                fulfilled = done.bit_count()
                if fulfilled == 1:
                    self.potions[p] += c.rewards.first_potions
                elif fulfilled == 2:
                    self.free_marks[p] += c.rewards.second_free_marks
                else:
                    self.free_marks[p] += c.rewards.third_free_marks
        self.adventurer_done[p] = done

    # -- scoring (END OF GAME) -------------------------------------------------------------------
    def score_breakdown(self, player: int) -> dict[str, int]:
        """The seven scoring categories of END OF GAME (the Coins so far while the game runs)."""
        return dict(zip(CATEGORIES, self._score_parts(player), strict=True))

    def score(self, player: int) -> int:
        """The sum of :meth:`score_breakdown`, without building it (compiled, the parts are
        a tuple of machine integers: no objects made)."""
        a, b, c, d, e, f, g = self._score_parts(player)
        return a + b + c + d + e + f + g

    def _score_parts(self, player: int) -> tuple[int, int, int, int, int, int, int]:
        """The Coins of each of :data:`CATEGORIES` (END OF GAME).

        Decision: Charms count every Order card fulfilled, whenever the Charm was completed
        (the text scores them at the end), and not the Sponsored Adventurer's Orders.
        """
        c = self.content
        marks = self.marks[player]
        sheet = self._sheet_scores.get(marks)
        if sheet is None:
            sheet = sheet_scores(c, marks)
        crafting, research, complete_charms = sheet
        claimed = self.claimed[player]
        values = self.card_values
        coins = 0
        for o in claimed:
            coins += values[o]  # an Order's Coins
        charms = 0
        for bonus_category, bonus_coins in complete_charms:
            orders = c.orders
            charms += bonus_coins * sum(orders[o].category == bonus_category for o in claimed)
        mastery = self.mastery_scored[player]
        adventurer = self.adventurer_coins[player] if self.adventurer_done[player] == 0b111 else 0
        return (
            crafting,
            max(mastery[0], 0),
            research,
            max(mastery[1], 0),
            coins,
            charms,
            adventurer,
        )

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """END OF GAME: ties go to the most fulfilled Orders, then most Potions; then the victory is
        shared.

        Decision: "fulfilled Orders" counts Order cards, not the Sponsored Adventurer's.
        """
        return (len(self.claimed[player]), self.potions[player])

    def tiebreak_labels(self) -> tuple[str, ...]:
        return TIEBREAKS

    def rating(self, player: int = 0) -> str:
        """The solo rating of a seat's score (SOLO VARIANT table: 60/70/80/90):
        :meth:`rating_of` its :meth:`score`."""
        return self.rating_of(self.score(player))

    def rating_of(self, score: int) -> str:
        """The SOLO VARIANT title of ``score`` Coins: the highest threshold it reaches."""
        title = self.content.solo.below
        for threshold, name in self.content.solo.ratings:
            if score >= threshold:
                title = name
        return title

    def rating_scale(self) -> list[tuple[int, str]]:
        """Solo: the SOLO VARIANT rating table, with the title below its lowest score."""
        if not self.solo:
            return []
        return [(0, self.content.solo.below), *self.content.solo.ratings]

    # -- views and copies ------------------------------------------------------------------------
    def _seat_view(self, p: int) -> dict[str, Any]:
        adv = self.content.adventurers[self.adventurer[p]]
        return {
            "potions": self.potions[p],
            "free_marks": self.free_marks[p],
            "adventurer": {
                "name": adv.name,
                "enchantment": adv.enchantment,
                "items": list(adv.items),
                "coins": adv.coins,
                "fulfilled": [adv.items[k] for k in range(3) if self.adventurer_done[p] >> k & 1],
            },
        }

    def _view(self, player: int | None) -> dict[str, Any]:
        obs = super()._view(player)
        if self.phase == "over" and self.solo:
            obs["rating"] = self.rating()
        return obs

    def _blank(self) -> MerchantsState:
        return MerchantsState(self.game, self.setup, blank=True)

    def _copy_into(self, new: SheetState[Content]) -> None:
        assert isinstance(new, MerchantsState)
        new._sheet_scores = self._sheet_scores
        new.potions = self.potions.copy()
        new.adventurer = self.adventurer
        new.adventurer_masks = self.adventurer_masks
        new.adventurer_coins = self.adventurer_coins
        new.adventurer_done = self.adventurer_done.copy()

    def _save_own(self, p: int) -> tuple[int, int]:
        return self.potions[p], self.adventurer_done[p]

    def _restore_own(self, p: int, saved: tuple[int, int]) -> None:
        self.potions[p], self.adventurer_done[p] = saved

    def _snapshot_extra(self) -> dict[str, Any]:
        return {
            "potions": self.potions.copy(),
            "adventurer": self.adventurer.copy(),
            "adventurer_done": self.adventurer_done.copy(),
        }
