"""``rulebook arena``: a tournament among agents over games and seat counts, seats rotated,
rated by a Plackett-Luce fit over whole finishing orders (:mod:`rulebook.arena`)."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from rulebook.agents import make_agent
from rulebook.agents.expert import check_trained
from rulebook.agents.protocol import PolicyChanges
from rulebook.arena import leaderboard
from rulebook.arena.plan import Plan, make_plan
from rulebook.arena.play import Store, run
from rulebook.arena.standings import Board, Standings, standings, tally_keys
from rulebook.cli.app import app
from rulebook.cli.common import (
    INTERRUPTED,
    UsageError,
    check_parallel,
    fail,
    make_console,
    output_errors,
    progress_line,
    split_specs,
    table_policy,
    usage_errors,
    writable_folder,
)
from rulebook.cli.options import (
    FallbackOpt,
    MoveSecondsOpt,
    RayAddressOpt,
    RayOpt,
    RetriesOpt,
    WorkersOpt,
)
from rulebook.core import games as game_names
from rulebook.core import get_game
from rulebook.core.words import plural

#: the files ``rulebook arena`` writes in its folder besides the plan and the tables
LEADERBOARD, RATINGS_JSON, RATINGS_CSV = "leaderboard.html", "ratings.json", "ratings.csv"


def _list(text: str, option: str) -> list[str]:
    """The entries of a comma-separated option (a comma inside quotes stays in its entry)."""
    items = [item.strip() for item in split_specs(text)]
    if not all(items):
        raise UsageError(f"{option} has an empty entry: {text!r}")
    return items


def _players(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(n) for n in _list(text, "--players")]
    except ValueError:
        raise UsageError(f"--players takes seat counts like 2,4, not {text!r}") from None


def check_plan(
    agents: str | None,
    agent: list[str] | None,
    games: str,
    players: str | None,
    tables: int | None,
    seed: int,
    policy: PolicyChanges | None = None,
) -> Plan:
    """The tournament asked for, checked: :class:`UsageError` or :class:`PlanError` in one
    line before anything is played."""
    specs = (_list(agents, "--agents") if agents else []) + list(agent or [])
    if not specs:
        raise UsageError("name the agents: --agents random,greedy,mcts:200")
    if games.strip().lower() == "all":
        names = list(game_names())
    else:
        names = [n.lower() for n in _list(games, "--games")]
        for name in names:
            get_game(name)  # an unknown game: one line naming the games
    plan = make_plan(specs, names, _players(players), tables, seed, policy)
    for spec in plan.agents:
        make_agent(spec)
    for game, counts in zip(plan.games, plan.players, strict=True):
        for n in counts:
            check_trained(list(plan.agents), get_game(game).setup(n, seed))
    return plan


@app.command()
def arena(
    agents: Annotated[
        str | None,
        typer.Option(
            metavar="SPECS",
            help="Comma-separated agents (2 or more): random, greedy, mcts:200, expert, "
            "cmd:PROGRAM, ws:URL, llm:MODEL@URL...",
        ),
    ] = None,
    agent: Annotated[
        list[str] | None,
        typer.Option("--agent", metavar="SPEC", help="One more agent (a spec holding a comma)."),
    ] = None,
    games: Annotated[
        str,
        typer.Option(
            "--games", "-g", metavar="NAMES", help="Comma-separated games, or all (default)."
        ),
    ] = "all",
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            metavar="COUNTS",
            help="Seat counts, e.g. 2,4 (default: each game's 2 and 4, or its nearest).",
        ),
    ] = None,
    tables: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Tables per line-up, going round its seat orders (default: one rotation).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(metavar="S", help="Seed of the first table.")] = 0,
    out: Annotated[
        Path,
        typer.Option(metavar="DIR", help="The tournament's folder; re-run to resume."),
    ] = Path("arena"),
    resamples: Annotated[
        int, typer.Option(metavar="B", help="Bootstrap resamples for the intervals.")
    ] = 200,
    drops: Annotated[
        int, typer.Option(metavar="R", help="Refits without 1% of the tables (stability).")
    ] = 200,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    retries: RetriesOpt = None,
    fallback: FallbackOpt = None,
    move_seconds: MoveSecondsOpt = None,
) -> None:
    """A rated tournament among agents: every agent meets every other at each game and seat
    count, seats rotated, seeds fixed; ratings from whole finishing orders (Plackett-Luce,
    Elo points, random at 0) with 95% intervals, per game and across games, and an HTML
    leaderboard. Resumable: re-run the same command to go on."""
    with usage_errors():
        policy = table_policy(retries, fallback, move_seconds)
        plan = check_plan(agents, agent, games, players, tables, seed, policy)
        if resamples < 0 or drops < 0:
            raise UsageError("--resamples and --drops must be 0 or more")
        parallel = check_parallel(workers, ray, ray_address)
        writable_folder(out, "--out")
        store = Store(out, plan)
        store.check()
    drawn = plan.draw()
    console = make_console()
    with output_errors("--out", out):
        store.start()
    done = store.rows()
    todo = sum(1 for t in drawn if t.index not in done)
    if todo < len(drawn):
        console.print(
            f"Resuming {out}: {plural(len(drawn) - todo, 'table')} stored, {todo} to play."
        )
    start = time.perf_counter()
    with progress_line(console, todo) as progress:
        task = progress.add_task(f"Arena: {', '.join(plan.agents)}", total=todo)
        try:
            with output_errors("--out", out), usage_errors():
                run(
                    store,
                    drawn,
                    parallel.workers,
                    parallel.ray,
                    parallel.address,
                    lambda n: progress.advance(task, n),
                )
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"Interrupted; re-run the same command to resume {out}.")
            raise typer.Exit(INTERRUPTED) from None
    elapsed = time.perf_counter() - start
    stored = store.rows()
    rows = [stored[t.index] for t in drawn if t.index in stored]
    if not rows:
        fail(f"{out} holds no finished table")
    board = standings(rows, plan.agents, plan.games, plan.seed, resamples, drops)
    for scope in [board.overall, *board.games] if len(board.games) > 1 else board.games:
        console.print(standings_table(scope, board))
    console.print(f"{board.anchor_note[0].upper()}{board.anchor_note[1:]}; Elo points.")
    counts = zip(plan.games, plan.players, strict=True)
    summary = (
        f"{plural(len(rows), 'table')} of {', '.join(plan.agents)}, seed {plan.seed}: "
        + "; ".join(f"{get_game(g).title} at {'/'.join(map(str, c))} seats" for g, c in counts)
        + ("" if plan.policy is None else f"; outside agents: {plan.policy.describe()}")
    )
    command = "rulebook " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    with output_errors("--out", out):
        (out / LEADERBOARD).write_text(
            leaderboard.render_html(board, summary, command), encoding="utf-8"
        )
        (out / RATINGS_JSON).write_text(
            leaderboard.ratings_json(board, plan.to_dict()), encoding="utf-8"
        )
        (out / RATINGS_CSV).write_text(leaderboard.ratings_csv(board), encoding="utf-8")
    if todo:
        console.print(f"{plural(todo, 'table')} played in {elapsed:.1f} s.", soft_wrap=True)
    else:
        console.print(f"Nothing to play: all {plural(len(drawn), 'table')} were stored.")
    console.print(f"Leaderboard: {out / LEADERBOARD}; ratings: {out / RATINGS_JSON}, CSV.")


#: the tallies the terminal's tables show (when not all zero)
TERMINAL_TALLIES = ("bad_answers", "timeouts", "fallbacks", "forfeits", "tokens", "cost")


def standings_table(s: Standings, board: Board) -> Table:
    """One table of standings in the terminal: the agents' tallies only where they tell of
    trouble or cost (bad answers, timeouts, fallbacks, forfeits, tokens, cost) and are not
    all zero; the leaderboard and the JSON keep every count."""
    keys = [
        k
        for k in tally_keys(board)
        if k in TERMINAL_TALLIES and any(r.tally.get(k) for r in s.rows)
    ]
    table = Table(
        title=f"{escape(s.title)}: {plural(s.tables, 'table')}",
        header_style="bold",
        caption=escape(leaderboard.caption(s)),
    )
    for name in ("#", "agent", "rating", "95% interval", "tables", "wins", "mean place", *keys):
        table.add_column(escape(name), justify="left" if name == "agent" else "right")
    for k, r in enumerate(s.rows, 1):
        place = f"{r.place:.2f}" if r.place == r.place else "—"
        cells = [str(k), escape(r.agent), leaderboard.points(r.points), leaderboard.interval(r)]
        cells += [str(r.tables), leaderboard.number(r.wins), place]
        cells += [leaderboard.number(r.tally[k2]) if k2 in r.tally else "—" for k2 in keys]
        table.add_row(*cells)
    return table
