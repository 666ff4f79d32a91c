"""The web app in Debian's chromium, driven by Playwright as a person would: two browsers play
a whole 2-player Merchants of Magick game from their links by clicking; every other game, every
variant and every solo mode is created from the home page and played for several moves; the
hot-seat screen, the spectator's page, a phone-sized screen and the keyboard.

One server and one browser serve the whole module (``xdist_group``: one worker runs it). The
pages' screenshots go to a temporary folder, or to ``$RULEBOOK_SCREENSHOTS`` when set:
``RULEBOOK_SCREENSHOTS=docs/screenshots pytest tests/test_web_browser.py`` renews the ones kept
in ``docs/screenshots/`` (checked by eye; the README shows one).
"""

from __future__ import annotations

import random
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from boardpages import CHROMIUM, click_listed
from webserver import Server

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("browser")
    with Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log") as running:
        yield running
    assert "Traceback" not in (folder / "server.log").read_text()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda e: errors.append(str(e)))
    # console errors: a refused script or style (Content Security Policy), a failed request
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield opened
    context.close()
    assert errors == [], errors


def version(page: Any) -> int:
    return int(page.get_attribute("#game", "data-version") or -1)


def wait_version(page: Any, above: int, timeout: float = 30.0) -> None:
    """Wait until the page shows more than ``above`` moves (polled: the pages' Content
    Security Policy forbids the script evaluation ``wait_for_function`` needs)."""
    end = time.monotonic() + timeout
    while version(page) <= above:
        assert time.monotonic() < end, f"the page stayed at move {version(page)}"
        page.wait_for_timeout(20)


def click_move(page: Any, rng: random.Random, done_share: float = 0.3) -> bool:
    """Click one of the page's legal-move buttons (``done`` now and then); False if none."""
    buttons = page.locator("#moves button.move")
    count = buttons.count()
    if count == 0:
        return False
    texts = [buttons.nth(i).get_attribute("data-move") for i in range(count)]
    others = [i for i, t in enumerate(texts) if t != "done"]
    if not others or ("done" in texts and rng.random() < done_share):
        pick = texts.index("done") if "done" in texts else 0
    else:
        pick = rng.choice(others)
    before = version(page)
    click_listed(buttons.nth(pick))
    wait_version(page, before)
    return True


def open_seat(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#game[data-live='yes']")
    page.wait_for_selector("#game[data-version]")


def create_from_home(
    page: Any,
    server: Server,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str] | None = None,
) -> None:
    """Fill the home page's form and open seat 1's link from the links page."""
    page.goto(server.url + "/")
    page.wait_for_selector("#new-form[data-ready='yes']")
    page.select_option("#game", game)
    page.select_option("#variant", variant)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    for name, value in (options or {}).items():
        field = f"#option_{name}"  # a list of choices, or text for an option given by a rule
        if page.eval_on_selector(field, "e => e.tagName") == "SELECT":
            page.select_option(field, value)
        else:
            page.fill(field, value)
    for p, kind in enumerate(seats):
        page.select_option(f"#seat_{p}", kind)
    page.click("#new-form button[type=submit]")
    page.wait_for_selector("a.open[data-seat='0']")
    page.click("a.open[data-seat='0']")
    page.wait_for_selector("#game[data-live='yes']")
    page.wait_for_selector("#game[data-version]")


def test_two_browsers_play_merchants_of_magick_to_the_end(
    browser: Any, server: Server, shots: Path
) -> None:
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "merchants-of-magick", "players": 2, "seats": ["human", "human"]},
    )
    links = r.json()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    try:
        for page, seat in zip(pages, links["seats"], strict=True):
            open_seat(page, server.url + seat["url"])
        rng = random.Random(5)
        for _ in range(400):
            if all(p.locator("#result:not([hidden])").count() for p in pages):
                break
            # "done" often (7 in 10 where offered): a game of about 30 moves, not 44; still every
            # round of both seats through both pages to the end
            moved = [click_move(p, rng, done_share=0.7) for p in pages]
            if not any(moved):
                pages[0].wait_for_timeout(50)
        for page in pages:
            page.wait_for_selector("#result:not([hidden])")
            assert "Game over" in page.inner_text("#result")
            assert page.locator("#moves button.move").count() == 0
        pages[0].screenshot(path=str(shots / "merchants-of-magick-standard-2p-end.png"))
        scores = pages[0].inner_text("#result table")
        assert scores == pages[1].inner_text("#result table")
        # replay from the log, and the save file once the game is over
        pages[0].click("#replay-first")
        pages[0].wait_for_selector("#replay-live:not([hidden])")
        assert pages[0].inner_text("#replay-step").startswith("0 /")
        pages[0].click("#replay-next")
        playwright_api.expect(pages[0].locator("#replay-step")).to_have_text(re.compile("^1 /"))
        pages[0].click("#replay-live")
        assert pages[0].get_attribute("#save", "href").endswith("/save")
    finally:
        for c in contexts:
            c.close()


GAMES = [
    ("merchants-of-magick", "solo", ["human"], {}),
    ("ye-olde-magick-shoppe", "standard", ["human", "greedy"], {}),
    ("ye-olde-magick-shoppe", "solo", ["human"], {}),
    ("battle-merchants", "standard", ["human", "greedy"], {}),
    ("battle-merchants", "standard", ["human", "random", "mcts-quick"], {}),
    ("pandoria-merchants", "standard", ["human", "greedy"], {}),
    ("pandoria-merchants", "family", ["human", "random", "greedy"], {}),
    ("pandoria-merchants", "solo", ["human"], {"level": "expert"}),
    ("archmagi", "standard", ["human", "greedy"], {"magi": "fire,water"}),
]


