"""After the searches of ``rulebook tune``: the held-out selection among the restarts' best
candidates and the data files' values, then the confirmation on seeds never used before.

A search's best candidate looks better on the games it was chosen on than it is (the winner's
curse), and so does the candidate chosen on the held-out games; only games used by no choice
judge the target. Both figures are kept: the selection's and the fresh confirmation's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rulebook.lab.tune.search import (
    CONFIRM_OFFSET,
    SELECT_OFFSET,
    Evaluate,
    Games,
    Plan,
    Standing,
    Values,
    key_of,
)
from rulebook.lab.tune.target import measure

#: how the data files' values are named among the candidates
DATA_FILES = "data files"


@dataclass(frozen=True)
class Held(Standing):
    """A candidate measured on the held-out selection games (``blocks`` 0: not a search's)."""

    label: str = ""  # "data files", "restart 2"


def select(
    plan: Plan, out: Path, evaluate: Evaluate, bests: Sequence[tuple[str, Values]]
) -> tuple[list[Held], Held]:
    """The data files' values and each restart's best on ``plan.select`` held-out games (the
    same seeds for all, in ``out/select/``): every candidate's figures, and the best of them
    (the data files' values when nothing beats them there)."""
    seed = plan.seed + SELECT_OFFSET
    candidates: dict[str, tuple[str, Values]] = {key_of(plan.original): (DATA_FILES, plan.original)}
    for label, values in bests:
        candidates.setdefault(key_of(values), (label, values))
    held = []
    for key, (label, values) in candidates.items():
        games = plan.play(evaluate, values, seed, plan.select, out / "select" / f"{key}.parquet")
        found = measure(plan.terms, games)
        held.append(Held(values, 0, found, plan.distance(values), label))
    return held, min(held, key=lambda h: h.rank)


def confirm(plan: Plan, out: Path, evaluate: Evaluate, chosen: Values) -> tuple[Games, Games]:
    """The data files' values and ``chosen`` on ``plan.confirm`` fresh games (the same seeds
    for both, used by no search nor selection): the before and after games of every rung
    (``before.parquet``, ``after.parquet``, ``before@RUNG.parquet``...)."""
    seed = plan.seed + CONFIRM_OFFSET
    before = plan.play(evaluate, plan.original, seed, plan.confirm, out / "before.parquet")
    if plan.override(chosen) is None:
        return before, before
    return before, plan.play(evaluate, chosen, seed, plan.confirm, out / "after.parquet")
