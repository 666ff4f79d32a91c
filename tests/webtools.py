"""Helpers of the web app's tests: an app on a throwaway SQLite file, its stored rows, links."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from rulebook.web import Settings, create_app


@contextmanager
def client(path: Path, **settings: Any) -> Iterator[TestClient]:
    """A test client of an app storing in ``path`` (bots in a thread, no pause; no refusals
    for the event loop's lag, which a busy test machine would cause: the overload tests set
    the load by hand)."""
    options = {"bot_delay": 0.0, "bot_workers": 0, "overload_lag": 0.0, **settings}
    app = create_app(Settings(db_url=f"sqlite:///{path}", **options))
    with TestClient(app) as c:
        yield c


def dump(path: Path) -> str:
    """Every stored row, as SQL text: equal dumps mean byte-identical stored games."""
    with sqlite3.connect(path) as db:
        return "\n".join(db.iterdump())


def token_of(url: str) -> str:
    return url.split("#", 1)[1]


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def new_game(c: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": game, "players": len(seats), "seats": seats, **extra})
    assert r.status_code == 201, r.text
    links: dict[str, Any] = r.json()
    return links


def seat_tokens(links: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: token_of(s["url"]) for s in links["seats"]}


def get_view(c: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    payload: dict[str, Any] = r.json()["views"][0]
    return payload


def wait_for(check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll until ``check()`` holds (bots move in the background)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)
