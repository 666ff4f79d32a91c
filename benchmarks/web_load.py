"""Load test of the web app (``make bench-web``; not part of ``make test``).

One ``rulebook serve`` process on SQLite, then one and then two processes on a throwaway
PostgreSQL server started from the machine's binaries (``--processes``), play ``--games``
concurrent games on 127.0.0.1. Each game has two simulated people (each a WebSocket client
that reads its seat's payload and, after a think time of ``--think MIN-MAX`` seconds, 1-3 by
default, sends one of its legal moves), a bot seat and a spectator. Where the server takes
moves over the socket and sends deltas (its hello says so), the people send their moves there
and build their seats' payloads from the deltas, parsing them with orjson (a page does the
same); the spectator reads only each message's head (its version, whether the game is over).
With an older server (``--baseline-src``) they read whole payloads with regular expressions and
post their moves over HTTP, as that server's pages do. Games are turn-based (Battle Merchants,
Archmagi, Pandoria Merchants), so every move reaches every connection; a finished game is
replaced by a new one. Each game's clients connect from their own loopback address
(127.0.x.y), as people do from their own machines, so the server's per-client limits see one
table each. With several processes, a game's connections go to the processes in turn (moves
over HTTP are posted to one picked at random), so most updates cross from one process to
another (through PostgreSQL's notifications). The open-files limit is raised to its hard limit
(each game holds 4 sockets on each side).

A server past what it can serve refuses new games and moves for load (503 with
``Retry-After``; over the socket an error with ``"status": 503`` and ``retry_after``: nothing
was changed). The people do what the game page and the new-game form do: a refused move is
sent again, the same, after the wait it was told plus up to a second (so the refused do not
all come back at once), as many times as it takes while the run lasts; a refused new game is
asked for again after its wait. Those refusals are counted apart from the errors, which are
the real failures only: a dropped connection, a bad or missing answer, any other refusal, an
acknowledged move not in the store (every acknowledged move is looked up there once the
servers are stopped).

After a warm-up, for ``--seconds`` seconds it reports the moves per second the servers made
(people's and bots', counted from the spectator's updates: a refused request is no move), the
time from a person's move being sent to the update reaching every seat and the spectator of
the game (p50, p99, max; a move refused and sent again counts from its FIRST sending: what
the person waits), the errors by kind, the refusals for load (moves and new games, over the
whole run and while measuring, by the server's reason; the moves made once sent again), the
acknowledged moves missing from the store, the CPU per move of the servers (each process's
and their sum), their workers and the load generator, and the load average; ``--json FILE``
writes the same figures, a row per run. ``--profile OUT`` runs the servers under cProfile.
``--lab`` keeps a balance-lab run going on the servers while they serve (a simulation of greedy
Merchants of Magick games on every core, queued through the lab's API before the warm-up,
cancelled after), and reports the games it played meanwhile: the games' pace with the lab at
work.

``--baseline-src DIR`` measures a baseline side by side in the same run: each configuration
is run with this tree's servers and then with the servers of the ``rulebook`` package in DIR
(another checkout's ``src/``, its compiled modules built there), alternating ``--repeat``
times, and the rows say which is which. Set ``RULEBOOK_COMPILED`` the same for both.

Usage::

    python benchmarks/web_load.py [--games 200] [--seconds 60] [--db sqlite|postgresql|both]
                                  [--processes 1,2] [--think 1-3]

The scale runs (``make bench-web-scale``)::

    python benchmarks/web_load.py --db postgresql --processes 2 --games 600 --think 1-3 \
        --warmup 60 --seconds 120
    python benchmarks/web_load.py --db postgresql --processes 2 --games 1000 --think 5-15 \
        --warmup 90 --seconds 180

The overload run (``make bench-web-overload``): 2,500 games on two processes, meant to take
them past what they serve, so that they refuse some; the refusals are reported, the errors
must stay 0 (no connection dropped, no acknowledged move lost)::

    python benchmarks/web_load.py --db postgresql --processes 2 --games 2500 --think 1-3 \
        --warmup 60 --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import re
import sqlite3
import ssl
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import psycopg
import uvloop
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pgtemp import missing, postgres
from webserver import Server, raise_open_files

GAMES = [
    ("battle-merchants", 3),
    ("archmagi", 3),
    ("pandoria-merchants", 3),
]
#: the lab run ``--lab`` keeps going: more games than the measurement can see end
LAB_RUN = {
    "kind": "simulate",
    "game": "merchants-of-magick",
    "players": 4,
    "variant": "standard",
    "seats": ["greedy"] * 4,
    "games": 100_000,
    "seed": 0,
}
#: what the load generator reads of a view message without parsing it (``{"type": "view",
#: "view": {...}}``, as ``json.dumps`` or orjson write it)
VERSION = re.compile(r'"version": ?(\d+), ?"can_undo"')
NO_MOVES = re.compile(r'"legal": ?\[\], ?"to_act"')
OVER = re.compile(r'"over": ?true, ?"result"')


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    measuring: bool = False
    #: the real failures: dropped connections, bad or missing answers, acknowledged moves not
    #: stored (a refusal for load is none of them)
    errors: int = 0
    #: every error by kind (status and reason, or exception): none is hidden
    kinds: Counter[str] = field(default_factory=Counter)
    #: requests refused for load (503 with when to ask again) and asked again then, by what
    #: (``move``, ``game``) and the server's reason, over the whole run ...
    refused: Counter[str] = field(default_factory=Counter)
    #: ... and by what, those while measuring
    refused_measuring: Counter[str] = field(default_factory=Counter)
    #: moves made after one refusal or more (sent again until taken)
    resent: int = 0

    def error(self, kind: str) -> None:
        self.errors += 1
        self.kinds[kind[:100]] += 1

    def refuse(self, what: str, reason: str) -> None:
        """A ``move`` or a new ``game`` refused for load, for ``reason`` (the server's)."""
        self.refused[f"{what}: {reason}"[:120]] += 1
        if self.measuring:
            self.refused_measuring[what] += 1

    def refusals(self, what: str) -> int:
        """The refusals of ``what`` over the whole run."""
        return sum(n for kind, n in self.refused.items() if kind.startswith(f"{what}: "))


#: a refused request is asked again after at most this many seconds, whatever it was told (as
#: the game page does)
LONGEST_WAIT = 60.0


def refusal(status: int, retry_after: object) -> float | None:
    """The seconds to wait before asking again when an answer is a refusal for load: 503 with
    ``Retry-After`` (or a socket's ``retry_after``) a positive number of seconds (at most
    :data:`LONGEST_WAIT`); nothing was changed. None for any other answer, a 503 that says not
    when included (a failure, as the game page takes it)."""
    if status != 503 or isinstance(retry_after, bool):
        return None
    try:
        seconds = float(retry_after)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if not (0 < seconds < math.inf):
        return None
    return min(seconds, LONGEST_WAIT)


def resend_after(seconds: float, rng: random.Random) -> float:
    """When to ask again after a refusal that said ``seconds``: then, plus up to a second (as
    the game page spreads the pages refused together, so that they do not all come back at
    once)."""
    return seconds + rng.random()


def reason_of(response: httpx.Response) -> str:
    """The one-line reason of an HTTP answer (its JSON ``error``, else its text)."""
    try:
        said = response.json()
    except ValueError:
        return response.text[:100]
    return str(said.get("error")) if isinstance(said, dict) else response.text[:100]


#: one TLS context for every client (the servers speak plain HTTP; httpx would otherwise load
#: the certificates anew for each of a thousand games' clients: seconds of the ramp-up)
TLS = ssl.create_default_context()


def address(k: int) -> str:
    """The loopback address game slot ``k`` connects from: one client address per simulated
    table, as people connect from their own machines (the server's per-client limits see one
    table each, not every table behind one address)."""
    return f"127.0.{1 + k // 250}.{1 + k % 250}"


class Game:
    """One game: its connections and the moves in flight (waiting for every update)."""

    def __init__(self, gid: str, tokens: list[str]) -> None:
        self.id = gid
        self.tokens = tokens
        n = len(tokens) + 1  # the seats' connections and the spectator's
        self.versions = [0] * n  # per connection: the last version seen
        self.texts = [""] * n  # per connection (a server without deltas): the last view, as sent
        #: per seat connection (a server with deltas): its payload, kept up to date by the
        #: deltas, and the number of its frame
        self.views: list[dict[str, Any] | None] = [None] * n
        self.frames = [-1] * n
        #: per seat connection: its socket, where the server takes moves over it
        self.sockets: list[Any] = [None] * n
        #: the answers awaited to moves sent over a socket, by the move's id
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.asked = 0
        self.changed = [asyncio.Event() for _ in range(n)]
        self.waiting: list[tuple[int, float, set[int]]] = []  # (version, sent at, pending)
        self.over = asyncio.Event()

    def seen(self, index: int, version: int, stats: Stats) -> None:
        """Connection ``index`` has the payload of ``version``: count the moves (the
        spectator's), settle the latencies of the moves every connection has now seen."""
        if index == len(self.tokens) and version > self.versions[index] and stats.measuring:
            stats.moves += version - self.versions[index]
        self.versions[index] = version
        now = time.perf_counter()
        for target, sent, pending in list(self.waiting):
            if version >= target and index in pending:
                pending.discard(index)
                if not pending:
                    self.waiting.remove((target, sent, pending))
                    if stats.measuring:
                        stats.latencies.append(now - sent)


#: the head of a view or delta message of a server that sends deltas (its fields first)
HEAD = re.compile(
    rb'\{"type":"(?:view|delta)","frame":\d+,"seat":[^,]+,"version":(\d+),"over":(t|f)'
)


async def watch(url: str, source: str, game: Game, index: int, stats: Stats) -> None:
    """One connection (``index``: a seat's, or the spectator's after them): track versions,
    settle the latencies, and hand the newest view to the person of the seat. Where the
    server takes moves over the socket and sends deltas (its hello says), the seats' messages
    are parsed (orjson) and their deltas applied, as a page does; the spectator's are not
    parsed (its counts are in each message's head). Else (an older server, ``--baseline-src``)
    as the pages of that server: whole payloads, read with regular expressions."""
    token = game.tokens[index] if index < len(game.tokens) else None
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{game.id}"
    async with websockets.connect(
        ws_url, max_size=2**22, compression=None, local_addr=(source, 0)
    ) as ws:
        hello = {"token": token} if token else {"spectate": True}
        await ws.send(json.dumps({**hello, "deltas": True}))
        said = orjson.loads(await ws.recv(decode=False))
        if said.get("type") != "hello":
            stats.error(f"websocket: {said}")
            return
        if "move" not in said.get("takes", ()):
            await watch_whole(ws, game, index, stats)
            return
        if token is not None:
            game.sockets[index] = ws
        async for raw in _frames(ws):
            if token is None:
                head = HEAD.match(raw)
                if head is None:
                    if raw.startswith(b'{"type":"error"'):
                        stats.error(f"websocket: {raw[:200]!r}")
                    continue
                game.seen(index, int(head[1]), stats)
                if head[2] == b"t":
                    game.over.set()
                    return
                continue
            data = orjson.loads(raw)
            kind = data["type"]
            if kind == "delta":
                view = game.views[index]
                if view is None or data["base"] != game.frames[index]:
                    await ws.send('{"type":"full"}')  # lost track: the whole payload again
                    continue
                view.update(data["view"])
                keep, added = data["log"]
                view["log"] = view["log"][:keep] + added
            elif kind == "view":
                view = game.views[index] = data["view"]
            else:
                answer = game.answers.pop(data.get("id", -1), None)
                if answer is not None and not answer.done():
                    answer.set_result(data)
                elif kind == "error":
                    stats.error(f"websocket: {raw[:200]!r}")
                continue
            game.frames[index] = data["frame"]
            game.seen(index, data["version"], stats)
            if data["over"]:
                game.over.set()
                return
            game.changed[index].set()


async def _frames(ws: Any) -> Any:
    """The messages of a socket as bytes (text frames not decoded: orjson reads UTF-8)."""
    with contextlib.suppress(websockets.ConnectionClosedOK):
        while True:
            yield await ws.recv(decode=False)


async def watch_whole(ws: Any, game: Game, index: int, stats: Stats) -> None:
    """:func:`watch` on a server that sends whole payloads only, moves by HTTP."""
    async for raw in ws:
        text = raw if isinstance(raw, str) else raw.decode()
        match = VERSION.search(text)
        if match is None:
            if '"type": "error"' in text or '"type":"error"' in text:
                stats.error(f"websocket: {text}")
            continue
        game.texts[index] = text
        game.seen(index, int(match[1]), stats)
        if OVER.search(text):
            game.over.set()
            return
        game.changed[index].set()


#: told of each acknowledged move: the game, the version the move was made at, the seat, the move
Acked = Callable[[str, int, int, str], None]


@dataclass
class Answer:
    """The server's answer to a move: made (at ``version``), refused for load (ask again after
    ``wait`` seconds), or failed (``error``)."""

    version: int | None = None
    wait: float | None = None
    reason: str = ""
    error: str = ""


async def send_move(
    https: list[httpx.AsyncClient],
    game: Game,
    index: int,
    body: dict[str, Any],
    rng: random.Random,
) -> Answer:
    """Send a move once: over the seat's socket where the server takes moves there, else by
    HTTP (to any process), and read the answer."""
    socket = game.sockets[index]
    if socket is not None:
        game.asked += 1
        asked = game.asked
        answer = game.answers[asked] = asyncio.get_running_loop().create_future()
        try:
            await socket.send(orjson.dumps({"type": "move", "id": asked, **body}).decode())
            # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation
            # that comes as the answer does, and the person then waited for ever on a game
            # whose connections were gone (a run that never ended)
            async with asyncio.timeout(30):
                said = await answer
        except (TimeoutError, websockets.WebSocketException) as exc:
            game.answers.pop(asked, None)
            return Answer(error=f"move: {type(exc).__name__} {exc}")
        if said["type"] == "moved":
            return Answer(version=said["version"])
        status = said.get("status")
        wait = refusal(status if type(status) is int else 0, said.get("retry_after"))
        if wait is not None:
            return Answer(wait=wait, reason=str(said.get("error")))
        return Answer(error=f"move: {status} {said.get('error')}")
    # any process (one process: the random sequence as it was before there were several)
    http = https[rng.randrange(len(https))] if len(https) > 1 else https[0]
    try:
        r = await http.post(
            f"/api/games/{game.id}/move",
            json=body,
            headers={"authorization": f"Bearer {game.tokens[index]}"},
        )
    except httpx.HTTPError as exc:
        return Answer(error=f"move: {type(exc).__name__} {exc}")
    if r.status_code == 200:
        return Answer(version=r.json()["version"])
    wait = refusal(r.status_code, r.headers.get("retry-after"))
    if wait is not None:
        return Answer(wait=wait, reason=reason_of(r))
    return Answer(error=f"move: {r.status_code} {r.text}")


async def person(
    https: list[httpx.AsyncClient],
    game: Game,
    index: int,
    stats: Stats,
    rng: random.Random,
    think: tuple[float, float],
    acked: Acked | None = None,
) -> None:
    """A simulated person at seat connection ``index``: when the newest view offers moves,
    think, then send one of the legal moves of the view newest by then (over the seat's
    socket where the server takes them, else by HTTP). A move refused for load (503) is sent
    again, the same, after the wait the server asked for (plus up to a second), as many times
    as it takes, as the game page does; its latency counts from its first sending. A view
    older than the person's last accepted move (an update still on its way) is not acted on.
    ``acked`` hears every move the server acknowledged (the soak checks them against the
    store)."""
    floor = 0  # the version of the person's last accepted move: older views are stale
    connections = len(game.versions)

    def newest() -> dict[str, Any] | None:
        """The view to act on, if it offers moves (parsed only then, from whole payloads)."""
        if game.versions[index] < floor:
            return None
        view = game.views[index]
        if view is not None:
            return view if view["legal"] else None
        text = game.texts[index]
        if not text or NO_MOVES.search(text):
            return None
        whole: dict[str, Any] = json.loads(text)["view"]
        return whole

    while not game.over.is_set():
        await game.changed[index].wait()
        game.changed[index].clear()
        if newest() is None:
            continue
        await asyncio.sleep(rng.uniform(*think))
        view = None if game.over.is_set() else newest()
        if view is None:
            continue
        move = rng.choice(view["legal"])["text"]
        body = {"seat": view["seat"], "move": move, "version": view["version"]}
        first = time.perf_counter()  # what the person waits counts from here
        refused = 0
        while True:
            target = max(game.versions) + 1
            game.waiting.append((target, first, set(range(connections))))
            answer = await send_move(https, game, index, body, rng)
            if answer.version is not None:
                floor = answer.version
                if refused:
                    stats.resent += 1
                if acked is not None:
                    acked(game.id, body["version"], body["seat"], move)
                break
            game.waiting[:] = [w for w in game.waiting if w[0] != target]
            if answer.wait is None:
                stats.error(answer.error)
                break
            stats.refuse("move", answer.reason)
            refused += 1
            await asyncio.sleep(resend_after(answer.wait, rng))
            if game.over.is_set():
                break


async def new_game(
    http: httpx.AsyncClient, body: dict[str, Any], stats: Stats, rng: random.Random
) -> dict[str, Any] | None:
    """Create a game (``POST /api/games``): its links, or None after an error. Refused for
    load, it is asked for again, the same, after the wait it was told (plus up to a second),
    as the new-game form does, as many times as it takes."""
    while True:
        r = await http.post("/api/games", json=body)
        if r.status_code == 201:
            links: dict[str, Any] = r.json()
            return links
        wait = refusal(r.status_code, r.headers.get("retry-after"))
        if wait is None:
            stats.error(f"create: {r.status_code} {r.text}")
            return None
        stats.refuse("game", reason_of(r))
        await asyncio.sleep(resend_after(wait, rng))


async def one_game(
    urls: list[str],
    source: str,
    https: list[httpx.AsyncClient],
    stats: Stats,
    rng: random.Random,
    bot: str,
    think: tuple[float, float],
    acked: Acked | None = None,
) -> None:
    name, players = rng.choice(GAMES)
    seats = ["human", "human", bot][:players]
    first = rng.randrange(len(urls)) if len(urls) > 1 else 0
    body = {"game": name, "players": players, "seats": seats}
    links = await new_game(https[first], body, stats, rng)
    if links is None:
        await asyncio.sleep(1.0)
        return
    tokens = [s["url"].split("#", 1)[1] for s in links["seats"]]
    game = Game(links["id"], tokens)
    n = len(urls)  # the connections go to the processes in turn
    tasks = [
        asyncio.create_task(watch(urls[(first + i) % n], source, game, i, stats))
        for i in range(len(tokens) + 1)
    ]
    tasks += [
        asyncio.create_task(person(https, game, i, stats, rng, think, acked))
        for i in range(len(tokens))
    ]
    try:
        over = asyncio.create_task(game.over.wait())
        tasks.append(over)
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for t in done:
            if t is not over and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def keep_games(
    urls: list[str],
    stats: Stats,
    n: int,
    bot: str,
    think: tuple[float, float],
    warmup: float,
    seconds: float,
    acked: Acked | None = None,
) -> None:
    async def slot(k: int) -> None:
        rng = random.Random(k)
        source = address(k)
        # a connection idle for 4 s is not reused: the server closes those idle for 5 s, and
        # a request sent as it does so fails (a browser would send it again)
        limits = httpx.Limits(keepalive_expiry=4.0)
        https = [
            httpx.AsyncClient(
                base_url=url,
                timeout=30,
                transport=httpx.AsyncHTTPTransport(local_address=source, limits=limits, verify=TLS),
            )
            for url in urls
        ]
        try:
            while True:
                try:
                    await one_game(urls, source, https, stats, rng, bot, think, acked)
                except (httpx.HTTPError, OSError, websockets.WebSocketException) as exc:
                    stats.error(f"{type(exc).__name__} {exc}")
                    await asyncio.sleep(0.5)
        finally:
            for http in https:
                await http.aclose()

    slots = []
    for k in range(n):  # ramp up over the first half of the warm-up
        slots.append(asyncio.create_task(slot(k)))
        await asyncio.sleep(warmup / 2 / n)
    await asyncio.sleep(warmup / 2)
    # the load generator's own full collections (150,000 objects, cycles from its many
    # connections) would pause its event loop and count as the server's latency: none while
    # measuring (what it holds is frozen; the garbage of one minute is collected after)
    gc.collect()
    gc.freeze()
    gc.disable()
    stats.measuring = True
    await asyncio.sleep(seconds)
    stats.measuring = False
    gc.enable()
    gc.unfreeze()
    for s in slots:
        s.cancel()
    _, stuck = await asyncio.wait(slots, timeout=60)
    for _ in stuck:  # none should: said, not waited for
        stats.error("a simulated game did not stop within 60 s of the end")


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu(pid: int) -> dict[int, float]:
    """CPU time used so far by each process that process ``pid`` started (its bot workers)."""
    used = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            used[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf(
                "SC_CLK_TCK"
            )
    return used


def percentile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


#: each acknowledged move: (game id, the version it was made at) -> (seat, move)
Moves = dict[tuple[str, int], tuple[int, str]]


def lost_moves(db_url: str, acked: Moves) -> list[str]:
    """The acknowledged moves not in the store (SQLite or PostgreSQL) as they were
    acknowledged: at the number they were made at, by their seat, as sent. Read once the
    servers are stopped (their queued writes done)."""
    query = "SELECT game_id, number, seat, move FROM moves"
    if db_url.startswith("sqlite:///"):
        path = db_url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(path)) as connection:
            rows = connection.execute(query).fetchall()
    else:
        with psycopg.connect(db_url, autocommit=True) as connection:
            rows = connection.execute(query).fetchall()
    stored = {(g, n): (seat, move) for g, n, seat, move in rows}
    return [
        f"{g} move {n}: seat {seat} {move!r} (stored: {stored.get((g, n))})"
        for (g, n), (seat, move) in acked.items()
        if stored.get((g, n)) != (seat, move)
    ]


def outcome(stats: Stats, acknowledged: int, lost: list[str] | None) -> dict[str, Any]:
    """A run's errors and refusals as its row (``--json``) gives them: the errors (real
    failures) by kind; the refusals for load (each a request asked again after the wait it was
    told) of moves and of new games over the whole run and while measuring, and by reason;
    the moves made once sent again; the acknowledged moves and those not in the store (None:
    not checked)."""
    return {
        "errors": stats.errors,
        "errors_by_kind": dict(stats.kinds),
        "moves_refused": stats.refusals("move"),
        "games_refused": stats.refusals("game"),
        "moves_refused_measuring": stats.refused_measuring["move"],
        "games_refused_measuring": stats.refused_measuring["game"],
        "refused_by_reason": dict(stats.refused),
        "moves_resent_and_made": stats.resent,
        "acknowledged_moves": acknowledged,
        "lost_moves": None if lost is None else len(lost),
    }


def outcome_line(row: dict[str, Any]) -> str:
    """The errors and refusals of a row (:func:`outcome`) in words, for the printed line."""
    if row["lost_moves"] is None:
        stored = f"{row['acknowledged_moves']:,} acknowledged moves, not checked in the store"
    else:
        stored = f"{row['lost_moves']} of {row['acknowledged_moves']:,} acknowledged moves lost"
    refused = "refused for load: none"
    if row["moves_refused"] or row["games_refused"]:
        refused = (
            f"refused for load and asked again: moves {row['moves_refused']:,} times "
            f"({row['moves_resent_and_made']:,} moves made when sent again), new games "
            f"{row['games_refused']:,} times ({row['moves_refused_measuring']:,} and "
            f"{row['games_refused_measuring']:,} of those while measuring)"
        )
    return f"errors {row['errors']} ({stored}); {refused}"


def outcome_kinds(stats: Stats, most: int = 10) -> list[str]:
    """The errors by kind, then the refusals by what and reason: the most frequent of each."""
    lines = []
    if stats.kinds:
        lines.append("errors:")
        lines += [f"{n:6} x {kind}" for kind, n in stats.kinds.most_common(most)]
    if stats.refused:
        lines.append("refused for load (503; asked again after the wait it said):")
        lines += [f"{n:6} x {kind}" for kind, n in stats.refused.most_common(most)]
    return lines


def run(
    db_name: str,
    url_of_db: str,
    processes: int,
    args: argparse.Namespace,
    folder: Path,
    src: Path | None = None,
) -> dict[str, Any]:
    label = db_name if processes == 1 else f"{db_name} x{processes}"
    if args.lab:
        label += " +lab"
    if args.baseline_src is not None:
        label = f"{label} {'baseline' if src is not None else 'now'}"
    stats = Stats()
    acknowledged: Moves = {}

    def ack(gid: str, version: int, seat: int, move: str) -> None:
        acknowledged[(gid, version)] = (seat, move)

    servers = []
    for i in range(processes):
        tag = f"{db_name}-{processes}-{i}"
        profile = args.profile and args.profile.with_suffix(f".{tag}.prof")
        log = folder / f"server-{tag}.log"
        servers.append(
            Server(
                url_of_db,
                log,
                args.bot_delay,
                workers=1,
                access_log=False,
                profile=profile,
                src=src,
                extra=("--lab-dir", str(folder / f"lab-{tag}")),
            )
        )
    # the first makes the database's tables, then the others start together (two processes
    # making the tables of a new database at once may both try to create one)
    servers[0].start()
    starting = [threading.Thread(target=server.start) for server in servers[1:]]
    for t in starting:
        t.start()
    for t in starting:
        t.join()
    try:
        pids = [server.process.pid for server in servers if server.process is not None]
        assert len(pids) == processes and all(s.running for s in servers), "a server is down"
        cpu = [[0.0] * processes, [0.0] * processes, [0.0]]  # servers, their workers, client
        load = [0.0, 0.0]  # the machine's 1-minute load average as measuring starts and ends

        async def sample_cpu() -> None:
            while not stats.measuring:
                await asyncio.sleep(0.05)
            start = [cpu_seconds(pid) for pid in pids]
            workers = [children_cpu(pid) for pid in pids]
            client = time.process_time()
            load[0] = os.getloadavg()[0]
            while stats.measuring:
                await asyncio.sleep(0.05)
            load[1] = os.getloadavg()[0]
            for i, pid in enumerate(pids):
                cpu[0][i] = cpu_seconds(pid) - start[i]
                cpu[1][i] = sum(t - workers[i].get(w, 0.0) for w, t in children_cpu(pid).items())
            cpu[2][0] = time.process_time() - client

        lab = [0, 0]  # the lab run's games done as measuring starts and ends

        async def lab_run() -> None:
            """A lab run on every core through the whole measurement (``--lab``)."""
            async with httpx.AsyncClient(base_url=servers[0].url, timeout=60) as c:
                r = await c.post("/api/lab/runs", json=LAB_RUN)
                r.raise_for_status()
                run_id = r.json()["id"]
                while stats.measuring is False:
                    await asyncio.sleep(0.2)
                lab[0] = (await c.get(f"/api/lab/runs/{run_id}")).json()["done"]
                while stats.measuring:
                    await asyncio.sleep(0.2)
                found = (await c.get(f"/api/lab/runs/{run_id}")).json()
                lab[1] = found["done"]
                await c.post(f"/api/lab/runs/{run_id}/cancel")

        async def both() -> None:
            sampler = asyncio.create_task(sample_cpu())
            labbing = asyncio.create_task(lab_run()) if args.lab else None
            await keep_games(
                [server.url for server in servers],
                stats,
                args.games,
                args.bot,
                args.think,
                args.warmup,
                args.seconds,
                ack,
            )
            await sampler
            if labbing is not None:
                await labbing

        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(both())
    finally:
        for server in servers:
            server.stop()
    try:  # every acknowledged move is in the store (a lost one is an error)
        lost: list[str] | None = lost_moves(url_of_db, acknowledged)
    except (sqlite3.Error, psycopg.Error) as exc:  # e.g. a baseline's store of another shape
        lost = None
        print(f"acknowledged moves not checked against the store: {exc}", flush=True)
    for missing_move in lost or []:
        stats.error(f"acknowledged move not stored: {missing_move}")
    lat = [x * 1000 for x in stats.latencies]
    moves = max(stats.moves, 1)
    each = [1000 * c / moves for c in cpu[0]]
    row = {
        "db": db_name,
        "processes": processes,
        "tree": "now" if src is None else str(src),
        "games": args.games,
        "seconds": args.seconds,
        "moves_per_s": stats.moves / args.seconds,
        "measured_moves": len(lat),
        "p50_ms": statistics.median(lat) if lat else float("nan"),
        "p99_ms": percentile(lat, 0.99) if lat else float("nan"),
        "max_ms": max(lat) if lat else float("nan"),
        **outcome(stats, len(acknowledged), lost),
        "server_cpu_ms_per_move": sum(each),
        "each_server_cpu_ms_per_move": each,
        "workers_cpu_ms_per_move": 1000 * sum(cpu[1]) / moves,
        "client_cpu_ms_per_move": 1000 * cpu[2][0] / moves,
        "load_average": load,
        "lab_games": lab[1] - lab[0] if args.lab else None,
    }
    per_process = " + ".join(f"{x:.1f}" for x in each) + " = " if processes > 1 else ""
    print(
        f"{label:24} {args.games} games: {row['moves_per_s']:.1f} moves/s; person's move (from "
        f"its first sending) to every viewer's update over {len(lat)} moves: "
        f"p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms, max {row['max_ms']:.1f} ms; "
        f"{outcome_line(row)}; CPU per move: server{'s' if processes > 1 else ''} "
        f"{per_process}{row['server_cpu_ms_per_move']:.1f} ms, their bot and undo workers "
        f"{row['workers_cpu_ms_per_move']:.1f} ms, load generator "
        f"{row['client_cpu_ms_per_move']:.1f} ms; load average {load[0]:.1f} -> {load[1]:.1f}"
        + (f"; the lab played {lab[1] - lab[0]} games meanwhile" if args.lab else ""),
        flush=True,
    )
    for line in outcome_kinds(stats):
        print(f"    {line}", flush=True)
    return row


def think_range(text: str) -> tuple[float, float]:
    """``MIN-MAX`` seconds (``5-15``, ``0.5-2``): the people's think time, each move's drawn
    evenly between the two (``--think`` of this script and of ``soak.py``)."""
    low, dash, high = text.strip().partition("-")
    try:
        least, most = float(low), float(high)
    except ValueError:
        least = most = math.nan
    if not dash or not (math.isfinite(least) and math.isfinite(most)):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not MIN-MAX: give two numbers of seconds, e.g. 1-3 or 0.5-2"
        )
    if least < 0 or least > most:
        raise argparse.ArgumentTypeError(
            f"{text!r}: MIN must be at least 0 and at most MAX, e.g. 1-3 or 5-15"
        )
    return least, most


