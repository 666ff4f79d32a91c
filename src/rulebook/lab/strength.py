"""Bot strength tables: ``candidate`` against ``opponent`` with rotated seats, or solo scores.

One candidate seat against ``players - 1`` opponent seats; the candidate's seat rotates with
the game index, so every seat is played equally often. The candidate beats the opponent when
its win rate's 95% Wilson interval lies above an even share (1/players). In solo modes each
agent plays alone and the table gives its mean score (95% interval) and the ratings reached.

:func:`settings` lists what a whole table covers: every game at its usual player count, and
every solo variant at each choice of its options (Pandoria Merchants' three Troll levels).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook.core.state import Game
from rulebook.lab.ladder import LadderRow, Rung, ladder_table
from rulebook.lab.runner import Job
from rulebook.lab.stats import mean_interval, wilson
from rulebook.lab.summary import opponent as opponent_of

#: the columns of a match-up line (after the game's) and of a solo line, as :func:`cells` and
#: :func:`solo_cells` fill them
COLUMNS = ("bot", "vs", "games", "wins", "95% CI", "even", "beats", "score")
SOLO_COLUMNS = ("agent", "games", "mean score", "95% interval", "wins (95% CI)", "ratings")

#: the match-ups of the strength table: (candidate, opponent)
MATCHUPS = (("mcts", "greedy"), ("greedy", "random"))


@dataclass(frozen=True)
class Setting:
    """Where a match-up is played: a game, its player count, variant and setup options."""

    game: str
    players: int
    variant: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)

    def label(self, title: str) -> str:
        """``Pandoria Merchants (solo, level expert)``: the game as the table names it."""
        details = [self.variant] if self.variant and self.variant != "standard" else []
        details += [f"{k} {v}" for k, v in sorted(self.options.items())]
        return f"{title} ({', '.join(details)})" if details else title

    def file_stem(self) -> str:
        parts = [self.game, f"{self.players}p"]
        if self.variant:
            parts.append(self.variant)
        parts += [v for _, v in sorted(self.options.items())]
        return "-".join(parts)


def settings(games: Sequence[Game], players: int | None, solo: bool) -> list[Setting]:
    """Each game at ``players`` (default: its usual count) and, with ``solo``, each of its
    one-player variants at every combination of the options that variant takes."""
    found = []
    for game in games:
        n = players or game.common_players or game.variants[0].min_players
        found.append(Setting(game.name, n, game.default_variant(n)))
        if not solo or n == 1:
            continue
        for v in game.variants:
            if v.min_players != 1:
                continue
            takes = [o for o in game.options if not o.variants or v.name in o.variants]
            for choice in itertools.product(*(o.values() for o in takes)):
                options = {o.name: c for o, c in zip(takes, choice, strict=True)}
                found.append(Setting(game.name, 1, v.name, options))
    return found


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
    #: how many games reached each rating, best first (by the mean score of those games)
    ratings: dict[str, int] = field(default_factory=dict)
    setting: Setting | None = None
    #: solo against the game itself: the opponent beaten to win (``the Trolls``), else ""
    against: str = ""

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
    setting: Setting,
    candidate: str,
    opponent: str,
    games: int,
    seed: int,
    override: dict[str, Any] | None = None,
) -> Job:
    n = setting.players
    agents = (candidate,) if n == 1 else (candidate,) + (opponent,) * (n - 1)
    options = dict(setting.options)
    return Job(setting.game, n, agents, games, seed, setting.variant, options, True, override)


def candidate_seat(index: int, players: int) -> int:
    """Where the candidate sits in game ``index`` (agents rotate one seat per game)."""
    return index % players


def line(
    candidate: str, opponent: str, rows: list[dict[str, Any]], setting: Setting | None = None
) -> Line:
    players = rows[0]["players"]
    mine = [r["scores"][candidate_seat(r["index"], players)] for r in rows]
    theirs = [
        s
        for r in rows
        for p, s in enumerate(r["scores"])
        if p != candidate_seat(r["index"], players)
    ]
    mean, low, high = mean_interval([float(x) for x in mine])
    reached: dict[str, list[float]] = {}
    for r, score in zip(rows, mine, strict=True):
        if r["rating"] is not None:
            reached.setdefault(r["rating"], []).append(float(score))
    best_first = sorted(reached.items(), key=lambda kv: -sum(kv[1]) / len(kv[1]))
    against = ""
    if players == 1 and setting is not None and setting.variant is not None:
        against = opponent_of(setting.game, setting.variant)
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
        ratings={rating: len(scores) for rating, scores in best_first},
        setting=setting,
        against=against,
    )


def table(
    setting: Setting,
    games: int,
    seed: int,
    run: Callable[[Job, Path | None], list[dict[str, Any]]],
    out: Path | None = None,
    matchups: tuple[tuple[str, str], ...] = MATCHUPS,
) -> list[Line]:
    """Play every match-up (solo: every agent named in them, once) through ``run``; with
    ``out``, each match-up's games are kept in a file of that folder (and resumed from it)."""
    lines = []
    pairs = matchups
    if setting.players == 1:
        seen = dict.fromkeys(a for pair in matchups for a in pair)
        pairs = tuple((a, "-") for a in seen)
    for candidate, opponent in pairs:
        j = job(setting, candidate, opponent, games, seed)
        found = run(j, where(setting, candidate, opponent, out))
        lines.append(line(candidate, opponent, found, setting))
    return lines


