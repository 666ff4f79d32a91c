"""Several ``rulebook serve`` processes on one PostgreSQL database (issue 24), as real processes
on a throwaway server: every write made through one is seen through the others, over HTTP at
once and over WebSocket as it happens; a raced move is stored once; a game's bots are driven by
one process and taken over when it is killed; an undo, a reconnecting client and a restarted
process see the same games; ``--workers`` shares one port; SQLite refuses several processes.

One PostgreSQL server and three server processes serve the module (``xdist_group``: one worker
runs it); a test that kills or stops one starts it again before it ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import make_url
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import rulebook
from pgtemp import free_port, missing, postgres
from rulebook.cli import app
from rulebook.core import Setup
from rulebook.lab.storage import read_results
from rulebook.web.cluster import Postgres, lock_key
from rulebook.web.store import AsyncMoves, MoveWrite, Store
from webserver import Server, server_processes
from webtools import auth, token_of

NO_POSTGRES = pytest.mark.skipif(missing() is not None, reason=f"no PostgreSQL here: {missing()}")
pytestmark = [pytest.mark.xdist_group("cluster")]


# -- the servers -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres(fsync=False) as url:
        yield url


@pytest.fixture(scope="module")
def servers(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    folder = tmp_path_factory.mktemp("cluster")
    lab = ("--lab-dir", str(folder / "lab"), "--lab-workers", "1")  # one folder for all
    started = [
        Server(
            database,
            folder / f"server-{i}.log",
            bot_delay=0.05,
            workers=0,
            access_log=False,
            extra=lab,
        )
        for i in range(3)
    ]
    _start(started)
    try:
        yield started
    finally:
        for server in started:
            server.stop()
    for server in started:
        text = server.log.read_text()
        assert "Traceback" not in text, text[-3000:]
        assert "written elsewhere" not in text, "two processes drove one game's bots"


def _start(servers: list[Server]) -> None:
    """Start these servers side by side (each takes seconds to import everything)."""
    threads = [threading.Thread(target=s.start) for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(s.running for s in servers), "a server did not start"


@pytest.fixture
def three(servers: list[Server]) -> list[Server]:
    """The three servers, each running (a test before may have killed one)."""
    _start([s for s in servers if not s.running])
    return servers


# -- requests -------------------------------------------------------------------------------------
def create(server: Server, game: str, seats: list[str], **extra: Any) -> tuple[str, dict[int, str]]:
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    r = httpx.post(f"{server.url}/api/games", json=body, timeout=10)
    assert r.status_code == 201, r.text
    links = r.json()
    return links["id"], {s["seat"]: token_of(s["url"]) for s in links["seats"]}


def view(server: Server, gid: str, token: str | None = None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    r = httpx.get(f"{server.url}/api/games/{gid}/view", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    payload: dict[str, Any] = r.json()["views"][0]
    return payload


def post_move(server: Server, gid: str, token: str, seat: int, move: str, version: int) -> Any:
    body = {"seat": seat, "move": move, "version": version}
    return httpx.post(
        f"{server.url}/api/games/{gid}/move", json=body, headers=auth(token), timeout=10
    )


def play(server: Server, gid: str, tokens: dict[int, str]) -> int:
    """One move through ``server`` by the seat to act (its first legal move): the number of
    moves after it."""
    seat = view(server, gid)["to_act"][0]
    mine = view(server, gid, tokens[seat])
    r = post_move(server, gid, tokens[seat], seat, mine["legal"][0]["text"], mine["version"])
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


def race(
    sends: list[tuple[Server, str]], gid: str, token: str, seat: int, version: int
) -> list[Any]:
    """Post these moves, each through its server, all at once: the answers."""
    answers: list[Any] = [None] * len(sends)
    start = threading.Barrier(len(sends))

    def send(i: int) -> None:
        start.wait()
        answers[i] = post_move(sends[i][0], gid, token, seat, sends[i][1], version)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(sends))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def public_log(server: Server, gid: str) -> list[tuple[int, str]]:
    """The spectators' log of moves (the steps the rules told after them left out)."""
    return [(e["seat"], e["text"]) for e in view(server, gid)["log"] if not e.get("event")]


