"""``rulebook tune``: search values of a game's data (knobs) that meet a balance target, with
simulated games as the only oracle.

:mod:`~rulebook.lab.tune.knobs` reads and checks the knob file, :mod:`~rulebook.lab.tune.target`
the target and the objective, :mod:`~rulebook.lab.tune.search` runs the search (Optuna's TPE,
a race under common random numbers, resumable; several independent restarts),
:mod:`~rulebook.lab.tune.held_out` the selection among the restarts on held-out games and the
confirmation on fresh ones, :mod:`~rulebook.lab.tune.output` writes the override,
``result.json`` and the HTML report.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rulebook.lab.compare import Change, compare
from rulebook.lab.tune.held_out import confirm, select
from rulebook.lab.tune.knobs import Knob, KnobError, KnobFile, read_knobs
from rulebook.lab.tune.output import Outcome, write_outputs
from rulebook.lab.tune.search import Evaluate, Plan, Status, TuneError, Tuner
from rulebook.lab.tune.target import TargetError, Term, parse_target

__all__ = [
    "Knob",
    "KnobError",
    "KnobFile",
    "Outcome",
    "Plan",
    "Status",
    "TargetError",
    "Term",
    "TuneError",
    "Tuner",
    "parse_target",
    "read_knobs",
    "tune",
]


def tune(
    plan: Plan,
    out: Path,
    evaluate: Evaluate,
    status: Callable[[Status], None] | None = None,
    confirming: Callable[[], None] | None = None,
    command: str = "",
) -> tuple[Outcome, list[Change]]:
    """Search (each restart in turn), select on held-out games, confirm on fresh ones and write
    the outputs of a tuning run in ``out`` (resuming what is there); the outcome and the
    before/after changes of the run's first rung (:func:`rulebook.lab.compare.compare`)."""
    tuners, standings = [], []
    for restart in range(plan.restarts):
        where = out if plan.restarts == 1 else out / f"restart-{restart + 1}"
        tuner = Tuner(plan, where, evaluate, status, restart)
        standings.append(tuner.run())
        tuners.append(tuner)
    if confirming is not None:
        confirming()
    bests = [(restart_label(plan, i), s.values) for i, s in enumerate(standings)]
    held, chosen = select(plan, out, evaluate, bests)
    before, after = confirm(plan, out, evaluate, chosen.values)
    outcome = Outcome(
        plan,
        standings,
        [t.trial_list() for t in tuners],
        sum(t.search_games() for t in tuners),
        held,
        chosen,
        before,
        after,
    )
    main = plan.rungs[0]
    changes = compare(before[main], after[main]) if after is not before else []
    write_outputs(outcome, changes, command, out)
    return outcome, changes


def restart_label(plan: Plan, index: int) -> str:
    return "search" if plan.restarts == 1 else f"restart {index + 1}"
