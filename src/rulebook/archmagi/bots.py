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
    1: (4.687, 0.402, -0.019, 1.383, 0.533, 0.330, 1.186, -0.023, 0.119, -0.412),
    2: (2.150, 0.503, 0.019, 0.977, 0.312, 0.485, 1.980, 0.005, 0.050, -0.681),
    3: (-0.024, 0.466, 0.087, 0.476, 0.131, 0.654, 3.391, 0.074, -0.069, -0.750),
    4: (0.254, 0.244, -0.029, 0.123, -0.042, 0.636, -0.860, 0.523, 0.288, -0.462),
    5: (-0.530, 0.150, 0.026, -0.020, -0.024, 0.870, 0.000, 0.000, 0.000, 0.451),
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
