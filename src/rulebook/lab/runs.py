"""A lab run as a designer asks for it in the browser: what it plays, where it keeps the games,
the command lines that reproduce it, and its figures.

Three kinds, each the CLI's own commands under one name:

- ``simulate``: games between the chosen bots, one per seat, on the shipped data or a what-if
  (``rulebook simulate ... --out games.parquet [--data-override whatif.toml]``);
- ``compare``: a what-if against the shipped data on the same seeds, at each rung of the skill
  ladder chosen (``rulebook strength --ladder`` twice, then ``rulebook compare`` per rung);
- ``tune``: a search of values meeting a target (``rulebook tune --knobs knobs.toml``).

A run's games are the :class:`~rulebook.lab.jobs.Job` s :meth:`RunSpec.jobs` lists, played by
:func:`~rulebook.lab.runner.execute` into Parquet files in the run's folder, exactly as the
commands would: the same seeds, agents and data give the same rows and the same figures
(``tests/test_lab_web.py`` holds the page's figures to the CLI's).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from rulebook.agents.expert import check_trained
from rulebook.core import RulebookError, get_game
from rulebook.lab import overrides
from rulebook.lab.compare import Change, compare
from rulebook.lab.ladder import Rung
from rulebook.lab.ladder import rates as ladder_rates
from rulebook.lab.runner import Job
from rulebook.lab.stats import precision, wilson
from rulebook.lab.strength import Setting, where
from rulebook.lab.strength import job as rung_job
from rulebook.lab.summary import Rate, Summary, summarize

Kind = Literal["simulate", "compare", "tune"]
KINDS: tuple[Kind, ...] = ("simulate", "compare", "tune")
#: the file a what-if is written to in a run's folder (what ``--data-override`` reads)
WHATIF_FILE = "whatif.toml"


class RunError(RulebookError):
    """A run that cannot be made as asked: one line, before anything runs."""


@dataclass(frozen=True)
class Knob:
    """A value a tuning run may change: its dotted key and the values to try."""

    path: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    values: tuple[Any, ...] = ()

    def to_toml(self) -> dict[str, Any]:
        knob: dict[str, Any] = {"path": self.path}
        if self.values:
            knob["values"] = list(self.values)
        else:
            knob["range"] = [self.low, self.high]
            if self.step is not None:
                knob["step"] = self.step
        return knob


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's games (stored with the run)."""

    kind: Kind
    game: str
    players: int
    games: int
    seed: int = 0
    variant: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    #: simulate: the agent of each seat
    seats: tuple[str, ...] = ()
    #: compare and tune: the rungs of the ladder (``greedy``, ``mcts:200-greedy``)
    rungs: tuple[str, ...] = ()
    #: the what-if (a data override, ``{game: {file: ...}}``): simulate plays on it, compare
    #: sets it against the shipped data; None: the shipped data
    whatif: Mapping[str, Any] | None = None
    whatif_name: str = ""
    #: tune: the knobs, the target, and the games its search may play
    knobs: tuple[Knob, ...] = ()
    target: str = ""
    budget: int = 0
    trial_games: int = 200
    confirm: int = 0
    select: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = dict(self.options)
        data["whatif"] = dict(self.whatif) if self.whatif else None
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunSpec:
        fields = dict(data)
        for name in ("seats", "rungs"):
            fields[name] = tuple(fields.get(name) or ())
        fields["knobs"] = tuple(
            Knob(
                k["path"], k.get("low"), k.get("high"), k.get("step"), tuple(k.get("values") or ())
            )
            for k in fields.get("knobs") or ()
        )
        return cls(**fields)

    @property
    def setting(self) -> Setting:
        return Setting(self.game, self.players, self.variant, dict(self.options))

    def check(self) -> None:
        """:class:`RunError` for what cannot run as asked (the data's own validation aside)."""
        game = get_game(self.game)
        if self.kind not in KINDS:
            raise RunError(f"no kind of run {self.kind!r}: {', '.join(KINDS)}")
        try:
            game.setup(self.players, self.seed, self.variant, dict(self.options))
        except RulebookError as exc:
            raise RunError(str(exc)) from None
        if self.games < 1:
            raise RunError(f"a run plays at least 1 game, not {self.games}")
        rungs = [Rung.parse(text) for text in self.rungs]
        agents = [*self.seats, *(a for r in rungs for a in (r.candidate, r.opponent))]
        try:
            check_trained(agents, game.setup(self.players, self.seed, self.variant, self.options))
        except RulebookError as exc:
            raise RunError(str(exc)) from None
        if self.kind == "simulate" and len(self.seats) != self.players:
            raise RunError(f"give an agent for each of the {self.players} seats")
        if self.kind in ("compare", "tune"):
            if not self.rungs:
                raise RunError("pick at least one rung of the ladder")
            if self.players < 2:
                raise RunError("comparing win rates needs 2 or more players")
            for text in self.rungs:
                Rung.parse(text)
        if self.kind == "compare" and not self.whatif:
            raise RunError("a comparison needs a what-if that changes something")
        if self.kind == "tune" and (not self.knobs or not self.target):
            raise RunError("a tuning run needs knobs and a target")
        if self.whatif:
            overrides.resolve(dict(self.whatif), "the what-if")
            overrides.check_addresses(dict(self.whatif), self.game, "the what-if")

    # -- the games ------------------------------------------------------------------------------
    def jobs(self, folder: Path) -> list[tuple[str, Job, Path]]:
        """The run's jobs, each with its label and the file keeping its games."""
        whatif = dict(self.whatif) if self.whatif else None
        if self.kind == "simulate":
            job = Job(
                self.game, self.players, self.seats, self.games, self.seed, self.variant,
                dict(self.options), False, whatif,
            )  # fmt: skip
            return [("games", job, folder / "games.parquet")]
        if self.kind == "compare":
            found = []
            for text in self.rungs:
                rung = Rung.parse(text)
                for side, data in (("shipped", None), ("whatif", whatif)):
                    job = rung_job(
                        self.setting, rung.candidate, rung.opponent, self.games, self.seed, data
                    )
                    path = where(self.setting, rung.candidate, rung.opponent, folder / side)
                    assert path is not None
                    found.append((f"{rung} {side}", job, path))
            return found
        return []

    def total_games(self) -> int:
        """Every game the run plays (a tuning run: its search budget and its held-out and
        confirmation games)."""
        if self.kind == "tune":
            rungs = len(self.rungs)
            return self.budget + rungs * (self.select * 2 + 2 * self.confirm)
        return sum(job.games for _, job, _ in self.jobs(Path(".")))

    # -- the commands that reproduce it ---------------------------------------------------------
    def commands(self, folder: Path) -> list[str]:
        """The ``rulebook`` command lines that play the same games into ``folder``."""
        base = [self.game, "--players", str(self.players)]
        if self.variant:
            base += ["--variant", self.variant]
        for key, value in sorted(self.options.items()):
            base += ["--option", f"{key}={value}"]
        data = ["--data-override", str(folder / WHATIF_FILE)] if self.whatif else []
        seeds = ["--games", str(self.games), "--seed", str(self.seed)]
        if self.kind == "simulate":
            out = ["--out", str(folder / "games.parquet")]
            agents = ["--agents", ",".join(self.seats)]
            return [_line(["rulebook", "simulate", *base, *agents, *seeds, *out, *data])]
        if self.kind == "compare":
            rungs = ["--ladder", "--rungs", ",".join(self.rungs)]
            ladder = ["rulebook", "strength", *base, *rungs, *seeds, "--out"]
            lines = [
                _line([*ladder, str(folder / "shipped")]),
                _line([*ladder, str(folder / "whatif"), *data]),
            ]
            for text in self.rungs:
                rung = Rung.parse(text)
                a = where(self.setting, rung.candidate, rung.opponent, folder / "shipped")
                b = where(self.setting, rung.candidate, rung.opponent, folder / "whatif")
                lines.append(_line(["rulebook", "compare", str(a), str(b)]))
            return lines
        tune = ["--knobs", str(folder / "knobs.toml"), "--out", str(folder / "tune")]
        tune += ["--target", self.target, "--agents", self.rungs[0].split("-")[-1]]
        tune += ["--budget", str(self.budget), "--trial-games", str(self.trial_games)]
        tune += ["--confirm", str(self.confirm), "--select", str(self.select)]
        return [_line(["rulebook", "tune", *base, *tune, "--seed", str(self.seed)])]


