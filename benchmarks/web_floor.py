"""The web stack's floor: server CPU per move when a move is nothing but its messages.

``make bench-web`` measures the server's CPU per move with everything a move does: the rules,
the store's write, the bot and undo workers, each viewer's payload. This measures what is left
when all of that is taken away: the same stack (Uvicorn with uvloop, httptools and
websockets-sansio, Starlette's WebSocket, no compression) serving rooms of three connections,
two people and a spectator as in ``make bench-web``'s games, where a move is one message in
(from a person, every 1-3 s) and four out (the mover's answer and a frame of ~1 KB to each of
the three). ``--fanout tasks`` sends the frames as the server does (a task per connection,
woken by an event); ``direct`` sends them from the handler. The load generator runs in this
process, the server in a child; each reads its own CPU time (``time.process_time``, to the
microsecond: the kernel's per-process counters of ``/proc`` count in hundredths of a second,
too coarse for a short run), the server's asked over HTTP (``GET /cpu``) at the measure's
start and end.

Usage::

    python benchmarks/web_floor.py [--rooms 260] [--seconds 30] [--fanout direct|tasks]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

# the helper of the tests' throwaway servers, as soak.py takes it
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pgtemp import free_port

#: a delta of ~1 KB, about the size of a late game's
FRAME = (
    '{"type":"delta","frame":12,"seat":0,"version":40,"over":false,"base":11,"view":{'
    + ",".join(f'"field{i}":{i}' for i in range(80))
    + '},"log":[3,[]]}'
)
MOVED = '{"type":"moved","id":1,"version":40}'


def serve(port: int, fanout: str) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, list[tuple[WebSocket, asyncio.Event]]] = {}

    async def sender(ws: WebSocket, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            await ws.send_text(FRAME)

    async def connection(ws: WebSocket) -> None:
        await ws.accept()
        members = rooms.setdefault(ws.path_params["room"], [])
        me = (ws, asyncio.Event())
        members.append(me)
        task = asyncio.create_task(sender(*me)) if fanout == "tasks" else None
        try:
            while True:
                await ws.receive_text()
                await ws.send_text(MOVED)
                for other, wake in members:
                    if task is None:
                        await other.send_text(FRAME)
                    else:
                        wake.set()
        except WebSocketDisconnect:
            members.remove(me)
            if task is not None:
                task.cancel()

    async def cpu(request: Request) -> PlainTextResponse:
        return PlainTextResponse(repr(time.process_time()))

    app = Starlette(routes=[WebSocketRoute("/ws/{room}", connection), Route("/cpu", cpu)])
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        loop="uvloop",
        http="httptools",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
    )


def wait_for_server(port: int, server: subprocess.Popen[bytes]) -> None:
    """Until the server (ours: it must still run) takes connections on ``port``."""
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"web_floor: the server stopped (status {server.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"web_floor: the server did not open port {port} in 30 s")


def server_cpu_seconds(port: int) -> float:
    """The floor server's CPU time so far (its ``GET /cpu``)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/cpu", timeout=30) as answer:
        return float(answer.read())


async def load(port: int, rooms: int, warmup: float, seconds: float) -> str:
    from websockets.asyncio.client import ClientConnection, connect

    moves = 0
    counting = False

    async def drain(ws: ClientConnection) -> None:
        async for _ in ws:
            pass

    async def room(number: int) -> None:
        nonlocal moves
        url = f"ws://127.0.0.1:{port}/ws/{number}"
        people = [await connect(url, max_size=None, compression=None) for _ in range(3)]
        readers = [asyncio.create_task(drain(ws)) for ws in people]
        for turn in itertools.count():
            await asyncio.sleep(random.uniform(1, 3))
            await people[turn % 2].send('{"type":"move","seat":0,"move":"done"}')
            moves += counting
        await asyncio.gather(*readers)

    started = [asyncio.create_task(room(n)) for n in range(rooms)]
    await asyncio.sleep(warmup)
    server_before = await asyncio.to_thread(server_cpu_seconds, port)
    mine_before, at = time.process_time(), time.time()
    counting = True
    await asyncio.sleep(seconds)
    counting = False
    mine = time.process_time() - mine_before
    server_cpu = await asyncio.to_thread(server_cpu_seconds, port) - server_before
    rate = moves / (time.time() - at)
    for task in started:
        task.cancel()
    if moves == 0:
        return f"{rooms} rooms: no move made in {seconds:g} s (is the machine too busy?)"
    return (
        f"{rooms} rooms: {rate:.1f} moves/s; CPU per move: server {1000 * server_cpu / moves:.2f} "
        f"ms, load generator {1000 * mine / moves:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=260, help="rooms (a move every 2 s each)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--fanout", choices=["direct", "tasks"], default="tasks")
    parser.add_argument("--port", type=int, default=0, help="the server's (default: a free one)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rooms < 1 or not args.seconds > 0 or not args.warmup >= 0 or args.port < 0:
        parser.error("--rooms must be at least 1, --seconds above 0, --warmup and --port 0 or more")
    if args.serve:
        with contextlib.suppress(KeyboardInterrupt):
            serve(args.port, args.fanout)
        return
    port = args.port or free_port()
    command = [sys.executable, __file__, "--serve", "--port", str(port)]
    server = subprocess.Popen([*command, "--fanout", args.fanout])
    try:
        wait_for_server(port, server)
        import uvloop

        coroutine: Any = load(port, args.rooms, args.warmup, args.seconds)
        print(uvloop.run(coroutine))
    except KeyboardInterrupt:
        print("web_floor: stopped (Ctrl-C); nothing measured", file=sys.stderr)
        sys.exit(130)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
