"""The batched environment (rulebook.interop.batched): what gym.make_vec gives, N games a call
with stacked arrays, resets in the same step, masks that always hold a move, the same games
as the single environment, and self-play."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rulebook.interop.gymnasium  # noqa: F401  (registers the ids)
from rulebook.core import UnknownGame
from rulebook.interop.batched import BatchedEnv, sample_masked
from rulebook.interop.gymnasium import RulebookEnv


def _last_legal(masks: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)


def test_make_vec_gives_the_batched_environment_and_masks_always_hold_a_move() -> None:
    envs = gym.make_vec("rulebook/Archmagi-2p-v0", num_envs=3, opponents="random")
    assert isinstance(envs, BatchedEnv)
    obs, infos = envs.reset(seed=5)
    assert obs["observation"].shape == (3, 595) and obs["action_mask"].shape == (3, 522)
    assert envs.observation_space.contains(obs)
    ended = 0
    for _ in range(400):
        assert obs["action_mask"].any(axis=1).all()  # right after a reset too
        obs, rewards, terminated, truncated, infos = envs.step(_last_legal(obs["action_mask"]))
        for i in np.flatnonzero(terminated):
            ended += 1
            final = infos["final_obs"][i]
            assert np.flatnonzero(final["action_mask"]).tolist() == [0]  # as RulebookEnv's
            assert rewards[i] in (0.0, 0.5, 1.0) and len(envs.states[i].history) < 10
        assert not truncated.any()
    assert ended >= 2


def test_the_batched_games_are_the_single_environments() -> None:
    """Row i of reset(seed=s) is RulebookEnv's reset(seed=s + i), move for move."""
    batched = BatchedEnv("merchants-of-magick", 3, num_envs=2, opponents=["greedy", "random"])
    singles = [
        RulebookEnv("merchants-of-magick", 3, opponents=["greedy", "random"]) for _ in range(2)
    ]
    obs, _ = batched.reset(seed=7)
    alone = [env.reset(seed=7 + i)[0] for i, env in enumerate(singles)]
    for _ in range(60):
        for i in range(2):
            np.testing.assert_array_equal(obs["observation"][i], alone[i]["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], alone[i]["action_mask"])
        actions = _last_legal(obs["action_mask"])
        obs, rewards, terminated, _, _ = batched.step(actions)
        for i, env in enumerate(singles):
            step = env.step(int(actions[i]))
            assert (rewards[i], terminated[i]) == (step[1], step[2])
            alone[i] = env.reset()[0] if step[2] else step[0]
            if step[2]:
                break
        if terminated.any():
            break


def test_self_play_gives_each_game_to_its_seat_to_act() -> None:
    env = BatchedEnv("battle-merchants", 3, num_envs=4, seat=None)
    obs, infos = env.reset(seed=1)
    finals = []
    for _ in range(3000):
        seats = infos["seat"]
        for i, state in enumerate(env.states):
            assert seats[i] == state.current_players()[0]
        obs, _, terminated, _, infos = env.step(_last_legal(obs["action_mask"]))
        for i in np.flatnonzero(terminated):
            finals.append(infos["rewards"][i])
        if len(finals) >= 2:
            break
    assert all(row.sum() == pytest.approx(1.0) for row in finals)  # every seat's share


def test_illegal_actions_truncation_and_bad_setups() -> None:
    env = BatchedEnv("archmagi", 2, num_envs=2, opponents="random", max_episode_steps=3)
    obs, _ = env.reset(seed=0)
    illegal = np.argmin(obs["action_mask"], axis=1)
    obs["action_mask"][:] = 1  # the caller's copy: the environment trusts its own
    logs = [len(s.history) for s in env.states]
    obs, rewards, _, _, infos = env.step(illegal)
    assert (rewards == -1.0).all() and infos["_illegal"].all()
    assert [len(s.history) for s in env.states] == logs
    for _ in range(2):
        obs, _, terminated, truncated, _ = env.step(_last_legal(obs["action_mask"]))
    assert truncated.all() and not terminated.any()
    with pytest.raises(UnknownGame, match="one action per game"):
        env.step([0])
    with pytest.raises(UnknownGame, match="num_envs"):
        BatchedEnv("archmagi", 2, num_envs=0)
    with pytest.raises(UnknownGame, match="seat"):
        BatchedEnv("archmagi", 2, seat=2)


def test_self_play_with_illegal_moves_and_truncation_in_one_batch() -> None:
    """Each game of a self-play batch moves as the engine does on its own, whether its
    neighbours' moves were legal, refused or ended their games; every step counts."""
    env = BatchedEnv("archmagi", 2, num_envs=3, seat=None, max_episode_steps=4)
    obs, infos = env.reset(seed=3)
    alone = [state.clone() for state in env.states]
    vocabulary = env.table.space.vocabulary
    for step in range(1, 9):
        actions = _last_legal(obs["action_mask"])
        if step % 2:  # game 0 tries a move it may not make on every other step
            actions[0] = np.argmin(obs["action_mask"][0])
        seats = infos["seat"].copy()
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert (rewards[0] == -1.0) == bool(step % 2)
        refused = infos.get("_illegal", np.zeros(3, np.bool_))
        assert refused.tolist() == [bool(step % 2), False, False]
        assert not terminated.any() and truncated.tolist() == [step % 4 == 0] * 3
        for i, state in enumerate(alone):
            if not (i == 0 and step % 2):
                state.apply(int(seats[i]), vocabulary[actions[i]])
            if truncated[i]:  # a new game from the environment's generator
                alone[i] = env.states[i].clone()
                continue
            assert env.states[i].history == state.history
            to_act = state.current_players()[0]
            assert infos["seat"][i] == to_act
            assert obs["action_mask"][i].tolist() == env.table.mask(state, to_act).tolist()


def test_sample_masked_draws_uniformly_among_each_rows_legal_indices() -> None:
    masks = np.zeros((4, 7), np.int8)
    masks[0, [1, 4]] = 1
    masks[1, :] = 1
    masks[2, 6] = 1
    masks[3, [0, 2, 3, 5]] = 3  # nonzero is legal
    rng = np.random.default_rng(7)
    counts = np.zeros((4, 7))
    draws = 7000
    for _ in range(draws):
        picked = sample_masked(masks, rng)
        assert picked.shape == (4,)
        counts[np.arange(4), picked] += 1
    assert (counts[masks == 0] == 0).all()  # never an illegal index
    legal = np.count_nonzero(masks, axis=1)
    expected = draws / legal
    for row in range(4):
        seen = counts[row, masks[row] != 0]
        # each legal index about equally often (binomial sd; 5 sd: a fixed seed, no flake)
        sd = np.sqrt(draws * (1 / legal[row]) * (1 - 1 / legal[row]))
        assert np.abs(seen - expected[row]).max() <= 5 * sd + 1e-9
    assert (
        sample_masked(masks, np.random.default_rng(3))
        == sample_masked(masks, np.random.default_rng(3))
    ).all()  # seeded: the same draws
    with pytest.raises(ValueError, match="row 1 of the masks has no legal index"):
        sample_masked(np.array([[1, 0], [0, 0]]))
    with pytest.raises(ValueError, match=r"\(n, actions\)"):
        sample_masked(np.ones(3))


def test_sample_masked_plays_batched_games() -> None:
    envs = BatchedEnv("battle-merchants", 2, num_envs=4, seat=None)
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        obs, _, _, _, infos = envs.step(sample_masked(obs["action_mask"], rng))
        assert "illegal" not in infos  # every index drawn was legal