def _line(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)


# -- figures ------------------------------------------------------------------------------------
def rate_figures(rates: Sequence[Rate]) -> list[dict[str, Any]]:
    """Win rates as the page draws them: each with its 95% interval and the even share."""
    return [
        {
            "label": r.label,
            "wins": r.wins,
            "games": r.n,
            "rate": r.rate,
            "low": r.interval[0],
            "high": r.interval[1],
            "expected": r.expected,
            "mean_score": r.mean_score,
        }
        for r in rates
    ]


def summary_figures(s: Summary) -> dict[str, Any]:
    """A job's figures for the page: win rates per seat, agent and faction, scores, lengths,
    the most and least valuable items, and whether the run is too small to say much."""
    note = s.precision
    items = {
        group: [
            {"name": i.name, "taken": i.taken_rate, "lift": i.lift, "significant": i.significant}
            for i in sorted(found, key=lambda i: i.lift, reverse=True)
        ]
        for group, found in s.items.items()
    }
    return {
        "games": s.games,
        "players": s.players,
        "seats": rate_figures(s.seats),
        "agents": rate_figures(s.agents),
        "factions": rate_figures(s.factions),
        "mean_scores": [sum(x) / len(x) if x else 0.0 for x in s.scores_by_seat],
        "mean_length": sum(s.lengths) / len(s.lengths) if s.lengths else 0.0,
        "breakdown": s.breakdown,
        "items": items,
        "small": note.small,
        "note": note.note() if note.small else "",
    }


