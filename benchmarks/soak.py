"""Soak run of the web app (``make soak``; not part of ``make test``): many games for a long
time over two server processes, with faults, and the checks that nothing leaked or was lost.

``rulebook serve --workers 2`` on a throwaway PostgreSQL server (``fsync`` on) serves
``--games`` concurrent games for ``--minutes``, played by the load generator's simulated people
(``benchmarks/web_load.py``'s clients, imported: two people thinking ``--think`` seconds, 1-3 by
default, a ``random`` bot and a spectator a game; a finished game is replaced by a new one; a
move or a new game refused for load is asked again after its wait, as the pages do, and counted
as a refusal, not an error). Every ``--kill-every`` one of the two server processes, picked at
random, is killed with ``kill -9``; uvicorn's supervisor starts its replacement, and the people
whose connections it held start new games (the games they left wait on a person, or on a bot
that the other process takes over). Every ``--sample-every`` it reads each server process's
resident memory and open file descriptors (``/proc``), its asyncio tasks (``/metrics``:
``rulebook_asyncio_tasks``) and the database's connections (``pg_stat_activity``).

At the end, with the people stopped, it checks:

- **no acknowledged move lost**: every move acknowledged is in the database, at the number it
  was made at, by its seat, as sent;
- **no game stuck**: within ``--settle`` seconds every game it created is over or waiting on a
  person (no bot seat, nor a bot holding a person's seat, is left to move), read over the API;
- **served after every kill**: moves were acknowledged again after each kill;
- **memory flat**: each server process grew by at most 10% from its resident memory at the end
  of its warm-up to its largest after. A process's warm-up ends ``--warmup`` seconds after its
  cache of games is first full (``rulebook_games_in_memory`` at ``--cache-games``): a process
  started by a kill begins with no game in memory, and its memory grows with its cache until
  the cache is full, and full of games played a while;
- **nothing growing**: the asyncio tasks and open file descriptors (summed over the server
  processes: connections move between them) and the database's connections per live server
  process at the end (the median of the last third of the samples after the warm-up) are at
  most 10% (and 3) above their largest in the first third.

It prints a report (``--markdown FILE`` also writes it as markdown) and exits 1 when a check
fails. Usage::

    python benchmarks/soak.py [--games 200] [--minutes 60] [--kill-every 600]
                              [--warmup 300] [--think 1-3] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import uvloop
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_load

from pgtemp import missing, postgres
from rulebook.web.cluster import lock_key
from webserver import Server, server_processes

#: a process may grow this much after its warm-up, and the counts this much (and by FEW)
GROWTH = 0.10
FEW = 3


@dataclass
class Record:
    """What the people were told: each acknowledged move, each game created, each kill."""

    #: (game id, number) -> (seat, move) of every move acknowledged
    acked: web_load.Moves = field(default_factory=dict)
    #: when each move was acknowledged (seconds since the start)
    acked_at: list[float] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    kills: list[tuple[float, int]] = field(default_factory=list)
    start: float = field(default_factory=time.monotonic)

    def now(self) -> float:
        return time.monotonic() - self.start

    async def hook(self, response: httpx.Response) -> None:
        """httpx's response hook: note the games created (the errors and refusals of every
        request are the load generator's :class:`web_load.Stats`)."""
        request = response.request
        if request.method != "POST":
            return
        await response.aread()
        if request.url.path == "/api/games" and response.status_code == 201:
            self.games.append(response.json()["id"])

    def ack(self, game: str, version: int, seat: int, move: str) -> None:
        """The people's side of a move the server acknowledged (over the socket or HTTP)."""
        self.acked[(game, version)] = (seat, move)
        self.acked_at.append(self.now())


@dataclass
class Sample:
    at: float
    rss: dict[int, int]  #: server process -> resident bytes
    fds: dict[int, int]
    tasks: dict[int, int]
    db_connections: int
    load: float  #: the machine's load average (1 minute)
    games: dict[int, int] = field(default_factory=dict)  #: server process -> games in memory


