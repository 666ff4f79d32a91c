"""Learning a game in the real page, in Debian's chromium, as a newcomer would: for every game
and variant, the first-turn guide rings parts that exist; the how-to-play opens over the board
and closes back to the same place with the game still live; every move button reads in plain
words (the short form kept) and none is cut off or hidden without a sign, at 1280x800 and on a
390x844 phone; a log line reads in plain words; the components' tips (hover, focus, tap, long
press); and the defects of issue 23: a wrong seat link, reloading the links page, errors in
view on a phone, a move while the server is down.

One server and one browser serve the module (``xdist_group``: one worker runs it).
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import rulebook
from boardpages import CHROMIUM
from webserver import Server

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = [
    pytest.mark.xdist_group("learn-browser"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

#: (game, variant, seats, options): every game and variant (Battle Merchants with and without
#: Salesman Steve)
CONFIGS = [
    ("merchants-of-magick", "standard", ["human", "greedy"], {}),
    ("merchants-of-magick", "solo", ["human"], {}),
    ("ye-olde-magick-shoppe", "standard", ["human", "greedy"], {}),
    ("ye-olde-magick-shoppe", "solo", ["human"], {}),
    ("battle-merchants", "standard", ["human", "greedy"], {}),
    ("battle-merchants", "standard", ["human", "greedy", "greedy"], {}),
    ("pandoria-merchants", "standard", ["human", "greedy"], {}),
    ("pandoria-merchants", "family", ["human", "greedy"], {}),
    ("pandoria-merchants", "solo", ["human"], {"level": "expert"}),
    ("archmagi", "standard", ["human", "greedy"], {"magi": "fire,water"}),
]
IDS = [f"{g}-{v}-{len(s)}p" for g, v, s, _ in CONFIGS]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("learn")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Server]:
    with Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log") as running:
        yield running
    assert "Traceback" not in (folder / "server.log").read_text()


class Opened:
    """A browser context and its page, collecting the page's errors."""

    def __init__(self, browser: Any, phone: bool = False) -> None:
        #: console messages a test expects (the browser logs a refused request)
        self.expected: list[str] = []
        size = PHONE if phone else DESKTOP
        self.context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.sockets = 0
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)
        self.page.on("websocket", lambda _: self._socket())

    def _console(self, message: Any) -> None:
        if message.type == "error" and not any(e in message.text for e in self.expected):
            self.errors.append(message.text)

    def _socket(self) -> None:
        self.sockets += 1

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def desktop(browser: Any) -> Iterator[Opened]:
    opened = Opened(browser)
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


@pytest.fixture
def phone(browser: Any) -> Iterator[Opened]:
    opened = Opened(browser, phone=True)
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


def create(
    server: Server, game: str, variant: str, seats: list[str], options: dict[str, str]
) -> Any:
    body = {"game": game, "variant": variant, "players": len(seats), "seats": seats}
    r = httpx.post(server.url + "/api/games", json={**body, "options": options})
    assert r.status_code == 201, r.text
    return r.json()


