"""The games being played: each an in-memory state (a cache rebuilt from the stored log by
replay), its connected viewers, and its bots. Every move is committed to the store before the
state in memory changes, so whatever a viewer was shown or told is on disk.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread

from rulebook.core import IllegalAction, Setup, get_game
from rulebook.web import seats as seat_kinds
from rulebook.web.bots import BotRunner
from rulebook.web.errors import Conflict, Forbidden, NotFound
from rulebook.web.settings import Settings
from rulebook.web.store import Store, Stored, digest
from rulebook.web.undo import reveals_nothing
from rulebook.web.views import Entry, entry, to_text, version, view
from rulebook.web.worker import WorkerLost
from rulebook.web.writer import Writer

log = logging.getLogger("rulebook.web")

#: token length in bytes: 192 bits, well above the 128 the links need
TOKEN_BYTES = 24
#: tries of a bot move that fails for a reason other than the game moving on
BOT_RETRIES = 3


def seat_groups(seats: Sequence[str]) -> list[tuple[int, ...]]:
    """The seats each link of a game admits, in the order they are dealt: one link per human
    seat, then one for them all when there are several (hot-seat)."""
    humans = tuple(p for p, s in enumerate(seats) if s == seat_kinds.HUMAN)
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


@dataclass(eq=False)
class Viewer:
    """One open connection to a game: the seats its token admits (None: a spectator)."""

    seats: tuple[int, ...] | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: one message at a time on the socket (updates and replies come from two tasks)
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the last payload sent for each viewpoint (a seat, or None), as JSON text
    sent: dict[int | None, str] = field(default_factory=dict)

    @property
    def viewpoints(self) -> tuple[int | None, ...]:
        return (None,) if self.seats is None else self.seats


class LiveGame:
    """One game in memory. Changed only under :attr:`lock`, and only once the store has the
    change."""

    def __init__(self, stored: Stored) -> None:
        self.id = stored.id
        self.seats = list(stored.seats)
        self.labels = [seat_kinds.label(s) for s in self.seats]
        self.lock = asyncio.Lock()
        self.viewers: set[Viewer] = set()
        self.bot_task: asyncio.Task[None] | None = None
        #: the digests of this game's tokens known in memory (forgotten with the game)
        self.token_digests: set[str] = set()
        #: bumped by every undo: a bot's move chosen before it is thrown away
        self.epoch = 0
        #: whether the last move may be undone: None while a worker checks
        self.undo_ok: bool | None = False
        #: bumped by every change of the state (a move, an undo)
        self.revision = 0
        #: each viewpoint's WebSocket message, built once per change and shared by every
        #: connection of that seat (or every spectator): (revision, can_undo), text
        self._messages: dict[int | None, tuple[tuple[int, bool], str]] = {}
        #: each viewpoint's payload (with ``can_undo`` false) at a revision
        self._payloads: dict[int | None, tuple[int, dict[str, Any]]] = {}
        self._rebuild(stored.setup, stored.log)

    def _rebuild(self, setup: Setup, moves: Sequence[tuple[int, str]]) -> None:
        """Replay the log from the setup, telling each move as it was made."""
        state = get_game(setup.game).create(setup)
        told: list[Entry] = []
        before = state
        for i, (seat, text) in enumerate(moves):
            action = state.parse_action(seat, text)
            told.append(entry(state, seat, action))
            if i == len(moves) - 1:
                before = state.clone()
            state.apply(seat, action)
        self.state = state
        self.log = told
        self.revision += 1
        last = told[-1] if told else None
        self.undo_ok = (
            last is not None
            and self.human(last.seat)
            and reveals_nothing(before, last.seat, last.move, state)
        )

    def human(self, seat: int) -> bool:
        return self.seats[seat] == seat_kinds.HUMAN

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back the last move: its own, by a person, revealing
        nothing, and the game not over."""
        return (
            bool(self.log)
            and self.log[-1].seat == seat
            and self.undo_ok is True
            and not self.state.is_terminal()
        )

    def payload(self, viewer: int | None) -> dict[str, Any]:
        """``viewer``'s payload (a new dict: the caller may add to it). Built once per change
        of the game; the undo button turning on or off changes only ``can_undo``."""
        known = self._payloads.get(viewer)
        if known is None or known[0] != self.revision:
            known = (self.revision, view(self.state, viewer, self.log, self.labels))
            self._payloads[viewer] = known
        return {**known[1], "can_undo": viewer is not None and self.can_undo(viewer)}

    def message(self, viewer: int | None) -> str:
        """The WebSocket message carrying ``viewer``'s payload, as JSON text: built once per
        change of the game (or of the viewer's undo button) however many connections show it."""
        key = (self.revision, viewer is not None and self.can_undo(viewer))
        known = self._messages.get(viewer)
        if known is not None and known[0] == key:
            return known[1]
        text = to_text({"type": "view", "view": self.payload(viewer)})
        self._messages[viewer] = (key, text)
        return text

    def version(self, viewer: int | None) -> int:
        """The ``version`` of ``viewer``'s payload (the moves it knows of)."""
        return version(self.state, viewer, self.log)

    def save_data(self) -> dict[str, Any]:
        return {
            "format": "rulebook/1",
            **self.state.setup.to_dict(),
            "log": [[e.seat, e.move] for e in self.log],
            "seats": list(self.seats),
        }

    def publish(self) -> None:
        """Tell every connected viewer that the game changed."""
        for v in self.viewers:
            v.wake.set()


