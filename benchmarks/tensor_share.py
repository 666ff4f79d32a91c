"""The observation tensor's share of a batched self-play step.

Usage::

    RULEBOOK_COMPILED=1 PYTHONPATH=src python benchmarks/tensor_share.py pandoria-merchants:2 ...

For each configuration: 64 self-play games of the batched environment from seed 0, 30 random
steps to warm up, then 300 timed (CPU time, per game of the batch), once as they are and once
with the encoder's ``encode_into`` replaced by a no-op; each twice, the faster kept. The
difference is the tensor's cost a step.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from rulebook.interop.batched import BatchedEnv, sample_masked


def per_step(game: str, players: int, tensor: bool, calls: int = 300) -> float:
    """Microseconds of CPU a game of the batch takes a step."""
    env = BatchedEnv(game, players, num_envs=64, seat=None, opponents="random")
    if not tensor:

        def nothing(*args: Any, **kwargs: Any) -> None:
            return None

        env.table.encoder.encode_into = nothing  # type: ignore[method-assign]
    rng = np.random.default_rng(0)
    obs = env.reset(seed=0)[0]
    for _ in range(30):
        mask = obs["action_mask"]
        obs = env.step(sample_masked(mask, rng))[0]
    start = time.process_time()
    for _ in range(calls):
        mask = obs["action_mask"]
        obs = env.step(sample_masked(mask, rng))[0]
    return (time.process_time() - start) / calls / 64 * 1e6


def main(configs: list[str]) -> None:
    for config in configs:
        game, _, players = config.partition(":")
        full = min(per_step(game, int(players), True) for _ in range(2))
        bare = min(per_step(game, int(players), False) for _ in range(2))
        print(
            f"{config}: step with tensor {full:.1f} us, without {bare:.1f} us: "
            f"tensor {full - bare:.1f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or ["battle-merchants:2"])
