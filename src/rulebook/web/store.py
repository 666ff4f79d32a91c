"""Where web games are kept: SQLAlchemy 2 over SQLite (default) or PostgreSQL (by URL).

A game is stored as its setup (seed included), who sits in each seat, the hashes of its seat
tokens, and its action log, one row per move. Every change is one transaction, committed before
the server acknowledges it; the games in memory are a cache rebuilt from here by replay.

The database is the only truth, and several server processes may write to one PostgreSQL
database (:mod:`rulebook.web.cluster`). So each game counts the writes of its log (``writes``:
every move and every undo adds one, it never goes back), and every write names the count the
writer's copy of the game was at: it is made only if the stored count is still that one, checked
under the game row's lock in the same transaction. A raced move or undo is refused, never
stored twice or on top of a log it did not see. On PostgreSQL each write also sends
``NOTIFY rulebook_games, 'ID:WRITES:...'`` (a trigger, :data:`_NOTIFY_BODY`: delivered to every
listening process when, and only if, the transaction commits).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, cast

import psycopg
from psycopg import generators
from psycopg.pq import ExecStatus
from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.schema import CreateColumn

from rulebook.core import Setup


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    #: text: a seed is any whole number, larger than a database integer
    seed: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)  #: JSON object
    seats: Mapped[str] = mapped_column(Text)  #: JSON list of seat specs
    over: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: the writes of the log so far (moves and undos): one more with each, never fewer
    writes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: a bot is to move: a process that finds no other driving it takes the game over
    bots_move: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the clock chosen at creation (:class:`rulebook.web.clocks.Clock` as JSON; None: none)
    clock: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    #: each seat's seconds left at ``clock_since`` (JSON list), as of the last write
    clock_left: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    #: when the last write was made (UNIX seconds): the running seats count down from it
    clock_since: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    #: when a running seat's time and grace period will be over (a bot takes it then)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, default=None, index=True)
    #: seats left open for anyone to take (home page's open tables) while the game goes on
    open_seats: Mapped[int] = mapped_column(Integer, default=0, server_default="0", index=True)
    #: the rematch made from this game: ``{"id": ..., "order": [new seat of each seat]}``
    rematch: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)

    __table_args__ = (
        Index(
            "games_waiting_for_bots",
            "id",
            postgresql_where=text("bots_move AND NOT over"),
            sqlite_where=text("bots_move AND NOT over"),
        ),
    )


class TokenRow(Base):
    """A seat link's token, hashed: the database never holds a usable token."""

    __tablename__ = "tokens"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seats: Mapped[str] = mapped_column(Text)  #: JSON list of the seats it admits


class CreatorRow(Base):
    """The digest of the key the creator of a game holds (in the fragment of the links
    page's address): with it the server deals the seat links again (``live.seat_token``)."""

    __tablename__ = "creators"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    digest: Mapped[str] = mapped_column(String(64))


class StintRow(Base):
    """A seat played by a bot: from which move to which (``stop`` None: it still plays), which
    bot, and why (``time``: the seat's time ran out; ``handed``: its player handed it over;
    ``voted``: the others voted, the seat being away)."""

    __tablename__ = "stints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    bot: Mapped[str] = mapped_column(String(32))
    why: Mapped[str] = mapped_column(String(16))
    start: Mapped[int] = mapped_column(Integer)  #: the first move the bot was to make
    stop: Mapped[int | None] = mapped_column(Integer, nullable=True)  #: the first it did not


class VoteRow(Base):
    """A seat's vote to hand an absent seat to a bot (games without a clock)."""

    __tablename__ = "votes"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    absent: Mapped[int] = mapped_column(Integer, primary_key=True)
    voter: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot: Mapped[str] = mapped_column(String(32))


class SeenRow(Base):
    """When a seat was last connected to its game (UNIX seconds)."""

    __tablename__ = "seen"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  #: 0 for the first move
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(Text)


