"""PettingZoo: PettingZoo's own API and seed tests on every configuration, the Parallel
environment of the roll-and-writes, rewards, illegal moves and hidden simultaneous choices."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.test.state_test import test_parallel_env as parallel_state_test
from pettingzoo.test.state_test import test_state as state_test
from pettingzoo.test.state_test import test_state_space as state_space_test

from interop_helpers import CONFIGS, GAMES, params
from rulebook.core import IllegalAction, SetupError, UnknownGame
from rulebook.interop.common import IDLE, Config
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
    scores = margin.game_state.scores()  # type: ignore[union-attr]
    for p, agent in enumerate(margin.possible_agents):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        assert totals[agent] == scores[p] - best_other
    solo = raw_env("merchants-of-magick", 1)
    assert _play(solo, seed=5)["player_0"] == solo.game_state.scores()[0]  # type: ignore[union-attr]


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
    mask = aec.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    mask[:] = 1  # the caller's copy: the environment trusts its own
    log = list(aec.game_state.history)  # type: ignore[union-attr]
    aec.step(illegal)
    assert aec.rewards[agent] == -1.0 and "illegal" in aec.infos[agent]
    assert aec.agent_selection == agent and aec.game_state.history == log  # type: ignore[union-attr]
    strict = raw_env("battle-merchants", 2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    assert strict.game_state.history == []  # type: ignore[union-attr]


def test_parallel_is_only_for_the_roll_and_writes_and_bad_setups_are_refused() -> None:
    with pytest.raises(UnknownGame, match="simultaneous"):
        parallel_env("archmagi", 2)
    with pytest.raises(SetupError, match="cannot be played by 7 players"):
        env("archmagi", 7)
    with pytest.raises(UnknownGame, match="reward"):
        env("archmagi", 2, reward="gold")
    with pytest.raises(TypeError, match="illegl"):  # a misspelt setting, as a keyword would be
        parallel_env("merchants-of-magick", 2, illegl="raise")  # type: ignore[call-arg]


@STRICT
@pytest.mark.parametrize(
    "config", params([Config.of(g, 2) for g in ("battle-merchants", "merchants-of-magick")])
)
def test_state_is_the_privileged_global_state(config: Config) -> None:
    """PettingZoo's state() (which the engine's handle used to shadow) and state_space, as
    PettingZoo's own state test checks them, AEC and Parallel."""
    make = (
        (lambda: parallel_env("merchants-of-magick", 2)) if config.game in PARALLEL_GAMES else None
    )
    aec = _make(config)
    state_space_test(aec)
    state_test(aec, num_cycles=30)
    if make is not None:
        parallel_state_test(make())
    raw = raw_env(config.game, config.players)
    raw.reset(seed=0)
    state = raw.state()
    assert state.shape == raw.state_space.shape and raw.state_space.contains(state)
    # seat by seat, the seats' own observation tensors, then what no seat sees
    size = raw.observation_space("player_0")["observation"].shape[0]
    for p, agent in enumerate(raw.possible_agents):
        np.testing.assert_array_equal(
            state[p * size : (p + 1) * size], raw.observe(agent)["observation"]
        )
    hidden = raw.game_state.determinize(0, random.Random(1))  # type: ignore[union-attr]
    raw.game_state = hidden
    assert not np.array_equal(raw.state(), state), "the hidden piles are not in the state"
    np.testing.assert_array_equal(raw.state()[:size], state[:size])  # seat 0's view is the same


def test_battle_merchants_state_no_longer_crashes() -> None:
    aec = env("battle-merchants", 4)
    aec.reset(seed=0)
    assert aec.state().shape == aec.unwrapped.state_space.shape  # type: ignore[attr-defined]


def test_the_mask_is_in_the_info_of_the_agent_to_act() -> None:
    aec = raw_env("archmagi", 3)
    aec.reset(seed=2)
    for _ in range(40):
        obs, _, _, _, info = aec.last()
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
        assert info["to_act"] and obs["action_mask"].any()
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_max_cycles_truncates_aec_and_parallel() -> None:
    aec = raw_env("battle-merchants", 2, max_cycles=5)
    aec.reset(seed=3)
    steps = 0
    for _agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0 and "score" in info
            aec.step(None)
            continue
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 10 and not aec.game_state.is_terminal()  # type: ignore[union-attr]
    par = parallel_env("merchants-of-magick", 3, max_cycles=2)
    obs, _ = par.reset(seed=3)
    for _ in range(2):
        actions = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}
        obs, _rewards, terminations, truncations, _ = par.step(actions)
    assert all(truncations.values()) and not any(terminations.values()) and par.agents == []
    with pytest.raises(UnknownGame, match="max_cycles"):
        raw_env("archmagi", 2, max_cycles=0)


def test_parallel_seats_that_ended_their_crafting_get_one_ignored_index() -> None:
    par = parallel_env("merchants-of-magick", 3)
    obs, infos = par.reset(seed=4)
    done = IDLE
    assert str(par.move(done)) == "done"
    # seat 0 ends its crafting at once; the others spend a die
    actions = {}
    for agent, o in obs.items():
        legal = np.flatnonzero(o["action_mask"])
        actions[agent] = done if agent == "player_0" else int(legal[legal != done][0])
    obs, _, _, _, infos = par.step(actions)
    waiting = obs["player_0"]["action_mask"]
    assert np.flatnonzero(waiting).tolist() == [done] and not infos["player_0"]["to_act"]
    assert infos["player_1"]["to_act"] and obs["player_1"]["action_mask"].sum() > 1
    log = len(par.game_state.history)  # type: ignore[union-attr]
    # every live agent sends an action, as a masked policy would: the waiting seat's is ignored
    par.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    assert all(p != 0 for p, _ in par.game_state.history[log:])  # type: ignore[union-attr]


def test_that_a_seat_has_ended_its_crafting_is_public_but_not_its_choices() -> None:
    """Decision: a seat's ``done`` is public during the crafting, as at the table (the
    rulebook has players show they are ready); its marks stay hidden until the phase ends."""
    aec = raw_env("merchants-of-magick", 2)
    aec.reset(seed=3)
    before = aec.observe("player_1")["observation"].copy()
    encoder = aec.table.encoder
    at = {s.name: s for s in encoder.slices()}
    other_done = at["seat1.done"].start  # seat 0 is the second seat in seat 1's view
    aec.step(IDLE)  # seat 0: done at once
    after = aec.observe("player_1")["observation"]
    changed = np.flatnonzero(after != before)
    assert other_done in changed and after[other_done] == 1.0
    marked = at["seat1.marked"]
    assert not (after[marked.start : marked.stop] != before[marked.start : marked.stop]).any()
