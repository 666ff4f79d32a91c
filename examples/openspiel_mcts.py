"""OpenSpiel's MCTSBot against uniformly random play on a rulebook game, through the OpenSpiel
adapter (chance nodes sampled as OpenSpiel's own games do).

    python examples/openspiel_mcts.py [--game merchants-of-magick] [--games 4] [--simulations 50]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import rulebook
from rulebook.interop.openspiel import short_name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="merchants-of-magick", choices=rulebook.games())
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = pyspiel.load_game(short_name(args.game), {"players": 2})
    print(
        game,
        "-",
        game.num_distinct_actions(),
        "actions,",
        game.max_chance_outcomes(),
        "chance outcomes at most",
    )
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, args.simulations, evaluator, random_state=rng)
    wins = 0.0
    for i in range(args.games):
        seat = i % 2  # MCTS alternates seats
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=False)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[seat]
        print(f"game {i + 1}: MCTS in seat {seat}, returns {state.returns()}")
    print(f"MCTS won {wins:g} of {args.games} games against random play")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except rulebook.RulebookError as exc:  # a configuration the adapters cannot serve
        raise SystemExit(f"error: {exc}") from None
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