def digest(token: str) -> str:
    """What is stored of a token (SHA-256: tokens carry 192 random bits, no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


#: the channel of the "game ID is at WRITES" notifications (PostgreSQL)
CHANNEL = "rulebook_games"
#: the channel of "who is connected to game ID through process PID" (PostgreSQL)
PRESENCE = "rulebook_presence"
#: a move of this many bytes or more is not sent in a notification (8000 bytes at most)
_NOTIFY_MOVE = 7000
#: any number unlikely to be another program's advisory lock: the schema's creation
_SCHEMA_LOCK = 0x72756C65626F6F6B  # "rulebook"


_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
# the statements of every move, built once (Core: no ORM work per move)
#: one more write of a game, if its count is still the one the writer saw
_COUNT_WRITE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("b_id"), _GAMES.c.writes == bindparam("b_writes"))
    .values(
        writes=_GAMES.c.writes + 1,
        over=bindparam("b_over"),
        bots_move=bindparam("b_bots"),
        clock_left=bindparam("b_left"),
        clock_since=bindparam("b_since"),
        deadline=bindparam("b_deadline"),
    )
)
_ADD_MOVES = insert(_MOVES)
_COUNTED = _COUNT_WRITE.returning(_GAMES.c.id).cte("counted")
#: one move in one statement (PostgreSQL): :data:`_COUNT_WRITE`, and the move added only if
#: its game's count was the move's (no row otherwise)
_WRITE_MOVE = insert(_MOVES).from_select(
    ["game_id", "number", "seat", "move"],
    select(
        _COUNTED.c.id,
        bindparam("number", type_=Integer),
        bindparam("seat", type_=Integer),
        bindparam("move", type_=String),
    ),
)
#: a game's count of writes and its moves from number ``start`` on: one statement, one snapshot
_SINCE = (
    select(
        _GAMES.c.writes,
        _GAMES.c.clock_left,
        _GAMES.c.clock_since,
        _GAMES.c.deadline,
        _MOVES.c.seat,
        _MOVES.c.move,
    )
    .select_from(_GAMES)
    .outerjoin(_MOVES, and_(_MOVES.c.game_id == _GAMES.c.id, _MOVES.c.number >= bindparam("start")))
    .where(_GAMES.c.id == bindparam("game"))
    .order_by(_MOVES.c.number)
)


class Clocks(NamedTuple):
    """The clocks as a write stores them (:mod:`rulebook.web.clocks`)."""

    left: str | None = None  #: JSON list of seconds
    since: float | None = None
    deadline: float | None = None


NO_CLOCKS = Clocks()


class MoveWrite(NamedTuple):
    """A move to store: made on the game as it was after ``writes`` writes of its log."""

    game_id: str
    writes: int
    number: int  #: its place in the log (0 for the first move)
    seat: int
    move: str
    over: bool  #: the game ended with it
    bots_move: bool  #: a bot is to move after it
    clocks: Clocks = NO_CLOCKS  #: the clocks after it


def _counts(moves: Sequence[MoveWrite]) -> list[dict[str, Any]]:
    """The parameters of :data:`_COUNT_WRITE` for ``moves``."""
    return [
        {
            "b_id": m.game_id,
            "b_writes": m.writes,
            "b_over": m.over,
            "b_bots": m.bots_move,
            "b_left": m.clocks.left,
            "b_since": m.clocks.since,
            "b_deadline": m.clocks.deadline,
        }
        for m in moves
    ]


def _rows(moves: Sequence[MoveWrite]) -> list[dict[str, Any]]:
    """The rows :data:`_ADD_MOVES` adds for ``moves``."""
    return [
        {"game_id": m.game_id, "number": m.number, "seat": m.seat, "move": m.move} for m in moves
    ]


def unix_time(at: datetime) -> float:
    """A stored time as UNIX seconds (SQLite gives it back without its zone: UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True)
class Stint:
    """A seat played by a bot, from move ``start`` to move ``stop`` (excluded; None: on)."""

    seat: int
    bot: str
    why: str
    start: int
    stop: int | None = None

    def stopped(self, stop: int) -> Stint:
        return Stint(self.seat, self.bot, self.why, self.start, stop)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "why": self.why,
            "from": self.start,
            "to": self.stop,
        }


