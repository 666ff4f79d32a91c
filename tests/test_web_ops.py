"""What operators watch: ``/metrics`` (its names, a move moving its counters, no game id or
token in a label) and ``/healthz`` (ready only while the database answers)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pgtemp import free_port
from webserver import Server
from webtools import auth, client, get_view, new_game, seat_tokens, wait_for

NAMES = {
    "rulebook_http_request_duration_seconds",
    "rulebook_moves",
    "rulebook_move_to_viewer_seconds",
    "rulebook_games_in_memory",
    "rulebook_websocket_connections",
    "rulebook_bot_queue_depth",
    "rulebook_bot_think_seconds",
    "rulebook_db_call_duration_seconds",
    "rulebook_db_calls_in_progress",
    "rulebook_notifications_sent",
    "rulebook_notifications_received",
    "rulebook_lab_runs_running",
    "rulebook_lab_runs_started",
}


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(c: TestClient) -> tuple[str, Samples]:
    r = c.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    samples = {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }
    return r.text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_metrics_name_everything_and_a_move_moves_them(tmp_path: Path) -> None:
    with client(tmp_path / "g.db") as c:
        text, _ = scrape(c)
        families = {f.name for f in text_string_to_metric_families(text)}
        assert families >= NAMES, NAMES - families
        links = new_game(c, "battle-merchants", ["human", "human"])
        gid = links["id"]
        tokens = seat_tokens(links)
        view = get_view(c, gid, tokens[0])
        seat = view["to_act"][0]
        move = next(m["text"] for m in get_view(c, gid, tokens[seat])["legal"])
        with c.websocket_connect(f"/ws/games/{gid}") as spectator:
            spectator.send_text(json.dumps({"spectate": True}))
            assert spectator.receive_json()["type"] == "hello"
            assert spectator.receive_json()["view"]["version"] == 0
            _, before = scrape(c)
            assert value(before, "rulebook_websocket_connections") >= 1
            assert value(before, "rulebook_games_in_memory") >= 1
            r = c.post(
                f"/api/games/{gid}/move",
                headers=auth(tokens[seat]),
                json={"seat": seat, "move": move},
            )
            assert r.status_code == 200, r.text
            while spectator.receive_json()["view"]["version"] != 1:
                pass
            # the frame is timed once it is written: the next scrape sees it
            wait_for(
                lambda: (
                    value(scrape(c)[1], "rulebook_move_to_viewer_seconds_count")
                    > value(before, "rulebook_move_to_viewer_seconds_count")
                )
            )
            text, after = scrape(c)
        moves = ("rulebook_moves_total", {"game": "battle-merchants", "by": "person"})
        assert value(after, moves[0], **moves[1]) == value(before, moves[0], **moves[1]) + 1
        route = {"method": "POST", "route": "/api/games/{game_id}/move", "status": "200"}
        count = "rulebook_http_request_duration_seconds_count"
        assert value(after, count, **route) == value(before, count, **route) + 1
        db = "rulebook_db_call_duration_seconds_count"
        assert value(after, db) > value(before, db)
        # route templates only: no game id, no token anywhere in the figures
        assert gid not in text and not any(t in text for t in tokens.values())
        sockets = value(before, "rulebook_websocket_connections")
        wait_for(lambda: value(scrape(c)[1], "rulebook_websocket_connections") == sockets - 1)


def test_healthz_ready_only_while_the_database_answers(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with client(folder / "g.db") as c:
        r = c.get("/healthz")
        assert (r.status_code, r.json()) == (200, {"status": "ok"})
        # the database goes away: its folder moved, the store's open connections closed
        c.app.state.games.store.engine.dispose()  # type: ignore[attr-defined]
        folder.rename(tmp_path / "moved")
        wait_for(lambda: c.get("/healthz").status_code == 503, timeout=10)
        r = c.get("/healthz")
        assert r.headers["retry-after"].isdigit()
        assert r.json()["status"] == "unavailable" and "database" in r.json()["error"]
        assert "Traceback" not in r.text and "g.db" not in r.text
        (tmp_path / "moved").rename(folder)
        wait_for(lambda: c.get("/healthz").status_code == 200, timeout=10)


def test_operators_routes_are_not_turned_away_with_a_client(tmp_path: Path) -> None:
    """A client refused too often gets 429 everywhere but ``/healthz`` and ``/metrics``."""
    with client(tmp_path / "g.db", max_refusals=3) as c:
        for _ in range(4):
            c.get("/api/games/nope/view")
        assert c.get("/api/games").status_code == 429
        assert c.get("/healthz").status_code == 200
        assert c.get("/metrics").status_code == 200


# -- a real server: JSON log lines, and a graceful stop on SIGTERM --------------------------------
def test_json_logs_and_a_graceful_stop(tmp_path: Path) -> None:
    """``--log-format json``: every line of the output is one JSON object with the request's id
    (and game and seat where known), no token in any; SIGTERM closes each WebSocket with 1012
    and a reason the page reads as "reconnect", and the server exits 0 without a traceback."""
    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{tmp_path / 'g.db'}", log, extra=("--log-format", "json"))
    with server:
        http = httpx.Client(base_url=server.url, timeout=10)
        r = http.post(
            "/api/games",
            json={"game": "battle-merchants", "players": 2, "seats": ["human", "human"]},
            headers={"x-request-id": "probe-1"},
        )
        assert r.status_code == 201 and r.headers["x-request-id"] == "probe-1"
        links = r.json()
        gid, tokens = links["id"], seat_tokens(links)
        # a token where it never belongs (the URL), a wrong one, and a move refused
        http.get(f"/api/games/{gid}/view?token={tokens[0]}", headers=auth(tokens[1]))
        http.post(f"/api/games/{gid}/move", headers=auth(tokens[0]), json={"seat": 0, "move": "x"})
        url = server.url.replace("http://", "ws://") + f"/ws/games/{gid}"
        with connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"token": tokens[0]}))
            assert json.loads(ws.recv(10))["type"] == "hello"
            json.loads(ws.recv(10))  # the view
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(10)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1012 and "reconnect" in closed.value.rcvd.reason
        assert server.process.wait(20) == 0
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    assert "Traceback" not in text and not any(t in text for t in tokens.values())
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert any(line.get("request_id") == "probe-1" for line in access)
    refused = [line for line in access if "/move" in line["message"]]
    assert refused and refused[0]["game_id"] == gid and refused[0]["seat"] == 0


# -- behind nginx, as docs/web.md's "Running it" configures it ------------------------------------
NGINX = "/usr/sbin/nginx"
DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def nginx_block() -> str:
    """The nginx configuration docs/web.md points to, as shipped."""
    return (DEPLOY / "nginx-rulebook.conf").read_text(encoding="utf-8")


def test_the_shipped_nginx_configuration_is_complete() -> None:
    block = nginx_block()
    for header in ("Host", "X-Forwarded-Proto", "X-Forwarded-For", "Upgrade", "Connection"):
        assert f"proxy_set_header {header} " in block, header
    assert "listen 80;" in block and "server 127.0.0.1:8000;" in block


@pytest.mark.skipif(not Path(NGINX).exists(), reason=f"nginx is not installed ({NGINX})")
def test_a_post_and_a_websocket_through_nginx(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="rulebook-nginx-"))
    prefix: list[str] = []
    if os.geteuid() == 0:  # nginx runs as a user of its own, as a non-root server would
        prefix = ["runuser", "-u", "nobody", "--"]
        shutil.chown(folder, "nobody")
    port = free_port()
    with Server(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log") as server:
        block = nginx_block().replace("listen 80;", f"listen 127.0.0.1:{port};")
        block = block.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{server.port};")
        temp = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        conf = folder / "nginx.conf"
        conf.write_text(
            f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'};\nevents {{}}\n"
            f"http {{\n    access_log off;\n{temp}\n{block}\n}}\n"
        )
        command = [*prefix, NGINX, "-p", str(folder), "-c", str(conf), "-e", str(folder / "e.log")]
        nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            front = f"http://127.0.0.1:{port}"
            http = httpx.Client(base_url=front, timeout=10)
            end = time.monotonic() + 20
            while True:
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert nginx.poll() is None, (folder / "error.log").read_text()
                assert time.monotonic() < end, "nginx did not answer"
                time.sleep(0.1)
            # nginx's request id reaches the server and comes back
            assert re.fullmatch(r"[0-9a-f]{32}", http.get("/healthz").headers["x-request-id"])
            body = {"game": "battle-merchants", "players": 2, "seats": ["human", "human"]}
            r = http.post("/api/games", json=body, headers={"origin": front})
            assert r.status_code == 201, r.text  # same site as the browser saw it
            r = http.post("/api/games", json=body, headers={"origin": "http://evil.example"})
            assert r.status_code == 403
            gid = http.post("/api/games", json=body).json()["id"]
            ws_url = f"ws://127.0.0.1:{port}/ws/games/{gid}"
            with connect(ws_url, open_timeout=10, origin=front) as ws:  # type: ignore[arg-type]
                ws.send(json.dumps({"spectate": True}))
                assert json.loads(ws.recv(10))["type"] == "hello"
                assert json.loads(ws.recv(10))["view"]["version"] == 0
        finally:
            nginx.terminate()
            nginx.wait(10)
            shutil.rmtree(folder, ignore_errors=True)
