"""Ye Olde Magick Shoppe v0.7.2: the rules that are this game's own (``002_b27f334b14e381b8.txt``).

The round (Round Flow), the sheet (Crafting, Spell Research), the Customer Circle (Customers),
Extra Dice and the Certifications are the shared sheet engine's (:mod:`rulebook.core.rollwrite`,
whose ``engine`` module lists them by section). Here:

- SETUP: "Deal cards face-up into a line above each player sheet ... The Connoisseur card should
  be the far right card"; Solo Variant: "2 customer cards face-up to the right of the player";
- Bonus Modifiers: "allow you to mark a die on your sheet as if a lower or higher number had been
  rolled", with Charms circling "the next appropriate Bonus Modifier Value"; Extra Dice cost
  nothing;
- End of the Game and Scoring: stars for items, spells, customers, Certifications and Glyphs; the
  tie-breaker.

Rules decisions where the text is silent are marked ``Decision:`` and listed in
docs/ye-olde-magick-shoppe.md.
"""

from __future__ import annotations

from typing import Any

from rulebook.core import Game, Setup
from rulebook.core.data import cached
from rulebook.core.rollwrite import Done, Moves, SheetState, Spend
from rulebook.core.rollwrite.words import listed, titled
from rulebook.core.sheet import Row
from rulebook.core.words import plural
from rulebook.ye_olde_magick_shoppe.content import (
    ITEM_CATEGORIES,
    KINDS,
    KNOWN_SHEETS,
    Content,
    content,
)

__all__ = ["Done", "ShoppeState", "Spend", "moves"]


#: the scoring categories of End of the Game
CATEGORIES = ("items", "spells", "customers", "certifications", "glyphs")
#: the tie-breaker of End of the Game
TIEBREAKS = ("most customers claimed",)


@cached
def moves() -> Moves:
    c = content()
    return Moves(c.layout, c.dice, free_marks=False)