def resident(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def per_process(name: str) -> re.Pattern[str]:
    """A gauge of each process in ``/metrics`` (prometheus-client's ``liveall``)."""
    return re.compile(rf'^{name}\{{pid="(\d+)"\}} ([0-9.e+]+)$', re.M)


TASKS = per_process("rulebook_asyncio_tasks")
GAMES = per_process("rulebook_games_in_memory")


async def gauges_of(http: httpx.AsyncClient) -> tuple[dict[int, int], dict[int, int]]:
    """Each live server process's asyncio tasks and games in memory, from ``/metrics``."""
    try:
        text = (await http.get("/metrics")).text
    except httpx.HTTPError:
        return {}, {}

    def each(pattern: re.Pattern[str]) -> dict[int, int]:
        return {int(pid): int(float(value)) for pid, value in pattern.findall(text)}

    return each(TASKS), each(GAMES)


def db_connections(database: str) -> int:
    with psycopg.connect(database, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0]) if row else 0


async def people(
    url: str, n: int, record: Record, stats: web_load.Stats, think: tuple[float, float]
) -> None:
    """``n`` tables of simulated people (``web_load.one_game``), each replaced when it ends
    or its connections were cut."""

    async def slot(k: int) -> None:
        rng = random.Random(k)
        source = web_load.address(k)
        transport = httpx.AsyncHTTPTransport(
            local_address=source, limits=httpx.Limits(keepalive_expiry=4.0)
        )
        async with httpx.AsyncClient(
            base_url=url, timeout=30, transport=transport, event_hooks={"response": [record.hook]}
        ) as http:
            while True:
                try:
                    await web_load.one_game(
                        [url], source, [http], stats, rng, "random", think, record.ack
                    )
                except (httpx.HTTPError, OSError, websockets.WebSocketException) as exc:
                    stats.error(f"{type(exc).__name__}")
                    await asyncio.sleep(0.5 + rng.random())

    slots = []
    for k in range(n):  # spread over the first 10 s
        slots.append(asyncio.create_task(slot(k)))
        await asyncio.sleep(10 / n)
    try:
        await asyncio.Event().wait()
    finally:
        for s in slots:
            s.cancel()
        await asyncio.gather(*slots, return_exceptions=True)


async def soak(args: argparse.Namespace, database: str, folder: Path) -> dict[str, Any]:
    server = Server(
        database,
        folder / "server.log",
        bot_delay=0.5,
        workers=1,
        processes=2,
        access_log=False,
        extra=("--no-lab", "--cache-games", str(args.cache_games)),
    )
    server.start()
    assert server.process is not None
    supervisor = server.process.pid
    record = Record()
    stats = web_load.Stats()
    stats.measuring = True  # every move's latency from the start
    samples: list[Sample] = []
    born: dict[int, float] = {}
    died: dict[int, float] = {}
    rng = random.Random(args.seed)
    metrics_http = httpx.AsyncClient(base_url=server.url, timeout=10)
    end = time.monotonic() + args.minutes * 60

    async def sample() -> None:
        while True:
            pids = server_processes(supervisor)
            now = record.now()
            for pid in pids:
                born.setdefault(pid, now)
            rss = {p: v for p in pids if (v := resident(p)) is not None}
            fds = {p: v for p in pids if (v := open_fds(p)) is not None}
            tasks, games = await gauges_of(metrics_http)
            tasks = {p: v for p, v in tasks.items() if p in pids}
            games = {p: v for p, v in games.items() if p in pids}
            connections = await asyncio.to_thread(db_connections, database)
            load = os.getloadavg()[0]
            samples.append(Sample(now, rss, fds, tasks, connections, load, games))
            await asyncio.sleep(args.sample_every)

    async def kill() -> None:
        while True:
            await asyncio.sleep(args.kill_every * rng.uniform(0.75, 1.25))
            if time.monotonic() > end - args.kill_every / 4:
                return  # no kill in the last stretch: its replacement could not be judged
            pids = sorted(server_processes(supervisor))
            if not pids:
                continue
            victim = rng.choice(pids)
            os.kill(victim, signal.SIGKILL)
            died[victim] = record.now()
            record.kills.append((record.now(), victim))
            print(f"  {record.now():7.0f} s  kill -9 of server process {victim}", flush=True)

    # web_load.one_game leaves its "game over" waiter pending when a connection is cut (it
    # ends in its own time): counted here, not printed once each
    dropped = Counter[str]()

    def quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == "Task was destroyed but it is pending!":
            dropped["load generator: a waiter task of a cut game left pending"] += 1
        else:
            loop.default_exception_handler(context)

    asyncio.get_running_loop().set_exception_handler(quiet)
    tasks = [
        asyncio.create_task(people(server.url, args.games, record, stats, args.think)),
        asyncio.create_task(sample()),
        asyncio.create_task(kill()),
    ]
    try:
        await asyncio.sleep(max(0.0, end - time.monotonic()))
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    stopped = record.now()
    stuck = await settle(metrics_http, record.games, args.settle)
    stuck = [await explain(metrics_http, database, gid) for gid in stuck]
    await metrics_http.aclose()
    lost = web_load.lost_moves(database, record.acked)
    server.stop()
    log = (folder / "server.log").read_text(errors="replace")
    stats.kinds.update(dropped)
    return {
        "record": record,
        "stats": stats,
        "samples": samples,
        "born": born,
        "died": died,
        "stopped": stopped,
        "stuck": stuck,
        "lost": lost,
        "tracebacks": log.count("Traceback"),
    }


