"""Gymnasium: every registered id passes Gymnasium's env checker; seeding, vector
environments (sync and async), opponents and illegal moves."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from interop_helpers import CONFIGS, params
from rulebook.core import IllegalAction, UnknownGame
from rulebook.interop.common import Config
from rulebook.interop.gymnasium import ENV_IDS, RulebookEnv, env_id


def test_every_configuration_is_registered() -> None:
    assert sorted(ENV_IDS) == sorted(env_id(c) for c in CONFIGS)
    assert "rulebook/MerchantsOfMagick-4p-v0" in ENV_IDS
    assert "rulebook/MerchantsOfMagick-1p-v0" in ENV_IDS  # solo
    assert "rulebook/PandoriaMerchants-1p-Expert-v0" in ENV_IDS


@pytest.mark.filterwarnings("error::UserWarning")
@pytest.mark.parametrize("config", params(CONFIGS))
def test_env_checker_and_a_whole_game(config: Config) -> None:
    env = gym.make(env_id(config), opponents="random")
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=7)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[steps % len(legal)]))
        steps += 1
        if terminated:
            break
        assert reward == 0.0 and not truncated
    state = env.unwrapped.state
    assert state.is_terminal() and info["scores"] == state.scores()


def _trajectory(env: gym.Env, seed: int) -> list[tuple[bytes, float]]:  # type: ignore[type-arg]
    obs, _ = env.reset(seed=seed)
    out = []
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, _, _ = env.step(int(legal[-1]))
        out.append((obs["observation"].tobytes(), reward))
        if terminated:
            return out


def test_reset_with_a_seed_gives_the_same_game() -> None:
    env = RulebookEnv("merchants-of-magick", 3, opponents=["greedy", "random"])
    first = _trajectory(env, 11)
    assert _trajectory(env, 11) == first
    assert _trajectory(RulebookEnv("merchants-of-magick", 3, opponents="greedy"), 12) != first


@pytest.mark.filterwarnings("error::UserWarning")
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environments(mode: str) -> None:
    envs = gym.make_vec("rulebook/MerchantsOfMagick-2p-v0", num_envs=2, vectorization_mode=mode)
    try:
        obs, _ = envs.reset(seed=3)
        finished = 0
        for _ in range(200):
            actions = np.array([int(np.argmax(m)) for m in obs["action_mask"]])  # 0 after an end
            obs, _rewards, terminated, _truncated, _ = envs.step(actions)
            finished += int(terminated.sum())
        assert finished >= 2  # games end and the vector resets them
        assert obs["observation"].shape[0] == 2
    finally:
        envs.close()


def test_illegal_moves_change_nothing() -> None:
    env = RulebookEnv("battle-merchants", 2)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    log = list(env.state.history)  # type: ignore[union-attr]
    _after, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and not terminated and "illegal" in info
    assert env.state.history == log  # type: ignore[union-attr]
    strict = RulebookEnv("battle-merchants", 2, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    with pytest.raises(IllegalAction):
        strict.step("done")


def test_bad_setups_are_refused() -> None:
    with pytest.raises(UnknownGame, match="opponent"):
        RulebookEnv("archmagi", 3, opponents=["greedy"])
    with pytest.raises(UnknownGame, match="no agent"):
        RulebookEnv("archmagi", 2, opponents="wizard")
    with pytest.raises(UnknownGame, match="seat"):
        RulebookEnv("archmagi", 2, seat=2)
    with pytest.raises(TypeError, match="rewrd"):  # a misspelt setting, as a keyword would be
        RulebookEnv("archmagi", 2, rewrd="margin")  # type: ignore[call-arg]
