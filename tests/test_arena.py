"""``rulebook arena``: the Plackett-Luce fit on orders drawn from known strengths, ties, the
anchor, the bootstrap's seed, the draw of the tables, and tiny real tournaments through the
command line (resumed after a stop, another plan refused, names escaped in the page)."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from rulebook.agents import RandomAgent
from rulebook.agents.protocol import Forfeit
from rulebook.arena import leaderboard, play
from rulebook.arena.plan import PlanError, lineups, make_plan, rotation
from rulebook.arena.ratings import ELO, Stages, fit, places, rate
from rulebook.arena.standings import standings
from rulebook.cli import app

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["arena", *args])


# -- the fit --------------------------------------------------------------------------------
def draw_orders(strengths: list[float], games: int, seed: int) -> list[list[list[int]]]:
    """Finishing orders drawn from the Plackett-Luce model with log-strengths ``strengths``,
    at 2 and 4 seats among the agents, one seat each."""
    rng = np.random.default_rng(seed)
    orders = []
    for g in range(games):
        size = 2 if g % 2 else min(4, len(strengths))
        seats = list(rng.choice(len(strengths), size=size, replace=False))
        order = []
        while seats:
            w = np.exp([strengths[a] for a in seats])
            k = int(rng.choice(len(seats), p=w / w.sum()))
            order.append([int(seats.pop(k))])
        orders.append(order)
    return orders


def test_the_fit_recovers_known_strengths() -> None:
    true = [0.0, 0.6, 1.3, 2.0, -0.5]
    theta = fit(Stages.of(draw_orders(true, 3000, seed=1), len(true)))
    found = theta - theta[0]
    assert np.max(np.abs(found - np.array(true))) < 0.12, found
    assert list(np.argsort(found)) == [4, 0, 1, 2, 3]


def test_two_seats_give_elo_points() -> None:
    """Bradley-Terry with a 3:1 record: the difference is 400 * log10(3) points."""
    orders = [[[0], [1]]] * 300 + [[[1], [0]]] * 100
    fitted = rate(Stages.of(orders, 2), anchor=1, seed=0, resamples=0, drops=0)
    assert fitted.ratings[1].points == 0
    assert fitted.ratings[0].points == pytest.approx(400 * math.log10(3), abs=1.0)
    assert pytest.approx(400 / math.log(10)) == ELO


def test_an_agent_that_never_loses_stays_finite() -> None:
    fitted = rate(Stages.of([[[0], [1]]] * 20, 2), anchor=1, seed=0, resamples=20, drops=5)
    assert 0 < fitted.ratings[0].points < 2000
    assert all(math.isfinite(r.high) for r in fitted.ratings)


def test_ties_share_a_place_and_count_as_even() -> None:
    """A tie for first between agents 0 and 1 picks both from the same race (Breslow); games
    tied all round leave the agents equal, and ties between two agents that otherwise
    trade wins evenly change nothing."""
    stages = Stages.of([[[0, 1], [2]]], 3)
    assert stages.race.tolist() == [[1, 1, 1]]
    assert stages.chosen.tolist() == [[1, 1, 0]]
    theta = fit(Stages.of([[[0, 1]]] * 10 + [[[0], [1]], [[1], [0]]], 2))
    assert theta[0] == pytest.approx(theta[1], abs=1e-9)
    # the game's own winners first, then by score and tie-breakers, equal keys sharing
    assert places([(5, 1), (7, 0), (5, 1), (2, 9)], [1]) == [[1], [0, 2], [3]]
    assert places([(5, 0), (5, 0), (1, 0)], [0, 1]) == [[0, 1], [2]]
    assert places([(9,), (3,)], []) == [[0], [1]]  # no winner named: by score alone


def test_the_bootstrap_and_the_drops_follow_their_seed() -> None:
    stages = Stages.of(draw_orders([0.0, 0.4, 0.8], 200, seed=2), 3)
    first = rate(stages, 0, seed=7, resamples=40, drops=40)
    assert rate(stages, 0, seed=7, resamples=40, drops=40) == first
    other = rate(stages, 0, seed=8, resamples=40, drops=40)
    assert [r.low for r in other.ratings] != [r.low for r in first.ratings]
    for r in first.ratings[1:]:
        assert r.low < r.points < r.high
    assert 0.0 <= first.stability <= 1.0 and first.top[0] == 2


# -- the anchor -----------------------------------------------------------------------------
def rows_of(orders: list[list[list[int]]], agents: list[str], game: str) -> list[dict[str, Any]]:
    """Stored tables whose seats are the agents in the orders (seat p: the p-th agent met)."""
    rows = []
    for i, order in enumerate(orders):
        seats = [agents[a] for group in order for a in group]
        at, p = [], 0
        for group in order:
            at.append(list(range(p, p + len(group))))
            p += len(group)
        rows.append(
            {"index": i, "game": game, "seats": seats, "order": at, "winners": at[0],
             "tally": [{"moves": 2.0}] * len(seats)}
        )  # fmt: skip
    return rows


def test_the_anchor_is_random_else_the_lowest_ladder_bot_else_the_first() -> None:
    orders = draw_orders([0.0, 1.0, 2.0], 120, seed=3)
    agents = ["greedy", "random", "mcts:50"]
    rows = rows_of(orders, agents, "archmagi")
    board = standings(rows, agents, ["archmagi"], seed=0, resamples=10, drops=5)
    by = {s.agent: s for s in board.overall.rows}
    assert by["random"].points == 0 and board.overall.anchor == "random"
    assert by["greedy"].points < 0 < by["mcts:50"].points  # strengths 0 < 1 < 2 above
    assert "random is fixed at 0" in board.anchor_note
    agents = ["greedy", "mcts:50", "cmd:./bot"]
    board = standings(rows_of(orders, agents, "archmagi"), agents, ["archmagi"], 0, 10, 5)
    assert (
        board.overall.anchor == "greedy" and "lowest-rated bot of the ladder" in board.anchor_note
    )
    agents = ["cmd:./a", "cmd:./b", "ws://c"]
    board = standings(rows_of(orders, agents, "archmagi"), agents, ["archmagi"], 0, 10, 5)
    assert board.overall.anchor == "cmd:./a" and "the first agent" in board.anchor_note
    assert {s.agent: s.tally["moves"] for s in board.overall.rows}["cmd:./a"] > 0


def test_the_page_escapes_every_name() -> None:
    agents = ["random", 'cmd:./bot <b>x</b> & "y"']
    rows = rows_of(draw_orders([0.0, 1.0], 20, seed=4), agents, "archmagi")
    board = standings(rows, agents, ["archmagi"], 0, 10, 5)
    page = leaderboard.render_html(board, 'summary <i>&"', 'rulebook arena --agent "<b>"')
    assert "<b>" not in page and "<i>" not in page
    assert "cmd:./bot &lt;b&gt;x&lt;/b&gt; &amp; &#34;y&#34;" in page
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")
    data = json.loads(leaderboard.ratings_json(board, {"agents": agents}))
    assert {a["agent"] for a in data["overall"]["agents"]} == set(agents)


def test_the_csv_never_holds_a_formula() -> None:
    """A name a spreadsheet would run as a formula is written as text; numbers stay numbers."""
    agents = ["random", "=HYPERLINK(1)", "@cmd", "+x", "-y"]
    rows = rows_of(draw_orders([0.0, 1.0, 0.5, 0.2, 0.1], 20, seed=4), agents, "archmagi")
    board = standings(rows, agents, ["archmagi"], 0, 10, 5)
    cells = [line.split(",") for line in leaderboard.ratings_csv(board).splitlines()[1:]]
    assert {c[1] for c in cells} == {"random", "'=HYPERLINK(1)", "'@cmd", "'+x", "'-y"}
    assert any(c[2].startswith("-") for c in cells)  # a rating below random's 0 is a number


# -- the draw -------------------------------------------------------------------------------
def test_every_agent_meets_every_other_in_every_seat() -> None:
    plan = make_plan(["random", "greedy", "mcts:5", "expert"], ["archmagi"], [2, 4], None, 10)
    tables = plan.draw()
    assert [t.seed for t in tables] == [10 + t.index for t in tables]
    for n in (2, 4):
        mine = [t for t in tables if t.players == n]
        met = {frozenset(p) for t in mine for p in itertools.combinations(t.seats, 2)}
        assert len(met) == 6
        seats = Counter((a, p) for t in mine for p, a in enumerate(t.seats))
        assert len(set(seats.values())) == 1 and len(seats) == 4 * n  # each seat equally
    assert len(rotation(("a", "b", "c"))) == 6 and len(rotation(("a", "b", "c", "d"))) == 8
    assert lineups(["a", "b"], 4) == [("a", "b", "a", "b")]
    once = make_plan(["random", "greedy"], ["archmagi"], [2], 2, 0).draw()
    assert make_plan(["random", "greedy"], ["archmagi"], [2], 6, 0).draw()[:2] == once


def test_plans_that_cannot_be_played_are_refused() -> None:
    with pytest.raises(PlanError, match="at least 2 agents"):
        make_plan(["random"], ["archmagi"], None, None, 0)
    with pytest.raises(PlanError, match="more than once"):
        make_plan(["random", "RANDOM"], ["archmagi"], None, None, 0)
    with pytest.raises(PlanError, match="takes 2-4 players"):
        make_plan(["random", "greedy"], ["archmagi"], [6], None, 0)
    assert make_plan(["random", "greedy"], ["archmagi"], None, None, 0).players == ((2, 4),)


# -- through the command line ---------------------------------------------------------------
TINY = ("--agents", "random,greedy", "--games", "archmagi", "--players", "2,3", "--tables", "3")
QUICK = ("--workers", "1", "--resamples", "20", "--drops", "10")


def stored(folder: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (folder / "tables.jsonl").read_text().splitlines()]
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in rows), key=str)


def test_a_tiny_tournament_end_to_end(tmp_path: Path) -> None:
    result = invoke(*TINY, *QUICK, "--out", str(tmp_path / "a"))
    assert result.exit_code == 0, result.output
    assert "Archmagi" in result.output and "Random is fixed at 0" in result.output
    data = json.loads((tmp_path / "a" / "ratings.json").read_text())
    ratings = {a["agent"]: a for a in data["overall"]["agents"]}
    assert ratings["random"]["rating"] == 0 and ratings["greedy"]["rating"] > 0
    assert ratings["greedy"]["tables"] == 9  # 3 at 2 seats; 3 for each of 2 line-ups at 3
    assert len(stored(tmp_path / "a")) == 9
    assert (tmp_path / "a" / "ratings.csv").read_text().startswith("game,agent,rating")
    assert "<html" in (tmp_path / "a" / "leaderboard.html").read_text()
    again = invoke(*TINY, *QUICK, "--out", str(tmp_path / "a"))
    assert "Nothing to play" in again.output
    assert json.loads((tmp_path / "a" / "ratings.json").read_text()) == data


def test_a_stopped_tournament_resumes_to_the_same_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = invoke(*TINY, *QUICK, "--out", str(tmp_path / "whole"))
    assert whole.exit_code == 0, whole.output
    played = []
    real = play.play_table

    def stops(table: Any) -> dict[str, Any]:
        if len(played) == 4:
            raise KeyboardInterrupt
        played.append(table.index)
        return real(table)

    monkeypatch.setattr(play, "play_table", stops)
    cut = invoke(*TINY, *QUICK, "--out", str(tmp_path / "cut"))
    assert cut.exit_code == 130 and "re-run the same command" in cut.output
    assert 0 < len(stored(tmp_path / "cut")) <= 4
    with (tmp_path / "cut" / "tables.jsonl").open("a") as handle:
        handle.write('{"index": 5, "game": "arch')  # a line cut short by a kill
    monkeypatch.setattr(play, "play_table", real)
    resumed = invoke(*TINY, *QUICK, "--out", str(tmp_path / "cut"))
    assert resumed.exit_code == 0 and "Resuming" in resumed.output
    assert stored(tmp_path / "cut") == stored(tmp_path / "whole")
    ratings = [json.loads((tmp_path / d / "ratings.json").read_text()) for d in ("cut", "whole")]
    assert ratings[0] == ratings[1]


def test_another_plan_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    first = invoke(*TINY, *QUICK, "--out", str(tmp_path))
    assert first.exit_code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    other = invoke(*TINY, *QUICK, "--seed", "5", "--out", str(tmp_path))
    assert other.exit_code == 2
    assert "holds another tournament" in other.output and "Traceback" not in other.output
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_bad_command_lines_get_one_line(tmp_path: Path) -> None:
    for args, said in [
        (("--agents", "random,nobody"), "no agent called"),
        (("--agents", "random,greedy", "--games", "chess"), "chess"),
        (("--agents", "random,greedy", "--players", "two"), "--players takes"),
        (("--agents", "random,greedy", "--tables", "0"), "--tables must be"),
    ]:
        result = invoke(*args, "--out", str(tmp_path / "x"))
        assert result.exit_code == 2 and said in result.output, result.output
        assert not (tmp_path / "x").exists()


class Broken(RandomAgent):
    def act(self, state: Any, player: int) -> Any:
        raise RuntimeError("the program went away\nsecond line")


class Quits(RandomAgent):
    """Forfeits at its first move (as the protocol's policy makes an outside agent do)."""

    def act(self, state: Any, player: int) -> Any:
        raise Forfeit(player, "no legal move in three answers")


def test_a_forfeit_is_last_and_a_broken_agent_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = play.make_agent
    monkeypatch.setattr(
        play,
        "make_agent",
        lambda spec, seed, policy: Quits(seed) if spec == "greedy" else real(spec, seed),
    )
    result = invoke(*TINY, *QUICK, "--out", str(tmp_path / "f"))
    assert result.exit_code == 0, result.output
    for row in stored(tmp_path / "f"):
        quitter = row["seats"].index("greedy")
        assert row["order"][-1] == [quitter] and row["decided_by"] == "forfeit"
    monkeypatch.setattr(
        play,
        "make_agent",
        lambda spec, seed, policy: Broken(seed) if spec == "greedy" else real(spec, seed),
    )
    result = invoke(*TINY, *QUICK, "--out", str(tmp_path / "b"))
    assert result.exit_code == 2
    assert "could not be played: RuntimeError: the program went away;" in result.output
    assert "Traceback" not in result.output and "second line" not in result.output
