"""The whole HTTP surface fuzzed (issue 22): Hypothesis draws requests for every route of the
app (the routes of its OpenAPI schema, its own routes, the static files and the WebSocket with
its first message and later ones): right ones, right ones with a field changed, and junk, from
this site and from others. None may get a 500 or log an error or a traceback, and the app
answers as before afterwards.

The app runs in the test's process: FastAPI's TestClient raises whatever the app does not
handle, so a crash fails the test with its traceback (``test_web_hostile.py`` sends the issue's
inputs to a real server). The requests play real games: a move may be a legal one, sent with
the token of the seat to move; the bots wait an hour before each move, so no time goes to their
search. ``FUZZ_EXAMPLES`` sets the number of requests (default 400: about 15 s)."""

from __future__ import annotations

import json
import logging
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount
from starlette.websockets import WebSocketDisconnect

import rulebook
from rulebook.web import Settings, api, create_app, pages
from rulebook.web.catalogue import catalogue
from rulebook.web.seats import BY_KEY
from webtools import auth, seat_tokens

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))
pytestmark = [
    pytest.mark.xdist_group("web-fuzz"),  # one worker runs the module: one app is built
    pytest.mark.filterwarnings("ignore:Generating overly large repr"),  # 5 KB frames
]

# -- placeholders, made real when a request is sent ----------------------------------------------
GAME = "<game>"  # the id of one of the fuzz's games (the token's game when a token is sent)
SEAT = "<seat>"  # a seat the token holds
LEGAL = "<legal>"  # a legal move of that seat now
VERSION = "<version>"  # the seat's version now
TOKEN = "<token>"  # the token itself (in a WebSocket hello)
WHATIF = "<whatif>"  # the id of the fuzz's lab what-if
RUN = "<run>"  # the id of the fuzz's lab run (queued for ever: the fuzz's lab plays none)


@dataclass(frozen=True)
class Raw:
    """Text sent as it is, not JSON-encoded (a body, or a field's value within one)."""

    text: str


def encode(body: Any) -> str:
    """A body as JSON text, its :class:`Raw` parts as they are."""
    raws: list[str] = []

    def mark(value: Any) -> str:
        if not isinstance(value, Raw):
            raise TypeError(value)
        raws.append(value.text)
        return f"<raw {len(raws) - 1}>"

    text = json.dumps(body, default=mark)
    for i, raw in enumerate(raws):
        text = text.replace(f'"<raw {i}>"', raw, 1)
    return text


# -- what requests are made of -------------------------------------------------------------------
printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
words = st.text(st.characters(codec="utf-8"), max_size=40)  # any text that can be sent
odd_json = st.sampled_from(
    [
        "[" * 5000 + "]" * 5000,
        '{"a":' * 3000 + "1" + "}" * 3000,
        '"\\ud800"',
        '{"game": "\\udfff"}',
        "NaN",
        "-Infinity",
        "1" + "0" * 5000,
        "1e99999",
        '{"a": 1, "a": 2}',
        "{",
        "",
        "null",
        "\ufeff{}",
    ]
).map(Raw)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | words,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(words, inner, max_size=4),
    max_leaves=12,
)
junk = json_values | odd_json
DROP = object()  # a field left out