def open_game(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#game[data-live='yes']")
    page.wait_for_selector("#game[data-version]")


def version(page: Any) -> int:
    return int(page.get_attribute("#game", "data-version") or -1)


def payload(server: Server, links: Any) -> dict[str, Any]:
    token = links["seats"][0]["url"].split("#")[1]
    r = httpx.get(
        f"{server.url}/api/games/{links['id']}/view", headers={"authorization": f"Bearer {token}"}
    )
    view: dict[str, Any] = r.json()["views"][0]
    return view


def wait_for_moves(page: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not page.locator("#moves button.move").count():
        assert time.monotonic() < end, "no move was offered"
        page.wait_for_timeout(40)


def wait_version(page: Any, above: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while version(page) <= above:
        assert time.monotonic() < end, f"the page stayed at move {version(page)}"
        page.wait_for_timeout(20)


# -- moves on the page: every one reachable, none cut off or hidden without a sign --------------
#: the problems of the move buttons now: a button inside a folded group counts when the
#: group's heading is in view with its count; any other must show whole once scrolled to, and
#: nothing around the list may scroll it out of sight (a scroll box is a sign only a scrollbar
#: gives, too easily missed)
MOVE_PROBLEMS = """() => {
  const problems = [];
  const box = document.getElementById("moves");
  for (let a = box; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    const scrolls = ["auto", "scroll", "hidden", "clip"].includes(s.overflowY);
    if (scrolls && a.scrollHeight > a.clientHeight + 1) {
      problems.push(`the list is in a scroll box: ${a.id || a.className}`);
    }
  }
  for (const button of box.querySelectorAll("button.move")) {
    const name = button.dataset.move;
    const folded = button.closest("details:not([open])");
    if (folded) {
      const summary = folded.querySelector("summary");
      const r = summary.getBoundingClientRect();
      const n = folded.querySelectorAll("button.move").length;
      if (!r.width || !r.height) problems.push(`${name}: its folded group's heading is hidden`);
      if (!summary.textContent.includes(`${n} move`)) problems.push(`${name}: no count`);
      continue;
    }
    button.scrollIntoView({ block: "center" });
    const r = button.getBoundingClientRect();
    if (!r.width || !r.height) problems.push(`${name}: hidden`);
    if (r.left < 0 || r.right > innerWidth + 0.5 || r.top < 0 || r.bottom > innerHeight + 0.5) {
      problems.push(`${name}: not whole on the screen`);
    }
    const w = button.scrollWidth > button.clientWidth + 1;
    if (w || button.scrollHeight > button.clientHeight + 1) {
      problems.push(`${name}: its text is cut off`);
    }
    for (let a = button.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      const out = r.left < b.left - 0.5 || r.right > b.right + 0.5;
      if (out || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) {
        problems.push(`${name}: cut off by ${a.id || a.className}`);
      }
    }
  }
  return problems;
}"""


def check_moves_reachable(page: Any) -> None:
    """No move button cut off or hidden without a sign, folded or unfolded."""
    assert page.evaluate(MOVE_PROBLEMS) == []
    summaries = page.locator("#moves details:not([open]) > summary")
    # unfold each group: its moves show whole too (the other seats' moves may redraw the list
    # meanwhile, keeping the groups unfolded so far: a group is clicked again if it closed)
    for _ in range(3 * summaries.count() + 3):
        if not summaries.count():
            break
        summaries.first.click()
        page.wait_for_timeout(20)
    assert page.locator("#moves details:not([open])").count() == 0
    assert page.evaluate(MOVE_PROBLEMS) == []


def check_moves_in_plain_words(page: Any, view: dict[str, Any]) -> None:
    """Each button: the move's plain words, and the short form kept for those who know it."""
    buttons = page.locator("#moves button.move")
    assert buttons.count() == len(view["legal"])
    for i, move in enumerate(view["legal"]):
        button = buttons.nth(i)
        assert button.get_attribute("data-move") == move["text"]
        assert button.locator(".plain").text_content() == move["plain"]
        assert button.locator(".short").text_content() == move["explain"]
    groups = [m["group"] for m in view["legal"] if m["group"]]
    for heading in dict.fromkeys(groups):
        assert page.locator(f'#moves [data-group="{heading}"] .move-heading').count() == 1


def check_log_in_plain_words(page: Any, view: dict[str, Any]) -> None:
    """Each move in plain words, its short form on demand; each step the rules took on their
    own (a line marked ``event``: :mod:`rulebook.core.events`) in its own words."""
    lines = page.locator("#log li")
    assert lines.count() == len(view["log"]) > 0
    for i, told in enumerate(view["log"]):
        line = lines.nth(i)
        if told.get("event") and told["seat"] is None:  # the table's own sentence
            assert line.text_content() == told["text"] and line.locator(".who").count() == 0
            continue
        who = "You" if told["seat"] == view["seat"] else f"Seat {told['seat'] + 1}"
        assert line.locator(".who").text_content().startswith(who)
        if told.get("event"):  # a step about one seat: the same words in both forms
            assert line.text_content().endswith(f" {told['text']}")
            continue
        assert line.locator(".plain").text_content() == f" {told['plain']}"
        assert line.locator(".plain").is_visible() and not line.locator(".short").is_visible()
    page.check("#short-forms")  # the short forms, for players who know the game
    # the last move compared by its place: a bot's move may add another below it meanwhile
    moves = [i for i, told in enumerate(view["log"]) if not told.get("event")]
    last = lines.nth(moves[-1])
    assert last.locator(".short").is_visible()
    assert not last.locator(".plain").is_visible()
    assert last.locator(".short").text_content() == f": {view['log'][moves[-1]]['text']}"
    page.uncheck("#short-forms")


def run_guide(page: Any) -> int:
    """Take the guide: each step rings a part that exists and is on the screen."""
    steps = json.loads(page.text_content("#guide-data") or "[]")
    assert len(steps) >= 3
    expect(page.locator("#guide-offer")).to_be_visible()
    page.click("#guide-start")
    for i, step in enumerate(steps):
        expect(page.locator("#guide-box")).to_have_attribute("data-step", str(i))
        assert page.inner_text("#guide-title") == step["title"]
        target = page.locator(step["target"]).first
        assert target.count() == 1, f"step {i + 1} points at nothing: {step['target']}"
        box = target.bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0
        assert box["y"] < page.viewport_size["height"], f"step {i + 1}'s part is off screen"
        expect(page.locator(".guide-ring")).to_be_visible()
        page.click("#guide-next")
    expect(page.locator("#guide-box")).to_be_hidden()
    assert page.get_attribute("#game", "data-guide") == "seen"
    return len(steps)


def check_howto_keeps_the_game(page: Any, opened: Opened, variant: str, players: int) -> None:
    """How to play opens over the board and closes back: same scroll, focus, socket, game."""
    link = page.locator("#howto-open")
    # scrolled down the page, the link near the top of the screen: where the panel must return
    page.evaluate(
        "() => window.scrollTo(0, document.getElementById('howto-open').getBoundingClientRect()"
        ".top + window.scrollY - 40)"
    )
    before = page.evaluate("() => [window.scrollX, window.scrollY]")
    sockets, moves, url = opened.sockets, version(page), page.url
    link.click()
    dialog = page.locator("#howto-dialog")
    expect(dialog).to_be_visible()
    assert page.get_attribute("#game", "data-howto") == "open"
    assert "The goal" in dialog.inner_text()
    section = page.locator(
        f"#howto-dialog #rules-{variant}, #howto-dialog #rules-players-{players}"
    )
    if section.count():  # the variant's own rules, one click away
        expect(page.locator("#howto-jump")).to_be_visible()
        page.click("#howto-jump-link")
        expect(section.first).to_be_in_viewport()
    page.locator("#howto-dialog .rules-toc a").last.click()  # a section of the panel
    assert page.url == url  # never this page's address: its fragment holds the seat's key
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # the page puts back the scroll and the focus on the dialog's "close" event, which the
    # browser fires in a task of its own after hiding it (a busy machine: some time after)
    page.wait_for_function(
        "([x, y]) => window.scrollX === x && window.scrollY === y", arg=before, timeout=5000
    )
    assert page.evaluate("() => document.activeElement.id") == "howto-open"
    assert page.get_attribute("#game", "data-live") == "yes"
    assert opened.sockets == sockets and version(page) >= moves


@pytest.mark.parametrize(("game", "variant", "seats", "options"), CONFIGS, ids=IDS)
def test_learning_the_game_in_the_page(
    browser: Any,
    server: Server,
    desktop: Opened,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str],
) -> None:
    links = create(server, game, variant, seats, options)
    page = desktop.page
    open_game(page, server.url + links["seats"][0]["url"])
    wait_for_moves(page)
    run_guide(page)
    page.reload()  # offered once: the browser remembers it was seen
    page.wait_for_selector("#game[data-live='yes']")
    expect(page.locator("#guide-again")).to_be_visible()
    assert page.locator("#guide-offer").is_hidden()
    check_howto_keeps_the_game(page, desktop, variant, len(seats))
    wait_for_moves(page)
    view = payload(server, links)
    check_moves_in_plain_words(page, view)
    check_moves_reachable(page)
    page.set_viewport_size(PHONE)
    check_moves_reachable(page)
    page.set_viewport_size(DESKTOP)
    # a move, then the log in plain words
    before = version(page)
    texts = [m["text"] for m in view["legal"]]
    pick = next((t for t in texts if t not in ("done", "pass", "end")), texts[0])
    page.locator(f'#moves button.move[data-move="{pick}"]').click()
    wait_version(page, before)
    # a bot may move meanwhile: the page and the server's view compared at the same move
    for _ in range(100):
        view = payload(server, links)
        if version(page) == view["version"] and page.locator("#log li").count() == len(view["log"]):
            break
        page.wait_for_timeout(50)
    check_log_in_plain_words(page, view)


# -- the components' tips ------------------------------------------------------------------------
def add_explained(page: Any, game: str) -> None:
    """Two components made by the board kit itself, away from the board's redraws: a card that
    explains itself, and a place for a move that does too (its move recorded, not sent)."""
    page.evaluate(
        """async (game) => {
          const kit = await import(`/boards/${game}/kit.js`);
          window.moved = [];
          const style = "margin: 20px; width: 200px";
          const card = kit.el("div", { id: "test-card", style }, "A card");
          kit.explain(card, "What the card does", "The card");
          const spot = kit.el("div", { id: "test-place", style }, "A place");
          const ctx = { move: (t) => window.moved.push(t), offer: () => {} };
          kit.place(spot, [{ text: "go", explain: "go (1 gold)" }], ctx);
          kit.explain(spot, "What the place is", "The place");
          document.getElementById("main").prepend(card, spot);
        }""",
        game,
    )


def tip(page: Any) -> str:
    return page.locator("#rb-tip").inner_text() if page.locator("#rb-tip").is_visible() else ""


def test_the_kit_explains_on_hover_focus_tap_and_long_press(
    server: Server, desktop: Opened, phone: Opened
) -> None:
    links = create(server, "archmagi", "standard", ["human", "greedy"], {})
    page = desktop.page
    open_game(page, server.url + links["spectator"])
    add_explained(page, "archmagi")
    page.hover("#test-card")
    assert tip(page) == "The card\nWhat the card does"
    page.mouse.move(1200, 780)
    expect(page.locator("#rb-tip")).to_be_hidden()
    page.focus("#test-place")  # keyboard focus
    assert tip(page) == "The place\nWhat the place is"
    page.keyboard.press("Escape")
    expect(page.locator("#rb-tip")).to_be_hidden()
    page.click("#test-place")  # a click on a place makes its move
    assert page.evaluate("() => window.moved") == ["go"]
    # a phone: a tap shows a card's tip; a long press shows a place's and makes no move
    touch = phone.page
    open_game(touch, server.url + links["spectator"])
    add_explained(touch, "archmagi")
    touch.tap("#test-card")
    assert tip(touch) == "The card\nWhat the card does"
    touch.tap("#whoami")
    expect(touch.locator("#rb-tip")).to_be_hidden()
    touch.dispatch_event("#test-place", "pointerdown", {"pointerType": "touch", "isPrimary": True})
    touch.wait_for_timeout(700)
    touch.dispatch_event("#test-place", "pointerup", {"pointerType": "touch"})
    touch.dispatch_event("#test-place", "click", {"pointerType": "touch"})
    assert tip(touch) == "The place\nWhat the place is"
    assert touch.evaluate("() => window.moved") == []
    touch.tap("#test-place")  # a short tap makes the move
    assert touch.evaluate("() => window.moved") == ["go"]


def kinds(page: Any) -> list[str]:
    """The board's explained components, one selector of each kind (its first class); the
    ones holding no other (a hover in the middle of the map would reach one of its hexes)."""
    found: list[str] = page.eval_on_selector_all(
        "#board [data-explain]",
        """nodes => [...new Set(nodes.filter(n => !n.querySelector("[data-explain]")).map(n => {
             const cls = [...n.classList].find(c => !["rb-explained", "rb-place"].includes(c));
             const kind = cls ? `.${cls}` : n.tagName.toLowerCase();
             return `#board ${kind}[data-explain]:not(:has([data-explain]))`;
           }))]""",
    )
    return found


@pytest.mark.parametrize(("game", "variant", "seats", "options"), CONFIGS, ids=IDS)
def test_components_explain_themselves_with_their_data_file_text(
    server: Server,
    desktop: Opened,
    phone: Opened,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str],
) -> None:
    """Hover (desktop) and tap (phone) three different kinds of components: each shows its
    data-file text in the tip."""
    links = create(server, game, variant, seats, options)
    for opened, touch in ((desktop, False), (phone, True)):
        page = opened.page
        open_game(page, server.url + links["seats"][0]["url"])
        found = kinds(page)
        assert len(found) >= 3, f"only {len(found)} kinds of components explain themselves"
        for selector in found[:3]:
            # a node tried once is not tried again under another kind's selector (a second
            # tap on the same node would close its tip); a bot's move redraws the board and
            # closes the tip of the node it replaced: then the new node is tried (3 times at most)
            node = page.locator(f"{selector}:not([data-tried])").first
            for _ in range(3):
                text = node.get_attribute("data-explain") or ""
                node.scroll_into_view_if_needed()
                # a scroll hides the tip: let the scroll's event pass before pointing
                page.evaluate(
                    "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))"
                )
                if not touch:
                    node.hover()
                elif re.search(r"\brb-(place|control)\b", node.get_attribute("class") or ""):
                    node.focus()  # a tap acts on a place or a control: a long press or focus
                else:
                    node.tap()
                shown = tip(page)
                if text and text in shown:
                    break
            node.evaluate("n => n.setAttribute('data-tried', '')")
            assert text and text in shown, (selector, "phone" if touch else "desktop")


# -- the defects of issue 23 ----------------------------------------------------------------------
def test_a_wrong_seat_link_says_so_and_offers_to_watch(server: Server, phone: Opened) -> None:
    links = create(server, "battle-merchants", "standard", ["human", "greedy"], {})
    page = phone.page
    phone.expected.append("status of 403")  # the refused token
    page.goto(f"{server.url}/games/{links['id']}#wrongtoken")
    notice = page.locator("#bad-link")
    expect(notice).to_be_visible()
    assert notice.get_attribute("role") == "alert"
    assert page.evaluate("() => document.activeElement.id") == "bad-link"
    assert "not valid" in notice.inner_text() and "whole link" in notice.inner_text()
    assert page.locator("#table").is_hidden()
    page.click("#bad-link-watch")
    page.wait_for_selector("#game[data-live='yes']")
    assert "watching" in page.inner_text("#whoami")
    assert page.url.endswith(f"/games/{links['id']}")  # the code that opened nothing is gone
    assert page.locator("#moves button.move").count() == 0


def stored_games(folder: Path) -> int:
    with sqlite3.connect(folder / "games.sqlite3") as db:
        count: int = db.execute("select count(*) from games").fetchone()[0]
        return count


def seat_links(page: Any) -> list[str]:
    page.wait_for_selector("#links[data-ready='yes']")
    found: list[str] = page.eval_on_selector_all("#links a.open", "links => links.map(a => a.href)")
    return found


def test_the_ready_page_reloads_and_bookmarks_without_creating_a_game(
    browser: Any, server: Server, folder: Path, desktop: Opened
) -> None:
    page = desktop.page
    page.goto(server.url + "/")
    page.wait_for_selector("#new-form[data-ready='yes']")
    page.select_option("#game", "merchants-of-magick")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.select_option("#seat_1", "human")
    page.click("#new-form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/[^/]+/links#.{32,}$"))
    first = seat_links(page)
    assert len(first) == 4  # two seats, hot-seat, spectators
    count = stored_games(folder)
    page.reload()
    assert seat_links(page) == first and stored_games(folder) == count
    other = browser.new_context()  # the bookmark, in another tab
    try:
        again = other.new_page()
        again.goto(page.url)
        assert seat_links(again) == first
        again.goto(page.url.split("#")[0])  # without its key: said, and watching still offered
        expect(again.locator("#links-error")).to_be_visible()
        assert again.locator("#watch-link").is_visible()
    finally:
        other.close()
    assert stored_games(folder) == count
    page.click("a.open[data-seat='1']")
    page.wait_for_selector("#game[data-live='yes']")
    assert "You are seat 2." in page.inner_text("#whoami")


