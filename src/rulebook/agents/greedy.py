"""One-step lookahead on the game's own evaluation function (``Game.evaluate``)."""

from __future__ import annotations

from rulebook.agents.base import Agent
from rulebook.core import Action, State
from rulebook.core.policy import greedy_move


class GreedyAgent(Agent):
    """Tries every legal move on a clone and keeps the one the game's evaluation likes best
    (ties broken at random with the agent's seed): :func:`rulebook.core.policy.greedy_move`."""

    name = "greedy"

    def act(self, state: State, player: int) -> Action:
        return greedy_move(state, player, self.rng)
