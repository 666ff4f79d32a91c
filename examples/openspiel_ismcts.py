"""OpenSpiel's information-set MCTS, evaluate_bots and rl_environment on a rulebook game.

    python examples/openspiel_ismcts.py [--game battle-merchants] [--games 2] [--simulations 20]

* ``rulebook.interop.openspiel.ISMCTSBot`` (OpenSpiel's Python ``ISMCTSBot`` with the
  ``restart_at`` that ``evaluate_bots`` calls; OpenSpiel's own raises there) plays against
  uniformly random play through ``evaluate_bots``; it re-samples what it cannot see with
  ``RulebookState.resample_from_infostate``.
* ``rulebook.interop.openspiel.environment`` is OpenSpiel's ``rl_environment`` of the game: its
  ``info_state`` is the perfect-recall information-state tensor.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import rulebook
from rulebook.interop.openspiel import ISMCTSBot, environment, short_name


class UniformRandom(pyspiel.Bot):  # type: ignore[misc]
    """A uniformly random legal move (with the restart_at evaluate_bots calls)."""

    def __init__(self, rng: np.random.RandomState) -> None:
        pyspiel.Bot.__init__(self)
        self.rng = rng

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        return int(self.rng.choice(state.legal_actions()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="battle-merchants", choices=rulebook.games())
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = pyspiel.load_game(short_name(args.game), {"players": 2})
    print(
        f"{game}: information-state tensor {game.information_state_tensor_shape()}, "
        f"observation tensor {game.observation_tensor_shape()}"
    )
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=rng)
    wins = 0.0
    for i in range(args.games):
        seat = i % 2
        bots = [search, UniformRandom(rng)] if seat == 0 else [UniformRandom(rng), search]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        wins += returns[seat]
        print(f"game {i + 1}: ISMCTS in seat {seat}, returns {returns}")
    print(f"ISMCTS won {wins:g} of {args.games} games against random play")

    env = environment(game)
    step = env.reset()
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([int(rng.choice(legal))])
        moves += 1
    info_state = np.asarray(step.observations["info_state"][0])
    print(f"rl_environment: {moves} moves, info_state of {info_state.size}, returns {step.rewards}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
