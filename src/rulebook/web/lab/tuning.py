"""A tuning run from the page: ``rulebook tune``'s own search (:func:`rulebook.lab.tune.tune`),
its progress in the run's row, and the values it proposes as a new what-if."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from rulebook.lab.runner import Job, execute
from rulebook.lab.runs import RunSpec, change_figures, rate_figures
from rulebook.lab.tune import Plan, Status, parse_target, read_knobs, tune
from rulebook.lab.tune.output import tables_of
from rulebook.lab.tune.search import describe_values
from rulebook.web.lab.store import LabStore, Run

if TYPE_CHECKING:
    from rulebook.web.lab.progress import Progress

#: the evaluation blocks the best candidates are raced on (``rulebook tune --repeats``)
REPEATS = 4


def knob_file(spec: RunSpec) -> str:
    """The knob file of the run, as ``rulebook tune --knobs`` reads it."""
    return tomli_w.dumps({"target": spec.target, "knob": [k.to_toml() for k in spec.knobs]})


def plan_of(spec: RunSpec, folder: Path) -> Plan:
    """The tuning plan of ``spec`` (its knob file written to ``folder`` and read back, checked
    as the CLI checks it)."""
    path = folder / "knobs.toml"
    path.write_text(knob_file(spec), encoding="utf-8")
    knobs = read_knobs(path, spec.game, spec.players, spec.variant)
    return Plan(
        spec.game,
        spec.players,
        ("greedy",) * spec.players,
        knobs.knobs,
        parse_target(spec.target),
        spec.variant,
        dict(spec.options),
        spec.trial_games,
        REPEATS,
        spec.budget,
        spec.confirm,
        spec.seed,
        1,
        spec.select,
    )


def tune_run(
    spec: RunSpec,
    folder: Path,
    progress: Progress,
    workers: int,
    ray: str | None,
    store: LabStore,
    run: Run,
) -> tuple[dict[str, Any], str]:
    """Search, select, confirm (resuming what ``folder`` holds); the figures, and the id of
    the what-if made of the values chosen ("" when the data files' values stayed best)."""
    plan = plan_of(spec, folder)

    def evaluate(job: Job, path: Path) -> list[dict[str, Any]]:
        path.parent.mkdir(parents=True, exist_ok=True)
        return execute(job, path, workers, ray is not None, ray, progress.advance, progress.stored)

    def status(s: Status) -> None:
        progress.phase = f"searching: trial {s.trials}"
        best = None if s.best is None else s.best.measure.objective
        progress.extra = {"trials": s.trials, "best": best, "searched": s.played}

    def confirming() -> None:
        progress.phase = "held-out selection, then confirmation on fresh games"

    command = spec.commands(folder)[0]
    outcome, changes = tune(plan, folder / "tune", evaluate, status, confirming, command)
    before, after = outcome.measures
    tables = [
        {"title": title, "before": rate_figures(b), "after": rate_figures(a)}
        for title, b, a in tables_of(outcome)
    ]
    proposed = ""
    override = plan.override(outcome.chosen.values)
    if override is not None:
        name = f"{run.title}: proposed"
        proposed = store.add_whatif(spec.game, name[:200], override).id
    figures = {
        "verdict": outcome.verdict(),
        "values": describe_values(plan.knobs, outcome.chosen.values),
        "before": before.objective,
        "after": after.objective,
        "met": after.met,
        "selection": [
            {
                "label": h.label,
                "objective": h.measure.objective,
                "chosen": h.values == outcome.chosen.values,
            }
            for h in outcome.selection
        ],
        "tables": tables,
        "changes": change_figures(changes),
        "trials": sum(len(t) for t in outcome.trials),
        "search_games": outcome.search_games,
        "confirm_games": outcome.confirm_games,
    }
    return figures, proposed
