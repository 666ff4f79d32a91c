"""The moves of the Crafting and Research phase: spending a die's result on a circle.

Merchants of Magick, THE CRAFTING AND RESEARCH PHASE: "each player independently chooses two
results (or more, see Extra Dice) ... Each result may only be spent to mark a single circle";
the Sponsored Adventurer's free marks (SPONSORED ADVENTURERS). Ye Olde Magick Shoppe, HOW TO
PLAY: "Each die may only be used to mark a single checkbox once per round".

A seat's moves are :class:`Spend` (a die's result on a circle), :class:`FreeMark` (where the
game grants free marks) and :class:`Done` (the seat's phase ends). :class:`Moves` builds every
move of a sheet once per content, shared by all states; the rules that say which are legal are
in :mod:`rulebook.core.rollwrite.crafting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rulebook.core.action import KeyedAction
from rulebook.core.sheet import Layout
from rulebook.core.state import Action

#: the phases a state can be in: the simultaneous Crafting and Research phase, in which these
#: moves are made (the Resource phase is its first step; the Mastery and Customer phases run by
#: themselves at its end), and the game over
CRAFTING: Final = "crafting"
OVER: Final = "over"

#: how many positions' spendable results :class:`Moves` remembers before starting afresh
KNOWN_MOVES: Final = 512


@dataclass(frozen=True, slots=True, eq=False)
class Spend(KeyedAction):
    """Spend this round's result of ``die`` to mark ``circle`` ("row/column").

    The result is modified by exactly as much as the circle needs, paid as the game says;
    beyond the round's free results, the next Extra Dice box is marked. A result is never
    modified beyond what the chosen circle needs: it would change nothing on the sheet.
    """

    die: str
    circle: str

    def __str__(self) -> str:
        return f"{self.die} {self.circle}"


@dataclass(frozen=True, slots=True, eq=False)
class FreeMark(KeyedAction):
    """Mark any circle for free (when a game grants free marks: SPONSORED ADVENTURERS)."""

    circle: str

    def __str__(self) -> str:
        return f"free {self.circle}"


@dataclass(frozen=True, slots=True, eq=False)
class Done(KeyedAction):
    """End your crafting phase for this round (unused results are lost)."""

    def __str__(self) -> str:
        return "done"


DONE = Done()


class Moves:
    """Every action of a sheet, built once per content and shared by all states."""

    def __init__(self, layout: Layout, dice: Sequence[str], free_marks: bool) -> None:
        self.spend = {
            (d, circle.index): Spend(die, circle.id)
            for d, die in enumerate(dice)
            for circle in layout.by_die.get(die, ())
        }
        self.free = [FreeMark(circle.id) for circle in layout.circles]
        #: where each move acts: (die index, circle) for spends, circle for free marks
        self.spend_target = {a: (d, layout.circles[i]) for (d, i), a in self.spend.items()}
        self.free_target = {a: layout.circles[i] for i, a in enumerate(self.free)}
        self.by_text: dict[str, Action] = {"done": DONE}
        for a in (*self.spend.values(), *(self.free if free_marks else ())):
            self.by_text[str(a)] = a
        #: per die index: its circles as (index, threshold, crafting?), for :meth:`reach`
        self._circles: list[list[tuple[int, int, bool]]] = [
            [(c.index, c.threshold, c.at_least) for c in layout.by_die.get(die, ())] for die in dice
        ]
        #: per die index, per circle index: the move spending that die there
        self.by_circle: list[dict[int, Spend]] = [
            {c.index: self.spend[(d, c.index)] for c in layout.by_die.get(die, ())}
            for d, die in enumerate(dice)
        ]
        self._reach: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        #: the results that may be spent, by (marks, dice spent, dice, reach up, reach down):
        #: search bots ask again and again in the same positions (at most :data:`KNOWN_MOVES`,
        #: the last ones asked: more costs random play more than it saves the search)
        self.known: dict[tuple[int, int, tuple[int, ...], int, int], list[Spend]] = {}
        self.vocabulary: tuple[Action, ...] = (
            DONE,
            *self.spend.values(),
            *(self.free if free_marks else ()),
        )
        #: what moves look like, for refusals of unknown text: real moves of this sheet
        self.examples = examples(layout, dice, free_marks)

    def reach(self, d: int, value: int) -> tuple[list[int], list[int]]:
        """The circles a result ``value`` of die ``d`` may mark, as masks by how far it may be
        moved: ``ups[k]`` the crafting circles it reaches moved up by at most ``k`` (a circle
        takes a result ``>=`` it: CRAFTING), ``downs[k]`` the research ones moved down by at
        most ``k`` (``<=``: SPELL RESEARCH); the last mask of each holds for any larger move.
        Worked out once per die and value."""
        found = self._reach.get((d, value))
        if found is None:
            ups = [0]
            downs = [0]
            for index, threshold, at_least in self._circles[d]:
                need = max(threshold - value if at_least else value - threshold, 0)
                masks = ups if at_least else downs
                while len(masks) <= need:
                    masks.append(masks[-1])
                for k in range(need, len(masks)):
                    masks[k] |= 1 << index
            found = self._reach[(d, value)] = (ups, downs)
        return found


def examples(layout: Layout, dice: Sequence[str], free_marks: bool) -> str:
    """Examples of a sheet's moves taken from its own layout: the largest die spent on the
    last circle it may mark (a research circle where it has one), a free mark on the first
    circle (where the game grants them), and ``done``."""
    die = next(d for d in reversed(dice) if layout.by_die.get(d))
    circle = layout.by_die[die][-1]
    row, column = circle.id.split("/")
    shown = [f"'{die} {circle.id}' (spend the {die} result in row {row}, column {column})"]
    if free_marks:
        shown.append(f"'free {layout.circles[0].id}' (a free mark)")
    return ", ".join(shown) + " or 'done'"
