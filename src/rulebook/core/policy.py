"""Move policies over any game: the one-step lookahead the greedy bot plays, and that search
bots may use as a rollout policy (``Game.rollout``).

They see a game only through :class:`~rulebook.core.state.State` and ``Game.evaluate``.
"""

from __future__ import annotations

import random

from rulebook.core.errors import IllegalAction
from rulebook.core.state import Action, State


def greedy_move(state: State, player: int, rng: random.Random) -> Action:
    """The legal move after which the game's evaluation values ``player``'s position most
    (:meth:`State.lookahead`; ties broken with ``rng``)."""
    actions = state.legal_actions(player)
    if not actions:
        raise IllegalAction(f"seat {player} has no legal move")
    evaluate = state.game.evaluate
    if evaluate is None:
        raise TypeError(f"{state.game.title} has no evaluation function for greedy play")
    if len(actions) == 1:
        return actions[0]
    best: list[Action] = []
    best_value = float("-inf")
    for action, value in zip(actions, state.lookahead(player, actions, evaluate), strict=True):
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value >= best_value - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def random_move(state: State, player: int, rng: random.Random) -> Action:
    """A uniformly random legal move."""
    actions = state.legal_actions(player)
    if not actions:
        raise IllegalAction(f"seat {player} has no legal move")
    return rng.choice(actions)
