"""Several server processes on one PostgreSQL database: how each learns of the others' writes,
and which one drives a game's bots. No broker: PostgreSQL's own ``LISTEN``/``NOTIFY`` and
advisory locks, and the stored log as the only truth.

Every write of a game's log is checked against the game's stored count of writes in its own
transaction (:mod:`rulebook.web.store`), so a process whose copy of a game is behind can never
store a move on top of a log it did not see: its write is refused, it reads the game again.
Beside that, each process keeps two connections of its own:

* a listening one (``LISTEN rulebook_games``). Each write sends ``ID:WRITES`` when it commits
  (a trigger), with the game's last move; a process holding game ID in memory one write behind
  makes that move at once, any other reads the moves it lacks (one query: the count of writes
  and the moves from the first it lacks); then it wakes its viewers. Whenever the
  connection is made (at start, after a loss), every game in memory is compared with the
  database and caught up: a notification missed meanwhile is a notification caught up later.
  A game nobody here holds needs none: it is read from the database when first asked for.
* a locking one, holding a session advisory lock for each game whose bots this process drives
  (:meth:`Postgres.claim`). PostgreSQL gives a lock to one session at a time, so one process
  drives a game's bots. A process takes a game's lock when a write of its own leaves a bot to
  move, and every second it sweeps the games where a bot is to move (``bots_move``) for locks
  nobody holds: a process that died left them, and its games are taken over. It keeps a lock
  while it holds the game in memory and the game is not over; the sweep also lets go of any
  lock it finds held for a game out of memory and not being taken over (a warning: that
  would be a bug of its own), so no game can wait on a bot nobody runs.

What happens when a process dies:

* ``kill -9`` (or a crash): its connections close with it, PostgreSQL sees the sockets close
  and ends its sessions at once, freeing its locks; another process's next sweep (within a
  second) takes its games' bots over. No acknowledged move is lost: a move is acknowledged
  once committed.
* a network partition between it and the database: its sweep (a query every second, with a
  timeout) fails, so it stops driving at once and connects again; PostgreSQL ends the cut-off
  session when its TCP keepalives go unanswered (set to about 10 s on that session), and the
  others take the games over then. Either way a bot's move is a write like any other, checked
  against the stored count: even two drivers at once could not fork a log.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import psycopg
from psycopg.conninfo import make_conninfo
from sqlalchemy.engine import URL

from rulebook.web import metrics
from rulebook.web.store import CHANNEL, PRESENCE

log = logging.getLogger("rulebook.web")

#: seconds between two sweeps for games whose bots nobody drives
SWEEP_EVERY = 1.0
#: seconds a query of the locking connection may take before it counts as lost
QUERY_TIMEOUT = 5.0
#: seconds between two checks that the listening connection is still there
LISTEN_CHECK = 5.0
#: the connections' TCP keepalives (client side as libpq parameters, server side as settings):
#: a peer that stopped answering is noticed after about idle + interval * count seconds
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
}


#: a stored move as a notification tells it: its number in the log, its seat, its text
Move = tuple[int, int, str]


class Followed(Protocol):
    """What the cluster tells the games in memory (:class:`rulebook.web.live.Games`)."""

    def changed(
        self, game_id: str, writes: int, last: Move | None = None, pid: int | None = None
    ) -> None:
        """A write of game ``game_id`` was committed: its count is now ``writes``, and its
        last move ``last`` (number, seat, text) when the notification told it; ``pid``: the
        process of the PostgreSQL session that wrote it."""

    async def caught_up(self) -> None:
        """Notifications may have been missed: compare every game in memory with the store."""

    async def adopt(self, game_id: str) -> None:
        """This process now drives the bots of ``game_id``: load it, start them."""

    def keeps(self, game_id: str) -> bool:
        """Whether the game is in memory here."""

    def presence(self, payload: str) -> None:
        """Another process says which seats of a game are connected through it."""


class Alone:
    """One process alone on its database (SQLite, the only way it runs there): it drives
    every game's bots and nobody else writes."""

    shared = False

    async def start(self, games: Followed) -> None:
        pass

    async def stop(self) -> None:
        pass

    def drives(self, game_id: str) -> bool:
        return True

    async def claim(self, game_id: str) -> bool:
        return True

    async def release(self, game_id: str) -> None:
        pass


