"""The game page, the home page and the table around the board as a newcomer meets them, in
Debian's chromium at 1280x800 and on a 390x844 phone (issue 38): the first screen shows the
board, the seat's own pieces and its moves; bot seats show as bots; the first-turn guide is
offered once per browser and game; "my games" and "open tables" say who plays, whose move it
is and since when; a seat that never was open says so; the log is a live region drawn line by
line; the page's headings, keyboard focus, the how-to-play dialog and the menu of a place's
moves.

One server and one browser serve the module (``xdist_group``: one worker runs it).
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from boardpages import CHROMIUM, EVERY_GAME, places, wait_until
from webserver import Server

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = [
    pytest.mark.xdist_group("page-browser"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

#: each board's element for the viewer's own pieces (its sheet or mat)
OWN = {
    "merchants-of-magick": "#board .rb-main",
    "ye-olde-magick-shoppe": "#board .rb-main",
    "battle-merchants": "#board .bm-mat.bm-mine",
    "pandoria-merchants": "#board .pm-seat.pm-mine",
    "archmagi": "#board .am-mat.am-mine",
}
#: (game, variant, seats, options): the five games and Pandoria Merchants' solo
CONFIGS = EVERY_GAME


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("page")
    log = folder / "server.log"
    with Server(f"sqlite:///{folder / 'games.sqlite3'}", log) as running:
        yield running
    assert "Traceback" not in log.read_text()


class Browsing:
    """Opens pages at a viewport (``phone``: is_mobile and has_touch), each in a browser
    context of its own unless ``same`` is given (the same person: the same ``localStorage``);
    no page may log an error but those expected."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        #: console messages a test expects (the browser logs a refused request)
        self.expected: list[str] = []

    def __call__(self, phone: bool = False, same: Any = None) -> Any:
        if same is not None:
            context = same.context
        else:
            size = PHONE if phone else DESKTOP
            context = self.browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
            self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", self._console)
        return page

    def _console(self, message: Any) -> None:
        if message.type == "error" and not any(e in message.text for e in self.expected):
            self.errors.append(message.text)


@pytest.fixture
def pages(browser: Any) -> Iterator[Browsing]:
    browsing = Browsing(browser)
    yield browsing
    for context in browsing.contexts:
        context.close()
    assert browsing.errors == [], browsing.errors


