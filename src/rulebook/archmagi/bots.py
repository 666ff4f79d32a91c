"""Archmagi bot knowledge: a hand-written evaluation of a seat's position.

Used by the game-agnostic greedy and search agents (``rulebook.agents``). Favor counts fully;
Crystals, Spells in Hand, Planted Spells and unspent Plays count as progress towards Favor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State

if TYPE_CHECKING:
    from rulebook.archmagi.rules import ArchmagiState

#: weights of the evaluation (hand-tuned)
CRYSTAL = 0.3
SPELL_IN_HAND = 0.2
PLANTED = 0.6
PLAY = 0.15
#: an own Spell drafted into the Magic Pool, by Round (it comes back to build the Pool)
DRAFTED = (0.0, 0.6, 0.4, 0.2, 0.0)


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: Favor plus weighted resources."""
    s = cast("ArchmagiState", state)
    value = float(s.favor(player))
    if s.is_terminal():
        return value
    late = 0.5 if s.final else 1.0
    value += late * CRYSTAL * s.crystals[player]
    value += late * SPELL_IN_HAND * min(len(s.hands[player]), 10)
    value += late * PLANTED * len(s.planted[player])
    drafted = s.content.rules.book_size - len(s.books[player])
    value += DRAFTED[min(s.round, len(DRAFTED) - 1)] * drafted
    if s.turn == player and s.phase == "play":
        value += PLAY * s.plays
    return value