def wait(check: Callable[[], Any], timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, what
        time.sleep(0.05)
    return found


class Socket:
    """A WebSocket of a game through one server, as the game page opens it."""

    def __init__(self, server: Server, gid: str, token: str | None = None) -> None:
        url = server.url.replace("http://", "ws://") + f"/ws/games/{gid}"
        self.opened = connect(url, open_timeout=10)
        self.ws: ClientConnection = self.opened.__enter__()
        self.ws.send(json.dumps({"token": token} if token else {"spectate": True}))
        assert json.loads(self.ws.recv(10))["type"] == "hello"
        self.last: dict[str, Any] = self.until(lambda v: True)

    def until(self, check: Callable[[dict[str, Any]], bool], timeout: float = 5) -> Any:
        """The first view that passes ``check`` (every view is kept in :attr:`last`)."""
        end = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(max(0.01, end - time.monotonic())))
            if message["type"] == "view":
                self.last = message["view"]
                if check(self.last):
                    return self.last

    def at(self, version: int, timeout: float = 5) -> Any:
        """The first view at this version."""
        return self.until(lambda v: v["version"] == version, timeout)

    def close(self) -> None:
        self.opened.__exit__(None, None, None)

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- the database, looked at from outside --------------------------------------------------------
def sql(database: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database, autocommit=True) as connection:
        return connection.execute(query, params or None).fetchall()


def drivers(database: str) -> dict[int, int]:
    """Who holds each game's bots: lock key -> pid of the server process."""
    rows = sql(
        database,
        "SELECT l.classid, l.objid, a.application_name FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'rulebook bots%'",
    )
    held = {}
    for high, low, name in rows:
        key = (int(high) << 32) | int(low)
        held[key - (1 << 64) if key >= 1 << 63 else key] = int(name.rsplit("=", 1)[1])
    return held


def stored_moves(database: str, gid: str) -> list[int]:
    rows = sql(database, "SELECT number FROM moves WHERE game_id = %s ORDER BY number", gid)
    return [n for (n,) in rows]


# -- the tests -------------------------------------------------------------------------------------
@NO_POSTGRES
def test_each_write_notifies_with_the_last_move_once_committed(database: str) -> None:
    store = Store(database)
    setup = Setup("battle-merchants", 2, 7, "standard", {})
    store.create("notified", setup, ["human", "human"], [])
    long = "x" * 8000  # too long to send: the count alone
    with psycopg.connect(database, autocommit=True) as listener:
        listener.execute("LISTEN rulebook_games")
        assert store.write_moves([MoveWrite("notified", 0, 0, 0, "a: b", False, False)]) == [True]
        assert store.write_moves([MoveWrite("notified", 0, 0, 1, "raced", False, False)]) == [False]
        assert store.undo("notified", 1, 0, False)
        assert store.write_moves([MoveWrite("notified", 2, 0, 1, long, False, False)]) == [True]
        assert store.write_moves([MoveWrite("notified", 3, 1, 0, "c", True, False)]) == [True]
        notes = []
        for note in listener.notifies(timeout=5):
            if note.payload.startswith("notified:"):
                notes.append(note.payload)
                if len(notes) == 4:
                    break
    store.close()
    assert notes == [
        "notified:1:0:0:a: b",  # the move, its number and seat
        "notified:2",  # the undo: no move left
        "notified:3",  # a move too long to send
        "notified:4:1:0:c",
    ]


