"""PettingZoo: PettingZoo's own API and seed tests on every configuration, the Parallel
environment of the roll-and-writes, rewards, illegal moves and hidden simultaneous choices."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from interop_helpers import CONFIGS, GAMES, params
from rulebook.core import IllegalAction, SetupError, UnknownGame
from rulebook.interop.common import Config
from rulebook.interop.pettingzoo import PARALLEL_GAMES, env, parallel_env, raw_env

PARALLEL = [c for c in CONFIGS if c.game in PARALLEL_GAMES]
#: every warning of PettingZoo's tests fails the test, but those it gives of any environment
#: whose observations are dicts holding the action mask (as PettingZoo's classic environments
#: do; it lists their names to spare them): a dict is "not a NumPy array" nor a box space
STRICT = pytest.mark.filterwarnings(
    "error::UserWarning",
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
)


def _make(config: Config, **kwargs: object) -> object:
    return env(config.game, config.players, config.variant, dict(config.options), **kwargs)


@STRICT
@pytest.mark.parametrize("config", params(CONFIGS))
def test_api_and_seed(config: Config) -> None:
    for _ in range(GAMES):
        api_test(_make(config), num_cycles=100_000)
    seed_test(lambda: _make(config), num_cycles=100_000)


@STRICT
@pytest.mark.parametrize("config", params(PARALLEL))
def test_parallel_api_and_seed(config: Config) -> None:
    def make() -> object:
        return parallel_env(config.game, config.players, config.variant, dict(config.options))

    for _ in range(GAMES):
        parallel_api_test(make(), num_cycles=100_000)
    parallel_seed_test(make, num_cycles=20)


def _play(aec: object, seed: int) -> dict[str, float]:
    aec.reset(seed=seed)  # type: ignore[attr-defined]
    totals: dict[str, float] = {}
    for agent in aec.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = aec.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            aec.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(legal[seed % len(legal)]))  # type: ignore[attr-defined]
    return totals


def test_rewards_are_the_share_of_the_win_or_the_margin() -> None:
    win = _play(env("merchants-of-magick", 3), seed=5)
    assert sum(win.values()) == pytest.approx(1.0)
    margin = raw_env("merchants-of-magick", 3, reward="margin")
    totals = _play(margin, seed=5)
    scores = margin.state.scores()  # type: ignore[union-attr]
    for p, agent in enumerate(margin.possible_agents):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        assert totals[agent] == scores[p] - best_other
    solo = raw_env("merchants-of-magick", 1)
    assert _play(solo, seed=5)["player_0"] == solo.state.scores()[0]  # type: ignore[union-attr]


def test_a_later_seat_does_not_see_earlier_choices_of_the_same_phase() -> None:
    aec = raw_env("merchants-of-magick", 2)
    aec.reset(seed=3)
    assert aec.agent_selection == "player_0"
    before = aec.observe("player_1")["observation"].copy()
    mask = aec.observe("player_0")["action_mask"]
    spends = [i for i in np.flatnonzero(mask) if str(aec.move(int(i))) != "done"]
    aec.step(int(spends[0]))
    assert aec.agent_selection == "player_0"  # still crafting
    np.testing.assert_array_equal(aec.observe("player_1")["observation"], before)
    assert not aec.observe("player_1")["action_mask"].any()  # not to act now


def test_an_illegal_move_changes_nothing() -> None:
    aec = raw_env("battle-merchants", 2)
    aec.reset(seed=1)
    agent = aec.agent_selection
    illegal = int(np.flatnonzero(aec.observe(agent)["action_mask"] == 0)[0])
    log = list(aec.state.history)  # type: ignore[union-attr]
    aec.step(illegal)
    assert aec.rewards[agent] == -1.0 and "illegal" in aec.infos[agent]
    assert aec.agent_selection == agent and aec.state.history == log  # type: ignore[union-attr]
    strict = raw_env("battle-merchants", 2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    assert strict.state.history == []  # type: ignore[union-attr]


def test_parallel_is_only_for_the_roll_and_writes_and_bad_setups_are_refused() -> None:
    with pytest.raises(UnknownGame, match="simultaneous"):
        parallel_env("archmagi", 2)
    with pytest.raises(SetupError, match="cannot be played by 7 players"):
        env("archmagi", 7)
    with pytest.raises(UnknownGame, match="reward"):
        env("archmagi", 2, reward="gold")
    with pytest.raises(TypeError, match="illegl"):  # a misspelt setting, as a keyword would be
        parallel_env("merchants-of-magick", 2, illegl="raise")  # type: ignore[call-arg]
