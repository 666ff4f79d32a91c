"""``rulebook tune``: search data values that meet a balance target (see
:mod:`rulebook.lab.tune`), under a progress bar showing the best objective so far."""

from __future__ import annotations

import io
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from rulebook.cli.app import app
from rulebook.cli.common import (
    INTERRUPTED,
    Parallel,
    UsageError,
    agent_specs,
    check_parallel,
    find_game,
    make_console,
    parse_options,
    progress_line,
    usage_errors,
    writable_folder,
)
from rulebook.cli.lab import changes_table
from rulebook.cli.options import (
    AgentsOpt,
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
from rulebook.core import Game
from rulebook.core.words import plural
from rulebook.lab.compare import Change
from rulebook.lab.ray_runner import ray_instance
from rulebook.lab.runner import Job, execute
from rulebook.lab.summary import Rate
from rulebook.lab.tune import Outcome, Plan, Status, parse_target, read_knobs, tune
from rulebook.lab.tune.output import tables_of
from rulebook.lab.tune.search import describe_values
from rulebook.lab.tune.target import check_target


def measurable(game: Game, players: int, variant: str | None) -> tuple[bool, set[str]]:
    """Whether the game reports factions in this setup, and its plain counters' names."""
    state = game.new_game(players, 0, variant)
    factions = game.faction is not None and bool(game.faction(state, 0))
    counters = set(game.counters(state, 0)) if game.counters else set()
    return factions, {c for c in counters if ":" not in c}


@app.command("tune")
def tune_command(
    game: GameArg,
    knobs: Annotated[
        Path, typer.Option(metavar="KNOBS.toml", help="The data values to search (knob file).")
    ],
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="Folder of the run (resumable) and its outputs.")
    ],
    target: Annotated[
        str | None,
        typer.Option(
            metavar="TARGET",
            help='e.g. "factions<=5, seats<=5, moves in 100..200" (default: the knob file\'s).',
        ),
    ] = None,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    level: LevelOpt = None,
    agents: AgentsOpt = "greedy",
    budget: Annotated[int, typer.Option(metavar="GAMES", help="Games the search may play.")] = 4000,
    trial_games: Annotated[
        int, typer.Option(metavar="K", help="Games per evaluation block (same seeds for all).")
    ] = 200,
    repeats: Annotated[
        int, typer.Option(metavar="R", help="Blocks the best candidates are evaluated on.")
    ] = 4,
    confirm: Annotated[
        int,
        typer.Option(metavar="GAMES", help="Fresh games confirming before and after (per rung)."),
    ] = 2000,
    restarts: Annotated[
        int, typer.Option(metavar="R", help="Independent searches, each with --budget games.")
    ] = 1,
    select: Annotated[
        int,
        typer.Option(
            metavar="GAMES",
            help="Held-out games choosing among the restarts' best and the data files' values.",
        ),
    ] = 1000,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
) -> None:
    """Search values of the game's data (the knobs) that meet a balance target (at any rung of
    the ladder: "factions<=5 @ mcts:200-greedy"), choose among the restarts on held-out games,
    confirm on fresh games, and write the override, a report and the comparison to DIR."""
    found = find_game(game)
    with usage_errors():
        options = parse_options(option, level)
        n = players or found.common_players or found.variants[0].min_players
        found.setup(n, seed, variant, options)
        specs = agent_specs(agents, n, "tuning plays agents only")
        if n < 2:
            raise UsageError("tuning balances win rates: it needs 2 or more players")
        parallel = check_parallel(workers, ray, ray_address)
        writable_folder(out, "--out")
        knob_file = read_knobs(knobs, found.name, n, variant)
        text = target or knob_file.target
        if not text:
            raise UsageError('no target: give --target or target = "..." in the knob file')
        terms = parse_target(text)
        check_target(terms, *measurable(found, n, variant))
        plan = Plan(
            found.name,
            n,
            tuple(specs),
            knob_file.knobs,
            terms,
            variant,
            options,
            trial_games,
            repeats,
            budget,
            confirm,
            seed,
            restarts,
            select,
        )
    console = make_console()
    command = "rulebook " + " ".join(sys.argv[1:]) if sys.argv else "rulebook tune"
    try:
        with ray_instance(parallel.workers, parallel.address) if parallel.ray else nullcontext():
            outcome, changes = run(console, plan, out, parallel, command)
    except KeyboardInterrupt:
        console.print(f"Interrupted; re-run the same command to resume {out}.")
        raise typer.Exit(INTERRUPTED) from None
    show(console, outcome, out)
    table, _ = changes_table(changes, "before (A) and after (B), rulebook compare", False)
    recorder = Console(record=True, width=120, file=io.StringIO())
    recorder.print(table)
    (out / "compare.txt").write_text(recorder.export_text(), encoding="utf-8")
    console.print(f"In {out}: override.toml, report.html, compare.txt, tables.md, result.json")


