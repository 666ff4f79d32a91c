"""Learning the expert bot's value from self-play, by expert iteration (``rulebook train``).

Each round plays ``games`` seeded games, records every decision's observation tensor (what the
deciding seat saw, nothing else: :mod:`rulebook.interop.dataset`) with the seat's final margin,
and fits the value net (:mod:`rulebook.agents.value`) on the positions of the last ``window``
rounds, going on from the previous round's net. Round 0's games are played by ``bot`` (the
current best search on its hand-written evaluation); every later round's by the expert with the
net just fitted (``expert:ITERATIONS``), so the evaluation learns from ever better play.

A run lives in one folder::

    plan.json                    the plan (a resumed run must be given the same)
    round-0/games.parquet        round 0's decisions (written whole, then renamed)
    round-0/NAME.npz             the net fitted after round 0, and round-0/fit.json (its losses)
    ...
    NAME.npz, NAME.toml          the last round's net and its provenance: what ships

Rounds already finished are skipped, so an interrupted run goes on where it stopped, with the
same games and nets as one never stopped (every round's games and fit are seeded). Round ``k``'s
games are seeded ``seed + k * games`` onwards; measure the expert on other seeds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

import rulebook
from rulebook.agents import make_agent
from rulebook.agents.expert import WEIGHTS, WEIGHTS_ENV, weights_name
from rulebook.agents.value import ValueNet, fit
from rulebook.core import RulebookError
from rulebook.interop.common import Config
from rulebook.interop.dataset import Recording, batches, record

#: a run's progress: ("games", games just finished), ("epoch", (epoch, train, validation)),
#: ("round", summary dict)
Progress = Callable[[str, Any], Any]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the rounds finished are kept, the one under way is dropped."""


@dataclass(frozen=True)
class Plan:
    """What a training run does (every field in ``plan.json``)."""

    game: str
    players: int
    variant: str
    options: tuple[tuple[str, str], ...] = ()
    rounds: int = 4
    games: int = 400
    bot: str = "mcts:100"
    iterations: int = 100
    seed: int = 0
    window: int = 3
    epochs: int = 8
    positions: int = 200_000

    def __post_init__(self) -> None:
        for name in ("rounds", "games", "iterations", "window", "epochs", "positions"):
            if getattr(self, name) < 1:
                raise RulebookError(f"train: {name} must be at least 1, not {getattr(self, name)}")
        if self.games < 2:
            raise RulebookError("train: at least 2 games a round (one is held out to validate)")
        make_agent(self.bot)  # a bad spec fails here, with the accepted forms

    @property
    def config(self) -> Config:
        return Config(self.game, self.players, self.variant, self.options)

    @property
    def name(self) -> str:
        return weights_name(self.config.setup(0))

    def round_seed(self, k: int) -> int:
        return self.seed + k * self.games

    def agents(self, k: int) -> tuple[str, ...]:
        spec = self.bot if k == 0 else f"expert:{self.iterations}"
        return (spec,) * self.players

    def command(self) -> str:
        """The ``rulebook train`` command that makes this plan."""
        options = "".join(f" --option {k}={v}" for k, v in self.options)
        return (
            f"rulebook train {self.game} --players {self.players} --variant {self.variant}"
            f"{options} --rounds {self.rounds} --games {self.games} --bot {self.bot}"
            f" --iterations {self.iterations} --seed {self.seed} --window {self.window}"
            f" --epochs {self.epochs} --positions {self.positions}"
        )

    def to_json(self) -> str:
        data = asdict(self)
        data["options"] = dict(self.options)
        return json.dumps(data, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Plan:
        data = json.loads(text)
        data["options"] = tuple(sorted(data["options"].items()))
        return cls(**data)


@dataclass(frozen=True)
class Round:
    """What a finished round measured."""

    round: int
    games: int
    positions: int
    train_loss: float
    validation_loss: float
    #: the held-out games' root mean squared error of the margin, in points
    validation_points: float
    best_epoch: int
    seconds_playing: float
    seconds_fitting: float


def start(plan: Plan, folder: Path) -> None:
    """Make ``folder`` a run of ``plan``, or check that it already is one (resuming): a folder
    holding another plan, or other files, is refused with the reason, and nothing is written."""
    saved = folder / "plan.json"
    if saved.is_file():
        try:
            before = Plan.from_json(saved.read_text(encoding="utf-8"))
        except (ValueError, TypeError, KeyError) as error:
            raise RulebookError(f"{saved} is not a training plan: {error}") from None
        if before != plan:
            changed = [
                f"{k} {getattr(before, k)!r} -> {getattr(plan, k)!r}"
                for k in asdict(plan)
                if getattr(before, k) != getattr(plan, k)
            ]
            raise RulebookError(
                f"{folder} holds a run of another plan ({'; '.join(changed)}): resume it with "
                f"its own settings (`{before.command()} --out {folder}`) or choose another --out"
            )
        return
    if folder.exists() and any(folder.iterdir()):
        raise RulebookError(
            f"{folder} is not empty and holds no training run: choose another --out"
        )
    folder.mkdir(parents=True, exist_ok=True)
    saved.write_text(plan.to_json() + "\n", encoding="utf-8")


@contextmanager
def _expert_weights(folder: Path | None) -> Iterator[None]:
    """The expert reads its weights from ``folder`` meanwhile (and the workers forked)."""
    before = os.environ.get(WEIGHTS_ENV)
    if folder is not None:
        os.environ[WEIGHTS_ENV] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(WEIGHTS_ENV, None)
        else:
            os.environ[WEIGHTS_ENV] = before


def play_round(
    plan: Plan,
    folder: Path,
    k: int,
    workers: int = 1,
    use_ray: bool = False,
    address: str | None = None,
    progress: Progress | None = None,
) -> Path:
    """Round ``k``'s games, recorded (or those already recorded): the file."""
    out = folder / f"round-{k}" / "games.parquet"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".parquet.part")
    recording = Recording(plan.config, plan.agents(k), plan.games, plan.round_seed(k))
    told = None if progress is None else (lambda done: progress("games", done))
    with _expert_weights(folder / f"round-{k - 1}" if k else None):
        try:
            record(recording, partial, workers, use_ray, address, told)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    partial.rename(out)
    return out


