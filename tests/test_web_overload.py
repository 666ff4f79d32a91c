"""Admission by measured load (``rulebook.web.overload``): past its thresholds a server refuses
new games first and moves next, with 503, a one-line reason and ``Retry-After``; a refusal
changes nothing, the WebSocket stays open, and the server serves again as soon as the load
falls. The load is set by hand (the measures are the process's own; the thresholds tiny where
a real measure is used), so nothing here depends on the machine's speed."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulebook.web import Settings
from rulebook.web.overload import RETRY_GAME, RETRY_MOVE, Load
from webtools import auth, client, dump, get_view, new_game, seat_tokens

NEW_GAME = {"game": "battle-merchants", "players": 2, "seats": ["human", "human"]}


@pytest.fixture
def c(db: Path) -> Iterator[TestClient]:
    """An app with the default thresholds (the tests' apps turn the lag off) and its load
    measure set by hand: none to start with."""
    with client(db, overload_lag=Settings.overload_lag) as test_client:
        pressed(test_client)
        yield test_client


def load_of(c: TestClient) -> Load:
    load: Load = c.app.state.load  # type: ignore[attr-defined]
    return load


def pressed(c: TestClient, lag: float = 0.0, requests: int = 0, bots: int = 0) -> None:
    """Make the server's load measure say ``lag``, ``requests`` and ``bots``."""
    load_of(c).measure = lambda: (lag, requests, bots)  # type: ignore[method-assign]


def move_of(c: TestClient, gid: str, tokens: dict[int, str]) -> tuple[str, dict[str, Any]]:
    seat = get_view(c, gid)["to_act"][0]
    view = get_view(c, gid, tokens[seat])
    body = {"seat": seat, "move": view["legal"][0]["text"], "version": view["version"]}
    return tokens[seat], body


def refusals(c: TestClient) -> dict[str, float]:
    """``rulebook_refusals_total`` by its labels (the counters are the test process's: the
    tests compare them before and after)."""
    counts: dict[str, float] = {}
    for line in c.get("/metrics").text.splitlines():
        if line.startswith("rulebook_refusals_total{"):
            labels, value = line.rsplit(" ", 1)
            counts[labels.removeprefix("rulebook_refusals_total")] = float(value)
    return counts


def test_new_games_then_moves_are_refused_and_served_again(c: TestClient, db: Path) -> None:
    links = new_game(c, "battle-merchants", ["human", "human"])
    gid, tokens = links["id"], seat_tokens(links)
    counted = refusals(c)
    with c.websocket_connect(f"/ws/games/{gid}") as spectator:
        spectator.send_text(json.dumps({"spectate": True}))
        assert spectator.receive_json()["type"] == "hello"
        assert spectator.receive_json()["view"]["version"] == 0
        before = dump(db)

        # busy: past the new games' lag (0.1 s), under the moves' (three times it)
        pressed(c, lag=0.2)
        r = c.post("/api/games", json=NEW_GAME)
        assert r.status_code == 503 and r.headers["retry-after"] == str(RETRY_GAME)
        assert "too busy to start new games" in r.json()["error"]
        assert dump(db) == before
        token, body = move_of(c, gid, tokens)
        assert c.post(f"/api/games/{gid}/move", headers=auth(token), json=body).status_code == 200
        assert spectator.receive_json()["view"]["version"] == 1
        before = dump(db)

        # overloaded: moves refused too, and the game as it was
        pressed(c, lag=1.0)
        token, body = move_of(c, gid, tokens)
        r = c.post(f"/api/games/{gid}/move", headers=auth(token), json=body)
        assert r.status_code == 503 and r.headers["retry-after"] == str(RETRY_MOVE)
        assert r.json() == {
            "error": "the server is too busy to take moves now; nothing was changed: "
            f"send the move again in {RETRY_MOVE} s"
        }
        r = c.post(f"/api/games/{gid}/undo", headers=auth(token), json={"seat": body["seat"]})
        assert r.status_code == 503
        assert c.post("/api/games", json=NEW_GAME).status_code == 503
        assert dump(db) == before
        assert get_view(c, gid)["version"] == 1
        # a move over the seat's socket (its opening notes the seat as present; no move made)
        with c.websocket_connect(f"/ws/games/{gid}") as seat_socket:
            seat_socket.send_text(json.dumps({"token": token}))
            assert seat_socket.receive_json()["type"] == "hello"
            seat_socket.receive_json()  # its view
            seat_socket.send_text(json.dumps({"type": "move", "id": 7, **body}))
            said = seat_socket.receive_json()
            assert said["type"] == "error" and said["id"] == 7, said
            assert said["status"] == 503 and said["retry_after"] == RETRY_MOVE
        assert get_view(c, gid)["version"] == 1
        # what is never refused: pages, views, the operators' routes, the open socket
        assert c.get(f"/games/{gid}").status_code == 200
        assert c.get("/healthz").status_code == 200
        spectator.send_text('{"type":"ping"}')
        said = spectator.receive_json()
        while said["type"] == "view":  # the seat's socket came and went: presence, no move
            assert said["view"]["version"] == 1
            said = spectator.receive_json()
        assert said == {"type": "pong"}

        # the load falls: served again, the same move from the same view
        pressed(c)
        r = c.post(f"/api/games/{gid}/move", headers=auth(token), json=body)
        assert r.status_code == 200, r.text
        assert spectator.receive_json()["view"]["version"] == 2
        assert c.post("/api/games", json=NEW_GAME).status_code == 201
    counts = refusals(c)
    for labels, more in (
        ('{reason="lag",refused="game"}', 2),
        ('{reason="lag",refused="move"}', 3),
    ):
        assert counts[labels] - counted.get(labels, 0) == more


def test_the_new_game_form_says_when_to_try_again_and_keeps_its_values(
    c: TestClient, db: Path
) -> None:
    before = dump(db)
    pressed(c, lag=0.5)
    form = {"game": "archmagi", "players": "3", "seat_0": "human", "seat_1": "greedy"}
    form["seat_2"] = "random"
    r = c.post("/new", data=form, headers={"accept": "text/html"})
    assert r.status_code == 503 and r.headers["retry-after"] == str(RETRY_GAME)
    assert "too busy to start new games" in r.text
    assert f'"retry_after": {RETRY_GAME}' in r.text  # for the page's countdown
    assert '"players": "3"' in r.text  # the form as it was sent
    assert dump(db) == before


def test_requests_in_progress_and_waiting_bots_are_measured(tmp_path: Path) -> None:
    """The real measures: a request counts itself among those in progress; a backlog of bots
    refuses new games only."""
    with client(tmp_path / "g.sqlite3", overload_requests=1, overload_bots=3) as c:
        links = new_game(c, "battle-merchants", ["human", "human"])  # 1 in progress: itself
        gid, tokens = links["id"], seat_tokens(links)
        counted = refusals(c)
        load = load_of(c)
        load.in_flight += 1  # one more request under way
        r = c.post("/api/games", json=NEW_GAME)
        assert r.status_code == 503 and r.headers["retry-after"] == str(RETRY_GAME)
        token, body = move_of(c, gid, tokens)  # moves: refused past 4 in progress
        assert c.post(f"/api/games/{gid}/move", headers=auth(token), json=body).status_code == 200
        load.in_flight += 3
        token, body = move_of(c, gid, tokens)
        assert c.post(f"/api/games/{gid}/move", headers=auth(token), json=body).status_code == 503
        load.in_flight -= 4
        load.bots = lambda: 4
        assert c.post("/api/games", json=NEW_GAME).status_code == 503
        assert c.post(f"/api/games/{gid}/move", headers=auth(token), json=body).status_code == 200
        load.bots = lambda: 3
        assert c.post("/api/games", json=NEW_GAME).status_code == 201
        counts = refusals(c)
        for measure, what in (("requests", "game"), ("requests", "move"), ("bots", "game")):
            labels = f'{{reason="{measure}",refused="{what}"}}'
            assert counts[labels] - counted.get(labels, 0) == 1
        assert load.in_flight == 0  # every request answered


def test_zero_turns_the_measures_off(tmp_path: Path) -> None:
    off = {"overload_lag": 0.0, "overload_requests": 0, "overload_bots": 0}
    with client(tmp_path / "g.sqlite3", **off) as c:
        pressed(c, lag=100.0, requests=10**6, bots=10**6)
        assert c.post("/api/games", json=NEW_GAME).status_code == 201


def test_a_blocked_event_loop_is_measured_as_lag() -> None:
    async def blocked() -> float:
        load = Load(Settings())
        load.start()
        await asyncio.sleep(0.25)
        time.sleep(0.5)  # the loop runs nothing meanwhile: the next timer fires 0.4 s late
        await asyncio.sleep(0.15)
        busy = load.lag
        await load.close()
        return busy

    assert asyncio.run(blocked()) > 0.05


@pytest.mark.parametrize(
    ("option", "value"),
    [("--overload-lag", "-1"), ("--overload-requests", "-2"), ("--overload-bots", "x")],
)
def test_serve_refuses_bad_overload_options(option: str, value: str) -> None:
    from typer.testing import CliRunner

    from rulebook.cli import app

    result = CliRunner().invoke(app, ["serve", option, value])
    assert result.exit_code != 0