def changed(bodies: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A right body with one field replaced by junk, left out, or one field added."""

    def change(body: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
        out = {k: v for k, v in body.items() if k != key}
        return out if value is DROP else {**out, key: value}

    return bodies.flatmap(
        lambda body: st.builds(
            change, st.just(body), st.sampled_from([*body, "extra"]), junk | st.just(DROP)
        )
    )


def bodies(right: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[Any]:
    """Right bodies half the time, changed ones a quarter, junk the rest."""
    return st.one_of(right, right, changed(right), junk)


GAMES = {g["name"]: g for g in catalogue()}


@st.composite
def new_games(draw: st.DrawFn) -> dict[str, Any]:
    """A new game's body as the home page's form would make it."""
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    variant = draw(st.sampled_from(game["variants"]))
    players = draw(st.integers(variant["min_players"], variant["max_players"]))
    options = {
        o["name"]: draw(st.sampled_from(o["choices"] or [o["default"]]))
        for o in game["options"]
        if not o["variants"] or variant["name"] in o["variants"]
    }
    kinds = st.sampled_from(["human", "human", "random", "greedy", "open"])
    seats = draw(st.lists(kinds, min_size=1, max_size=4))
    seats = (seats * players)[:players]
    body = {
        "game": game["name"],
        "variant": variant["name"],
        "players": players,
        "options": options,
        "seats": seats,
    }
    clock = draw(st.none() | clocks)
    return body if clock is None else {**body, "clock": clock}


bots = st.sampled_from(["greedy", "random", "mcts-quick", "wizard"])
clocks = st.fixed_dictionaries(
    {"kind": st.sampled_from(["none", "realtime", "turn"])},
    optional={
        "bank": st.integers(0, 10**6),
        "increment": st.integers(0, 600),
        "cap": st.integers(0, 10**6),
        "per_move": st.integers(0, 10**6),
        "grace": st.integers(0, 10**6),
        "bot": bots,
    },
)


moves = st.fixed_dictionaries(
    {"seat": st.just(SEAT), "move": st.just(LEGAL)}, optional={"version": st.just(VERSION)}
)
undos = st.just({"seat": SEAT})
seat_changes = st.fixed_dictionaries({"seat": st.just(SEAT), "bot": st.none() | bots})
votes = st.fixed_dictionaries(
    {"seat": st.just(SEAT), "absent": st.integers(0, 3)}, optional={"bot": bots}
)
joins = st.fixed_dictionaries({"seat": st.integers(0, 3)})
rematches = st.fixed_dictionaries({}, optional={"shuffle": st.booleans()})


def save_files() -> st.SearchStrategy[bytes]:
    """Save files: a real one (maybe with a field changed), JSON junk, bytes."""
    state = rulebook.new_game("archmagi", 2, seed=3)
    for _ in range(4):
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    real = json.loads(rulebook.save_text(state, ["human", "greedy"]))
    return bodies(st.just(real)).map(lambda b: encode(b).encode()) | st.binary(max_size=200)


#: headers a browser or a stranger may send: where from, what is wanted, the body's type
origins = st.sampled_from(
    [
        {},
        {},
        {},
        {"sec-fetch-site": "same-origin"},
        {"sec-fetch-site": "none"},
        {"origin": "http://testserver"},
        {"sec-fetch-site": "cross-site"},
        {"origin": "https://evil.example"},
        {"origin": "null"},
    ]
) | st.dictionaries(st.sampled_from(["origin", "sec-fetch-site"]), printable, max_size=2)
extra_headers = st.dictionaries(
    st.sampled_from(["accept", "content-type", "authorization", "host", "cookie"]),
    st.sampled_from(["text/html", "application/json", "*/*", "Bearer x", "multipart/form-data"])
    | printable,
    max_size=2,
)


@dataclass
class Call:
    """One drawn request: HTTP (method, path, options) or a WebSocket conversation."""

    route: str
    method: str
    path: str
    options: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    frames: list[Any] = field(default_factory=list)
    #: which of the fuzz's seat tokens is sent (as bearer or in the hello); None: none
    token: int | None = None


tokens = st.one_of(st.none(), st.integers(0, 9), st.integers(0, 9))


def http(route: str, method: str, path: Any, **options: Any) -> st.SearchStrategy[Call]:
    """A request to ``route``: its path, options, where it claims to come from, a token."""
    return st.builds(
        lambda p, o, h, x, t: Call(route, method, p, o, {**h, **x}, token=t),
        path,
        st.fixed_dictionaries(options),
        origins,
        extra_headers,
        tokens,
    )


def segment(s: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A path segment: any text, quoted (the game placeholder as it is)."""
    return s.map(lambda text: text if text == GAME else quote(text, safe=""))


gid = segment(st.sampled_from([GAME, GAME, GAME, "nosuchgame", "x" * 65, "..", "%00"]) | printable)
forms = st.one_of(
    new_games().map(
        lambda b: {
            "game": b["game"],
            "variant": b["variant"],
            "players": str(b["players"]),
            **{f"option_{k}": v for k, v in b["options"].items()},
            **{f"seat_{i}": s for i, s in enumerate(b["seats"])},
        }
    ),
    st.dictionaries(
        st.sampled_from(["game", "variant", "players", "option_magi", "option_level"])
        | st.integers(0, 20).map(lambda n: f"seat_{n}")
        | printable,
        st.sampled_from([*GAMES, "2", "human", "greedy", "²", "9" * 50]) | words,
        max_size=8,
    ),
)
upload = {
    "files": save_files().map(lambda b: {"file": ("save.json", b)}),
    "data": st.dictionaries(
        st.just("seats"),
        st.lists(st.sampled_from(list(BY_KEY)) | printable, max_size=4).map(",".join),
    ),
}
later_frames = st.one_of(
    st.just('{"type":"ping"}'),
    junk,
    words,
    st.binary(max_size=64),
    st.integers(4000, 6000).map(lambda n: "x" * n),
)
hellos = st.one_of(
    st.just({"spectate": True}),
    st.just({"token": TOKEN}),
    st.just({"token": TOKEN}),
    junk,
    words,
    st.binary(max_size=64),
    st.integers(4000, 6000).map(lambda n: {"spectate": True, "pad": "x" * n}),
)


# -- the balance lab -----------------------------------------------------------------------------
WARRIOR = json.dumps(
    ["adventurers.toml", "adventurers", "The Warrior", "coins"], separators=(",", ":")
)
lab_games = st.sampled_from([*sorted(GAMES), "nosuchgame"])
whatifs = st.fixed_dictionaries(
    {
        "game": st.just("merchants-of-magick"),
        "name": words,
        "values": st.dictionaries(
            st.just(WARRIOR) | printable, st.sampled_from(["13", "15", "-4", "x", ""]), max_size=2
        ),
    }
)
runs = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["simulate", "compare", "tune"]),
        "game": lab_games,
        "players": st.integers(1, 5),
        "games": st.integers(1, 20),
    },
    optional={
        "seats": st.lists(st.sampled_from(["greedy", "random", "mcts:50", "wizard"]), max_size=4),
        "rungs": st.lists(st.sampled_from(["greedy", "mcts:200-greedy", "x"]), max_size=2),
        "seed": st.integers(0, 2**60),
        "whatif": st.just(WHATIF) | printable,
        "title": words,
        "knobs": st.lists(
            st.fixed_dictionaries(
                {"key": st.just(WARRIOR) | printable},
                optional={"low": st.integers(-5, 20), "high": st.integers(-5, 30)},
            ),
            max_size=2,
        ),
        "target": words,
        "minutes": st.floats(0, 2000),
    },
)
whatif_id = segment(st.sampled_from([WHATIF, WHATIF, "nosuch", "..", "%00"]) | printable)
run_id = segment(st.sampled_from([RUN, RUN, "nosuch", "..", "%00"]) | printable)
run_files = st.sampled_from(
    ["report.html", "../../games.sqlite3", "shipped/x.parquet", "plots/a.png", "a.toml"]
) | printable.map(lambda p: quote(p, safe="/"))
LAB_STRATEGIES: dict[tuple[str, str], st.SearchStrategy[Call]] = {
    ("GET", "/lab"): http("lab", "GET", st.just("/lab")),
    ("POST", "/lab/key"): http(
        "lab key", "POST", st.just("/lab/key"), data=st.dictionaries(st.just("key"), words)
    ),
    ("GET", "/lab/data/{game}"): http(
        "lab data page", "GET", segment(lab_games | printable).map(lambda g: f"/lab/data/{g}")
    ),
    ("GET", "/api/lab/data/{game}"): http(
        "lab data", "GET", segment(lab_games | printable).map(lambda g: f"/api/lab/data/{g}")
    ),
    ("POST", "/api/lab/whatifs"): http(
        "new what-if", "POST", st.just("/api/lab/whatifs"), json=bodies(whatifs)
    ),
    ("POST", "/api/lab/whatifs/preview"): http(
        "what-if preview", "POST", st.just("/api/lab/whatifs/preview"), json=bodies(whatifs)
    ),
    ("GET", "/api/lab/whatifs"): http(
        "what-ifs",
        "GET",
        st.just("/api/lab/whatifs"),
        params=st.dictionaries(st.just("game") | printable, lab_games | printable, max_size=2),
    ),
    ("GET", "/api/lab/whatifs/{whatif_id}"): http(
        "what-if", "GET", whatif_id.map(lambda w: f"/api/lab/whatifs/{w}")
    ),
    ("GET", "/lab/whatifs/{whatif_id}"): http(
        "what-if page", "GET", whatif_id.map(lambda w: f"/lab/whatifs/{w}")
    ),
    ("GET", "/lab/whatifs/{whatif_id}.toml"): http(
        "what-if toml", "GET", whatif_id.map(lambda w: f"/lab/whatifs/{w}.toml")
    ),
    ("POST", "/api/lab/runs"): http("new run", "POST", st.just("/api/lab/runs"), json=bodies(runs)),
    ("POST", "/api/lab/estimate"): http(
        "estimate", "POST", st.just("/api/lab/estimate"), json=bodies(runs)
    ),
    ("GET", "/api/lab/runs"): http("runs", "GET", st.just("/api/lab/runs")),
    ("GET", "/api/lab/runs/{run_id}"): http(
        "run", "GET", run_id.map(lambda r: f"/api/lab/runs/{r}")
    ),
    ("GET", "/lab/runs/{run_id}"): http("run page", "GET", run_id.map(lambda r: f"/lab/runs/{r}")),
    ("POST", "/api/lab/runs/{run_id}/cancel"): http(
        "cancel", "POST", run_id.map(lambda r: f"/api/lab/runs/{r}/cancel")
    ),
    ("POST", "/api/lab/runs/{run_id}/resume"): http(
        "resume", "POST", run_id.map(lambda r: f"/api/lab/runs/{r}/resume")
    ),
    ("GET", "/lab/runs/{run_id}/plots/{name}.png"): http(
        "plot",
        "GET",
        st.tuples(run_id, segment(st.sampled_from(["rates", "..", "x"]) | printable)).map(
            lambda t: f"/lab/runs/{t[0]}/plots/{t[1]}.png"
        ),
    ),
    ("GET", "/lab/runs/{run_id}/files/{name}"): http(
        "run file",
        "GET",
        st.tuples(run_id, run_files).map(lambda t: f"/lab/runs/{t[0]}/files/{t[1]}"),
    ),
}


