"""The game-agnostic ISMCTS agent: specs, budgets, seeding, legality, strength (smoke)."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

import rulebook
from rulebook.agents import MCTSAgent, make_agent
from rulebook.agents.mcts import Node
from rulebook.core.policy import greedy_move
from rulebook.simulate import play

GAME = "merchants-of-magick"


@pytest.mark.parametrize(
    ("spec", "iterations", "seconds"),
    [
        ("mcts", 1000, None),
        ("mcts:2000", 2000, None),
        ("MCTS:0.5s", None, 0.5),
        ("mcts:.25s", None, 0.25),
    ],
)
def test_specs(spec: str, iterations: int | None, seconds: float | None) -> None:
    agent = make_agent(spec, 3)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.seconds) == (iterations, seconds)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:", "bad mcts budget"),
        ("mcts:fast", "bad mcts budget"),
        ("mcts:0", "at least 1 iteration"),
        ("mcts:0s", "positive time"),
        ("mcts:-3", "bad mcts budget"),
        ("greedy:5", "takes no budget"),
        ("alphazero", "no agent called"),
    ],
)
def test_bad_specs_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(rulebook.UnknownGame, match=message):
        make_agent(spec)


def moves(seed: int, players: int = 2) -> list[str]:
    state = rulebook.new_game(GAME, players=players, seed=4)
    agents = [MCTSAgent(seed + p, iterations=30) for p in range(players)]
    for _ in range(12):
        p = state.current_players()[0]
        state.apply(p, agents[p].act(state, p))
    return [str(a) for _, a in state.history]


def test_seeded_and_reproducible_with_an_iteration_budget() -> None:
    assert moves(1) == moves(1)


def test_legal_moves_state_untouched_and_whole_solo_game() -> None:
    state = rulebook.new_game(GAME, players=1, seed=2)
    agent = MCTSAgent(0, iterations=20)
    while not state.is_terminal():
        before = state.snapshot()
        action = agent.act(state, 0)
        assert state.snapshot() == before
        assert action in state.legal_actions(0)
        state.apply(0, action)
    assert state.scores()[0] > 20


def test_any_seat_of_a_simultaneous_phase_can_search() -> None:
    state = rulebook.new_game(GAME, players=3, seed=5)
    assert len(state.current_players()) == 3
    for seat in (2, 1, 0):  # not only the first current seat
        action = MCTSAgent(seat, iterations=40).act(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)


def test_time_budget_is_kept() -> None:
    state = rulebook.new_game(GAME, players=4, seed=1)
    agent = MCTSAgent(0, iterations=None, seconds=0.05)
    start = time.perf_counter()
    agent.act(state, 0)
    assert time.perf_counter() - start < 3  # 0.05 s and one iteration; generous for busy CI
    assert agent.last_iterations >= 1


def test_mcts_beats_random() -> None:
    state = rulebook.new_game(GAME, players=2, seed=9)
    play(state, [make_agent("mcts:60", 1), make_agent("random", 2)])
    assert state.scores()[0] > state.scores()[1] + 15


# -- selection and rollouts -------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Named(rulebook.Action):
    """A move known only by its text (a compiled ``Node`` takes nothing but an ``Action``)."""

    text: str

    def __str__(self) -> str:
        return self.text


def children(means: list[float], visits: list[int], scale: float = 1.0) -> list[Node]:
    found = []
    for k, (mean, n) in enumerate(zip(means, visits, strict=True)):
        node = Node(Named(f"move {k}"), 0)
        node.visits, node.available, node.reward = n, sum(visits), mean * n * scale
        found.append(node)
    return found


def test_selection_does_not_depend_on_the_scale_of_the_scores() -> None:
    """Mean rewards are scaled between the worst and the best child, so a game scoring in
    hundreds and one scoring in units search alike (an affine change picks the same child)."""
    agent = MCTSAgent(0, iterations=1)
    means, visits = [10.0, 10.4, 9.0, 10.2], [40, 30, 5, 25]
    picked = agent._select(children(means, visits)).action
    for scale in (0.01, 100.0):
        assert agent._select(children(means, visits, scale)).action == picked
    shifted = [m + 500 for m in means]
    assert agent._select(children(shifted, visits)).action == picked


def test_the_best_child_wins_once_explored_enough() -> None:
    """With equal visits the best mean is chosen, however small its lead (the exploration
    term is equal), and a rarely visited child is explored before a well-known better one."""
    agent = MCTSAgent(0, iterations=1)
    assert agent._select(children([5.0, 5.01, 4.99], [50, 50, 50])).action == Named("move 1")
    assert agent._select(children([5.0, 4.0], [1000, 1])).action == Named("move 1")


def test_the_games_rollout_policy_plays_past_the_tree() -> None:
    """Past the tree the game's ``rollout`` plays ``rollout_moves`` moves (``cutoff``
    overrides it); the default is the evaluation at the leaf, with no rollout move."""
    calls: list[int] = []

    def spy(state: rulebook.State, seat: int, rng: random.Random) -> rulebook.Action:
        calls.append(seat)
        return greedy_move(state, seat, rng)

    state = rulebook.new_game(GAME, players=2, seed=4)
    game = state.game
    assert game.rollout_moves == 0
    state.game = dataclasses.replace(game, rollout=spy, rollout_moves=3)
    MCTSAgent(0, iterations=10).act(state, 0)
    assert 25 <= len(calls) <= 30  # 3 per iteration, fewer once the tree reaches the end
    calls.clear()
    MCTSAgent(0, iterations=10, cutoff=0).act(state, 0)
    assert len(calls) <= 10  # only other seats of a simultaneous phase, never past the tree
    with pytest.raises(ValueError, match="cutoff"):
        MCTSAgent(0, cutoff=-1)
