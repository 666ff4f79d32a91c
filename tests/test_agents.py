"""Agents: seeded, legal, and greedy stronger than random."""

from __future__ import annotations

import pytest

import rulebook
from rulebook.agents import GreedyAgent, RandomAgent, make_agent
from rulebook.simulate import play, run

GAME = "merchants-of-magick"


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_agents_are_seeded(spec: str) -> None:
    def moves(seed: int) -> list[str]:
        state = rulebook.new_game(GAME, players=2, seed=1)
        play(state, [make_agent(spec, seed), make_agent(spec, seed + 1)])
        return [str(a) for _, a in state.history]

    assert moves(3) == moves(3)


def test_agents_only_make_legal_moves_and_leave_the_state_alone() -> None:
    state = rulebook.new_game(GAME, players=3, seed=2)
    agents = [RandomAgent(0), GreedyAgent(1), GreedyAgent(2)]
    while not state.is_terminal():
        p = state.current_players()[0]
        before = state.snapshot()
        action = agents[p].act(state, p)
        assert state.snapshot() == before
        assert action in state.legal_actions(p)
        state.apply(p, action)


def test_unknown_agent() -> None:
    with pytest.raises(rulebook.UnknownGame, match="no agent called 'smart'"):
        make_agent("smart")


def test_greedy_outscores_random() -> None:
    results = run(GAME, 2, ["greedy", "random"], games=10, seed=100)
    greedy = sum(r.scores[0] for r in results) / len(results)
    rand = sum(r.scores[1] for r in results) / len(results)
    assert greedy > rand + 20
    assert sum(0 in r.winners for r in results) >= 9