def error_in_view(page: Any, selector: str) -> str:
    """The error is on the screen, focused, announced (role=alert); its text."""
    error = page.locator(selector)
    expect(error).to_be_in_viewport()
    assert error.get_attribute("role") == "alert"
    assert page.evaluate("() => document.activeElement.id") == selector.lstrip("#")
    return error.inner_text()


def test_form_and_upload_errors_show_where_the_eye_is_on_a_phone(
    server: Server, phone: Opened, tmp_path: Path
) -> None:
    page = phone.page
    phone.expected.append("status of 400")  # the refused posts
    page.goto(server.url + "/")
    page.wait_for_selector("#new-form[data-ready='yes']")
    page.select_option("#game", "archmagi")
    page.fill("#option_magi", "fire,fire")
    page.click("#new-form button[type=submit]")
    assert "fire named twice" in error_in_view(page, "#form-error")
    save = tmp_path / "game.json"
    save.write_text(rulebook.save_text(rulebook.new_game("archmagi", 2, seed=4)))
    for content, seats, said in (
        (save, "human,banana", "no seat kind 'banana'"),
        (tmp_path / "notes.txt", "", "not a usable save file"),
    ):
        if not content.exists():
            content.write_text("shopping list: bread, eggs")
        page.goto(server.url + "/")
        page.set_input_files("#file", str(content))
        page.fill("#upload-seats", seats)
        page.click("#upload-form button[type=submit]")
        text = error_in_view(page, "#upload-error")
        assert said in text and "Expecting value" not in text


