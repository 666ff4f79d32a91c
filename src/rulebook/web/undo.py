"""When a move may be taken back: nothing hidden came to light through it.

The policy of the big online platforms: a seat may undo its own last move while no other seat
has acted since and the move revealed nothing (no die rolled, no card drawn or turned face up).
A move reveals nothing when its outcome, as the mover and as everyone sees it, does not depend
on what the mover could not see: it is replayed in positions where that hidden information is
re-sampled (:meth:`State.determinize`), and every outcome must look the same.
"""

from __future__ import annotations

import random

from rulebook.core import IllegalAction, State

#: re-sampled positions tried; a card drawn from a deck of k unseen cards goes unnoticed with
#: probability (1/k)^SAMPLES at worst (0.4% for the last 2 cards of a deck)
SAMPLES = 8


def reveals_nothing(before: State, seat: int, move: str, after: State) -> bool:
    """Whether ``move`` by ``seat`` from ``before`` (giving ``after``) showed nothing hidden."""
    if after.chance.draws != before.chance.draws:
        return False  # a die was rolled or a deck shuffled
    seen = (after.observation(seat), after.public_observation())
    rng = random.Random(len(before.history))
    for _ in range(SAMPLES):
        sample = before.determinize(seat, rng)
        try:
            sample.apply(seat, move)
        except IllegalAction:
            return False
        if (
            sample.chance.draws != 0
            or (sample.observation(seat), sample.public_observation()) != seen
        ):
            return False
    return True
