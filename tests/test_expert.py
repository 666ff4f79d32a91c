"""The expert bot and its training: the value net, the self-play loop on a tiny budget (seeded,
resumable), loading the weights and the message when there are none, and the honesty of the
evaluation (it reads only what the seat may see)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import rulebook
from rulebook.agents import make_agent
from rulebook.agents.expert import (
    WEIGHTS_ENV,
    ExpertAgent,
    Judge,
    NoWeights,
    final_margins,
    has_weights,
    net_for,
    weights_name,
)
from rulebook.agents.value import ValueNet, fit
from rulebook.cli import app
from rulebook.core import RulebookError, UnknownGame
from rulebook.core.spaces import encoder
from rulebook.interop.dataset import load
from rulebook.training import Interrupted, Plan, train

GAME = "merchants-of-magick"
#: a run small enough for a test: two rounds of four games, the expert searching 5 iterations
TINY = Plan(GAME, 2, "standard", rounds=2, games=4, bot="greedy", iterations=5, epochs=2)


def played(
    seed: int, moves: int, players: int = 2, game: str = GAME, variant: str = "standard"
) -> rulebook.State:
    """A game after ``moves`` random moves (fewer if it ends first)."""
    state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
    agent = make_agent("random", seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        p = state.current_players()[0]
        state.apply(p, agent.act(state, p))
    return state


def same_weights(a: ValueNet, b: ValueNet) -> bool:
    pairs = zip([*a.weights, *a.biases], [*b.weights, *b.biases], strict=True)
    return all(np.array_equal(x, y) for x, y in pairs)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny") / "run"
    train(TINY, folder)
    return folder


# -- the value net ------------------------------------------------------------------------------
def test_the_net_learns_a_function_and_keeps_its_best_epoch() -> None:
    rng = np.random.default_rng(0)
    x = rng.random((3000, 12)).astype(np.float32)
    y = (10 * x[:, 0] - 6 * x[:, 1] * x[:, 2]).astype(np.float32)
    groups = np.arange(3000) // 10
    fitted = fit(x, y, groups, seed=1, epochs=40, hidden=(32, 16), rate=1e-3, decay=1e-4, batch=64)
    best = fitted.validation_loss[fitted.best_epoch - 1]
    assert best == min(fitted.validation_loss) == fitted.best_validation
    assert best < 0.05 * fitted.validation_loss[0]  # in units of the margins' spread
    again = fit(x, y, groups, seed=1, epochs=40, hidden=(32, 16), rate=1e-3, decay=1e-4, batch=64)
    assert same_weights(fitted.net, again.net)


def test_a_saved_net_reads_back_small_and_the_same(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.random((400, 30)).astype(np.float32)
    net = fit(x, x.sum(axis=1), np.arange(400), seed=0, epochs=2).net
    path = tmp_path / "net.npz"
    net.save(path)
    back = ValueNet.load(path)
    assert np.allclose(back.values(x), net.values(x), rtol=0.02, atol=0.05 * back.scale)
    assert back.inputs == 30
    path.write_bytes(b"not a net")
    with pytest.raises(RulebookError, match="cannot read the value weights"):
        ValueNet.load(path)


def test_fit_refuses_what_it_cannot_learn_from() -> None:
    x = np.zeros((4, 3), np.float32)
    with pytest.raises(RulebookError, match="at least 2 games"):
        fit(x, np.zeros(4, np.float32), np.zeros(4, np.int64), seed=0)
    with pytest.raises(RulebookError, match="one margin"):
        fit(x, np.zeros(3, np.float32), np.zeros(4, np.int64), seed=0)


# -- training -----------------------------------------------------------------------------------
def test_a_run_leaves_each_round_the_net_and_its_provenance(tiny_run: Path) -> None:
    name = TINY.name
    for k in range(TINY.rounds):
        assert (tiny_run / f"round-{k}" / "games.parquet").is_file()
        assert (tiny_run / f"round-{k}" / f"{name}.npz").is_file()
    decisions = load(tiny_run / "round-1" / "games.parquet")
    assert set(decisions.agents) == {"expert:5"}  # round 1: the expert plays
    assert set(decisions.games) == set(range(4, 8))  # round k: seeds seed + k * games on
    told = (tiny_run / f"{name}.toml").read_text()
    assert f'command = "{TINY.command()}"' in told and "code = " in told and "seed = 0" in told


def test_the_recorded_margins_are_the_final_ones(tiny_run: Path) -> None:
    decisions = load(tiny_run / "round-0" / "games.parquet")
    game = int(decisions.games[0])
    state = rulebook.new_game(GAME, players=2, seed=game)
    from rulebook.agents import agent_seed

    agents = [make_agent("greedy", agent_seed(game, p)) for p in range(2)]
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply(p, agents[p].act(state, p))
    margins = final_margins(state)
    rows = decisions.games == game
    assert margins[0] == -margins[1]
    assert list(decisions.margins[rows]) == [margins[s] for s in decisions.seats[rows]]


def test_a_run_is_seeded_and_an_interrupted_one_ends_the_same(
    tiny_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulebook.training as training

    real = training.fit_round
    calls = []

    def stop_in_round_1(plan: Plan, folder: Path, k: int, *rest: object) -> object:
        calls.append(k)
        if k == 1:
            raise KeyboardInterrupt
        return real(plan, folder, k, *rest)  # type: ignore[arg-type]

    folder = tmp_path / "run"
    monkeypatch.setattr(training, "fit_round", stop_in_round_1)
    with pytest.raises(Interrupted):
        train(TINY, folder)
    assert not (folder / "round-1" / f"{TINY.name}.npz").exists()
    monkeypatch.setattr(training, "fit_round", real)
    rounds = train(TINY, folder)  # goes on: round 0 is not played again
    assert [r.round for r in rounds] == [0, 1] and calls == [0, 1]
    name = f"{TINY.name}.npz"
    mine, theirs = ValueNet.load(folder / name), ValueNet.load(tiny_run / name)
    assert same_weights(mine, theirs)


def test_a_folder_of_another_run_is_refused_and_left_as_it_was(
    tiny_run: Path, tmp_path: Path
) -> None:
    other = Plan(GAME, 2, "standard", rounds=2, games=5, bot="greedy", iterations=5, epochs=2)
    before = sorted(p.name for p in tiny_run.rglob("*"))
    with pytest.raises(RulebookError, match=r"another plan \(games 4 -> 5\)"):
        train(other, tiny_run)
    assert sorted(p.name for p in tiny_run.rglob("*")) == before
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(RulebookError, match="not empty"):
        train(TINY, tmp_path)
    with pytest.raises(RulebookError, match="at least 2 games"):
        Plan(GAME, 2, "standard", games=1)
    with pytest.raises(UnknownGame, match="no agent"):
        Plan(GAME, 2, "standard", bot="wizard")


def test_rulebook_train_runs_from_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    args = [
        "train", GAME, "-p", "2", "--rounds", "1", "--games", "3", "--bot", "greedy",
        "--epochs", "1", "--workers", "1", "--out", str(folder),
    ]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "round 0: 3 games" in result.output and "validation error" in result.output
    assert (folder / "merchants-of-magick-standard-2p.npz").is_file()
    again = CliRunner().invoke(app, [*args[:-2], "--games", "4", "--out", str(folder)])
    assert again.exit_code == 2 and "holds a run of another plan" in again.output


# -- the expert ---------------------------------------------------------------------------------
def test_without_weights_the_expert_says_how_to_train_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WEIGHTS_ENV, str(tmp_path))
    state = played(1, 0)
    assert not has_weights(state.setup)
    expert = make_agent("expert:10", 1)
    with pytest.raises(NoWeights, match=r"not been trained for Merchants of Magick \(standard, 2"):
        expert.act(state, 0)
    with pytest.raises(NoWeights, match="rulebook train merchants-of-magick --players 2"):
        expert.act(state, 0)


def test_weights_of_another_encoder_are_refused(
    tiny_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = ValueNet.load(tiny_run / f"{TINY.name}.npz")
    net.weights[0] = net.weights[0][:-1]
    net.mean, net.std = net.mean[:-1], net.std[:-1]
    net.save(tmp_path / f"{TINY.name}.npz")
    monkeypatch.setenv(WEIGHTS_ENV, str(tmp_path))
    with pytest.raises(NoWeights, match="retrain them"):
        ExpertAgent(1, iterations=5).act(played(1, 0), 0)


def test_the_expert_plays_whole_games_with_its_weights(
    tiny_run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WEIGHTS_ENV, str(tiny_run))
    state = played(2, 0)
    assert has_weights(state.setup) and net_for(state.setup).inputs > 0
    seats = [make_agent("expert:8", 1), make_agent("greedy", 2)]
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply(p, seats[p].act(state, p))
    assert make_agent("expert:0.01s", 3).name == "expert"
    with pytest.raises(UnknownGame, match="bad expert budget"):
        make_agent("expert:fast")


def test_the_evaluation_reads_only_what_the_seat_may_see(
    tiny_run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For every seat, the value of a position and of every re-sampling of what that seat
    cannot see (other sheets' face-down cards, the deck's order, future dice) are the same."""
    monkeypatch.setenv(WEIGHTS_ENV, str(tiny_run))
    rng = random.Random(5)
    for seed in range(6):
        state = played(seed, rng.randrange(0, 30))
        judge = Judge(state.setup)
        values = judge(state)
        for p in range(2):
            for _ in range(3):
                other = state.determinize(p, random.Random(rng.getrandbits(32)))
                assert judge(other)[p] == values[p]