async def settle(http: httpx.AsyncClient, games: list[str], timeout: float) -> list[str]:
    """The games still waiting on a bot after ``timeout`` seconds (none: every game is over
    or waiting on a person), read over the API."""
    end = time.monotonic() + timeout
    waiting = list(dict.fromkeys(games))
    while True:
        left = []
        for gid in waiting:
            try:
                r = await http.get(f"/api/games/{gid}/view")
                view = r.json()["views"][0]
            except (httpx.HTTPError, KeyError, ValueError):
                left.append(gid)  # not answered now: asked again
                continue
            if view["over"]:
                continue
            if any(view["kinds"][p] == "bot" or str(p) in view["held"] for p in view["to_act"]):
                left.append(gid)
        waiting = left
        if not waiting or time.monotonic() > end:
            return waiting
        await asyncio.sleep(1.0)


async def explain(http: httpx.AsyncClient, database: str, gid: str) -> str:
    """A stuck game as the API and the database see it (who is to move, its row, who holds
    its bots' lock)."""
    try:
        view = (await http.get(f"/api/games/{gid}/view")).json()["views"][0]
        seen = f"to act {view['to_act']}, kinds {view['kinds']}, held {view['held']}, "
        seen += f"version {view['version']}"
    except (httpx.HTTPError, KeyError, ValueError) as exc:
        seen = f"view not read ({type(exc).__name__})"
    with psycopg.connect(database, autocommit=True) as connection:
        row = connection.execute(
            "SELECT over, bots_move, writes FROM games WHERE id = %s", (gid,)
        ).fetchone()
        locks = connection.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
        ).fetchone()
        key = lock_key(gid) % 2**64  # pg_locks shows a bigint key as two oids
        holder = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
            "AND l.classid = %s AND l.objid = %s",
            (key >> 32, key & 0xFFFFFFFF),
        ).fetchone()
    held_by = holder[0] if holder else "nobody"
    return (
        f"{gid}: {seen}; stored over/bots_move/writes {row}; its bots' lock held by {held_by}; "
        f"advisory locks held {locks}"
    )


# -- the checks and the report ---------------------------------------------------------------------
@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def warmed(samples: list[Sample], pid: int, birth: float, args: argparse.Namespace) -> float | None:
    """When server process ``pid``'s warm-up ended: ``--warmup`` seconds after its cache of
    games was first seen full (and at least ``--warmup`` after its start); None if it never
    was. Its memory until then grows with the games it takes in, not with a leak."""
    full = next((s.at for s in samples if s.games.get(pid, 0) >= args.cache_games), None)
    if full is None:
        return None
    return max(birth, full) + float(args.warmup)


def along(samples: list[Sample], pid: int, after: list[tuple[float, int]], points: int = 6) -> str:
    """A process's memory through its judged life, at ``points`` moments evenly spread (with
    its games in memory then): a steady climb is a leak, steps at the kills of its partner
    (whose people it took in) are peaks that stay."""
    picks = sorted({round(i * (len(after) - 1) / (points - 1)) for i in range(points)})
    games = {s.at: s.games.get(pid, 0) for s in samples}
    return ", ".join(
        f"{after[i][1] / 2**20:.0f} ({games.get(after[i][0], 0)}) at {after[i][0]:.0f} s"
        for i in picks
    )