def change_figures(changes: Sequence[Change]) -> list[dict[str, Any]]:
    """A comparison's lines: each figure before and after, its p-value, Holm's."""
    return [
        {
            "section": c.section,
            "name": c.name,
            "a": c.a,
            "b": c.b,
            "p": c.test.p_value,
            "adjusted": c.adjusted,
            "significant": c.significant,
            "percent": c.percent,
        }
        for c in changes
    ]


def live_figures(returns: Mapping[str, list[float]]) -> list[dict[str, Any]]:
    """Win rates so far, from each label's list of shares won (1, 1/k, 0) per game."""
    out = []
    for label, won in sorted(returns.items()):
        n = len(won)
        wins = sum(won)
        low, high = wilson(wins, n) if n else (0.0, 1.0)
        out.append(
            {"label": label, "rate": wins / n if n else 0.0, "low": low, "high": high, "games": n}
        )
    return out


def figures(spec: RunSpec, rows: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The figures of a finished simulate or compare run from its jobs' rows (by label)."""
    if spec.kind == "simulate":
        return {"games": summary_figures(summarize(rows["games"]))}
    rungs = []
    for text in spec.rungs:
        a, b = rows[f"{text} shipped"], rows[f"{text} whatif"]
        sa, sb = summarize(a), summarize(b)
        rung = Rung.parse(text)
        # the rung's own rates (``rulebook strength --ladder``'s): every seat's against an
        # even share, or the candidate seat's with each faction against their mean
        by = "faction" if sa.factions else "seat"
        before, after = ladder_rates(a, rung, by), ladder_rates(b, rung, by)
        rungs.append(
            {
                "rung": text,
                "describe": rung.describe(),
                "by": by,
                "rates": {"shipped": rate_figures(before), "whatif": rate_figures(after)},
                "shipped": summary_figures(sa),
                "whatif": summary_figures(sb),
                "changes": change_figures(compare(a, b)),
                "small": precision([(r.label, r.wins, r.n) for r in before], sa.games).note(),
            }
        )
    return {"rungs": rungs}


def whatif_digest(whatif: Mapping[str, Any] | None) -> str:
    """A short hash of the data a run plays on: the what-if's canonical JSON ("" = shipped)."""
    import hashlib

    text = overrides.canonical(dict(whatif) if whatif else None)
    return hashlib.sha256(text.encode()).hexdigest()[:12] if text else ""


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
