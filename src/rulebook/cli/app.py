"""The ``rulebook`` command line: list the games, play one in the terminal, simulate, replay.

The CLI sees games only through the core API (:mod:`rulebook.core`) and the agents: it knows
no game's rules, only ``legal_actions``, ``explain``, ``parse_action``, ``apply``, the scores
and the game's optional ``render``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

import rulebook
import rulebook.compiled
from rulebook.cli.common import (
    INTERRUPTED,
    AgentGames,
    Parallel,
    find_game,
    make_console,
    parse_options,
    plays_agents,
    print_results,
    progress_line,
    table_policy,
    table_view,
    usage_errors,
    writable_file,
)
from rulebook.cli.lookup import rules_view
from rulebook.cli.options import (
    PLAYER_COUNT,
    FallbackOpt,
    GameArg,
    LevelOpt,
    MoveSecondsOpt,
    OptionOpt,
    RetriesOpt,
    VariantOpt,
)
from rulebook.cli.session import Session
from rulebook.cli.start import Request, describe, save_path, seats_for, start_state
from rulebook.core import State, get_game
from rulebook.core.words import plural, seat
from rulebook.lab.overrides import check as check_override
from rulebook.lab.overrides import check_addresses, read_override
from rulebook.lab.runner import Job, execute
from rulebook.lab.stats import count, precision, wilson

app = typer.Typer(
    name="rulebook",
    help="Tabletop games in the terminal: play, simulate bots, replay save files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


# -- commands -----------------------------------------------------------------------------------
def version_callback(value: bool) -> None:
    """``--version``: print the version and stop."""
    if value:
        typer.echo(f"rulebook {rulebook.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """Tabletop games in the terminal: play, simulate bots, replay save files."""
    line = rulebook.compiled.notice()
    if line:
        make_console(stderr=True).print(line, markup=False, soft_wrap=True, highlight=False)


def player_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


@app.command("list")
def list_games() -> None:
    """List the registered games, their variants, player counts and options."""
    table = Table(title="Games", header_style="bold", show_lines=True)
    table.add_column("name", no_wrap=True)  # what users type: never cut
    table.add_column("game and options")
    table.add_column("variants (players)", no_wrap=True)
    for name in rulebook.games():
        game = rulebook.get_game(name)
        variants = "\n".join(
            f"{v.name} ({player_range(v.min_players, v.max_players)})" for v in game.variants
        )
        about = Text(game.title, style="bold")
        if game.description:
            about.append("\n" + game.description, style="dim")
        for o in game.options:
            only = f"; {', '.join(o.variants)} only" if o.variants else ""
            about.append(f"\noption {o.name}: {o.accepts()} (default {o.default}{only})")
        table.add_row(name, about, variants)
    make_console().print(table)


@app.command()
def play(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="GAME", help="The game's name (see: rulebook list); --load names it."
        ),
    ] = None,
    players: Annotated[int | None, PLAYER_COUNT] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            metavar="SPECS",
            help="Comma-separated: human or an agent (default: human,greedy,...; resuming: "
            "the seats in the save file).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(metavar="S", help="Seed (default: random).")] = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    level: LevelOpt = None,
    load: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Resume this save file (and go on saving to it)."),
    ] = None,
    save: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Save here after every move.")
    ] = None,
    no_save: Annotated[
        bool, typer.Option("--no-save", help="Resuming: do not save to the file resumed.")
    ] = False,
    overwrite: Annotated[
        bool,
        typer.Option("--overwrite", help="Let --save replace a file holding another game."),
    ] = False,
    retries: RetriesOpt = None,
    fallback: FallbackOpt = None,
    move_seconds: MoveSecondsOpt = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat (several people at one keyboard)."""
    console = make_console()
    found = find_game(game) if game is not None else None
    with usage_errors():
        policy = table_policy(retries, fallback, move_seconds)
        request = Request(
            found,
            players,
            seed,
            variant,
            parse_options(option, level),
            seats,
            load,
            save,
            no_save,
            overwrite,
            policy,
        )
        state = start_state(request)
        players_at = seats_for(request, state)
        session = Session(state, players_at, console, save_path(request, state))
        session.saves.first()
    console.print(describe(state, players_at, resumed=load is not None))
    if any(seat.human for seat in players_at):
        console.print("Type [bold]help[/] for commands, [bold]rules[/] for how to play.")
    code = session.run()
    raise typer.Exit(code)


