"""Moves over a game's WebSocket and the deltas it sends (docs/web-api.md, "The WebSocket:
deltas and moves"): a legal move is stored and answered with its id, every refusal is one line
with its status (illegal, another seat's, a spectator's, a socket opened by another site's
page, malformed, too many), and the payload a client builds from deltas is the whole payload
the server sends when asked again."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from rulebook.web.crosssite import REFUSED
from webtools import auth, client, dump, get_view, new_game, seat_tokens


@pytest.fixture
def sc(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path / "games.sqlite3", max_refusals=12) as c:
        yield c


class Socket:
    """One connection, as a page holds it: each viewpoint's payload, built from whole payloads
    and deltas; the answers to moves by id."""

    def __init__(self, ws: WebSocketTestSession, hello: dict[str, Any]) -> None:
        self.ws = ws
        self.views: dict[int | None, dict[str, Any]] = {}
        self.frames: dict[int | None, int] = {}
        self.deltas = 0
        ws.send_text(json.dumps({**hello, "deltas": True}))
        said = ws.receive_json()
        assert said["type"] == "hello" and "move" in said["takes"]

    def next(self) -> dict[str, Any]:
        """The next message; a view or delta is applied first (a delta must build on the
        frame held)."""
        message: dict[str, Any] = self.ws.receive_json()
        seat = message.get("seat")
        if message["type"] == "view":
            self.views[seat] = message["view"]
        elif message["type"] == "delta":
            assert message["base"] == self.frames[seat]  # the server knows what it sent
            keep, added = message["log"]
            before = self.views[seat]
            self.views[seat] = {**before, **message["view"], "log": before["log"][:keep] + added}
            self.deltas += 1
        else:
            return message
        view = self.views[seat]
        assert (message["version"], message["over"]) == (view["version"], view["over"])
        self.frames[seat] = message["frame"]
        return message

    def answer(self, number: int | None) -> dict[str, Any]:
        """The answer to move ``number`` (views and deltas before it applied)."""
        for _ in range(50):
            message = self.next()
            if message.get("id") == number and message["type"] in ("moved", "error"):
                return message
        raise AssertionError(f"no answer to move {number}")

    def move(self, number: int, **body: Any) -> dict[str, Any]:
        self.ws.send_text(json.dumps({"type": "move", "id": number, **body}))
        return self.answer(number)

    def until_version(self, seat: int | None, version: int) -> dict[str, Any]:
        for _ in range(50):
            view = self.views.get(seat)
            if view is not None and view["version"] >= version:
                return view
            self.next()
        raise AssertionError(f"no view of version {version}")


def test_a_move_over_the_socket_is_made_and_answered(sc: TestClient) -> None:
    links = new_game(sc, "battle-merchants", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    with (
        sc.websocket_connect(f"/ws/games/{gid}") as w0,
        sc.websocket_connect(f"/ws/games/{gid}") as w1,
    ):
        sockets = [Socket(w0, {"token": tokens[0]}), Socket(w1, {"token": tokens[1]})]
        first = sockets[0].until_version(0, 0)
        seat = first["to_act"][0]
        mine = sockets[seat]
        view = mine.until_version(seat, 0)
        move = view["legal"][0]["text"]
        said = mine.move(7, seat=seat, move=move, version=0)
        assert said == {"type": "moved", "id": 7, "version": 1}
        assert get_view(sc, gid, tokens[seat])["version"] == 1
        other = sockets[1 - seat]
        assert other.until_version(1 - seat, 1)["log"][0]["seat"] == seat


def test_refusals_over_the_socket_are_one_line_and_change_nothing(
    sc: TestClient, tmp_path: Path
) -> None:
    links = new_game(sc, "archmagi", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    stored = tmp_path / "games.sqlite3"

    def games() -> list[str]:  # the store but when seats were last seen (a socket opened)
        return [line for line in dump(stored).splitlines() if 'INTO "seen"' not in line]

    before = games()
    view = get_view(sc, gid, tokens[0])
    seat = view["to_act"][0]
    other = 1 - seat
    legal = get_view(sc, gid, tokens[seat])["legal"][0]["text"]
    with sc.websocket_connect(f"/ws/games/{gid}") as ws:
        s = Socket(ws, {"token": tokens[seat]})
        cases = [
            ({"seat": seat, "move": "no such move"}, 409),
            ({"seat": other, "move": legal}, 403),  # not this link's seat
            ({"seat": seat, "move": legal, "version": 5}, 409),  # stale
            ({"seat": str(seat), "move": legal}, 400),  # typed strictly, as over HTTP
            ({"seat": seat, "move": legal, "extra": 1}, 400),
        ]
        for number, (body, status) in enumerate(cases):
            said = s.move(number, **body)
            assert said["type"] == "error" and said["status"] == status, said
            assert said["id"] == number and "\n" not in said["error"] and said["error"]
        ws.send_text('{"type": "move", "seat": 0}')  # no id: answered all the same
        said = s.answer(None)
        assert said["status"] == 400 and said["error"].startswith("bad request: move")
    assert games() == before
    with sc.websocket_connect(f"/ws/games/{gid}") as ws:  # a spectator's socket moves nothing
        s = Socket(ws, {"spectate": True})
        said = s.move(1, seat=seat, move=legal)
        assert said["status"] == 403 and "spectator" in said["error"]
    with sc.websocket_connect(f"/ws/games/{gid}") as ws:  # a wrong token opens no socket
        ws.send_text(json.dumps({"token": "wrong", "deltas": True}))
        assert ws.receive_json()["status"] == 403
    assert games() == before


def test_a_socket_opened_by_another_site_watches_but_does_not_move(sc: TestClient) -> None:
    links = new_game(sc, "archmagi", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    seat = get_view(sc, gid, tokens[0])["to_act"][0]
    legal = get_view(sc, gid, tokens[seat])["legal"][0]["text"]
    foreign = [{"origin": "https://elsewhere.example"}, {"sec-fetch-site": "cross-site"}]
    for headers in foreign:
        with sc.websocket_connect(f"/ws/games/{gid}", headers=headers) as ws:
            s = Socket(ws, {"token": tokens[seat]})
            assert s.until_version(seat, 0)["legal"]  # it may watch
            said = s.move(1, seat=seat, move=legal)
            assert (said["status"], said["error"]) == (403, REFUSED)
    assert get_view(sc, gid)["version"] == 0
    own = {"origin": "http://testserver"}  # this site's page
    with sc.websocket_connect(f"/ws/games/{gid}", headers=own) as ws:
        s = Socket(ws, {"token": tokens[seat]})
        assert s.move(2, seat=seat, move=legal)["type"] == "moved"


def test_too_many_refusals_on_a_socket_are_turned_away(sc: TestClient) -> None:
    links = new_game(sc, "archmagi", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    with sc.websocket_connect(f"/ws/games/{gid}") as ws:
        s = Socket(ws, {"token": tokens[0]})
        statuses = [s.move(n, seat=0, move="nonsense")["status"] for n in range(14)]
        assert statuses == [409] * 12 + [429] * 2
        said = s.move(99, seat=0, move="nonsense")
        assert said["retry_after"] == 60 and "too many refused" in said["error"]


def test_deltas_build_the_whole_payload(sc: TestClient) -> None:
    """Through a whole game of moves over the socket, the payloads a client builds from the
    deltas are the server's whole payloads, for a seat and for a spectator, and a client that
    asks for the whole payload again gets the same one."""
    links = new_game(sc, "pandoria-merchants", ["human", "human", "random"])
    gid = links["id"]
    tokens = seat_tokens(links)
    rng = random.Random(5)
    with (
        sc.websocket_connect(f"/ws/games/{gid}") as w0,
        sc.websocket_connect(f"/ws/games/{gid}") as w1,
        sc.websocket_connect(f"/ws/games/{gid}") as ws,
    ):
        seats = [Socket(w0, {"token": tokens[0]}), Socket(w1, {"token": tokens[1]})]
        spectator = Socket(ws, {"spectate": True})
        version = 0
        number = 0
        for _ in range(40):
            view = get_view(sc, gid)
            if view["over"]:
                break
            version = view["version"]
            views = [s.until_version(p, version) for p, s in enumerate(seats)]
            mover = next((p for p in (0, 1) if views[p]["legal"]), None)
            if mover is None:  # the bot's turn: its move comes
                spectator.until_version(None, version + 1)
                continue
            number += 1
            move = rng.choice(views[mover]["legal"])["text"]
            said = seats[mover].move(number, seat=mover, move=move, version=views[mover]["version"])
            assert said["type"] == "moved", said
        spectator.until_version(None, version)
        assert spectator.deltas > 5 and seats[0].deltas > 5
        for p, s in [(0, seats[0]), (1, seats[1]), (None, spectator)]:
            built = s.views[p]
            s.ws.send_text('{"type": "full"}')
            for _ in range(50):
                message = s.ws.receive_json()
                if message["type"] == "view" and message["seat"] == p:
                    break
            whole = message["view"]
            if whole["version"] == built["version"]:
                # can_undo may have turned true meanwhile (a worker checks it)
                assert {**built, "can_undo": None} == {**whole, "can_undo": None}
            token = tokens[p] if p is not None else None
            http = sc.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
            served = http.json()["views"][0]
            served.pop("static")
            if served["version"] == whole["version"]:
                assert {**served, "can_undo": None} == {**whole, "can_undo": None}


def test_whole_payloads_are_sent_again_only_after_a_delta(sc: TestClient) -> None:
    """``{"type": "full"}`` is for a client that lost track of the deltas: asked before any
    delta was sent (or twice in a row), it is refused as a message the socket does not take."""
    links = new_game(sc, "archmagi", ["human", "human"])
    gid = links["id"]
    with sc.websocket_connect(f"/ws/games/{gid}") as ws:
        s = Socket(ws, {"spectate": True})
        s.until_version(None, 0)
        ws.send_text('{"type": "full"}')
        said = s.next()
        assert said["type"] == "error" and said["status"] == 400


def test_a_hidden_move_sends_the_other_seats_nothing(sc: TestClient) -> None:
    """Merchants of Magick's seats choose together: a seat's move stays hidden from the
    others until the phase ends, so their sockets get no frame for it, and their frame
    numbers (counted per viewpoint) skip none."""
    links = new_game(sc, "merchants-of-magick", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    with (
        sc.websocket_connect(f"/ws/games/{gid}") as w0,
        sc.websocket_connect(f"/ws/games/{gid}") as w1,
    ):
        s0, s1 = Socket(w0, {"token": tokens[0]}), Socket(w1, {"token": tokens[1]})
        v0, v1 = s0.until_version(0, 0), s1.until_version(1, 0)
        assert v0["legal"] and v1["legal"] and sorted(v0["to_act"]) == [0, 1]
        log = s0.views[0]["log"]
        said = s1.move(1, seat=1, move=v1["legal"][0]["text"], version=0)
        assert said["type"] == "moved" and said["version"] == 1
        w0.send_text('{"type":"ping"}')  # whatever seat 0 is sent before its pong
        while (message := s0.next())["type"] != "pong":
            # who still decides is public (seat 1 no longer does), what it chose is not
            assert message["type"] in ("view", "delta") and message["version"] == 0
            if message["type"] == "delta":
                assert message["log"] == [len(log), []]
        assert s0.views[0]["version"] == 0 and s0.views[0]["log"] == log
        said = s0.move(2, seat=0, move=v0["legal"][0]["text"], version=0)
        assert said["type"] == "moved"
        assert s0.until_version(0, 2)["version"] == 2  # the phase is over: both moves told


def test_a_game_nobody_watches_keeps_no_payloads(sc: TestClient) -> None:
    """Its last connection gone, a game kept in memory holds its state and log, not its
    viewers' payloads (``LiveGame.unwatched``); a seat that comes back is sent the whole
    payload it had, and deltas again from it."""
    links = new_game(sc, "archmagi", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    games = sc.app.state.games  # type: ignore[attr-defined]

    def play(sockets: list[Socket], moves: int, number: int) -> int:
        for _ in range(moves):
            version = get_view(sc, gid)["version"]
            views = [s.until_version(p, version) for p, s in enumerate(sockets)]
            mover = next(p for p in (0, 1) if views[p]["legal"])
            number += 1
            move = views[mover]["legal"][0]["text"]
            said = sockets[mover].move(number, seat=mover, move=move, version=version)
            assert said["type"] == "moved", said
        return number

    with (
        sc.websocket_connect(f"/ws/games/{gid}") as w0,
        sc.websocket_connect(f"/ws/games/{gid}") as w1,
    ):
        sockets = [Socket(w0, {"token": tokens[0]}), Socket(w1, {"token": tokens[1]})]
        number = play(sockets, 4, 0)
        version = get_view(sc, gid)["version"]
        held = [s.until_version(p, version) for p, s in enumerate(sockets)]
        assert games.cache[gid].viewpoints_built >= 2
    assert gid in games.cache and games.cache[gid].viewpoints_built == 0
    with (
        sc.websocket_connect(f"/ws/games/{gid}") as w0,
        sc.websocket_connect(f"/ws/games/{gid}") as w1,
    ):
        sockets = [Socket(w0, {"token": tokens[0]}), Socket(w1, {"token": tokens[1]})]
        for p, s in enumerate(sockets):
            assert s.next()["type"] == "view"  # the whole payload, not a delta
            back = s.until_version(p, version)
            assert {**back, "presence": None} == {**held[p], "presence": None}
        play(sockets, 2, number)
        assert sockets[0].deltas + sockets[1].deltas > 0
