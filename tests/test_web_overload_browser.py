"""The game page under load, in Debian's chromium: a move refused because the server is past
what it can serve (503, ``Retry-After``) is not lost. The page tells the player in words to
wait, keeps its WebSocket, and posts the same move again by itself once the wait is over; it
lands then. One page load; the server runs in this process (uvicorn in a thread) so that the
test can set its load measure by hand: nothing depends on the machine's speed."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from boardpages import CHROMIUM, wait_until
from pgtemp import free_port

pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

pytestmark = [
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]


class InThread:
    """The app served by uvicorn in a thread of the test process, on a free port."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.url = ""
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def __enter__(self) -> InThread:
        port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 60
        while not self.server.started:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        assert self.thread is not None
        self.thread.join(30)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[InThread, Any]]:
    from rulebook.web import Settings, create_app

    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    app = create_app(Settings(db_url=db, bot_delay=0.0, bot_workers=0, lab=False))
    with InThread(app) as running:
        yield running, app.state.load


def test_a_refused_move_is_sent_again_after_the_wait_and_lands(
    served: tuple[InThread, Any], browser: Any
) -> None:
    server, load = served
    body = {"game": "battle-merchants", "players": 2, "seats": ["human", "human"]}
    links = httpx.post(f"{server.url}/api/games", json=body, timeout=30).json()
    gid = links["id"]
    public = httpx.get(f"{server.url}/api/games/{gid}/view", timeout=30).json()["views"][0]
    seat = public["to_act"][0]
    link = next(s["url"] for s in links["seats"] if s["seat"] == seat)

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}{link}")
        page.wait_for_selector("#moves button.move")
        wait_until(page, "document.querySelector('#game').dataset.live === 'yes'")
        button = page.locator("#moves button.move").first
        made = button.get_attribute("data-move")

        load.measure = lambda: (10.0, 0, 0)  # far past the moves' threshold
        button.click()
        wait_until(page, "document.querySelector('#game').dataset.waiting === 'yes'")
        said = page.inner_text("#error")
        assert "server is busy" in said and "Please wait" in said and made in said, said
        assert "sends it again by itself in 2 s" in said
        public = httpx.get(f"{server.url}/api/games/{gid}/view", timeout=30).json()["views"][0]
        assert public["version"] == 0  # refused: nothing changed

        load.measure = lambda: (0.0, 0, 0)  # the load falls before the wait is over
        wait_until(page, "Number(document.querySelector('#game').dataset.version) === 1", 15)
        assert page.locator("#error").is_hidden()
        assert page.get_attribute("#game", "data-live") == "yes"  # the socket stayed open
        public = httpx.get(f"{server.url}/api/games/{gid}/view", timeout=30).json()["views"][0]
        assert public["version"] == 1
        moves = [line for line in public["log"] if not line.get("event")]
        assert [line["seat"] for line in moves] == [seat]
    finally:
        context.close()
    assert errors == [], errors
