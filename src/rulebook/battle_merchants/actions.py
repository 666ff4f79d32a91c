"""Player Turns: the moves of Battle Merchants, one action a turn split into small steps.

"Then, you must choose one of these four actions: Learn One Craft; Forge Up to Three Weapons;
Sell One Weapon; or Take One Kingdom Card", or, with a Craft Bonus card, Forge and Sell One
Weapon. A turn is one move for Learn One Craft, Sell One Weapon, Take One Kingdom Card and the Craft
Bonus action (Forge and Sell One Weapon); Forge Up to Three Weapons is one ``forge`` move per
Weapon, the first of which chooses the action, then ``done`` (or the limit) ends it. Kingdom
Cards that give more (ExtraCrafty, Free Samples, Drive the Workers, Desperate Times) continue
the same turn with ``learn`` / ``forge`` / ``sell`` moves and ``done``: the steps of a turn
are named here (``TURN``, ``FORGING``...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rulebook.battle_merchants.content import Board, Content, content
from rulebook.core import Action
from rulebook.core.action import KeyedAction
from rulebook.core.data import cached

# steps of a turn (Final: the compiled rules read them as constants)
TURN: Final = "turn"  # choose the action
FORGING: Final = "forge"  # Forge Up to Three Weapons, after the first Weapon
SELLING: Final = "sell"  # a second sale (Drive the Workers, Desperate Times)
FREE_CRAFT: Final = "free-craft"  # ExtraCrafty: take a Craft Card for free
FREE_FORGE: Final = "free-forge"  # Free Samples: forge one Standard Weapon for free
OVER: Final = "over"  # the Year's End is scored
#: sales in the action of Drive the Workers and Desperate Times ("sell twice")
SALES_TWICE: Final = 2


@dataclass(frozen=True, slots=True, eq=False)
class Learn(KeyedAction):
    """Learn One Craft: take the face-up Craft Card in space ``slot`` (1 = first)."""

    slot: int

    def __str__(self) -> str:
        return f"learn {self.slot}"


@dataclass(frozen=True, slots=True, eq=False)
class Forge(KeyedAction):
    """Forge one Weapon (Standard or Vorpal) into your supply."""

    weapon: str
    vorpal: bool

    def __str__(self) -> str:
        return f"forge {'vorpal ' if self.vorpal else ''}{self.weapon}"


@dataclass(frozen=True, slots=True, eq=False)
class Sell(KeyedAction):
    """Sell One Weapon: place a Weapon of yours on the Weapon Space ``space``."""

    space: str
    vorpal: bool

    def __str__(self) -> str:
        return f"sell {'vorpal ' if self.vorpal else ''}{self.space}"


@dataclass(frozen=True, slots=True, eq=False)
class Bonus(KeyedAction):
    """Forge and Sell One Weapon (Craft Bonus action): forge the Weapon ``space`` demands and
    sell it there at once."""

    space: str
    vorpal: bool

    def __str__(self) -> str:
        return f"bonus {'vorpal ' if self.vorpal else ''}{self.space}"


@dataclass(frozen=True, slots=True, eq=False)
class TakeKingdom(KeyedAction):
    """Take One Kingdom Card: the face-up Kingdom Card in space ``slot`` (1 = first)."""

    slot: int

    def __str__(self) -> str:
        return f"kingdom {self.slot}"


@dataclass(frozen=True, slots=True, eq=False)
class Done(KeyedAction):
    """Stop: forge no more Weapons / make no more sales / take no free card this turn."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True, eq=False)
class Pass(KeyedAction):
    """No action is possible: the turn passes (rules decision, see docs)."""

    def __str__(self) -> str:
        return "pass"


DONE = Done()
PASS = Pass()

#: the most face-up Kingdom Cards there can be: three plus a Final card that stays
MAX_KINGDOM_SLOTS = 4


class Moves:
    """Every action of one board side, built once and shared by all states."""

    def __init__(self, c: Content, board: Board) -> None:
        self.learn = [Learn(i + 1) for i in range(c.rules.face_up_crafts)]
        self.kingdom = [TakeKingdom(i + 1) for i in range(MAX_KINGDOM_SLOTS)]
        #: forge[w * 2 + vorpal]
        self.forge = [Forge(w, bool(v)) for w in c.weapons for v in (0, 1)]
        #: sell[space * 2 + vorpal], bonus[space * 2 + vorpal]
        self.sell = [Sell(s.id, bool(v)) for s in board.spaces for v in (0, 1)]
        self.bonus = [Bonus(s.id, bool(v)) for s in board.spaces for v in (0, 1)]
        #: per Weapon Space: ``weapon * 2``, the supply index of its Standard Weapon
        self.space_weapon = [s.weapon * 2 for s in board.spaces]
        #: each move -> its index in its list
        self.index: dict[Action, int] = {}
        for group in (self.learn, self.kingdom, self.forge, self.sell, self.bonus):
            for i, a in enumerate(group):
                self.index[a] = i
        self.vocabulary: tuple[Action, ...] = (
            DONE,
            PASS,
            *self.learn,
            *self.kingdom,
            *self.forge,
            *self.sell,
            *self.bonus,
        )
        self.by_text: dict[str, Action] = {str(a): a for a in self.vocabulary}
        self.text: dict[Action, str] = {a: t for t, a in self.by_text.items()}
        #: per Region, the Weapons its Battlefields demand ("axe-sword", first race first)
        self.demands: list[list[str]] = [
            [
                "-".join(c.weapons[board.space_at(r, b, side).weapon] for side in (0, 1))
                for b in range(board.battlefields)
            ]
            for r in range(len(board.regions))
        ]


@cached
def _all_moves() -> dict[int, Moves]:
    c = content()
    return {n: Moves(c, board) for n, board in c.boards.items()}


def moves(players: int) -> Moves:
    """The moves of the board side used by ``players`` players."""
    return _all_moves()[players]
