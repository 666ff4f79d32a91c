"""The web app against a stranger (issue 22): markup in every field a page repeats, posts from
other sites, odd JSON (deep, NaN, lone surrogates), loosely typed bodies, odd WebSocket frames.
Each is refused in one line and changes nothing; a real server is then sent all of it at once
and its log must hold no traceback."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import struct
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import rulebook
from webserver import Server
from webtools import auth, dump, new_game, seat_tokens

MARKUP = "</script><img src=x onerror=alert(2)>"
#: a save file nested far deeper than any parser recursion allows (200 KB: under the limit)
DEEP = "[" * 100_000 + "]" * 100_000


def save_text(**fields: Any) -> str:
    return json.dumps({"game": "archmagi", "players": 2, "seed": 1, "log": [], **fields})


def catalogue_data(page: str) -> Any:
    """The JSON the home page hands its script (what ``static/home.js`` parses)."""
    found = re.search(r'<script type="application/json" id="catalogue">(.*?)</script>', page, re.S)
    assert found, "no catalogue on the page"
    return json.loads(found.group(1))


def assert_no_markup(page: str) -> None:
    """The page holds no element the client wrote: the markup is text, escaped."""
    assert MARKUP not in page
    assert "<img" not in page
    assert page.count("<script") == page.count("</script>")


# -- values written into a page ------------------------------------------------------------------
@pytest.mark.parametrize("field", ["game", "variant", "players", "seat_0", "seat_1", "option_magi"])
def test_the_new_game_form_repeats_no_markup(c: TestClient, db: Path, field: str) -> None:
    before = dump(db)
    form = {"game": "archmagi", "players": "2", "seat_0": "human", "seat_1": "greedy"}
    r = c.post("/new", data={**form, field: MARKUP}, headers={"accept": "text/html"})
    assert r.status_code == 400
    assert_no_markup(r.text)
    # the form is shown again as it was sent: the value reaches the page's script intact
    assert catalogue_data(r.text)["values"][field] == MARKUP
    assert dump(db) == before


@pytest.mark.parametrize(
    ("content", "seats"),
    [
        (save_text(game=MARKUP), None),
        (save_text(variant=MARKUP), None),
        (save_text(options={"magi": MARKUP}), None),
        (save_text(seats=[MARKUP, "greedy"]), None),
        (save_text(log=[[0, MARKUP]]), None),
        (save_text(), MARKUP),
        (save_text(), f"human,{MARKUP}"),
    ],
)
def test_an_upload_repeats_no_markup(
    c: TestClient, db: Path, content: str, seats: str | None
) -> None:
    before = dump(db)
    data = {"seats": seats} if seats else {}
    r = c.post(
        "/upload", files={"file": ("x.json", content)}, data=data, headers={"accept": "text/html"}
    )
    assert r.status_code == 400, r.text
    assert_no_markup(r.text)
    assert "onerror=alert(2)" in catalogue_data(r.text)["upload_error"]
    assert dump(db) == before


def test_no_template_writes_a_value_unescaped() -> None:
    """Every template leaves escaping on: no ``| safe``, no ``{% autoescape false %}``."""
    folder = Path(rulebook.__file__).parent / "web" / "templates"
    for template in folder.glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|Markup\(", text), template.name


# -- posts from other sites ----------------------------------------------------------------------
CROSS_SITE = [
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},  # a sibling host is another site here
    {"sec-fetch-site": "cross-site", "origin": "http://testserver"},  # the browser's word wins
    {"origin": "https://evil.example"},
    {"origin": "null"},
    {"origin": "http://testserver:8080"},
    {"origin": "https://testserver"},
    {"origin": "http://testserver.evil.example"},
    {"origin": "http://[::1"},
    {"origin": "http://testserver:99999"},
]
SAME_SITE = [
    {},  # neither header: not a browser (curl, scripts)
    {"sec-fetch-site": "same-origin"},
    {"sec-fetch-site": "none"},  # typed in the address bar, a bookmark
    {"origin": "http://testserver"},
    {"origin": "http://TestServer:80"},
    {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
]


def post_routes(gid: str) -> list[tuple[str, dict[str, Any]]]:
    """Every state-changing route, each with a request it would accept."""
    save = rulebook.save_text(rulebook.new_game("archmagi", 2, seed=1), ["human", "greedy"])
    form = {"game": "archmagi", "players": "2", "seat_0": "human", "seat_1": "greedy"}
    return [
        ("/new", {"data": form}),
        ("/upload", {"files": {"file": ("g.json", save)}}),
        ("/api/games", {"json": {"game": "archmagi", "players": 2, "seats": ["human", "greedy"]}}),
        ("/api/games/upload", {"files": {"file": ("g.json", save)}}),
        (f"/api/games/{gid}/move", {"json": {"seat": 0, "move": "pass"}}),
        (f"/api/games/{gid}/undo", {"json": {"seat": 0}}),
    ]


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_posts_from_other_sites_are_refused(
    c: TestClient, db: Path, headers: dict[str, str]
) -> None:
    links = new_game(c, "archmagi", ["human", "greedy"])
    token = seat_tokens(links)[0]
    before = dump(db)
    for path, request in post_routes(links["id"]):
        r = c.post(path, headers={**headers, **auth(token)}, **request)
        assert r.status_code == 403, (path, r.text)
        reason = r.json()["error"]
        assert reason.startswith("cross-site request refused"), reason
        assert "\n" not in reason
        page = c.post(path, headers={**headers, "accept": "text/html"}, **request)
        assert page.status_code == 403 and "cross-site request refused" in page.text
    assert dump(db) == before


@pytest.mark.parametrize("headers", SAME_SITE)
def test_posts_from_the_site_itself_are_taken(c: TestClient, headers: dict[str, str]) -> None:
    links = new_game(c, "archmagi", ["human", "greedy"])
    token = seat_tokens(links)[0]
    expected = [200, 200, 201, 201, 409, 409]  # the move is illegal, nothing to undo
    for (path, request), status in zip(post_routes(links["id"]), expected, strict=True):
        r = c.post(path, headers={**headers, **auth(token)}, **request)
        assert r.status_code == status, (path, r.text)


def test_reading_is_never_refused_as_cross_site(c: TestClient) -> None:
    headers = {"sec-fetch-site": "cross-site", "origin": "https://evil.example"}
    assert c.get("/", headers=headers).status_code == 200
    assert c.get("/api/games", headers=headers).status_code == 200


# -- loosely typed bodies ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"players": "2"}, "players"),
        ({"players": 2.0}, "players"),
        ({"players": True}, "players"),
        ({"game": ["archmagi"]}, "game"),
        ({"variant": 1}, "variant"),
        ({"seats": "human,greedy"}, "seats"),
        ({"seats": ["human", 1]}, "seats.1"),
        ({"options": {"magi": 1}}, "options.magi"),
        ({"options": ["magi"]}, "options"),
    ],
)
def test_new_game_types_are_strict(
    c: TestClient, db: Path, body: dict[str, Any], reason: str
) -> None:
    before = dump(db)
    good = {"game": "archmagi", "players": 2, "seats": ["human", "greedy"]}
    r = c.post("/api/games", json={**good, **body})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(f"bad request: {reason}: "), r.text
    assert dump(db) == before


LOOSE_SEATS = [{"seat": True}, {"seat": "0"}, {"seat": 0.0}, {"seat": None}]


@pytest.mark.parametrize(
    ("route", "body", "reason"),
    [
        *[("move", {**seat, "move": "done"}, "seat") for seat in LOOSE_SEATS],
        *[("undo", seat, "seat") for seat in LOOSE_SEATS],
        ("move", {"seat": 0, "move": 5}, "move"),
        ("move", {"seat": 0, "move": "done", "version": "0"}, "version"),
        ("move", {"seat": 0, "move": "done", "version": False}, "version"),
    ],
)
def test_move_and_undo_types_are_strict(
    c: TestClient, db: Path, route: str, body: dict[str, Any], reason: str
) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "human"])
    hotseat = links["hotseat"]["url"].split("#")[1]  # holds seats 0 and 1: true would be 1
    before = dump(db)
    r = c.post(f"/api/games/{links['id']}/{route}", headers=auth(hotseat), json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(f"bad request: {reason}: "), r.text
    assert dump(db) == before


# -- odd JSON ------------------------------------------------------------------------------------
ODD_SAVES = [
    (DEEP, "nested too deeply"),
    (save_text(log=json.loads("[" * 500 + "]" * 500)), "not a [seat, move] pair"),
    ('{"game": "archmagi", "players": 2, "seed": NaN, "log": []}', "NaN"),
    ('{"game": "archmagi", "players": 2, "seed": Infinity, "log": []}', "Infinity"),
    ('{"game": "archmagi", "players": 2, "seed": 1' + "0" * 5000 + ', "log": []}', "digits"),
    ('{"game": "\\ud800", "players": 2, "seed": 1, "log": []}', "lone surrogate"),
    ('{"game": "archmagi", "players": 2, "seed": 1, "log": [[0, "\\udfff"]]}', "lone surrogate"),
    (save_text(seed=10**70), "seed"),
    # a bot that would think for hours, holding the worker that moves every game's bots
    (save_text(seats=["human", "mcts:100000000"]), "not one of this server's seats"),
    (save_text(seats=["human", "mcts:99999999s"]), "not one of this server's seats"),
]


@pytest.mark.parametrize(("content", "reason"), ODD_SAVES)
@pytest.mark.parametrize("path", ["/api/games/upload", "/upload"])
def test_odd_json_uploads_are_refused_in_one_line(
    c: TestClient, db: Path, path: str, content: str, reason: str
) -> None:
    before = dump(db)
    r = c.post(path, files={"file": ("x.json", content)})
    assert r.status_code == 400, r.text[:300]
    if path.startswith("/api/"):
        error = r.json()["error"]
        assert reason in error and "\n" not in error and len(error) < 300, error
    else:
        assert reason in catalogue_data(r.text)["upload_error"]
    assert dump(db) == before


# -- odd WebSocket frames ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "first", [b'{"spectate": true}', b"\x00\xff", "[" * 4000, '{"token": "\\ud800"}']
)
def test_an_odd_first_frame_gets_400_and_4400(c: TestClient, first: str | bytes) -> None:
    gid = new_game(c, "archmagi", ["human", "greedy"])["id"]
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        if isinstance(first, bytes):
            ws.send_bytes(first)
        else:
            ws.send_text(first)
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["status"] == 400, refusal
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


def test_odd_later_frames_are_answered_400(c: TestClient) -> None:
    gid = new_game(c, "archmagi", ["human", "greedy"])["id"]
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"spectate": True}))
        assert ws.receive_json()["type"] == "hello"
        assert ws.receive_json()["type"] == "view"
        for frame in ("[" * 4000, b"\x00\xff", '{"type": "\\ud800"}', "NaN"):
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            assert ws.receive_json()["status"] == 400
        ws.send_text('{"type":"ping"}')
        assert ws.receive_json() == {"type": "pong"}


# -- the real server, sent everything at once ----------------------------------------------------
def ws_talk(
    url: str, frames: list[str | bytes], replies: int = 100
) -> tuple[list[Any], int | None]:
    """Send ``frames`` at once; what came back (up to ``replies`` messages) and the close code
    (None while open)."""
    got: list[Any] = []
    try:
        with connect(url, open_timeout=10) as ws:
            for frame in frames:
                ws.send(frame)
            while len(got) < replies:
                got.append(json.loads(ws.recv(10)))
            return got, None
    except ConnectionClosed as closed:
        return got, closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return got, None


def leave_mid_body(port: int, path: str) -> None:
    """Announce a body of 1000 bytes, send 4 and hang up."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 1000\r\n"
        raw.sendall(f'{head}Content-Type: application/json\r\n\r\n{{"ga'.encode())
        time.sleep(0.2)  # the app is reading the body when the client leaves


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A masked WebSocket frame, as a client sends it, whatever it holds."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    head += bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


