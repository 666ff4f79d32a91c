"""Where web games are kept: SQLAlchemy 2 over SQLite (default) or PostgreSQL (by URL).

A game is stored as its setup (seed included), who sits in each seat, the hashes of its seat
tokens, and its action log, one row per move. Every change is one transaction, committed before
the server acknowledges it; the games in memory are a cache rebuilt from here by replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

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


@dataclass(frozen=True)
class Stored:
    """A game as read back: setup, seat specs and action log."""

    id: str
    setup: Setup
    seats: list[str]
    log: list[tuple[int, str]]

    def save_data(self) -> dict[str, Any]:
        """The save-file form (:func:`rulebook.replay` reads it)."""
        return {
            "format": "rulebook/1",
            **self.setup.to_dict(),
            "log": [[p, m] for p, m in self.log],
            "seats": list(self.seats),
        }


def _engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for the writer
            cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3
    return create_engine(parsed, pool_size=5, max_overflow=5, pool_pre_ping=True)


class Store:
    """The games' database. Methods are blocking: the server calls them from worker threads."""

    def __init__(self, url: str) -> None:
        self.engine = _engine(url)
        self.sqlite = self.engine.dialect.name == "sqlite"
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(
        self,
        game_id: str,
        setup: Setup,
        seats: Sequence[str],
        tokens: Sequence[tuple[str, Sequence[int]]],
        log: Sequence[tuple[int, str]] = (),
        over: bool = False,
        creator: str | None = None,
    ) -> None:
        """Store a new game, its token digests (with the seats each admits), the digest of
        its creator's key and, for an uploaded save file, its moves so far: all or nothing."""
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
                    created=datetime.now(UTC),
                )
            )
            s.flush()  # the game row first: the others refer to it
            for token_digest, admitted in tokens:
                s.add(TokenRow(digest=token_digest, game_id=game_id, seats=json.dumps(admitted)))
            if creator is not None:
                s.add(CreatorRow(game_id=game_id, digest=creator))
            for n, (seat, move) in enumerate(log):
                s.add(MoveRow(game_id=game_id, number=n, seat=seat, move=move))

    def append(self, game_id: str, number: int, seat: int, move: str, over: bool) -> None:
        """Add move ``number`` to a game's log (and mark the game over if it ended)."""
        self.append_many([(game_id, number, seat, move, over)])

    def append_many(self, moves: Sequence[tuple[str, int, int, str, bool]]) -> None:
        """Add moves of several games in one transaction (group commit); all or nothing.

        The hottest write of the server: one Core INSERT of all the rows (no ORM unit of
        work, a third of the CPU per move), and the games that ended marked over."""
        rows = [
            {"game_id": game_id, "number": number, "seat": seat, "move": move}
            for game_id, number, seat, move, _ in moves
        ]
        ended = [m[0] for m in moves if m[4]]
        with self.engine.begin() as connection:
            connection.execute(insert(MoveRow), rows)
            if ended:
                connection.execute(update(GameRow).where(GameRow.id.in_(ended)).values(over=True))

    def truncate(self, game_id: str, length: int) -> None:
        """Delete the moves from number ``length`` on (an undo), in one transaction."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.number >= length))
            s.execute(update(GameRow).where(GameRow.id == game_id).values(over=False))

    def load(self, game_id: str) -> Stored | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            moves = s.execute(
                select(MoveRow.seat, MoveRow.move)
                .where(MoveRow.game_id == game_id)
                .order_by(MoveRow.number)
            ).all()
            setup = Setup(
                row.game, row.players, int(row.seed), row.variant, json.loads(row.options)
            )
            return Stored(row.id, setup, json.loads(row.seats), [(p, m) for p, m in moves])

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
        """The games still being played (their bots resume when the server starts)."""
        with Session(self.engine) as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.over.is_(False))))
