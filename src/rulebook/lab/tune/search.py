"""The search of ``rulebook tune``: Optuna's TPE proposes, a race under common random numbers
decides, independent restarts are compared on held-out games, and a final run on seeds never
used before confirms.

* **Common random numbers.** Evaluation block ``b`` of every candidate plays the same games:
  seeds ``seed + b * trial_games`` onwards, the same deals and dice as far as the data lets
  them be the same, so two candidates are compared on equal luck.
* **Proposals.** Each Optuna trial is one candidate (knob values), evaluated on block 0; the
  study learns the block-0 objective, plus :data:`TIE` per unit of distance from the data
  files (the tie-breaker: the smallest change). The data files' own values are the first trial.
* **Repeated evaluation (a race, as in SMAC's intensification).** The best candidate so far,
  the *incumbent*, is re-evaluated on one more block after every trial, up to ``repeats``
  blocks. A challenger that is no worse on block 0 is evaluated on the incumbent's further
  blocks, one at a time, while it stays no worse on the games so far (pooled); it takes over
  only if it is better on all the incumbent's blocks. Better = lower objective, then smaller
  distance. A candidate proposed again is simply re-raced (its games are stored).
* **Simplifying.** When the budget is spent and the incumbent meets the target, each of its
  knobs is set back to the data files' value in turn: the simpler candidate takes over if it
  does no worse.
* **Rungs.** A target's terms may be measured at several rungs of the ladder (greedy in every
  seat, one mcts seat against greedy...): a block of a candidate is then a block of games at
  each rung, on the same seeds.
* **Restarts and held-out selection.** ``restarts`` independent searches (each its own study,
  sampler seed and search seeds) each end with a best candidate. Those and the data files'
  values play ``select`` games on held-out seeds (``seed + SELECT_OFFSET`` onwards, used by no
  search): the best there is chosen. A search's best is biased upward on the games it was
  chosen on (the winner's curse); so is the choice on the held-out games.
* **Confirmation on fresh seeds.** The chosen candidate and the data files' values then play
  ``confirm`` games on seeds never used by the search nor the selection (``seed +
  CONFIRM_OFFSET`` onwards). Both figures are reported; the target is judged on the fresh ones.
* **Resuming.** The study is an Optuna journal in the output folder and every block of games a
  results file (:mod:`rulebook.lab.storage`); re-running the same command replays the race from
  the stored games (no game is played twice) and goes on where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import optuna
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import TrialState

from rulebook.core import RulebookError
from rulebook.lab.ladder import Rung
from rulebook.lab.runner import Job
from rulebook.lab.storage import job_of, parts_dir, read_results
from rulebook.lab.summary import Row
from rulebook.lab.tune.knobs import Knob, build_override, encode, same
from rulebook.lab.tune.target import Measure, Term, measure, rungs_of

Values = dict[str, Any]
#: plays a job into a results file and returns its rows (resuming what is stored there)
Evaluate = Callable[[Job, Path], list[Row]]
#: the games of each rung a target is measured at (``None``: the run's agents)
Games = dict[Rung | None, list[Row]]

#: the objective's tie-breaker: this much per unit of distance from the data files' values
TIE = 1e-3
#: the held-out selection's seeds start this far after the search's
SELECT_OFFSET = 1_000_000
#: the confirmation's seeds start this far after the search's (used by nothing before)
CONFIRM_OFFSET = 2_000_000
#: stop searching after this many proposals in a row that needed no new game
STALL = 25
#: at most this many random proposals before TPE (fewer for a small budget)
STARTUP = 8


class TuneError(RulebookError):
    """A tuning run that cannot start or go on (its folder holds another run)."""


@dataclass(frozen=True)
class Plan:
    """Everything that decides a tuning run's games and choices."""

    game: str
    players: int
    agents: tuple[str, ...]
    knobs: tuple[Knob, ...]
    terms: tuple[Term, ...]
    variant: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    trial_games: int = 200
    repeats: int = 4
    budget: int = 4000
    confirm: int = 2000
    seed: int = 0
    #: independent searches, each with ``budget`` games
    restarts: int = 1
    #: held-out games choosing among the restarts' best and the data files' values
    select: int = 1000

    def __post_init__(self) -> None:
        sizes = (self.trial_games, self.repeats, self.budget, self.confirm, self.restarts)
        if min(sizes) < 1 or self.select < 1:
            raise TuneError(
                "games per trial, repeats, budget, restarts, selection and confirmation need "
                "1 or more"
            )
        if self.trial_games * self.repeats * self.restarts >= SELECT_OFFSET:
            raise TuneError(f"games per trial x repeats x restarts must stay below {SELECT_OFFSET}")
        if self.select >= CONFIRM_OFFSET - SELECT_OFFSET:
            raise TuneError(f"the selection must play fewer than {CONFIRM_OFFSET - SELECT_OFFSET}")

    @property
    def rungs(self) -> list[Rung | None]:
        return rungs_of(self.terms)

    def identity(self) -> dict[str, Any]:
        """What a resumed run must share with the stored one (not the budget nor the
        confirmation's size: those may grow)."""
        return {
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "options": dict(self.options),
            "agents": list(self.agents),
            "knobs": [  # the data files' values too: a run is not resumed on other data
                {"name": k.name, "path": k.where, "space": repr(k.space()), "original": k.original}
                for k in self.knobs
            ],
            "target": ", ".join(str(t) for t in self.terms),
            "trial_games": self.trial_games,
            "repeats": self.repeats,
            "seed": self.seed,
            **({"restarts": self.restarts} if self.restarts > 1 else {}),
        }

    @property
    def original(self) -> Values:
        return {k.name: k.original for k in self.knobs}

    def override(self, values: Values) -> dict[str, Any] | None:
        return build_override(self.knobs, values)

    def distance(self, values: Values) -> float:
        return sum(k.distance(values[k.name]) for k in self.knobs)

    def job(self, values: Values, seed: int, games: int, rung: Rung | None = None) -> Job:
        """The games of ``values`` at ``rung`` (``None``: the run's agents)."""
        agents = self.agents if rung is None else rung.agents(self.players)
        rotate = len(set(agents)) > 1
        return Job(
            self.game,
            self.players,
            agents,
            games,
            seed,
            self.variant,
            dict(self.options),
            rotate,
            self.override(values),
        )

    def play(self, evaluate: Evaluate, values: Values, seed: int, games: int, where: Path) -> Games:
        """``values`` on ``games`` games from ``seed`` at every rung of the target, stored in
        ``where`` (``NAME.parquet`` for the run's agents, ``NAME@RUNG.parquet`` for a rung)."""
        out: Games = {}
        for rung in self.rungs:
            path = (
                where
                if rung is None
                else where.with_name(f"{where.stem}@{rung_stem(rung)}.parquet")
            )
            path.parent.mkdir(parents=True, exist_ok=True)
            out[rung] = evaluate(self.job(values, seed, games, rung), path)
        return out


