"""Every seat of a rulebook game played by masked random moves through PettingZoo's AEC API
(with the privileged global state a centralised critic would read, ``state()``), then a
roll-and-write through the Parallel API.

    python examples/pettingzoo_random.py [--game merchants-of-magick] [--players 4] [--seed 0]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import rulebook
from rulebook.interop.pettingzoo import env, parallel_env


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="merchants-of-magick", choices=rulebook.games())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    aec = env(args.game, args.players)
    aec.reset(seed=args.seed)
    for k, agent in enumerate(aec.possible_agents):  # the same seed, the same moves
        aec.action_space(agent).seed(args.seed + k)
    returns = {agent: 0.0 for agent in aec.possible_agents}
    steps = 0
    critic_input = aec.state()  # every seat's view and the hidden piles: for critics only
    print(f"state(): {critic_input.shape} in {aec.unwrapped.state_space}")
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _info = aec.last()
        returns[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(aec.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    print(f"AEC {args.game}, {args.players} players: {steps} moves, returns {returns}")

    par = parallel_env("merchants-of-magick", 3)
    observations, _ = par.reset(seed=args.seed)
    for k, agent in enumerate(par.possible_agents):
        par.action_space(agent).seed(args.seed + k)
    rounds = 0
    while par.agents:
        # a seat that ended its crafting waits: its mask offers index 0 alone (ignored)
        actions = {a: par.action_space(a).sample(o["action_mask"]) for a, o in observations.items()}
        observations, rewards, _terminations, _truncations, _infos = par.step(actions)
        rounds += 1
    print(f"Parallel merchants-of-magick, 3 players: {rounds} steps, rewards {rewards}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except rulebook.RulebookError as exc:  # a configuration the adapters cannot serve
        raise SystemExit(f"error: {exc}") from None
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