@NO_POSTGRES
def test_the_moves_write_on_the_event_loop_is_the_stores(database: str) -> None:
    """AsyncMoves (the server's moves on PostgreSQL) stores, refuses and notifies as
    Store.write_moves does, and connects again after its connection was lost."""
    store = Store(database)
    setup = Setup("battle-merchants", 2, 7, "standard", {})
    for gid in ("async-g", "async-h", "async-k"):
        store.create(gid, setup, ["human", "human"], [])

    def move(writes: int, number: int, text: str, game: str = "async-g") -> MoveWrite:
        # no bot to move: the test's servers on this database leave these games alone
        return MoveWrite(game, writes, number, number % 2, text, number == 2, False)

    # while a write is under way, its notification is known for this connection's own
    in_flight: list[list[bool]] = []

    async def writes() -> list[list[bool]]:
        moves = AsyncMoves(lambda: psycopg.AsyncConnection.connect(database, autocommit=True))
        send = moves._send

        async def watched(connection: Any, batch: Sequence[MoveWrite]) -> list[bool]:
            pid = connection.info.backend_pid
            known = [moves.writing(pid, m.game_id, m.writes + 1) for m in batch]
            first = batch[0]
            known.append(moves.writing(pid + 1, first.game_id, first.writes + 1))  # not its pid
            in_flight.append(known)
            return await send(connection, batch)

        moves._send = watched  # type: ignore[method-assign]
        said = [await moves.write_moves([move(0, 0, "a")])]
        said.append(await moves.write_moves([move(0, 0, "b")]))  # raced: the same count
        batch = [move(0, 0, "x", "async-h"), move(0, 1, "stale"), move(1, 1, "y", "async-h")]
        said.append(await moves.write_moves(batch))
        assert moves._connection is not None
        await moves._connection.execute("DEALLOCATE ALL")  # as a pooler's DISCARD ALL does
        said.append(await moves.write_moves([move(0, 0, "k", "async-k")]))  # prepared again
        with psycopg.connect(database, autocommit=True) as other:  # the connection is lost
            other.execute("SELECT pg_terminate_backend(%s)", [moves._connection.info.backend_pid])
        said.append(await moves.write_moves([move(1, 1, "b"), move(2, 2, "z", "async-h")]))
        assert moves._connection is not None
        now = moves._connection.info.backend_pid
        assert not moves.writing(now, "async-h", 3)  # once answered, no longer under way
        await moves.close()
        return said

    with psycopg.connect(database, autocommit=True) as listener:
        listener.execute("LISTEN rulebook_games")
        assert asyncio.run(writes()) == [[True], [False], [True, False, True], [True], [True, True]]
        notes = []
        for note in listener.notifies(timeout=5):
            if note.payload.startswith("async-"):
                notes.append(note.payload)
                if len(notes) == 6:
                    break
    assert in_flight[0] == [True, False]
    assert all(k == [True] * (len(k) - 1) + [False] for k in in_flight)
    assert store.since("async-g", 0)[:2] == (2, [(0, "a"), (1, "b")])
    assert store.since("async-h", 0)[:2] == (3, [(0, "x"), (1, "y"), (0, "z")])
    games = {r[0]: r[1] for r in sql(database, "SELECT id, over FROM games")}
    assert games["async-h"] is True and games["async-g"] is False
    store.close()
    assert sorted(notes) == sorted(
        [
            "async-g:1:0:0:a",
            "async-h:1:0:0:x",
            "async-h:2:1:1:y",
            "async-g:2:1:1:b",
            "async-h:3:2:0:z",
            "async-k:1:0:0:k",
        ]
    )


class Memory:
    """The games a process keeps in memory, as the cluster asks of them (nothing else)."""

    def __init__(self, kept: set[str]) -> None:
        self.kept = kept

    def changed(self, game_id: str, writes: int, last: Any = None, pid: Any = None) -> None:
        pass

    async def caught_up(self) -> None:
        pass

    async def adopt(self, game_id: str) -> None:
        pass

    def keeps(self, game_id: str) -> bool:
        return game_id in self.kept

    def presence(self, payload: str) -> None:
        pass


