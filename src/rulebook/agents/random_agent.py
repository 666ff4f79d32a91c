"""Uniformly random legal moves: the baseline and the default playout policy."""

from __future__ import annotations

from rulebook.agents.base import Agent
from rulebook.core import Action, State
from rulebook.core.policy import random_move


class RandomAgent(Agent):
    name = "random"

    def act(self, state: State, player: int) -> Action:
        return random_move(state, player, self.rng)
