"""Recorded games (rulebook.interop.dataset and ``rulebook record``): what is written is every
decision as it was made, read back as arrays, the same whatever the workers, on Ray too; the
outside agents' policy options; every agent told the end; a forfeited game left out, and said."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from rulebook.cli import app
from rulebook.core import RulebookError
from rulebook.core.spaces import action_space, encoder
from rulebook.interop.common import Config
from rulebook.interop.dataset import Decisions, Recording, batches, describe, load, record

PROGRAMS = Path(__file__).resolve().parent / "programs"
PYTHON = shlex.quote(sys.executable)
NONSENSE = f"cmd:{PYTHON} {shlex.quote(str(PROGRAMS / 'nonsense.py'))}"
FORFEIT = ("--retries", "0", "--fallback", "forfeit")


def _replay(decisions: Decisions, config: Config) -> None:
    """Every row is the decision made in the game replayed from its seed: the seat, what it
    saw, its legal moves, the move, and the game's end."""
    for game in np.unique(decisions.games):
        rows = np.flatnonzero(decisions.games == game)
        assert decisions.steps[rows].tolist() == list(range(len(rows)))
        state = config.new_game(int(game))
        space = action_space(state)
        encode = encoder(state.setup).encode
        for row in rows:
            seat = int(decisions.seats[row])
            assert seat == state.current_players()[0]
            np.testing.assert_array_equal(
                decisions.observations[row], encode(state.observation(seat))
            )
            assert np.flatnonzero(decisions.masks[row]).tolist() == sorted(
                space.legal_indices(state, seat)
            )
            state.apply(seat, space.action(int(decisions.actions[row])))
        assert state.is_terminal()
        seats = decisions.seats[rows]
        np.testing.assert_array_equal(decisions.returns[rows], np.array(state.returns())[seats])
        np.testing.assert_array_equal(decisions.scores[rows], np.array(state.scores())[seats])


def test_a_recording_round_trips_and_does_not_depend_on_the_workers(tmp_path: Path) -> None:
    config = Config.of("merchants-of-magick", 3)  # a simultaneous phase: seats see the start
    recording = Recording(config, ("greedy", "random", "greedy"), games=3, seed=10)
    assert record(recording, tmp_path / "two.parquet", workers=2) == 3
    record(recording, tmp_path / "one.parquet", workers=1)
    assert pq.read_table(tmp_path / "two.parquet").equals(pq.read_table(tmp_path / "one.parquet"))
    decisions = load(tmp_path / "two.parquet")
    _replay(decisions, config)
    assert set(decisions.agents) == {"greedy", "random"}
    assert (decisions.agents[decisions.seats == 1] == "random").all()
    meta = describe(tmp_path / "two.parquet")
    assert meta["game"] == "merchants-of-magick" and meta["games"] == 3
    assert decisions.observations.shape[1:] == tuple(meta["observation_shape"])
    assert decisions.masks.shape[1] == meta["actions"]
    greedy = load(tmp_path / "two.parquet", agents=["greedy"])
    assert len(greedy) == int((decisions.agents == "greedy").sum())


def test_batches_stream_the_same_rows(tmp_path: Path) -> None:
    recording = Recording(Config.of("archmagi", 2), ("random", "greedy"), games=2, seed=1)
    record(recording, tmp_path / "a.parquet")
    everything = load(tmp_path / "a.parquet")
    streamed = list(batches(tmp_path / "a.parquet", batch_size=50))
    assert [len(b) for b in streamed[:-1]] == [50] * (len(streamed) - 1)
    np.testing.assert_array_equal(np.concatenate([b.actions for b in streamed]), everything.actions)
    shuffled = list(batches(tmp_path / "a.parquet", batch_size=64, shuffle=True, seed=3))
    order = np.concatenate([b.games * 10_000 + b.steps for b in shuffled])
    assert sorted(order) == sorted(everything.games * 10_000 + everything.steps)
    assert order.tolist() != sorted(order)
    with pytest.raises(RulebookError, match="batch_size"):
        next(batches(tmp_path / "a.parquet", batch_size=0))


def test_recording_on_ray(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    config = Config.of("battle-merchants", 2)
    recording = Recording(config, ("random", "greedy"), games=2)
    assert record(recording, tmp_path / "ray.parquet", workers=1, use_ray=True) == 2
    record(recording, tmp_path / "here.parquet", workers=1)
    assert pq.read_table(tmp_path / "ray.parquet").equals(pq.read_table(tmp_path / "here.parquet"))


def test_the_record_command(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    args = ["record", "battle-merchants", "-p", "2", "-n", "2", "--agents", "greedy,random"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    _replay(load(out), Config.of("battle-merchants", 2))
    again = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert again.exit_code == 2 and "exists; not overwritten" in again.stderr
    bad = CliRunner().invoke(app, [*args[:-1], "greedy,wizard", "--out", str(tmp_path / "b")])
    assert bad.exit_code == 2 and "no agent called 'wizard'" in bad.stderr
    assert not (tmp_path / "b").exists()
    pq.write_table(pq.read_table(out).replace_schema_metadata({}), tmp_path / "plain.parquet")
    with pytest.raises(RulebookError, match="not a rulebook recording"):
        load(tmp_path / "plain.parquet")


def record_command(out: Path, agents: str, *args: str) -> Result:
    return CliRunner().invoke(app, [
        "record", "battle-merchants", "-p", "2", "-n", "1", "--workers", "1", "--agents", agents,
        "--out", str(out), *args,
    ])  # fmt: skip


def test_record_tells_every_agent_the_end_and_leaves_a_forfeited_game_out(
    tmp_path: Path,
) -> None:
    log = tmp_path / "told.jsonl"
    first = f"cmd:{PYTHON} {shlex.quote(str(PROGRAMS / 'first_move.py'))} {shlex.quote(str(log))}"
    whole = record_command(tmp_path / "whole.parquet", f"random,{first}", *FORFEIT)
    assert whole.exit_code == 0, whole.output
    told = [json.loads(line) for line in log.read_text().splitlines()]
    assert told[0]["type"] == "start" and told[-1] == {"type": "end", "over": True}
    meta = describe(tmp_path / "whole.parquet")
    assert meta["left_out"] == [] and meta["policy"] == {"retries": 0, "fallback": "forfeit"}
    assert len(set(load(tmp_path / "whole.parquet").games)) == 1

    log.unlink()
    out = tmp_path / "forfeit.parquet"
    # seat 2 moves first (seed 0), then seat 1 forfeits: the program in seat 2 is told the end
    stopped = record_command(out, f"{NONSENSE},{first}", *FORFEIT)
    assert stopped.exit_code == 0, stopped.output
    said = " ".join(stopped.output.split())
    assert f"seat 1 ({NONSENSE}) forfeited 1 game, left out of the recording (seeds 0)" in said
    assert "0 games recorded (1 left out)" in said
    told = [json.loads(line) for line in log.read_text().splitlines()]
    assert told[-1] == {"type": "end", "over": False}  # told, though the game stopped
    assert describe(out)["left_out"] == [{"game": 0, "seat": 0, "agent": NONSENSE}]
    assert len(load(out)) == 0
    bots = record_command(tmp_path / "bots.parquet", "random", *FORFEIT)
    assert bots.exit_code == 0 and "left out" not in bots.output
    assert "policy" not in describe(tmp_path / "bots.parquet")  # bots play alike under any
