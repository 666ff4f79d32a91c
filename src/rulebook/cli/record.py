"""``rulebook record``: whole games between bots, decision by decision, into a Parquet file for
imitation and offline learning (:mod:`rulebook.interop.dataset`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

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
from rulebook.core.words import plural


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
    """Record whole games between bots: every decision's observation (as the seat saw it),
    legal moves, the move chosen, the agent and the final returns, into a Parquet file."""
    from rulebook.interop.common import Config
    from rulebook.interop.dataset import Interrupted, Recording
    from rulebook.interop.dataset import record as write

    found, specs, parallel = checked.game, checked.specs, checked.parallel
    players, games, seed = checked.setup.players, checked.games, checked.setup.seed
    with usage_errors():
        if out.exists() and not overwrite:
            raise UsageError(f"--out {out} exists; not overwritten (add --overwrite to replace it)")
        writable_file(out, "--out")
        config = Config.of(found.name, players, checked.setup.variant, checked.options)
        recording = Recording(config, tuple(specs), games, seed, views)
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
            console.print(f"Interrupted: {out} holds the first {plural(stop.written, 'game')}.")
            raise typer.Exit(INTERRUPTED) from None
    elapsed = time.perf_counter() - start
    console.print(
        f"{plural(written, 'game')} recorded in {elapsed:.1f} s, seeds {seed}-{seed + games - 1}: "
        f"{out} (rulebook.interop.dataset.load reads it)",
        soft_wrap=True,
    )
