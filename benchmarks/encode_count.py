"""A batch's observation tensors alone, for counting instructions with callgrind.

Usage::

    RULEBOOK_COMPILED=1 PYTHONPATH=src valgrind --tool=callgrind \\
        --toggle-collect='CPyPy_writes___KeptSeats___write' \\
        python benchmarks/encode_count.py battle-merchants:2

64 self-play games of the batched environment from seed 0 make 60 random steps; each step's
positions are cloned; then ``encode_into`` runs over them in order (so kept blocks see
consecutive positions): 10 calls to warm up, 50 timed (CPU time, printed per game). Under
callgrind, ``--toggle-collect`` names the compiled function whose instructions are counted
(the direct encoders' ``KeptSeats.write``; a sheet game's is its encoder's ``encode_into``).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from rulebook.interop.batched import BatchedEnv, sample_masked


def main(config: str) -> None:
    game, _, players = config.partition(":")
    env = BatchedEnv(game, int(players), num_envs=64, seat=None, opponents="random")
    rng = np.random.default_rng(0)
    obs = env.reset(seed=0)[0]
    encoder = env.table.encoder
    positions = []
    for _ in range(60):
        mask = obs["action_mask"]
        obs = env.step(sample_masked(mask, rng))[0]
        positions.append(([s.clone() for s in env.states], list(env._seat_list)))
    out = np.empty_like(obs["observation"])
    for states, seats in positions[:10]:
        encoder.encode_into(states, seats, out)
    start = time.process_time()
    for states, seats in positions[10:]:
        encoder.encode_into(states, seats, out)
    seconds = time.process_time() - start
    print(f"{config}: encode_into {seconds / 50 / 64 * 1e6:.2f} us a game")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "battle-merchants:2")