def judge(args: argparse.Namespace, run: dict[str, Any]) -> tuple[list[Check], list[str]]:
    record: Record = run["record"]
    samples: list[Sample] = run["samples"]
    checks = [
        Check(
            "no acknowledged move lost",
            not run["lost"],
            f"{len(record.acked)} acknowledged, {len(run['lost'])} missing"
            + (f" (first: {run['lost'][0]})" if run["lost"] else ""),
        ),
        Check(
            "no game stuck",
            not run["stuck"],
            f"{len(set(record.games))} games, {len(run['stuck'])} waiting on a bot after "
            f"{args.settle:.0f} s" + (f" (first: {run['stuck'][0]})" if run["stuck"] else ""),
        ),
    ]
    unserved = [
        at for at, _ in record.kills if not any(at < t < at + args.recover for t in record.acked_at)
    ]
    late = ", ".join(f"{t:.0f} s" for t in unserved)
    checks.append(
        Check(
            "served after every kill",
            not unserved,
            f"{len(record.kills)} kills; moves acknowledged within {args.recover:.0f} s after "
            + (f"each but those at {late}" if unserved else "each"),
        )
    )
    checks.append(
        Check(
            "no traceback in the servers' log",
            run["tracebacks"] == 0,
            f"{run['tracebacks']} (the log: --keep DIR)",
        )
    )
    # memory: each process from the end of its warm-up on
    rows = []
    grew = []
    judged = 0
    for pid, birth in sorted(run["born"].items(), key=lambda kv: kv[1]):
        mine = [(s.at, s.rss[pid]) for s in samples if pid in s.rss]
        warm = warmed(samples, pid, birth, args)
        after = [(at, v) for at, v in mine if warm is not None and at >= warm]
        seen = max((s.at for s in samples if pid in s.rss), default=birth)
        if pid in run["died"]:
            fate = f"killed at {run['died'][pid]:.0f} s"
        elif seen < run["stopped"] - 2 * args.sample_every:
            fate = f"gone by {seen + args.sample_every:.0f} s, not killed by the soak"
        else:
            fate = "to the end"
        if len(after) < 2:
            why = "its cache never full" if warm is None else "a short life"
            rows.append(f"| {pid} | {birth:.0f} s | {fate} | - | - | not judged ({why}) | - |")
            continue
        judged += 1
        base, peak = after[0][1], max(v for _, v in after)
        growth = peak / base - 1
        if growth > GROWTH:
            grew.append(pid)
        rows.append(
            f"| {pid} | {birth:.0f} s | {fate} | {base / 2**20:.0f} MiB at {after[0][0]:.0f} s "
            f"| {peak / 2**20:.0f} MiB | {growth:+.1%} | {along(samples, pid, after)} |"
        )
    checks.append(
        Check(
            "memory per process flat after warm-up",
            judged > 0 and not grew,
            f"{judged} processes judged, largest growth allowed {GROWTH:.0%}"
            + (f"; grew more: {grew}" if grew else "")
            + ("" if judged else "; no process lived past its warm-up"),
        )
    )
    settled = [s for s in samples if s.at >= args.warmup]
    third = max(1, len(settled) // 3)
    for name, values in (
        ("asyncio tasks", [sum(s.tasks.values()) for s in settled if s.tasks]),
        ("open file descriptors", [sum(s.fds.values()) for s in settled]),
        (
            "database connections per server process",
            [round(s.db_connections / len(s.rss), 1) for s in settled if s.rss],
        ),
    ):
        if len(values) < 3:
            checks.append(Check(f"no growing count of {name}", False, "too few samples"))
            continue
        first, last = max(values[:third]), statistics.median(values[-third:])
        limit = first * (1 + GROWTH) + FEW
        checks.append(
            Check(
                f"no growing count of {name}",
                last <= limit,
                f"largest in the first third {first}, median of the last third {last:g} "
                f"(limit {limit:.0f}); range {min(values)}-{max(values)}",
            )
        )
    return checks, rows


def report(args: argparse.Namespace, run: dict[str, Any], command: str) -> tuple[str, bool]:
    checks, rows = judge(args, run)
    record: Record = run["record"]
    stats: web_load.Stats = run["stats"]
    ok = all(c.ok for c in checks)
    lat = sorted(stats.latencies) or [float("nan")]
    loads = [s.load for s in run["samples"]] or [float("nan")]
    moves = len(record.acked)
    lines = [
        f"`{command}`",
        "",
        f"{args.games} games over 2 server processes on PostgreSQL (each keeping "
        f"{args.cache_games} games in memory) for {run['stopped'] / 60:.1f} min, "
        f"{len(record.kills)} kills (`kill -9`), {len(set(record.games))} games created, "
        f"{moves} people's moves acknowledged ({moves / max(run['stopped'], 1):.1f}/s); move to "
        f"every viewer p50 {web_load.percentile(lat, 0.5) * 1000:.0f} ms, "
        f"p99 {web_load.percentile(lat, 0.99) * 1000:.0f} ms. The machine's load average "
        f"meanwhile: {statistics.mean(loads):.1f} on {os.cpu_count()} cores "
        f"(largest {max(loads):.1f}).",
        "",
        "| check | result | figures |",
        "|---|---|---|",
        *(f"| {c.name} | {'pass' if c.ok else 'FAIL'} | {c.detail} |" for c in checks),
        "",
        "| server process | started | lived | resident after warm-up | largest after | growth "
        "| along the way: MiB (games in memory) at |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Errors the people met (the kills cut their connections):",
        "",
        *(f"- {n} x {kind}" for kind, n in stats.kinds.most_common(12)),
    ]
    if not stats.kinds:
        lines.append("- none")
    lines += [
        "",
        f"Refused for load (503; asked again after the wait it said, not errors): moves "
        f"{stats.refusals('move')} times ({stats.resent} moves made when sent again), new games "
        f"{stats.refusals('game')} times",
        "",
        *(f"- {n} x {kind}" for kind, n in stats.refused.most_common(12)),
        "",
        f"**{'PASS' if ok else 'FAIL'}**",
    ]
    return "\n".join(lines) + "\n", ok


def seconds(text: str) -> float:
    """``240``, ``240s``, ``4m``: seconds."""
    text = text.strip().lower()
    if text.endswith("m"):
        return float(text[:-1]) * 60
    return float(text.removesuffix("s"))


def arguments() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument(
        "--kill-every", type=seconds, default=600.0, help="seconds between kills (600, 10m, 40s)"
    )
    parser.add_argument(
        "--warmup",
        type=seconds,
        default=None,
        help="seconds of a process's life (and of the run) before its figures are judged "
        "(default: 5 min, or a quarter of the run if shorter)",
    )
    parser.add_argument("--sample-every", type=seconds, default=None)
    parser.add_argument("--settle", type=float, default=60.0)
    parser.add_argument("--recover", type=float, default=30.0)
    web_load.add_think(parser)
    parser.add_argument(
        "--cache-games",
        type=int,
        default=None,
        help="the servers' --cache-games (default: 1.5 times --games, so that the cache of "
        "games in memory is full by the end of the warm-up and memory can be judged flat)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--keep", type=Path, help="keep the server's log in this folder")
    return parser


def main() -> None:
    args = arguments().parse_args()
    run_seconds = args.minutes * 60
    if args.warmup is None:
        args.warmup = min(300.0, run_seconds / 4)
    if args.sample_every is None:
        args.sample_every = min(30.0, max(2.0, run_seconds / 60))
    if args.cache_games is None:
        args.cache_games = max(50, args.games * 3 // 2)
    reason = missing()
    if reason:
        sys.exit(f"soak: {reason}")
    command = "python benchmarks/soak.py " + " ".join(sys.argv[1:])
    print(
        f"soak: {args.games} games, {args.minutes:g} min, kill -9 every ~{args.kill_every:.0f} s",
        flush=True,
    )
    with postgres() as database, tempfile.TemporaryDirectory(prefix="rulebook-soak-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        run = uvloop.run(soak(args, database, folder))
        if run["tracebacks"]:
            tail = (folder / "server.log").read_text(errors="replace")
            print(tail[tail.find("Traceback") - 500 :][:3000], file=sys.stderr)
    text, ok = report(args, run, command.strip())
    rev = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(text)
    if args.markdown:
        args.markdown.write_text(f"Commit {rev}.\n\n{text}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
