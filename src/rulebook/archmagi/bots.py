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
#: a seat will still gain, iterated to a damped fixed point on the Magi data as rebalanced by
#: ``rulebook tune``: ``python benchmarks/archmagi_fit.py --write`` (10 iterations of 600
#: 4-player games of greedy play with 15% random moves, from Favor alone; docs/archmagi.md,
#: "Magi balance"). The first fit replaced hand-tuned weights that overvalued Spells in Hand and
#: undervalued Planted Spells and Plays, which search bots then exploited.
WEIGHTS: dict[int, tuple[float, ...]] = {
    1: (9.215, 0.315, 0.153, 1.642, 0.437, 0.082, 1.337, 0.063, 0.141, -0.357),  # R^2 0.06
    2: (4.557, 0.431, 0.221, 1.290, 0.305, 0.319, 3.775, -0.046, 0.031, -0.611),  # R^2 0.26
    3: (1.288, 0.418, 0.243, 0.842, 0.181, 0.395, 3.903, 0.007, 0.032, -0.709),  # R^2 0.49
    4: (-0.743, 0.217, 0.108, 0.278, -0.006, 0.511, 2.823, 0.314, 0.251, -0.489),  # R^2 0.67
    5: (-0.431, 0.083, 0.031, 0.017, -0.004, 0.628, 0.000, 0.000, 0.000, 0.782),  # R^2 0.45
}


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player``: Favor so far plus the Favor its position
    is expected to bring (:data:`WEIGHTS`)."""
    s = cast("ArchmagiState", state)
    value = float(s.favor(player))
    if s.is_terminal():
        return value
    mine = s.turn == player
    return value + prospects(
        WEIGHTS[5 if s.final else s.round],
        s.crystals[player],
        len(s.hands[player]),
        len(s.planted[player]),
        s.content.rules.book_size - len(s.books[player]),
        s.plays if mine and s.phase == "play" else 0,
        len(s.pool),
        mine,
    )


def prospects(
    w: tuple[float, ...],
    crystals: int,
    hand: int,
    planted: int,
    drafted: int,
    plays: int,
    pool: int,
    mine: bool,
) -> float:
    """The Favor a position is expected to bring (weights ``w`` of its Round) from its
    :data:`FEATURES`: ``sum(w * x for w, x in zip(w, features))`` term by term, in the same order
    (the same floating-point result; ``tests/test_speed.py`` holds them equal). The greedy
    lookahead (:mod:`rulebook.archmagi.lookahead`) calls it with a move's features."""
    held = float(crystals)
    cards = float(min(hand, 10))
    left = pool / 20
    return (
        0.0
        + w[0] * 1.0
        + w[1] * held
        + w[2] * cards
        + w[3] * float(planted)
        + w[4] * float(drafted)
        + w[5] * float(plays)
        + w[6] * left
        + w[7] * (held * left)
        + w[8] * (cards * left)
        + w[9] * (1.0 if mine else 0.0)
    )


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
