"""Load test of the web app (``make bench-web``; not part of ``make test``).

One ``rulebook serve`` process, on SQLite and then on a throwaway PostgreSQL server started from
the machine's binaries, plays ``--games`` concurrent games on 127.0.0.1. Each game has two
simulated people (each a WebSocket client that reads its seat's payload and, after a think
time, posts a legal move over HTTP), a bot seat and a spectator. Games are turn-based (Battle
Merchants, Archmagi, Pandoria Merchants), so every move reaches every connection; a finished
game is replaced by a new one. After a warm-up, for ``--seconds`` seconds it reports the moves
per second the server made (people's and bots') and the time from a person's move being sent to
the update reaching every seat and the spectator of the game (p50, p99, max).

Usage::

    python benchmarks/web_load.py [--games 200] [--seconds 60] [--db sqlite|postgresql|both]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pgtemp import missing, postgres
from webserver import Server

GAMES = [
    ("battle-merchants", 3),
    ("archmagi", 3),
    ("pandoria-merchants", 3),
]
VERSION = re.compile(r'"version": (\d+), "can_undo"')


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    measuring: bool = False
    errors: int = 0


class Game:
    """One game: its connections and the moves in flight (waiting for every update)."""

    def __init__(self, gid: str, tokens: list[str]) -> None:
        self.id = gid
        self.tokens = tokens
        self.versions: list[int] = []  # per connection: the last version seen
        self.waiting: list[tuple[int, float, set[int]]] = []  # (version, sent at, pending)
        self.over = asyncio.Event()


async def watch(
    url: str, game: Game, index: int, token: str | None, stats: Stats, person: Any
) -> None:
    """One connection: track versions, settle the latencies, and let the person move."""
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{game.id}"
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"token": token} if token else {"spectate": True}))
        async for raw in ws:
            text = raw if isinstance(raw, str) else raw.decode()
            match = VERSION.search(text)
            if match is None:
                continue
            version = int(match[1])
            if token is None and version > game.versions[index] and stats.measuring:
                stats.moves += version - game.versions[index]
            game.versions[index] = version
            now = time.perf_counter()
            for target, sent, pending in list(game.waiting):
                if version >= target and index in pending:
                    pending.discard(index)
                    if not pending:
                        game.waiting.remove((target, sent, pending))
                        if stats.measuring:
                            stats.latencies.append(now - sent)
            if '"over": true' in text:
                game.over.set()
                return
            if person is not None and '"legal": [],' not in text:
                person.put_nowait(json.loads(text)["view"])


async def person(
    url: str,
    http: httpx.AsyncClient,
    game: Game,
    token: str,
    queue: Any,
    stats: Stats,
    rng: random.Random,
    think: tuple[float, float],
) -> None:
    """A simulated person: think, then post one of the legal moves shown."""
    while not game.over.is_set():
        view = await queue.get()
        while not queue.empty():
            view = queue.get_nowait()
        await asyncio.sleep(rng.uniform(*think))
        if game.over.is_set():
            return
        move = rng.choice(view["legal"])["text"]
        body = {"seat": view["seat"], "move": move, "version": view["version"]}
        target = max(game.versions) + 1
        game.waiting.append((target, time.perf_counter(), set(range(len(game.versions)))))
        try:
            r = await http.post(
                f"/api/games/{game.id}/move",
                json=body,
                headers={"authorization": f"Bearer {token}"},
            )
        except httpx.HTTPError:
            stats.errors += 1
            game.waiting.pop()
            continue
        if r.status_code != 200:
            game.waiting[:] = [w for w in game.waiting if w[0] != target]
            if r.status_code != 409:
                stats.errors += 1


async def one_game(
    url: str,
    http: httpx.AsyncClient,
    stats: Stats,
    rng: random.Random,
    bot: str,
    think: tuple[float, float],
) -> None:
    name, players = rng.choice(GAMES)
    seats = ["human", "human", bot][:players]
    r = await http.post("/api/games", json={"game": name, "players": players, "seats": seats})
    r.raise_for_status()
    links = r.json()
    tokens = [s["url"].split("#", 1)[1] for s in links["seats"]]
    game = Game(links["id"], tokens)
    game.versions = [0] * (len(tokens) + 1)
    queues = [asyncio.Queue[Any]() for _ in tokens]
    tasks = [
        asyncio.create_task(watch(url, game, i, t, stats, queues[i])) for i, t in enumerate(tokens)
    ]
    tasks.append(asyncio.create_task(watch(url, game, len(tokens), None, stats, None)))
    tasks += [
        asyncio.create_task(person(url, http, game, t, queues[i], stats, rng, think))
        for i, t in enumerate(tokens)
    ]
    try:
        await game.over.wait()
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def keep_games(
    url: str,
    stats: Stats,
    n: int,
    bot: str,
    think: tuple[float, float],
    warmup: float,
    seconds: float,
) -> None:
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:

        async def slot(k: int) -> None:
            rng = random.Random(k)
            while True:
                try:
                    await one_game(url, http, stats, rng, bot, think)
                except (httpx.HTTPError, OSError, websockets.WebSocketException):
                    stats.errors += 1
                    await asyncio.sleep(0.5)

        slots = []
        for k in range(n):  # ramp up over the warm-up
            slots.append(asyncio.create_task(slot(k)))
            await asyncio.sleep(warmup / 2 / n)
        await asyncio.sleep(warmup / 2)
        stats.measuring = True
        await asyncio.sleep(seconds)
        stats.measuring = False
        for s in slots:
            s.cancel()
        await asyncio.gather(*slots, return_exceptions=True)


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(db_name: str, url_of_db: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    log = folder / f"server-{db_name}.log"
    stats = Stats()
    with Server(url_of_db, log, args.bot_delay, workers=1, access_log=False) as server:
        assert server.process is not None
        pid = server.process.pid
        cpu = [0.0, 0.0]

        async def sample_cpu() -> None:
            while not stats.measuring:
                await asyncio.sleep(0.05)
            start = (cpu_seconds(pid), time.process_time())
            while stats.measuring:
                await asyncio.sleep(0.05)
            cpu[0] = cpu_seconds(pid) - start[0]
            cpu[1] = time.process_time() - start[1]

        async def both() -> None:
            sampler = asyncio.create_task(sample_cpu())
            await keep_games(
                server.url,
                stats,
                args.games,
                args.bot,
                (args.think_min, args.think_max),
                args.warmup,
                args.seconds,
            )
            await sampler

        asyncio.run(both())
    lat = [x * 1000 for x in stats.latencies]
    row = {
        "db": db_name,
        "games": args.games,
        "seconds": args.seconds,
        "moves_per_s": stats.moves / args.seconds,
        "measured_moves": len(lat),
        "p50_ms": statistics.median(lat) if lat else float("nan"),
        "p99_ms": percentile(lat, 0.99) if lat else float("nan"),
        "max_ms": max(lat) if lat else float("nan"),
        "errors": stats.errors,
        "server_cpu_ms_per_move": 1000 * cpu[0] / max(stats.moves, 1),
        "client_cpu_ms_per_move": 1000 * cpu[1] / max(stats.moves, 1),
    }
    print(
        f"{db_name:10} {args.games} games: {row['moves_per_s']:.1f} moves/s; person's move to "
        f"every seat's update over {len(lat)} moves: p50 {row['p50_ms']:.1f} ms, "
        f"p99 {row['p99_ms']:.1f} ms, max {row['max_ms']:.1f} ms; errors {stats.errors}; "
        f"CPU per move: server {row['server_cpu_ms_per_move']:.1f} ms (its process alone), "
        f"load generator {row['client_cpu_ms_per_move']:.1f} ms",
        flush=True,
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--bot", default="random", help="the bot seat's kind (default random)")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulebook-bench-web-") as tmp:
        folder = Path(tmp)
        if args.db in ("sqlite", "both"):
            rows.append(run("sqlite", f"sqlite:///{folder / 'bench.sqlite3'}", args, folder))
        if args.db in ("postgresql", "both"):
            reason = missing()
            if reason:
                print(f"postgresql: skipped ({reason})")
            else:
                with postgres() as url:
                    rows.append(run("postgresql", url, args, folder))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(130)
