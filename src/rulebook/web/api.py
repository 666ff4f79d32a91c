"""The JSON API and the WebSocket of web games. Seats prove who they are with their link's
token in an ``Authorization: Bearer`` header (HTTP) or the first WebSocket message, never in a
URL, so no token reaches an access log. Every refusal is a 4xx with a one-line reason and
changes nothing.

    GET  /api/games                     the games on offer and the seat kinds
    POST /api/games                     new game: {game, variant, players, options, seats}
    POST /api/games/upload              new game from a save file (multipart: file, seats)
    GET  /api/games/{id}/links          the links again, for the creator's key (Bearer)
    GET  /api/games/{id}/view           the viewer's payload(s): a seat's, or the public one
    POST /api/games/{id}/move           {seat, move, version}: make a move
    POST /api/games/{id}/undo           {seat}: take back the seat's last move
    GET  /api/games/{id}/replay?step=N  the viewer's payload(s) after N moves of the log
    GET  /api/games/{id}/save           the save file, once the game is over
    POST /api/games/{id}/seat           {seat, bot}: hand the seat to a bot; bot null: take it back
    POST /api/games/{id}/vote           {seat, absent, bot}: vote to hand an absent seat to a bot
    GET  /api/open                      the open tables (games with seats anyone may take)
    POST /api/games/{id}/join           {seat}: take an open seat (its private link)
    POST /api/games/{id}/rematch        {shuffle}: the same game again, this link's seats' link
    WS   /ws/games/{id}                 live payloads: send {"token": T} or {"spectate": true};
                                        then moves ({"type": "move", ...}), pings
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, File, Form, Query, Request, UploadFile, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from rulebook.core import RulebookError, Setup, State, get_game, replay, save_contents
from rulebook.web import logs, metrics
from rulebook.web import seats as seat_kinds
from rulebook.web.boards import board_static
from rulebook.web.catalogue import catalogue, new_setup, seat_choices
from rulebook.web.clocks import Clock
from rulebook.web.crosssite import REFUSED, cross_site
from rulebook.web.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    TooLarge,
    TooMany,
    WebError,
)
from rulebook.web.limits import ClientLimits
from rulebook.web.live import TOKEN_BYTES, Dealt, Games, LiveGame, Viewer
from rulebook.web.overload import Load
from rulebook.web.settings import Settings
from rulebook.web.store import digest
from rulebook.web.views import Entry, view

log = logging.getLogger("rulebook.web")
router = APIRouter()


#: request bodies are read as they are typed: no ``"2"`` for 2, no ``true`` for 1
STRICT = ConfigDict(extra="forbid", strict=True)


#: the longest a clock may give (seconds): a bank, a move's time, a grace period
LONGEST = 30 * 86400


class ClockBody(BaseModel):
    """A game's clock (seconds): real time (``bank``, ``increment``, ``cap``) or turn-based
    (``per_move``); ``grace`` after a seat's time ran out, then ``bot`` takes the seat."""

    model_config = STRICT

    kind: Literal["none", "realtime", "turn"]
    bank: int = Field(default=300, ge=1, le=LONGEST)
    increment: int = Field(default=10, ge=0, le=LONGEST)
    cap: int = Field(default=0, ge=0, le=LONGEST)  #: 0: the bank
    per_move: int = Field(default=86400, ge=1, le=LONGEST)
    grace: int = Field(default=30, ge=0, le=LONGEST)
    bot: str = Field(default="greedy", max_length=32)

    def clock(self) -> Clock | None:
        if self.kind == "none":
            return None
        bot = bot_named(self.bot)
        if self.kind == "realtime":
            cap = max(self.cap, self.bank)
            return Clock("realtime", self.bank, self.increment, cap, grace=self.grace, bot=bot)
        return Clock("turn", per_move=self.per_move, grace=self.grace, bot=bot)


