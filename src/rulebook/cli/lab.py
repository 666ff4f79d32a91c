"""The balance lab's commands: ``rulebook report``, ``rulebook compare``, ``rulebook strength``
(``rulebook simulate`` is in :mod:`rulebook.cli.app`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from rulebook.cli.app import GameArg, VariantOpt, app, run_with_progress
from rulebook.cli.common import UsageError, find_game, make_console, usage_errors
from rulebook.lab import strength as strength_lab
from rulebook.lab.compare import compare as compare_results
from rulebook.lab.runner import Job
from rulebook.lab.storage import read_results

ResultsArg = Annotated[Path, typer.Argument(metavar="RESULTS", help="A results file (.parquet).")]


@app.command()
def report(
    results: ResultsArg,
    html: Annotated[
        Path, typer.Option("--html", metavar="FILE", help="Write the HTML report here.")
    ] = Path("report.html"),
    png_dir: Annotated[
        Path | None, typer.Option(metavar="DIR", help="Also save every plot as a PNG here.")
    ] = None,
) -> None:
    """Write a self-contained HTML report (with plots) of a simulation's results."""
    from rulebook.lab.report import render_html, write_pngs

    with usage_errors():
        rows = read_results(results)
        if not rows:
            raise UsageError(f"{results} holds no games")
    html.write_text(render_html(rows), encoding="utf-8")
    console = make_console()
    console.print(f"Report of {len(rows)} games: {html}")
    if png_dir is not None:
        paths = write_pngs(rows, png_dir)
        console.print(f"{len(paths)} plots in {png_dir}")


def percent(x: float) -> str:
    return f"{x:.1%}"


def decimal(x: float) -> str:
    return f"{x:.2f}"


@app.command()
def compare(
    a: ResultsArg,
    b: Annotated[Path, typer.Argument(metavar="RESULTS_B", help="The results to compare with.")],
    all_items: Annotated[
        bool, typer.Option("--all", help="List every item, not only significant changes.")
    ] = False,
) -> None:
    """Show what changed between two results files, with p-values (bold: p < 0.05)."""
    with usage_errors():
        rows_a, rows_b = read_results(a), read_results(b)
        if not rows_a or not rows_b:
            raise UsageError("both results files need games")
        if rows_a[0]["game"] != rows_b[0]["game"]:
            raise UsageError(f"{a} and {b} are results of different games")
    console = make_console()
    for name, rows in (("A", rows_a), ("B", rows_b)):
        override = rows[0]["override"] or "none"
        console.print(
            f"{name}: {len(rows)} games, {rows[0]['players']} players, "
            f"agents {','.join(rows[0]['agents'])}, data override: {override}",
            markup=False,
            soft_wrap=True,
        )
    changes = compare_results(rows_a, rows_b)
    table = Table(header_style="bold", title=f"A = {a}, B = {b}")
    for column in ("section", "figure", "A", "B", "change", "p"):
        table.add_column(column, justify="left" if column in ("section", "figure") else "right")
    hidden = 0
    for c in changes:
        if c.section == "items taken" and not all_items and not c.test.significant:
            hidden += 1
            continue
        fmt = percent if c.percent else decimal
        change = f"{c.b - c.a:+.1%}" if c.percent else f"{c.b - c.a:+.2f}"
        style = "bold red" if c.test.significant else None
        table.add_row(
            c.section, c.name, fmt(c.a), fmt(c.b), change, f"{c.test.p_value:.3g}", style=style
        )
    console.print(table)
    if hidden:
        console.print(f"{hidden} item(s) without a significant change not shown (--all).")


@app.command()
def strength(
    game: GameArg,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="K", help="Games per match-up.")
    ] = 200,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", metavar="N", help="Default: the game's usual count."),
    ] = None,
    seed: Annotated[int, typer.Option(metavar="S", help="Seed of the first game.")] = 0,
    variant: VariantOpt = None,
    workers: Annotated[
        int | None, typer.Option(metavar="W", help="Parallel processes (default: cores).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Keep each match-up's games here (resumable)."),
    ] = None,
    matchups: Annotated[
        str,
        typer.Option(metavar="A-B,...", help="Match-ups, candidate-opponent."),
    ] = "mcts-greedy,greedy-random",
) -> None:
    """Bot strength: each candidate against opponents in every other seat, seats rotated;
    win rate with its 95% interval (solo: mean score and ratings)."""
    found = find_game(game)
    n = players or found.common_players or found.variants[0].min_players
    with usage_errors():
        found.setup(n, seed, variant)
        pairs = []
        for text in matchups.split(","):
            candidate, sep, opponent = text.strip().partition("-")
            if not sep:
                raise UsageError(f"--matchups takes candidate-opponent pairs, not {text!r}")
            pairs.append((candidate.strip(), opponent.strip()))
        if games < 1:
            raise UsageError(f"--games must be at least 1, not {games}")
    console = make_console()
    count = workers or os.cpu_count() or 1

    def run(job: Job, where: Path | None) -> list[dict[str, Any]]:
        label = f"{job.agents[0]} vs {job.agents[-1]}" if n > 1 else job.agents[0]
        return run_with_progress(console, job, where, count, False, None, label)

    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    with usage_errors():
        lines = strength_lab.table(found.name, n, games, seed, variant, run, out, tuple(pairs))
    console.print(strength_table(found.title, n, lines))


def strength_table(title: str, players: int, lines: list[strength_lab.Line]) -> Table:
    table = Table(
        title=f"{title}, {players} player(s)",
        header_style="bold",
        caption="score: mean of the bot / of its opponents" if players > 1 else None,
    )
    if players == 1:
        for column in ("agent", "games", "mean score", "95% interval", "ratings"):
            table.add_column(column)
        for ln in lines:
            ratings = ", ".join(f"{k} {v}" for k, v in sorted(ln.ratings.items()))
            table.add_row(
                ln.candidate,
                str(ln.games),
                f"{ln.mean:.1f}",
                f"{ln.mean_low:.1f}-{ln.mean_high:.1f}",
                ratings or "-",
            )
        return table
    for column in ("bot", "vs", "games", "wins", "95% CI", "even", "beats", "score"):
        table.add_column(column, justify="left" if column in ("bot", "vs") else "right")
    for ln in lines:
        low, high = ln.interval
        table.add_row(
            ln.candidate,
            f"{players - 1}x{ln.opponent}",
            str(ln.games),
            f"{ln.rate:.1%}",
            f"{100 * low:.0f}-{100 * high:.0f}%",
            f"{1 / players:.0%}",
            "yes" if ln.beats else "no",
            f"{ln.mean:.0f}/{ln.opponent_mean:.0f}",
        )
    return table
