"""The games being played: each an in-memory state (a cache rebuilt from the stored log by
replay), its connected viewers, and its bots. Every move is committed to the store before the
state in memory changes, so whatever a viewer was shown or told is in the database.

The database is the only truth: other processes may write the same games
(:mod:`rulebook.web.cluster`). Each game in memory knows its count of writes
(:mod:`rulebook.web.store`); a move or an undo is stored only if the stored count is still that
one, else the game is read again (caught up by its count) and the request refused with 409
only if it no longer fits the game. Notifications of the others' writes catch the games in
memory up as they happen; an HTTP read or a new WebSocket asks the database for the count
first, so it shows every write committed before it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import hmac
import itertools
import json
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio.to_thread

from rulebook.core import IllegalAction, Setup, State, get_game
from rulebook.web import metrics
from rulebook.web import seats as seat_kinds
from rulebook.web.bots import BotRunner
from rulebook.web.clocks import (
    Clock,
    Times,
    after,
    deadline,
    move_undone,
    overdue,
    taken_back,
)
from rulebook.web.cluster import Alone, Move, Postgres
from rulebook.web.errors import Conflict, Forbidden, NotFound
from rulebook.web.settings import Settings
from rulebook.web.store import (
    NO_CLOCKS,
    AsyncMoves,
    Clocks,
    Control,
    MoveWrite,
    Stint,
    Store,
    Stored,
    digest,
    unix_time,
)
from rulebook.web.views import Entry, KeptLog, made, to_text, version, view
from rulebook.web.worker import WorkerLost
from rulebook.web.writer import Writer

log = logging.getLogger("rulebook.web")

#: token length in bytes: 192 bits, well above the 128 the links need
TOKEN_BYTES = 24
#: tries of a bot move that fails for a reason other than the game moving on
BOT_RETRIES = 3
#: seconds after which another process's word that a seat is connected is stale (it says it
#: again every :data:`PRESENCE_AGAIN` seconds while it is)
PRESENCE_STALE = 75.0
PRESENCE_AGAIN = 30.0
#: the games told again in one statement
PRESENCE_BATCH = 500
#: why a write was not stored: another process wrote the game first
#: each log installed in a game gets the next (a bot worker holding moves of another lineage
#: is told the game whole: :class:`rulebook.web.bots.Tellings`)
_LINEAGES = itertools.count()
WRITTEN_MEANWHILE = "the game moved on while your move was being stored; nothing was changed"


def seat_groups(seats: Sequence[str]) -> list[tuple[int, ...]]:
    """The seats each link of a game admits, in the order they are dealt: one link per human
    seat, then one for them all when there are several (hot-seat)."""
    humans = tuple(p for p, s in enumerate(seats) if s == seat_kinds.HUMAN)  # not open seats
    return [(p,) for p in humans] + ([humans] if len(humans) > 1 else [])


def seat_token(creator: str, game_id: str, number: int) -> str:
    """The token of a game's link ``number`` (:func:`seat_groups` order), derived from the
    creator's key (HMAC-SHA256): whoever holds the key can be dealt the links again, and the
    server keeps only digests of both."""
    mac = hmac.new(creator.encode(), f"{game_id}/{number}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode().rstrip("=")


@dataclass(frozen=True)
class Dealt:
    """A game's links: the seats each token admits, and the creator's key that deals them."""

    links: list[tuple[tuple[int, ...], str]]
    creator: str


def deal(game_id: str, seats: Sequence[str], creator: str) -> Dealt:
    groups = seat_groups(seats)
    return Dealt([(g, seat_token(creator, game_id, i)) for i, g in enumerate(groups)], creator)


#: a change of who plays a game's seats: its write, and what it makes of the game in memory
Judged = tuple[Control, Callable[[], None]]
#: what a change of the seats makes of the game (:meth:`Games._control`), or why it cannot be made
Judge = Callable[["LiveGame"], Judged | str]


@dataclass(eq=False)
class Viewer:
    """One open connection to a game: the seats its token admits (None: a spectator)."""

    seats: tuple[int, ...] | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: one message at a time on the socket (updates and replies come from two tasks)
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the number of the last frame sent for each viewpoint (a seat, or None)
    sent: dict[int | None, int] = field(default_factory=dict)
    #: the client takes deltas (``{"type": "delta"}``) after a whole payload (its hello said)
    deltas: bool = False
    #: a delta was sent since the client last asked for the whole payloads (``{"type": "full"}``)
    delta_sent: bool = False
    #: the revision of the last move whose frames to this viewer were timed
    timed: int = -1

    @property
    def viewpoints(self) -> tuple[int | None, ...]:
        return (None,) if self.seats is None else self.seats


def replay(setup: Setup, moves: Sequence[tuple[int, str]]) -> tuple[State, list[Entry], bool]:
    """The game after ``moves``, each told as it was made, and whether the last one drew
    anything by chance (a die, a card)."""
    state = get_game(setup.game).create(setup)
    told: list[Entry] = []
    drew = False
    for seat, text in moves:
        action = state.parse_action(seat, text)
        draws = state.chance.draws
        told.append(made(state, seat, action))
        drew = state.chance.draws != draws
    return state, told, drew


#: what a delta leaves out of a payload: the log, sent as the lines kept and those added
LOG = "log"


def differences(
    old: dict[str, Any], new: dict[str, Any]
) -> tuple[dict[str, Any], int, list[Any]] | None:
    """What changed from payload ``old`` to payload ``new`` of one viewer: the other fields
    whose values differ, how many lines of the log stay as they were, and the lines after
    them. None when a field came or went (then only the whole payload will do)."""
    if old.keys() != new.keys():
        return None
    changed = {k: v for k, v in new.items() if k != LOG and old[k] != v}
    before, after = old[LOG], new[LOG]
    keep = len(before)
    if after[:keep] != before:  # the log grew (its lines are shared: a fast comparison)
        keep = next(
            (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
            min(keep, len(after)),
        )
    return changed, keep, after[keep:]


class Frame:
    """One viewer's payload at one change of the game, numbered (per viewer), and its two
    WebSocket messages, each encoded once, when first asked for, however many connections
    are sent it: the whole payload (``{"type": "view", ...}``), and what changed since the
    frame before it (``{"type": "delta", "base": ...}``: the fields that changed, the count
    of log lines kept and the lines added). A connection is sent the delta only if the frame
    it was sent last is that base; else the whole payload (docs/web-api.md)."""

    __slots__ = ("_changes", "_delta", "_full", "base", "key", "number", "payload", "viewer")

    def __init__(
        self,
        number: int,
        key: tuple[int, bool, int],
        viewer: int | None,
        payload: dict[str, Any],
        base: int | None = None,
        changes: tuple[dict[str, Any], int, list[Any]] | None = None,
    ) -> None:
        self.number = number
        self.key = key
        self.viewer = viewer
        self.payload = payload
        #: the number of the frame this one's delta starts from (None: no delta)
        self.base = base if changes is not None else None
        self._changes = changes
        self._full: str | None = None
        self._delta: str | None = None

    def head(self, kind: str) -> dict[str, Any]:
        return {
            "type": kind,
            "frame": self.number,
            "seat": self.viewer,
            "version": self.payload["version"],
            "over": self.payload["over"],
        }

    def full(self) -> str:
        if self._full is None:
            self._full = to_text({**self.head("view"), "view": self.payload})
        return self._full

    def delta(self) -> str | None:
        """The delta from :attr:`base` (None if there is none: send :meth:`full`)."""
        if self._delta is None and self._changes is not None:
            changed, keep, added = self._changes
            message = {**self.head("delta"), "base": self.base, "view": changed}
            message[LOG] = [keep, added]
            self._delta = to_text(message)
        return self._delta


class LiveGame:
    """One game in memory. Changed only under :attr:`lock`, and only once the store has the
    change."""

    def __init__(self, stored: Stored, absent_after: float) -> None:
        self.id = stored.id
        self.seats = list(stored.seats)
        self.labels = [seat_kinds.label(s) for s in self.seats]
        self.lock = asyncio.Lock()
        self.viewers: set[Viewer] = set()
        self.bot_task: asyncio.Task[None] | None = None
        #: the digests of this game's tokens known in memory (forgotten with the game)
        self.token_digests: set[str] = set()
        #: bumped by every undo and every replay: a bot's move chosen before it is thrown away
        self.epoch = 0
        #: whether the last move may be undone: None until a worker checked (when first asked)
        self.undo_ok: bool | None = False
        #: asks for the undo check of the last move (set by :class:`Games`)
        self.check_undo: Callable[[LiveGame], None] | None = None
        #: bumped by every change of the state (a move, an undo)
        self.revision = 0
        #: the writes of the stored log this state is made of (:mod:`rulebook.web.store`)
        self.writes = stored.writes
        #: the count of writes another process announced (caught up to by :meth:`Games._follow`)
        self.announced = stored.writes
        self.following = False
        #: the tasks about to change the game, waiting for its lock or holding it
        #: (:meth:`Games.holding`): it stays in memory meanwhile
        self.users = 0
        #: this process is asking for the lock of the game's bots
        self.claiming = False
        #: another process held the lock when this one asked
        self.driven_elsewhere = False
        #: each viewpoint's newest frame, shared by every connection of that seat (or every
        #: spectator)
        self._frames: dict[int | None, Frame] = {}
        #: each viewpoint's payload (with ``can_undo`` false) at a revision
        self._payloads: dict[int | None, tuple[int, dict[str, Any]]] = {}
        #: each viewer's log lines told so far (reused), while the stints are these
        self._kept: dict[int | None, KeptLog] = {}
        self._kept_stints: tuple[Stint, ...] = ()
        #: connections of each seat through other processes: {pid: (seats, when told)}
        self.remote: dict[str, tuple[frozenset[int], float]] = {}
        #: bumped whenever who is connected changes (the messages carry presence)
        self.presence_rev = 0
        #: the revision of the last move and when it arrived (``time.perf_counter``): how
        #: long its frames took to reach the viewers (:data:`metrics.MOVE_TO_VIEWER`)
        self.moved_at: tuple[int, float] | None = None
        self.shown_here: frozenset[int] = frozenset()
        #: when the game was created: a seat never seen counts as away from then (from when
        #: this process read it if the store did not say)
        self.created = time.time() if stored.created is None else stored.created
        #: how long a seat must be away before the others may vote it to a bot (seconds: the
        #: server's ``--absent-after``)
        self.absent_after = absent_after
        self.table(stored)
        self.rebuild(stored.setup, stored.log)

    def table(self, stored: Stored) -> None:
        """Who plays each seat, the clocks, the votes and the rematch, as stored."""
        self.seats = list(stored.seats)
        self.labels = [seat_kinds.label(s) for s in self.seats]
        self.clock = Clock.from_text(stored.clock)
        self.times = Times.read(stored.clocks.left, stored.clocks.since)
        self.stints = list(stored.stints)
        #: the seats a bot plays now, and which bot
        self.held = {s.seat: s.bot for s in self.stints if s.stop is None}
        self.votes = {a: dict(v) for a, v in stored.votes.items()}
        self.seen = dict(stored.seen)
        self.rematch: dict[str, Any] | None = json.loads(stored.rematch) if stored.rematch else None
        self.revision += 1

    def rebuild(self, setup: Setup, moves: Sequence[tuple[int, str]]) -> None:
        """Replay the log from the setup, telling each move as it was made."""
        self.install(*replay(setup, moves))

    def install(self, state: State, told: list[Entry], drew: bool) -> None:
        """Make ``state`` (told by ``told``) the game."""
        self.state = state
        self.log = told
        self.lineage = next(_LINEAGES)
        self.revision += 1
        self.forget_undo(drew)

    def follow(self, moves: Sequence[tuple[int, str]]) -> None:
        """Make the moves another process stored (in place: if one fails, the caller replays
        the game from the store)."""
        state = self.state
        drew = False
        for seat, text in moves:
            action = state.parse_action(seat, text)
            draws = state.chance.draws
            self.log.append(made(state, seat, action))
            drew = state.chance.draws != draws
        self.revision += 1
        self.forget_undo(drew)

    def forget_undo(self, drew: bool) -> None:
        """After a change: the last move may be undone if a person made it, nothing was drawn,
        the game goes on, and a worker finds that it revealed nothing (asked when needed)."""
        last = self.log[-1] if self.log else None
        eligible = last is not None and self.human(last.seat) and not drew
        self.undo_ok = None if eligible and not self.state.is_terminal() else False

    def human(
        self, seat: int, held: dict[int, str] | None = None, seats: list[str] | None = None
    ) -> bool:
        """Whether a person plays ``seat`` now (not a bot, not an open seat)."""
        held = self.held if held is None else held
        seats = self.seats if seats is None else seats
        return seats[seat] in seat_kinds.PEOPLE and seat not in held

    def spec(self, seat: int) -> str:
        """Who plays ``seat`` now: the bot that holds it, or the seat's kind."""
        return self.held.get(seat, self.seats[seat])

    def is_bot(self, seat: int, held: dict[int, str] | None = None) -> bool:
        held = self.held if held is None else held
        return seat in held or self.seats[seat] not in (*seat_kinds.PEOPLE, seat_kinds.OPEN)

    def bot_to_move(
        self, state: State | None = None, held: dict[int, str] | None = None
    ) -> int | None:
        """A bot seat that is to move in ``state`` (the game's by default), if any."""
        state = self.state if state is None else state
        if state.is_terminal():
            return None
        return next((p for p in state.current_players() if self.is_bot(p, held)), None)

    def running(
        self,
        state: State | None = None,
        held: dict[int, str] | None = None,
        seats: list[str] | None = None,
    ) -> list[int]:
        """The seats whose clocks run in ``state``: the people still to move."""
        state = self.state if state is None else state
        if self.clock is None or state.is_terminal():
            return []
        return [p for p in state.current_players() if self.human(p, held, seats)]

    def clocks_after(
        self,
        state: State,
        mover: int | None,
        held: dict[int, str] | None = None,
        back: int | None = None,
        seats: list[str] | None = None,
        undone: int | None = None,
    ) -> tuple[Times | None, Clocks]:
        """The clocks after a write that leaves the game at ``state`` with ``held`` seats
        played by bots and the seats' kinds ``seats`` (``mover`` moved; ``back``: a person
        took that seat back; ``undone``: that seat's last move was taken back)."""
        if self.clock is None or self.times is None:
            return None, NO_CLOCKS
        running = self.running(state, held, seats)
        times = after(self.clock, self.times, self.running(), running, mover, time.time())
        if back is not None:
            times = taken_back(self.clock, times, back)
        if undone is not None:
            times = move_undone(self.clock, times, undone)
        return times, Clocks(times.to_text(), times.since, deadline(self.clock, times, running))

    def clocks_now(self) -> Clocks:
        """The clocks as they are stored now (a write that changes none of them)."""
        if self.clock is None or self.times is None:
            return NO_CLOCKS
        end = deadline(self.clock, self.times, self.running())
        return Clocks(self.times.to_text(), self.times.since, end)

    def overdue(self, at: float) -> list[int]:
        """The seats whose time and grace period are over at ``at``."""
        if self.clock is None or self.times is None:
            return []
        return overdue(self.clock, self.times, self.running(), at)

    def here(self) -> set[int]:
        """The seats connected now, through this process or another."""
        seats = {p for v in self.viewers if v.seats for p in v.seats}
        fresh = time.time() - PRESENCE_STALE
        for told, at in self.remote.values():
            if at >= fresh:
                seats |= told
        return seats

    def away_since(self, seat: int) -> float:
        """Since when ``seat`` counts as away (if it is): when it was last seen, else since the
        game was created (the same in every process, and after a restart)."""
        return self.seen.get(seat, self.created)

    def presence(self) -> list[dict[str, Any]]:
        """Each seat: connected now (``here``), else when it was last (``seen``, UNIX
        seconds; None: never since the server kept count) and since when it counts as away
        for a vote (``away_since``: ``seen``, or when the game was created)."""
        here = self.here()
        return [
            {
                "seat": p,
                "here": p in here,
                "seen": None if p in here else self.seen.get(p),
                "away_since": None if p in here else self.away_since(p),
            }
            for p in range(len(self.seats))
        ]

    def presence_changed(self) -> None:
        """Tell the viewers if the seats connected are no longer those they were shown."""
        here = frozenset(self.here())
        if here != self.shown_here:
            self.shown_here = here
            self.presence_rev += 1
            self.publish()

    def bot_moves(self, upto: int | None = None) -> dict[int, str]:
        """The moves of the log (its first ``upto``) a bot made in a person's seat, by their
        place in the log: the bot's name (from the stints: a stint's seat's moves from its start
        to its stop)."""
        end = len(self.log) if upto is None else min(upto, len(self.log))
        made: dict[int, str] = {}
        for s in self.stints:
            name = seat_kinds.label(s.bot)
            stop = end if s.stop is None else min(s.stop, end)
            made.update((i, name) for i in range(s.start, stop) if self.log[i].seat == s.seat)
        return made

    def table_view(self) -> dict[str, Any]:
        """What the payload says of the table (the same for every viewer): who plays each seat
        (a bot holding a seat, since which move), the clocks, the votes, the rematch."""
        clock = None
        if self.clock is not None and self.times is not None:
            clock = {
                **self.clock.public(),
                "left": [round(x, 3) for x in self.times.left],
                "since": self.times.since,
                "running": self.running(),
            }
        return {
            "created": self.created,
            "clock": clock,
            "bots": [s.to_dict() for s in self.stints],
            "held": {str(p): seat_kinds.label(b) for p, b in self.held.items()},
            "kinds": [seat_kinds.kind(s) for s in self.seats],
            "open": [p for p, s in enumerate(self.seats) if s == seat_kinds.OPEN],
            "votes": {str(a): {str(v): b for v, b in vs.items()} for a, vs in self.votes.items()},
            # votes are for games without a clock: a seat away this long (seconds) may be voted
            "absent_after": None if self.clock is not None else self.absent_after,
            "rematch": None if self.rematch is None else self.rematch["id"],
        }

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back the last move: its own, by a person, revealing
        nothing, and the game not over. Asking about a move not yet checked starts the check."""
        if not self.log or self.log[-1].seat != seat or self.state.is_terminal():
            return False
        if self.undo_ok is None and self.check_undo is not None:
            self.check_undo(self)
        return self.undo_ok is True

    def payload(self, viewer: int | None) -> dict[str, Any]:
        """``viewer``'s payload (a new dict: the caller may add to it). Built once per change
        of the game; the undo button turning on or off changes only ``can_undo``."""
        known = self._payloads.get(viewer)
        if known is None or known[0] != self.revision:
            stints = tuple(self.stints)
            if stints != self._kept_stints:  # a bot's moves in a person's seat: told anew
                self._kept_stints = stints
                self._kept.clear()
            kept = self._kept.setdefault(viewer, KeptLog())
            built = view(
                self.state, viewer, self.log, self.labels, bots=self.bot_moves(), kept=kept
            )
            if viewer in self.held:  # a bot plays the seat: its person has no moves to make
                built["legal"] = []
            built.update(self.table_view())
            if built["result"] is not None:
                built["result"]["bots"] = built["bots"]
            known = (self.revision, built)
            self._payloads[viewer] = known
        return {
            **known[1],
            "can_undo": viewer is not None and self.can_undo(viewer),
            "presence": self.presence(),
        }

    def frame(self, viewer: int | None) -> Frame:
        """``viewer``'s newest :class:`Frame`: built once per change of the game (or of the
        viewer's undo button, or of who is connected) however many connections show it. A
        change that leaves the viewer's payload as it was keeps its frame: nothing to send."""
        key = (self.revision, viewer is not None and self.can_undo(viewer), self.presence_rev)
        known = self._frames.get(viewer)
        if known is not None and known.key == key:
            return known
        payload = self.payload(viewer)
        changes = None if known is None else differences(known.payload, payload)
        if known is not None and changes is not None:
            if not changes[0] and changes[1] == len(payload[LOG]) == len(known.payload[LOG]):
                known.key = key  # the same payload: the same frame
                return known
            known._changes = None  # nobody is sent its delta once a newer frame is built
        # numbered per viewpoint: a seat's count of its frames says nothing of other seats'
        base = None if known is None else known.number
        frame = Frame((base or 0) + 1, key, viewer, payload, base, changes)
        self._frames[viewer] = frame
        return frame

    def unwatched(self) -> None:
        """Nobody watches the game here now: forget each viewpoint's frames, payloads and kept
        log lines, built again (whole) for the next viewer. A game kept in memory that nobody
        watches holds its state and its log only: a finished game's payloads outweigh them
        (``benchmarks/web_views.py --memory``), and a cache full of finished games kept them
        all (``benchmarks/soak.py``)."""
        self._frames.clear()
        self._payloads.clear()
        self._kept.clear()
        self._kept_stints = ()

    @property
    def viewpoints_built(self) -> int:
        """How many viewpoints' payloads or frames the game holds now."""
        return len(self._frames.keys() | self._payloads.keys() | self._kept.keys())

    def message(self, viewer: int | None) -> str:
        """The WebSocket message carrying ``viewer``'s whole payload, as JSON text
        (:meth:`frame`)."""
        return self.frame(viewer).full()

    def version(self, viewer: int | None) -> int:
        """The ``version`` of ``viewer``'s payload (the moves it knows of)."""
        return version(self.state, viewer, self.log)

    def worker_setup(self) -> dict[str, Any]:
        """What a bot worker replays the log from (:class:`rulebook.web.bots.Tellings`)."""
        return self.state.setup.to_dict()

    def save_data(self) -> dict[str, Any]:
        """The save file: the seats as their kinds (a seat taken from the open tables is a
        person's; an outside agent by its menu name, :func:`seats.saved`), and which seats
        bots played from which move to which (``bots``)."""
        seats = [
            seat_kinds.HUMAN if s in seat_kinds.PEOPLE else seat_kinds.saved(s) for s in self.seats
        ]
        data = {
            "format": "rulebook/1",
            **self.state.setup.to_dict(),
            "log": [[e.seat, e.move] for e in self.log],
            "seats": seats,
        }
        if self.stints:
            data["bots"] = [s.to_dict() for s in self.stints]
        return data

    def publish(self, seat: int | None = None) -> None:
        """Tell every connected viewer that the game changed (only those of ``seat``: a
        change only that seat sees)."""
        for v in self.viewers:
            if seat is None or (v.seats is not None and seat in v.seats):
                v.wake.set()


