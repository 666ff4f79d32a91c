"""``rulebook tune``: the search finds a known optimum (the coin duel of ``tests/toyland``,
whose data sets a faction's chance to win), resumes an interrupted run without restarting it,
and refuses bad knob files and targets with one line, running and writing nothing."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import optuna
import pytest
from typer.testing import CliRunner

from rulebook.cli import app
from rulebook.core import registry
from rulebook.lab import overrides
from rulebook.lab.overrides import read_override
from rulebook.lab.runner import Job, execute
from rulebook.lab.tune import KnobError, Plan, TargetError, Tuner, parse_target, read_knobs, tune
from rulebook.lab.tune.knobs import Knob
from rulebook.lab.tune.target import check_target
from toyland.duel import DUEL

KNOBS = """
target = "factions<=4"

[[knob]]
name = "heads"
path = '"coin-duel"."duel.toml".coin.heads'
range = [0.2, 0.8]
step = 0.1

[[knob]]
name = "ribbon"
path = '"coin-duel"."duel.toml".coin.ribbon'
range = [1, 5]
"""


@pytest.fixture(autouse=True)
def _coin_duel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The coin duel is a registered game during each test of this module only."""
    monkeypatch.setitem(registry._GAMES, DUEL.name, DUEL)
    yield
    overrides.install(None)


def knob_file(tmp_path: Path, text: str = KNOBS) -> Path:
    path = tmp_path / "knobs.toml"
    path.write_text(text, encoding="utf-8")
    return path


def plan(tmp_path: Path, **kw: Any) -> Plan:
    found = read_knobs(knob_file(tmp_path), "coin-duel", 2, None)
    assert found.target is not None
    settings: dict[str, Any] = {"trial_games": 400, "repeats": 3, "budget": 9000, "confirm": 800}
    settings.update(kw)
    return Plan(
        "coin-duel", 2, ("random", "random"), found.knobs, parse_target(found.target), **settings
    )


def run_games(job: Job, path: Path) -> list[dict[str, Any]]:
    return execute(job, path, workers=1)


# -- the search ------------------------------------------------------------------------------
def test_the_tuner_finds_the_even_chance_and_leaves_the_idle_knob_alone(tmp_path: Path) -> None:
    out = tmp_path / "run"
    outcome, changes = tune(plan(tmp_path), out, run_games, command="test")
    best = outcome.chosen.values
    assert best["heads"] == pytest.approx(0.5)  # the only value within 4 points of 50%
    assert best["ribbon"] == 3  # changes nothing: the smallest change keeps it
    before, after = outcome.measures
    assert before.objective > 20 and after.met  # 80/20 before; within 4 points after
    trials = outcome.trials[0]
    assert trials[0].role == "original" and trials[0].values["heads"] == 0.8
    assert any(c.section == "win rate per faction" and c.test.significant for c in changes)
    written = read_override(out / "override.toml")
    assert written == {"coin-duel": {"duel.toml": {"coin": {"heads": 0.5}}}}
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert result["confirmation"]["met"] and result["confirmation"]["seeds_from"] == 2_000_000
    assert result["selection"]["seeds_from"] == 1_000_000
    page = (out / "report.html").read_text(encoding="utf-8")
    assert (
        "Each knob" in page
        and "Win rate per faction" in page
        and page.count("data:image/png;base64") >= 5
    )


def test_common_random_numbers_give_equal_candidates_equal_games(tmp_path: Path) -> None:
    tuner = Tuner(plan(tmp_path), tmp_path / "run", run_games)
    a = tuner.rows({"heads": 0.5, "ribbon": 3}, 0)[None]
    b = tuner.rows({"heads": 0.5, "ribbon": 5}, 0)[None]
    assert [r["seed"] for r in a] == [r["seed"] for r in b] == list(range(400))
    assert [r["winners"] for r in a] == [r["winners"] for r in b]
    assert (
        tuner.standing({"heads": 0.5, "ribbon": 3}, 1).rank
        < tuner.standing({"heads": 0.5, "ribbon": 5}, 1).rank
    )  # same objective: the smaller change ranks first
    assert tuner.rows({"heads": 0.5, "ribbon": 3}, 1)[None][0]["seed"] == 400


