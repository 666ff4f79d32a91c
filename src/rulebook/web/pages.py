"""The HTML pages: the home page with the games and the new-game form, the page listing a new
game's links (reached by a redirect after the form's post: reloading it creates nothing), the
game page (drawn by ``static/game.js`` from the API and the WebSocket), each game's how-to-play
and card reference, and the game boards' files. The pages know no rules: they show what the API
and the games' data packages give them."""

from __future__ import annotations

import re
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError
from starlette.datastructures import FormData

from rulebook.core import UnknownGame, get_game
from rulebook.web import api, learn
from rulebook.web.boards import board_file, has_board
from rulebook.web.catalogue import catalogue, new_setup, seat_choices
from rulebook.web.clocks import Clock
from rulebook.web.errors import BadRequest, NotFound, WebError

router = APIRouter()
templates = Jinja2Templates(directory=str(resources.files("rulebook.web") / "templates"))
#: the largest seat count any form may ask for
MAX_SEATS = 16


def render(request: Request, name: str, code: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=code)


def error_page(request: Request, status: int, reason: str) -> HTMLResponse:
    return render(request, "error.html", status, status=status, reason=reason)


def home_page(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    """The home page; ``context`` (the form's values and the error, shown again after a
    refusal) also goes to the page's script as JSON, written with Jinja's ``tojson``: it
    escapes ``<``, ``>``, ``&`` and ``'``, so a value cannot end the script element."""
    return render(
        request,
        "home.html",
        status,
        games=catalogue(),
        data={"games": catalogue(), "seats": seat_choices(), **context},
        **context,
    )


def refused_home(request: Request, exc: WebError, **context: Any) -> HTMLResponse:
    """The home page again after a refused form, with its reason and the values sent; a
    refusal for load (503) or a client's share (429) says when to try again (``Retry-After``,
    and ``retry_after`` for the page's script, which counts it down)."""
    if exc.retry_after is None:
        return home_page(request, exc.status, **context)
    page = home_page(request, exc.status, retry_after=exc.retry_after, **context)
    page.headers["retry-after"] = str(exc.retry_after)
    return page


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return home_page(request)


def _form_request(form: FormData) -> tuple[str, str | None, int, dict[str, str], list[str]]:
    """The new-game form's fields: game, variant, players, the options of that variant and the
    seat kinds (:class:`BadRequest` naming the field that is wrong)."""
    game_name = str(form.get("game") or "")
    try:
        game = get_game(game_name)
    except UnknownGame:
        raise BadRequest(f"choose a game (not {game_name!r})") from None
    variant = str(form.get("variant") or "") or None
    raw_players = str(form.get("players") or "")
    if not re.fullmatch("[0-9]{1,2}", raw_players) or not 1 <= int(raw_players) <= MAX_SEATS:
        raise BadRequest(f"players must be a whole number from 1 to {MAX_SEATS}")
    players = int(raw_players)
    options = {}
    for o in game.options:
        value = form.get(f"option_{o.name}")
        if value is not None and (not o.variants or (variant or "") in o.variants):
            options[o.name] = str(value)
    seats = [str(form.get(f"seat_{p}") or "") for p in range(players)]
    return game_name, variant, players, options, seats


def _form_clock(form: FormData) -> Clock | None:
    """The form's clock (:class:`BadRequest` naming the field that is wrong)."""
    kind = str(form.get("clock") or "none")
    numbers = {}
    for name, scale in (("minutes", 60), ("increment", 1), ("hours", 3600), ("grace", 1)):
        raw = str(form.get(f"clock_{name}") or "0")
        if not re.fullmatch("[0-9]{1,6}", raw):
            raise BadRequest(f"clock_{name} must be a whole number")
        numbers[name] = int(raw) * scale
    body = {
        "kind": kind,
        "bank": numbers["minutes"],
        "increment": numbers["increment"],
        "per_move": numbers["hours"],
        "grace": numbers["grace"],
        "bot": str(form.get("clock_bot") or "greedy"),
    }
    if kind != "realtime":
        del body["bank"]
    if kind != "turn":
        del body["per_move"]
    try:
        return api.ClockBody.model_validate(body).clock()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise BadRequest(f"clock: {where}: {first['msg']}") from None


def _to_links_page(links: dict[str, Any]) -> RedirectResponse:
    """After a new game is made: to its links page (303: the browser GETs it, so a reload or
    a bookmark shows the links again and creates nothing)."""
    return RedirectResponse(links["links_page"], status_code=303)


@router.post("/new", response_class=HTMLResponse)
async def new_game(request: Request) -> Response:
    form = await request.form()
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    try:
        setup, specs = new_setup(*_form_request(form))
        game, dealt = await api.create_for(request, setup, specs, clock=_form_clock(form))
    except WebError as exc:
        return refused_home(request, exc, error=str(exc), values=values)
    return _to_links_page(api.links(game, dealt))


@router.get("/new", include_in_schema=False)
async def new_game_form() -> RedirectResponse:
    """The form's address opened by itself (a bookmark, another tab): the form."""
    return RedirectResponse("/#new-game", status_code=303)


@router.get("/upload", include_in_schema=False)
async def upload_form() -> RedirectResponse:
    return RedirectResponse("/#upload", status_code=303)


@router.post("/upload", response_class=HTMLResponse)
async def upload_page(
    request: Request,
    file: Annotated[UploadFile, File()],
    seats: Annotated[str | None, Form(max_length=200)] = None,
) -> Response:
    try:
        links = await api.upload(request, file, seats or None)
    except WebError as exc:
        return refused_home(request, exc, upload_error=str(exc))
    return _to_links_page(links)


@router.get("/games/{game_id}/links", response_class=HTMLResponse)
async def links_page(request: Request, game_id: str) -> HTMLResponse:
    """A game's links, for the person who created it: the page's script reads the key in the
    address's fragment (never sent here) and asks the API for the links with it."""
    game = await _game_or_missing(request, game_id)
    base = str(request.base_url).rstrip("/")
    return render(request, "links.html", game_id=game.id, title=game.state.game.title, base=base)


async def _game_or_missing(request: Request, game_id: str) -> Any:
    try:
        return await api.games_of(request).get(game_id)
    except NotFound:
        raise NotFound(
            "no game has this address. If someone sent you a link, it may have been cut off: "
            "ask them for the whole link (copy it with the page's Copy button)"
        ) from None


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    game = await _game_or_missing(request, game_id)
    setup = game.state.setup
    found = get_game(setup.game)
    return render(
        request,
        "game.html",
        game_id=game.id,
        title=found.title,
        game_name=setup.game,
        board=has_board(setup.game),
        board_css=board_file(setup.game, "board.css") is not None,
        rules=learn.rules(setup.game),
        jumps=learn.jump_ids(setup),
        cards_url=_cards_url(setup.game, learn.set_for(setup)) if found.cards else None,
        guide=learn.guide_steps(setup),
    )


def _cards_url(game_name: str, key: str) -> str:
    return f"/cards/{game_name}" + (f"?set={key}" if key and key != "all" else "")


def _game_named(name: str) -> Any:
    try:
        return get_game(name)
    except UnknownGame:
        raise NotFound(f"no game called {name!r}") from None


@router.get("/rules/{game_name}", response_class=HTMLResponse)
async def rules_page(request: Request, game_name: str) -> HTMLResponse:
    """How to play a game: its ``rules.md`` (as ``rulebook rules GAME`` shows it)."""
    game = _game_named(game_name)
    found = learn.rules(game.name)
    if found is None:
        raise NotFound(f"no how-to-play is written for {game.title} yet")
    cards = _cards_url(game.name, "") if game.cards else None
    return render(request, "rules.html", game=game, rules=found, cards_url=cards)


@router.get("/cards/{game_name}", response_class=HTMLResponse)
async def cards_page(
    request: Request,
    game_name: str,
    wanted: Annotated[str | None, Query(alias="set", max_length=64)] = None,
) -> HTMLResponse:
    """Every card of a game (``Game.cards``), with a filter box; ``?set=`` chooses the
    variant and player count where they change the cards."""
    game = _game_named(game_name)
    chosen = learn.card_set(game.name, wanted)
    if chosen is None:
        raise NotFound(f"{game.title} has no named cards")
    return render(
        request,
        "cards.html",
        game=game,
        chosen=chosen,
        sets=learn.card_sets(game.name),
        rules_url=f"/rules/{game.name}" if learn.rules(game.name) else None,
    )


@router.get("/boards/{game_name}/{name}")
async def board(game_name: str, name: str) -> Response:
    found = board_file(game_name, name)
    if found is None:
        raise NotFound("no such board file")
    return Response(found[0], media_type=found[1], headers={"cache-control": "no-cache"})