#: the people's think time unless ``--think`` says otherwise
THINK = "1-3"


def add_think(parser: argparse.ArgumentParser) -> None:
    """``--think MIN-MAX`` (:func:`think_range`), shared with ``soak.py``."""
    parser.add_argument(
        "--think",
        type=think_range,
        default=think_range(THINK),
        metavar="MIN-MAX",
        help=f"the people's think time in seconds (e.g. 5-15; default {THINK})",
    )


def arguments() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--processes",
        default="1,2",
        help="server processes on PostgreSQL, one run each (default 1,2; SQLite runs one)",
    )
    parser.add_argument("--bot", default="random", help="the bot seat's kind (default random)")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    add_think(parser)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--profile",
        type=Path,
        help="run the servers under cProfile, writing PROFILE.DB-PROCESSES-I.prof",
    )
    parser.add_argument(
        "--baseline-src",
        type=Path,
        help="also run the servers of the rulebook package in this src/ folder, alternating",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each configuration and tree (default 1)"
    )
    parser.add_argument(
        "--lab", action="store_true", help="keep a balance-lab run going on every core meanwhile"
    )
    return parser


def main() -> None:
    parser = arguments()
    args = parser.parse_args()
    open_files = raise_open_files()
    # every game holds 4 sockets here and 4 in the servers, and an HTTP connection per process
    if args.games * 6 + 100 > open_files:
        parser.error(f"--games {args.games}: {open_files} open files allowed here (ulimit -n)")
    if args.baseline_src is not None and not (args.baseline_src / "rulebook").is_dir():
        parser.error(f"--baseline-src {args.baseline_src}: no rulebook package there")
    counts = [int(n) for n in args.processes.split(",")]
    trees: list[Path | None] = [None] if args.baseline_src is None else [None, args.baseline_src]
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulebook-bench-web-") as tmp:
        folder = Path(tmp)
        if args.db in ("sqlite", "both"):
            for i in range(args.repeat):
                for src in trees:  # a new database for each run: the same start
                    db = f"sqlite:///{folder / f'bench-{i}-{len(rows)}.sqlite3'}"
                    rows.append(run("sqlite", db, 1, args, folder, src))
        if args.db in ("postgresql", "both"):
            reason = missing()
            if reason:
                print(f"postgresql: skipped ({reason})")
            for n in [] if reason else counts:
                for _ in range(args.repeat):
                    for src in trees:
                        with postgres() as url:
                            rows.append(run("postgresql", url, n, args, folder, src))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(130)
