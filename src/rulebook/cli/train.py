"""``rulebook train``: learn the expert bot's value from self-play (:mod:`rulebook.training`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from rulebook.cli.app import app
from rulebook.cli.common import (
    INTERRUPTED,
    check_parallel,
    find_game,
    make_console,
    output_errors,
    parse_options,
    progress_line,
    usage_errors,
    writable_folder,
)
from rulebook.cli.options import (
    GameArg,
    LevelOpt,
    OptionOpt,
    PlayersOpt,
    RayAddressOpt,
    RayOpt,
    SeedOpt,
    VariantOpt,
    WorkersOpt,
)
from rulebook.core.words import plural


def _count(help_text: str) -> Any:
    return typer.Option(metavar="K", help=help_text)


@app.command()
def train(
    game: GameArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    level: LevelOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="The run's folder (default: runs/train/GAME-VARIANT-Np); a run stopped there "
            "goes on where it stopped.",
        ),
    ] = None,
    rounds: Annotated[int, _count("Rounds of self-play, each followed by a fit.")] = 4,
    games: Annotated[int, _count("Self-play games a round.")] = 400,
    bot: Annotated[
        str, typer.Option(metavar="SPEC", help="Who plays round 0 (later rounds: the expert).")
    ] = "mcts:100",
    iterations: Annotated[int, _count("The expert's search iterations a move in self-play.")] = 100,
    seed: SeedOpt = 0,
    window: Annotated[int, _count("Rounds of games each fit learns from.")] = 3,
    epochs: Annotated[int, _count("Passes over the positions in each fit.")] = 8,
    positions: Annotated[int, _count("The most positions a fit learns from.")] = 200_000,
    install: Annotated[
        bool,
        typer.Option(
            "--install", help="Copy the finished net into the package: the expert plays it."
        ),
    ] = False,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
) -> None:
    """Learn the expert bot's evaluation by self-play: play games, fit a value net on what each
    seat saw and how the game ended, and repeat with the expert playing. Seeded and resumable;
    prints each round's validation loss."""
    from rulebook.training import Interrupted, Plan, start
    from rulebook.training import install as put
    from rulebook.training import train as run

    with usage_errors():
        found = find_game(game)
        if players is None:
            players = found.common_players or found.variants[0].min_players
        setup = found.setup(players, seed, variant, parse_options(option, level))
        plan = Plan(
            setup.game,
            setup.players,
            setup.variant,
            tuple(sorted(setup.options.items())),
            rounds,
            games,
            bot,
            iterations,
            seed,
            window,
            epochs,
            positions,
        )
        folder = out if out is not None else Path("runs") / "train" / plan.name
        writable_folder(folder, "--out")
        parallel = check_parallel(workers, ray, ray_address)
        start(plan, folder)  # a folder of another run is refused before any work
    console = make_console()
    console.print(f"Training the expert for {found.title} ({plan.name}) in {folder}")
    with progress_line(console, plan.games) as bar, output_errors("--out", folder):
        task = bar.add_task("round 0: games", total=plan.games)
        state = {"round": 0}

        def tell(kind: str, value: Any) -> None:
            if kind == "games":
                bar.advance(task, value)
            elif kind == "epoch":
                epoch = value[0]
                bar.update(task, description=f"round {state['round']}: fit, epoch {epoch}")
            elif kind == "round":
                k = value["round"]
                bar.console.print(
                    f"round {k}: {plural(value['games'], 'game')}, "
                    f"{plural(value['positions'], 'position')}, validation error "
                    f"{value['validation_points']:.2f} points "
                    f"(played {value['seconds_playing']:.0f} s, fitted "
                    f"{value['seconds_fitting']:.0f} s)"
                )
                state["round"] = k + 1
                if k + 1 < plan.rounds:
                    bar.reset(task, description=f"round {k + 1}: games", total=plan.games)

        try:
            with usage_errors():
                run(plan, folder, parallel.workers, parallel.ray, parallel.address, tell)
        except Interrupted:
            bar.stop()
            console.print(
                f"Interrupted: the finished rounds are kept in {folder}; the same command goes "
                "on from there."
            )
            raise typer.Exit(INTERRUPTED) from None
    console.print(f"The net: {folder / (plan.name + '.npz')} (and its provenance, .toml)")
    if install:
        with usage_errors(), output_errors("--install", folder):
            console.print(f"Installed: {put(plan, folder)} (the expert plays it now)")
