"""Games that a seat forfeited (an outside agent under ``--fallback forfeit``) in the designers'
figures: ``report`` (and ``compare``) count them in the win rates only, say how many each seat
(and agent) forfeited, and read older results files, without the column, as before."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from rulebook.lab import overrides
from rulebook.lab.compare import compare
from rulebook.lab.report import render_html
from rulebook.lab.runner import Job, execute
from rulebook.lab.storage import SCHEMA, encode, read_results
from rulebook.lab.summary import forfeit_lines, summarize

GAME = "merchants-of-magick"
SHORT = {GAME: {"game.toml": {"rules": {"rounds": 3}}}}


def invoke(*args: str) -> Result:
    from rulebook.cli import app

    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    """Six short games, greedy against random (each seat of each game as played)."""
    try:
        return execute(Job(GAME, 2, ("greedy", "random"), 6, 10, override=SHORT), workers=1)
    finally:
        overrides.install(None)


def forfeited(rows: list[dict[str, Any]], seat: int, indices: set[int]) -> list[dict[str, Any]]:
    """``rows`` with games ``indices`` stopped by ``seat``'s forfeit, as simulate stores them:
    the others share the win; the scores as they stood (here: nothing yet)."""
    out = []
    for row in rows:
        if row["index"] in indices:
            n = row["players"]
            others = [p for p in range(n) if p != seat]
            row = {**row, "forfeit": seat, "winners": others, "scores": [0] * n, "moves": 1}
            row["returns"] = [1 / len(others) if p in others else 0.0 for p in range(n)]
        out.append(row)
    return out


def write(rows: list[dict[str, Any]], path: Path, keep_forfeit: bool = True) -> Path:
    """A results file of ``rows``; without ``keep_forfeit``, as written before the column."""
    table = pa.Table.from_pylist([encode(r) for r in rows], schema=SCHEMA)
    if not keep_forfeit:
        table = table.drop_columns(["forfeit"])
    pq.write_table(table, path)
    return path


def test_the_report_counts_a_forfeit_in_the_win_rates_only_and_says_so(
    games: list[dict[str, Any]], tmp_path: Path
) -> None:
    rows = forfeited(games, 1, {0, 1})
    s = summarize(rows)
    assert (s.games, s.finished, s.forfeited) == (6, 4, 2)
    seat2 = s.seats[1]
    assert (seat2.n, seat2.forfeits, seat2.scored) == (6, 2, 4)
    assert seat2.wins == sum(r["returns"][1] for r in games[2:])  # the forfeits: losses
    assert seat2.mean_score == statistics.fmean(r["scores"][1] for r in games[2:])
    assert s.seats[0].forfeits == 0 and s.seats[0].wins == 2 + sum(
        r["returns"][0] for r in games[2:]
    )
    assert {r.label: r.forfeits for r in s.agents} == {"greedy": 0, "random": 2}
    assert len(s.lengths) == 4 and min(s.lengths) > 1  # the stopped games are not lengths
    assert s.scores_by_seat[1] == [r["scores"][1] for r in games[2:]]
    assert forfeit_lines(s)[0] == "seat 2 (random) forfeited 2 of 6 games."
    assert "counts only the 4 of 6 games played to the end" in forfeit_lines(s)[-1]

    results = write(rows, tmp_path / "r.parquet")
    page_file = tmp_path / "r.html"
    result = invoke("report", str(results), "--html", str(page_file))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "seat 2 (random) forfeited 2 of 6 games." in said
    assert "counts only the 4 of 6 games played to the end" in said
    page = page_file.read_text(encoding="utf-8")
    assert '<p class="warn" id="forfeits">seat 2 (random) forfeited 2 of 6 games.' in page
    assert "<th>forfeited</th>" in page and "<th>games to the end</th>" in page
    mean = f"{seat2.mean_score:.1f}"
    assert f"<td>{mean}</td><td>4</td></tr>" in page  # the mean, over the 4 games played out
    assert "Over the 4 of 6 games played to the end" in page


def test_compare_leaves_forfeited_games_out_of_its_means_and_says_how_many(
    games: list[dict[str, Any]], tmp_path: Path
) -> None:
    rows = forfeited(games, 1, {0, 1})
    changes = {(c.section, c.name): c for c in compare(rows, games)}
    score = changes[("mean score", "seat 2 score")]
    assert score.a == statistics.fmean(r["scores"][1] for r in games[2:])
    assert score.b == statistics.fmean(r["scores"][1] for r in games)
    a, b = write(rows, tmp_path / "a.parquet"), write(games, tmp_path / "b.parquet")
    result = invoke("compare", str(a), str(b))
    assert result.exit_code == 0, result.output
    assert "A: seat 2 (random) forfeited 2 of 6 games." in " ".join(result.output.split())
    assert "B: seat" not in result.output


def test_a_run_forfeited_throughout_still_gets_its_report(
    games: list[dict[str, Any]], tmp_path: Path
) -> None:
    rows = forfeited(games, 0, set(range(6)))
    s = summarize(rows)
    assert s.finished == 0 and s.seats[0].forfeits == 6 and s.seats[1].wins == 6
    assert s.scores_by_seat == [[], []] and not s.items and not s.breakdown
    page = render_html(rows)
    assert "none was, so there are none" in page
    assert "score distributions" not in page and "<td>–</td>" in page  # no mean to give


def test_an_older_results_file_without_the_column_reports_as_before(
    games: list[dict[str, Any]], tmp_path: Path
) -> None:
    old = write(games, tmp_path / "old.parquet", keep_forfeit=False)
    assert "forfeit" not in pq.read_schema(old).names
    rows = read_results(old)
    s = summarize(rows)
    assert s.finished == s.games == 6 and not forfeit_lines(s)
    assert s.seats[1].mean_score == statistics.fmean(r["scores"][1] for r in games)
    assert render_html(rows) == render_html(read_results(write(games, tmp_path / "new.pq")))
    result = invoke("report", str(old), "--html", str(tmp_path / "old.html"))
    assert result.exit_code == 0, result.output
    assert "forfeit" not in result.output
    assert "forfeit" not in (tmp_path / "old.html").read_text(encoding="utf-8")
