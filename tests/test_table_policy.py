"""The outside agents' policy on the command line (``--retries``, ``--fallback``,
``--move-seconds`` of simulate, arena, strength and its ladder, play, record): the settings
reach the agents (and only the settings given), a forfeit ends the seat's game and is said and
stored, bad values get one line before any game, and a resumed run keeps its policy."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from rulebook.agents import make_agent
from rulebook.agents.outside import DEFAULT_SECONDS
from rulebook.agents.protocol import OutsideAgent, Policy, PolicyChanges

PROGRAMS = Path(__file__).resolve().parent / "programs"
NONSENSE = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAMS / 'nonsense.py'))}"
SILENT = f"{NONSENSE} silent"
FORFEIT = ("--retries", "0", "--fallback", "forfeit")

runner = CliRunner()


def invoke(*args: str) -> Result:
    from rulebook.cli import app

    return runner.invoke(app, list(args))


def simulate(*args: str) -> Result:
    return invoke("simulate", "battle-merchants", "-p", "2", "--workers", "1", *args)


def arena(folder: Path, *args: str) -> Result:
    return invoke(
        "arena", "--games", "battle-merchants", "--players", "2", "--tables", "2",
        "--workers", "1", "--resamples", "5", "--drops", "5", "--out", str(folder), *args,
    )  # fmt: skip


def policy_of(spec: str, changes: PolicyChanges) -> Policy:
    agent = make_agent(spec, 1, policy=changes)
    assert isinstance(agent, OutsideAgent)
    return agent.policy


def test_the_table_changes_only_the_settings_it_gives() -> None:
    assert policy_of(NONSENSE, PolicyChanges(retries=0)) == Policy(0, "random", DEFAULT_SECONDS)
    assert policy_of("ws:ws://127.0.0.1:9/x", PolicyChanges(seconds=2.5)) == Policy(
        2, "random", 2.5
    )
    given = PolicyChanges(retries=0, fallback="forfeit", seconds=5)
    # an llm: spec's own options come first; the table sets the rest
    own = policy_of("llm:m@http://127.0.0.1:9/v1?seconds=30&retries=1", given)
    assert own == Policy(1, "forfeit", 30)
    assert policy_of("llm:m@http://127.0.0.1:9/v1", given) == Policy(0, "forfeit", 5)
    assert make_agent("random", 1, policy=given).tally == {}  # bots play as they do
    whole = make_agent(NONSENSE, 1, policy=Policy(1, "forfeit", None))
    assert isinstance(whole, OutsideAgent) and whole.policy == Policy(1, "forfeit", None)


def test_simulate_plays_under_the_options_and_stores_each_forfeit(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    result = simulate("-n", "2", "--agents", f"random,{NONSENSE}", *FORFEIT, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "forfeited 2 of 2 games: each a loss" in result.output
    assert "bad answers 2, forfeits 2" in result.output  # one answer each: no retry
    rows = pq.read_table(out).to_pylist()
    assert [r["forfeit"] for r in rows] == [1, 1]
    assert all(r["winners"] == [0] and r["returns"] == [1.0, 0.0] for r in rows)
    assert json.loads(pq.read_schema(out).metadata[b"rulebook.job"])["policy"] == {
        "fallback": "forfeit",
        "retries": 0,
    }
    again = simulate("-n", "2", "--agents", f"random,{NONSENSE}", "--out", str(out))
    assert again.exit_code == 2 and "holds another job" in again.output
    assert "(outside agents: fallback forfeit, retries 0)" in again.output
    retried = simulate("-n", "1", "--agents", f"random,{NONSENSE}", "--retries", "1", "--fallback",
                       "forfeit")  # fmt: skip
    assert retried.exit_code == 0, retried.output
    assert "retries 1, bad answers 2, forfeits 1" in retried.output
    bots = tmp_path / "b.pq"  # bots play alike under any policy: their job has none
    played = simulate("-n", "1", "--agents", "random,greedy", *FORFEIT, "--out", str(bots))
    assert "forfeit" not in played.output
    assert pq.read_table(bots).column("forfeit").to_pylist() == [None]
    assert "policy" not in json.loads(pq.read_schema(bots).metadata[b"rulebook.job"])


def test_the_arena_keeps_its_policy_in_its_plan(tmp_path: Path) -> None:
    agents = ("--agents", f"random,{SILENT}")
    timed = (*FORFEIT, "--move-seconds", "0.3")
    first = arena(tmp_path / "a", *agents, *timed)
    assert first.exit_code == 0, first.output
    plan = json.loads((tmp_path / "a" / "plan.json").read_text())
    assert plan["policy"] == {"retries": 0, "fallback": "forfeit", "seconds": 0.3}
    rows = [json.loads(line) for line in (tmp_path / "a" / "tables.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        silent = row["seats"].index(SILENT)
        assert row["forfeit"] == silent and row["decided_by"] == "forfeit"
        assert [i["detail"] for i in row["incidents"][silent]] == ["no answer within 0.3 s"]
    before = {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()}
    other = arena(tmp_path / "a", *agents, *FORFEIT)
    assert other.exit_code == 2 and "holds another tournament" in other.output
    assert "outside agents: retries 0, fallback forfeit, 0.3 s a move" in other.output
    assert {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()} == before
    again = arena(tmp_path / "a", *agents, *timed)
    assert again.exit_code == 0 and "Nothing to play" in again.output
    bots = arena(tmp_path / "b", "--agents", "random,greedy", *timed)
    assert bots.exit_code == 0, bots.output
    assert json.loads((tmp_path / "b" / "plan.json").read_text())["policy"] is None


def test_the_terminal_ends_a_forfeited_game_in_one_line() -> None:
    result = invoke(
        "play", "battle-merchants", "-p", "2", "--seed", "3", "--seats", f"random,{NONSENSE}",
        *FORFEIT,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Seat 2 (cmd:" in result.output
    assert "forfeits the game: 1 answer was no legal move. The other seats win." in result.output
    assert "Traceback" not in result.output


def test_the_strength_table_and_the_ladder_play_under_the_options(tmp_path: Path) -> None:
    pair = f'"{NONSENSE}"-random'
    common = ("strength", "battle-merchants", "-p", "2", "-n", "2", "--workers", "1")
    table = invoke(*common, "--no-solo", "--matchups", pair, *FORFEIT, "--out", str(tmp_path))
    assert table.exit_code == 0, table.output
    rows = [r for f in tmp_path.glob("*.parquet") for r in pq.read_table(f).to_pylist()]
    assert len(rows) == 2 and all(r["forfeit"] is not None for r in rows)
    # the outside agent's tally, as simulate prints it (one answer a game: no retry)
    assert f"{NONSENSE}: moves 2, answers 2, bad answers 2, forfeits 2" in table.output
    ladder = invoke(*common, "--ladder", "--rungs", pair, *FORFEIT, "--out", str(tmp_path / "l"))
    assert ladder.exit_code == 0, ladder.output
    rows = [r for f in (tmp_path / "l").glob("*.parquet") for r in pq.read_table(f).to_pylist()]
    assert len(rows) == 2 and all(r["forfeit"] is not None for r in rows)
    assert f"{NONSENSE}: moves 2, answers 2, bad answers 2, forfeits 2" in ladder.output


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (("--retries", "-1"), "--retries takes a whole number, 0 or more, not '-1'"),
        (("--retries", "two"), "--retries takes a whole number, 0 or more, not 'two'"),
        (("--retries", "²"), "--retries takes a whole number, 0 or more, not '²'"),
        (("--fallback", "pass"), "--fallback takes random or forfeit, not 'pass'"),
        (("--move-seconds", "0"), "--move-seconds takes a positive number of seconds, not '0'"),
        (("--move-seconds", "inf"), "--move-seconds takes a positive number of seconds"),
        (("--move-seconds", "soon"), "--move-seconds takes a positive number of seconds"),
    ],
)
def test_bad_values_are_refused_in_one_line_before_any_game(
    tmp_path: Path, given: tuple[str, str], said: str
) -> None:
    seats = f"random,{NONSENSE}"
    pair = f'"{NONSENSE}"-random'
    out = str(tmp_path / "r.parquet")
    for command in [
        ("simulate", "battle-merchants", "-p", "2", "-n", "1", "--agents", seats),
        ("record", "battle-merchants", "-p", "2", "-n", "1", "--agents", seats, "--out", out),
        ("arena", "--agents", seats, "--games", "battle-merchants", "--out", str(tmp_path / "x")),
        ("strength", "battle-merchants", "-n", "1", "--matchups", pair, "--out", str(tmp_path)),
        ("strength", "battle-merchants", "--ladder", "--rungs", pair, "--out", str(tmp_path)),
        ("play", "battle-merchants", "-p", "2", "--seats", seats),
    ]:
        result = invoke(*command, *given)
        assert result.exit_code == 2, (command, result.output)
        assert result.output.startswith("error: ") and said in result.output, result.output
        assert result.output.count("\n") == 1, result.output
    assert list(tmp_path.iterdir()) == []