@NO_POSTGRES
def test_a_bots_lock_held_for_a_game_out_of_memory_is_let_go(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The sweep lets go of a lock its process holds for a game neither in its memory nor
    being taken over (found so by two sweeps in a row), with a warning: no game waits on a
    bot nobody runs. A game in memory keeps its lock. (Its own database: these games have
    no rows, so the test's servers never see them.)"""
    with psycopg.connect(database, autocommit=True) as connection:
        connection.execute("CREATE DATABASE strays")
    url = database.rsplit("/", 1)[0] + "/strays"
    Store(url).close()  # the tables the sweep reads

    def mine() -> set[int]:
        return {key for key, pid in drivers(url).items() if pid == os.getpid()}

    async def run() -> tuple[set[int], set[int]]:
        cluster = Postgres(make_url(url))
        await cluster.start(Memory({"in-memory"}))
        try:
            while cluster._locking is None:
                await asyncio.sleep(0.05)
            assert await cluster.claim("in-memory") and await cluster.claim("out-of-memory")
            first = mine()
            for _ in range(100):
                await asyncio.sleep(0.1)
                if not cluster.drives("out-of-memory"):
                    break
            assert cluster.drives("in-memory") and not cluster.drives("out-of-memory")
            return first, mine()
        finally:
            await cluster.stop()

    with caplog.at_level("WARNING", logger="rulebook.web.cluster"):
        first, then = asyncio.run(run())
    assert first == {lock_key("in-memory"), lock_key("out-of-memory")}
    assert then == {lock_key("in-memory")}
    warned = [r.getMessage() for r in caplog.records if "held out of memory" in r.getMessage()]
    assert warned == ["game out-of-memory: its bots' lock was held out of memory; let go"]


@NO_POSTGRES
def test_a_move_through_one_process_is_seen_through_every_other(three: list[Server]) -> None:
    a, b, c = three
    gid, tokens = create(a, "battle-merchants", ["human", "human"])
    with Socket(b, gid) as spectator, Socket(c, gid, tokens[1]) as seat1:
        assert spectator.last["version"] == seat1.last["version"] == 0
        for n, through in enumerate([a, b, c, a, c, b], start=1):
            assert play(through, gid, tokens) == n
            for other in three:  # over HTTP at once: no waiting
                assert view(other, gid)["version"] == n
            spectator.at(n)
            seat1.at(n)
        assert public_log(a, gid) == public_log(b, gid) == public_log(c, gid)
        assert spectator.last["log"] == view(a, gid)["log"]


@NO_POSTGRES
def test_the_same_move_raced_through_two_processes_is_stored_once(
    three: list[Server], database: str
) -> None:
    a, b, _ = three
    gid, tokens = create(a, "battle-merchants", ["human", "human"])
    rounds = 12
    for k in range(rounds):
        seat = view(a, gid)["to_act"][0]
        mine = view(a if k % 2 else b, gid, tokens[seat])
        legal = [m["text"] for m in mine["legal"]]
        # the same move through both; every third round two different moves
        moves = [legal[0], legal[-1] if k % 3 == 2 else legal[0]]
        answers = race([(a, moves[0]), (b, moves[1])], gid, tokens[seat], seat, mine["version"])
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], [r.text for r in answers]
    logs = [public_log(s, gid) for s in three]
    assert logs[0] == logs[1] == logs[2] and len(logs[0]) == rounds
    assert stored_moves(database, gid) == list(range(rounds))  # no fork, no gap


@NO_POSTGRES
def test_bots_are_driven_once_and_taken_over_after_kill_9(
    three: list[Server], database: str
) -> None:
    a = three[0]
    ids = [create(a, "battle-merchants", ["random", "random"])[0] for _ in range(3)]
    wait(lambda: all(view(a, g)["version"] >= 3 for g in ids), 30, "the bots did not move")
    pids = {s.process.pid: s for s in three if s.process is not None}
    held = drivers(database)
    going = [g for g in ids if not view(a, g)["over"]]
    assert going, "the games ended before a process could be killed"
    for g in going:  # one driver each (the lock's own rule), among the servers
        assert held.get(lock_key(g)) in pids
    victim = pids[held[lock_key(going[0])]]
    survivors = [s for s in three if s is not victim]
    at = {g: view(survivors[0], g)["version"] for g in going}
    killed = time.monotonic()
    victim.kill()

    def taken_over() -> bool:
        now = {g: view(survivors[0], g) for g in going}
        return all(v["over"] or v["version"] >= at[g] + 3 for g, v in now.items())

    wait(taken_over, 10, "nobody took the bots over after kill -9 of their process")
    assert time.monotonic() - killed < 10
    held = drivers(database)
    alive = {s.process.pid for s in survivors if s.process is not None}
    for g in going:
        assert view(survivors[0], g)["over"] or held.get(lock_key(g)) in alive
    wait(lambda: all(view(survivors[1], g)["over"] for g in ids), 120, "the games did not end")
    for g in ids:  # every log replays (no fork, no gap), the same through both survivors
        saved = [httpx.get(f"{s.url}/api/games/{g}/save", timeout=10).json() for s in survivors]
        assert saved[0] == saved[1]
        assert rulebook.replay(saved[0]).is_terminal()
        assert stored_moves(database, g) == list(range(len(saved[0]["log"])))


@NO_POSTGRES
def test_an_undo_through_another_process(three: list[Server], database: str) -> None:
    a, b, c = three
    gid, tokens = create(a, "merchants-of-magick", ["human", "human"])
    with Socket(c, gid, tokens[0]) as seat0:  # the crafting is secret: only seat 0 sees it
        move = next(m["text"] for m in view(a, gid, tokens[0])["legal"] if m["text"] != "done")
        assert post_move(a, gid, tokens[0], 0, move, 0).status_code == 200
        seat0.at(1)
        # b checks in its worker whether the move revealed anything, when first asked
        wait(lambda: view(b, gid, tokens[0])["can_undo"], 20, "no undo offered through b")
        r = httpx.post(
            f"{b.url}/api/games/{gid}/undo", json={"seat": 0}, headers=auth(tokens[0]), timeout=10
        )
        assert r.status_code == 200 and r.json()["version"] == 0, r.text
        for server in three:
            assert view(server, gid, tokens[0])["log"] == []
        seat0.at(0)
        # once another seat moved, the move cannot be taken back, through any process
        assert post_move(c, gid, tokens[0], 0, move, 0).status_code == 200
        other = next(m["text"] for m in view(c, gid, tokens[1])["legal"] if m["text"] != "done")
        assert post_move(a, gid, tokens[1], 1, other, 0).status_code == 200
        r = httpx.post(
            f"{b.url}/api/games/{gid}/undo", json={"seat": 0}, headers=auth(tokens[0]), timeout=10
        )
        assert r.status_code == 409, r.text
        assert stored_moves(database, gid) == [0, 1]


@NO_POSTGRES
def test_a_client_reconnects_through_another_process_after_kill_9(three: list[Server]) -> None:
    a, b, _ = three
    gid, tokens = create(a, "battle-merchants", ["human", "human"])
    socket = Socket(a, gid, tokens[0])
    try:
        n = play(a, gid, tokens)
        n = play(a, gid, tokens)  # acknowledged by a just before it dies
        seen = socket.at(n)
        a.kill()
        with pytest.raises((ConnectionClosed, OSError)):
            socket.until(lambda v: False, timeout=5)
    finally:
        socket.close()
    with Socket(b, gid, tokens[0]) as again:  # as the page reconnects: to whoever answers
        assert again.last == seen
        n = play(b, gid, tokens)
        again.at(n)


@NO_POSTGRES
def test_a_process_restarted_while_the_others_carry_on(three: list[Server]) -> None:
    a, b, c = three
    gid, tokens = create(a, "battle-merchants", ["human", "human"])
    play(b, gid, tokens)
    b.stop()
    with Socket(c, gid) as spectator:
        for through in (a, c, a):
            n = play(through, gid, tokens)
            spectator.at(n)
        b.start()
        assert view(b, gid) == view(a, gid)
        with Socket(b, gid) as on_b:
            n = play(a, gid, tokens)
            on_b.at(n)
            n = play(b, gid, tokens)
            spectator.at(n)


@NO_POSTGRES
def test_a_process_that_missed_notifications_catches_up(three: list[Server], database: str) -> None:
    """Its listening connection is cut (as by a network fault): it connects again and reads
    what it missed meanwhile."""
    a, b, _ = three
    gid, tokens = create(a, "battle-merchants", ["human", "human"])
    with Socket(b, gid) as on_b:
        assert b.process is not None
        name = f"rulebook listen pid={b.process.pid}"
        cut = sql(
            database,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            name,
        )
        assert cut == [(True,)]
        n = play(a, gid, tokens)
        n = play(a, gid, tokens)
        on_b.at(n, timeout=10)
        again = "SELECT 1 FROM pg_stat_activity WHERE application_name = %s"
        wait(lambda: sql(database, again, name), 10, "b did not listen again")
        n = play(a, gid, tokens)
        on_b.at(n)
    assert "lost the database's notifications" in b.log.read_text()


def _pair(pid: int) -> set[int] | None:
    """The two server processes of supervisor ``pid``, once there are two."""
    found = server_processes(pid)
    return found if len(found) == 2 else None


@NO_POSTGRES
def test_presence_crosses_processes(three: list[Server]) -> None:
    """A seat connected through one process is seen connected through every other; when its
    tab closes, every other tells so at once."""
    a, b, _ = three
    gid, tokens = create(a, "archmagi", ["human", "human"])
    with Socket(b, gid) as spectator:
        assert [p["here"] for p in spectator.last["presence"]] == [False, False]
        seat = Socket(a, gid, tokens[1])
        spectator.until(lambda v: v["presence"][1]["here"])
        seat.close()
        gone = spectator.until(lambda v: not v["presence"][1]["here"])
        assert gone["presence"][1]["seen"] == pytest.approx(time.time(), abs=10)


@NO_POSTGRES
def test_a_clock_runs_out_once_among_three_processes(three: list[Server], database: str) -> None:
    """Every process watches the stored deadlines; exactly one bot takes the seat (one stint
    stored), the game goes on, and every process shows it."""
    clock = {"kind": "realtime", "bank": 1, "increment": 0, "grace": 1, "bot": "random"}
    a, b, c = three
    gid, _ = create(a, "battle-merchants", ["human", "human"], clock=clock)
    first = view(b, gid)["to_act"][0]
    wait(lambda: view(c, gid)["held"] == {str(first): "random"}, 15, "no bot took the seat")
    wait(lambda: view(b, gid)["version"] > 0, 15, "the bot did not move")
    time.sleep(1.5)  # every process's watch has looked again meanwhile
    rows = sql(database, "SELECT seat, why FROM stints WHERE game_id = %s", gid)
    assert rows == [(first, "time")]
    assert view(a, gid)["bots"] == view(b, gid)["bots"] == view(c, gid)["bots"]


@NO_POSTGRES
def test_workers_share_one_port_and_a_killed_one_is_replaced(database: str, tmp_path: Path) -> None:
    server = Server(database, tmp_path / "workers.log", workers=0, processes=2, access_log=False)
    server.start()
    try:
        assert server.process is not None
        pid = server.process.pid
        first = wait(lambda: _pair(pid), 60, "two server processes did not start")

        def listening() -> set[int]:
            rows = sql(
                database,
                "SELECT application_name FROM pg_stat_activity "
                "WHERE application_name LIKE 'rulebook listen%'",
            )
            return {int(name.rsplit("=", 1)[1]) for (name,) in rows}

        wait(lambda: first <= listening(), 60, "the processes did not both start their apps")
        gid, tokens = create(server, "battle-merchants", ["human", "human"])
        with Socket(server, gid) as spectator:
            for _ in range(4):
                n = play(server, gid, tokens)
                spectator.at(n)
            victim = min(first)
            os.kill(victim, signal.SIGKILL)
            for _ in range(4):  # new connections go to the one left
                n = play(server, gid, tokens)
        wait(lambda: _pair(pid) not in (None, first), 30, "no new process replaced it")
        with Socket(server, gid) as again:
            assert again.last["version"] == n
    finally:
        server.stop()
    assert server.process is not None and not server_processes(server.process.pid)
    assert "Traceback" not in server.log.read_text()


# -- SQLite: one process ---------------------------------------------------------------------------
def serve_refused(*args: str) -> str:
    """``rulebook serve ARGS``, which must refuse to start: its one line of error."""
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_several_processes_are_refused_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulebook.web import server

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(server, "serve", started)
    db = tmp_path / "games.sqlite3"
    line = serve_refused("--workers", "2", "--db", f"sqlite:///{db}")
    assert "--workers needs PostgreSQL" in line
    assert not list(tmp_path.iterdir()), "a refused start changed something"
    with Server(f"sqlite:///{db}", tmp_path / "one.log", workers=0):  # another process
        line = serve_refused("--db", f"sqlite:///{db}")
    assert "another rulebook serve is using" in line and "PostgreSQL" in line


def test_a_lab_run_is_played_once_and_seen_by_every_process(three: list[Server]) -> None:
    """A run queued through one process is played by one of them (its claim) into the shared
    results folder, and every process shows its progress and figures from the database."""
    body = {"kind": "simulate", "game": "archmagi", "players": 2, "variant": "standard",
            "seats": ["random", "random"], "games": 30, "seed": 3}  # fmt: skip
    made = httpx.post(f"{three[0].url}/api/lab/runs", json=body, timeout=60)
    assert made.status_code == 201, made.text
    run_id = made.json()["id"]
    end = time.monotonic() + 120
    while (found := httpx.get(f"{three[1].url}/api/lab/runs/{run_id}").json())["status"] != "done":
        assert found["status"] in ("queued", "running"), found
        assert time.monotonic() < end
        time.sleep(0.2)
    others = [httpx.get(f"{s.url}/api/lab/runs/{run_id}").json() for s in (three[0], three[2])]
    assert all(o["figures"] == found["figures"] and o["done"] == 30 for o in others)
    folder = Path(three[0].extra[1]) / run_id
    assert (folder / "worker.log").is_file()
    rows = read_results(folder / "games.parquet")
    assert sorted(r["index"] for r in rows) == list(range(30))  # each game once