class Since(NamedTuple):
    """What :meth:`Store.since` reads: the count of writes, the moves asked for, the clocks."""

    writes: int
    moves: list[tuple[int, str]]
    clocks: Clocks


@dataclass(frozen=True)
class Control:
    """A change of who plays a game's seats (:meth:`Store.control`)."""

    bots_move: bool
    clocks: Clocks = NO_CLOCKS
    seats: list[str] | None = None  #: the seats' specs, when they change (an open seat taken)
    start: Stint | None = None  #: a bot takes a seat
    stop: tuple[int, int] | None = None  #: (seat, move): the bot of a seat stops
    votes_of: int | None = None  #: the votes on this seat are over
    vote: tuple[int, int, str] | None = None  #: (absent seat, voter, bot): a vote to store
    token: tuple[str, list[int]] | None = None  #: a new link's token digest and seats


@dataclass(frozen=True)
class Stored:
    """A game as read back: setup, seat specs, action log and the count of its writes."""

    id: str
    setup: Setup
    seats: list[str]
    log: list[tuple[int, str]]
    writes: int = 0
    clock: str | None = None  #: the clock's JSON (:class:`rulebook.web.clocks.Clock`)
    clocks: Clocks = NO_CLOCKS
    stints: tuple[Stint, ...] = ()
    rematch: str | None = None
    votes: dict[int, dict[int, str]] = field(default_factory=dict)  #: {absent: {voter: bot}}
    seen: dict[int, float] = field(default_factory=dict)  #: when each seat was last connected
    created: float | None = None  #: when the game was created (UNIX seconds)

    def save_data(self) -> dict[str, Any]:
        """The save-file form (:func:`rulebook.replay` reads it)."""
        return {
            "format": "rulebook/1",
            **self.setup.to_dict(),
            "log": [[p, m] for p, m in self.log],
            "seats": list(self.seats),
        }


#: the databases the store runs on, by the URLs they are given as
SUPPORTED = "sqlite:///FILE, postgresql://USER@HOST:PORT/DB"
_SQLITE = ("sqlite", "sqlite+pysqlite")
_POSTGRESQL = ("postgresql", "postgres", "postgresql+psycopg")


class UnusableDatabase(Exception):
    """A database URL the store cannot use as given: the reason, in one line."""