@app.command("rules")
def rules_command(game: GameArg) -> None:
    """Show how to play a game: turn structure, scoring, the end, the symbols on screen."""
    found = find_game(game)
    make_console().print(rules_view(found))


@app.command()
@plays_agents("simulations are between agents")
def simulate(
    checked: AgentGames,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE", help="Store every game in this Parquet file; re-run to resume."
        ),
    ] = None,
    data_override: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="TOML file replacing values of the game's data."),
    ] = None,
) -> None:
    """Play many games between bots (in parallel) and report win rates and scores per seat."""
    found, setup, specs = checked.game, checked.setup, checked.specs
    players, games, seed, variant = setup.players, checked.games, setup.seed, checked.variant
    with usage_errors():
        if out is not None:
            writable_file(out, "--out")
        override = None
        if data_override is not None:
            override = read_override(data_override)
            check_addresses(override, found.name, f"--data-override {data_override}")
            check_override(override, found.name, players, variant)  # before any progress bar
        job = Job(
            found.name, players, tuple(specs), games, seed, variant, checked.options, False,
            override, checked.policy,
        )  # fmt: skip
    console = make_console()
    start = time.perf_counter()
    with usage_errors():
        rows, played = run_with_progress(console, job, out, checked.parallel)
    elapsed = time.perf_counter() - start
    rival = found.variant(setup.variant).opponent
    console.print(simulation_table(rows, specs, players, rival))
    if players > 1 or rival:
        n = len(rows)
        note = precision(
            [(seat(p), sum(r["returns"][p] for r in rows), n) for p in range(players)], n
        )
        if note.small:
            console.print(note.note(), soft_wrap=True)
    for line in [*forfeit_lines(rows), *tally_lines(rows)]:
        console.print(line, soft_wrap=True, markup=False)
    moves = statistics.fmean(r["moves"] for r in rows)
    if played:  # only the games played by this run count for its speed
        before = f" ({games - played} were stored before)" if played < games else ""
        rate = played / max(elapsed, 1e-9)
        speed = f"{plural(played, 'game')} played in {elapsed:.1f} s ({rate:.1f} games/s){before}"
    else:
        speed = f"nothing to play: all {plural(games, 'game')} were stored in {out} already"
    console.print(
        f"{speed}; {moves:.1f} moves per game, seeds {seed}-{seed + games - 1}.", soft_wrap=True
    )
    if out is not None:
        console.print(f"Results: {out} (rulebook report {out} --html report.html)")


def forfeit_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per seat whose outside agent forfeited games (``--fallback forfeit``): how
    many, and how they are counted."""
    forfeits: dict[int, list[Mapping[str, Any]]] = {}
    for row in rows:
        if row.get("forfeit") is not None:
            forfeits.setdefault(int(row["forfeit"]), []).append(row)
    return [
        f"{seat(p)} ({', '.join(dict.fromkeys(r['agents'][p] for r in lost))}) forfeited "
        f"{len(lost)} of {plural(len(rows), 'game')}: each a loss, the others sharing the "
        "win, the scores as they stood when it stopped."
        for p, lost in sorted(forfeits.items())
    ]


def tally_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per agent that kept a tally (an agent outside the process: its moves asked,
    bad answers, timeouts, fallbacks, tokens, cost...), summed over the games and seats it
    played; its counts that are not all zero."""
    sums: dict[str, dict[str, float]] = {}
    for row in rows:
        for spec, tally in zip(row["agents"], row.get("tallies") or [], strict=False):
            into = sums.setdefault(spec, {})
            for key, value in tally.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    into[key] = into.get(key, 0.0) + value
    lines = []
    for spec, counts in sums.items():
        said = [f"{key.replace('_', ' ')} {value:,.6g}" for key, value in counts.items() if value]
        if said:
            lines.append(f"{spec}: {', '.join(said)}")
    return lines