def lock_key(game_id: str) -> int:
    """The advisory lock of a game: 64 bits of a hash of its id (a signed bigint)."""
    digest = hashlib.sha256(b"rulebook game " + game_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class Postgres:
    """This process among others on one PostgreSQL database (see the module docstring)."""

    shared = True

    def __init__(self, url: URL) -> None:
        self.conninfo = make_conninfo(
            url.set(drivername="postgresql").render_as_string(hide_password=False),
            connect_timeout=10,
            **KEEPALIVES,
        )
        #: the games whose bots this process drives (it holds their locks)
        self.held: set[str] = set()
        self._keys: dict[int, set[str]] = {}  # a lock's games (two ids could share a key)
        self._locking: psycopg.AsyncConnection[Any] | None = None
        self._mutex = asyncio.Lock()  # one change of the locks at a time
        self._listening = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        #: the games being taken over (:meth:`Followed.adopt`), by their task
        self._adopting: dict[asyncio.Task[None], str] = {}
        #: the games held here but out of memory at the last sweep
        self._strays: set[str] = set()
        self._games: Followed | None = None

    async def connect(self, role: str) -> psycopg.AsyncConnection[Any]:
        """A connection of its own, named for ``pg_stat_activity`` (which process holds which
        lock: ``pg_locks`` joined on ``pid``)."""
        name = f"rulebook {role} pid={os.getpid()}"
        return await psycopg.AsyncConnection.connect(
            make_conninfo(self.conninfo, application_name=name), autocommit=True
        )

    async def start(self, games: Followed) -> None:
        """Listen and sweep; returns once listening (games loaded from now on are followed)."""
        self._games = games
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._lock())]
        async with asyncio.timeout(30):
            await self._listening.wait()

    async def stop(self) -> None:
        tasks = self._tasks + list(self._adopting)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.held.clear()
        self._keys.clear()

    # -- notifications ---------------------------------------------------------------------------
    async def _listen(self) -> None:
        await _again(self._listen_once, "the database's notifications")

    async def _listen_once(self) -> None:
        games = self._games
        assert games is not None
        async with await self.connect("listen") as connection:
            encoding = connection.info.encoding
            received = {c: metrics.NOTIFY_RECEIVED.labels(c) for c in (CHANNEL, PRESENCE)}

            def heard(channel: str, payload: str, pid: int) -> None:
                received[channel].inc()
                if channel == PRESENCE:
                    games.presence(payload)
                else:
                    self._note(games, payload, pid)

            # what psycopg reads during a query of its own (the LISTENs, the checks)
            connection.add_notify_handler(lambda note: heard(note.channel, note.payload, note.pid))
            await connection.execute(f"LISTEN {CHANNEL}")
            await connection.execute(f"LISTEN {PRESENCE}")
            await games.caught_up()  # what was written while nobody listened
            if self._listening.is_set():
                log.info("listening to the database's notifications again")
            self._listening.set()
            while True:
                await _read_notifications(connection, heard, encoding, LISTEN_CHECK)
                async with asyncio.timeout(QUERY_TIMEOUT):
                    await connection.execute("SELECT 1")

    @staticmethod
    def _note(games: Followed, payload: str, pid: int) -> None:
        """``ID:WRITES`` or ``ID:WRITES:NUMBER:SEAT:MOVE`` (:data:`rulebook.web.store.CHANNEL`),
        sent by the session of PostgreSQL's process ``pid``."""
        parts = payload.split(":", 4)
        if not all(p.isdigit() for p in parts[1:4]) or len(parts) not in (2, 5):
            return
        last = (int(parts[2]), int(parts[3]), parts[4]) if len(parts) == 5 else None
        games.changed(parts[0], int(parts[1]), last, pid)

    # -- the bots' locks -------------------------------------------------------------------------
    async def _lock(self) -> None:
        await _again(self._lock_once, "the bots' locks")

    async def _lock_once(self) -> None:
        try:
            async with await self.connect("bots") as connection:
                for name in ("idle", "interval", "count"):  # the server drops a cut-off session
                    value = KEEPALIVES[f"keepalives_{name}"]
                    await connection.execute(f"SET tcp_keepalives_{name} = {int(value)}")
                self._locking = connection
                while True:
                    async with asyncio.timeout(QUERY_TIMEOUT):
                        await self._sweep(connection)
                    await asyncio.sleep(SWEEP_EVERY)
        finally:
            self._locking = None
            if self.held:
                log.warning("the bots of %d games are left to other processes", len(self.held))
            self.held.clear()
            self._keys.clear()

    async def _sweep(self, connection: psycopg.AsyncConnection[Any]) -> None:
        """Take the games where a bot is to move and nobody holds the lock."""
        games = self._games
        assert games is not None
        adopting = set(self._adopting.values())
        strays = {g for g in self.held if g not in adopting and not games.keeps(g)}
        for game_id in strays & self._strays:  # two sweeps in a row: not a release under way
            log.warning("game %s: its bots' lock was held out of memory; let go", game_id)
            await self.release(game_id)
        self._strays = strays
        cursor = await connection.execute("SELECT id FROM games WHERE bots_move AND NOT over")
        waiting = [game_id for (game_id,) in await cursor.fetchall() if game_id not in self.held]
        if not waiting:
            return
        async with self._mutex:
            won = await self._try(connection, waiting)
        for game_id in won:
            task = asyncio.get_running_loop().create_task(games.adopt(game_id))
            self._adopting[task] = game_id
            task.add_done_callback(self._adopted)

    def _adopted(self, task: asyncio.Task[None]) -> None:
        del self._adopting[task]

    async def _try(self, connection: psycopg.AsyncConnection[Any], ids: Iterable[str]) -> list[str]:
        """Try the locks of these games (under the mutex): the ids whose lock was won."""
        wanted: dict[int, list[str]] = {}
        won = []
        for game_id in ids:
            if game_id in self.held:
                continue
            key = lock_key(game_id)
            if key in self._keys:  # held already for a game with the same key
                self._keys[key].add(game_id)
                self.held.add(game_id)
                won.append(game_id)
            else:
                wanted.setdefault(key, []).append(game_id)
        if wanted:
            cursor = await connection.execute(
                "SELECT k FROM unnest(%s::bigint[]) AS k WHERE pg_try_advisory_lock(k)",
                [list(wanted)],
            )
            for (key,) in await cursor.fetchall():
                self._keys[key] = set(wanted[key])
                self.held.update(wanted[key])
                won += wanted[key]
        return won

    def drives(self, game_id: str) -> bool:
        return game_id in self.held

    async def claim(self, game_id: str) -> bool:
        """Take the lock of a game's bots if nobody holds it: whether this process drives them."""
        if game_id in self.held:
            return True
        connection = self._locking
        if connection is None:
            return False
        try:
            async with self._mutex:
                async with asyncio.timeout(QUERY_TIMEOUT):
                    won = await self._try(connection, [game_id])
        except Exception as exc:
            await self._lost(connection, exc)
            return False
        return bool(won)

    async def _lost(self, connection: psycopg.AsyncConnection[Any], exc: Exception) -> None:
        """A lock query failed or took too long: whether the lock was taken is unknown, so the
        session is closed (PostgreSQL frees its locks); the sweep's loop connects again."""
        log.warning("the bots' locks: %s; connecting again", _one_line(exc))
        self.held.clear()
        self._keys.clear()
        with contextlib.suppress(Exception):
            await connection.close()

    async def release(self, game_id: str) -> None:
        """Let another process drive this game's bots (it left memory, or it is over)."""
        if game_id not in self.held:
            return
        self.held.discard(game_id)
        key = lock_key(game_id)
        games = self._keys.get(key, set())
        games.discard(game_id)
        connection = self._locking
        if games or connection is None:
            return
        del self._keys[key]
        try:
            async with self._mutex:
                async with asyncio.timeout(QUERY_TIMEOUT):
                    await connection.execute("SELECT pg_advisory_unlock(%s)", [key])
        except Exception as exc:
            await self._lost(connection, exc)