class Games:
    """Every game the server knows: created, loaded on demand, moved, undone, bots run."""

    def __init__(self, store: Store, settings: Settings, runner: BotRunner) -> None:
        self.store = store
        self.settings = settings
        self.runner = runner
        self.writer = Writer(store, self.db)
        self.cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._tokens: dict[str, tuple[str, tuple[int, ...]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: the store takes one writer at a time on SQLite; PostgreSQL takes several
        self._db = anyio.CapacityLimiter(1 if store.sqlite else 4)

    async def db(self, fn: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._db)

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
                loaded = None if stored is None else LiveGame(stored)
                if loaded is not None:
                    self._keep(loaded)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise NotFound("no such game")
        return found

    def _keep(self, game: LiveGame) -> None:
        self.cache[game.id] = game
        excess = len(self.cache) - self.settings.cache_games
        for gid in list(self.cache):
            if excess <= 0:
                break
            old = self.cache[gid]
            if not old.viewers and old.bot_task is None and not old.lock.locked():
                del self.cache[gid]
                for key in old.token_digests:  # looked up again in the store when needed
                    self._tokens.pop(key, None)
                excess -= 1

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
            game.token_digests.add(key)
        if known[0] != game.id:
            raise Forbidden("wrong token for this game")
        return known[1]

    # -- creating ------------------------------------------------------------------------------
    async def create(
        self, setup: Setup, seats: Sequence[str], moves: Sequence[tuple[int, str]] = ()
    ) -> tuple[LiveGame, Dealt]:
        """Store a new game (with the moves of an uploaded save file) and deal its links:
        one token per human seat, one for them all when there are several (hot-seat), and
        the creator's key that deals them again (:meth:`links_of`)."""
        game_id = secrets.token_urlsafe(12)
        stored = Stored(game_id, setup, list(seats), list(moves))
        live = LiveGame(stored)  # replays: a bad log fails here, before anything is stored
        dealt = deal(game_id, seats, secrets.token_urlsafe(TOKEN_BYTES))
        tokens = [(digest(t), list(group)) for group, t in dealt.links]
        over = live.state.is_terminal()
        await self.writer.call(
            self.store.create,
            game_id,
            setup,
            list(seats),
            tokens,
            list(moves),
            over,
            digest(dealt.creator),
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

    # -- moving --------------------------------------------------------------------------------
    async def move(
        self, game: LiveGame, seat: int, text: str, version: int | None = None
    ) -> LiveGame:
        """Make a seat's move, stored before anyone is told (:class:`Conflict` if it cannot
        be made now; nothing changes then)."""
        async with game.lock:
            state = game.state
            if state.is_terminal():
                raise Conflict("the game is over")
            if version is not None:
                now = game.version(seat)
                if version != now:
                    raise Conflict(
                        f"the game has moved on since your page showed it (move {version}, "
                        f"now {now}); nothing was changed"
                    )
            if seat not in state.current_players():
                raise Conflict(f"it is not seat {seat}'s move now")
            await self._commit(game, seat, text)
        game.publish()
        self.ensure_bots(game)
        return game

    async def _commit(self, game: LiveGame, seat: int, text: str) -> None:
        """Apply a move to a copy, store it, then make the copy the game (under the lock)."""
        state = game.state
        new = state.clone()
        try:
            action = new.parse_action(seat, text)
            told = entry(state, seat, action)
            new.apply(seat, action)
        except IllegalAction as exc:
            raise Conflict(str(exc)) from None
        number = len(game.log)
        await self.writer.append(game.id, number, seat, told.move, new.is_terminal())
        game.state = new
        game.log.append(told)
        game.revision += 1
        game.undo_ok = False
        rolled = new.chance.draws != state.chance.draws
        if game.human(seat) and not new.is_terminal() and not rolled:
            game.undo_ok = None  # nothing rolled: a worker looks closer, off the event loop
            self._spawn(self._check_undo(game, number + 1, game.epoch))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _check_undo(self, game: LiveGame, length: int, epoch: int) -> None:
        """Whether the move that made the log ``length`` long may be undone (in a worker);
        tell the mover if it may."""
        try:
            revealed = await self.runner.reveals(game.id, game.save_data())
        except WorkerLost as lost:
            log.warning("undo check of game %s: %s; no undo this time", game.id, lost)
            revealed = True
        except Exception:
            log.exception("undo check of game %s failed", game.id)
            revealed = True
        if len(game.log) == length and game.epoch == epoch and game.undo_ok is None:
            game.undo_ok = not revealed
            if game.undo_ok:
                game.publish()

    async def undo(self, game: LiveGame, seat: int) -> LiveGame:
        """Take back ``seat``'s last move: the log loses its last row, the game is replayed."""
        async with game.lock:
            if not game.can_undo(seat):
                raise Conflict(
                    "nothing to undo: only your own last move, while no other seat has moved "
                    "and nothing hidden was revealed by it"
                )
            length = len(game.log) - 1
            await self.writer.call(self.store.truncate, game.id, length)
            game.epoch += 1
            game._rebuild(game.state.setup, [(e.seat, e.move) for e in game.log[:length]])
        game.publish()
        self.ensure_bots(game)
        return game

    # -- bots ----------------------------------------------------------------------------------
    def ensure_bots(self, game: LiveGame) -> None:
        """Start the game's bot loop if a bot is to move and none is running."""
        if game.bot_task is None and self._bot_to_move(game) is not None:
            game.bot_task = asyncio.get_running_loop().create_task(self._run_bots(game))

    @staticmethod
    def _bot_to_move(game: LiveGame) -> int | None:
        state = game.state
        if state.is_terminal():
            return None
        return next((p for p in state.current_players() if not game.human(p)), None)

    async def _run_bots(self, game: LiveGame) -> None:
        failures = 0
        try:
            while (seat := self._bot_to_move(game)) is not None:
                epoch = game.epoch
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                try:
                    text = await self.runner.choose(
                        game.id, game.save_data(), seat, game.seats[seat]
                    )
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
                stored = False
                async with game.lock:
                    if game.epoch != epoch or seat not in game.state.current_players():
                        continue  # the game changed under the bot: choose again
                    try:
                        await self._commit(game, seat, text)
                        stored = True
                        failures = 0
                    except Conflict:
                        continue
                    except Exception:  # the store failed: nothing changed; try again later
                        failures += 1
                        log.exception("bot move of game %s could not be stored", game.id)
                if not stored:
                    if failures >= BOT_RETRIES:
                        return
                    await asyncio.sleep(1.0)
                    continue
                game.publish()
        finally:
            game.bot_task = None

    async def resume(self) -> int:
        """Start the writer; load every unfinished game and restart its bots (after a restart
        or a crash)."""
        self.writer.start()
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
        tasks = [g.bot_task for g in self.cache.values() if g.bot_task is not None]
        tasks += list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.writer.stop()