SPECTATE = frame(1, b'{"spectate": true}')
#: frames no client library sends: text that is not UTF-8, a control frame over 125 bytes, a
#: continuation of nothing, a close frame of one byte or an unknown code
RAW_FRAMES = [
    [frame(1, b"\xff\xfe")],
    [SPECTATE, frame(1, b"\xc3")],
    [SPECTATE, frame(9, b"x" * 200)],
    [frame(1, b"ab", fin=False), frame(2, b"cd")],
    [frame(0, b"zz")],
    [frame(8, b"\x03")],
    [SPECTATE, frame(8, struct.pack("!H", 999))],
]


def raw_ws(port: int, path: str, frames: list[bytes]) -> bytes:
    """Open a WebSocket by hand, send ``frames``; what came back (the handshake's answer
    left out)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        answer = raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        for f in frames:
            raw.sendall(f)
        time.sleep(0.2)
        got = b""
        with contextlib.suppress(OSError):
            while chunk := raw.recv(4096):
                got += chunk
        return got


def test_a_real_server_sent_every_hostile_input_logs_no_traceback(tmp_path: Path) -> None:
    """Issue 22's inputs against ``rulebook serve``: each gets its 4xx or its close code, the
    keep-alive connection survives them, and the server's log holds no traceback."""
    log = tmp_path / "server.log"
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with Server(db, log, workers=0, access_log=False) as server:  # no bots: no worker
        http = httpx.Client(base_url=server.url, timeout=10)
        links = http.post(
            "/api/games", json={"game": "archmagi", "players": 2, "seats": ["human", "human"]}
        ).json()
        gid = links["id"]
        token = seat_tokens(links)[0]
        html = {"accept": "text/html"}
        form = {"game": "archmagi", "players": "2", "seat_0": "human", "seat_1": "greedy"}
        statuses: list[tuple[str, int]] = []

        def sent(what: str, r: httpx.Response) -> httpx.Response:
            statuses.append((what, r.status_code))
            return r

        # markup through every field a page repeats
        for field in ("game", "variant", "players", "seat_0", "seat_1", "option_magi"):
            r = sent(field, http.post("/new", data={**form, field: MARKUP}, headers=html))
            assert MARKUP not in r.text
        for content, seats in [(save_text(game=MARKUP), None), (save_text(), MARKUP)]:
            files = {"file": ("x.json", content)}
            data = {"seats": seats} if seats else {}
            r = sent("upload markup", http.post("/upload", files=files, data=data))
            assert MARKUP not in r.text
        # posts from another site
        for path, request in post_routes(gid):
            for headers in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"}):
                r = http.post(path, headers={**headers, **auth(token)}, **request)
                assert sent(f"cross-site {path}", r).status_code == 403
        # odd JSON, the odd form number, loosely typed bodies
        for content, _ in ODD_SAVES:
            for path in ("/api/games/upload", "/upload"):
                r = http.post(path, files={"file": ("x.json", content)})
                assert sent(f"odd save to {path}", r).status_code == 400
        for players in ("²", "9" * 5000, "-1", "1.5"):
            r = http.post("/new", data={**form, "players": players}, headers=html)
            assert sent(f"players={players[:8]}", r).status_code == 400
        url = f"/api/games/{gid}/move"
        for body in ({"seat": True, "move": "x"}, {"seat": "0", "move": "x"}):
            assert (
                sent(str(body), http.post(url, headers=auth(token), json=body)).status_code == 400
            )
        body = {"game": "archmagi", "players": "2", "seats": ["human", "greedy"]}
        assert sent("players '2'", http.post("/api/games", json=body)).status_code == 400
        assert http.get("/healthz").json() == {"status": "ok"}  # the same keep-alive connection
        # clients that leave in the middle of their body
        for path in ("/api/games", f"/api/games/{gid}/move", "/new", "/api/games/upload"):
            leave_mid_body(server.port, path)
        # WebSocket frames: oversized first or after the hello, binary, deep
        ws_url = server.url.replace("http://", "ws://") + f"/ws/games/{gid}"
        assert ws_talk(ws_url, ["x" * 5000])[1] == 1009
        assert ws_talk(ws_url, [json.dumps({"spectate": True}), "y" * 5000])[1] == 1009
        got, code = ws_talk(ws_url, [b"\x00\x01"])
        assert got[0]["type"] == "error" and got[0]["status"] == 400 and code == 4400
        got, code = ws_talk(ws_url, ["[" * 4000])
        assert got[0]["status"] == 400 and code == 4400
        frames: list[str | bytes] = [json.dumps({"spectate": True}), b"\x00", "[" * 4000]
        got, code = ws_talk(ws_url, frames, replies=4)  # hello, view, two refusals
        assert [m.get("status") for m in got if m["type"] == "error"] == [400, 400]
        assert code is None
        for frames in RAW_FRAMES:
            closing = raw_ws(server.port, f"/ws/games/{gid}", frames)
            assert b"\x88" in closing  # the server closes: 1007 not UTF-8, 1002 protocol
        # the server still plays
        assert http.get("/healthz").json() == {"status": "ok"}
        r = http.post("/api/games", json={"game": "archmagi", "players": 2, "seats": ["human"] * 2})
        assert r.status_code == 201
        http.close()
    text = log.read_text()
    assert "Traceback" not in text and "Exception in ASGI application" not in text, text[-3000:]
    assert all(400 <= status < 500 for _, status in statuses), statuses
