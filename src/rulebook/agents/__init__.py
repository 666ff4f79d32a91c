"""Agents that play any game through the core interface, and the names seats use for them."""

from __future__ import annotations

from collections.abc import Callable

from rulebook.agents.base import Agent
from rulebook.agents.greedy import GreedyAgent
from rulebook.agents.random_agent import RandomAgent
from rulebook.core.errors import UnknownGame

#: agent name -> factory(seed); "human" seats are handled by the front ends
AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
}


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game seeded ``game_seed`` (one rule for the
    simulator and the terminal, so the same seeds give the same games everywhere)."""
    return game_seed * 1000 + seat


def make_agent(spec: str, seed: int = 0) -> Agent:
    """The agent a seat spec names (``random``, ``greedy``), seeded with ``seed``."""
    name = spec.strip().lower()
    if name not in AGENTS:
        raise UnknownGame(f"no agent called {spec!r} (agents: {', '.join(AGENTS)})")
    return AGENTS[name](seed)


__all__ = ["AGENTS", "Agent", "GreedyAgent", "RandomAgent", "agent_seed", "make_agent"]