def game_post(name: str, body: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[Call]:
    """A post to one of a game's routes (``/api/games/ID/NAME``) with ``body`` or junk."""
    return http(name, "POST", gid.map(lambda g: f"/api/games/{g}/{name}"), json=bodies(body))


#: a strategy for every route of the app, by (method, path) as the app declares them
STRATEGIES: dict[tuple[str, str], st.SearchStrategy[Call]] = {
    ("GET", "/api/games"): http("/api/games", "GET", st.just("/api/games")),
    ("POST", "/api/games"): http(
        "/api/games", "POST", st.just("/api/games"), json=bodies(new_games())
    ),
    ("POST", "/api/games/upload"): http(
        "/api/games/upload", "POST", st.just("/api/games/upload"), **upload
    ),
    ("GET", "/api/games/{game_id}/view"): http(
        "view", "GET", gid.map(lambda g: f"/api/games/{g}/view")
    ),
    ("POST", "/api/games/{game_id}/move"): game_post("move", moves),
    ("POST", "/api/games/{game_id}/undo"): game_post("undo", undos),
    ("GET", "/api/games/{game_id}/replay"): http(
        "replay",
        "GET",
        gid.map(lambda g: f"/api/games/{g}/replay"),
        params=st.one_of(
            st.integers(0, 30).map(lambda n: {"step": str(n)}),
            st.dictionaries(st.just("step") | printable, printable, max_size=2),
        ),
    ),
    ("GET", "/api/games/{game_id}/save"): http(
        "save", "GET", gid.map(lambda g: f"/api/games/{g}/save")
    ),
    ("POST", "/api/games/{game_id}/seat"): game_post("seat", seat_changes),
    ("POST", "/api/games/{game_id}/vote"): game_post("vote", votes),
    ("POST", "/api/games/{game_id}/join"): game_post("join", joins),
    ("POST", "/api/games/{game_id}/rematch"): game_post("rematch", rematches),
    ("GET", "/api/open"): http("open", "GET", st.just("/api/open")),
    ("GET", "/"): http("/", "GET", st.just("/")),
    ("POST", "/new"): http("/new", "POST", st.just("/new"), data=forms),
    ("POST", "/upload"): http("/upload", "POST", st.just("/upload"), **upload),
    ("GET", "/games/{game_id}"): http("game page", "GET", gid.map(lambda g: f"/games/{g}")),
    ("GET", "/boards/{game_name}/{name}"): http(
        "boards",
        "GET",
        st.tuples(
            segment(st.sampled_from(sorted(GAMES)) | printable),
            segment(st.sampled_from(["board.js", "board.css", "sheet.js", "../board.py"])),
        ).map(lambda t: f"/boards/{t[0]}/{t[1]}"),
    ),
    ("GET", "/static/{path}"): http(
        "static",
        "GET",
        st.sampled_from(["app.css", "game.js", "../app.py", "..%2fapp.py", "%2e%2e/app.py"]).map(
            lambda p: f"/static/{p}"
        )
        | segment(printable).map(lambda p: f"/static/{p}"),
    ),
    ("GET", "/games/{game_id}/links"): http(
        "links page", "GET", gid.map(lambda g: f"/games/{g}/links")
    ),
    ("GET", "/api/games/{game_id}/links"): http(
        "links", "GET", gid.map(lambda g: f"/api/games/{g}/links")
    ),
    ("GET", "/rules/{game_name}"): http(
        "rules",
        "GET",
        segment(st.sampled_from(sorted(GAMES)) | printable).map(lambda g: f"/rules/{g}"),
        params=st.dictionaries(printable, printable, max_size=2),
    ),
    ("GET", "/cards/{game_name}"): http(
        "cards",
        "GET",
        segment(st.sampled_from(sorted(GAMES)) | printable).map(lambda g: f"/cards/{g}"),
        params=st.one_of(
            st.sampled_from(["all", "2", "solo", "standard-4", ""]).map(lambda k: {"set": k}),
            st.dictionaries(st.just("set") | printable, printable, max_size=2),
        ),
    ),
    ("GET", "/favicon.ico"): http("favicon", "GET", st.just("/favicon.ico")),
    ("GET", "/healthz"): http("healthz", "GET", st.just("/healthz")),
    ("GET", "/metrics"): http("metrics", "GET", st.just("/metrics")),
    ("WS", "/ws/games/{game_id}"): st.builds(
        lambda p, first, later, t: Call("ws", "WS", p, frames=[first, *later], token=t),
        gid.map(lambda g: f"/ws/games/{g}"),
        hellos,
        st.lists(later_frames, max_size=3),
        tokens,
    ),
    **LAB_STRATEGIES,
}
#: the same routes asked with a method they do not take
WRONG_METHODS = http(
    "wrong method",
    "PUT",
    st.sampled_from(["/api/games", "/new", "/", f"/api/games/{GAME}/move"]),
    content=printable,
)


def surface() -> set[tuple[str, str]]:
    """Every (method, path) the app answers: its OpenAPI schema's, its own routes', the
    WebSocket's and the static files'."""
    app = create_app(Settings(db_url="sqlite://"))
    found = {(m.upper(), p) for p, ops in app.openapi()["paths"].items() for m in ops}
    for router in (api.router, pages.router):
        found |= {("WS", r.path) for r in router.routes if isinstance(r, APIWebSocketRoute)}
    for route in app.routes:
        if isinstance(route, APIRoute):
            found |= {(m, route.path) for m in route.methods}
        elif isinstance(route, Mount):
            found.add(("GET", f"{route.path}/{{path}}"))
    return found


def test_every_route_has_a_strategy() -> None:
    assert surface() == set(STRATEGIES)


# -- the app under fuzz --------------------------------------------------------------------------
class Problems(logging.Handler):
    """Every log record at ERROR or above, and every record carrying a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.found.append(self.format(record))


@dataclass(frozen=True)
class Seat:
    """A token of one of the fuzz's games and the seats it holds."""

    game: str
    token: str
    seats: tuple[int, ...]


@dataclass
class Target:
    client: TestClient
    games: list[str]
    seats: list[Seat]
    rng: random.Random
    whatif: str
    run: str


LAB_WHATIF = {"game": "merchants-of-magick", "values": {WARRIOR: "15"}}
LAB_RUN = {
    "kind": "compare",
    "game": "merchants-of-magick",
    "players": 2,
    "games": 4,
    "rungs": ["greedy"],
}


def new_games_of(client: TestClient) -> list[dict[str, Any]]:
    """The games the fuzz plays: three to play (one with a clock and open seats), one over
    (uploaded at its end)."""
    made = [
        client.post("/api/games", json=body).json()
        for body in (
            {"game": "archmagi", "players": 2, "seats": ["human", "human"]},
            {"game": "merchants-of-magick", "players": 2, "seats": ["human", "greedy"]},
            {
                "game": "archmagi",
                "players": 3,
                "seats": ["human", "open", "open"],
                "clock": {"kind": "turn"},
            },
        )
    ]
    over = rulebook.new_game("merchants-of-magick", 1, seed=2, variant="solo")
    rng = random.Random(0)
    while not over.is_terminal():
        seat = over.current_players()[0]
        over.apply(seat, rng.choice(over.legal_actions(seat)))
    save = rulebook.save_text(over, ["human"])
    made.append(client.post("/api/games/upload", files={"file": ("g.json", save)}).json())
    return made


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    problems = Problems()
    root = logging.getLogger()
    root.addHandler(problems)
    folder = tmp_path_factory.mktemp("fuzz")
    app = create_app(
        Settings(
            db_url=f"sqlite:///{folder / 'games.sqlite3'}",
            bot_delay=3600.0,
            bot_workers=0,
            max_new_games_per_minute=100_000,
            max_refusals=1_000_000,
            lab_dir=folder / "lab",
            lab_workers=1,
            lab_running=0,  # runs wait in the queue: none is played
            # no refusal for load (its own tests cover it): the bots never move here, so
            # their waiting moves would pass the threshold and refuse new games with 503
            overload_lag=0.0,
            overload_requests=0,
            overload_bots=0,
        )
    )
    try:
        with TestClient(app) as client:
            made = new_games_of(client)
            seats = [
                Seat(links["id"], token, (seat,))
                for links in made
                for seat, token in seat_tokens(links).items()
            ]
            seats += [
                Seat(
                    links["id"],
                    links["hotseat"]["url"].split("#")[1],
                    tuple(links["hotseat"]["seats"]),
                )
                for links in made
                if links["hotseat"]
            ]
            whatif = client.post("/api/lab/whatifs", json={**LAB_WHATIF, "name": "fuzz"}).json()
            run = client.post("/api/lab/runs", json={**LAB_RUN, "whatif": whatif["id"]}).json()
            ids = [links["id"] for links in made]
            yield Target(client, ids, seats, random.Random(0), whatif["id"], run["id"])
            # the app answers as before
            assert client.get("/healthz").json() == {"status": "ok"}
            body = {"game": "archmagi", "players": 2, "seats": ["human", "human"]}
            assert client.post("/api/games", json=body).status_code == 201
    finally:
        root.removeHandler(problems)
    assert not problems.found, f"{len(problems.found)} in the log; the first: {problems.found[0]}"


def seat_of(target: Target, call: Call) -> Seat | None:
    return None if call.token is None else target.seats[call.token % len(target.seats)]


def resolve(target: Target, value: Any, seat: Seat | None, path: str) -> Any:
    """``value`` with its placeholders made real for the seat's token."""
    if isinstance(value, dict):
        return {k: resolve(target, v, seat, path) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(target, v, seat, path) for v in value]
    if value == TOKEN:
        return seat.token if seat else "no token"
    if value == WHATIF:
        return target.whatif
    if value in (SEAT, LEGAL, VERSION):
        view = view_of(target, path, seat)
        if value == SEAT:
            return view["seat"] if view else 0
        if value == VERSION:
            return view["version"] if view else 0
        legal = [m["text"] for m in view["legal"]] if view else []
        return target.rng.choice(legal) if legal else "done"
    return value


def view_of(target: Target, path: str, seat: Seat | None) -> dict[str, Any] | None:
    """The view of the seat to move among the token's seats (or its first), if any."""
    if seat is None or not path.startswith("/api/games/"):
        return None
    game = path.split("/")[3]
    r = target.client.get(f"/api/games/{game}/view", headers=auth(seat.token))
    if r.status_code != 200:
        return None
    views = r.json()["views"]
    return next((v for v in views if v["legal"]), views[0])


def send_http(target: Target, call: Call) -> int:
    seat = seat_of(target, call)
    path = call.path.replace(GAME, seat.game if seat else target.rng.choice(target.games))
    path = path.replace(WHATIF, target.whatif).replace(RUN, target.run)
    headers = {**call.headers, **(auth(seat.token) if seat else {})}
    options = dict(call.options)
    if "json" in options:
        body = resolve(target, options.pop("json"), seat, path)
        options["content"] = encode(body)
    return target.client.request(call.method, path, headers=headers, **options).status_code


def send_ws(target: Target, call: Call) -> None:
    """Say hello, then send the later frames, each answered (a pong, a 400) once the updates
    sent before it are read; a refusal closes the socket (4400-4499, or 1009: too large; 1000
    for a path that is no socket's)."""
    seat = seat_of(target, call)
    path = call.path.replace(GAME, seat.game if seat else target.rng.choice(target.games))
    frames = [resolve(target, f, seat, path) for f in call.frames]
    try:
        with target.client.websocket_connect(path) as ws:
            for i, frame in enumerate(frames):
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame if isinstance(frame, str) else encode(frame))
                while (reply := ws.receive_json())["type"] == "view":
                    pass
                assert reply["type"] in ("hello", "pong", "error"), reply
                if reply["type"] == "error" and (i == 0 or reply["status"] != 400):
                    ws.receive_json()
                    raise AssertionError(f"the socket stayed open after {reply}")
    except WebSocketDisconnect as closed:
        assert closed.code in (1000, 1009) or 4400 <= closed.code < 4500, closed.code


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
@given(call=st.one_of(*STRATEGIES.values(), WRONG_METHODS))
def test_no_request_gets_a_server_error(target: Target, call: Call) -> None:
    if call.route == "ws":
        send_ws(target, call)
    else:
        status = send_http(target, call)
        assert status < 500, (call, status)
