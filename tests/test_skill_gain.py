"""benchmarks/skill_gain.py, which docs/balance-lab.md cites: the gains read from a tuning run's
kept games, on a made-up run whose figures are known."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "skill_gain.py"


def _games(path: Path, rows: list[tuple[list[str], list[int], list[str]]]) -> None:
    """Stored games as a run keeps them: a winner's return is 1/(number of winners)."""
    agents, winners, factions = zip(*rows, strict=True)
    returns = [
        [1 / len(w) if s in w else 0.0 for s in range(len(a))]
        for a, w in zip(agents, winners, strict=True)
    ]
    scores = [[0] * len(a) for a in agents]
    table = pa.table(
        {
            "players": [len(a) for a in agents],
            "agents": list(agents),
            "returns": returns,
            "scores": scores,
            "winners": list(winners),
            "factions": list(factions),
        }
    )
    pq.write_table(table, path)


def _candidate(run: Path) -> Path:
    """The folder a tuning run keeps one candidate's games in."""
    games = run / "restart-1" / "games" / "abc"
    games.mkdir(parents=True)
    return games


def _gains(run: Path) -> str:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "gains", str(run)], capture_output=True, text=True, check=True
    ).stdout


def test_gains_of_a_known_run(tmp_path: Path) -> None:
    games = _candidate(tmp_path)
    greedy = ["greedy", "greedy"]
    # greedy: A wins 1 of 4 games and shares 1 (1.5), B wins 2 and shares 1 (2.5)
    _games(
        games / "block-0@greedy.parquet",
        [
            (greedy, [0], ["A", "B"]),
            (greedy, [1], ["A", "B"]),
            (greedy, [0, 1], ["A", "B"]),
            (greedy, [0], ["B", "A"]),
        ],
    )
    # the searching seat wins both its games with A, none of its two with B
    mcts = ["mcts:200", "greedy"]
    _games(
        games / "block-0@mcts_200-greedy.parquet",
        [
            (mcts, [0], ["A", "B"]),
            (mcts, [0], ["A", "B"]),
            (mcts, [1], ["B", "A"]),
            (["greedy", "mcts:200"], [0], ["A", "B"]),
        ],
    )
    out = _gains(tmp_path)
    # A: greedy 37.5%, mcts 100%: +62.5; B: greedy 62.5%, mcts 0%: -62.5; spread 125
    assert "1 candidate;" in out
    assert " 38/100/ +62     62/  0/ -62" in out
    assert "gain range: A +62 to +62, B -62 to -62" in out
    assert " 125.0  abc" in out


def test_gains_of_an_empty_folder_is_one_line(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "gains", str(tmp_path)], capture_output=True, text=True
    )
    assert run.returncode == 1
    assert run.stderr.strip().startswith("no candidate with games at both greedy and mcts:200")


def test_decisions_with_an_override_naming_no_entry_say_so_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('["archmagi"."magi.toml".magi."Ice Magi"]\nplays = 2\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "decisions", "--games", "1", "--data-override", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "override names no entry 'Ice Magi'" in done.stderr
    assert "'Fire Magi'" in done.stderr
    assert done.stdout == ""


def test_skill_in_log_odds_and_the_rates_it_can_reach(tmp_path: Path) -> None:
    """Greedy players win 25% with A and 75% with B; the searching seat wins 50% with each: A's
    skill is logit(0.5) - logit(0.25) = +1.10, B's -1.10; with greedy rates 45-55% (even, 50%,
    within 5 points) the searching seat's rate with A reaches 71-79%, with B 21-29%."""
    games = _candidate(tmp_path)
    greedy = ["greedy", "greedy"]
    _games(
        games / "block-0@greedy.parquet",
        [(greedy, [0], ["A", "B"])] + [(greedy, [1], ["A", "B"])] * 3,
    )
    mcts = ["mcts:200", "greedy"]
    _games(
        games / "block-0@mcts_200-greedy.parquet",
        [
            (mcts, [0], ["A", "B"]),
            (mcts, [1], ["A", "B"]),
            (mcts, [0], ["B", "A"]),
            (mcts, [1], ["B", "A"]),
        ],
    )
    out = _gains(tmp_path)
    # the chance of 4 greedy and 2 mcts games: sqrt(1/(4 * 0.25 * 0.75) + 1/(2 * 0.5 * 0.5))
    assert "  A                 1.10 (sd 0.00 over 1 of 1 candidates; " in out
    assert "the games' chance alone gives about 1.83)" in out
    assert "  B                -1.10 (sd 0.00" in out
    assert "with greedy rates 45-55%, mcts rates reach: A 71-79%, B 21-29%" in out


def test_skill_is_left_out_where_a_rate_is_0_or_100(tmp_path: Path) -> None:
    games = _candidate(tmp_path)
    greedy = ["greedy", "greedy"]
    _games(games / "block-0@greedy.parquet", [(greedy, [0], ["A", "B"]), (greedy, [1], ["A", "B"])])
    mcts = ["mcts:200", "greedy"]
    _games(
        games / "block-0@mcts_200-greedy.parquet",
        [(mcts, [0], ["A", "B"]), (mcts, [1], ["B", "A"])],
    )
    out = _gains(tmp_path)
    assert "A: no candidate with both rates between 0% and 100%" in out
    assert "B: no candidate with both rates between 0% and 100%" in out


def test_archmagi_plays_counts_a_seat_s_spells() -> None:
    """benchmarks/archmagi_plays.py, which docs/balance-lab.md cites: it runs, and what it counts
    per game are the studied seat's Plays (a game of Archmagi has dozens)."""
    script = ROOT / "benchmarks" / "archmagi_plays.py"
    out = subprocess.run(
        [sys.executable, str(script), "--games", "4"], capture_output=True, text=True, check=True
    ).stdout
    assert "4 games from seed 0: Spells played a game" in out
    rows = [line for line in out.splitlines() if "games)" in line]
    assert sum(int(r.split("(")[1].split()[0]) for r in rows) == 4
    played = [float(x.rsplit(" ", 1)[1]) for r in rows for x in r.split(")  ")[1].split(", ")]
    assert 5 < sum(played) < 200
