"""Results a designer can trust (issue 26): the small-run notice read from the intervals, Holm's
correction wherever several p-values are shown, shared wins said where they are counted, and a
data override naming no entry refused before anything is drawn."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rulebook
from rulebook.cli import app
from rulebook.cli.lab import changes_table
from rulebook.core.data import DataError
from rulebook.lab import overrides
from rulebook.lab.compare import Change, corrected
from rulebook.lab.report import render_html
from rulebook.lab.stats import Test as ZTest
from rulebook.lab.stats import holm, precision


def test_holm_against_a_case_worked_by_hand() -> None:
    """m = 4: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; the
    last is raised to 0.06 (the adjusted p-values never decrease along the order)."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]  # capped at 1
    assert holm([0.02]) == [0.02]  # one test: nothing to correct
    assert holm([]) == []


def test_holm_against_its_definition() -> None:
    """Holm rejects H(1..k) for the largest k with p(j) <= 0.05 / (m - j + 1) for every j <= k:
    the adjusted p-values below 0.05 are exactly those."""
    cases = [[0.001, 0.011, 0.02, 0.04, 0.3], [0.01] * 6, [0.0001 * i for i in range(1, 30)]]
    for ps in cases:
        m = len(ps)
        order = sorted(range(m), key=lambda i: ps[i])
        rejected = set()
        for rank, i in enumerate(order):
            if ps[i] > 0.05 / (m - rank):
                break
            rejected.add(i)
        assert {i for i, a in enumerate(holm(ps)) if a < 0.05} == rejected


def _change(p: float, name: str) -> Change:
    return Change("counters", name, 1.0, 2.0, ZTest(1.0, 2.0, p))


def test_compare_highlights_only_what_survives_the_correction() -> None:
    """The issue's case: p = 0.011 among 30 tests was marked; corrected (0.33) it is not, while
    a p of 0.0001 among the same 30 survives (0.003)."""
    changes = corrected(
        [_change(0.011, "lucky"), _change(0.0001, "real")]
        + [_change(0.2 + i / 100, f"c{i}") for i in range(28)]
    )
    by_name = {c.name: c for c in changes}
    assert by_name["lucky"].adjusted == pytest.approx(0.011 * 29)
    assert not by_name["lucky"].significant and by_name["lucky"].test.significant
    assert by_name["real"].significant and by_name["real"].adjusted == pytest.approx(0.003)
    table, _ = changes_table(changes, "t", True)
    styles = {row: table.rows[row].style for row in range(len(changes))}
    assert [changes[r].name for r, style in styles.items() if style] == ["real"]
    assert [c.header for c in table.columns][-2:] == ["p", "Holm"]


def test_the_small_run_notice_comes_from_the_intervals() -> None:
    small = precision([("seat 0", 3, 20), ("seat 1", 11, 20)], 20)
    assert small.small and small.half_width == pytest.approx(50 * (0.7418 - 0.3421), abs=0.05)
    assert small.note().startswith("Small run (20 games): its widest 95% interval (seat 1)")
    assert "±20.0 points" in small.note()
    assert small.games_needed == 400  # 20 games x (20 / 5)^2 = 320, rounded up to hundreds
    # a faction seen in a quarter of the seat-games: the run's games scale, not the faction's
    faction = precision([("Fire", 2.5, 10)], 10)
    assert faction.games_needed == math.ceil(10 * (faction.half_width / 5) ** 2 / 100) * 100
    large = precision([("a", 500, 2000), ("b", 520, 2000)], 2000)
    assert not large.small and large.note() == ""


def rows(wins: list[list[float]], factions: list[str] | None = None) -> list[dict[str, Any]]:
    """Stored rows of made-up 4-player games: ``wins[g]`` the returns of game g."""
    return [
        {
            "index": g,
            "seed": g,
            "game": "archmagi",
            "variant": "standard",
            "options": "{}",
            "players": 4,
            "agents": ["greedy"] * 4,
            "scores": [int(10 * w) for w in returns],
            "winners": [p for p, w in enumerate(returns) if w],
            "returns": returns,
            "moves": 100,
            "breakdown": [{"favor": 1.0}] * 4,
            "counters": [{"spells": 1.0}] * 4,
            "factions": factions or [],
            "rating": None,
            "override": "",
            "seconds": 0.1,
        }
        for g, returns in enumerate(wins)
    ]


def test_a_20_game_report_says_it_is_a_smoke_test_and_corrects_its_tests() -> None:
    """The issue's report: seat 1 wins 11 of 20 (p = 0.00195 against 25%); it is still
    significant after Holm (0.0078), but the page now says 20 games cannot tell a few points."""
    games = [[0, 1, 0, 0]] * 11 + [[1, 0, 0, 0]] * 3 + [[0, 0, 1, 0]] * 3 + [[0, 0, 0, 1]] * 3
    page = render_html(rows(games))
    assert "Small run (20 games): its widest 95% interval (seat 2 (greedy)) reaches ±" in page
    assert "Holm" in page and "0.00195" in page and "0.00778" in page
    large = render_html(rows(games * 40))
    assert "Small run" not in large


def test_shared_wins_are_said_where_they_are_counted(tmp_path: Path) -> None:
    shared = [[0.5, 0.5, 0, 0], [0, 0, 1, 0]]
    factions = ["Fire Magi", "Water Magi", "Flora Magi", "Lightning Magi"]
    page = render_html(rows(shared, factions))
    faction_table = page[page.index("Win rate per faction") :]
    assert "wins (a tie shares one win)" in faction_table
    result = CliRunner().invoke(
        app, ["simulate", "archmagi", "-p", "2", "-n", "2", "--agents", "random", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "a game won by k seats together counts 1/k for each" in " ".join(result.output.split())


def test_an_override_naming_no_entry_fails_before_any_progress_bar(tmp_path: Path) -> None:
    path = tmp_path / "o.toml"
    path.write_text('["archmagi"."magi.toml".magi.fire]\nplays = 3\n', encoding="utf-8")
    args = ["simulate", "archmagi", "-p", "4", "-n", "4", "--agents", "greedy"]
    result = CliRunner().invoke(app, [*args, "--data-override", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""  # no progress bar, no table: nothing was played
    assert result.stderr.count("\n") == 1
    assert "override names no entry 'fire'; the entries are 'Fire Magi', 'Water Magi'" in (
        " ".join(result.stderr.split())
    )
    json.dumps(result.stderr)  # one plain line
    # the refused override does not stay in force in this process
    with pytest.raises(DataError, match="no entry 'fire'"):
        overrides.check(overrides.read_override(path), "archmagi", 4, None)
    assert rulebook.new_game("archmagi", players=4, seed=0).num_players == 4
