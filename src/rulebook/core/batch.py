"""The loops of a batched environment's step (:mod:`rulebook.interop.batched`), compiled
(:mod:`rulebook.compiled`): the known legal moves of many games played one after another, and
the indices of every game's legal moves gathered into one list for one NumPy assignment.

Compiled, a loop over the games costs no interpreted line per game; the games' own methods
(``apply_legal``, ``is_terminal``, ``current_players``, ``legal_actions``) are called as from
Python, so a game behaves exactly as anywhere else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from librt.vecs import append, vec
from mypy_extensions import i64

if TYPE_CHECKING:
    from rulebook.core.action import Action
    from rulebook.core.state import State


def play_known(
    states: list[State],
    seats: list[int],
    moves: list[Action | None],
    steps: list[int],
    limit: int,
    self_play: bool,
) -> list[int]:
    """Play ``moves[i]`` for seat ``seats[i]`` in ``states[i]`` (``apply_legal``: each a
    legal move of that seat in that very position) and count the step in ``steps[i]``; in
    ``self_play``, set ``seats[i]`` to the seat to act next (the lowest of a simultaneous
    phase). Return the games left for the caller, in order: those whose move is ``None`` (not
    played), those that ended or reached ``limit`` steps (``0``: no limit), and, unless
    ``self_play``, every game played (its opponents move next)."""
    left: list[int] = []
    for i in range(len(states)):
        move = moves[i]
        if move is None:
            left.append(i)
            continue
        state = states[i]
        state.apply_legal(seats[i], move)
        steps[i] += 1
        if not self_play or state.is_terminal() or (limit and steps[i] >= limit):
            left.append(i)
        else:
            seats[i] = state.current_players()[0]
    return left


def legal_flat(
    states: list[State], seats: list[int], index: dict[Action, int], size: int
) -> vec[i64]:
    """``i * size + index[move]`` for every legal move of seat ``seats[i]`` in ``states[i]``
    (the ones of a ``(len(states), size)`` mask as flat indices), as machine integers NumPy
    reads without converting (``np.frombuffer(flat, np.int64)``). ``KeyError`` (or
    ``TypeError``) when a move is not in ``index``."""
    flat = vec[i64]()
    base = 0
    for i in range(len(states)):
        for move in states[i].legal_actions(seats[i]):
            flat = append(flat, base + index[move])
        base += size
    return flat