def where(setting: Setting, candidate: str, opponent: str, out: Path | None) -> Path | None:
    """The file keeping a match-up's games in ``out`` (none without ``out``)."""
    if out is None:
        return None
    who = candidate if setting.players == 1 else f"{candidate}-vs-{opponent}"
    # one file in ``out`` whatever the specs hold (a cmd: spec's path, spaces, quotes)
    return out / f"{setting.file_stem()}-{re.sub(r'[^A-Za-z0-9._+-]', '_', who)}.parquet"


def ladder(
    setting: Setting,
    rungs: Sequence[Rung],
    games: int,
    seed: int,
    run: Callable[[Job, Path | None], list[dict[str, Any]]],
    out: Path | None = None,
    override: dict[str, Any] | None = None,
) -> list[LadderRow]:
    """Play every rung of a ladder (each candidate against its opponents, seats rotating; the
    same seeds for every rung; with a data override) and set their faction tables side by
    side."""
    played = []
    for rung in rungs:
        j = job(setting, rung.candidate, rung.opponent, games, seed, override)
        played.append(run(j, where(setting, rung.candidate, rung.opponent, out)))
    return ladder_table(rungs, played)


def ladder_cells(row: LadderRow) -> list[str]:
    """A faction's cells up the ladder: its win rate and interval at each rung, then its gain
    from skill (points)."""
    out = [row.faction]
    for rate in row.rates:
        if rate is None:
            out.append("-")
            continue
        low, high = rate.interval
        out.append(f"{rate.rate:.1%} ({100 * low:.0f}-{100 * high:.0f})")
    out.append("-" if row.gain is None else f"{row.gain:+.1f}")
    return out


def ladder_columns(rungs: Sequence[Rung]) -> list[str]:
    base = next((str(r) for r in rungs if str(r) == "greedy"), None)
    top = str(rungs[-1])
    gain = f"gain: {top} minus {base} (points)" if base and base != top else "gain"
    return ["faction", *(str(r) for r in rungs), gain]


def gain_spread(rows: Sequence[LadderRow]) -> str:
    """How far apart the factions' gains from skill are (one sentence; empty without gains)."""
    gains = [(r.gain, r.faction) for r in rows if r.gain is not None]
    if len(gains) < 2:
        return ""
    (low, worst), (high, best) = min(gains), max(gains)
    return (
        f"Skill pays {high - low:.1f} points more with {best} ({high:+.1f}) than with {worst} "
        f"({low:+.1f})."
    )


def ladder_markdown(title: str, rungs: Sequence[Rung], rows: Sequence[LadderRow]) -> str:
    """The ladder table in Markdown (for a game's docs)."""
    columns = ladder_columns(rungs)
    lines = [
        f"{title}: the candidate's win rate per faction at each rung (95% interval)",
        "",
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
    ]
    lines += ["| " + " | ".join(ladder_cells(r)) + " |" for r in rows]
    spread = gain_spread(rows)
    return "\n".join([*lines, "", spread] if spread else lines) + "\n"


def cells(ln: Line) -> list[str]:
    """A match-up's cells after the game's: bot, opponents, games, wins, interval, even
    share, verdict, mean scores."""
    low, high = ln.interval
    return [
        ln.candidate,
        f"{ln.players - 1}x{ln.opponent}",
        str(ln.games),
        f"{ln.rate:.1%}",
        f"{100 * low:.1f}-{100 * high:.1f}%",
        f"{1 / ln.players:.0%}",
        "yes" if ln.beats else "no",
        f"{ln.mean:.0f}/{ln.opponent_mean:.0f}",
    ]


def solo_cells(ln: Line) -> list[str]:
    """A solo line's cells after the game's: agent, games, mean score, interval, wins (solo
    against the game's opponent: the games won and their interval; else "-"), ratings."""
    ratings = ", ".join(f"{k} {v}" for k, v in ln.ratings.items())
    wins = "-"
    if ln.against:
        low, high = ln.interval
        wins = f"{ln.rate:.1%} ({100 * low:.1f}-{100 * high:.1f}%)"
    return [
        ln.candidate,
        str(ln.games),
        f"{ln.mean:.1f}",
        f"{ln.mean_low:.1f}-{ln.mean_high:.1f}",
        wins,
        ratings or "-",
    ]


#: the first line of ``rulebook strength --markdown`` files (an HTML comment: invisible in
#: Markdown); the command replaces only files that bear it, unless told ``--overwrite``
MARK = "<!-- rulebook strength tables -->"


def markdown(multi: Sequence[Line], solo: Sequence[Line], titles: Mapping[str, str]) -> str:
    """The tables as Markdown, as the README shows them (``titles``: game name -> title)."""

    def label(ln: Line) -> str:
        return ln.setting.label(titles[ln.setting.game]) if ln.setting else "-"

    def row(values: Sequence[str]) -> str:
        return "| " + " | ".join(values) + " |"

    out: list[str] = [MARK, ""]
    for lines, first, columns, fill in (
        (multi, "game", (*COLUMNS[:-1], "score (bot/others)"), cells),
        (solo, "solo mode", (*SOLO_COLUMNS[:-1], "ratings reached"), solo_cells),
    ):
        if not lines:
            continue
        if len(out) > 2:
            out.append("")
        out += [row((first, *columns)), "|" + "---|" * (len(columns) + 1)]
        out += [row((label(ln), *fill(ln))) for ln in lines]
    return "\n".join(out) + "\n"