def bot_named(key: str) -> str:
    try:
        return seat_kinds.bot_spec(key)
    except RulebookError as exc:
        raise BadRequest(str(exc)) from None


class NewGame(BaseModel):
    model_config = STRICT

    game: str = Field(max_length=64)
    variant: str | None = Field(default=None, max_length=64)
    players: int = Field(ge=1, le=16)
    options: dict[str, Annotated[str, Field(max_length=200)]] = Field(default_factory=dict)
    seats: list[Annotated[str, Field(max_length=32)]] = Field(max_length=16)
    clock: ClockBody | None = None


class SeatBody(BaseModel):
    """Hand ``seat`` to ``bot`` (a bot's menu key), or take it back (``bot`` null)."""

    model_config = STRICT

    seat: int = Field(ge=0, le=15)
    bot: str | None = Field(max_length=32)


class VoteBody(BaseModel):
    model_config = STRICT

    seat: int = Field(ge=0, le=15)
    absent: int = Field(ge=0, le=15)
    bot: str = Field(default="greedy", max_length=32)


class JoinBody(BaseModel):
    model_config = STRICT

    seat: int = Field(ge=0, le=15)


class RematchBody(BaseModel):
    model_config = STRICT

    shuffle: bool = False


class MoveBody(BaseModel):
    model_config = STRICT

    seat: int = Field(ge=0, le=15)
    move: str = Field(min_length=1, max_length=200)
    version: int | None = Field(default=None, ge=0)


class UndoBody(BaseModel):
    model_config = STRICT

    seat: int = Field(ge=0, le=15)


class Hello(BaseModel):
    """The first WebSocket message: a seat's token, or a spectator (other fields ignored)."""

    model_config = ConfigDict(strict=True)

    token: str | None = None
    spectate: bool = False
    #: the client takes deltas after a whole payload (``{"type": "delta"}``)
    deltas: bool = False


class Ping(BaseModel):
    """``{"type": "ping"}``: answered ``{"type": "pong"}``."""

    type: Literal["ping"]


class SocketMove(BaseModel):
    """``{"type": "move", "id", "seat", "move", "version"}``: a move over the socket, as
    ``POST /api/games/{id}/move`` takes it; the answer carries the same ``id``."""

    model_config = STRICT

    type: Literal["move"]
    id: int | None = Field(default=None, ge=0, le=2**53)
    seat: int = Field(ge=0, le=15)
    move: str = Field(min_length=1, max_length=200)
    version: int | None = Field(default=None, ge=0)


