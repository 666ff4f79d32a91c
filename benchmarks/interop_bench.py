"""Learner steps/s through each research adapter beside the engine's random steps/s, and
rulebook's ``mcts`` against OpenSpiel's ``MCTSBot`` on the same position with the same budget.

Usage::

    python benchmarks/interop_bench.py [--config merchants-of-magick:4 ...] [--seconds 2]
                                        [--envs 64] [--budget 200] [--scale 10] [--no-search]
                                        [--pairs 5]

Every row plays uniformly random legal moves for about ``--seconds`` in this one process on one
core; times are this process's CPU time (``time.process_time``: other jobs on a shared machine
change them little), after a short warm-up. ``make bench`` runs it with the compiled modules
(``RULEBOOK_COMPILED=1``, when built and current; the header says which).

* engine: the game alone, one move at a time (the seat to act, its legal moves, a random one,
  ``apply``): the engine's random steps/s, the yardstick;
* a *learner step* is one decision of the learner, which sees its observation tensor and mask
  and picks a legal index with NumPy (one game: ``np.flatnonzero`` of its mask and a draw;
  a batch: :func:`rulebook.interop.batched.sample_masked`, one draw per game): in PettingZoo
  (AEC, and Parallel for the roll-and-writes) and OpenSpiel every seat is the learner
  (self-play: every move is a learner step; OpenSpiel's chance nodes are applied but not
  counted); in Gymnasium the learner plays seat 0 against
  ``random`` bots, whose moves are not learner steps (``share``: the learner's part of the
  moves); the batched environment (:class:`rulebook.interop.batched.BatchedEnv`, ``--envs``
  games a call) is measured both ways.
* ``engine/learner``: the engine's random steps/s over the learner's steps/s; ``vs engine
  share``: the same against the engine's rate of the learner's own decisions (engine steps/s
  times ``share``), what a learner against bots could reach at most.
* ``paired``: the engine and the batched self-play again, in ``--pairs`` pairs of blocks of
  ``--seconds`` / 2 one right after the other (the order swapped every other pair), each
  pair's ratio its own: on a shared machine the CPU time a step takes drifts with the other
  jobs (by up to 45% between runs here), and a ratio of two rows measured seconds apart moves
  with it; the median of the pairs' ratios and their range are the figure to read.

Then (``--no-search`` skips it; the first configuration only) the search: from the position
after the setup's chance nodes (the same game for both, the engine's state taken from the
OpenSpiel state), the first decision of rulebook's ``mcts`` and of OpenSpiel's ``MCTSBot``
with the same number of iterations, in two like pairs:

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
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import rulebook
from rulebook import compiled
from rulebook.agents import MCTSAgent
from rulebook.core import State
from rulebook.interop.batched import BatchedEnv, sample_masked
from rulebook.interop.gymnasium import RulebookEnv
from rulebook.interop.openspiel import EvaluationEvaluator, short_name
from rulebook.interop.pettingzoo import PARALLEL_GAMES, parallel_env, raw_env

#: the configurations measured by default: the five games, at their usual counts
CONFIGS = (
    "merchants-of-magick:4",
    "ye-olde-magick-shoppe:4",
    "battle-merchants:2",
    "pandoria-merchants:2",
    "archmagi:2",
)


@dataclass
class Rate:
    """One row: learner steps (and every move) in ``seconds`` of CPU time."""

    name: str
    learner: int
    moves: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.learner / self.seconds

    @property
    def share(self) -> float:
        return self.learner / self.moves


def timed(name: str, run: Callable[[int], tuple[int, int]], seconds: float) -> Rate:
    """Run games (``run(seed)`` returns its learner steps and moves) for about ``seconds``
    after one untimed game."""
    run(10_000)
    learner = moves = seed = 0
    start = time.process_time()
    while seed == 0 or time.process_time() - start < seconds:
        a, b = run(seed)
        learner, moves, seed = learner + a, moves + b, seed + 1
    return Rate(name, learner, moves, time.process_time() - start)


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:  # type: ignore[type-arg]
    """A uniformly random legal index, as a masked learner draws it."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def engine(game: str, players: int, variant: str | None = None) -> Callable[[int], tuple[int, int]]:
    def run(seed: int) -> tuple[int, int]:
        state = rulebook.new_game(game, players, seed, variant)
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_players()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
        return len(state.history), len(state.history)

    return run


def pettingzoo(
    game: str, players: int, variant: str | None = None
) -> Callable[[int], tuple[int, int]]:
    env = raw_env(game, players, variant)

    def run(seed: int) -> tuple[int, int]:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else pick(obs["action_mask"], rng))
        moves = len(env.game_state.history)  # type: ignore[union-attr]
        return moves, moves

    return run


def parallel(
    game: str, players: int, variant: str | None = None
) -> Callable[[int], tuple[int, int]]:
    env = parallel_env(game, players, variant)

    def run(seed: int) -> tuple[int, int]:
        obs, infos = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            actions = {a: pick(o["action_mask"], rng) for a, o in obs.items() if infos[a]["to_act"]}
            obs, _, _, _, infos = env.step(actions)
        moves = len(env.game_state.history)  # type: ignore[union-attr]
        return moves, moves

    return run


def gymnasium(
    game: str, players: int, variant: str | None = None
) -> Callable[[int], tuple[int, int]]:
    env = RulebookEnv(game, players, variant, opponents="random")

    def run(seed: int) -> tuple[int, int]:
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while True:
            obs, _, terminated, _, _ = env.step(pick(obs["action_mask"], rng))
            steps += 1
            if terminated:
                return steps, len(env.game_state.history)  # type: ignore[union-attr]

    return run