def modifiers_needed(change: int, value: int) -> int:
    """How many Bonus Modifiers worth ``value`` each move a result by ``change`` (ceil)."""
    return -(-change // value)


def sheet_scores(content: Content, marks: int) -> tuple[int, int, int]:
    """What a sheet's complete rows score (End of the Game): stars for items crafted and
    spells researched, and the Glyphs' stars per item of their category. The last
    :data:`KNOWN_SHEETS` sheets asked about are remembered."""
    known = content._sheet_scores
    found = known.get(marks)
    if found is None:
        items = spells = glyphs = 0
        crafted = dict.fromkeys(ITEM_CATEGORIES, 0)
        glyph_rows = []
        for mask, item, stars, glyph_category, glyph_stars in content.scoring_rows:
            if marks & mask == mask:
                if item is not None:
                    items += stars
                    crafted[item] += 1
                else:
                    spells += stars
                if glyph_category is not None:
                    glyph_rows.append((glyph_category, glyph_stars))
        for glyph_category, glyph_stars in glyph_rows:
            glyphs += glyph_stars * crafted[glyph_category]
        if len(known) >= KNOWN_SHEETS:
            known.clear()
        found = known[marks] = (items, spells, glyphs)
    return found


def row_reward(c: Content, row: int) -> str:
    """What completing a row gives, in words: its stars, its Bonus Modifier (Bonus Modifiers),
    a Charm's next Bonus Modifier Value (Charms), a Glyph's stars per item at the end (Glyphs)."""
    spec = c.rows[row]
    parts = [plural(spec.stars, "star")] if spec.stars else []
    parts.append(f"a {spec.bonus} Bonus Modifier")
    if spec.advances is not None:
        parts.append(f"the next {spec.advances} Bonus Modifier Value")
    if spec.glyph_category is not None:
        category = titled(spec.glyph_category)
        parts.append(f"{plural(spec.glyph_stars, 'star')} per {category} crafted, at the end")
    return listed(parts)


class ShoppeState(SheetState[Content]):
    """A game of Ye Olde Magick Shoppe, 1 (solo variant) to 8 players.

    ``bonus[p]`` holds seat ``p``'s circled, unused Bonus Modifiers per kind (minus, plus);
    ``level[p]`` the Bonus Modifier Value circled on each track (0 = the first value).

    Decision: a result is changed with the fewest Bonus Modifiers of the kind that helps (plus
    for a crafting circle, minus for a research one) reaching the circle; more, or the other
    kind, would change nothing on the sheet.
    """

    LINE = "customers"
    VALUE = "stars"
    SIDES = ("higher", "lower")
    #: Decision: with the Customer deck out, a claimed customer's space stays empty and moves
    #: one space clockwise each round like the cards ("All Customer cards are shifted clockwise
    #: one space"), so no shoppe shrinks for good
    KEEP_EMPTY_SPACES = True

    bonus: list[list[int]]
    level: list[list[int]]
    #: the content's Bonus Modifier Values per kind (read at every position)
    modifier_values: tuple[tuple[int, ...], tuple[int, ...]]
    #: the content's memo of what sheets score (:func:`sheet_scores`), read here first
    _sheet_scores: dict[int, tuple[int, int, int]]

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        """A new game set up; ``blank``: nothing set (for :meth:`clone`)."""
        if blank:
            return
        super().__init__(game, setup, content(), moves())
        n = setup.players
        self._sheet_scores = self.content._sheet_scores
        self.modifier_values = self.content.values
        self.bonus = [[0, 0] for _ in range(n)]
        self.level = [[0, 0] for _ in range(n)]
        self._set_up()
        self._start()

    # -- SETUP -----------------------------------------------------------------------------------
    def _set_up(self) -> None:
        """SETUP: shuffle the Customer and Connoisseur decks; deal 3 Customers (1-2 players) or 2
        (3-8) and a Connoisseur at the far right to each player; draw one Material and one
        Energy Mastery; the other Connoisseurs go back to the box.

        Solo: the shoppe is those 4 cards; 2 more Customers wait face-up to its right.
        """
        c, n = self.content, self.num_players
        rng = self.chance.rng()
        self.deck = list(c.customers)
        rng.shuffle(self.deck)
        connoisseurs = list(c.connoisseurs)
        rng.shuffle(connoisseurs)
        k = c.rules.connoisseurs_per_player
        customers = c.rules.customers_per_player[n]
        self.shop_size = customers + k
        self.lines = [
            [*(self._draw() for _ in range(customers)), *connoisseurs[p * k : (p + 1) * k]]
            for p in range(n)
        ]
        if self.solo:
            self.lines[0] += [self._draw() for _ in range(c.rules.solo_waiting)]
        self.mastery_cards = (rng.randrange(len(c.material)), rng.randrange(len(c.energy)))

    # -- Bonus Modifiers -------------------------------------------------------------------------
    def modifier_value(self, p: int, kind: int) -> int:
        """Bonus Modifiers: what one Bonus Modifier of ``kind`` (0 minus, 1 plus) is worth to ``p``
        now."""
        return self.modifier_values[kind][self.level[p][kind]]

    def _reach(self, p: int, extra: int) -> tuple[int, int]:
        """Bonus Modifiers: plus modifiers raise a result, minus ones lower it (Extra Dice cost
        nothing)."""
        bonus = self.bonus[p]
        return bonus[1] * self.modifier_value(p, 1), bonus[0] * self.modifier_value(p, 0)

    def _pay(self, p: int, change: int, extra: int) -> None:
        """Bonus Modifiers: "Cross out bonus modifiers as they are used" (the fewest needed)."""
        if change > 0:
            self.bonus[p][1] -= modifiers_needed(change, self.modifier_value(p, 1))
        elif change < 0:
            self.bonus[p][0] -= modifiers_needed(-change, self.modifier_value(p, 0))

    def _cannot_pay(self, p: int, action: Spend, value: int, change: int, extra: int) -> str:
        kind = 1 if change > 0 else 0
        each = self.modifier_value(p, kind)
        needed = plural(modifiers_needed(abs(change), each), f"{KINDS[kind]} Bonus Modifier")
        return (
            f"{action} needs {value}{change:+d}: {needed} at {each} each; "
            f"you have {self.bonus[p][kind]}"
        )

    def _cost_text(self, p: int, value: int, change: int, extra: int) -> str:
        """The Bonus Modifiers a move crosses out, and the Extra Dice box it marks (a result
        beyond the round's two)."""
        parts = []
        if change:
            kind = 1 if change > 0 else 0
            count = modifiers_needed(abs(change), self.modifier_value(p, kind))
            s = "s" if count > 1 else ""
            parts.append(f"{value}{change:+d}: {count} {KINDS[kind]} modifier{s}")
        if self.results[p] >= self.free_results:
            parts.append(f"Extra Dice box {self.extra_used[p] + 1}/{len(self.extra_costs)}")
        return "; ".join(parts)

    # -- the move in plain words (``describe``, shared: rulebook.core.rollwrite.engine) ----------
    def _change_paid(self, p: int, change: int) -> tuple[int, str, str]:
        """The fewest Bonus Modifiers of the kind that helps, at their circled value."""
        kind = 1 if change > 0 else 0
        each = self.modifier_value(p, kind)
        sign = "+" if kind else "-"
        return (
            modifiers_needed(abs(change), each),
            f"{KINDS[kind]} Bonus Modifier",
            f"{sign}{each} each",
        )

    def _row_reward_words(self, row: int) -> str:
        return row_reward(self.content, row)

    def _row_completed(self, p: int, row: Row) -> None:
        """Crafting, Spell Research, Bonus Modifiers: circle the row's Bonus Modifier; a Charm also
        circles the next Bonus Modifier Value of its kind (Charms)."""
        c = self.content
        self.bonus[p][c.bonus_kind[row.index]] += 1
        kind = c.advances[row.index]
        if kind >= 0:
            self.level[p][kind] = min(self.level[p][kind] + 1, len(c.values[kind]) - 1)

    # -- End of the Game and Scoring ---------------------------------------------------------------
    def score_breakdown(self, player: int) -> dict[str, int]:
        """End of the Game and Scoring: stars for items crafted, spells researched, Customers and
        Connoisseurs claimed, Certifications earned, and the Glyphs' stars per item of their
        category (so far)."""
        return dict(zip(CATEGORIES, self._score_parts(player), strict=True))

    def score(self, player: int) -> int:
        """The sum of :meth:`score_breakdown`, without building it (compiled, the parts are
        a tuple of machine integers: no objects made)."""
        a, b, c, d, e = self._score_parts(player)
        return a + b + c + d + e

    def _score_parts(self, player: int) -> tuple[int, int, int, int, int]:
        """The stars of each of :data:`CATEGORIES` (End of the Game and Scoring)."""
        marks = self.marks[player]
        sheet = self._sheet_scores.get(marks)
        if sheet is None:
            sheet = sheet_scores(self.content, marks)
        items, spells, glyphs = sheet
        values = self.card_values
        customers = 0
        for o in self.claimed[player]:
            customers += values[o]
        mastery = self.mastery_scored[player]
        return (items, spells, customers, max(mastery[0], 0) + max(mastery[1], 0), glyphs)

    def tiebreak(self, player: int) -> tuple[int, ...]:
        """End of the Game and Scoring: "the winner is the player who claimed the most customers".

        Decision: a tie there too is shared.
        """
        return (len(self.claimed[player]),)

    def tiebreak_labels(self) -> tuple[str, ...]:
        return TIEBREAKS

    # -- views and copies ------------------------------------------------------------------------
    def _seat_view(self, p: int) -> dict[str, Any]:
        return {
            "bonus_modifiers": dict(zip(KINDS, self.bonus[p], strict=True)),
            "bonus_values": {
                "minus": -self.modifier_value(p, 0),
                "plus": self.modifier_value(p, 1),
            },
        }

    def _blank(self) -> ShoppeState:
        return ShoppeState(self.game, self.setup, blank=True)

    def _copy_into(self, new: SheetState[Content]) -> None:
        assert isinstance(new, ShoppeState)
        new._sheet_scores = self._sheet_scores
        new.modifier_values = self.modifier_values
        new.bonus = [b.copy() for b in self.bonus]
        new.level = [v.copy() for v in self.level]

    def _save_own(self, p: int) -> tuple[list[int], list[int]]:
        return self.bonus[p].copy(), self.level[p].copy()

    def _restore_own(self, p: int, saved: tuple[list[int], list[int]]) -> None:
        self.bonus[p], self.level[p] = saved

    def _snapshot_extra(self) -> dict[str, Any]:
        return {"bonus": [b.copy() for b in self.bonus], "level": [v.copy() for v in self.level]}
