"""Player turn, as moves: each step of a turn (1.-5.) is a small move, named by its verb.

"You may only do **one** of these things (3.1. - 3.4.) each turn": a turn is a chain of small
moves, so each step's list stays short: ``choose KIND`` for a "?" die, ``KIND HEX`` for each
Resource (2.1), ``worker HEX`` (2.2), one of ``cast``/``build``/``relic``/``monument`` or
``pass`` (3.), the Spell's targets (Spell Index), ``buy CARD`` or ``pass`` (5.); the family
version's ``claim ROOM`` (5. Spell Archive); the solo version's ``trolls ...`` and ``bridge
HEX``. Each move is made once and interned, so that listing moves makes none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from rulebook.core import IllegalAction
from rulebook.core.action import Interned, KeyedAction
from rulebook.pandoria_merchants.board import KINDS, Board

HEX_TEXT = re.compile(r"^[A-Z]\d{1,2}$")
HEX_VERBS = frozenset((*KINDS, "worker", "ship", "swamp", "rage", "bridge"))
VERBS = frozenset(
    (
        *HEX_VERBS,
        "start",
        "choose",
        "skip",
        "cast",
        "build",
        "relic",
        "monument",
        "pass",
        "conjure",
        "take",
        "buy",
        "claim",
        "trolls",
    )
)


@dataclass(frozen=True, slots=True, eq=False)
class Move(KeyedAction):
    """Every move of the game: a verb and at most one argument (a hex, a card, a kind...).

    Texts: ``wood C7``, ``worker D7``, ``choose gold``, ``cast rage/tower``, ``buy ship/statue``,
    ``relic 2``, ``monument bank/...``, ``claim 1a``, ``trolls column-3``, ``bridge E2``,
    ``skip``, ``pass``.
    """

    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else str(self.verb)


PASS: Final = Move("pass")
SKIP: Final = Move("skip")

#: every move listed so far, by verb and argument (:func:`move`)
MOVES: Final = Interned(Move, PASS, SKIP)


def move(verb: str, arg: str = "") -> Move:
    """The move ``verb arg``, made once: listing moves then makes none (search lists them
    position after position, and finds the very same move in its tree at once)."""
    return MOVES.get(verb, arg)


#: per map (by ``id``, with the map kept beside): per verb naming a hex, its move on every hex
_HEX_MOVES: Final[dict[int, tuple[Board, dict[str, tuple[Move, ...]]]]] = {}


def hex_moves(board: Board) -> dict[str, tuple[Move, ...]]:
    """Every move naming a hex of ``board`` (``wood C7``, ``worker D7``...), made once per map:
    ``hex_moves(board)[verb][hex]``; listing moves then makes none."""
    found = _HEX_MOVES.get(id(board))
    if found is None or found[0] is not board:
        table = {verb: tuple(Move(verb, name) for name in board.names) for verb in HEX_VERBS}
        found = _HEX_MOVES[id(board)] = (board, table)
    return found[1]


def parse_move(text: str) -> Move:
    """The move a player typed (``wood C7``, ``Worker d7``...): its verb in lower case, a hex
    in upper case, anything else in lower case; a clear error for what is no move at all."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} is not a move")
    parts = text.split()
    if not 1 <= len(parts) <= 2 or parts[0].lower() not in VERBS:
        raise IllegalAction(
            f"{text!r} is not a move; moves look like 'wood C7', 'worker D7', "
            "'choose gold', 'cast rage/tower', 'buy ship/statue' or 'pass'"
        )
    verb = parts[0].lower()
    arg = parts[1] if len(parts) == 2 else ""
    arg = arg.upper() if verb in HEX_VERBS and HEX_TEXT.match(arg.upper()) else arg.lower()
    return Move(verb, arg)