def create(
    server: Server,
    game: str,
    seats: list[str],
    variant: str | None = None,
    options: dict[str, str] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": len(seats), "seats": seats}
    if variant:
        body["variant"] = variant
    r = httpx.post(f"{server.url}/api/games", json={**body, "options": options or {}})
    assert r.status_code == 201, r.text
    links: dict[str, Any] = r.json()
    return links


def seat_url(server: Server, links: dict[str, Any], seat: int) -> str:
    url = next(s["url"] for s in links["seats"] if s["seat"] == seat)
    return f"{server.url}{url}"


def seat_token(links: dict[str, Any], seat: int) -> str:
    url = next(s["url"] for s in links["seats"] if s["seat"] == seat)
    return str(url.split("#", 1)[1])


def seat_view(server: Server, links: dict[str, Any], seat: int) -> dict[str, Any]:
    r = httpx.get(
        f"{server.url}/api/games/{links['id']}/view",
        headers={"authorization": f"Bearer {seat_token(links, seat)}"},
    )
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()["views"][0]
    return view


def open_seat(page: Any, url: str, moves: bool = True) -> Any:
    page.goto(url)
    page.wait_for_selector("#game[data-live=yes]")
    page.wait_for_selector("#seat-list li")
    if moves:
        page.wait_for_selector("#moves button.move, #moves summary", timeout=60_000)
    return page


def top(page: Any, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0, f"{selector} is not shown"
    return float(box["y"])


#: every heading on the page a person can see (or a screen reader reads): its level
HEADINGS = """() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
  .filter((h) => h.getClientRects().length || h.classList.contains("sr-only"))
  .filter((h) => !h.closest("[hidden], dialog:not([open]), [aria-hidden=true]"))
  .map((h) => Number(h.tagName[1]))"""


def check_headings(page: Any) -> None:
    """One h1, and no level skipped on the way down."""
    levels: list[int] = page.evaluate(HEADINGS)
    assert levels.count(1) == 1 and levels[0] == 1, levels
    for before, after in itertools.pairwise(levels):
        assert after <= before + 1, levels


# -- the first screen ------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "variant", "seats", "options"), CONFIGS)
def test_the_first_screen_shows_the_board_the_own_pieces_and_the_moves(
    server: Server,
    pages: Browsing,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str],
) -> None:
    links = create(server, game, seats, variant, options)
    # a phone: a compact status panel, the board starting on the first screen, and a link to
    # the moves (a screen or more below it) that keeps the seat's key in the address
    phone = open_seat(pages(phone=True), seat_url(server, links, 0))
    assert phone.locator(".status").bounding_box()["height"] < 280
    assert top(phone, "#board") < PHONE["height"] / 2
    expect(phone.locator("#to-moves")).to_be_in_viewport()
    url = phone.url
    phone.click("#to-moves")
    expect(phone.locator("#moves-title")).to_be_in_viewport()
    assert phone.url == url
    check_headings(phone)
    # a laptop: the status panel in two lines, the board, the own sheet or mat and the moves
    # on the first screen without scrolling
    page = open_seat(pages(), seat_url(server, links, 0))
    assert page.locator(".status").bounding_box()["height"] < 120
    assert page.locator("#to-moves").is_hidden()  # the moves are beside the board
    assert top(page, "#board") < 250
    assert top(page, "#moves-panel") < 250
    assert top(page, "#moves button.move, #moves summary") < DESKTOP["height"] - 100
    check_headings(page)
    assert top(page, OWN[game]) < DESKTOP["height"] - 60, "the own pieces start below the fold"


# -- the table: bots as bots -----------------------------------------------------------------------
def test_bot_seats_show_as_bots_and_a_bot_in_a_person_s_place_says_so(
    server: Server, pages: Browsing
) -> None:
    links = create(server, "archmagi", ["human", "greedy", "human"])
    mine = open_seat(pages(), seat_url(server, links, 0), moves=False)
    seat = "#seat-list li:nth-child({}) "
    assert mine.inner_text(seat.format(2) + ".bot-seat") == "bot"
    assert mine.locator(seat.format(2) + ".presence").count() == 0  # never "not seen yet"
    assert "not seen yet" in mine.inner_text(seat.format(3) + ".presence")  # a person missing
    theirs = open_seat(pages(phone=True), seat_url(server, links, 2), moves=False)
    assert theirs.inner_text(seat.format(2) + ".bot-seat") == "bot"
    wait_until(mine, "document.querySelector('#seat-list li:nth-child(3) .presence.here')")
    # "I have to go": a bot plays seat 1 in its person's place, and every page says so
    mine.select_option("#hand-bot", "random")
    mine.click("#hand")
    mine.wait_for_selector(seat.format(1) + ".held")
    assert mine.inner_text(seat.format(1) + ".held") == "random bot in your place"
    theirs.wait_for_selector(seat.format(1) + ".held")
    assert theirs.inner_text(seat.format(1) + ".held") == "random bot in their place"
    assert theirs.locator(seat.format(1) + ".presence").count() == 0
    mine.click("#take-back")
    wait_until(mine, "document.querySelector('#seat-list .held') === null", 15)
    assert "here" in mine.inner_text(seat.format(1) + ".presence")


# -- the first-turn guide, once per browser and game -----------------------------------------------
def test_the_guide_is_offered_once_per_browser_and_game(server: Server, pages: Browsing) -> None:
    first = open_seat(pages(), seat_url(server, create(server, "archmagi", ["human", "greedy"]), 0))
    expect(first.locator("#guide-offer")).to_be_visible()
    first.click("#guide-skip")
    expect(first.locator("#guide-offer")).to_be_hidden()
    expect(first.locator("#guide-again")).to_be_visible()
    # another game of Archmagi in the same browser (a rematch, a new table): not offered again,
    # and the guide is one click away
    again = pages(same=first)
    open_seat(again, seat_url(server, create(server, "archmagi", ["human", "greedy"]), 0))
    assert again.locator("#guide-offer").is_hidden()
    again.click("#guide-again")
    expect(again.locator("#guide-box")).to_be_visible()
    again.keyboard.press("Escape")
    expect(again.locator("#guide-box")).to_be_hidden()
    # another game is offered its own guide once
    other = pages(same=first)
    open_seat(other, seat_url(server, create(server, "battle-merchants", ["human", "greedy"]), 0))
    expect(other.locator("#guide-offer")).to_be_visible()
    # a phone: the guide seen to its end (or closed) counts as seen too
    phone = open_seat(
        pages(phone=True), seat_url(server, create(server, "archmagi", ["human", "greedy"]), 0)
    )
    phone.click("#guide-start")
    expect(phone.locator("#guide-box")).to_be_visible()
    phone.click("#guide-close")
    later = pages(same=phone)
    open_seat(later, seat_url(server, create(server, "archmagi", ["human", "greedy"]), 0))
    assert later.locator("#guide-offer").is_hidden()
    expect(later.locator("#guide-again")).to_be_visible()


# -- my games and open tables ----------------------------------------------------------------------
def test_my_games_and_open_tables_say_who_plays_whose_move_and_since_when(
    server: Server, pages: Browsing
) -> None:
    table = create(server, "archmagi", ["human", "greedy", "open"])
    duel = create(server, "battle-merchants", ["human", "human"])
    home = pages()
    for links in (table, duel):
        open_seat(home, seat_url(server, links, 0), moves=False)
    # a title kept in this browser is shown as text, never as HTML
    home.evaluate(
        """() => {
          const all = JSON.parse(localStorage.getItem("rulebook.games"));
          for (const g of Object.values(all)) g.title = "<b id='planted'>" + g.title + "</b>";
          localStorage.setItem("rulebook.games", JSON.stringify(all));
        }"""
    )
    home.goto(f"{server.url}/")
    home.wait_for_selector("#my-games[data-ready=yes]")
    home.wait_for_selector("#open-tables[data-ready=yes]")
    assert home.locator("#planted").count() == 0
    mine = home.locator(f"#my-games-list tr[data-game-id='{table['id']}']")
    said = mine.inner_text()
    assert "<b id='planted'>Archmagi</b>" in said
    for words in ("standard, 3 players", "Seat 2: greedy bot", "Seat 3: open seat", "started"):
        assert words in said, (words, said)
    assert "Seat 1" in mine.locator("td").nth(1).inner_text()
    duel_row = home.locator(f"#my-games-list tr[data-game-id='{duel['id']}']").inner_text()
    assert "Seat 2: human, not seen yet" in duel_row
    first = seat_view(server, duel, 0)["to_act"]
    assert ("your move" if first == [0] else "waiting for Seat 2 (human, not seen yet)") in duel_row
    # the seat's hand is never in a list
    names = set(seat_view(server, table, 0)["observation"]["hand"])
    assert names and not any(n in home.inner_text("#my-games") for n in names)
    row = home.locator(f"#open-list tr[data-game-id='{table['id']}']")
    said = row.inner_text()
    for words in ("Archmagi", "standard, 3 players", "Seat 1: human", "Seat 2: greedy bot"):
        assert words in said, (words, said)
    assert "Seat 3: open seat" in said and "opened just now, 0 moves made" in said
    waited = seat_view(server, table, 0)["to_act"][0]
    assert f"waiting for Seat {waited + 1}" in said
    assert row.locator("button.join").count() == 1
    # the same rows on a phone: each a card, the page never wider than the screen
    phone = pages(phone=True)
    phone.goto(f"{server.url}/")
    phone.wait_for_selector("#open-tables[data-ready=yes]")
    assert (
        "Seat 2: greedy bot"
        in phone.locator(f"#open-list tr[data-game-id='{table['id']}']").inner_text()
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_seat_that_never_was_open_says_so(server: Server, pages: Browsing) -> None:
    links = create(server, "archmagi", ["human", "greedy", "open"])
    pages.expected.append("status of 409")  # the refused join
    page = pages(phone=True)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#open-tables[data-ready=yes]")
    button = page.locator(f"#open-list tr[data-game-id='{links['id']}'] button.join")
    button.evaluate("b => b.dataset.seat = '1'")  # a list that named seat 2, the bot's
    button.click()
    page.wait_for_selector("#join-error:not([hidden])")
    assert page.inner_text("#join-error") == "seat 2 is not an open seat: a bot (greedy) plays it"
    expect(page.locator("#join-error")).to_be_in_viewport()


# -- the log, a live region drawn line by line -----------------------------------------------------
def log_texts(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#log li").all_inner_texts()]


def test_the_log_is_a_live_region_that_only_adds_new_lines(server: Server, pages: Browsing) -> None:
    links = create(server, "merchants-of-magick", ["human"], "solo")
    page = open_seat(pages(), seat_url(server, links, 0))
    live = page.locator("#log-live")
    assert (
        live.get_attribute("role") == "log" and live.get_attribute("aria-relevant") == "additions"
    )
    assert page.get_attribute("#turn", "role") == "status"
    assert page.inner_text("#turn") == "Your move."
    expect(page.locator("#log-empty")).to_be_visible()
    made = []
    for n in (1, 2):
        move = next(m["text"] for m in seat_view(server, links, 0)["legal"] if m["text"] != "done")
        page.locator(f'#moves button.move[data-move="{move}"]').evaluate("b => b.click()")
        wait_until(page, f"document.querySelectorAll('#log li').length === {n}")
        made.append(move)
        if n == 1:  # the first line stays the same node: only the new one is added
            page.eval_on_selector("#log li", "li => { li.dataset.first = 'yes'; }")
    assert page.locator("#log li").nth(0).get_attribute("data-first") == "yes"
    assert page.locator("#log-empty").is_hidden()
    wait_until(page, "document.querySelector('#log-live').getAttribute('aria-live') === 'polite'")
    # undo: the last line goes, the first stays
    page.wait_for_selector("#undo:not([hidden])", timeout=15_000)
    page.click("#undo")
    wait_until(page, "document.querySelectorAll('#log li').length === 1")
    assert page.locator("#log li").nth(0).get_attribute("data-first") == "yes"
    assert log_texts(page) == [log_texts(page)[0]] and "You " in log_texts(page)[0]
    # a replay back to the start and one move on; back to the game: the lines as they are
    page.click("#replay-first")
    wait_until(page, "document.querySelectorAll('#log li').length === 0")
    page.click("#replay-next")
    wait_until(page, "document.querySelectorAll('#log li').length === 1")
    page.click("#replay-live")
    wait_until(page, "document.querySelectorAll('#log li').length === 1")
    assert seat_view(server, links, 0)["log"][0]["text"] == made[0]
    wait_until(page, "document.querySelector('#log-live').getAttribute('aria-live') === 'polite'")


# -- the keyboard ----------------------------------------------------------------------------------
#: where the focused element is, in the page's reading order
REGION = """() => {
  const a = document.activeElement;
  const order = [".status", ".board-panel", ".moves-panel", ".log-panel", ".replay-panel"];
  const i = order.findIndex((s) => a.closest(s));
  const style = getComputedStyle(a);
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const ids = (a.getAttribute("aria-labelledby") || "").split(" ");
  const labelled = ids.map((id) => (document.getElementById(id) || {}).textContent || "");
  const name = (a.getAttribute("aria-label") || labelled.join(" ") || a.textContent || a.value
    || "").trim();
  return [i, ring || style.boxShadow !== "none", name !== "", a.id || a.className];
}"""


def test_the_page_by_keyboard_alone(server: Server, pages: Browsing) -> None:
    """Tab goes through the page in reading order, every stop named and visibly focused; How
    to play holds the focus while open and gives it back; so does the menu of a place's
    moves (Escape cancels; a move made leaves the focus on the board)."""
    links = create(server, "merchants-of-magick", ["human"], "solo")
    page = open_seat(pages(), seat_url(server, links, 0))
    page.click("#guide-skip")  # the focus goes to the guide's button, which stays
    assert page.evaluate("document.activeElement.id") == "guide-again"
    page.focus(".topbar a:last-of-type")  # Tab from the top bar's last link
    regions: list[int] = []
    for _ in range(500):
        page.keyboard.press("Tab")
        region, ring, named, what = page.evaluate(REGION)
        assert region >= 0, f"{what}: out of the game's parts"
        assert named, f"{what}: no accessible name"
        # the board's own parts show their focus their own way (an SVG ring): its tests
        assert ring or region == 1, f"{what}: no visible focus"
        regions.append(region)
        if region == 4:
            break
    assert regions == sorted(regions) and regions[-1] == 4, regions
    assert {0, 1, 2} <= set(regions)
    # How to play: opened by Enter, the focus stays inside until Escape gives it back
    page.focus("#howto-open")
    page.keyboard.press("Enter")
    expect(page.locator("#howto-dialog")).to_be_visible()
    inside = "document.getElementById('howto-dialog').contains(document.activeElement)"
    page.keyboard.press("Shift+Tab")  # from its first stop, round to its last
    assert page.evaluate(inside)
    stops = page.locator("#howto-dialog a[href], #howto-dialog button").count()
    for _ in range(stops + 2):  # and on round to the first again
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
    page.keyboard.press("Escape")
    expect(page.locator("#howto-dialog")).to_be_hidden()
    # the page gives the focus back on the dialog's "close" event, a task of its own after the
    # dialog is hidden (on a busy machine, after the next keys): wait for it to have run
    expect(page.locator("#game")).to_have_attribute("data-howto", "closed")
    assert page.evaluate("document.activeElement.id") == "howto-open"
    # a place standing for several moves: its menu takes the focus and keeps it
    key = next(k for k, texts in places(page) if len(texts) > 1)
    page.focus(f'#board [data-key="{key}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#offer:not([hidden]) button.move")
    expect(page.locator("#offer")).to_be_in_viewport()
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('offer').contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(page.locator("#offer")).to_be_hidden()
    assert page.evaluate("document.activeElement.dataset.key") == key
    # picked from the menu: the move is made and the focus is on the board again
    before = int(page.get_attribute("#game", "data-version") or 0)
    page.keyboard.press("Enter")
    page.wait_for_selector("#offer:not([hidden]) button.move")
    page.keyboard.press("Enter")
    wait_until(page, f"Number(document.querySelector('#game').dataset.version) > {before}")
    wait_until(page, "document.getElementById('board').contains(document.activeElement)")


def test_the_menu_of_a_place_s_moves_shows_where_a_phone_s_eye_is(
    server: Server, pages: Browsing
) -> None:
    links = create(server, "merchants-of-magick", ["human"], "solo")
    page = open_seat(pages(phone=True), seat_url(server, links, 0))
    key = next(k for k, texts in places(page) if len(texts) > 1)
    place = page.locator(f'#board [data-key="{key}"]')
    place.scroll_into_view_if_needed()
    place.tap()
    page.wait_for_selector("#offer:not([hidden]) button.move")
    menu = page.locator("#offer").bounding_box()
    assert menu is not None and menu["y"] >= 0 and menu["y"] + menu["height"] <= PHONE["height"]
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= PHONE["width"]
    expect(place).to_be_in_viewport()  # the page did not jump away from the board
    page.tap("#offer button.cancel")
    expect(page.locator("#offer")).to_be_hidden()
