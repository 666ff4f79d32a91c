"""An agent outside the process as the research adapters' opponent (``opponent="cmd:..."``):
it plays its seats through the move protocol and is told the end of every episode, played
out or abandoned (its program stopped)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from rulebook.interop.gymnasium import RulebookEnv

PROGRAM = Path(__file__).parent / "programs" / "first_move.py"


def test_an_outside_opponent_hears_every_end(tmp_path: Path) -> None:
    heard = tmp_path / "heard.jsonl"
    spec = f"cmd:{sys.executable} {PROGRAM} {heard}"
    env = RulebookEnv("ye-olde-magick-shoppe", 2, opponents=spec)
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=3)
    over = False
    while not over:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        over = terminated or truncated
    # a second episode, abandoned by close() once the opponent has moved
    observation, _ = env.reset(seed=4)
    while heard.read_text().count('"start"') < 2:
        observation, *_ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    env.close()
    messages = [json.loads(line) for line in heard.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds.count("start") == 2 and kinds.count("end") == 2 and "error" not in kinds
    ends = [m["over"] for m in messages if m["type"] == "end"]
    assert ends == [True, False]


def test_the_strength_table_and_the_ladder_seat_a_program(tmp_path: Path) -> None:
    """``strength --matchups`` and ``--ladder --rungs`` take an outside agent's spec, quoted
    where it holds a dash."""
    from typer.testing import CliRunner

    from rulebook.cli import app
    from rulebook.lab.ladder import split_pair

    assert split_pair('"cmd:./my-agent.sh"-greedy') == ("cmd:./my-agent.sh", "greedy", True)
    assert split_pair("mcts:200-greedy") == ("mcts:200", "greedy", True)
    heard = tmp_path / "heard.jsonl"
    program = f'"cmd:{sys.executable} {PROGRAM} {heard}"'
    args = ["strength", "archmagi", "-p", "2", "-n", "2", "--workers", "1", "--no-solo"]
    result = CliRunner().invoke(app, [*args, "--matchups", f"{program}-random"])
    assert result.exit_code == 0, result.output
    kinds = [json.loads(line)["type"] for line in heard.read_text().splitlines()]
    assert kinds.count("start") == 2 and kinds.count("end") == 2 and "error" not in kinds


def test_simulate_reports_an_outside_agents_tally(tmp_path: Path) -> None:
    """``simulate`` prints what an outside agent's tally adds up to, stores it with each game,
    and resumes a results file written before tallies were kept."""
    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from rulebook.cli import app
    from rulebook.lab.storage import read_results

    heard = tmp_path / "heard.jsonl"
    out = tmp_path / "games.parquet"
    spec = f"cmd:{sys.executable} {PROGRAM} {heard}"
    args = ["simulate", "archmagi", "-p", "2", "--workers", "1", "--out", str(out)]
    runner = CliRunner()
    first = runner.invoke(app, [*args, "-n", "2", "--agents", f"{spec},random"])
    assert first.exit_code == 0, first.output
    asked = sum(1 for line in heard.read_text().splitlines() if '"move"' in line)
    assert f"{spec}: moves {asked}, answers {asked}" in first.output
    stored = read_results(out)
    assert [r["tallies"][0]["moves"] for r in stored] and stored[0]["tallies"][1] == {}
    old = pq.read_table(out)
    pq.write_table(old.drop_columns(["tallies"]).replace_schema_metadata(old.schema.metadata), out)
    more = runner.invoke(app, [*args, "-n", "3", "--agents", f"{spec},random"])
    assert more.exit_code == 0, more.output
    rows = read_results(out)
    assert len(rows) == 3 and rows[0]["tallies"] == [{}, {}] and rows[2]["tallies"][0]["moves"]


def test_the_arena_records_each_incident_of_an_outside_seat(tmp_path: Path) -> None:
    """A program answering nonsense: each refusal and the table's fallback are in the
    table's row, in words, with their move numbers; the tally counts them."""
    from typer.testing import CliRunner

    from rulebook.cli import app

    nonsense = tmp_path / "nonsense.py"
    nonsense.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if '\"type\":\"move\"' in line: print('a castle', flush=True)\n"
    )
    spec = f"cmd:{sys.executable} {nonsense}"
    out = tmp_path / "arena"
    args = ["arena", "--agents", f"{spec},random", "--games", "archmagi", "--players", "2"]
    result = CliRunner().invoke(app, [*args, "--tables", "1", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    [row] = [json.loads(line) for line in (out / "tables.jsonl").read_text().splitlines()]
    seat = row["seats"].index(spec)
    incidents, tally = row["incidents"][seat], row["tally"][seat]
    assert row["incidents"][1 - seat] == []
    kinds = [i["kind"] for i in incidents]
    assert kinds.count("bad answer") == tally["bad_answers"] == 3 * tally["moves"]
    assert kinds.count("bad answers") == tally["fallbacks"] == tally["moves"] > 0
    said = {i["detail"].split(";")[0] for i in incidents if i["kind"] == "bad answer"}
    assert said == {'"a castle" is not a move'}