def games_of(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def parse(request: Request, model: type[BaseModel]) -> Any:
    """The JSON body as ``model``; :class:`BadRequest` with the first problem otherwise."""
    raw = await request.body()
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "body"
        raise BadRequest(f"bad request: {where}: {first['msg']}") from None


def client_of(connection: HTTPConnection) -> str:
    """The client's address: what the per-client limits count by."""
    return connection.client.host if connection.client else "unknown"


async def create_for(
    request: Request,
    setup: Setup,
    specs: list[str],
    moves: Sequence[tuple[int, str]] = (),
    clock: Clock | None = None,
) -> tuple[LiveGame, Dealt]:
    """Create a game for the client of ``request``, within its games a minute
    (:class:`TooMany` beyond) and while the server has room (:class:`Busy` otherwise)."""
    load: Load = request.app.state.load
    load.admit("game")
    clients: ClientLimits = request.app.state.clients
    who = client_of(request)
    clients.check_new_game(who)
    created = await games_of(request).create(setup, specs, moves, clock)
    clients.game_created(who)
    return created


def links(game: LiveGame, dealt: Dealt) -> dict[str, Any]:
    """The links of a new game: each seat's private one, hot-seat, the spectators', and the
    links page (its key, in the fragment, deals these links again)."""
    page = f"/games/{game.id}"
    seat_links = []
    hotseat = None
    for group, token in dealt.links:
        if len(group) == 1:
            p = group[0]
            seat_links.append({"seat": p, "label": game.labels[p], "url": f"{page}#{token}"})
        else:
            hotseat = {"seats": list(group), "url": f"{page}#{token}"}
    return {
        "id": game.id,
        "title": game.state.game.title,
        "seats": seat_links,
        "open": [p for p, s in enumerate(game.seats) if s == seat_kinds.OPEN],
        "hotseat": hotseat,
        "spectator": page,
        "links_page": f"{page}/links#{dealt.creator}",
    }


@router.get("/api/games")
async def list_games() -> dict[str, Any]:
    return {"games": catalogue(), "seats": seat_choices()}


@router.post("/api/games", status_code=201)
async def create_game(request: Request) -> dict[str, Any]:
    body: NewGame = await parse(request, NewGame)
    setup, specs = new_setup(body.game, body.variant, body.players, body.options, body.seats)
    clock = None if body.clock is None else body.clock.clock()
    game, dealt = await create_for(request, setup, specs, clock=clock)
    return links(game, dealt)


#: the longest seed the store keeps (as text: a seed is any whole number)
MAX_SEED_TEXT = 64


def read_save(raw: bytes, seats: str | None) -> tuple[State, list[str]]:
    """The game of an uploaded save file, replayed, and who sits where (the form's seats, else
    the file's, else a person in seat 0 and greedy bots). The file is parsed once."""
    try:
        data = save_contents(raw)
        state = replay(data)
    except RulebookError as exc:
        said = str(exc).removeprefix("not a save file: ")
        raise BadRequest(f"not a usable save file: {said}") from None
    if len(str(state.setup.seed)) > MAX_SEED_TEXT:
        raise BadRequest(
            f"not a usable save file: its seed is longer than {MAX_SEED_TEXT} characters"
        )
    n = state.num_players
    if seats:
        specs = [seat_kinds.spec_of(s.strip()) for s in seats.split(",")]
    else:
        specs = [seat_kinds.check_spec(s) for s in data.get("seats") or []]
        specs = specs or ["human"] + ["greedy"] * (n - 1)
    if len(specs) != n:
        raise BadRequest(f"give one seat for each of the {n} players, not {len(specs)}")
    return state, specs


async def upload(request: Request, file: UploadFile, seats: str | None) -> dict[str, Any]:
    """Start a web game from a save file (size-limited; nothing is stored unless it replays)."""
    limit = request.app.state.settings.max_upload
    raw = await file.read(limit + 1)
    if len(raw) > limit:
        raise TooLarge(f"save file too large (limit {limit} bytes)")
    try:
        state, specs = read_save(raw, seats)
    except RulebookError as exc:
        raise BadRequest(str(exc)) from None
    moves = [(p, str(a)) for p, a in state.history]
    game, dealt = await create_for(request, state.setup, specs, moves)
    return links(game, dealt)


@router.post("/api/games/upload", status_code=201)
async def upload_game(
    request: Request,
    file: Annotated[UploadFile, File()],
    seats: Annotated[str | None, Form(max_length=200)] = None,
) -> dict[str, Any]:
    return await upload(request, file, seats)


@router.get("/api/games/{game_id}/links")
async def get_links(request: Request, game_id: str) -> dict[str, Any]:
    """The links of a game again, for the key its creator holds (``links_page``)."""
    games = games_of(request)
    game = await games.get(game_id)
    return links(game, await games.links_of(game, bearer(request)))


async def viewer_of(request: Request, game_id: str) -> tuple[LiveGame, tuple[int | None, ...]]:
    """The game and the viewpoints of the request: the token's seats, or the public one."""
    game = await games_of(request).fresh(game_id)
    token = bearer(request)
    if token is None:
        return game, (None,)
    return game, tuple(await games_of(request).seats_of(game, token))


def views_response(game: LiveGame, payloads: list[dict[str, Any]]) -> dict[str, Any]:
    static = board_static(game.state.setup)
    for p in payloads:
        p["static"] = static
    return {"views": payloads, "now": time.time()}


@router.get("/api/games/{game_id}/view")
async def get_view(request: Request, game_id: str) -> dict[str, Any]:
    game, viewpoints = await viewer_of(request, game_id)
    return views_response(game, [game.payload(v) for v in viewpoints])


async def seat_request(request: Request, game_id: str, seat: int) -> LiveGame:
    games = games_of(request)
    game = await games.get(game_id)
    admitted = await games.seats_of(game, bearer(request))
    if seat not in admitted:
        raise Forbidden(f"this link does not hold seat {seat + 1}")
    logs.seat_known(seat)
    return game


@router.post("/api/games/{game_id}/move")
async def make_move(request: Request, game_id: str) -> dict[str, Any]:
    request.app.state.load.admit("move")  # before any work: a refusal costs next to nothing
    body: MoveBody = await parse(request, MoveBody)
    game = await seat_request(request, game_id, body.seat)
    game = await games_of(request).move(game, body.seat, body.move, body.version)
    return {"ok": True, "version": game.version(body.seat)}


@router.post("/api/games/{game_id}/undo")
async def undo_move(request: Request, game_id: str) -> dict[str, Any]:
    request.app.state.load.admit("move")
    body: UndoBody = await parse(request, UndoBody)
    game = await seat_request(request, game_id, body.seat)
    game = await games_of(request).undo(game, body.seat)
    return {"ok": True, "version": game.version(body.seat)}


def replayed(game: LiveGame, step: int) -> tuple[State, list[Entry]]:
    """The game after its first ``step`` moves, with the log as it was told."""
    state = get_game(game.state.setup.game).create(game.state.setup)
    told = game.log[:step]
    for e in told:
        state.apply(e.seat, e.move)
    return state, told


@router.get("/api/games/{game_id}/replay")
async def get_replay(
    request: Request, game_id: str, step: Annotated[int, Query(ge=0, le=100_000)]
) -> dict[str, Any]:
    game, viewpoints = await viewer_of(request, game_id)
    # the moves everyone knows of: not those of a simultaneous phase still under way
    known = len(game.log) - game.state.pending_moves()
    if step > known:
        raise BadRequest(f"the game has {known} moves to replay; step must be 0-{known}")
    state, told = replayed(game, step)
    made = game.bot_moves(step)  # the moves bots made in people's seats, named in the log
    payloads = [view(state, v, told, game.labels, bots=made) for v in viewpoints]
    bots = game.table_view()["bots"]  # which seats bots played, from which move to which
    for p in payloads:
        p["bots"] = bots
        if p["result"] is not None:
            p["result"]["bots"] = bots
        p["legal"] = []
        p["replay"] = {"step": step, "moves": known}
    return views_response(game, payloads)


@router.get("/api/games/{game_id}/save")
async def download_save(request: Request, game_id: str) -> Response:
    game = await games_of(request).fresh(game_id)
    if not game.state.is_terminal():
        raise Forbidden(
            "the save file holds the seed (every future die and card): it is given once the "
            "game is over"
        )
    text = json.dumps(game.save_data(), indent=1) + "\n"
    name = f"{game.state.setup.game}-{game.id}.json"
    return Response(
        text,
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


# -- who plays the seats: bots, votes, open seats, rematch ---------------------------------------
@router.post("/api/games/{game_id}/seat")
async def seat_control(request: Request, game_id: str) -> dict[str, Any]:
    """``{seat, bot}``: a bot plays the seat from now on ("I have to go"); ``bot`` null: the
    seat's person plays it again (a bot took it: handed, voted, or the seat's time ran out)."""
    body: SeatBody = await parse(request, SeatBody)
    game = await seat_request(request, game_id, body.seat)
    games = games_of(request)
    if body.bot is None:
        game = await games.take_back(game, body.seat)
    else:
        game = await games.hand(game, body.seat, bot_named(body.bot))
    return {"ok": True, "held": game.payload(body.seat)["held"]}


@router.post("/api/games/{game_id}/vote")
async def vote_absent(request: Request, game_id: str) -> dict[str, Any]:
    """``{seat, absent, bot}``: ``seat`` votes to hand ``absent`` (away a while) to a bot."""
    body: VoteBody = await parse(request, VoteBody)
    game = await seat_request(request, game_id, body.seat)
    if body.absent >= len(game.seats):
        raise BadRequest(f"this game has no seat {body.absent + 1}")
    took = await games_of(request).vote(game, body.seat, body.absent, bot_named(body.bot))
    return {"ok": True, "handed": took}


@router.get("/api/open")
async def open_tables(request: Request) -> dict[str, Any]:
    """The open tables: games not over with seats anyone may take (newest first), each with
    what a spectator sees of its table: who plays the seats, whose move it is, who is here."""
    games = games_of(request)
    rows = await games.db(games.store.open_tables)
    tables = []
    for game_id, name, variant, _, clock_text in rows:
        clock = Clock.from_text(clock_text)
        try:
            game = await games.get(game_id)
        except NotFound:  # deleted since the list was read
            continue
        seats = game.seats  # as the game in memory has them: a seat taken since is not open
        if seat_kinds.OPEN not in seats or game.state.is_terminal():
            continue
        tables.append(
            {
                "id": game_id,
                "game": name,
                "title": get_game(name).title,
                "variant": variant,
                "clock": "none" if clock is None else clock.describe(),
                "seats": [seat_kinds.label(s) for s in seats],
                "kinds": [seat_kinds.kind(s) for s in seats],
                "open": [p for p, s in enumerate(seats) if s == seat_kinds.OPEN],
                "taken": sum(1 for s in seats if s != seat_kinds.OPEN),
                "created": game.created,
                "moves": len(game.log),
                "to_act": list(game.state.current_players()),
                "presence": game.presence(),
            }
        )
    return {"tables": tables, "now": time.time()}


@router.post("/api/games/{game_id}/join", status_code=201)
async def join_table(request: Request, game_id: str) -> dict[str, Any]:
    """``{seat}``: take an open seat; its private link (409 if someone took it first, or if
    it is a person's or a bot's seat)."""
    body: JoinBody = await parse(request, JoinBody)
    games = games_of(request)
    game = await games.fresh(game_id)
    if body.seat >= len(game.seats):
        raise BadRequest(f"this game has no seat {body.seat + 1}")
    token = await games.join(game, body.seat)
    return {"seat": body.seat, "url": f"/games/{game.id}#{token}"}


def rematch_token(token: str, new_id: str) -> str:
    """The token of a rematch's link, derived from the link of the finished game that asks:
    the same link asks again, the same new link (the server keeps only its digest)."""
    mac = hmac.new(token.encode(), f"rematch/{new_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode().rstrip("=")


@router.post("/api/games/{game_id}/rematch")
async def rematch(request: Request, game_id: str) -> dict[str, Any]:
    """``{shuffle}``: the same game again (seat kinds, clock), made by the first seat that
    asks; each seat's link then gets its own link to the new game, for the same seats (or
    the shuffled ones, when the first asked for a shuffle)."""
    body: RematchBody = await parse(request, RematchBody)
    games = games_of(request)
    game = await games.fresh(game_id)
    token = bearer(request)
    seats = await games.seats_of(game, token)
    assert token is not None
    if not game.state.is_terminal():
        raise Conflict("a rematch is offered once the game is over")
    found = await games.rematch_of(
        game, body.shuffle, lambda order: create_for(request, *_again(game, order))
    )
    order = found["order"]
    new_seats = [order[p] for p in seats]
    new_token = rematch_token(token, found["id"])
    await games.db(games.store.add_token, found["id"], digest(new_token), new_seats)
    return {"id": found["id"], "seats": new_seats, "url": f"/games/{found['id']}#{new_token}"}


def _again(game: LiveGame, order: list[int]) -> tuple[Setup, list[str], tuple[()], Clock | None]:
    """A new game like ``game``: its setup with a fresh seed, its seat kinds (seat ``p``'s
    kind in seat ``order[p]``) and its clock."""
    old = game.state.setup
    setup = get_game(old.game).setup(old.players, secrets.randbits(62), old.variant, old.options)
    kinds = [""] * len(game.seats)
    for p, kind in enumerate(game.seats):
        kinds[order[p]] = seat_kinds.HUMAN if kind in seat_kinds.PEOPLE else kind
    return setup, kinds, (), game.clock


# -- live updates --------------------------------------------------------------------------------
FIRST_MESSAGE = 'the first message must be {"token": ...} or {"spectate": true}, as text'


async def _hello(
    ws: WebSocket, games: Games, game: LiveGame, limit: int
) -> tuple[tuple[int, ...] | None, Hello]:
    """Read the first message: a seat token, or a spectator (None). Forbidden if the token is
    wrong; :class:`WebSocketDisconnect` if the client left (or its frame was refused) before
    it."""
    async with asyncio.timeout(30):
        message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    raw = message.get("text")
    if raw is None:  # a binary frame
        raise BadRequest(FIRST_MESSAGE)
    if len(raw) > limit:
        raise _too_large(limit)
    try:
        hello = Hello.model_validate_json(raw)
    except ValidationError:
        raise BadRequest(FIRST_MESSAGE) from None
    if hello.spectate:
        return None, hello
    return await games.seats_of(game, hello.token), hello


def _is_ping(text: str) -> bool:
    try:
        Ping.model_validate_json(text)
    except ValidationError:
        return False
    return True


async def _send(ws: WebSocket, text: str | None = None, close: int | None = None) -> None:
    """Send ``text``, or close with code ``close``: :class:`WebSocketDisconnect` if the socket
    is closed already, by the client or by the server itself after a frame it refused (Uvicorn
    then answers a send with a RuntimeError; Starlette, once a close was sent, too)."""
    try:
        if close is None:
            await ws.send_text(text or "")
        else:
            await ws.close(code=close)
    except RuntimeError:
        raise WebSocketDisconnect(1006) from None


async def _send_views(ws: WebSocket, game: LiveGame, viewer: Viewer) -> None:
    """Send each viewpoint's payload whenever the game changes (and it changed for them)."""
    try:
        await _send_loop(ws, game, viewer)
    except WebSocketDisconnect:
        pass  # the client left, or the socket was closed: the receiving side ends the connection
    except Exception:
        log.exception("live updates of game %s stopped", game.id)
        with contextlib.suppress(WebSocketDisconnect):
            async with viewer.sending:
                await _send(ws, close=1011)


async def _send_loop(ws: WebSocket, game: LiveGame, viewer: Viewer) -> None:
    """Each viewpoint's newest frame, once: its delta where the client takes deltas and was
    sent the frame the delta starts from, else the whole payload."""
    while True:
        await viewer.wake.wait()
        viewer.wake.clear()
        for point in viewer.viewpoints:
            frame = game.frame(point)
            last = viewer.sent.get(point)
            if last == frame.number:  # unchanged for this viewer: nothing is sent
                continue
            text = None
            if viewer.deltas and last is not None and frame.base == last:
                text = frame.delta()
                viewer.delta_sent = viewer.delta_sent or text is not None
            viewer.sent[point] = frame.number
            async with viewer.sending:
                await _send(ws, text or frame.full())
        moved = game.moved_at
        if moved is not None and moved[0] > viewer.timed:
            viewer.timed = moved[0]
            metrics.MOVE_TO_VIEWER.observe(time.perf_counter() - moved[1])


@router.websocket("/ws/games/{game_id}")
async def live(ws: WebSocket, game_id: str) -> None:
    """The live connection of a viewer. A client may leave at any moment, or its connection
    fail (a frame over the server's limit is answered 1009 by the server itself): Starlette
    then raises :class:`WebSocketDisconnect`, and the conversation ends without a word, the
    socket being closed already."""
    await ws.accept()
    clients: ClientLimits = ws.app.state.clients
    who = client_of(ws)
    try:
        clients.open_socket(who)
    except TooMany as exc:
        with contextlib.suppress(WebSocketDisconnect):
            await _refuse(ws, exc)
        return
    metrics.SOCKETS.inc()
    sockets: set[WebSocket] = ws.app.state.sockets
    sockets.add(ws)
    try:
        await _live(ws, game_id)
    except WebSocketDisconnect:
        pass
    finally:
        sockets.discard(ws)
        metrics.SOCKETS.dec()
        clients.close_socket(who)


async def _refuse(ws: WebSocket, exc: WebError) -> None:
    """Tell the client why, then close (code 4000 + the HTTP status; 1009 for a message over
    the size limit, as the WebSocket protocol has it)."""
    await _send(ws, json.dumps({"type": "error", "status": exc.status, "error": str(exc)}))
    await _send(ws, close=1009 if isinstance(exc, TooLarge) else 4000 + exc.status)


def _too_large(limit: int) -> TooLarge:
    return TooLarge(f"message too large (limit {limit} bytes); this connection is closed")


async def _live(ws: WebSocket, game_id: str) -> None:
    settings = ws.app.state.settings
    games: Games = ws.app.state.games
    try:
        game = await games.fresh(game_id)
        seats, hello = await _hello(ws, games, game, settings.max_ws_message)
    except (BadRequest, Forbidden, NotFound, TooLarge) as exc:
        await _refuse(ws, exc)
        return
    except TimeoutError:  # nothing said in time: the socket is open, and closed here
        await _send(ws, close=1008)
        return
    if seats is not None and len(seats) == 1:
        logs.seat_known(seats[0])
    said = {"type": "hello", "seats": seats, "now": time.time(), "takes": TAKES}
    await _send(ws, json.dumps(said))
    # the copy kept in memory, with no await before the viewer is added: a copy that left
    # memory during the hello would hear no change of the game
    game = await games.kept(game)
    viewer = Viewer(seats, timed=game.revision, deltas=hello.deltas)
    game.viewers.add(viewer)
    games.arrived(game, viewer)
    viewer.wake.set()
    sender = asyncio.create_task(_send_views(ws, game, viewer))
    conversation = Conversation(ws, games, game, viewer, settings, cross_site(ws.scope))
    try:
        await conversation.run()
    except WebSocketDisconnect:
        pass  # the client left, or the socket is closed (the sender's 1011 after a failure)
    finally:
        # told before any await: a connection cancelled as it closes (a client or a server
        # going away) would otherwise skip the rest of this block, and its seats stay "here"
        sender.cancel()
        game.viewers.discard(viewer)
        games.left(game, viewer)
        await asyncio.wait({sender})


#: what the socket takes after the hello (the hello's ``takes``)
TAKES = ["ping", "move", "full"]
#: the answer to a message the socket does not take
NOT_TAKEN = (
    'this socket takes {"type": "ping"}, {"type": "move", "seat", "move", "version", "id"} '
    'and {"type": "full"}'
)
#: seconds over which a connection's refused moves are counted (as the refused requests of a
#: client address are: ``--max-refusals`` a minute)
REFUSALS_WINDOW = 60.0


class Conversation:
    """What a client says on its socket after the hello: pings, moves (answered
    ``{"type": "moved", "id", "version"}`` or ``{"type": "error", "id", "status", "error"}``,
    with the checks of ``POST /api/games/{id}/move``: the process's room (503 with
    ``retry_after`` past it), the seat's token, a socket opened by another site's page refused,
    too many refusals a minute refused), and a request for the
    whole payload again (a client that lost track of the deltas)."""

    def __init__(
        self,
        ws: WebSocket,
        games: Games,
        game: LiveGame,
        viewer: Viewer,
        settings: Settings,
        foreign: bool,
    ) -> None:
        self.ws = ws
        self.games = games
        self.game = game
        self.viewer = viewer
        self.settings = settings
        #: the socket was opened by another site's page: it may watch, not move
        self.foreign = foreign
        self.garbage = 0
        self.refusals: list[float] = []

    async def run(self) -> None:
        """Until the client leaves or sends too much."""
        limit = self.settings.max_ws_message
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text") or ""
            if max(len(text), len(message.get("bytes") or b"")) > limit:
                async with self.viewer.sending:
                    await _refuse(self.ws, _too_large(limit))
                return
            data = _parsed(text)
            kind = data.get("type")
            if kind == "move":
                reply = await self.move(text, data)
            elif kind == "full" and self.viewer.delta_sent:
                # a client that lost track of the deltas: each viewpoint's whole payload again
                # (asked again before another delta, it counts as garbage: no whole payloads
                # on demand without end)
                self.viewer.delta_sent = False
                self.viewer.sent.clear()
                self.viewer.wake.set()
                continue
            elif kind == "ping" and _is_ping(text):
                reply = '{"type":"pong"}'
            else:
                self.garbage += 1
                if self.garbage > self.settings.max_ws_garbage:
                    async with self.viewer.sending:
                        await _send(self.ws, close=1008)
                    return
                reply = json.dumps({"type": "error", "status": 400, "error": NOT_TAKEN})
            async with self.viewer.sending:
                await _send(self.ws, reply)

    async def move(self, text: str, data: dict[str, Any]) -> str:
        """Make the move ``text`` (parsed: ``data``) asks for: the answer to send."""
        started = time.perf_counter()
        number = data.get("id")
        if type(number) is not int or not 0 <= number <= 2**53:
            number = None
        try:
            status = 200
            reply = await self._move(text, number)
        except WebError as exc:
            status = exc.status
            if status < 500:
                self.refusals.append(time.monotonic())
            reply = {"type": "error", "id": number, "status": status, "error": str(exc)}
            if exc.retry_after is not None:  # too many refusals (429), no room now (503)
                reply["retry_after"] = exc.retry_after
        except Exception:
            status = 500
            log.exception("move over the socket of game %s failed", self.game.id)
            reply = {"type": "error", "id": number, "status": 500, "error": "internal server error"}
        metrics.labelled(metrics.REQUESTS, "WS", SOCKET_MOVE, str(status)).observe(
            time.perf_counter() - started
        )
        return json.dumps(reply)

    async def _move(self, text: str, number: int | None) -> dict[str, Any]:
        self.ws.app.state.load.admit("move")  # as POST .../move: 503 past the process's room
        now = time.monotonic()
        self.refusals = [t for t in self.refusals if now - t < REFUSALS_WINDOW]
        if len(self.refusals) >= self.settings.max_refusals > 0:
            raise TooMany("too many refused requests; try again later", int(REFUSALS_WINDOW))
        try:
            body = SocketMove.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "body"
            raise BadRequest(f"bad request: {where}: {first['msg']}") from None
        if self.foreign:
            raise Forbidden(REFUSED)
        seats = self.viewer.seats
        if seats is None:
            raise Forbidden("a spectator's connection makes no moves (it has no seat's link)")
        if body.seat not in seats:
            raise Forbidden(f"this link does not hold seat {body.seat + 1}")
        logs.seat_known(body.seat)
        game = await self.games.move(self.game, body.seat, body.move, body.version)
        return {"type": "moved", "id": number, "version": game.version(body.seat)}


#: the route a move over the socket is counted under (:data:`metrics.REQUESTS`)
SOCKET_MOVE = "/ws/games/{game_id} move"


def _parsed(text: str) -> dict[str, Any]:
    """A message as a JSON object (empty if it is none)."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def error_json(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)
