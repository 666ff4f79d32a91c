"""The web app as a real process and on a real PostgreSQL server.

* ``kill -9`` mid-game (bots playing, a person moving), restart: no acknowledged move is lost
  and every game resumes, bots included;
* a whole game on a throwaway PostgreSQL server, through the same code as SQLite, and the game
  read back by a second app on the same database.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pgtemp import missing, postgres
from rulebook.web import Settings, create_app
from webserver import Server
from webtools import auth, token_of

GAMES = [
    ("merchants-of-magick", ["human", "greedy", "greedy"], {}),
    ("pandoria-merchants", ["human", "random"], {}),
    ("battle-merchants", ["greedy", "greedy", "random", "greedy"], {}),
    ("archmagi", ["random", "greedy"], {}),
    ("ye-olde-magick-shoppe", ["human"], {"variant": "solo"}),
]


def create(http: httpx.Client, game: str, seats: list[str], extra: dict[str, Any]) -> Any:
    r = http.post("/api/games", json={"game": game, "players": len(seats), "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def public_log(http: httpx.Client, gid: str) -> list[tuple[int, str]]:
    view = http.get(f"/api/games/{gid}/view").json()["views"][0]
    return [(e["seat"], e["text"]) for e in view["log"] if not e.get("event")]


class Person(threading.Thread):
    """Plays every human seat of some games by random legal moves, recording each move the
    server acknowledged, until told to stop (or the server is gone)."""

    def __init__(self, url: str, seats: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.seats = seats  # game id -> token of seat 0
        self.acknowledged: dict[str, list[str]] = {gid: [] for gid in seats}
        self.halt = threading.Event()
        self.rng = random.Random(7)

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=5) as http:
            while not self.halt.is_set():
                try:
                    self.step(http)
                except httpx.HTTPError:
                    return  # the server was killed

    def step(self, http: httpx.Client) -> None:
        for gid, token in self.seats.items():
            view = http.get(f"/api/games/{gid}/view", headers=auth(token)).json()["views"][0]
            if not view["legal"]:
                continue
            move = self.rng.choice(view["legal"])["text"]
            body = {"seat": 0, "move": move, "version": view["version"]}
            r = http.post(f"/api/games/{gid}/move", headers=auth(token), json=body)
            if r.status_code == 200:
                self.acknowledged[gid].append(move)


def finish(http: httpx.Client, person: Person, games: list[str], timeout: float = 120) -> None:
    """Play the human seats to the end; wait for the bots to end theirs."""
    end = time.monotonic() + timeout
    while True:
        views = [http.get(f"/api/games/{g}/view").json()["views"][0] for g in games]
        if all(v["over"] for v in views):
            return
        assert time.monotonic() < end, "the games did not finish after the restart"
        person.step(http)
        time.sleep(0.01)


def test_kill_9_loses_no_acknowledged_move_and_every_game_resumes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    log = tmp_path / "server.log"
    server = Server(db, log).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            created = [create(http, g, s, x) for g, s, x in GAMES]
            ids = [c["id"] for c in created]
            humans = {c["id"]: token_of(c["seats"][0]["url"]) for c in created if c["seats"]}
            person = Person(server.url, humans)
            person.start()
            time.sleep(2.5)
            seen = {gid: public_log(http, gid) for gid in ids}
            time.sleep(0.5)
            server.kill()  # mid-game: the person and the bots are moving
            person.halt.set()
            person.join(10)
        assert any(len(s) > 3 for s in seen.values()), "nothing was played before the kill"
        tokens = list(humans.values())
        server = Server(db, log).start()
        with httpx.Client(base_url=server.url, timeout=10) as http:
            for gid in ids:
                now = public_log(http, gid)
                assert now[: len(seen[gid])] == seen[gid], "a move everyone was shown is lost"
            for gid, token in humans.items():
                mine = http.get(f"/api/games/{gid}/view", headers=auth(token)).json()["views"][0]
                own = [e["text"] for e in mine["log"] if e["seat"] == 0 and not e.get("event")]
                acked = person.acknowledged[gid]
                assert len(own) >= len(acked), "an acknowledged move is lost"
                for told, move in zip(own, acked, strict=False):
                    assert told.startswith(move)
            before_restart = {gid: len(person.acknowledged[gid]) for gid in humans}
            finish(http, person, ids)
            for gid in humans:
                saved = http.get(f"/api/games/{gid}/save").json()
                played = [m for p, m in saved["log"] if p == 0]
                acked = person.acknowledged[gid]
                k = before_restart[gid]
                # a move the server committed as it was killed may never have been acknowledged
                # (its answer was lost): at most that one stands between the two runs' moves
                assert played[:k] == acked[:k], "an acknowledged move is lost or changed"
                rest, after = played[k:], acked[k:]
                assert len(rest) - len(after) in (0, 1), "moves nobody made were played"
                assert rest[len(rest) - len(after) :] == after, "an acknowledged move is lost"
    finally:
        server.stop()
    text = log.read_text()
    assert "Traceback" not in text
    assert all(t not in text for t in tokens), "a token reached the server's log"


@pytest.mark.skipif(missing() is not None, reason=f"no PostgreSQL here: {missing()}")
def test_a_game_on_postgresql() -> None:
    with postgres(fsync=False) as url:
        settings = Settings(db_url=url, bot_delay=0, bot_workers=0)
        with TestClient(create_app(settings)) as c:
            r = c.post(
                "/api/games",
                json={"game": "battle-merchants", "players": 2, "seats": ["human", "greedy"]},
            )
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            token = token_of(r.json()["seats"][0]["url"])
            rng = random.Random(1)
            moves = 0
            while True:
                view = c.get(f"/api/games/{gid}/view", headers=auth(token)).json()["views"][0]
                if view["over"]:
                    break
                if view["legal"]:
                    move = rng.choice(view["legal"])["text"]
                    body = {"seat": 0, "move": move, "version": view["version"]}
                    r = c.post(f"/api/games/{gid}/move", headers=auth(token), json=body)
                    assert r.status_code == 200, r.text
                    moves += 1
                else:
                    time.sleep(0.01)
            final = view
            assert moves > 10 and final["result"]["winners"]
        with TestClient(create_app(settings)) as again:  # a second app: read back by replay
            view = again.get(f"/api/games/{gid}/view", headers=auth(token)).json()["views"][0]
            assert view == final
            saved = again.get(f"/api/games/{gid}/save").json()
            assert len(saved["log"]) == final["version"]


def _workers(pid: int) -> set[int]:
    """The worker processes (:mod:`rulebook.web.worker`) that process ``pid`` started."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and b"rulebook.web.worker" in command:
            found.add(int(stat.parent.name))
    return found


