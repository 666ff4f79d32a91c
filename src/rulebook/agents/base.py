"""The game-agnostic agent interface: an agent picks a move for a seat, seeing only ``core``."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from rulebook.core import Action, State


class Agent(ABC):
    """Chooses moves for one seat. Agents are seeded: the same seed gives the same choices."""

    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, state: State, player: int) -> Action:
        """A legal move for ``player`` in ``state`` (which the agent must not change)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
