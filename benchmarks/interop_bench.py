"""Steps/s through each research adapter next to the raw engine, and rulebook's ``mcts``
against OpenSpiel's ``MCTSBot`` on the same position with the same budget, in one run.

Usage::

    python benchmarks/interop_bench.py [--game merchants-of-magick] [--players 4]
                                        [--seconds 3] [--budget 200] [--scale 10]

Every row plays uniformly random legal moves (masked random in the adapters) for about
``--seconds``, in this one process on one core; times are this process's CPU time
(``time.process_time``: other jobs on a shared machine change them little). A step is one move
of a seat: the Gymnasium row counts every seat's move, the bots' included (and also gives the
learner's ``step`` calls/s); the OpenSpiel row counts moves per second of the whole game,
chance nodes included (and gives how many chance nodes it applied per second besides). The
ratio is the engine's steps/s over the adapter's.

Then the search: from the position after the setup's chance nodes (the same game for both, the
engine's state taken from the OpenSpiel state), the first decision of rulebook's ``mcts`` and
of OpenSpiel's ``MCTSBot`` with the same number of iterations, in two like pairs:

* a leaf judged by the game's evaluation: rulebook ``mcts`` as it plays (``cutoff`` 0); the
  ``MCTSBot`` with :class:`rulebook.interop.openspiel.EvaluationEvaluator` (the same margins,
  divided by ``--scale`` for OpenSpiel's UCT constant of 2);
* uniformly random moves to the end of the game: rulebook ``mcts`` with a cutoff longer than
  any game; the ``MCTSBot`` with OpenSpiel's ``RandomRolloutEvaluator`` (one rollout, through
  the adapter: every die and shuffle a chance node).

What still differs: rulebook's ``mcts`` is information-set MCTS (each iteration re-samples
what the seat cannot see with ``determinize``; the other seats of a simultaneous phase move by
the rollout policy), while ``MCTSBot`` searches the true state (it sees the deck's order)
with chance nodes in its tree; rulebook's random pair judges the final position with the
evaluation's margin, OpenSpiel's with the returns (the share of the win).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import rulebook
from rulebook.agents import MCTSAgent
from rulebook.core import State
from rulebook.interop.gymnasium import RulebookEnv
from rulebook.interop.openspiel import EvaluationEvaluator, short_name
from rulebook.interop.pettingzoo import raw_env


def timed(run: Callable[[int], int], seconds: float) -> tuple[int, float]:
    """Run games (``run(seed)`` returns its steps) for about ``seconds``; steps and time."""
    steps, seed, start = 0, 0, time.process_time()
    while seed == 0 or time.process_time() - start < seconds:
        steps += run(seed)
        seed += 1
    return steps, time.process_time() - start


def engine(game: str, players: int) -> Callable[[int], int]:
    def run(seed: int) -> int:
        state = rulebook.new_game(game, players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_players()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
        return len(state.history)

    return run


def pettingzoo(game: str, players: int) -> Callable[[int], int]:
    env = raw_env(game, players)

    def run(seed: int) -> int:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return len(env.game_state.history)  # type: ignore[union-attr]

    return run


def gymnasium(game: str, players: int, calls: list[int]) -> Callable[[int], int]:
    env = RulebookEnv(game, players, opponents="random")

    def run(seed: int) -> int:
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            calls[0] += 1
            if terminated:
                return len(env.game_state.history)  # type: ignore[union-attr]

    return run


def openspiel(game: str, players: int, chance: list[int]) -> Callable[[int], int]:
    loaded = pyspiel.load_game(short_name(game), {"players": players})

    def run(seed: int) -> int:
        state = loaded.new_initial_state()
        rng = random.Random(seed)
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                chance[0] += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    return run


#: rulebook mcts's cutoff for "random moves to the end of the game" (no game is that long)
TO_THE_END = 1_000_000


@dataclass
class Search:
    """One search's figures: what it is, how it judges a leaf, iterations run, seconds."""

    name: str
    leaf: str
    iterations: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.iterations / self.seconds


