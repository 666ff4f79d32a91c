"""Bot strength tables: ``candidate`` against ``opponent`` with rotated seats, or solo scores.

One candidate seat against ``players - 1`` opponent seats; the candidate's seat rotates with
the game index, so every seat is played equally often. The candidate beats the opponent when
its win rate's 95% Wilson interval lies above an even share (1/players). In solo modes each
agent plays alone and the table gives its mean score (95% interval) and the ratings reached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook.lab.runner import Job
from rulebook.lab.stats import mean_interval, wilson

#: the match-ups of the strength table: (candidate, opponent)
MATCHUPS = (("mcts", "greedy"), ("greedy", "random"))


@dataclass(frozen=True)
class Line:
    """One line of the table."""

    candidate: str
    opponent: str
    games: int
    players: int
    wins: float = 0.0
    mean: float = 0.0
    mean_low: float = 0.0
    mean_high: float = 0.0
    opponent_mean: float = 0.0
    ratings: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def beats(self) -> bool:
        """Whether the 95% interval excludes an even share (a tie)."""
        return self.interval[0] > 1 / self.players


def job(
    game: str,
    players: int,
    candidate: str,
    opponent: str,
    games: int,
    seed: int,
    variant: str | None,
) -> Job:
    agents = (candidate,) if players == 1 else (candidate,) + (opponent,) * (players - 1)
    return Job(game, players, agents, games, seed, variant, rotate=True)


def candidate_seat(index: int, players: int) -> int:
    """Where the candidate sits in game ``index`` (agents rotate one seat per game)."""
    return index % players


def line(candidate: str, opponent: str, rows: list[dict[str, Any]]) -> Line:
    players = rows[0]["players"]
    mine = [r["scores"][candidate_seat(r["index"], players)] for r in rows]
    theirs = [
        s
        for r in rows
        for p, s in enumerate(r["scores"])
        if p != candidate_seat(r["index"], players)
    ]
    mean, low, high = mean_interval([float(x) for x in mine])
    return Line(
        candidate,
        opponent,
        len(rows),
        players,
        wins=sum(r["returns"][candidate_seat(r["index"], players)] for r in rows),
        mean=mean,
        mean_low=low,
        mean_high=high,
        opponent_mean=sum(theirs) / len(theirs) if theirs else 0.0,
        ratings=dict(Counter(r["rating"] for r in rows if r["rating"] is not None)),
    )


def table(
    game: str,
    players: int,
    games: int,
    seed: int,
    variant: str | None,
    run: Callable[[Job, Path | None], list[dict[str, Any]]],
    out: Path | None = None,
    matchups: tuple[tuple[str, str], ...] = MATCHUPS,
) -> list[Line]:
    """Play every match-up (solo: every agent named in them, once) through ``run``."""
    lines = []
    pairs = matchups
    if players == 1:
        seen = dict.fromkeys(a for pair in matchups for a in pair)
        pairs = tuple((a, "-") for a in seen)
    for candidate, opponent in pairs:
        j = job(game, players, candidate, opponent, games, seed, variant)
        where = None
        if out is not None:
            safe = f"{candidate}-vs-{opponent}".replace(":", "_")
            where = out / f"{game}-{players}p-{safe}.parquet"
        lines.append(line(candidate, opponent, run(j, where)))
    return lines