class Interrupt:
    """Plays games, but raises KeyboardInterrupt (as Ctrl-C does) at the ``after``-th call."""

    def __init__(self, after: int | None) -> None:
        self.after = after
        self.calls: list[tuple[int, str]] = []

    def __call__(self, job: Job, path: Path) -> list[dict[str, Any]]:
        self.calls.append((job.seed, job.to_dict()["override"]))
        if self.after is not None and len(self.calls) == self.after:
            execute(job, path, workers=1)  # stored, as the runner stores what finished
            raise KeyboardInterrupt
        return execute(job, path, workers=1)


def test_an_interrupted_run_continues_its_study(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = Interrupt(after=6)
    with pytest.raises(KeyboardInterrupt):
        tune(plan(tmp_path), out, first)
    study = optuna.load_study(study_name="tune", storage=_storage(out))
    kept = [(t.number, t.params, t.state.name) for t in study.get_trials()]
    assert kept and kept[-1][2] == "RUNNING"  # the interruption came during a trial
    assert not (out / "override.toml").exists()
    second = Interrupt(after=None)
    outcome, _ = tune(plan(tmp_path), out, second)
    again = optuna.load_study(study_name="tune", storage=_storage(out)).get_trials()
    assert [(t.number, t.params) for t in again[: len(kept)]] == [(n, p) for n, p, _ in kept]
    assert all(t.state.name == "COMPLETE" for t in again) and len(again) > len(kept)
    assert not set(first.calls) & set(second.calls)  # no block of games played twice
    assert outcome.chosen.values["heads"] == pytest.approx(0.5)


def _storage(out: Path) -> optuna.storages.JournalStorage:
    from optuna.storages.journal import JournalFileBackend

    return optuna.storages.JournalStorage(JournalFileBackend(str(out / "study.journal")))


def test_a_folder_holding_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    tune(plan(tmp_path, budget=400, confirm=50), out, run_games)
    from rulebook.lab.tune import TuneError

    with pytest.raises(TuneError, match="holds another tuning run"):
        tune(plan(tmp_path, budget=400, confirm=50, trial_games=300), out, run_games)


# -- knob files and targets ------------------------------------------------------------------
BAD_KNOBS = {
    "unknown game": ('pandoria."duel.toml".coin.heads', "range = [0.1, 0.9]", "names game"),
    "unknown file": ('"coin-duel"."dual.toml".coin.heads', "range = [0.1, 0.9]", "no data file"),
    "unknown key": ('"coin-duel"."duel.toml".coin.tails', "range = [0.1, 0.9]", "no key 'tails'"),
    "empty range": ('"coin-duel"."duel.toml".coin.heads', "range = [0.9, 0.1]", "is empty"),
    "bad step": (
        '"coin-duel"."duel.toml".coin.heads',
        "range = [0.1, 0.9]\nstep = 0.3",
        "not a multiple",
    ),
    "float range of a whole number": (
        '"coin-duel"."duel.toml".coin.ribbon',
        "range = [0.5, 4]",
        "whole number",
    ),
    "wrong type of value": (
        '"coin-duel"."duel.toml".coin.ribbon',
        'values = [1, "two"]',
        "is a str",
    ),
    "a table, not a value": ('"coin-duel"."duel.toml".coin', "values = [1, 2]", "is a table"),
    "not a dotted key": ('"coin-duel".', "range = [0.1, 0.9]", "not a TOML dotted key"),
    "refused by the data": (
        '"coin-duel"."duel.toml".coin.ribbon',
        "values = [1, 2.5]",
        "is a float",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_KNOBS))
def test_bad_knob_files_are_refused_in_one_line_and_nothing_is_run(
    tmp_path: Path, case: str
) -> None:
    path, space, message = BAD_KNOBS[case]
    knobs = knob_file(tmp_path, f"target = \"factions<=5\"\n[[knob]]\npath = '{path}'\n{space}\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["tune", "coin-duel", "--knobs", str(knobs), "--out", str(out), "--budget", "10"]
    )
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not out.exists()  # nothing run, nothing written


def test_the_data_refuses_a_value_before_anything_runs(tmp_path: Path) -> None:
    text = '[[knob]]\npath = \'archmagi."magi.toml".magi."Lightning Magi".plays\'\n'
    with pytest.raises(KnobError, match=r"plays.*= -1.*greater than or equal to 0"):
        read_knobs(knob_file(tmp_path, text + "range = [-1, 3]\n"), "archmagi", 4, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[[knob]]\npath = \'"coin-duel"."duel.toml".coin.heads\'\nrange = [0.1, 0.9]\n'
            "size = 3\n",
            "unknown key(s) size",
        ),
        ("targets = 'factions<=5'\n", "unknown key(s) targets"),
        ("target = 'factions<=5'\n", "no [[knob]] table"),
        ('[[knob]]\npath = \'"coin-duel"."duel.toml".coin.heads\'\n', "either range"),
        ("[[knob]\n", "not valid TOML"),
    ],
)
def test_malformed_knob_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(KnobError) as found:
        read_knobs(knob_file(tmp_path, text), "coin-duel", 2, None)
    assert message in str(found.value) and "\n" not in str(found.value)


