"""``rulebook record``: whole games between agents, decision by decision, into a Parquet file
for imitation and offline learning (:mod:`rulebook.interop.dataset`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from rulebook.cli.app import app
from rulebook.cli.common import (
    INTERRUPTED,
    AgentGames,
    UsageError,
    make_console,
    output_errors,
    plays_agents,
    progress_line,
    usage_errors,
    writable_file,
)
from rulebook.core.words import plural, seat

#: how many seeds of the games a seat forfeited the line about them names
SEEDS_SHOWN = 10


@app.command()
@plays_agents("recordings are of games between agents")
def record(
    checked: AgentGames,
    out: Annotated[
        Path, typer.Option(metavar="FILE", help="The Parquet file to write (one row a decision).")
    ],
    views: Annotated[
        bool, typer.Option("--views", help="Keep each observation's JSON as well as its tensor.")
    ] = False,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace FILE if it exists.")
    ] = False,
) -> None:
    """Record whole games between agents: every decision's observation (as the seat saw it),
    legal moves, the move chosen, the agent and the final returns, into a Parquet file. A
    game an outside agent forfeits (--fallback forfeit) has no end to learn from: it is left
    out, said, and listed in the file's metadata (dataset.describe: left_out)."""
    from rulebook.interop.common import Config
    from rulebook.interop.dataset import Interrupted, Recording, describe
    from rulebook.interop.dataset import record as write

    found, specs, parallel = checked.game, checked.specs, checked.parallel
    players, games, seed = checked.setup.players, checked.games, checked.setup.seed
    with usage_errors():
        if out.exists() and not overwrite:
            raise UsageError(f"--out {out} exists; not overwritten (add --overwrite to replace it)")
        writable_file(out, "--out")
        config = Config.of(found.name, players, checked.setup.variant, checked.options)
        recording = Recording(config, tuple(specs), games, seed, views, checked.policy)
    console = make_console()
    start = time.perf_counter()
    with (
        progress_line(console, games) as bar,
        output_errors("--out", out),
    ):
        task = bar.add_task(f"{found.title}: {', '.join(specs)}", total=games)
        try:
            written = write(
                recording,
                out,
                parallel.workers,
                parallel.ray,
                parallel.address,
                lambda done: bar.advance(task, done),
            )
        except Interrupted as stop:
            bar.stop()
            left = describe(out)["left_out"]
            held = plural(stop.written, "game")
            held = f"{held}, the whole ones of the first seeds" if left else f"the first {held}"
            console.print(f"Interrupted: {out} holds {held}.", soft_wrap=True)
            for line in left_out_lines(left):
                console.print(line, soft_wrap=True, markup=False)
            raise typer.Exit(INTERRUPTED) from None
    elapsed = time.perf_counter() - start
    left = describe(out)["left_out"]
    for line in left_out_lines(left):
        console.print(line, soft_wrap=True, markup=False)
    but = f" ({len(left)} left out)" if left else ""
    console.print(
        f"{plural(written, 'game')} recorded{but} in {elapsed:.1f} s, seeds "
        f"{seed}-{seed + games - 1}: {out} (rulebook.interop.dataset.load reads it)",
        soft_wrap=True,
    )


def left_out_lines(left_out: list[dict[str, Any]]) -> list[str]:
    """One line per seat whose agent forfeited games of a recording: how many, and their
    seeds (the games left out of the file)."""
    by_seat: dict[tuple[int, str], list[int]] = {}
    for game in left_out:
        by_seat.setdefault((game["seat"], game["agent"]), []).append(game["game"])
    lines = []
    for (p, agent), seeds in sorted(by_seat.items()):
        named = ", ".join(map(str, seeds[:SEEDS_SHOWN]))
        if len(seeds) > SEEDS_SHOWN:
            named += ", ..."
        lines.append(
            f"{seat(p)} ({agent}) forfeited {plural(len(seeds), 'game')}, left out of the "
            f"recording (seeds {named}): a recording holds whole games only."
        )
    return lines
