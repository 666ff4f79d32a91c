"""What the lab checks and measures away from the server: a what-if's data validated by the
game itself, and the speed of a run's games, in a process of their own (an override installed
changes the data of every game in the process that installs it: never the server's)."""

from __future__ import annotations

import time
from typing import Any

from rulebook.core import RulebookError, get_game
from rulebook.core.data import DataError
from rulebook.lab import overrides
from rulebook.lab.runner import play_game
from rulebook.lab.runs import RunSpec


def validate(game: str, override: dict[str, Any]) -> str:
    """The game's own refusal of ``override`` (every variant at its fewest and most players
    set up on it), or "" when it is valid."""
    found = get_game(game)
    try:
        overrides.resolve(override, "the what-if")
        overrides.check_addresses(override, game, "the what-if")
        for variant in found.variants:
            for players in sorted({variant.min_players, variant.max_players}):
                overrides.check(override, game, players, variant.name)
    except (RulebookError, DataError, ValueError) as exc:
        return str(exc)
    finally:
        overrides.install(None)
    return ""


def seconds_per_game(spec: dict[str, Any], budget: float = 2.0) -> float:
    """How long one of the run's games takes on one core, on average over its jobs (or a
    tuning run's rungs): their first games played in turn for up to ``budget`` seconds (at
    least one of each)."""
    run = RunSpec.from_dict(spec)
    run.check()
    from pathlib import Path

    jobs = run.jobs(Path("."))
    if not jobs:  # a tuning run plays games at each of its rungs: time one of each
        from rulebook.lab.ladder import Rung
        from rulebook.lab.strength import job

        for text in run.rungs:
            rung = Rung.parse(text)
            one = job(run.setting, rung.candidate, rung.opponent, 1, run.seed)
            jobs.append((text, one, Path(".")))
    start = time.perf_counter()
    played = 0
    try:
        while True:
            for _, one, _ in jobs:
                play_game(one, played)
                played += 1
            if time.perf_counter() - start >= budget:
                break
    finally:
        overrides.install(None)
    return (time.perf_counter() - start) / played


__all__ = ["seconds_per_game", "validate"]
