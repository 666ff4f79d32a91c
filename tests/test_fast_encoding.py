"""The observation tensors read straight from a state (``ObservationEncoder.encode_state``, the
adapters' fast path) are exactly those of the seat's observation (``encode``), at every step
of random games of every configuration whose encoder has its own; and the batched forms
(``encode_into``, ``masks_into``) are the one-at-a-time ones."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interop_helpers import CONFIGS, GAMES, params
from rulebook.core.spaces import ObservationEncoder, action_space, encoder
from rulebook.interop.common import Config


def _fast(config: Config) -> bool:
    own = type(encoder(config.setup(0))).encode_state
    return own is not ObservationEncoder.encode_state


FAST = [c for c in CONFIGS if _fast(c)]


def test_the_sheet_games_have_a_fast_path() -> None:
    assert {c.game for c in FAST} >= {"merchants-of-magick", "ye-olde-magick-shoppe"}


@pytest.mark.parametrize("config", params(FAST))
def test_the_state_path_gives_the_observations_tensor(config: Config) -> None:
    for seed in range(GAMES):
        state = config.new_game(seed)
        enc = encoder(state.setup)
        rng = random.Random(seed)
        while True:
            for p in range(config.players):
                expected = enc.encode(state.observation(p))
                got = enc.encode_state(state, p)
                if not np.array_equal(got, expected):
                    wrong = {
                        s.name
                        for s in enc.slices()
                        for i in np.flatnonzero(got != expected)
                        if s.start <= i < s.stop
                    }
                    pytest.fail(f"move {len(state.history)}, seat {p}: {sorted(wrong)}")
            if state.is_terminal():
                break
            p = state.current_players()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize(
    ("game", "players", "variant"),
    [
        ("battle-merchants", 3, None),
        ("merchants-of-magick", 4, None),
        ("archmagi", 2, None),
        ("pandoria-merchants", 2, None),
        ("pandoria-merchants", 3, "family"),
        ("pandoria-merchants", 1, "solo"),
    ],
)
def test_batched_encoding_and_masks_are_the_single_ones(
    game: str, players: int, variant: str | None
) -> None:
    """Games at different points (one over), seats to act and not: each row of the batch is
    the tensor of the seat's observation and its mask."""
    config = Config.of(game, players, variant)
    states, seats = [], []
    for seed in range(6):
        state = config.new_game(seed)
        rng = random.Random(seed)
        for _ in range(20 * seed if seed < 5 else 100_000):
            if state.is_terminal():
                break
            p = state.current_players()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
        states.append(state)
        seats.append(seed % players)  # not always the seat to act: its mask is then all 0
    assert states[-1].is_terminal()
    enc, space = encoder(states[0].setup), action_space(states[0])
    tensors = np.full((6, *enc.shape), np.nan, np.float32)
    masks = np.full((6, space.size), 7, np.int8)
    for _ in range(2):  # the second time from the blocks kept
        enc.encode_into(states, seats, tensors)
        space.masks_into(states, seats, masks)
        for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
            np.testing.assert_array_equal(tensors[i], enc.encode(state.observation(seat)))
            np.testing.assert_array_equal(masks[i], space.mask(state, seat))


@pytest.mark.parametrize(
    ("game", "players", "variant"),
    [
        ("merchants-of-magick", 4, None),
        ("ye-olde-magick-shoppe", 3, None),
        ("ye-olde-magick-shoppe", 1, None),
        ("battle-merchants", 2, None),
        ("battle-merchants", 4, None),
        ("pandoria-merchants", 2, None),
        ("pandoria-merchants", 4, None),
        ("pandoria-merchants", 2, "family"),
        ("pandoria-merchants", 3, "family"),
        ("pandoria-merchants", 4, "family"),
        ("pandoria-merchants", 1, "solo"),
    ],
)
def test_batched_encoding_follows_the_games_move_by_move(
    game: str, players: int, variant: str | None
) -> None:
    """The sheet games keep each row between calls and rewrite what changed (Battle Merchants
    and Pandoria Merchants their seat blocks, ``DirectEncoder.keeps_seats``): the rows follow
    the games move by move, whichever seat is asked about, when the caller wrote into the
    array, and when a game ends and a new one takes its place."""
    config = Config.of(game, players, variant)
    rng = random.Random(1)
    states = [config.new_game(seed) for seed in range(3)]
    enc = encoder(states[0].setup)
    tensors = np.empty((3, *enc.shape), np.float32)
    started, ended = len(states), 0
    while ended < 2:
        seats = [rng.randrange(players) for _ in states]
        enc.encode_into(states, seats, tensors)
        for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
            np.testing.assert_array_equal(tensors[i], enc.encode(state.observation(seat)))
        tensors.fill(np.nan)
        for i, state in enumerate(states):
            if state.is_terminal():
                states[i] = config.new_game(started)
                started += 1
                ended += 1
            else:
                p = state.current_players()[0]
                state.apply(p, rng.choice(state.legal_actions(p)))