def _ours(position: State, seat: int, budget: int, cutoff: int | None) -> tuple[int, float]:
    agent = MCTSAgent(0, iterations=budget, cutoff=cutoff)
    start = time.process_time()
    agent.act(position, seat)
    return agent.last_iterations, time.process_time() - start


def _theirs(bot: mcts.MCTSBot, state: pyspiel.State) -> tuple[int, float]:
    start = time.process_time()
    root = bot.mcts_search(state)
    return int(root.explore_count), time.process_time() - start


def search(game: str, players: int, budget: int, scale: float) -> list[tuple[Search, Search]]:
    """Rulebook's mcts and OpenSpiel's MCTSBot deciding the first move of the same game with
    the same budget, in pairs that judge a leaf the same way: with the game's evaluation, and
    with uniformly random moves to the end of the game."""
    loaded = pyspiel.load_game(short_name(game), {"players": players})
    state = loaded.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
    position = state.rulebook_state()  # the same game, as the engine holds it
    assert position is not None
    if position.game.rollout is not None:
        raise SystemExit(f"{game} has its own rollout policy: the random pair would differ")
    seat = position.current_players()[0]
    random_state = np.random.RandomState(0)
    evaluation = EvaluationEvaluator(scale)
    rollout = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    judged = "the game's evaluation (margin over the best other seat)"
    to_end = "uniformly random moves to the end of the game"
    return [
        (
            Search("rulebook mcts", judged, *_ours(position, seat, budget, None)),
            Search(
                "OpenSpiel MCTSBot",
                judged,
                *_theirs(
                    mcts.MCTSBot(loaded, 2.0, budget, evaluation, random_state=random_state), state
                ),
            ),
        ),
        (
            Search("rulebook mcts", to_end, *_ours(position, seat, budget, TO_THE_END)),
            Search(
                "OpenSpiel MCTSBot",
                to_end,
                *_theirs(
                    mcts.MCTSBot(loaded, 2.0, budget, rollout, random_state=random_state), state
                ),
            ),
        ),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="merchants-of-magick", choices=rulebook.games())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument(
        "--scale",
        type=float,
        default=10.0,
        help="OpenSpiel's evaluator divides the margins by this (its UCT expects about [-1, 1])",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.budget < 1:
        parser.error("--seconds must be positive and --budget at least 1")
    try:
        rulebook.get_game(args.game).setup(args.players, 0)
    except rulebook.UnknownGame as exc:
        parser.error(str(exc))
    g, n = args.game, args.players
    calls, chance = [0], [0]
    rows = [
        ("engine (random moves)", *timed(engine(g, n), args.seconds)),
        ("PettingZoo AEC", *timed(pettingzoo(g, n), args.seconds)),
        ("Gymnasium (vs random bots)", *timed(gymnasium(g, n, calls), args.seconds)),
        ("OpenSpiel (moves)", *timed(openspiel(g, n, chance), args.seconds)),
    ]
    base = rows[0][1] / rows[0][2]
    print(f"{g}, {n} players: steps/s through each adapter, one core")
    print(f"{'':30} {'steps/s':>10} {'engine/adapter':>15}")
    for name, steps, seconds in rows:
        rate = steps / seconds
        print(f"{name:30} {rate:>10,.0f} {base / rate:>14.1f}x")
    gym_seconds = rows[2][2]
    print(f"  Gymnasium: {calls[0] / gym_seconds:,.0f} learner step() calls/s")
    print(f"  OpenSpiel: {chance[0] / rows[3][2]:,.0f} chance nodes/s besides the moves")
    print(
        f"search: the first decision of the same game (after the setup's chance nodes), "
        f"{args.budget} iterations each, one core"
    )
    print(f"{'':22} {'iterations/s':>13}  leaf judged by")
    for ours, theirs in search(g, n, args.budget, args.scale):
        for row in (ours, theirs):
            print(f"{row.name:22} {row.rate:>13,.0f}  {row.leaf} ({row.iterations} iterations)")
        print(f"{'':22} {ours.rate / theirs.rate:>12.1f}x  rulebook mcts / MCTSBot")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