def batched(
    game: str, players: int, envs: int, seat: int | None, variant: str | None = None
) -> Callable[[int], tuple[int, int]]:
    """``envs`` games a call; one "game" of the timing loop is 20 calls (the moves of the
    bots against the learner are counted by :func:`throughput`)."""
    env = BatchedEnv(game, players, variant, num_envs=envs, seat=seat, opponents="random")
    rng = np.random.default_rng(0)
    obs = [env.reset(seed=0)[0]]

    def run(seed: int) -> tuple[int, int]:
        for _ in range(20):
            masks = obs[0]["action_mask"]
            obs[0] = env.step(sample_masked(masks, rng))[0]
        return 20 * envs, 20 * envs

    return run


def openspiel(
    game: str, players: int, variant: str | None = None
) -> Callable[[int], tuple[int, int]]:
    loaded = pyspiel.load_game(short_name(game), {"players": players, "variant": variant or ""})

    def run(seed: int) -> tuple[int, int]:
        state = loaded.new_initial_state()
        rng = np.random.default_rng(seed)
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            else:
                observation = state.observation_tensor()  # what a learner sees
                legal = state.legal_actions()
                assert observation
                state.apply_action(legal[rng.integers(len(legal))])
                moves += 1
        return moves, moves

    return run


def paired(
    game: str, players: int, seconds: float, envs: int, pairs: int, variant: str | None = None
) -> list[float]:
    """The engine's random steps/s over the batched self-play's learner steps/s, measured in
    ``pairs`` pairs of adjacent blocks of ``seconds`` each (every other pair in the other
    order)."""
    alone = engine(game, players, variant)
    learner = batched(game, players, envs, None, variant)
    ratios = []
    for k in range(pairs):
        if k % 2:
            b = timed("batched", learner, seconds)
            a = timed("engine", alone, seconds)
        else:
            a = timed("engine", alone, seconds)
            b = timed("batched", learner, seconds)
        ratios.append(a.rate / b.rate)
    return ratios


def throughput(
    game: str, players: int, seconds: float, envs: int, variant: str | None = None
) -> list[Rate]:
    rows = [
        timed("engine (random moves)", engine(game, players, variant), seconds),
        timed("PettingZoo AEC", pettingzoo(game, players, variant), seconds),
    ]
    if game in PARALLEL_GAMES:
        rows.append(timed("PettingZoo Parallel", parallel(game, players, variant), seconds))
    single = timed("Gymnasium vs random", gymnasium(game, players, variant), seconds)
    against = timed(f"batched x{envs} vs random", batched(game, players, envs, 0, variant), seconds)
    against.moves = round(against.learner / single.share)  # the same games, the same bots
    rows += [
        single,
        against,
        timed(f"batched x{envs} self-play", batched(game, players, envs, None, variant), seconds),
        timed("OpenSpiel", openspiel(game, players, variant), seconds),
    ]
    return rows


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
    parser.add_argument(
        "--config",
        action="append",
        metavar="GAME:PLAYERS[:VARIANT]",
        help=f"default: {', '.join(CONFIGS)} (each in the game's usual variant for the count)",
    )
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument(
        "--pairs",
        type=int,
        default=5,
        help="pairs of adjacent engine / batched self-play blocks (0: none)",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=10.0,
        help="OpenSpiel's evaluator divides the margins by this (its UCT expects about [-1, 1])",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.budget < 1 or args.envs < 1 or args.pairs < 0:
        parser.error(
            "--seconds must be positive, --budget and --envs at least 1, --pairs at least 0"
        )
    configs = []
    for text in args.config or CONFIGS:
        game, _, rest = text.partition(":")
        players, _, variant = rest.partition(":")
        try:
            rulebook.get_game(game).setup(int(players), 0, variant or None)
        except (rulebook.UnknownGame, ValueError) as exc:
            parser.error(f"--config {text}: {exc}")
        configs.append((game, int(players), variant or None))
    load = os.getloadavg()
    print(
        f"learner steps/s through each adapter, one core, CPU time; compiled modules "
        f"{'on' if compiled.active else 'off'}; load average {load[0]:.1f} {load[1]:.1f} "
        f"{load[2]:.1f}"
    )
    print(f"{'':28} {'learner/s':>10} {'share':>6} {'engine/learner':>15} {'vs engine share':>16}")
    for game, players, variant in configs:
        rows = throughput(game, players, args.seconds, args.envs, variant)
        base = rows[0].rate
        print(f"{game}, {players} players" + (f", {variant}" if variant else ""))
        for row in rows:
            print(
                f"  {row.name:26} {row.rate:>10,.0f} {row.share:>6.2f} {base / row.rate:>14.1f}x "
                f"{base * row.share / row.rate:>15.1f}x"
            )
        if args.pairs:
            ratios = sorted(paired(game, players, args.seconds / 2, args.envs, args.pairs, variant))
            name = f"batched x{args.envs} self-play, paired"
            print(
                f"  {name:41} {ratios[len(ratios) // 2]:>14.1f}x "
                f"(median of {len(ratios)} pairs; {ratios[0]:.1f}-{ratios[-1]:.1f}x)"
            )
    if args.no_search:
        return 0
    g, n, _ = configs[0]
    print(
        f"search ({g}, {n} players): the first decision of the same game (after the setup's "
        f"chance nodes), {args.budget} iterations each, one core"
    )
    print(f"{'':22} {'iterations/s':>13}  leaf judged by")
    for ours, theirs in search(g, n, args.budget, args.scale):
        for row in (ours, theirs):
            print(f"{row.name:22} {row.rate:>13,.0f}  {row.leaf} ({row.iterations} iterations)")
        print(f"{'':22} {ours.rate / theirs.rate:>12.1f}x  rulebook mcts / MCTSBot")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