def run(
    console: Console,
    plan: Plan,
    out: Path,
    parallel: Parallel,
    command: str,
) -> tuple[Outcome, list[Change]]:
    total = plan.budget * plan.restarts
    afterwards = len(plan.rungs) * (plan.select * (plan.restarts + 1) + 2 * plan.confirm)
    with usage_errors(), progress_line(console, max(total, afterwards), eta=False) as progress:
        task = progress.add_task(f"{plan.game}: searching", total=total)
        current = [task]  # the search's bar, then the selection's and confirmation's

        def evaluate(job: Job, path: Path) -> list[dict[str, object]]:
            return execute(
                job,
                path,
                parallel.workers,
                parallel.ray,
                parallel.address,
                lambda k: progress.advance(current[0], k),
            )

        def status(s: Status) -> None:
            best = "" if s.best is None else f", best objective {s.best.measure.objective:.2f}"
            which = f"restart {s.restart + 1}/{plan.restarts}, " if plan.restarts > 1 else ""
            progress.update(
                task,
                completed=s.restart * plan.budget + min(s.played, plan.budget),
                description=f"{plan.game}: {which}trial {s.trials}{best} (0 = met)",
            )

        def confirming() -> None:
            progress.update(task, visible=False)
            current[0] = progress.add_task(
                f"{plan.game}: held-out selection, then fresh confirmation", total=afterwards
            )

        outcome, changes = tune(plan, out, evaluate, status, confirming, command)
    return outcome, changes


def rates_rows(table: Table, before: list[Rate], after: list[Rate]) -> None:
    later = {r.label: r for r in after}
    for b in before:
        a = later.get(b.label, b)
        cells = []
        for r in (b, a):
            low, high = r.interval
            cells += [f"{r.rate:.1%}", f"{low:.1%}-{high:.1%}"]
        table.add_row(b.label, *cells)


def show(console: Console, outcome: Outcome, out: Path) -> None:
    """The selection, the verdict on fresh games, the changed values and the before/after
    tables of every rung."""
    plan = outcome.plan
    for i, (trials, best) in enumerate(zip(outcome.trials, outcome.bests, strict=True)):
        which = f" (restart {i + 1})" if plan.restarts > 1 else ""
        console.print(
            f"Best of {len(trials)} trials{which}: objective {best.measure.objective:.2f} over "
            f"the {best.measure.games} search games it was chosen on (all rungs).",
            markup=False,
        )
    per_rung = " at each rung" if len(plan.rungs) > 1 else ""
    for held in outcome.selection:
        mark = " (chosen)" if held.values == outcome.chosen.values else ""
        console.print(
            f"Held-out selection, {held.label}{mark}: objective {held.measure.objective:.2f} "
            f"over {plural(plan.select, 'game')}{per_rung}.",
            markup=False,
        )
    before, after = outcome.measures
    verdict = "[bold green]met[/]" if after.met else "[bold red]NOT met[/]"
    console.print(
        f"Confirmation on {outcome.confirm_games} fresh games (seeds from "
        f"{outcome.confirm_seed}, used by no search nor selection): objective "
        f"{before.objective:.2f} before, {after.objective:.2f} after: target {verdict}."
    )
    for line in describe_values(plan.knobs, outcome.chosen.values):
        console.print(f"  {line}", markup=False)
    for line in outcome.verdict():
        console.print(line, markup=False, soft_wrap=True)
    if before.met:
        console.print(
            "The data files' values meet the target on these games too: no change needed."
        )
    for title, b, a in tables_of(outcome):
        table = Table(title=title, header_style="bold")
        for column in ("", "before", "95% CI", "after", "95% CI"):
            table.add_column(column, justify="right" if column else "left")
        rates_rows(table, b, a)
        console.print(table)
