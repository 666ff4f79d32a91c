"""Gymnasium: every registered id passes Gymnasium's env checker; seeding, vector
environments (sync and async), opponents and illegal moves."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from interop_helpers import CONFIGS, params
from rulebook.agents import GreedyAgent
from rulebook.core import IllegalAction, UnknownGame
from rulebook.interop.common import Config
from rulebook.interop.gymnasium import ENV_IDS, RulebookEnv, env_id
from rulebook.interop.opponents import Pool, Schedule


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
    state = env.unwrapped.game_state
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
            masks = obs["action_mask"]
            # after a game ends the next action is ignored by the reset, but a masked policy
            # still needs a choice: the mask is never empty
            assert masks.any(axis=1).all()
            actions = np.array([int(np.flatnonzero(m)[-1]) for m in masks])
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
    obs["action_mask"][:] = 1  # the caller's copy: the environment trusts its own
    log = list(env.game_state.history)  # type: ignore[union-attr]
    _after, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and not terminated and "illegal" in info
    assert env.game_state.history == log  # type: ignore[union-attr]
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


class Counting:
    """An opponent with ``act(obs)``: the last legal index, and how often it was asked."""

    def __init__(self, shape: tuple[int, ...] | None = None) -> None:
        self.calls = 0
        self.shape = shape

    def act(self, obs: dict[str, np.ndarray]) -> int:  # type: ignore[type-arg]
        self.calls += 1
        assert self.shape is None or obs["observation"].shape == self.shape  # a learner's view
        return int(np.flatnonzero(obs["action_mask"])[-1])


class Model:
    """A trained model as Stable-Baselines3 gives it: ``predict`` -> (action, state)."""

    def predict(
        self,
        obs: dict[str, np.ndarray],  # type: ignore[type-arg]
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,  # type: ignore[type-arg]
    ) -> tuple[np.ndarray, None]:  # type: ignore[type-arg]
        assert deterministic and action_masks is not None
        return np.array(int(np.flatnonzero(action_masks)[0])), None


def test_any_policy_plays_the_other_seats() -> None:
    seen: list[int] = []

    def first_legal(obs: dict[str, np.ndarray]) -> int:  # type: ignore[type-arg]
        seen.append(int(obs["action_mask"].sum()))
        return int(np.flatnonzero(obs["action_mask"])[0])

    counting = Counting((1171,))
    env = RulebookEnv("merchants-of-magick", 4, opponents=[first_legal, counting, GreedyAgent(5)])
    obs, info = env.reset(seed=1)
    assert info["opponents"] == {1: "first_legal", 2: "Counting", 3: "<GreedyAgent greedy>"}
    while True:
        obs, _, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated:
            break
    # seat 1 ends its crafting at once (index 0 is done) each of the 10 rounds; seat 2 spends
    assert len(seen) == 10 and counting.calls > 10 and all(n > 0 for n in seen)
    moves = env.game_state.history  # type: ignore[union-attr]
    assert sum(p == 1 for p, _ in moves) == 10 and sum(p == 2 for p, _ in moves) > 10
    # a model with predict (MaskablePPO's signature) plays as well
    model_env = RulebookEnv("battle-merchants", 2, opponents=Model())
    obs, _ = model_env.reset(seed=0)
    obs, *_ = model_env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(model_env.game_state.history) >= 2  # type: ignore[union-attr]


def test_an_opponent_that_breaks_the_rules_is_named() -> None:
    env = RulebookEnv("battle-merchants", 2, seat=1, opponents=lambda obs: 10_000)
    with pytest.raises(IllegalAction, match=r"the opponent in seat 0 \(<lambda>\): no action"):
        obs, _ = env.reset(seed=0)  # seat 0 may start: its move raises here or after ours
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(UnknownGame, match="no opponent"):
        RulebookEnv("battle-merchants", 2, opponents=42)


def test_pools_and_schedules_choose_each_episode_seeded() -> None:
    pool = Pool(["random", "greedy", Counting()], weights=[1, 1, 2])
    env = RulebookEnv("battle-merchants", 3, opponents=pool)
    drawn = [tuple(env.reset(seed=s)[1]["opponents"].values()) for s in range(12)]
    again = RulebookEnv("battle-merchants", 3, opponents=pool)
    assert [tuple(again.reset(seed=s)[1]["opponents"].values()) for s in range(12)] == drawn
    assert {name for pair in drawn for name in pair} == {"random", "greedy", "Counting"}
    schedule = Schedule(lambda episode: "random" if episode < 2 else pool)
    curriculum = RulebookEnv("battle-merchants", 2, opponents=schedule)
    names = [curriculum.reset(seed=s)[1]["opponents"][1] for s in range(8)]
    assert names[:2] == ["random", "random"] and set(names[2:]) <= {"random", "greedy", "Counting"}
    with pytest.raises(UnknownGame, match="weights"):
        Pool(["random"], weights=[0])


def test_max_episode_steps_truncates() -> None:
    env = RulebookEnv("archmagi", 2, opponents="random", max_episode_steps=3)
    obs, _ = env.reset(seed=0)
    for step in range(3):
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert truncated == (step == 2) and not terminated and reward == 0.0
    assert obs["action_mask"].any()
    with pytest.raises(UnknownGame, match="reset"):
        env.step(0)
    limited = gym.make("rulebook/Archmagi-2p-v0", opponents="random", max_episode_steps=2)
    obs, _ = limited.reset(seed=0)
    limited.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert limited.step(int(np.flatnonzero(limited.unwrapped.action_masks())[0]))[3]