def test_targets() -> None:
    terms = parse_target("2*factions<=3, seats<=5 ,0.5*moves in 100..200, flips in 1..1")
    assert [str(t) for t in terms] == [
        "2*factions<=3",
        "seats<=5",
        "0.5*moves in 100..200",
        "flips in 1..1",
    ]
    for bad, message in [
        ("factions<5", "not understood"),
        ("factions<=5, factions<=3", "twice"),
        ("moves in 9..1", "empty"),
        ("", "empty"),
        ("0*seats<=4", "positive"),
    ]:
        with pytest.raises(TargetError, match=message):
            parse_target(bad)
    with pytest.raises(TargetError, match="no factions"):
        check_target(parse_target("factions<=5"), False, set())
    with pytest.raises(TargetError, match="no counter 'flops'"):
        check_target(parse_target("flops in 1..2"), True, {"flips"})


def test_knob_spaces_and_distance() -> None:
    heads = Knob("heads", ("coin-duel", "duel.toml", "coin", "heads"), 0.8, 0.2, 0.8, 0.1)
    assert heads.contains(0.5) and not heads.contains(0.55) and not heads.contains(0.9)
    assert heads.distance(0.5) == pytest.approx(0.5)
    items = Knob("items", ("g", "f", "k"), ["a", "b"], values=(["a", "b"], ["c"]))
    assert items.value(items.param(["c"])) == ["c"] and items.distance(["c"]) == 1.0


def test_the_command_writes_the_override_the_report_and_the_comparison(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "tune",
        "coin-duel",
        "--knobs",
        str(knob_file(tmp_path)),
        "--out",
        str(out),
        "--budget",
        "2000",
        "--trial-games",
        "200",
        "--confirm",
        "400",
        "--workers",
        "1",
        "--target",
        "factions<=8",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Win rate per faction" in result.output and "target" in result.output
    override = tomllib.loads((out / "override.toml").read_text(encoding="utf-8"))
    assert 0.4 <= override["coin-duel"]["duel.toml"]["coin"]["heads"] <= 0.6
    assert "win rate per faction" in (out / "compare.txt").read_text(encoding="utf-8")
    again = CliRunner().invoke(app, args)  # a finished run: re-running plays nothing new
    assert again.exit_code == 0 and "Best of" in again.output


def test_an_unwritable_out_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["tune", "coin-duel", "--knobs", str(knob_file(tmp_path)), "--out", str(blocker)]
    )
    assert result.exit_code == 2 and "is a file" in result.output


# -- issue 26: wording, held-out confirmation, rungs, restarts --------------------------------
class Recorder:
    """Plays games and records the first seed, the agents and the file of every job."""

    def __init__(self) -> None:
        self.jobs: list[tuple[int, tuple[str, ...], str]] = []

    def __call__(self, job: Job, path: Path) -> list[dict[str, Any]]:
        self.jobs.append((job.seed, job.agents, path.name))
        return execute(job, path, workers=1)