@pytest.mark.parametrize(("game", "variant", "seats", "options"), GAMES)
def test_every_game_from_the_home_page(
    page: Any,
    server: Server,
    shots: Path,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str],
) -> None:
    create_from_home(page, server, game, variant, seats, options)
    rng = random.Random(len(seats))
    made = 0
    deadline = time.monotonic() + 60  # bots answer slower on a busy machine
    while made < 6 and time.monotonic() < deadline:
        if page.locator("#result:not([hidden])").count():
            break
        if click_move(page, rng, done_share=0.1):
            made += 1
        else:
            page.wait_for_timeout(50)
    assert made >= 6, f"only {made} moves were offered"
    own = page.locator("#log li.mine:not(.event)").count()
    assert own >= 1
    assert page.inner_text("#variant").startswith(variant)
    page.screenshot(path=str(shots / f"{game}-{variant}-{len(seats)}p.png"))


def test_hotseat_hides_each_seat_while_the_device_is_passed(page: Any, server: Server) -> None:
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "archmagi", "players": 2, "seats": ["human", "human"]},
    )
    link = r.json()["hotseat"]["url"]
    page.goto(server.url + link)
    page.wait_for_selector("#pass:not([hidden])")
    assert page.locator("#table").is_hidden()
    first = page.inner_text("#pass-ready")
    page.click("#pass-ready")
    page.wait_for_selector("#moves button.move")
    hand = page.inner_text("#board")
    rng = random.Random(1)
    for _ in range(30):  # play until the other seat is to move: the pass screen comes back
        if page.locator("#pass:not([hidden])").count():
            break
        click_move(page, rng, done_share=0.0)
    page.wait_for_selector("#pass:not([hidden])")
    assert page.inner_text("#pass-ready") != first
    assert page.locator("#table").is_hidden()
    assert page.inner_text("#board") == ""  # the previous seat's hand is gone from the page
    page.click("#pass-ready")
    page.wait_for_selector("#moves button.move")
    assert page.inner_text("#board") != hand


def test_spectator_phone_and_keyboard(browser: Any, server: Server, shots: Path) -> None:
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "pandoria-merchants", "players": 2, "seats": ["human", "greedy"]},
    )
    links = r.json()
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    watcher = browser.new_context()
    try:
        page = phone.new_page()
        open_seat(page, server.url + links["seats"][0]["url"])
        spectator = watcher.new_page()
        open_seat(spectator, server.url + links["spectator"])
        assert "spectator" in spectator.inner_text("#whoami")
        assert spectator.locator("#moves button").count() == 0
        before = version(spectator)
        page.locator("#moves button.move").first.focus()
        page.keyboard.press("Enter")
        wait_version(spectator, before)
        box = page.locator(".moves-panel").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        page.screenshot(path=str(shots / "phone.png"))
    finally:
        phone.close()
        watcher.close()


def test_a_closed_tab_resumes_where_it_was(browser: Any, server: Server) -> None:
    """The first tab built its payloads from the server's deltas after the first; the tab
    opened again draws the whole payload: the same board and log."""
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "ye-olde-magick-shoppe", "players": 2, "seats": ["human", "human"]},
    )
    url = server.url + r.json()["seats"][0]["url"]
    first = browser.new_context()
    page = first.new_page()
    open_seat(page, url)
    rng = random.Random(2)
    for _ in range(3):
        click_move(page, rng, done_share=0.0)
    log = page.inner_text("#log")
    board = page.inner_text("#board")
    moves = version(page)
    first.close()  # the tab is closed
    again = browser.new_context()
    try:
        page = again.new_page()
        open_seat(page, url)
        assert version(page) == moves and page.inner_text("#log") == log
        assert page.inner_text("#board") == board
        assert click_move(page, rng, done_share=0.0)  # and play goes on
    finally:
        again.close()


def test_the_page_reconnects_when_the_server_comes_back(browser: Any, server: Server) -> None:
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "archmagi", "players": 2, "seats": ["human", "human"]},
    )
    links = r.json()
    context = browser.new_context()  # its console shows the refused connections: expected
    page = context.new_page()
    open_seat(page, server.url + links["seats"][0]["url"])
    moves = version(page)
    server.stop()
    page.wait_for_selector("#game[data-live='no']")
    assert "reconnecting" in page.inner_text("#connection")
    server.start()
    page.wait_for_selector("#game[data-live='yes']", timeout=60_000)
    seat = httpx.get(f"{server.url}/api/games/{links['id']}/view").json()["views"][0]["to_act"][0]
    token = links["seats"][seat]["url"].split("#")[1]
    legal = httpx.get(
        f"{server.url}/api/games/{links['id']}/view", headers={"authorization": f"Bearer {token}"}
    ).json()["views"][0]["legal"]
    httpx.post(
        f"{server.url}/api/games/{links['id']}/move",
        headers={"authorization": f"Bearer {token}"},
        json={"seat": seat, "move": legal[0]["text"]},
    )
    wait_version(page, moves)  # the move reached the reconnected page
    context.close()
