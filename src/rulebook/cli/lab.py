"""The balance lab's commands: ``rulebook report``, ``rulebook compare``, ``rulebook strength``
(``rulebook simulate`` is in :mod:`rulebook.cli.app`)."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer
from rich.markup import escape
from rich.table import Table

from rulebook.agents import make_agent
from rulebook.agents.expert import check_trained
from rulebook.agents.protocol import PolicyChanges
from rulebook.cli.app import app, run_with_progress, tally_lines
from rulebook.cli.common import (
    UsageError,
    check_parallel,
    fail,
    find_game,
    make_console,
    output_errors,
    split_specs,
    table_policy,
    usage_errors,
    writable_file,
    writable_folder,
)
from rulebook.cli.options import (
    FallbackOpt,
    MoveSecondsOpt,
    RetriesOpt,
    SeedOpt,
    VariantOpt,
    WorkersOpt,
)
from rulebook.core import Game, get_game
from rulebook.core import games as game_names
from rulebook.core.words import plural
from rulebook.lab import strength as strength_lab
from rulebook.lab.compare import Change, setup_differences
from rulebook.lab.compare import compare as compare_results
from rulebook.lab.ladder import LADDER, LadderRow, Rung, split_pair
from rulebook.lab.overrides import check as check_override
from rulebook.lab.overrides import check_addresses, read_override
from rulebook.lab.runner import Job
from rulebook.lab.stats import precision
from rulebook.lab.storage import read_stored
from rulebook.lab.summary import forfeit_lines, summarize

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
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Let --html replace a file that is no report.")
    ] = False,
) -> None:
    """Write a self-contained HTML report (with plots) of a simulation's results. Games an
    outside agent forfeited count in the win rates (a loss for its seat) and nowhere else:
    the report says how many each seat forfeited."""
    from rulebook.lab.report import GENERATOR, render_html, write_pngs

    with usage_errors():
        writable_file(html, "--html", ours=GENERATOR, overwrite=overwrite)
        if png_dir is not None:
            writable_folder(png_dir, "--png-dir")
        stored = read_stored(results)
        rows = stored.rows
        if not rows:
            raise UsageError(f"{results} holds no games")
    page = render_html(rows, stored.describe())
    with output_errors("--html", html):
        html.write_text(page, encoding="utf-8")
    console = make_console()
    console.print(f"Report of {stored.describe()}: {html}")
    for line in forfeit_lines(summarize(rows)):
        console.print(line, soft_wrap=True, markup=False)
    if png_dir is not None:
        with output_errors("--png-dir", png_dir):
            paths = write_pngs(rows, png_dir)
        console.print(f"{plural(len(paths), 'plot')} in {png_dir}")


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
    """Show what changed between two results files, with p-values (corrected for the many
    comparisons by Holm's method: bold red only what survives it)."""
    with usage_errors():
        stored_a, stored_b = read_stored(a), read_stored(b)
        rows_a, rows_b = stored_a.rows, stored_b.rows
        if not rows_a or not rows_b:
            raise UsageError("both results files need games")
        if rows_a[0]["game"] != rows_b[0]["game"]:
            raise UsageError(f"{a} and {b} are results of different games")
    console = make_console()
    for name, stored in (("A", stored_a), ("B", stored_b)):
        rows = stored.rows
        override = rows[0]["override"] or "none"
        console.print(
            f"{name}: {stored.describe()}, {plural(rows[0]['players'], 'player')}, "
            f"agents {','.join(rows[0]['agents'])}, data override: {override}",
            markup=False,
            soft_wrap=True,
        )
    differ = setup_differences(rows_a, rows_b)
    if differ:
        make_console(stderr=True).print(
            f"[bold yellow]warning:[/] A and B differ in {escape('; '.join(differ))}: the "
            "changes below mix that difference with the data's",
            soft_wrap=True,
        )
    changes = compare_results(rows_a, rows_b)
    table, hidden = changes_table(changes, f"A = {a}, B = {b}", all_items)
    console.print(table)
    console.print(holm_note(changes), soft_wrap=True)
    if hidden:
        console.print(f"{plural(hidden, 'item')} without a significant change not shown (--all).")
    for name, stored in (("A", stored_a), ("B", stored_b)):
        summary = summarize(stored.rows)
        note = summary.precision.note()
        if note:
            console.print(f"{name}: {note}", soft_wrap=True)
        for line in forfeit_lines(summary):
            console.print(f"{name}: {line}", soft_wrap=True, markup=False)


def holm_note(changes: list[Change]) -> str:
    """What the "Holm" column means, with the count of tests it corrects for."""
    survive = sum(c.significant for c in changes)
    return (
        f'{plural(len(changes), "test")}: p is each test alone; "Holm" corrects it for all '
        f"{len(changes)} (Holm's method), so that the chance of any fluke among the lines in "
        f"bold red stays below 5%. {plural(survive, 'change')} survive the correction."
    )


def changes_table(changes: list[Change], title: str, all_items: bool) -> tuple[Table, int]:
    """The changes as ``rulebook compare`` prints them (bold red: the change survives Holm's
    correction), and how many items without a significant change were left out (unless
    ``all_items``)."""
    table = Table(header_style="bold", title=title)
    for column in ("section", "figure", "A", "B", "change", "p", "Holm"):
        left = column in ("section", "figure")
        table.add_column(column, justify="left" if left else "right", no_wrap=column == "section")
    hidden = 0
    for c in changes:
        if c.section == "items taken" and not all_items and not c.significant:
            hidden += 1
            continue
        fmt = percent if c.percent else decimal
        change = f"{c.b - c.a:+.1%}" if c.percent else f"{c.b - c.a:+.2f}"
        style = "bold red" if c.significant else None
        p, adjusted = f"{c.test.p_value:.3g}", f"{c.adjusted:.3g}"
        table.add_row(c.section, c.name, fmt(c.a), fmt(c.b), change, p, adjusted, style=style)
    return table, hidden


@app.command()
def strength(
    game: Annotated[
        str | None,
        typer.Argument(metavar="GAME", help="One game (default: every game)."),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="K", help="Games per match-up.")
    ] = 200,
    solo_games: Annotated[
        int, typer.Option(metavar="K", help="Games per agent in each solo mode.")
    ] = 100,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", metavar="N", help="Default: each game's usual count."),
    ] = None,
    solo: Annotated[
        bool, typer.Option(help="Also rate each agent in the solo modes (and their levels).")
    ] = True,
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    workers: WorkersOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Keep each match-up's games here (resumable)."),
    ] = None,
    matchups: Annotated[
        str,
        typer.Option(metavar="A-B,...", help="Match-ups, candidate-opponent."),
    ] = "mcts-greedy,greedy-random",
    markdown: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Also write the tables as Markdown (for the README)."),
    ] = None,
    overwrite: Annotated[
        bool,
        typer.Option("--overwrite", help="Let --markdown replace a file it did not write."),
    ] = False,
    ladder: Annotated[
        bool,
        typer.Option(
            "--ladder", help="A faction table per rung of a ladder of skill, and each gain."
        ),
    ] = False,
    rungs: Annotated[
        str,
        typer.Option(metavar="RUNG,...", help="The ladder's rungs: AGENT or CANDIDATE-OPPONENT."),
    ] = ",".join(LADDER),
    data_override: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="--ladder: TOML file replacing values of the data."),
    ] = None,
    retries: RetriesOpt = None,
    fallback: FallbackOpt = None,
    move_seconds: MoveSecondsOpt = None,
) -> None:
    """Bot strength: each candidate against opponents in every other seat, seats rotated;
    win rate with its 95% interval (solo: mean score and ratings). Without GAME, every game
    at its usual player count, and every solo mode. With --ladder: the win rate of each
    faction at each rung of a ladder of skill, and how much each faction gains from it."""
    chosen = [find_game(game)] if game is not None else [get_game(g) for g in game_names()]
    with usage_errors():
        policy = table_policy(retries, fallback, move_seconds)
    if ladder:
        where = Where(workers, out, markdown, data_override, policy)
        play_ladder(chosen, players, variant, games, seed, rungs, where)
        return
    if data_override is not None:
        fail("--data-override is for --ladder")
    with usage_errors():
        if variant is not None and game is None:
            raise UsageError("--variant needs a GAME")
        if variant is None:
            settings = strength_lab.settings(chosen, players, solo)
        else:  # one game, one variant: as asked, without the solo modes
            found = chosen[0]
            n = players or found.common_players or found.variant(variant).min_players
            found.setup(n, seed, variant)
            settings = [strength_lab.Setting(found.name, n, variant)]
        pairs = []
        for text in split_specs(matchups):
            candidate, opponent, sep = split_pair(text)
            if not sep:
                raise UsageError(f"--matchups takes candidate-opponent pairs, not {text!r}")
            pairs.append((candidate, opponent))
        for agent in {a for pair in pairs for a in pair}:
            make_agent(agent)
        for s in settings:
            found_game = get_game(s.game)
            setup = found_game.setup(s.players, seed, s.variant, dict(s.options))
            check_trained([a for pair in pairs for a in pair], setup)
        if games < 1 or solo_games < 1:
            raise UsageError("--games and --solo-games must be at least 1")
        parallel = check_parallel(workers)
        if out is not None:
            writable_folder(out, "--out")
        if markdown is not None:
            writable_file(markdown, "--markdown", ours=strength_lab.MARK, overwrite=overwrite)
    console = make_console()
    if out is not None:
        with output_errors("--out", out):
            out.mkdir(parents=True, exist_ok=True)
    lines: list[strength_lab.Line] = []
    played: list[dict[str, Any]] = []  # every match-up's games, for the outside agents' tallies
    for setting in settings:
        title = setting.label(get_game(setting.game).title)

        def run(job: Job, where: Path | None, title: str = title) -> list[dict[str, Any]]:
            who = f"{job.agents[0]} vs {job.agents[-1]}" if job.players > 1 else job.agents[0]
            label = f"{title}: {who}"
            job = dataclasses.replace(job, policy=policy)
            rows = run_with_progress(console, job, where, parallel, label).rows
            played.extend(rows)
            return rows

        k = solo_games if setting.players == 1 else games
        with usage_errors():
            lines += strength_lab.table(setting, k, seed, run, out, tuple(pairs))
    for _, group in itertools.groupby(lines, key=lambda ln: ln.setting):
        same = list(group)
        console.print(strength_table(same) if same[0].players > 1 else solo_table(same))
    for text in tally_lines(played):  # an outside agent's, over every game it played
        console.print(text, soft_wrap=True, markup=False)
    multi = [ln for ln in lines if ln.players > 1]
    alone = [ln for ln in lines if ln.players == 1]
    if markdown is not None:
        titles = {g: get_game(g).title for g in game_names()}
        with output_errors("--markdown", markdown):
            markdown.write_text(strength_lab.markdown(multi, alone, titles), encoding="utf-8")
        console.print(f"Markdown tables: {markdown}")