def test_confirmation_uses_seeds_no_search_nor_selection_used(tmp_path: Path) -> None:
    """Issue 26: a confirmation on the seeds a choice was made on is biased upward. Each
    restart searches on seeds of its own; the restarts' best and the data files' values are
    chosen among on held-out seeds; the chosen one is confirmed on seeds used by nothing
    before, and both figures are reported, the target judged on the fresh ones."""
    recorder = Recorder()
    p = plan(tmp_path, trial_games=100, repeats=2, budget=600, confirm=300, restarts=2, select=200)
    outcome, _ = tune(p, tmp_path / "run", recorder)
    seeds: dict[str, set[int]] = {"search": set(), "select": set(), "confirm": set()}
    for seed, _, name in recorder.jobs:
        kind = "search" if name.startswith("block-") else "confirm"
        kind = kind if name.startswith(("block-", "before", "after")) else "select"
        seeds[kind].add(seed)
    assert seeds["search"] <= set(range(0, 400, 100)) and {0, 200} <= seeds["search"]
    assert seeds["select"] == {1_000_000} and seeds["confirm"] == {2_000_000}
    assert (tmp_path / "run" / "before.parquet").exists()
    assert len(outcome.selection) >= 2 and outcome.selection[0].label == "data files"
    assert {h.measure.games for h in outcome.selection} == {200}
    result = json.loads((tmp_path / "run" / "result.json").read_text(encoding="utf-8"))
    assert result["selection"]["seeds_from"] == 1_000_000
    assert result["confirmation"]["seeds_from"] == 2_000_000 and result["confirmation"]["fresh"]
    assert result["confirmation"]["met"] == outcome.measures[1].met
    assert len(result["search"]["restarts"]) == 2
    assert (tmp_path / "run" / "restart-2" / "study.journal").exists()
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "Held-out selection" in page and "used by no search nor selection" in page


#: the knob file with its ribbon alone (a knob that changes nothing)
IDLE = 'target = "factions<=4"\n' + KNOBS[KNOBS.index('[[knob]]\nname = "ribbon"') :]


def test_a_budget_too_small_says_what_it_found_and_what_to_raise(tmp_path: Path) -> None:
    """Issue 26: a run whose budget finds nothing better ended "no change: the data files
    already do best" although the target was missed."""
    out = tmp_path / "run"
    args = ["tune", "coin-duel", "--knobs", str(knob_file(tmp_path, IDLE)), "--out", str(out)]
    sizes = ["--budget", "150", "--trial-games", "50", "--confirm", "100", "--select", "100"]
    result = CliRunner().invoke(app, [*args, *sizes, "--workers", "1"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert (
        "No candidate beat the data files' values within the budget (2 trials, 150 games)" in said
    )
    assert "Target NOT met on 100 fresh games" in said
    assert "raise --budget (now 150 games per restart) or --restarts (now 1)" in said
    assert "objective: the points (or units) by which the games miss the target" in said
    assert "already do best" not in said
    override = (out / "override.toml").read_text(encoding="utf-8")
    assert "# Target NOT met" in override and "# (objective: the points" in override


def test_a_target_at_a_rung_of_the_ladder(tmp_path: Path) -> None:
    """Issue 26: a term measured on games of one greedy seat against random ones: the greedy
    seat's win rate per faction (Heads 80%, Tails 20% with the file's coin) against their
    mean; the tuner finds the even coin."""
    terms = parse_target("factions<=4 @ greedy-random, moves in 1..1")
    assert [str(t) for t in terms] == ["factions<=4 @ greedy-random", "moves in 1..1"]
    p = plan(tmp_path, budget=2400, trial_games=200, repeats=2, confirm=400, select=400)
    p = Plan(
        p.game,
        p.players,
        p.agents,
        p.knobs,
        terms,
        trial_games=200,
        repeats=2,
        budget=2400,
        confirm=400,
        select=400,
    )
    recorder = Recorder()
    outcome, _ = tune(p, tmp_path / "run", recorder)
    assert {agents for _, agents, _ in recorder.jobs} == {
        ("random", "random"),
        ("greedy", "random"),
    }
    assert outcome.chosen.values["heads"] == pytest.approx(0.5)
    before = outcome.measures[0]
    assert before.figures["factions<=4 @ greedy-random"] == pytest.approx(30, abs=6)
    assert (tmp_path / "run" / "after@greedy-random.parquet").exists()
    tables = (tmp_path / "run" / "tables.md").read_text(encoding="utf-8")
    assert "Win rate per faction, one greedy seat against random, seats rotating" in tables
    for bad, message in [
        ("seats<=3 @ greedy-random", "seat terms need one agent in every seat"),
        ("factions<=3 @ nobody", "rung 'nobody'"),
        ("factions<=3 @ greedy, factions<=3 @ greedy", "twice"),
    ]:
        with pytest.raises(TargetError, match=message):
            parse_target(bad)