def test_a_move_while_the_server_is_down_says_it_was_not_sent(server: Server, browser: Any) -> None:
    links = create(server, "ye-olde-magick-shoppe", "solo", ["human"], {})
    opened = Opened(browser)  # its console shows the refused connections: expected
    page = opened.page
    try:
        open_game(page, server.url + links["seats"][0]["url"])
        wait_for_moves(page)
        server.stop()
        page.wait_for_selector("#game[data-live='no']")
        assert "moves can be made again once it is back" in page.inner_text("#connection")
        page.locator("#moves button.move").first.evaluate("b => b.click()")  # folded or not
        expect(page.locator("#error")).to_be_visible()
        said = page.inner_text("#error")
        assert "not sent" in said and "connection is back" in said
        assert "Failed to fetch" not in said
    finally:
        if server.process is None or server.process.poll() is not None:
            server.start()
        opened.close()
    again = Opened(browser)
    try:
        open_game(again.page, server.url + links["seats"][0]["url"])
        before = version(again.page)
        again.page.locator("#moves button.move").first.evaluate("b => b.click()")
        wait_version(again.page, before)  # and moves go through once it is back
    finally:
        again.close()


# -- solo end screens -----------------------------------------------------------------------------
def finished_solo(server: Server, game: str, seed: int, options: dict[str, str]) -> Any:
    """A solo game played to its end by the greedy bot, uploaded with a person in its seat."""
    from rulebook.agents import make_agent
    from rulebook.simulate import play

    state = play(rulebook.new_game(game, 1, seed, "solo", options), [make_agent("greedy", 1)])
    assert state.is_terminal()
    r = httpx.post(
        server.url + "/api/games/upload",
        files={"file": ("game.json", rulebook.save_text(state))},
        data={"seats": "human"},
    )
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize(
    ("game", "options"),
    [("merchants-of-magick", {}), ("pandoria-merchants", {"level": "beginner"})],
)
def test_solo_end_screens(
    server: Server, desktop: Opened, shots: Path, game: str, options: dict[str, str]
) -> None:
    """No winner badge in a solo game; its verdict as the terminal says it; the rating scale
    with the title reached; no Territory still marked current; the Trolls' points explained."""
    links = finished_solo(server, game, 5, options)
    page = desktop.page
    open_game(page, server.url + links["seats"][0]["url"])
    expect(page.locator("#result")).to_be_visible()
    view = payload(server, links)
    assert page.locator(".badge.win").count() == 0
    assert page.inner_text("#result .verdict") == f"{view['result']['verdict']}."
    if view["rating_scale"]:
        expect(page.locator("#rating-scale")).to_be_visible()
        reached = page.locator("#result .rating-scale .reached, #result .hint .reached")
        assert reached.count() == 1
        assert reached.inner_text().startswith(view["result"]["rating"])
    if view["result"]["notes"]:
        notes = page.inner_text("#result .score-notes")
        for note in view["result"]["notes"].values():
            assert note in notes
    assert page.locator("#board tr.pm-now").count() == 0
    page.locator("#result").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{game}-solo-end.png"))
