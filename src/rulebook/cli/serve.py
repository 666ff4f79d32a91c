"""``rulebook serve``: the web app (play in the browser; see README "Playing in the browser")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebook.cli.app import app
from rulebook.cli.common import UsageError, fail, make_console, writable_folder
from rulebook.core import RulebookError


@app.command()
def serve(
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="Database URL: sqlite:///FILE or postgresql://USER@HOST:PORT/DB "
            "(default: sqlite:///data/rulebook.sqlite3).",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(metavar="SECONDS", help="Pause before each bot move.")
    ] = 0.6,
    bot_workers: Annotated[
        int, typer.Option(metavar="N", help="Processes choosing the bots' moves (0: a thread).")
    ] = 1,
    access_log: Annotated[
        bool, typer.Option("--access-log", help="Log every request (tokens are never in it).")
    ] = False,
    log_format: Annotated[
        str,
        typer.Option(
            metavar="FORMAT",
            help="Log lines as text, or json: one JSON object per line (request id, game, seat).",
        ),
    ] = "text",
    workers: Annotated[
        int,
        typer.Option(
            metavar="N", help="Server processes sharing the port (more than 1 needs PostgreSQL)."
        ),
    ] = 1,
    absent_after: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Games without a clock: how long a seat must be away before the others may "
            "vote to let a bot play it.",
        ),
    ] = 300.0,
    cache_games: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Games a process keeps in memory (the rest are read back from the database "
            "when next asked for).",
        ),
    ] = 1000,
    overload_lag: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            envvar="RULEBOOK_OVERLOAD_LAG",
            help="Refuse new games (503, Retry-After) while a process's event loop runs this "
            "late, moves past three times it (0: never; or RULEBOOK_OVERLOAD_LAG).",
        ),
    ] = 0.1,
    overload_requests: Annotated[
        int,
        typer.Option(
            metavar="N",
            envvar="RULEBOOK_OVERLOAD_REQUESTS",
            help="Refuse new games while a process has more requests than this in progress, "
            "moves past four times it (0: never; or RULEBOOK_OVERLOAD_REQUESTS).",
        ),
    ] = 100,
    overload_bots: Annotated[
        int,
        typer.Option(
            metavar="N",
            envvar="RULEBOOK_OVERLOAD_BOTS",
            help="Refuse new games while more bot moves than this wait in a process "
            "(0: never; or RULEBOOK_OVERLOAD_BOTS).",
        ),
    ] = 200,
    lab: Annotated[
        bool | None,
        typer.Option(
            "--lab/--no-lab",
            help="The balance lab in the browser (/lab): on by default for a server on this "
            "machine only (127.0.0.1, ::1, localhost); elsewhere it needs --lab and --lab-key.",
        ),
    ] = None,
    lab_key: Annotated[
        str | None,
        typer.Option(
            metavar="KEY",
            envvar="RULEBOOK_LAB_KEY",
            help="The key the lab asks for (needed for --lab off the loopback; or "
            "RULEBOOK_LAB_KEY).",
        ),
    ] = None,
    lab_dir: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="The lab's results folder (default: data/lab; every server process sharing "
            "the database must read the same folder).",
        ),
    ] = None,
    lab_workers: Annotated[
        int | None, typer.Option(metavar="N", help="Processes a lab run plays on (default: all).")
    ] = None,
    lab_ray: Annotated[
        str | None,
        typer.Option(metavar="ADDRESS", help="Play the lab's games on this Ray cluster."),
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=SPEC",
            help="Offer an agent outside the server in the seat menu under NAME: a program "
            "(cmd:PATH [ARGS]), a remote agent (ws:URL) or a language model "
            "(llm:MODEL@BASE_URL); see docs/protocol.md. Repeat for more.",
        ),
    ] = None,
) -> None:
    """Start the web app: play in the browser, with friends (private links) or against bots."""
    try:
        from rulebook.web.server import ServeError, check, hold_database
        from rulebook.web.server import serve as run_server
        from rulebook.web.settings import DEFAULT_DB_PATH, Settings, sqlite_url
    except ImportError as exc:
        fail(f"the web app needs its extra: pip install 'rulebook[web]' ({exc.name} is missing)")
    if log_format not in ("text", "json"):
        fail(f"--log-format must be text or json, not {log_format!r}")
    if not 0 < port < 65536:
        fail(f"--port must be 1-65535, not {port}")
    if not 0 <= bot_delay <= 60:  # written so that NaN fails it too
        fail(f"--bot-delay must be 0-60 seconds, not {bot_delay}")
    if bot_workers < 0 or bot_workers > 64:
        fail(f"--bot-workers must be 0-64, not {bot_workers}")
    if not 1 <= workers <= 64:
        fail(f"--workers must be 1-64, not {workers}")
    if not 0 <= absent_after <= 30 * 86400:
        fail(f"--absent-after must be 0-2592000 seconds, not {absent_after}")
    if not 1 <= cache_games <= 1_000_000:
        fail(f"--cache-games must be 1-1000000, not {cache_games}")
    if not 0 <= overload_lag <= 60:
        fail(f"--overload-lag must be 0-60 seconds, not {overload_lag}")
    if not 0 <= overload_requests <= 1_000_000:
        fail(f"--overload-requests must be 0-1000000, not {overload_requests}")
    if not 0 <= overload_bots <= 1_000_000:
        fail(f"--overload-bots must be 0-1000000, not {overload_bots}")
    console = make_console()
    if db is None and not DEFAULT_DB_PATH.parent.is_dir():
        # the default database's folder is ours to make; one given by --db must exist
        try:
            DEFAULT_DB_PATH.parent.mkdir(parents=True)
        except OSError as exc:
            fail(f"cannot create the folder {DEFAULT_DB_PATH.parent}/: {exc.strerror}")
        console.print(f"created the folder {DEFAULT_DB_PATH.parent}/ for the games' database")
    url = sqlite_url(DEFAULT_DB_PATH) if db is None else db
    loopback = host in ("127.0.0.1", "::1", "localhost")
    key = (lab_key or "").strip()
    if lab is None:
        lab = loopback
    if lab and not loopback and not key:
        fail(
            f"the lab on {host} would be open to anyone who reaches the server: give it a key "
            "(--lab-key KEY or RULEBOOK_LAB_KEY), or --no-lab"
        )
    if key and len(key) < 12:
        fail("--lab-key must be at least 12 characters")
    if lab_workers is not None and not 1 <= lab_workers <= 256:
        fail(f"--lab-workers must be 1-256, not {lab_workers}")
    folder = (lab_dir or DEFAULT_DB_PATH.parent / "lab").resolve()
    if lab:
        try:
            writable_folder(folder, "--lab-dir")
        except UsageError as exc:
            fail(str(exc))
        if lab_ray:
            from rulebook.lab.ray_runner import check_ray_address

            try:
                check_ray_address(lab_ray)
            except RulebookError as exc:
                fail(f"--lab-ray: {exc}")
    outside = _outside_seats(seat or [])
    settings = Settings(
        seats=outside,
        db_url=url,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        absent_after=absent_after,
        cache_games=cache_games,
        overload_lag=overload_lag,
        overload_requests=overload_requests,
        overload_bots=overload_bots,
        lab=lab,
        lab_key=key,
        lab_dir=folder,
        lab_ray=lab_ray or "",
        **({"lab_workers": lab_workers} if lab_workers is not None else {}),
    )
    try:
        check(settings, host, port, workers)
        hold_database(settings, workers)
    except ServeError as exc:
        fail(str(exc))
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    where = url.split("@")[-1] if "@" in url else url  # no password in the output
    if log_format == "json":  # every line of the output a JSON object
        from rulebook.web.logs import json_line

        print(json_line(f"serving http://{host}:{port}/ (games stored in {where})"), flush=True)
        run_server(settings, host, port, access_log, workers, log_format)
        return
    console.print(
        f"rulebook web app: [bold]http://{shown if shown != 'localhost' else host}:{port}/[/]"
        f"  (games stored in {where}{f'; {workers} processes' if workers > 1 else ''}; "
        "Ctrl-C stops)",
        soft_wrap=True,
    )
    if lab:
        console.print(
            f"balance lab: [bold]http://{host}:{port}/lab[/] (results in {folder})"
            + ("; it asks for its key" if key else ""),
            soft_wrap=True,
        )
    run_server(settings, host, port, access_log, workers, log_format)


def _outside_seats(given: list[str]) -> dict[str, str]:
    """``--seat NAME=SPEC`` options, checked before the server starts (the name, the spec's
    form, and that its program exists): one line saying what is wrong otherwise."""
    from rulebook.agents import make_agent
    from rulebook.web.seats import check_outside

    seats: dict[str, str] = {}
    for text in given:
        name, sep, spec = text.partition("=")
        name, spec = name.strip(), spec.strip()
        if not sep or not spec:
            fail(f"--seat takes NAME=SPEC (e.g. mine=cmd:./agent.sh), not {text!r}")
        if name in seats:
            fail(f"--seat {name} is given twice")
        try:
            check_outside(name, spec)
            make_agent(spec)
        except RulebookError as exc:
            fail(f"--seat {name}: {exc}")
        seats[name] = spec
    return seats
