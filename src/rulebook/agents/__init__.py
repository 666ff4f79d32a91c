"""Agents that play any game through the core interface, and the names seats use for them.

Seat specs: ``random``, ``greedy``, ``mcts`` (default budget), ``mcts:2000`` (iterations per
move, seeded and reproducible) and ``mcts:0.5s`` (seconds per move); ``expert``,
``expert:400`` and ``expert:0.5s`` likewise (the search with a value learned from self-play:
:mod:`rulebook.agents.expert`).

Agents outside the process (the move protocol, :mod:`rulebook.agents.protocol`), their spec
kept as written (paths and URLs are case-sensitive): ``cmd:PATH [ARGS]`` (a program, started
once per game; the rest split as a shell would, without running one), ``ws:URL`` (a remote
agent over a WebSocket) and ``llm:MODEL@BASE_URL`` (a language model behind an
OpenAI-compatible endpoint: :mod:`rulebook.agents.llm`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import import_module

from rulebook.agents.base import Agent
from rulebook.agents.expert import ExpertAgent, NoWeights
from rulebook.agents.greedy import GreedyAgent
from rulebook.agents.mcts import DEFAULT_ITERATIONS, MCTSAgent
from rulebook.agents.protocol import OutsideAgent, Policy, PolicyChanges
from rulebook.agents.random_agent import RandomAgent
from rulebook.core.errors import UnknownGame

#: agent name -> factory(seed); "human" seats are handled by the front ends
AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "expert": ExpertAgent,
}
#: the agents that take a budget (iterations or seconds per move)
SEARCHERS: dict[str, Callable[..., Agent]] = {"mcts": MCTSAgent, "expert": ExpertAgent}

_BUDGET = re.compile(r"^(?:(?P<iterations>\d+)|(?P<seconds>\d+(?:\.\d*)?|\.\d+)s)$")
SPEC_HELP = (
    "random, greedy, mcts, mcts:ITERATIONS (e.g. mcts:2000), mcts:SECONDSs (mcts:0.5s), "
    "expert, expert:ITERATIONS, expert:SECONDSs, cmd:PATH [ARGS], ws:URL or llm:MODEL@BASE_URL"
)
#: the specs of agents outside the process, by their prefix
OUTSIDE = ("cmd", "ws", "llm")


def is_outside(spec: str) -> bool:
    """Whether ``spec`` names an agent outside the process (``cmd:``, ``ws:``, ``llm:``, in any
    case): its text past the prefix keeps its case (paths, URLs and model names)."""
    head, colon, _ = spec.strip().partition(":")
    return bool(colon) and head.strip().lower() in OUTSIDE


def _outside(kind: str, rest: str, spec: str, seed: int) -> Agent:
    """The agent of an outside spec (``cmd:``, ``ws:``, ``llm:``), its modules imported only
    when such a seat is asked for."""
    if not rest:
        forms = {"cmd": "cmd:PATH [ARGS]", "ws": "ws:URL", "llm": "llm:MODEL@BASE_URL"}
        raise UnknownGame(f"{spec!r} names no agent: write {forms[kind]}")
    if kind == "llm":
        try:
            llm = import_module("rulebook.agents.llm")
        except ImportError as missing:
            raise UnknownGame(f"llm: seats are not available here ({missing}): {spec!r}") from None
        make_llm: Callable[[str, int], Agent] = llm.make_llm
        return make_llm(rest, seed)
    from rulebook.agents.outside import program_agent, socket_agent

    return program_agent(rest, seed) if kind == "cmd" else socket_agent(rest, seed)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game seeded ``game_seed`` (one rule for the
    simulator and the terminal, so the same seeds give the same games everywhere)."""
    return game_seed * 1000 + seat


def make_agent(spec: str, seed: int = 0, *, policy: Policy | PolicyChanges | None = None) -> Agent:
    """The agent a seat spec names (see the module docstring), seeded with ``seed``; an agent
    outside the process plays under ``policy`` (retries, fallback, time per move) where one
    is given, its own default otherwise (bots ignore it). A :class:`PolicyChanges` changes
    only the settings it sets, and not those an ``llm:`` spec writes itself.

    Raises :class:`UnknownGame` with the accepted forms if the spec is not one of them.
    """
    if is_outside(spec):
        head, _, rest = spec.strip().partition(":")
        agent = _outside(head.strip().lower(), rest.strip(), spec, seed)
        if isinstance(agent, OutsideAgent):
            if isinstance(policy, PolicyChanges):
                agent.sit_under(policy)
            elif policy is not None:
                agent.policy = policy
        return agent
    name, sep, budget = spec.strip().lower().partition(":")
    name = name.strip()
    if name not in AGENTS:
        raise UnknownGame(f"no agent called {spec!r} (agents: {SPEC_HELP})")
    if not sep:
        return AGENTS[name](seed)
    if name not in SEARCHERS:
        raise UnknownGame(f"agent {name!r} takes no budget: {spec!r} (agents: {SPEC_HELP})")
    match = _BUDGET.match(budget.strip())
    if match is None:
        raise UnknownGame(
            f"bad {name} budget in {spec!r}: give iterations ({name}:2000) or seconds ({name}:0.5s)"
        )
    if match["iterations"] is not None:
        iterations = int(match["iterations"])
        if iterations < 1:
            raise UnknownGame(f"{name} needs at least 1 iteration, not {spec!r}")
        return SEARCHERS[name](seed, iterations=iterations)
    seconds = float(match["seconds"])
    if seconds <= 0:
        raise UnknownGame(f"{name} needs a positive time per move, not {spec!r}")
    return SEARCHERS[name](seed, iterations=None, seconds=seconds)


__all__ = [
    "AGENTS",
    "DEFAULT_ITERATIONS",
    "OUTSIDE",
    "SEARCHERS",
    "Agent",
    "ExpertAgent",
    "GreedyAgent",
    "MCTSAgent",
    "NoWeights",
    "Policy",
    "PolicyChanges",
    "RandomAgent",
    "agent_seed",
    "is_outside",
    "make_agent",
]