class Where(NamedTuple):
    """Where a ladder runs and what it writes."""

    workers: int | None
    out: Path | None
    markdown: Path | None
    override: Path | None
    #: the outside agents' policy (``--retries``, ``--fallback``, ``--move-seconds``)
    policy: PolicyChanges | None = None


def play_ladder(
    chosen: list[Game],
    players: int | None,
    variant: str | None,
    games: int,
    seed: int,
    rungs: str,
    where: Where,
) -> None:
    """``rulebook strength GAME --ladder``: every rung's games, then the faction table."""
    workers, out, markdown, policy = where.workers, where.out, where.markdown, where.policy
    override = None
    with usage_errors():
        if len(chosen) != 1:
            raise UsageError("--ladder needs a GAME")
        found = chosen[0]
        n = players or found.common_players or found.variants[0].min_players
        if n < 2:
            raise UsageError("a ladder compares factions between players: it needs 2 or more")
        setup = found.setup(n, seed, variant)
        state = found.new_game(n, seed, setup.variant)
        if found.faction is None or not found.faction(state, 0):
            raise UsageError(f"{found.title} has no factions in this variant: no ladder to show")
        if where.override is not None:
            override = read_override(where.override)
            check_addresses(override, found.name, f"--data-override {where.override}")
        check_override(override, found.name, n, setup.variant)
        ladder_rungs = [Rung.parse(text) for text in split_specs(rungs) if text.strip()]
        if not ladder_rungs:
            raise UsageError("--rungs names no rung")
        check_trained([a for r in ladder_rungs for a in (r.candidate, r.opponent)], setup)
        if games < 1:
            raise UsageError("--games must be at least 1")
        parallel = check_parallel(workers)
        if out is not None:
            writable_folder(out, "--out")
        if markdown is not None:
            writable_file(markdown, "--markdown")
    console = make_console()
    setting = strength_lab.Setting(found.name, n, setup.variant)
    if out is not None:
        with output_errors("--out", out):
            out.mkdir(parents=True, exist_ok=True)

    played: list[dict[str, Any]] = []  # every rung's games, for the outside agents' tallies

    def run(job: Job, where: Path | None) -> list[dict[str, Any]]:
        label = f"{found.title}: {job.agents[0]} vs {job.agents[-1]}"
        job = dataclasses.replace(job, policy=policy)
        rows = run_with_progress(console, job, where, parallel, label).rows
        played.extend(rows)
        return rows

    with usage_errors():
        rows = strength_lab.ladder(setting, ladder_rungs, games, seed, run, out, override)
    title = f"{setting.label(found.title)}, {n} players, {plural(games, 'game')} per rung"
    if where.override is not None:
        title += f", data override {where.override.name}"
    table = Table(
        title=title,
        header_style="bold",
        caption="win rate of the candidate seat with each faction (95% interval); a game won "
        "by k seats together counts 1/k",
    )
    for column in strength_lab.ladder_columns(ladder_rungs):
        table.add_column(column, justify="left" if column == "faction" else "right")
    for row in rows:
        table.add_row(*strength_lab.ladder_cells(row))
    console.print(table)
    for line in (strength_lab.gain_spread(rows), ladder_precision(rows, games)):
        if line:
            console.print(line, soft_wrap=True)
    for text in tally_lines(played):  # an outside agent's, over every game it played
        console.print(text, soft_wrap=True, markup=False)
    if markdown is not None:
        with output_errors("--markdown", markdown):
            markdown.write_text(
                strength_lab.ladder_markdown(title, ladder_rungs, rows), encoding="utf-8"
            )
        console.print(f"Markdown table: {markdown}")