async def _read_notifications(
    connection: psycopg.AsyncConnection[Any],
    heard: Callable[[str, str, int], None],
    encoding: str,
    seconds: float,
) -> None:
    """Hand each notification of ``connection`` to ``heard`` (channel, payload, the sending
    session's process id) as it arrives, for ``seconds``; raise if the connection fails. The
    loop watches libpq's socket for the whole time and the notifications are taken from
    libpq as they come (psycopg's ``notifies()`` watches the socket anew at each wait and
    builds each notification twice). Nothing else may use the connection meanwhile."""
    pgconn = connection.pgconn
    fd = pgconn.socket
    loop = asyncio.get_running_loop()
    failed: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        try:
            pgconn.consume_input()
            while (note := pgconn.notifies()) is not None:
                heard(note.relname.decode(encoding), note.extra.decode(encoding), note.be_pid)
        except Exception as exc:  # the connection failed (or a notification could not be
            # handled): the listening ends, in one line of the log, and starts again
            loop.remove_reader(fd)
            if not failed.done():
                failed.set_exception(exc)

    readable()  # those libpq read already, with the last query's answer
    if not failed.done():
        loop.add_reader(fd, readable)
    try:
        await asyncio.wait([failed], timeout=seconds)
    finally:
        loop.remove_reader(fd)
    if failed.done():
        failed.result()  # raises what failed


async def _again(once: Any, what: str) -> None:
    """Run ``once()`` for ever: each time it fails, log one line and run it again, 0.5 s later
    (twice that after each failure in a row, up to 5 s)."""
    loop = asyncio.get_running_loop()
    delay = 0.5
    while True:
        started = loop.time()
        try:
            await once()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("lost %s (%s); connecting again", what, _one_line(exc))
        if loop.time() - started > 30:
            delay = 0.5
        await asyncio.sleep(delay)
        delay = min(delay * 2, 5.0)