def rung_stem(rung: Rung) -> str:
    """A rung as a file name: ``mcts_200-greedy``."""
    return str(rung).replace(":", "_")


def key_of(values: Values) -> str:
    return hashlib.sha1(encode(values).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Standing:
    """A candidate measured on its first ``blocks`` blocks."""

    values: Values
    blocks: int
    measure: Measure
    distance: float

    @property
    def rank(self) -> tuple[float, float]:
        return (self.measure.objective, round(self.distance, 9))


@dataclass(frozen=True)
class Trial:
    """One proposal of the study: its number, values, block-0 objective and role."""

    number: int
    values: Values
    objective: float
    role: str


@dataclass(frozen=True)
class Status:
    """Where the search is, for a progress bar."""

    played: int
    budget: int
    trials: int
    best: Standing | None
    #: which search (0 for the first of ``--restarts``)
    restart: int = 0


class Tuner:
    """One search of a tuning run in folder ``out`` (see the module): restart ``restart``
    plays its blocks on seeds of its own, after those of the restarts before it."""

    def __init__(
        self,
        plan: Plan,
        out: Path,
        evaluate: Evaluate,
        status: Callable[[Status], None] | None = None,
        restart: int = 0,
    ) -> None:
        self.plan = plan
        self.out = out
        self.restart = restart
        self._evaluate = evaluate
        self._status = status or (lambda _: None)
        self.cache: dict[tuple[str, int], Games] = {}
        self.depth: dict[str, int] = {}
        self.standings: dict[tuple[str, int], Standing] = {}
        self.seen: set[str] = set()
        self.incumbent: Values | None = None
        self.trials = 0
        self.played = 0

    # -- games ---------------------------------------------------------------------------------
    def block_file(self, values: Values, block: int) -> Path:
        return self.out / "games" / key_of(values) / f"block-{block}.parquet"

    def seed_of(self, block: int) -> int:
        """The first seed of evaluation block ``block`` of this restart."""
        plan = self.plan
        return plan.seed + (self.restart * plan.repeats + block) * plan.trial_games

    def rows(self, values: Values, block: int) -> Games:
        """The games of ``values`` on evaluation block ``block`` at every rung of the target
        (played if not stored)."""
        key = (key_of(values), block)
        if key not in self.cache:
            found: Games = {}
            for rung in self.plan.rungs:
                path = self.block_file(values, block)
                if rung is not None:
                    path = path.with_name(f"block-{block}@{rung_stem(rung)}.parquet")
                job = self.plan.job(values, self.seed_of(block), self.plan.trial_games, rung)
                stored = path.exists() and not parts_dir(path).exists()
                if stored and job_of(path) == job.to_dict():
                    found[rung] = read_results(path)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    found[rung] = self._evaluate(job, path)
                    self.played += job.games
            self.cache[key] = found
            self.depth[key[0]] = max(self.depth.get(key[0], 0), block + 1)
        return self.cache[key]

    def standing(self, values: Values, blocks: int) -> Standing:
        """``values`` measured on its first ``blocks`` blocks (pooled games)."""
        key = (key_of(values), blocks)
        if key not in self.standings:
            games = [self.rows(values, b) for b in range(blocks)]
            pooled = {rung: [r for g in games for r in g[rung]] for rung in self.plan.rungs}
            found = measure(self.plan.terms, pooled)
            self.standings[key] = Standing(values, blocks, found, self.plan.distance(values))
        return self.standings[key]

    def best(self) -> Standing | None:
        if self.incumbent is None:
            return None
        return self.standing(self.incumbent, self.depth[key_of(self.incumbent)])

    # -- the race ------------------------------------------------------------------------------
    def consider(self, values: Values) -> float:
        """Race ``values`` against the incumbent; its block-0 objective for the study."""
        first = self.standing(values, 1)
        self.seen.add(key_of(values))
        if self.incumbent is None:
            self.incumbent = values
        elif key_of(values) != key_of(self.incumbent):
            self.challenge(values)
        depth = self.depth[key_of(self.incumbent)]
        if depth < self.plan.repeats:
            self.rows(self.incumbent, depth)
        self.trials += 1
        found = Status(
            self.search_games(), self.plan.budget, self.trials, self.best(), self.restart
        )
        self._status(found)
        return first.measure.objective + TIE * first.distance

    def challenge(self, values: Values) -> None:
        assert self.incumbent is not None
        depth = self.depth[key_of(self.incumbent)]
        for blocks in range(1, depth + 1):
            mine = self.standing(values, blocks).rank
            theirs = self.standing(self.incumbent, blocks).rank
            if mine > theirs:
                return
        if mine < theirs:
            self.incumbent = values

    # -- the study -----------------------------------------------------------------------------
    def check_folder(self) -> None:
        """Record the plan in ``out/tune.json``; refuse a folder that holds another run."""
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / "tune.json"
        identity = self.plan.identity()
        if self.restart:
            identity["restart"] = self.restart
        if path.exists():
            try:
                stored = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise TuneError(f"{path} cannot be read: {exc}") from None
            if stored != identity:
                raise TuneError(f"{self.out} holds another tuning run; use another --out")
        else:
            path.write_text(json.dumps(identity, indent=1), encoding="utf-8")

    def study(self) -> optuna.Study:
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
        storage = JournalStorage(JournalFileBackend(str(self.out / "study.journal")))
        study = optuna.create_study(storage=storage, study_name="tune", load_if_exists=True)
        done = len(study.get_trials(deepcopy=False))
        study.sampler = optuna.samplers.TPESampler(
            seed=self.plan.seed + 7919 * self.restart + done,
            multivariate=True,
            n_startup_trials=self.startup_trials(),
        )
        if done == 0 and all(k.contains(k.original) for k in self.plan.knobs):
            study.enqueue_trial(self.params(self.plan.original), user_attrs={"role": "original"})
        return study

    def startup_trials(self) -> int:
        """Random proposals before TPE models the results: a third of the trials the budget
        allows (a candidate costs about 1.5 blocks), between 3 and 8."""
        trials = self.plan.budget // (self.plan.trial_games * 3 // 2 or 1)
        return max(3, min(STARTUP, trials // 3))

    def params(self, values: Values) -> dict[str, Any]:
        return {k.name: k.param(values[k.name]) for k in self.plan.knobs}

    def values(self, params: Mapping[str, Any]) -> Values:
        return {k.name: k.value(params[k.name]) for k in self.plan.knobs}

    def run(self) -> Standing:
        """Search (or resume) until the budget is spent, then simplify; the best candidate."""
        self.check_folder()
        study = self.study()
        self._study = study
        spaces = {k.name: k.space() for k in self.plan.knobs}
        trials = sorted(study.get_trials(deepcopy=False), key=lambda t: t.number)
        for t in trials:  # replay the race from the stored games
            if t.state == TrialState.COMPLETE:
                self.consider(self.values(t.params))
        for t in trials:  # proposals an interruption left unfinished
            if t.state == TrialState.RUNNING:
                study.tell(t.number, self.consider(self.values(t.params)))
        stalled = 0
        while self.search_games() < self.plan.budget and stalled < STALL:
            trial = study.ask(spaces)
            before = self.played
            study.tell(trial, self.consider(self.values(trial.params)))
            stalled = 0 if self.played > before else stalled + 1
        self.simplify(study, spaces)
        best = self.best()
        assert best is not None
        return best

    def simplify(self, study: optuna.Study, spaces: dict[str, Any]) -> None:
        """If the incumbent meets the target, set each of its knobs back to the data files'
        value in turn and keep the simpler candidate if it does no worse (:meth:`challenge`).
        (An incumbent that misses the target is not simplified: each try costs a block of games
        and a simpler candidate would have to do better, not only as well.)"""
        best = self.best()
        if best is None or not best.measure.met:
            return
        for knob in self.plan.knobs:
            assert self.incumbent is not None
            if same(self.incumbent[knob.name], knob.original) or not knob.contains(knob.original):
                continue
            simpler = {**self.incumbent, knob.name: knob.original}
            if key_of(simpler) in self.seen:
                self.challenge(simpler)
                continue
            study.enqueue_trial(self.params(simpler), user_attrs={"role": "simplify"})
            trial = study.ask(spaces)
            study.tell(trial, self.consider(self.values(trial.params)))

    def trial_list(self) -> list[Trial]:
        """The finished proposals of the study, in order."""
        return [
            Trial(
                t.number,
                self.values(t.params),
                float(t.value or 0.0),
                str(t.user_attrs.get("role", "search")),
            )
            for t in sorted(self._study.get_trials(deepcopy=False), key=lambda t: t.number)
            if t.state == TrialState.COMPLETE
        ]

    def search_games(self) -> int:
        """The games the search has stored (blocks of every candidate, at every rung)."""
        return sum(self.plan.trial_games for _ in (self.out / "games").glob("*/block-*.parquet"))


def describe_values(knobs: Sequence[Knob], values: Values) -> list[str]:
    """``name: original -> value`` for every knob that changed."""
    return [
        f"{k.name}: {k.original!r} -> {values[k.name]!r}"
        for k in knobs
        if not same(values[k.name], k.original)
    ]
