"""A ladder of skill (issue 26): the candidate's win rate per faction at each rung, each
faction's gain from skill, in ``rulebook strength --ladder`` and in the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rulebook.cli import app
from rulebook.lab.ladder import Rung, RungError, ladder_table, rates
from rulebook.lab.report import render_html


def game(
    index: int, agents: list[str], factions: list[str], returns: list[float]
) -> dict[str, Any]:
    return {
        "index": index,
        "seed": index,
        "game": "archmagi",
        "variant": "standard",
        "options": "{}",
        "players": 2,
        "agents": agents,
        "scores": [int(10 * w) for w in returns],
        "winners": [p for p, w in enumerate(returns) if w],
        "returns": returns,
        "moves": 10,
        "breakdown": [{"favor": 1.0}] * 2,
        "counters": [{}] * 2,
        "factions": factions,
        "rating": None,
        "override": "",
        "seconds": 0.1,
    }


def test_a_candidate_rung_measures_the_candidate_per_faction_against_their_mean() -> None:
    """mcts wins 3 of 4 games as Fire and 1 of 4 as Flora (seats rotating): 75% and 25%
    against their mean 50%; greedy in every seat: each faction against 1/2."""
    rung = Rung.parse("mcts:5-greedy")
    assert (
        rung.mixed
        and str(rung) == "mcts:5-greedy"
        and rung.agents(3) == ("mcts:5", "greedy", "greedy")
    )
    rows = []
    for i in range(8):
        seat = i % 2
        agents = ["greedy", "greedy"]
        agents[seat] = "mcts:5"
        factions = ["Fire", "Flora"] if i < 4 else ["Flora", "Fire"]
        fire = factions.index("Fire")
        mine = factions[seat]
        wins = (i < 3) if mine == "Fire" else (i == 4)
        returns = [0.0, 0.0]
        returns[seat if wins else 1 - seat] = 1.0
        rows.append(game(i, agents, factions, returns))
        assert fire in (0, 1)
    found = {r.label: r for r in rates(rows, rung, "faction")}
    assert found["Fire"].n == found["Flora"].n == 4
    assert found["Fire"].rate + found["Flora"].rate == pytest.approx(2 * found["Fire"].expected)
    plain = Rung.parse("greedy")
    assert not plain.mixed and str(plain) == "greedy"
    table = ladder_table(
        [plain, rung], [[game(0, ["greedy"] * 2, ["Fire", "Flora"], [1.0, 0.0])], rows]
    )
    gains = {r.faction: r.gain for r in table}
    assert gains["Fire"] == pytest.approx(100 * (found["Fire"].rate - 1.0))
    with pytest.raises(RungError, match="no agent called 'wizard'"):
        Rung.parse("wizard-greedy")


def test_strength_ladder_plays_each_rung_and_shows_the_gain(tmp_path: Path) -> None:
    md = tmp_path / "ladder.md"
    args = ["strength", "archmagi", "--ladder", "--rungs", "random-greedy,greedy", "--games", "4"]
    result = CliRunner().invoke(
        app, [*args, "--workers", "1", "--out", str(tmp_path / "o"), "--markdown", str(md)]
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "Fire Magi" in said and "gain: greedy minus greedy" not in said
    assert "Small run (4 games)" in said
    text = md.read_text(encoding="utf-8")
    assert "| faction | random-greedy | greedy | gain |" in text
    assert len(list((tmp_path / "o").glob("*.parquet"))) == 2
    refused = CliRunner().invoke(app, ["strength", "--ladder"])
    assert refused.exit_code == 2 and "--ladder needs a GAME" in refused.output


def test_the_report_of_mixed_agents_has_a_faction_table_per_agent() -> None:
    rows = [
        game(
            i,
            ["mcts:5", "greedy"] if i % 2 else ["greedy", "mcts:5"],
            ["Fire", "Flora"],
            [1.0, 0.0],
        )
        for i in range(6)
    ]
    page = render_html(rows)
    assert "Win rate per faction, seats played by mcts:5" in page
    assert "Win rate per faction, seats played by greedy" in page