class Ran(NamedTuple):
    """A job's rows, and how many of its games this run played (the rest were stored)."""

    rows: list[dict[str, Any]]
    played: int


def run_with_progress(
    console: Console,
    job: Job,
    out: Path | None,
    parallel: Parallel,
    label: str | None = None,
) -> Ran:
    """:func:`rulebook.lab.runner.execute` under a progress bar with an ETA (Ctrl-C keeps
    what finished: re-running the same command with the same ``--out`` resumes); every row
    of the job, and how many of its games were played by this run (not stored before)."""
    title = get_game(job.game).title
    with progress_line(console, job.games) as progress:
        task = progress.add_task(label or f"{title}: {', '.join(job.agents)}", total=job.games)

        played = 0

        def started(done: int, todo: int) -> None:
            nonlocal played
            played = todo
            if done:
                stored = plural(done, "game")
                progress.console.print(f"Resuming {out}: {stored} stored, {todo} to play.")
            progress.update(task, total=todo)

        def advance(count: int) -> None:
            progress.advance(task, count)

        try:
            ran = execute(
                job, out, parallel.workers, parallel.ray, parallel.address, advance, started
            )
            return Ran(ran, played)
        except KeyboardInterrupt:
            progress.stop()
            where = f"; re-run the same command to resume {out}" if out else ""
            console.print(f"Interrupted{where}.")
            raise typer.Exit(INTERRUPTED) from None


def simulation_table(
    rows: Sequence[dict[str, Any]], specs: Sequence[str], players: int, opponent: str = ""
) -> Table:
    """Per seat: agent, shared wins and win rate (2+ players, or solo against the game's
    ``opponent``, where a game it wins is a loss), score mean/stdev/range."""
    title = plural(len(rows), "game") + (f" against {opponent}" if opponent else "")
    wins_counted = players > 1 or bool(opponent)
    shared = "wins: a game won by k seats together counts 1/k for each" if players > 1 else None
    table = Table(title=title, header_style="bold", caption=shared)
    table.add_column("seat", justify="right")
    table.add_column("agent")
    if wins_counted:
        table.add_column("wins", justify="right")
        table.add_column("win rate", justify="right")
        table.add_column("95% CI", justify="right")
    for name in ("mean score", "stdev", "min", "max"):
        table.add_column(name, justify="right")
    for p in range(players):
        scores = [r["scores"][p] for r in rows]
        row = [str(p + 1), specs[p]]
        if wins_counted:
            wins = sum(r["returns"][p] for r in rows)
            low, high = wilson(wins, len(rows))
            row += [count(wins), f"{wins / len(rows):.1%}", f"{100 * low:.0f}-{100 * high:.0f}%"]
        spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
        row += [f"{statistics.fmean(scores):.1f}", f"{spread:.1f}", str(min(scores))]
        row.append(str(max(scores)))
        table.add_row(*row)
    return table


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A save file (from play --save or save FILE).")
    ],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every move.")] = False,
) -> None:
    """Replay a save file and show the final table, scores and winners."""
    console = make_console()
    state = replay_file(console, file, verbose)
    console.print(table_view(state, 0))
    print_results(console, state, rulebook.saved_seats(file))


def replay_file(console: Console, path: Path, verbose: bool) -> State:
    """Step through a save file (printing each move, as the table learned of it, if
    ``verbose``); the last state."""
    last: State | None = None
    before: State | None = None
    with usage_errors():
        for last in rulebook.replay_steps(path):
            if verbose and before is not None:
                player, action = last.history[-1]
                text = before.announce(player, action)
                console.print(f"{len(last.history)}. {seat(player)}: {escape(text)}")
            before = last.clone() if verbose else None
    assert last is not None
    return last


if __name__ == "__main__":  # pragma: no cover
    app()