class Games:
    """Every game the server knows: created, loaded on demand, moved, undone, bots run."""

    def __init__(self, store: Store, settings: Settings, runner: BotRunner) -> None:
        self.store = store
        self.settings = settings
        self.runner = runner
        self.cluster: Alone | Postgres = Alone() if store.sqlite else Postgres(store.engine.url)
        moves = None
        if isinstance(self.cluster, Postgres):
            moves = AsyncMoves(functools.partial(self.cluster.connect, "writes"))
        self.writer = Writer(store, self.db, moves)
        self.cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._tokens: dict[str, tuple[str, tuple[int, ...]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: the count of writes each undo check in flight is about, by game
        self._checking: dict[str, int] = {}
        #: the counts of writes notified for games being read from the store
        self._missed: dict[str, int] = {}
        #: the store takes one writer at a time on SQLite; PostgreSQL takes several
        self._db = anyio.CapacityLimiter(1 if store.sqlite else 4)

    async def db(self, fn: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(metrics.timed_call(fn), *args, limiter=self._db)

    # -- finding games and their seats ---------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        """The game in memory, loaded from the store if needed (:class:`NotFound` if none)."""
        game = self.cache.get(game_id)
        if game is not None:
            self.cache.move_to_end(game_id)
            return game
        if len(game_id) > 64:
            raise NotFound("no such game")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                stored = await self.db(self.store.load, game_id)
                loaded = None if stored is None else self._live(stored)
                if loaded is not None:
                    self._keep(loaded)
                    missed = self._missed.pop(game_id, 0)
                    if missed > loaded.writes:  # written while it was read
                        self.changed(game_id, missed)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
                self._missed.pop(game_id, None)
        found = await asyncio.shield(pending)
        if found is None:
            raise NotFound("no such game")
        return found

    async def fresh(self, game_id: str) -> LiveGame:
        """The game with every write committed so far, as kept in memory (:meth:`get`; when
        other processes may write it, its count of writes is read from the store first)."""
        while True:
            cached = game_id in self.cache
            game = await self.get(game_id)
            if cached and self.cluster.shared:
                stored = await self.db(self.store.writes_of, [game_id])
                if stored.get(game_id, game.writes) > game.writes:
                    async with game.lock:
                        await self._refresh(game)
            if self.cache.get(game_id) is game:
                return game  # else it left memory meanwhile (the cache full): read it again

    async def kept(self, game: LiveGame) -> LiveGame:
        """The copy of ``game``'s game that this process keeps in memory: ``game`` itself,
        unless it left memory while its caller held it (across an await, the cache full of
        busy games); then the game as it is now (:meth:`fresh`). Only the kept copy hears the
        other processes' writes, and only its leaving memory lets its bots' lock go: every
        change and every viewer goes through it."""
        return game if self.cache.get(game.id) is game else await self.fresh(game.id)

    @contextlib.asynccontextmanager
    async def holding(self, game: LiveGame) -> AsyncIterator[LiveGame]:
        """The kept copy of ``game``'s game (:meth:`kept`), under its lock; it stays in memory
        from now until the lock is let go (waiting for the lock included)."""
        game = await self.kept(game)
        game.users += 1
        try:
            async with game.lock:
                yield game
        finally:
            game.users -= 1

    def _live(self, stored: Stored) -> LiveGame:
        game = LiveGame(stored, self.settings.absent_after)
        game.check_undo = self._check_undo
        return game

    def _keep(self, game: LiveGame) -> None:
        """Keep ``game`` in memory; the games least recently asked for that nothing uses
        leave it while there are more than ``--cache-games`` (never ``game`` itself: its
        caller goes on with it)."""
        self.cache[game.id] = game
        excess = len(self.cache) - self.settings.cache_games
        for gid in list(self.cache):
            if excess <= 0:
                break
            old = self.cache[gid]
            busy = old.viewers or old.bot_task or old.claiming or old.following or old.users
            if not busy and not old.lock.locked() and old is not game:
                del self.cache[gid]
                for key in old.token_digests:  # looked up again in the store when needed
                    self._tokens.pop(key, None)
                if self.cluster.drives(gid):  # another process may drive its bots now
                    self._spawn(self.cluster.release(gid))
                excess -= 1
        metrics.GAMES.set(len(self.cache))

    async def seats_of(self, game: LiveGame, token: str | None) -> tuple[int, ...]:
        """The seats a token admits in ``game``: :class:`Forbidden` if missing or wrong."""
        if not token:
            raise Forbidden("this needs the seat's link (its token is missing)")
        if len(token) > 128:
            raise Forbidden("wrong token for this game")
        key = digest(token)
        known = self._tokens.get(key)
        if known is None:
            seats = await self.db(self.store.token_seats, game.id, key)
            if seats is None:
                raise Forbidden("wrong token for this game")
            known = self._tokens[key] = (game.id, tuple(seats))
            # forgotten when the game leaves memory (its kept copy: ``game`` may have left)
            self.cache.get(game.id, game).token_digests.add(key)
        if known[0] != game.id:
            raise Forbidden("wrong token for this game")
        return known[1]

    # -- creating ------------------------------------------------------------------------------
    async def create(
        self,
        setup: Setup,
        seats: Sequence[str],
        moves: Sequence[tuple[int, str]] = (),
        clock: Clock | None = None,
    ) -> tuple[LiveGame, Dealt]:
        """Store a new game (with the moves of an uploaded save file, and its clock) and deal
        its links: one token per human seat, one for them all when there are several
        (hot-seat), and the creator's key that deals them again (:meth:`links_of`)."""
        game_id = secrets.token_urlsafe(12)
        rule = None if clock is None else clock.to_text()
        created = datetime.now(UTC)  # as stored: every process reads back the same instant
        stored = Stored(
            game_id, setup, list(seats), list(moves), clock=rule, created=unix_time(created)
        )
        live = self._live(stored)  # replays: a bad log fails here, before anything is stored
        clocks = NO_CLOCKS
        if clock is not None:
            now = time.time()
            live.times = Times(tuple(clock.start(len(seats))), now)
            clocks = Clocks(live.times.to_text(), now, deadline(clock, live.times, live.running()))
        dealt = deal(game_id, seats, secrets.token_urlsafe(TOKEN_BYTES))
        tokens = [(digest(t), list(group)) for group, t in dealt.links]
        over = live.state.is_terminal()
        bots = live.bot_to_move() is not None
        await self.writer.call(
            self.store.create,
            game_id,
            setup,
            list(seats),
            tokens,
            list(moves),
            over,
            bots,
            digest(dealt.creator),
            rule,
            clocks,
            created,
        )
        for (group, _), (key, _) in zip(dealt.links, tokens, strict=True):
            self._tokens[key] = (game_id, group)
            live.token_digests.add(key)
        self._keep(live)
        self.ensure_bots(live)
        return live, dealt

    async def links_of(self, game: LiveGame, key: str | None) -> Dealt:
        """The links of ``game`` dealt again for its creator's ``key`` (:class:`Forbidden` if
        missing or wrong; a game stored before links pages existed has no key)."""
        if not key or len(key) > 128:
            raise Forbidden("this page needs the key its address ends with (after #)")
        stored = await self.db(self.store.creator_digest, game.id)
        if stored is None or not hmac.compare_digest(stored, digest(key)):
            raise Forbidden("this is not the key of this game's links")
        return deal(game.id, game.seats, key)

    # -- who plays a seat: bots taking over, people taking back, open seats, votes --------------
    async def _control(self, game: LiveGame, judge: Judge) -> None:
        """A change of who plays the game's seats (under its lock): ``judge`` gives the write
        and what it makes of the game in memory, or why it cannot be made (:class:`Conflict`).
        Stored only if nobody wrote the game meanwhile (else the game is caught up and judged
        again), then made in memory."""
        for attempt in range(2):
            judged = judge(game)
            if isinstance(judged, str):
                raise Conflict(judged)
            change, apply = judged
            if await self.writer.call(self.store.control, game.id, game.writes, change):
                apply()
                game.writes += 1
                game.epoch += 1  # a bot's move chosen before the change is thrown away
                game.revision += 1
                return
            if attempt == 0:
                await self._refresh(game)
        raise Conflict(WRITTEN_MEANWHILE)

    @staticmethod
    def _bot_takes(game: LiveGame, seat: int, bot: str, why: str) -> Judged:
        """The write of a bot taking ``seat`` (the votes on it are over)."""
        held = {**game.held, seat: bot}
        times, clocks = game.clocks_after(game.state, None, held)
        stint = Stint(seat, bot, why, len(game.log))

        def apply() -> None:
            game.held, game.times = held, times
            game.stints.append(stint)
            game.votes.pop(seat, None)

        bots = game.bot_to_move(held=held) is not None
        return Control(bots, clocks, start=stint, votes_of=seat), apply

    async def _change(self, game: LiveGame, judge: Judge) -> LiveGame:
        """:meth:`_control` on the copy of the game kept in memory (:meth:`holding`): that
        copy, changed."""
        async with self.holding(game) as game:
            await self._control(game, judge)
        self._changed(game)
        return game

    async def hand(self, game: LiveGame, seat: int, bot: str) -> LiveGame:
        """A bot plays ``seat`` from now on: its person had to go. The game changed."""

        def judge(game: LiveGame) -> Judged | str:
            if game.state.is_terminal():
                return "the game is over"
            if not game.human(seat):
                return f"seat {seat + 1} is not played by a person now"
            return self._bot_takes(game, seat, bot, "handed")

        return await self._change(game, judge)

    async def take_back(self, game: LiveGame, seat: int) -> LiveGame:
        """The seat's person plays it again (from its link): the bot that held it stops. The
        game changed."""

        def judge(game: LiveGame) -> Judged | str:
            if seat not in game.held:
                return f"seat {seat + 1} is not played by a bot now"
            held = {p: b for p, b in game.held.items() if p != seat}
            times, clocks = game.clocks_after(game.state, None, held, back=seat)
            stop = len(game.log)

            def apply() -> None:
                game.held, game.times = held, times
                game.stints = [
                    t.stopped(stop) if t.seat == seat and t.stop is None else t for t in game.stints
                ]

            bots = game.bot_to_move(held=held) is not None
            return Control(bots, clocks, stop=(seat, stop)), apply

        return await self._change(game, judge)

    async def expire(self, game_id: str) -> None:
        """A bot takes each seat of the game whose time and grace period are over (every
        process may find it; the write is checked, so one of them makes it)."""
        game = await self.fresh(game_id)
        clock = game.clock
        if clock is None:
            return

        def judge(game: LiveGame) -> Judged | str:
            late = game.overdue(time.time())
            if not late:
                return "no seat is out of time"
            return self._bot_takes(game, late[0], clock.bot, "time")

        with contextlib.suppress(Conflict):
            while game.overdue(time.time()):
                game = await self._change(game, judge)

    async def vote(self, game: LiveGame, voter: int, absent: int, bot: str) -> bool:
        """``voter`` votes to hand ``absent`` (away a while) to ``bot``; once more than half
        of the other people's seats have, the bot takes it. Whether it did."""
        took = False

        def judge(game: LiveGame) -> Judged | str:
            nonlocal took
            if game.clock is not None:
                return "this game has a clock: a seat whose time runs out goes to a bot by itself"
            if game.state.is_terminal():
                return "the game is over"
            if absent == voter or not game.human(absent) or not game.human(voter):
                return "a vote is a person's seat's, on another seat a person plays"
            if absent in game.here():
                return f"seat {absent + 1} is connected now"
            away = time.time() - game.away_since(absent)
            if away < game.absent_after:
                return (
                    f"seat {absent + 1} has been away {int(away)} s; a vote is possible after "
                    f"{int(game.absent_after)} s"
                )
            votes = {**game.votes.get(absent, {}), voter: bot}
            others = [p for p in range(len(game.seats)) if p != absent and game.human(p)]
            took = 2 * sum(1 for p in others if p in votes) > len(others)
            if took:
                named = list(votes.values())
                return self._bot_takes(game, absent, max(named, key=named.count), "voted")

            def apply() -> None:
                game.votes[absent] = votes

            change = Control(
                game.bot_to_move() is not None, game.clocks_now(), vote=(absent, voter, bot)
            )
            return change, apply

        await self._change(game, judge)
        return took

    async def join(self, game: LiveGame, seat: int) -> str:
        """Take the open ``seat``: its private link's token (:class:`Conflict` if someone
        took it first, or if it never was open)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        key = digest(token)

        def judge(game: LiveGame) -> Judged | str:
            if game.state.is_terminal():
                return "the game is over"
            if not 0 <= seat < len(game.seats):
                return f"this game has no seat {seat + 1}"
            kind = game.seats[seat]
            if kind == seat_kinds.JOINED:
                return f"seat {seat + 1} is not open any more (someone took it first)"
            never = f"seat {seat + 1} is not an open seat"
            if kind in seat_kinds.PEOPLE:
                return f"{never}: a person plays it, with its own link"
            if kind != seat_kinds.OPEN:
                return f"{never}: a bot ({seat_kinds.label(kind)}) plays it"
            seats = list(game.seats)
            seats[seat] = seat_kinds.JOINED
            times, clocks = game.clocks_after(game.state, None, seats=seats)

            def apply() -> None:
                game.seats, game.times = seats, times
                game.labels = [seat_kinds.label(s) for s in seats]

            bots = game.bot_to_move() is not None
            return Control(bots, clocks, seats=seats, token=(key, [seat])), apply

        game = await self._change(game, judge)
        self._tokens[key] = (game.id, (seat,))
        game.token_digests.add(key)
        return token

    async def rematch_of(
        self,
        game: LiveGame,
        shuffle: bool,
        make: Callable[[list[int]], Coroutine[Any, Any, tuple[LiveGame, Dealt]]],
    ) -> dict[str, Any]:
        """The rematch of a finished game: ``{"id", "order"}`` (seat ``p`` plays seat
        ``order[p]`` of it), made by ``make(order)`` unless one was made already (the first
        to ask decides whether the seats are shuffled)."""
        async with self.holding(game) as game:
            if game.rematch is None:
                order = list(range(len(game.seats)))
                if shuffle:
                    secrets.SystemRandom().shuffle(order)
                new, _ = await make(order)
                chosen = json.dumps({"id": new.id, "order": order})
                named, won = await self.writer.call(self.store.set_rematch, game.id, chosen)
                if won:
                    game.writes += 1
                game.rematch = json.loads(named)
                game.revision += 1
        self._changed(game)
        assert game.rematch is not None
        return game.rematch

    # -- moving --------------------------------------------------------------------------------
    async def move(
        self, game: LiveGame, seat: int, text: str, version: int | None = None
    ) -> LiveGame:
        """Make a seat's move, stored before anyone is told (:class:`Conflict` if it cannot
        be made now; nothing changes then). The game as it is after the move (the copy kept in
        memory: :meth:`kept`)."""
        arrived = time.perf_counter()
        async with self.holding(game) as game:
            refusal = await self._try_move(game, seat, text, version)
            if refusal is not None and (self.cluster.shared or refusal == WRITTEN_MEANWHILE):
                # this copy may be behind the database: catch up, and judge the move again
                await self._refresh(game)
                refusal = await self._try_move(game, seat, text, version)
            if refusal is not None:
                raise Conflict(refusal)
            self._moved(game, arrived, "person")
        self._changed(game)
        return game

    def _moved(self, game: LiveGame, arrived: float, by: str) -> None:
        """Count a stored move; its frames to the viewers are timed from ``arrived``."""
        game.moved_at = (game.revision, arrived)
        metrics.labelled(metrics.MOVES, game.state.setup.game, by).inc()
        if self.cluster.shared:  # its write sent one notification (the store's trigger)
            metrics.NOTIFY_SENT.inc()

    async def _try_move(
        self, game: LiveGame, seat: int, text: str, version: int | None
    ) -> str | None:
        """Make the move (None), or say why not (nothing changed then)."""
        state = game.state
        if state.is_terminal():
            return "the game is over"
        if version is not None:
            now = game.version(seat)
            if version != now:
                return (
                    f"the game has moved on since your page showed it (move {version}, "
                    f"now {now}); nothing was changed"
                )
        if seat not in state.current_players():
            return f"it is not seat {seat}'s move now"
        if seat in game.held:
            return f"a bot plays seat {seat + 1} now: take the seat back first"
        try:
            stored = await self._commit(game, seat, text)
        except Conflict as exc:
            return str(exc)
        return None if stored else WRITTEN_MEANWHILE

    async def _commit(self, game: LiveGame, seat: int, text: str) -> bool:
        """Apply a move to a copy, store it, then make the copy the game (under the lock).
        False if the store refused it (another process wrote the game first); :class:`Conflict`
        if it is illegal."""
        state = game.state
        new = state.clone()
        try:
            action = new.parse_action(seat, text)
            told = made(new, seat, action)
        except IllegalAction as exc:
            raise Conflict(str(exc)) from None
        times, clocks = game.clocks_after(new, seat)
        write = MoveWrite(
            game.id,
            game.writes,
            len(game.log),
            seat,
            told.move,
            new.is_terminal(),
            game.bot_to_move(new) is not None,
            clocks,
        )
        if not await self.writer.append(write):
            return False
        game.times = times
        game.state = new
        game.log.append(told)
        game.writes += 1
        game.revision += 1
        game.forget_undo(new.chance.draws != state.chance.draws)
        return True

    def _changed(self, game: LiveGame, claim: bool = True) -> None:
        """After a change of the game: wake its viewers, its bots (``claim``: this process
        wrote it, so it asks for the bots when nobody drives them); a finished game's bots
        are nobody's to drive any more."""
        game.publish()
        self.ensure_bots(game, claim)
        if game.state.is_terminal() and self.cluster.drives(game.id):
            self._spawn(self.cluster.release(game.id))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- undo ----------------------------------------------------------------------------------
    def _check_undo(self, game: LiveGame) -> None:
        """Start the check of whether the last move may be undone (in a worker), unless one
        is under way; the mover is told if it may."""
        if self._checking.get(game.id) != game.writes:
            self._checking[game.id] = game.writes
            self._spawn(self._run_undo_check(game, game.writes))

    async def _run_undo_check(self, game: LiveGame, writes: int) -> None:
        revealed = await self._reveals(game)
        if self._checking.get(game.id) == writes:
            del self._checking[game.id]
        if game.writes == writes and game.undo_ok is None:
            game.undo_ok = not revealed
            if game.undo_ok:  # the mover's undo button: nobody else's payload changed
                game.publish(game.log[-1].seat)

    async def _reveals(self, game: LiveGame) -> bool:
        """Whether the last move of ``game`` revealed anything (True if unsure)."""
        game_id = game.id
        try:
            return await self.runner.reveals(game)
        except WorkerLost as lost:
            log.warning("undo check of game %s: %s; no undo this time", game_id, lost)
        except Exception:
            log.exception("undo check of game %s failed", game_id)
        return True

    async def undo(self, game: LiveGame, seat: int) -> LiveGame:
        """Take back ``seat``'s last move: the log loses its last row, the game is replayed.
        The game as it is after (the copy kept in memory: :meth:`kept`)."""
        async with self.holding(game) as game:
            refusal = await self._try_undo(game, seat)
            if refusal is not None and (self.cluster.shared or refusal == WRITTEN_MEANWHILE):
                await self._refresh(game)
                refusal = await self._try_undo(game, seat)
            if refusal is not None:
                raise Conflict(refusal)
        self._changed(game)
        return game

    async def _try_undo(self, game: LiveGame, seat: int) -> str | None:
        log_ = game.log
        if log_ and log_[-1].seat == seat and game.undo_ok is None:
            writes = game.writes
            revealed = await self._reveals(game)
            if game.writes == writes:
                game.undo_ok = not revealed
        if not game.can_undo(seat):
            return (
                "nothing to undo: only your own last move, while no other seat has moved "
                "and nothing hidden was revealed by it"
            )
        length = len(game.log) - 1
        state, told, drew = replay(game.state.setup, [(e.seat, e.move) for e in log_[:length]])
        bots = game.bot_to_move(state) is not None
        times, clocks = game.clocks_after(state, None, undone=seat)
        undone = await self.writer.call(self.store.undo, game.id, game.writes, length, bots, clocks)
        if not undone:
            return WRITTEN_MEANWHILE
        game.times = times
        game.writes += 1
        game.epoch += 1
        game.install(state, told, drew)
        return None

    # -- following the other processes' writes -------------------------------------------------
    async def _refresh(self, game: LiveGame) -> bool:
        """Catch the game up with the store (under its lock): the moves it lacks, or the whole
        log replayed when it is not only longer (an undo). Whether anything changed."""
        found = await self.db(self.store.since, game.id, len(game.log))
        if found is None:
            return False
        writes, moves, clocks = found
        if writes <= game.writes:
            return False
        if writes - game.writes == len(moves):  # moves only, no undo: they follow ours
            try:
                game.follow(moves)
            except Exception:
                log.exception("game %s: stored moves do not follow; replaying it", game.id)
                await self._reload(game)
            else:
                game.writes = writes
                game.times = Times.read(clocks.left, clocks.since)
        else:
            await self._reload(game)
        self._changed(game, claim=False)
        return True

    async def _replay(self, game: LiveGame) -> None:
        async with game.lock:
            await self._reload(game)
        self._changed(game, claim=False)

    async def _reload(self, game: LiveGame) -> None:
        stored: Stored | None = await self.db(self.store.load, game.id)
        if stored is not None:
            game.epoch += 1
            game.table(stored)
            game.rebuild(stored.setup, stored.log)
            game.writes = stored.writes

    def changed(
        self, game_id: str, writes: int, last: Move | None = None, pid: int | None = None
    ) -> None:
        """A write of a game was committed (a notification; this process's own writes too):
        catch the game up if it is in memory (one that is not is read when next asked for).
        When the game is one write behind and the write added ``last`` right after its log,
        that move is made at once; else the store is asked for what is missing (a task).
        ``pid``: PostgreSQL's process that wrote it; a write of this process's own still
        under way (its notification came before its answer) is left to its own path."""
        game = self.cache.get(game_id)
        if game is None and game_id in self._loading:
            self._missed[game_id] = max(writes, self._missed.get(game_id, 0))
        if game is None or writes <= game.writes:
            return
        moves = self.writer.moves
        if (
            pid is not None
            and moves is not None
            and game.lock.locked()  # every write is made under the lock of the copy it changes
            and moves.writing(pid, game_id, writes)
        ):
            return
        if (
            last is not None
            and game.clock is None  # a clocked game reads its clocks with the moves
            and writes == game.writes + 1
            and last[0] == len(game.log)
            and not game.lock.locked()  # no write of this process's own under way
            and not game.following
        ):
            try:
                game.follow([last[1:]])
            except Exception:
                log.exception("game %s: a stored move does not follow; replaying it", game_id)
                self._spawn(self._replay(game))
            else:
                game.writes = writes
                self._changed(game, claim=False)
            return
        game.announced = max(game.announced, writes)
        if not game.following:
            game.following = True
            self._spawn(self._follow(game))

    async def _follow(self, game: LiveGame) -> None:
        try:
            while game.writes < game.announced:
                async with game.lock:
                    if game.writes >= game.announced or not await self._refresh(game):
                        break
        except Exception as exc:
            log.warning("game %s could not be caught up: %s", game.id, exc)
        finally:
            game.following = False

    async def caught_up(self) -> None:
        """Compare every game in memory with the store: catch up those behind."""
        ids = list(self.cache)
        for start in range(0, len(ids), 500):
            stored = await self.db(self.store.writes_of, ids[start : start + 500])
            for game_id, writes in stored.items():
                self.changed(game_id, writes)

    # -- bots ----------------------------------------------------------------------------------
    def ensure_bots(self, game: LiveGame, claim: bool = True) -> None:
        """Start the game's bot loop if a bot is to move, none is running, and this process
        drives the game's bots. If it does not, and ``claim``, it asks for them (once at a
        time; not again once another process was found driving them: when that one stops,
        the sweep of :mod:`rulebook.web.cluster` finds the game). Only the copy kept in memory
        runs bots: the lock of a copy out of memory would never be let go."""
        if game.bot_task is not None or game.claiming or game.bot_to_move() is None:
            return
        if self.cache.get(game.id) is not game:
            return
        if self.cluster.drives(game.id):
            game.bot_task = asyncio.get_running_loop().create_task(self._run_bots(game))
        elif claim and not game.driven_elsewhere:
            game.claiming = True
            self._spawn(self._claim(game))

    async def _claim(self, game: LiveGame) -> None:
        try:
            won = await self.cluster.claim(game.id)
        finally:
            game.claiming = False
        if won:
            self.ensure_bots(game)
        else:
            game.driven_elsewhere = True

    def keeps(self, game_id: str) -> bool:
        return game_id in self.cache

    async def adopt(self, game_id: str) -> None:
        """This process drives the game's bots from now on (another stopped): load it, start
        them."""
        try:
            game = await self.fresh(game_id)
        except NotFound:
            await self.cluster.release(game_id)
            return
        except Exception as exc:
            log.warning("game %s could not be taken over: %s", game_id, exc)
            await self.cluster.release(game_id)
            return
        self._changed(game)

    async def _run_bots(self, game: LiveGame) -> None:
        failures = 0
        try:
            while (seat := game.bot_to_move()) is not None and self.cluster.drives(game.id):
                epoch = game.epoch
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                asked = time.perf_counter()
                metrics.BOT_QUEUE.inc()
                try:
                    text = await self.runner.choose(game, seat, game.spec(seat))
                except WorkerLost as lost:  # new workers are up: ask them
                    log.warning("bot of seat %d in game %s: %s; asking again", seat, game.id, lost)
                    await asyncio.sleep(0.1)
                    continue
                except Exception:
                    failures += 1
                    log.exception("bot of seat %d in game %s failed", seat, game.id)
                    if failures >= BOT_RETRIES:
                        return
                    await asyncio.sleep(1.0)
                    continue
                finally:
                    metrics.BOT_QUEUE.dec()
                metrics.BOT_THINK.observe(time.perf_counter() - asked)
                outcome = await self._bot_move(game, seat, text, epoch)
                if outcome is None:  # another process drives the bots now
                    return
                if outcome == "failed":
                    failures += 1
                    if failures >= BOT_RETRIES:
                        return
                    await asyncio.sleep(1.0)
                elif outcome == "stored":
                    failures = 0
                    game.publish()
        finally:
            game.bot_task = None
            if game.state.is_terminal() and self.cluster.drives(game.id):
                self._spawn(self.cluster.release(game.id))

    async def _bot_move(self, game: LiveGame, seat: int, text: str, epoch: int) -> str | None:
        """Store a bot's move: "stored", "again" (the game changed under the bot: it chooses
        again), "failed" (the store failed: nothing changed), None (not this process's bots)."""
        arrived = time.perf_counter()
        async with game.lock:
            if not self.cluster.drives(game.id):
                return None
            for _ in range(2):
                if (
                    game.epoch != epoch
                    or seat not in game.state.current_players()
                    or not game.is_bot(seat)
                ):
                    return "again"
                try:
                    if await self._commit(game, seat, text):
                        self._moved(game, arrived, "bot")
                        return "stored"
                except Conflict:
                    return "again"
                except Exception:
                    log.exception("bot move of game %s could not be stored", game.id)
                    return "failed"
                # another process wrote the game first (a person, in a phase where the seats
                # move together): catch up, and make the move on the game as it is now
                log.info("bot move of game %s: the game was written elsewhere first", game.id)
                await self._refresh(game)
            return "again"

    # -- clocks --------------------------------------------------------------------------------
    async def _watch_clocks(self) -> None:
        """Every second, the games where a seat's time and grace period are over (stored
        deadlines: a restart loses none): a bot takes the seat (:meth:`expire`)."""
        while True:
            await asyncio.sleep(self.settings.clock_sweep)
            try:
                late = await self.db(self.store.overdue, time.time())
            except Exception as exc:
                log.warning("the clocks could not be read: %s", exc)
                continue
            for game_id in late:
                try:
                    await self.expire(game_id)
                except NotFound:
                    pass
                except Exception:
                    log.exception("game %s: the seat out of time could not be handed over", game_id)

    # -- presence ------------------------------------------------------------------------------
    def arrived(self, game: LiveGame, viewer: Viewer) -> None:
        """A connection of seats opened: everyone sees them connected."""
        self._presence(game, viewer)

    def left(self, game: LiveGame, viewer: Viewer) -> None:
        """A connection closed: the seats it held were last seen now (stored); the last one
        gone, the game forgets its viewers' payloads (:meth:`LiveGame.unwatched`)."""
        self._presence(game, viewer)
        if not game.viewers:
            game.unwatched()

    def _presence(self, game: LiveGame, viewer: Viewer) -> None:
        if not viewer.seats:
            return
        now = time.time()
        for p in viewer.seats:
            game.seen[p] = now
        game.presence_changed()
        self._spawn(self._tell_presence(game, viewer.seats, now))

    async def _tell_presence(self, game: LiveGame, seats: Sequence[int], now: float) -> None:
        try:
            await self.db(self.store.seen, game.id, list(seats), now)
            if self.cluster.shared:
                await self._announce(game)
        except Exception as exc:
            log.warning("game %s: presence not stored: %s", game.id, exc)

    async def _announce(self, *games: LiveGame) -> None:
        """Tell the other processes which seats are connected to these games here (one
        notification a game, one statement)."""
        payloads = []
        for game in games:
            here = sorted({p for v in game.viewers if v.seats for p in v.seats})
            payloads.append(f"{game.id}:{os.getpid()}:{','.join(map(str, here))}")
        await self.db(self.store.notify, payloads)
        metrics.NOTIFY_SENT.inc(len(payloads))

    def presence(self, payload: str) -> None:
        """Another process said which seats of a game are connected through it
        (``ID:PID:SEATS``)."""
        parts = payload.split(":")
        if len(parts) != 3 or parts[1] == str(os.getpid()):
            return
        game = self.cache.get(parts[0])
        if game is None:
            return
        seats = frozenset(int(p) for p in parts[2].split(",") if p.isdigit())
        now = time.time()
        before = game.remote.get(parts[1], (frozenset(), 0.0))[0]
        for p in before | seats:
            game.seen[p] = now
        game.remote[parts[1]] = (seats, now)
        game.presence_changed()

    async def _repeat_presence(self) -> None:
        """Say again, every :data:`PRESENCE_AGAIN` seconds, who is connected here (a process
        that died stops saying it: its word goes stale)."""
        while True:
            await asyncio.sleep(PRESENCE_AGAIN)
            seated = [g for g in self.cache.values() if any(v.seats for v in g.viewers)]
            for start in range(0, len(seated), PRESENCE_BATCH):
                with contextlib.suppress(Exception):
                    await self._announce(*seated[start : start + PRESENCE_BATCH])

    async def resume(self) -> int:
        """Start the writer, the clocks' watch, and restart the bots of the unfinished games
        (after a restart or a crash): every such game when alone on the database, else those
        nobody drives (the cluster's sweep finds them)."""
        self.writer.start()
        self._spawn(self._watch_clocks())
        if self.cluster.shared:
            self._spawn(self._repeat_presence())
        if self.cluster.shared:
            await self.cluster.start(self)
            return 0
        ids = await self.db(self.store.unfinished)
        for gid in ids:
            try:
                game = await self.get(gid)
            except Exception:
                log.exception("game %s could not be resumed", gid)
                continue
            self.ensure_bots(game)
        return len(ids)

    async def close(self) -> None:
        await self.cluster.stop()  # the bots' locks go first: the other processes take over
        tasks = [g.bot_task for g in self.cache.values() if g.bot_task is not None]
        tasks += list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.writer.stop()