def test_commands_refuse_an_untrained_expert_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulebook.lab.runs import RunError, RunSpec

    monkeypatch.setenv(WEIGHTS_ENV, str(tmp_path))
    for args in (
        ["simulate", GAME, "-p", "2", "--agents", "expert,greedy", "-n", "2"],
        ["strength", GAME, "-p", "2", "--matchups", "expert:50-greedy", "--games", "2"],
        ["strength", GAME, "-p", "2", "--ladder", "--rungs", "expert-greedy", "--games", "2"],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "the expert bot has not been trained for Merchants of Magick" in result.output
    spec = RunSpec("simulate", GAME, 2, 4, 0, None, {}, ("expert", "greedy"))
    with pytest.raises(RunError, match="rulebook train merchants-of-magick"):
        spec.check()


CONFIGS = [
    ("merchants-of-magick", 2, "standard"),
    ("ye-olde-magick-shoppe", 3, "standard"),
    ("battle-merchants", 4, "standard"),
    ("pandoria-merchants", 2, "standard"),
    ("archmagi", 3, "standard"),
]


@pytest.mark.parametrize(("game", "players", "variant"), CONFIGS)
def test_the_canonical_copy_depends_only_on_what_the_seat_sees(
    game: str, players: int, variant: str
) -> None:
    """Two states that differ only in what a seat cannot see give that seat the same
    canonical copy, so a search from it cannot tell them apart."""
    rng = random.Random(11)
    for seed in range(8):
        state = played(seed, rng.randrange(0, 60), players, game, variant)
        for p in range(players):
            other = state.determinize(p, random.Random(rng.getrandbits(32)))
            assert other.canonical(p).snapshot() == state.canonical(p).snapshot()


def untrained_weights(folder: Path, game: str, players: int, variant: str) -> None:
    """Weights of the right shape for a configuration (fitted to noise: for tests of how the
    expert reads, not of how it plays)."""
    setup = rulebook.get_game(game).setup(players, 0, variant)
    size = int(np.prod(encoder(setup).shape))
    rows = np.random.default_rng(0).random((40, size)).astype(np.float32)
    net = fit(rows, rows[:, 0] * 10, np.arange(40), seed=0, epochs=1).net
    net.save(folder / f"{weights_name(setup)}.npz")


@pytest.mark.parametrize(("game", "players", "variant"), CONFIGS)
def test_the_experts_decision_and_value_do_not_depend_on_what_it_cannot_see(
    game: str, players: int, variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The expert, seeded alike, decides the same and values it the same in a position and in
    re-samplings of everything its seat cannot see (other hands, deck orders, future dice)."""
    untrained_weights(tmp_path, game, players, variant)
    monkeypatch.setenv(WEIGHTS_ENV, str(tmp_path))
    rng = random.Random(9)
    decided = 0
    for seed in range(4):
        state = played(seed, rng.randrange(2, 40), players, game, variant)
        if state.is_terminal():
            continue
        p = state.current_players()[0]
        expert = ExpertAgent(seed, iterations=40)
        move, value = expert.act(state, p), expert.last_value
        for _ in range(2):
            other = state.determinize(p, random.Random(rng.getrandbits(32)))
            again = ExpertAgent(seed, iterations=40)
            assert (again.act(other, p), again.last_value) == (move, value)
        decided += expert.last_iterations > 0
    assert decided >= 2  # real searches, not forced moves


@pytest.mark.parametrize(("game", "players", "variant"), CONFIGS)
def test_each_games_evaluation_of_a_seat_reads_only_what_that_seat_sees(
    game: str, players: int, variant: str
) -> None:
    """The hand-written evaluation the expert corrects: a seat's value is the same in every
    re-sampling of what that seat cannot see."""
    rng = random.Random(4)
    for seed in range(6):
        state = played(seed, rng.randrange(0, 60), players, game, variant)
        evaluate = state.game.evaluate
        assert evaluate is not None
        for p in range(players):
            other = state.determinize(p, random.Random(rng.getrandbits(32)))
            assert evaluate(other, p) == evaluate(state, p)