def ladder_precision(rows: list[LadderRow], games: int) -> str:
    """The small-run notice of a ladder table, from its widest interval."""
    rates = [(f"{r.faction}", rate.wins, rate.n) for r in rows for rate in r.rates if rate]
    return precision(rates, games).note()


def game_label(ln: strength_lab.Line) -> str:
    setting = ln.setting
    if setting is None:
        return "-"
    return setting.label(get_game(setting.game).title)


def strength_table(lines: list[strength_lab.Line]) -> Table:
    """One game's match-ups: win rate of the bot against the others, its interval and the
    verdict."""
    table = Table(
        title=f"{game_label(lines[0])}, {lines[0].players} players",
        header_style="bold",
        caption="score: mean of the bot / of its opponents",
    )
    for column in strength_lab.COLUMNS:
        table.add_column(column, justify="left" if column in ("bot", "vs") else "right")
    for ln in lines:
        table.add_row(*strength_lab.cells(ln))
    return table


def solo_table(lines: list[strength_lab.Line]) -> Table:
    """One solo mode: each agent's mean score, its interval and the ratings reached."""
    table = Table(title=game_label(lines[0]), header_style="bold")
    for column in strength_lab.SOLO_COLUMNS:
        table.add_column(column)
    for ln in lines:
        table.add_row(*strength_lab.solo_cells(ln))
    return table
