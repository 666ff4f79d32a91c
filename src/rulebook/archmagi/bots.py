"""Archmagi bot knowledge: a fitted evaluation of a seat's position.

Used by the game-agnostic greedy and search agents (``rulebook.agents``). Favor counts fully;
Crystals, Spells in Hand, Planted Spells, drafted Spells and unspent Plays count by the Favor
they were measured to bring (a least-squares fit, ``benchmarks/archmagi_fit.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State

if TYPE_CHECKING:
    from rulebook.archmagi.rules import ArchmagiState

#: least-squares weights of :data:`FEATURES` by Round (5: the last turn), predicting the Favor
#: a seat will still gain: ``python benchmarks/archmagi_fit.py --games 300`` (greedy play with
#: 15% random moves, 4 players). They replaced hand-tuned weights that overvalued Spells in Hand
#: and undervalued Planted Spells and Plays, which search bots then exploited.
WEIGHTS: dict[int, tuple[float, ...]] = {
    1: (8.529, 0.049, 0.507, 0.885, 0.393, -0.019, 2.121, 0.009, -0.229, -0.055),
    2: (6.561, 0.108, 0.386, 0.773, 0.275, -0.034, 1.650, -0.023, 0.097, -0.157),
    3: (3.754, 0.141, 0.424, 0.630, 0.141, 0.039, 2.885, -0.024, -0.023, -0.173),
    4: (-1.817, 0.141, 0.383, 0.389, 0.076, 0.493, 6.364, -0.016, 0.031, -0.639),
    5: (-0.518, 0.025, 0.054, 0.050, 0.010, 0.948, 0.000, 0.000, 0.000, 1.154),
}


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: Favor so far plus the Favor its position
    is expected to bring (:data:`WEIGHTS`)."""
    s = cast("ArchmagiState", state)
    value = float(s.favor(player))
    if s.is_terminal():
        return value
    key, x = features(s, player)
    return value + sum(w * v for w, v in zip(WEIGHTS[key], x, strict=True))


#: the position features of :func:`features`
FEATURES = (
    "one",
    "crystals",
    "hand",
    "planted",
    "drafted",
    "plays",
    "pool",
    "crystals x pool",
    "hand x pool",
    "my turn",
)


def features(state: State, player: int) -> tuple[int, list[float]]:
    """The Round (5 once the last turn has begun) and ``player``'s position features."""
    s = cast("ArchmagiState", state)
    key = 5 if s.final else s.round
    crystals = float(s.crystals[player])
    hand = float(min(len(s.hands[player]), 10))
    pool = len(s.pool) / 20
    mine = s.turn == player
    return key, [
        1.0,
        crystals,
        hand,
        float(len(s.planted[player])),
        float(s.content.rules.book_size - len(s.books[player])),
        float(s.plays) if mine and s.phase == "play" else 0.0,
        pool,
        crystals * pool,
        hand * pool,
        1.0 if mine else 0.0,
    ]
