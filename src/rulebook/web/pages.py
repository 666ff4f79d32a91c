"""The HTML pages: the home page with the games and the new-game form, the page listing a new
game's links, the game page (drawn by ``static/game.js`` from the API and the WebSocket), and
the game boards' files. The pages know no rules: they show what the API gives them."""

from __future__ import annotations

import re
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData

from rulebook.core import UnknownGame, get_game
from rulebook.web import api
from rulebook.web.boards import board_file, has_board
from rulebook.web.catalogue import catalogue, new_setup, seat_choices
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


@router.post("/new", response_class=HTMLResponse)
async def new_game(request: Request) -> HTMLResponse:
    form = await request.form()
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    try:
        setup, specs = new_setup(*_form_request(form))
        game, dealt = await api.create_for(request, setup, specs)
    except WebError as exc:
        return home_page(request, exc.status, error=str(exc), values=values)
    return created_page(request, api.links(game, dealt))


def created_page(request: Request, links: dict[str, Any]) -> HTMLResponse:
    base = str(request.base_url).rstrip("/")
    return render(request, "created.html", base=base, links=links)


@router.post("/upload", response_class=HTMLResponse)
async def upload_page(
    request: Request,
    file: Annotated[UploadFile, File()],
    seats: Annotated[str | None, Form(max_length=200)] = None,
) -> HTMLResponse:
    try:
        links = await api.upload(request, file, seats or None)
    except WebError as exc:
        return home_page(request, exc.status, upload_error=str(exc))
    return created_page(request, links)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    game = await api.games_of(request).get(game_id)
    setup = game.state.setup
    return render(
        request,
        "game.html",
        game_id=game.id,
        title=game.state.game.title,
        game_name=setup.game,
        board=has_board(setup.game),
        board_css=board_file(setup.game, "board.css") is not None,
    )


@router.get("/boards/{game_name}/{name}")
async def board(game_name: str, name: str) -> Response:
    found = board_file(game_name, name)
    if found is None:
        raise NotFound("no such board file")
    return Response(found[0], media_type=found[1], headers={"cache-control": "no-cache"})
