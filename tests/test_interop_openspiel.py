"""OpenSpiel: OpenSpiel's random simulation test (serialisation included) on every
configuration, its MCTS and ISMCTS bots playing every game to the end, the game types and
bounds, and the explicit chance nodes (core.chance.ScriptedChance)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import rulebook
from interop_helpers import CONFIGS, GAMES, params
from rulebook.agents.mcts import leaf_rewards
from rulebook.core.chance import ChanceNeeded, ScriptedChance
from rulebook.interop.bounds import bounds, play_scripted
from rulebook.interop.common import Config
from rulebook.interop.openspiel import GAMES as NAMES
from rulebook.interop.openspiel import (
    EvaluationEvaluator,
    ISMCTSBot,
    MoveRecord,
    PerfectRecallWarning,
    environment,
    options_parameter,
    resampler,
    short_name,
    tree_size,
)


def _load(config: Config, **extra: object) -> pyspiel.Game:
    options = options_parameter(dict(config.options))
    parameters = {"players": config.players, "variant": config.variant, "options": options}
    return pyspiel.load_game(short_name(config.game), {**parameters, **extra})


def test_every_game_is_registered_with_its_type() -> None:
    assert sorted(NAMES) == sorted(short_name(g) for g in rulebook.games())
    game = pyspiel.load_game("python_rulebook_merchants_of_magick", {"players": 4})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    state = rulebook.new_game("merchants-of-magick", 4)
    assert game.num_distinct_actions() == len(state.action_vocabulary())
    solo = pyspiel.load_game("python_rulebook_merchants_of_magick", {"players": 1})
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert solo.max_utility() == bounds(Config.of("merchants-of-magick", 1)).max_score


@pytest.mark.parametrize("config", params(CONFIGS))
def test_random_simulation(config: Config) -> None:
    pyspiel.random_sim_test(_load(config), num_sims=GAMES, serialize=True, verbose=False)


@pytest.mark.parametrize("config", params(CONFIGS))
def test_games_stay_within_the_recorded_bounds(config: Config) -> None:
    recorded = bounds(config)
    for seed in range(3 * GAMES):
        seen = play_scripted(config, seed, greedy=False)
        assert seen.game_length <= recorded.max_game_length
        assert seen.chance_outcomes <= recorded.max_chance_outcomes
        assert seen.chance_nodes <= recorded.max_chance_nodes
        assert recorded.min_score <= seen.min_score <= seen.max_score <= recorded.max_score


def _play(game: pyspiel.Game, bot: pyspiel.Bot, rng: np.random.RandomState) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(bot.step(state))
    return state


TWO_PLAYERS = [Config.of(g, 2) for g in rulebook.games()]


@pytest.mark.parametrize("config", params(TWO_PLAYERS))
def test_mcts_and_ismcts_play_to_the_end(config: Config) -> None:
    game = _load(config)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=rng)
    end = _play(game, bot, rng)
    assert sorted(end.returns()) in ([0.0, 1.0], [0.5, 0.5])
    # ISMCTS re-samples through RulebookState.resample_from_infostate; OpenSpiel's
    # evaluate_bots needs the restart_at that rulebook's ISMCTSBot adds to OpenSpiel's
    bots = [ISMCTSBot(game, evaluator, 2.0, 3, random_state=rng) for _ in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(1.0)


def test_openspiels_own_ismcts_bot_cannot_restart() -> None:
    """What the docs say: OpenSpiel's Python ISMCTSBot plays by step() (as in
    test_mcts_and_ismcts_play_to_the_end's loop) but evaluate_bots calls restart_at, which it
    lacks."""
    game = _load(Config.of("archmagi", 2))
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = ismcts.ISMCTSBot(game, evaluator, 2.0, 2, random_state=rng)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [theirs, theirs], rng)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    assert theirs.step(state) in state.legal_actions()


def _known_own_moves(record: MoveRecord, moves: np.ndarray) -> tuple[list[int], int]:  # type: ignore[type-arg]
    """The viewer's own move indices in an information-state tensor's moves part, and how
    many slots are filled."""
    slots = moves.reshape(record.length, record.slot)
    filled = int(slots[:, : record.players].any(axis=1).sum())
    weights = 1 << np.arange(record.bits)
    own = [int(slot[record.players + 1 :] @ weights) for slot in slots[:filled] if slot[0] == 1.0]
    return own, filled


@pytest.mark.parametrize("game_name", ["merchants-of-magick", "archmagi"])
def test_the_information_state_tensor_has_a_fixed_shape_and_perfect_recall(
    game_name: str,
) -> None:
    config = Config.of(game_name, 3)
    game = _load(config)
    assert game.get_type().provides_information_state_tensor
    observation = game.observation_tensor_size()
    record = MoveRecord(3, game.num_distinct_actions(), game.max_game_length())
    assert game.information_state_tensor_shape() == [observation + record.size]
    state = game.new_initial_state()
    rng = random.Random(5)
    mine: dict[int, list[int]] = {0: [], 1: [], 2: []}
    filled = dict.fromkeys(mine, 0)
    while not state.is_terminal() and len(state.history()) < 500:
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
            continue
        seat = state.current_player()
        for p in mine:
            tensor = np.array(state.information_state_tensor(p), np.float32)
            assert tensor.shape == (observation + record.size,)
            np.testing.assert_array_equal(tensor[:observation], state.observation_tensor(p))
            own, count = _known_own_moves(record, tensor[observation:])
            assert own == mine[p], "a seat forgot or misremembers one of its own moves"
            assert count >= filled[p]  # what a seat knows only grows
            filled[p] = count
        action = rng.choice(state.legal_actions())
        mine[seat].append(action)
        state.apply_action(action)
    assert all(len(moves) > 5 for moves in mine.values())


def test_rl_environment_uses_the_information_state_and_warns_for_the_observation() -> None:
    env = environment("python_rulebook_battle_merchants", players=2)
    game = pyspiel.load_game("python_rulebook_battle_merchants", {"players": 2})
    step = env.reset()
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
    with pytest.warns(PerfectRecallWarning, match="NFSP"):
        plain = environment(game, observation_type=rl_environment.ObservationType.OBSERVATION)
    assert len(plain.reset().observations["info_state"][0]) == game.observation_tensor_size()


def test_rulebook_state_is_a_method_as_in_pyspiel() -> None:
    game = pyspiel.load_game("python_rulebook_archmagi", {"players": 2})
    state = game.new_initial_state()
    assert state.rulebook_state() is None  # the setup is being dealt
    while state.is_chance_node():
        state.apply_action(0)
    engine = state.rulebook_state()
    assert engine is not None and engine.current_players()[0] == state.current_player()


def test_resampling_keeps_the_information_state_and_changes_what_is_hidden() -> None:
    game = pyspiel.load_game("python_rulebook_battle_merchants", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while state.is_chance_node() or len(state.history()) < 150:
        if state.is_chance_node():
            state.apply_action(int(rng.choice(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    samples = [
        state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        for k in range(4)
    ]
    samples.append(resampler(state, seat))  # the same, for ISMCTSBot.set_resampler
    for sample in samples:
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
    assert any(str(sample) != str(state) for sample in samples), "nothing hidden was re-sampled"
    again = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0, 0.0, 1.0))
    assert str(again) == str(samples[0])  # the same sampler seed, the same sample
    with pytest.raises(pyspiel.SpielError, match="chance node"):
        game.new_initial_state().resample_from_infostate(0)  # the setup's first shuffle


def test_the_evaluation_evaluator_judges_leaves_as_rulebook_mcts_does() -> None:
    game = pyspiel.load_game("python_rulebook_battle_merchants", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(len(state.chance_outcomes()))))
    evaluator = EvaluationEvaluator(scale=10.0)
    position = state.rulebook_state()
    assert position is not None
    expected = np.array(leaf_rewards(position)) / 10.0
    np.testing.assert_allclose(evaluator.evaluate(state), expected)
    prior = evaluator.prior(state)
    assert sorted(a for a, _ in prior) == sorted(state.legal_actions())
    assert sum(p for _, p in prior) == pytest.approx(1.0)
    bot = mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng)
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="positive"):
        EvaluationEvaluator(scale=0.0)


def test_a_game_is_its_history() -> None:
    game = pyspiel.load_game("python_rulebook_archmagi", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal() and len(state.history()) < 400:
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    copy = game.new_initial_state()
    for action in state.history():
        copy.apply_action(action)
    assert str(copy) == str(state)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state)


def test_information_state_hides_the_others_simultaneous_choices() -> None:
    game = pyspiel.load_game("python_rulebook_merchants_of_magick", {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    before = state.information_state_string(1)
    spend = next(a for a in state.legal_actions() if state.action_to_string(a) != "done")
    state.apply_action(spend)
    assert state.current_player() == 0  # seat 0 still crafting
    assert state.information_state_string(1) == before
    assert state.information_state_string(0) != before


def test_scripted_chance_draws_dice_and_shuffles_from_its_script() -> None:
    chance = ScriptedChance([5, 0, 2, 1])
    assert chance.roll((6, 4)) == (6, 1)  # outcome k shows k + 1
    cards = ["a", "b", "c"]
    chance.shuffle(cards)  # Fisher-Yates: 2 draws, among 3 then 2
    assert chance.sizes == [6, 4, 3, 2] and sorted(cards) == ["a", "b", "c"]
    with pytest.raises(ChanceNeeded) as need:
        chance.roll((8,))
    assert need.value.outcomes == 8
    with pytest.raises(ValueError, match="not one of"):
        ScriptedChance([6]).roll((6,))


def _count(state: pyspiel.State) -> tuple[int, int]:
    """Every history and terminal history under ``state``, by enumeration."""
    if state.is_terminal():
        return 1, 1
    options = (
        [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    )
    nodes, leaves = 1, 0
    for action in options:
        n, t = _count(state.child(action))
        nodes, leaves = nodes + n, leaves + t
    return nodes, leaves


def test_the_tree_size_estimate_that_rules_out_tabular_cfr() -> None:
    kuhn = pyspiel.load_game("kuhn_poker")
    nodes, leaves = _count(kuhn.new_initial_state())
    estimate = tree_size(kuhn, 4000, seed=1)
    assert 10**estimate.log10_histories == pytest.approx(nodes, rel=0.1)
    assert 10**estimate.log10_terminals == pytest.approx(leaves, rel=0.1)
    ours = tree_size(_load(Config.of("battle-merchants", 2)), 2)
    assert ours.log10_histories > 100  # a CFR iteration visits every one of them
