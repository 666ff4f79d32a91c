"""What operators watch: ``/metrics`` (its names, a move moving its counters, no game id or
token in a label) and ``/healthz`` (ready only while the database answers)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

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
