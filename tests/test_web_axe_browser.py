"""axe-core's checks of every page, in Debian's chromium at 1280x800 and on a 390x844 phone:
the home page (with "my games" and an open table), a new game's links page, each game's how to
play and card reference, and a game page of each game (Pandoria Merchants' solo too). No
violation of impact "serious" or "critical" may be left, the board's included.

One server and one browser serve the module (``xdist_group``: one worker runs it). axe fetches
the stylesheets again to read them and asks for a board's imported ones beside the page: those
requests fail (404) and are no error of the page, so this module does not watch the console.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from boardpages import CHROMIUM, EVERY_GAME
from webserver import Server

pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [
    pytest.mark.xdist_group("axe-browser"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
GAMES = [
    "merchants-of-magick",
    "ye-olde-magick-shoppe",
    "battle-merchants",
    "pandoria-merchants",
    "archmagi",
]
#: (game, variant, seats, options): the five games and Pandoria Merchants' solo
CONFIGS = EVERY_GAME
#: the impacts that fail a page
GRAVE = {"serious", "critical"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("axe")
    log = folder / "server.log"
    with Server(f"sqlite:///{folder / 'games.sqlite3'}", log) as running:
        yield running
    assert "Traceback" not in log.read_text()


@pytest.fixture(scope="module")
def axe() -> Any:
    return axe_sync.Axe()


def opened(browser: Any, viewport: str) -> Any:
    return browser.new_context(**VIEWPORTS[viewport]).new_page()


def create(server: Server, game: str, variant: str, seats: list[str], options: Any) -> Any:
    body = {"game": game, "variant": variant, "players": len(seats), "seats": seats}
    r = httpx.post(f"{server.url}/api/games", json={**body, "options": options})
    assert r.status_code == 201, r.text
    return r.json()


def grave(axe: Any, page: Any) -> list[str]:
    """The page's serious and critical violations: each rule's id, impact, count of nodes,
    and its first node's target and HTML."""
    found = []
    # the style sheets are not fetched again: axe would ask for a board.css's @import from
    # the page's own address (a 404 in the server's log)
    options = {"resultTypes": ["violations"], "preload": False}
    for v in axe.run(page, options=options).response["violations"]:
        if v["impact"] in GRAVE:
            node = v["nodes"][0]
            found.append(
                f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): "
                f"{node['target']} {node['html'][:200]}"
            )
    return found


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_home_links_rules_and_card_pages(
    server: Server, browser: Any, axe: Any, viewport: str
) -> None:
    page = opened(browser, viewport)
    try:
        links = create(server, "archmagi", "standard", ["human", "greedy", "open"], {})
        problems = {}
        page.goto(server.url + links["links_page"])
        page.wait_for_selector("#links[data-ready=yes]")
        problems["links"] = grave(axe, page)
        page.goto(server.url + links["seats"][0]["url"])  # a game of its own, for "my games"
        page.wait_for_selector("#game[data-live=yes]")
        page.goto(f"{server.url}/")
        page.wait_for_selector("#my-games[data-ready=yes]")
        page.wait_for_selector("#open-tables[data-ready=yes]")
        problems["home"] = grave(axe, page)
        for game in GAMES:
            for kind in ("rules", "cards"):
                page.goto(f"{server.url}/{kind}/{game}")
                problems[f"{kind}/{game}"] = grave(axe, page)
        left = [f"{name}: {problem}" for name, found in problems.items() for problem in found]
        assert not left, "\n".join(left)
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize(
    ("game", "variant", "seats", "options"), CONFIGS, ids=[f"{c[0]}-{c[1]}" for c in CONFIGS]
)
def test_a_game_page(
    server: Server,
    browser: Any,
    axe: Any,
    viewport: str,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str],
) -> None:
    page = opened(browser, viewport)
    try:
        links = create(server, game, variant, seats, options)
        page.goto(server.url + links["seats"][0]["url"])
        page.wait_for_selector("#game[data-live=yes]")
        page.wait_for_selector("#moves button.move, #moves summary", timeout=60_000)
        found = grave(axe, page)
        assert not found, "\n".join(found)
    finally:
        page.context.close()
