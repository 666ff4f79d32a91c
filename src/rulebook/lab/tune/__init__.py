"""``rulebook tune``: search values of a game's data (knobs) that meet a balance target, with
simulated games as the only oracle.

:mod:`~rulebook.lab.tune.knobs` reads and checks the knob file, :mod:`~rulebook.lab.tune.target`
the target and the objective, :mod:`~rulebook.lab.tune.search` runs the search (Optuna's TPE,
a race under common random numbers, resumable) and the confirmation,
:mod:`~rulebook.lab.tune.output` writes the override, ``result.json`` and the HTML report.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rulebook.lab.compare import Change, compare
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
    """Search, confirm and write the outputs of a tuning run in ``out`` (resuming what is
    there); the outcome and the before/after changes (:func:`rulebook.lab.compare.compare`)."""
    tuner = Tuner(plan, out, evaluate, status)
    best = tuner.run()
    if confirming is not None:
        confirming()
    before, after = tuner.confirm(best.values)
    outcome = Outcome(plan, best, tuner.trial_list(), tuner.search_games(), before, after)
    changes = compare(before, after) if after is not before else []
    write_outputs(outcome, changes, command, out)
    return outcome, changes
