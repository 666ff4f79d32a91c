"""Uniformly random legal moves: the baseline and the playout policy."""

from __future__ import annotations

from rulebook.agents.base import Agent
from rulebook.core import Action, IllegalAction, State


class RandomAgent(Agent):
    name = "random"

    def act(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        if not actions:
            raise IllegalAction(f"seat {player} has no legal move")
        return self.rng.choice(actions)