def _moves(http: httpx.Client, gid: str) -> tuple[int, bool]:
    view = http.get(f"/api/games/{gid}/view").json()["views"][0]
    return view["version"], view["over"]


def _wait(check: Any, timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, what
        time.sleep(0.05)
    return found


def test_a_killed_bot_worker_is_replaced_and_the_bots_play_on(tmp_path: Path) -> None:
    """kill -9 of the bots' worker processes: the server starts new ones and the bots move."""
    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", log, 0.2, access_log=False)
    server.start()
    try:
        assert server.process is not None
        with httpx.Client(base_url=server.url, timeout=10) as http:
            # three games, so that several moves are asked for when the worker dies
            seats = ["mcts-quick", "greedy"]
            ids = [create(http, "battle-merchants", seats, {})["id"] for _ in range(3)]
            _wait(lambda: all(_moves(http, g)[0] >= 2 for g in ids), 60, "no bot moved")
            killed = _wait(lambda: _workers(server.process.pid), 30, "no worker processes")
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
            at = {g: _moves(http, g)[0] for g in ids}

            def moved_on() -> bool:
                now = {g: _moves(http, g) for g in ids}
                return all(over or n >= at[g] + 3 for g, (n, over) in now.items())

            _wait(moved_on, 60, "the bots stopped when their worker was killed")
            assert _workers(server.process.pid) - killed, "no new worker took over"
            # the server's WebSocket takes no frame over the limit (4 KiB): closed with 1009
            ws_url = server.url.replace("http://", "ws://") + f"/ws/games/{ids[0]}"
            with connect(ws_url) as ws:
                ws.send(json.dumps({"spectate": True}))
                assert json.loads(ws.recv(10))["type"] == "hello"
                ws.send("x" * 10_000)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        ws.recv(10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        server.stop()
    text = log.read_text()
    assert "worker process stopped" in text  # the server noticed, in one line
    assert "Traceback" not in text
    assert "GET /" not in text, "the access log is on although it was asked off"
