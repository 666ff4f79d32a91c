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

    def finish(self, state: State) -> None:
        """The game this agent played is over (``state`` is its end): the game loops
        (simulate, the terminal, the web app's bots, the arena) call this once, for every
        seat. An agent outside the process tells its program the results and stops it;
        nothing by default."""
        return None

    @property
    def tally(self) -> dict[str, float]:
        """What happened in the game this agent last played, by name (moves asked, retries,
        timeouts... for outside agents; tokens and cost for language models): the game
        loops report it with the results. Empty by default."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