def positions(plan: Plan, folder: Path, k: int) -> tuple[Any, Any, Any]:
    """The observation rows, targets and games the fit after round ``k`` learns from: the
    target is what the hand-written evaluation misses (the final margin minus the evaluation
    then, :mod:`rulebook.agents.expert`); the rows are the last
    ``window`` rounds' decisions, about ``positions`` of them at most (each kept with the same
    chance, from a seeded generator), read a row group at a time."""
    files = [
        folder / f"round-{r}" / "games.parquet" for r in range(max(0, k - plan.window + 1), k + 1)
    ]
    rows = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
    chance = min(1.0, plan.positions / rows)
    rng = np.random.default_rng(plan.seed + k)
    xs, ys, gs = [], [], []
    for f in files:
        for batch in batches(f, batch_size=4096):
            keep = rng.random(len(batch)) < chance
            xs.append(batch.observations.reshape(len(batch), -1)[keep])
            ys.append((batch.margins - batch.evaluations)[keep])
            gs.append(batch.games[keep])
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def fit_round(
    plan: Plan, folder: Path, k: int, played: float = 0.0, progress: Progress | None = None
) -> Round:
    """Fit the net after round ``k`` (from round ``k - 1``'s) and save it with its losses
    (``played``: the seconds its games took)."""
    here = folder / f"round-{k}"
    started = time.perf_counter()
    x, y, g = positions(plan, folder, k)
    previous = folder / f"round-{k - 1}" / f"{plan.name}.npz"
    told = None if progress is None else (lambda *epoch: progress("epoch", epoch))
    fitted = fit(
        x,
        y,
        g,
        seed=plan.seed + k,
        epochs=plan.epochs,
        start=ValueNet.load(previous) if k else None,
        meta={"config": plan.name, "round": k},
        progress=told,
    )
    best = fitted.best_epoch
    validation = fitted.best_validation
    done = Round(
        round=k,
        games=plan.games,
        positions=len(x),
        train_loss=fitted.train_loss[best - 1] if best else float("nan"),
        validation_loss=validation,
        validation_points=float(np.sqrt(validation) * fitted.net.scale),
        best_epoch=best,
        seconds_playing=played,
        seconds_fitting=time.perf_counter() - started,
    )
    fitted.net.save(here / f"{plan.name}.npz.part")
    (here / "fit.json").write_text(
        json.dumps(
            {
                **asdict(done),
                "train_curve": fitted.train_loss,
                "validation_curve": fitted.validation_loss,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    (here / f"{plan.name}.npz.part").rename(here / f"{plan.name}.npz")
    return done


def finished_round(folder: Path, plan: Plan, k: int) -> Round | None:
    """Round ``k``'s summary if it is finished (its net saved)."""
    here = folder / f"round-{k}"
    if not (here / f"{plan.name}.npz").is_file():
        return None
    data = json.loads((here / "fit.json").read_text(encoding="utf-8"))
    return Round(**{k: v for k, v in data.items() if k in Round.__dataclass_fields__})


def train(
    plan: Plan,
    folder: Path,
    workers: int = 1,
    use_ray: bool = False,
    address: str | None = None,
    progress: Progress | None = None,
) -> list[Round]:
    """Run (or resume) ``plan`` in ``folder``; every round's summary. The last round's net and
    its provenance end as ``folder/NAME.npz`` and ``NAME.toml``."""
    start(plan, folder)
    rounds = []
    for k in range(plan.rounds):
        done = finished_round(folder, plan, k)
        if done is None:
            began = time.perf_counter()
            try:
                play_round(plan, folder, k, workers, use_ray, address, progress)
                played = time.perf_counter() - began
                done = fit_round(plan, folder, k, played, progress)
            except KeyboardInterrupt:
                raise Interrupted from None
        rounds.append(done)
        if progress is not None:
            progress("round", asdict(done))
    last = folder / f"round-{plan.rounds - 1}" / f"{plan.name}.npz"
    shutil.copyfile(last, folder / f"{plan.name}.npz")
    (folder / f"{plan.name}.toml").write_text(provenance(plan, rounds), encoding="utf-8")
    return rounds


def code_version() -> str:
    """The package version, and the git commit of the source tree when there is one."""
    root = Path(rulebook.__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return rulebook.__version__
    return f"{rulebook.__version__} (commit {commit}{', changed' if dirty else ''})"


def provenance(plan: Plan, rounds: list[Round]) -> str:
    """The TOML saying how a net was made."""
    last = rounds[-1]
    played = sum(r.seconds_playing for r in rounds)
    fitted = sum(r.seconds_fitting for r in rounds)
    lines = [
        f"# the expert's value net for {plan.name}: made by `rulebook train`",
        f'command = "{plan.command()}"',
        f"seed = {plan.seed}",
        f'code = "{code_version()}"',
        f'made = "{datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}"',
        f"rounds = {plan.rounds}",
        f"games = {plan.rounds * plan.games}",
        f"seeds = [{plan.seed}, {plan.round_seed(plan.rounds) - 1}]",
        f"seconds_playing = {played:.0f}",
        f"seconds_fitting = {fitted:.0f}",
        f"validation_points = {last.validation_points:.3f}",
        "validation_by_round = [" + ", ".join(f"{r.validation_points:.3f}" for r in rounds) + "]",
    ]
    return "\n".join(lines) + "\n"


def install(plan: Plan, folder: Path, into: Path = WEIGHTS) -> Path:
    """Copy a finished run's net and provenance into the package's weights (what ships)."""
    net = folder / f"{plan.name}.npz"
    if not net.is_file():
        raise RulebookError(f"{folder} has no finished net {net.name} to install")
    into.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(net, into / net.name)
    shutil.copyfile(folder / f"{plan.name}.toml", into / f"{plan.name}.toml")
    return into / net.name