def shown(url: str) -> str:
    """A database URL as it may be printed: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        return url.rsplit("@", 1)[-1]


def in_memory(url: str) -> bool:
    """Whether ``url`` is a SQLite database in memory (``sqlite://``: gone when it closes)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return False
    return parsed.drivername in _SQLITE and parsed.database in (None, "", ":memory:")


def _engine(url: str) -> Engine:
    unsupported = UnusableDatabase(f"bad database URL {shown(url)!r}; supported: {SUPPORTED}")
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise unsupported from None
    if parsed.drivername in _SQLITE:
        database = parsed.database
        if database and database != ":memory:":
            folder = Path(database).parent
            if not folder.is_dir():  # a typo in the folder is not a fresh, empty database
                raise UnusableDatabase(f"no folder {folder} for the database {database}")
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for the writer
            cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if parsed.drivername in _POSTGRESQL:
        parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3
        return create_engine(parsed, pool_size=5, max_overflow=5, pool_pre_ping=True)
    raise unsupported


def open_engine(url: str) -> Engine:
    """An engine on the database at ``url``, set up as the store's (SQLite's pragmas; psycopg
    3 for PostgreSQL): for other processes sharing the database (the lab's workers)."""
    return _engine(url)


def _upgrade(connection: Connection) -> None:
    """Add what a database made by an earlier version lacks: columns (each has a default for
    the rows already there) and indexes. Tables are made by ``create_all``."""
    found = inspect(connection)
    for table in Base.metadata.sorted_tables:
        have = {c["name"] for c in found.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                spec = CreateColumn(column).compile(dialect=connection.dialect)
                connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {spec}"))
        for index in table.indexes:
            index.create(connection, checkfirst=True)


#: PostgreSQL: the notification of each write of a game's log, sent by the database itself
#: (a trigger, so no write can forget it) as the writing transaction commits (a deferred
#: constraint trigger: it runs at commit, once the write's moves are in). It tells the count of
#: writes and the last move: ``ID:WRITES:NUMBER:SEAT:MOVE`` (``ID:WRITES`` when the game has no
#: move, or its last is too long for a notification). A process that held the game one write
#: before and whose log ends just before NUMBER makes that move without asking the database;
#: any other reads what it lacks (:meth:`Store.since`).
_NOTIFY_BODY = f"""
    DECLARE
        last moves%ROWTYPE;
    BEGIN
        SELECT * INTO last FROM moves WHERE game_id = NEW.id ORDER BY number DESC LIMIT 1;
        IF FOUND AND octet_length(last.move) < {_NOTIFY_MOVE} THEN
            PERFORM pg_notify('{CHANNEL}', NEW.id || ':' || NEW.writes || ':' || last.number
                || ':' || last.seat || ':' || last.move);
        ELSE
            PERFORM pg_notify('{CHANNEL}', NEW.id || ':' || NEW.writes);
        END IF;
        RETURN NULL;
    END """


def _install_notify(connection: Connection) -> None:
    """Make the trigger of :data:`_NOTIFY_BODY`, unless it is there as it is (replacing it
    locks the games table for a moment: not at every start of a process)."""
    there = connection.execute(
        text(
            "SELECT p.prosrc FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
            "WHERE t.tgname = 'games_notify' AND t.tgrelid = 'games'::regclass"
        )
    ).scalar()
    if there == _NOTIFY_BODY:
        return
    connection.execute(
        text(
            "CREATE OR REPLACE FUNCTION rulebook_games_notify() RETURNS trigger AS $$"
            f"{_NOTIFY_BODY}$$ LANGUAGE plpgsql"
        )
    )
    connection.execute(text("DROP TRIGGER IF EXISTS games_notify ON games"))
    connection.execute(
        text(
            "CREATE CONSTRAINT TRIGGER games_notify AFTER UPDATE OF writes ON games "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rulebook_games_notify()"
        )
    )


def _psycopg(statement: Any) -> tuple[str, list[str], dict[str, Any]]:
    """``statement`` as psycopg's SQL with positional ``%s`` parameters (no names to map at
    each call), the names of its parameters in their order, and the values of those it fixes
    itself (such as the 1 added to a count)."""
    from sqlalchemy.dialects.postgresql import psycopg as dialect

    compiled = statement.compile(dialect=dialect.dialect(paramstyle="format"))  # type: ignore[no-untyped-call]
    fixed = {k: v for k, v in compiled.params.items() if v is not None}
    return str(compiled), list(compiled.positiontup or ()), fixed


def _prepare(name: str, statement: Any) -> tuple[str, list[str]]:
    """``PREPARE name (types) AS statement``, its parameters numbered (``$1``, ...), each
    given its column's type; and the names of its parameters in their order."""
    from sqlalchemy.dialects.postgresql import psycopg as dialect

    compiled = statement.compile(dialect=dialect.dialect(paramstyle="numeric_dollar"))  # type: ignore[no-untyped-call]
    order = list(compiled.positiontup or ())
    types = [compiled.binds[n].type.compile(dialect=compiled.dialect) for n in order]
    return f"PREPARE {name} ({', '.join(types)}) AS {compiled}", order


def _as_text(value: Any) -> bytes | None:
    """A parameter in PostgreSQL's text form (None: NULL); floats by their shortest exact
    decimal (``repr``), which PostgreSQL reads back to the same number."""
    if value is None:
        return None
    if value is True or value is False:
        return b"t" if value else b"f"
    return (repr(value) if isinstance(value, float) else str(value)).encode()


#: the name of :data:`_WRITE_MOVE` prepared on the moves' connection
_PREPARED = "rulebook_write_move"
#: connects to the store's PostgreSQL database
Connect = Callable[[], Awaitable["psycopg.AsyncConnection[Any]"]]


class AsyncMoves:
    """:meth:`Store.write_moves` on PostgreSQL, on the event loop: one connection of its own
    (opened when first needed, and again once after it was lost), no thread and no pool
    between, and a move written by one statement (:data:`_WRITE_MOVE`: the count moved on
    only if it is still the move's, the move added only then), so one round trip and no
    transaction to open and close; several moves at once in one transaction. The server's
    hottest write: a fraction of the CPU it takes through SQLAlchemy in a worker thread."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._sql, self._names, self._fixed = _psycopg(_WRITE_MOVE)
        self._prepare, self._prepared_names = _prepare(_PREPARED, _WRITE_MOVE)
        #: the PostgreSQL process of the connection (None before it is made)
        self._pid: int | None = None
        #: the writes under way: each move's game and its count of writes once stored
        self._writing: set[tuple[str, int]] = set()

    def writing(self, pid: int, game_id: str, writes: int) -> bool:
        """Whether a write by PostgreSQL's process ``pid`` that took game ``game_id`` to
        ``writes`` writes may be one of this connection's under way (its notification can come
        before its answer: the write's own path will bring the game up to date, or find it
        refused and read it again)."""
        return pid == self._pid and (game_id, writes) in self._writing

    async def write_moves(self, moves: Sequence[MoveWrite]) -> list[bool]:
        """As :meth:`Store.write_moves`. A connection lost is replaced and the write sent
        once more: a write that was committed before the loss is then refused by its count
        of writes (False), as a move raced by another process is."""
        try:
            return await self._write(moves)
        except psycopg.OperationalError:
            await self.close()
            return await self._write(moves)

    def _named(self, moves: Sequence[MoveWrite]) -> list[dict[str, Any]]:
        """Each move's parameters of :data:`_WRITE_MOVE`, by name."""
        return [
            {**self._fixed, **c, **r} for c, r in zip(_counts(moves), _rows(moves), strict=True)
        ]

    def _params(self, moves: Sequence[MoveWrite]) -> list[tuple[Any, ...]]:
        return [tuple(values[name] for name in self._names) for values in self._named(moves)]

    async def _write(self, moves: Sequence[MoveWrite]) -> list[bool]:
        connection = self._connection
        if connection is None or connection.closed:
            connection = self._connection = await self._connect()
            # psycopg prepares none of its own: it would drop every statement prepared on the
            # connection, this one included, at a rollback (DEALLOCATE ALL)
            connection.prepare_threshold = None
            await connection.execute(self._prepare)
            self._pid = connection.info.backend_pid
        keys = [(m.game_id, m.writes + 1) for m in moves]
        self._writing.update(keys)
        try:
            return await self._send(connection, moves)
        finally:
            self._writing.difference_update(keys)

    async def _send(
        self, connection: psycopg.AsyncConnection[Any], moves: Sequence[MoveWrite]
    ) -> list[bool]:
        if len(moves) == 1:  # autocommit: the statement is its own transaction
            return [await self._one(connection, moves[0])]
        ordered = sorted(moves, key=lambda m: m.game_id)  # rows locked in one order
        async with connection.transaction():
            cursor = connection.cursor()
            await cursor.executemany(self._sql, self._params(ordered))
            if cursor.rowcount == len(ordered):
                return [True] * len(moves)
            raise psycopg.Rollback()  # leaves the transaction, rolled back
        return [(await self._send(connection, [m]))[0] for m in moves]

    async def _one(self, connection: psycopg.AsyncConnection[Any], move: MoveWrite) -> bool:
        """One move's write, the prepared statement sent straight through libpq (psycopg's
        ``pq`` layer, its parameters as text): about a fifth less of the client's CPU than
        ``execute`` (``python benchmarks/write_move.py``). Whether the move was stored."""
        values = self._named([move])[0]
        params = [_as_text(values[name]) for name in self._prepared_names]
        pgconn = connection.pgconn
        for again in (False, True):
            async with connection.lock:
                pgconn.send_query_prepared(_PREPARED.encode(), params)
                results = await connection.wait(generators.execute(pgconn))
            result = results[-1]
            if result.status == ExecStatus.COMMAND_OK:
                break
            error = psycopg.errors.error_from_result(result, encoding=connection.info.encoding)
            if again or not isinstance(error, psycopg.errors.InvalidSqlStatementName):
                raise error
            await connection.execute(self._prepare)  # dropped (a DISCARD ALL): prepared again
        return bool(result.command_tuples == 1)

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(psycopg.Error):
                await connection.close()


class Store:
    """The games' database. Methods are blocking: the server calls them from worker threads.
    :class:`UnusableDatabase` if ``url`` names no database the store runs on, or a SQLite file
    in a folder that does not exist."""

    def __init__(self, url: str) -> None:
        self.engine = _engine(url)
        self.sqlite = self.engine.dialect.name == "sqlite"
        with self.engine.begin() as connection:
            if not self.sqlite:  # processes starting together make the tables once
                connection.execute(select(func.pg_advisory_xact_lock(_SCHEMA_LOCK)))
            Base.metadata.create_all(connection)
            _upgrade(connection)
            if not self.sqlite:
                _install_notify(connection)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Raise unless the database answers a query (``/healthz``)."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def create(
        self,
        game_id: str,
        setup: Setup,
        seats: Sequence[str],
        tokens: Sequence[tuple[str, Sequence[int]]],
        log: Sequence[tuple[int, str]] = (),
        over: bool = False,
        bots_move: bool = False,
        creator: str | None = None,
        clock: str | None = None,
        clocks: Clocks = NO_CLOCKS,
        created: datetime | None = None,
    ) -> None:
        """Store a new game, its token digests (with the seats each admits), the digest of
        its creator's key, its clock, when it was created (now unless given) and, for an
        uploaded save file, its moves so far: all or nothing."""
        with Session(self.engine) as s, s.begin():
            s.add(
                GameRow(
                    id=game_id,
                    game=setup.game,
                    variant=setup.variant,
                    players=setup.players,
                    seed=str(setup.seed),
                    options=json.dumps(dict(setup.options)),
                    seats=json.dumps(list(seats)),
                    over=over,
                    created=datetime.now(UTC) if created is None else created,
                    writes=0,
                    bots_move=bots_move,
                    clock=clock,
                    clock_left=clocks.left,
                    clock_since=clocks.since,
                    deadline=clocks.deadline,
                    open_seats=sum(1 for s in seats if s == "open"),
                )
            )
            s.flush()  # the game row first: the others refer to it
            for token_digest, admitted in tokens:
                s.add(TokenRow(digest=token_digest, game_id=game_id, seats=json.dumps(admitted)))
            if creator is not None:
                s.add(CreatorRow(game_id=game_id, digest=creator))
            for n, (seat, move) in enumerate(log):
                s.add(MoveRow(game_id=game_id, number=n, seat=seat, move=move))

    def write_moves(self, moves: Sequence[MoveWrite]) -> list[bool]:
        """Store moves of several games in one transaction (group commit): each only if its
        game's stored count of writes is the one it was made on (False in its place if not:
        nothing of it is stored). The games' rows are updated, so locked, in the order of their
        ids: two processes writing the same games wait for each other, never deadlock.

        The hottest write of the server: Core statements, no ORM unit of work. The counts are
        checked by the UPDATE itself; only when one did not match (a raced move, rare) is each
        move stored again in a transaction of its own, to find which."""
        ordered = sorted(moves, key=lambda m: m.game_id)
        with self.engine.begin() as connection:
            if self._count_writes(connection, ordered) == len(ordered):
                self._add_moves(connection, ordered)
                return [True] * len(moves)
            connection.rollback()
        if len(moves) == 1:
            return [False]
        return [self.write_moves([m])[0] for m in moves]

    def _count_writes(self, connection: Connection, moves: Sequence[MoveWrite]) -> int:
        """One more write for each game of ``moves`` whose count is still the move's: how many
        were (on PostgreSQL a trigger sends the notifications as the transaction commits)."""
        return int(connection.execute(_COUNT_WRITE, _counts(moves)).rowcount)

    @staticmethod
    def _add_moves(connection: Connection, moves: Sequence[MoveWrite]) -> None:
        connection.execute(_ADD_MOVES, _rows(moves))

    def undo(
        self, game_id: str, writes: int, length: int, bots_move: bool, clocks: Clocks = NO_CLOCKS
    ) -> bool:
        """Delete the moves from number ``length`` on (an undo), if the game's stored count of
        writes is still ``writes`` (False, and nothing changed, if not)."""
        with self.engine.begin() as connection:
            counted = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.writes == writes)
                .values(
                    writes=GameRow.writes + 1,
                    over=False,
                    bots_move=bots_move,
                    clock_left=clocks.left,
                    clock_since=clocks.since,
                    deadline=clocks.deadline,
                )
            )
            if counted.rowcount != 1:
                connection.rollback()
                return False
            connection.execute(
                delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.number >= length)
            )
        return True

    def load(self, game_id: str) -> Stored | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            setup = Setup(
                row.game, row.players, int(row.seed), row.variant, json.loads(row.options)
            )
            seats = json.loads(row.seats)
            clock, rematch = row.clock, row.rematch
            stints = tuple(
                Stint(r.seat, r.bot, r.why, r.start, r.stop)
                for r in s.scalars(
                    select(StintRow).where(StintRow.game_id == game_id).order_by(StintRow.id)
                )
            )
            votes: dict[int, dict[int, str]] = {}
            for v in s.scalars(select(VoteRow).where(VoteRow.game_id == game_id)):
                votes.setdefault(v.absent, {})[v.voter] = v.bot
            seen = {
                r.seat: r.at for r in s.scalars(select(SeenRow).where(SeenRow.game_id == game_id))
            }
            created = unix_time(row.created)
        found = self.since(game_id, 0)  # the log and its count in one reading
        if found is None:
            return None
        return Stored(
            game_id,
            setup,
            seats,
            found.moves,
            found.writes,
            clock,
            found.clocks,
            stints,
            rematch,
            votes,
            seen,
            created,
        )

    def control(self, game_id: str, writes: int, change: Control) -> bool:
        """A write of who plays a game's seats (a bot takes a seat or gives it back, a person
        takes an open seat), checked like a move: made only if the game's stored count of
        writes is still ``writes``, and counted as one more write (False: nothing changed)."""
        values: dict[str, Any] = {
            "writes": GameRow.writes + 1,
            "bots_move": change.bots_move,
            "clock_left": change.clocks.left,
            "clock_since": change.clocks.since,
            "deadline": change.clocks.deadline,
        }
        if change.seats is not None:
            values["seats"] = json.dumps(change.seats)
            values["open_seats"] = sum(1 for s in change.seats if s == "open")
        with Session(self.engine) as s, s.begin():
            counted = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.writes == writes)
                .values(**values)
            )
            if cast(Any, counted).rowcount != 1:
                s.rollback()
                return False
            if change.stop is not None:
                seat, stop = change.stop
                s.execute(
                    update(StintRow)
                    .where(
                        StintRow.game_id == game_id, StintRow.seat == seat, StintRow.stop.is_(None)
                    )
                    .values(stop=stop)
                )
            if change.start is not None:
                st = change.start
                s.add(
                    StintRow(game_id=game_id, seat=st.seat, bot=st.bot, why=st.why, start=st.start)
                )
            if change.votes_of is not None:
                s.execute(
                    delete(VoteRow).where(
                        VoteRow.game_id == game_id, VoteRow.absent == change.votes_of
                    )
                )
            if change.vote is not None:
                absent, voter, bot = change.vote
                s.merge(VoteRow(game_id=game_id, absent=absent, voter=voter, bot=bot))
            if change.token is not None:
                digest_, admitted = change.token
                s.add(TokenRow(digest=digest_, game_id=game_id, seats=json.dumps(admitted)))
        return True

    def overdue(self, at: float) -> list[str]:
        """The games, not over, where a seat's time and grace period are over at ``at``."""
        rows = self._read(select(GameRow.id).where(GameRow.deadline <= at, GameRow.over.is_(False)))
        return [game_id for (game_id,) in rows]

    def seen(self, game_id: str, seats: Sequence[int], at: float) -> None:
        """Seats of a game were connected at ``at``."""
        with Session(self.engine) as s, s.begin():
            for seat in seats:
                row = s.get(SeenRow, (game_id, seat))
                if row is None:
                    s.add(SeenRow(game_id=game_id, seat=seat, at=at))
                elif row.at < at:
                    row.at = at

    def notify(self, payloads: Sequence[str]) -> None:
        """Tell the other processes who is connected here (PostgreSQL): a notification for
        each payload, all in one statement."""
        with self.engine.begin() as connection:
            connection.execute(
                text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
                {"channel": PRESENCE, "payloads": list(payloads)},
            )

    def open_tables(self, limit: int = 50) -> list[tuple[str, str, str, str, str | None]]:
        """The newest games, not over, with a seat left open: id, game, variant, seats, clock."""
        return list(
            self._read(
                select(GameRow.id, GameRow.game, GameRow.variant, GameRow.seats, GameRow.clock)
                .where(GameRow.open_seats > 0, GameRow.over.is_(False))
                .order_by(GameRow.created.desc())
                .limit(limit)
            )
        )

    def set_rematch(self, game_id: str, rematch: str) -> tuple[str, bool]:
        """Name the rematch of a game, unless one is named already (a write: the other
        processes read the game again): the one that is, and whether it is this one."""
        with Session(self.engine) as s, s.begin():
            done = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.rematch.is_(None))
                .values(rematch=rematch, writes=GameRow.writes + 1)
            )
            found = s.scalar(select(GameRow.rematch).where(GameRow.id == game_id))
            return str(found), cast(Any, done).rowcount == 1

    def add_token(self, game_id: str, token_digest: str, seats: Sequence[int]) -> None:
        """A token for seats of a game (a rematch's link), unless it is stored already."""
        with Session(self.engine) as s, s.begin():
            if s.get(TokenRow, token_digest) is None:
                s.add(TokenRow(digest=token_digest, game_id=game_id, seats=json.dumps(seats)))

    def since(self, game_id: str, start: int) -> Since | None:
        """A game's count of writes, its clocks and its moves from number ``start`` on, read
        together (one statement: one snapshot, even while another process writes)."""
        with self.engine.connect() as connection:
            rows = connection.execute(_SINCE, {"game": game_id, "start": start}).all()
        if not rows:
            return None
        first = rows[0]
        moves = [(r[4], r[5]) for r in rows if r[4] is not None]
        return Since(first[0], moves, Clocks(first[1], first[2], first[3]))

    def writes_of(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The stored count of writes of each of these games."""
        rows = self._read(select(GameRow.id, GameRow.writes).where(GameRow.id.in_(game_ids)))
        return {game_id: writes for game_id, writes in rows}

    def waiting_for_bots(self) -> list[str]:
        """The games, not over, where a bot is to move."""
        rows = self._read(
            select(GameRow.id).where(GameRow.bots_move.is_(True), GameRow.over.is_(False))
        )
        return [game_id for (game_id,) in rows]

    def _read(self, statement: Any) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(statement).all())

    def token_seats(self, game_id: str, token_digest: str) -> list[int] | None:
        """The seats a token admits in a game (None for a wrong token)."""
        with Session(self.engine) as s:
            row = s.get(TokenRow, token_digest)
            if row is None or row.game_id != game_id:
                return None
            seats: list[int] = json.loads(row.seats)
            return seats

    def creator_digest(self, game_id: str) -> str | None:
        """The digest of the key of a game's links page (None for a game stored without)."""
        with Session(self.engine) as s:
            row = s.get(CreatorRow, game_id)
            return None if row is None else row.digest

    def unfinished(self) -> list[str]:
        """The games still being played (their bots resume when a lone server starts)."""
        with Session(self.engine) as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.over.is_(False))))
