"""Issue 25's pages in Debian's chromium, driven by Playwright: the clocks (real time running
out, a bot taking over and the seat's link taking it back; turn-based across a server restart;
a simultaneous phase), "I have to go", the vote on an absent seat, presence when a tab closes,
"your move" in the tab's title and icon, "my games", open tables with the race for the last
seat, and the rematch from every seat's link.

The screenshots (a clock, the bot-took-over notice, the open tables) go to a temporary folder,
or to ``$RULEBOOK_SCREENSHOTS``: ``RULEBOOK_SCREENSHOTS=docs/screenshots pytest
tests/test_web_table_browser.py`` renews the ones kept in ``docs/screenshots/``.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from boardpages import CHROMIUM, wait_until
from webserver import Server

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

REALTIME = {"kind": "realtime", "bank": 4, "increment": 0, "grace": 3, "bot": "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("table")
    log = folder / "server.log"
    with Server(f"sqlite:///{folder / 'games.sqlite3'}", log, extra=("--absent-after", "1")) as s:
        yield s
    assert "Traceback" not in log.read_text()


@pytest.fixture
def browsers(browser: Any) -> Iterator[Any]:
    """Opens pages, each in a browser context of its own (a person of their own, with their
    own ``localStorage``; ``options``: the context's, such as ``permissions``); no page may
    log an error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def new_page(**options: Any) -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    yield new_page
    for context in contexts:
        context.close()
    assert [e for e in errors if "409" not in e] == [], errors


def create(server: Server, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    r = httpx.post(f"{server.url}/api/games", json=body)
    assert r.status_code == 201, r.text
    links: dict[str, Any] = r.json()
    return links


def seat_url(server: Server, links: dict[str, Any], seat: int) -> str:
    url = next(s["url"] for s in links["seats"] if s["seat"] == seat)
    return f"{server.url}{url}"


def open_seat(page: Any, url: str) -> Any:
    page.goto(url)
    page.wait_for_selector("#game[data-live=yes]")
    page.wait_for_selector("#seat-list li")
    return page


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.text_content() or "")


def seat_auth(links: dict[str, Any], seat: int) -> dict[str, str]:
    url = next(s["url"] for s in links["seats"] if s["seat"] == seat)
    return {"authorization": f"Bearer {url.split('#', 1)[1]}"}


def seat_view(server: Server, links: dict[str, Any], seat: int) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/games/{links['id']}/view", headers=seat_auth(links, seat))
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()["views"][0]
    return view


def play_until(server: Server, links: dict[str, Any], seat: int, waiting: int) -> None:
    """``seat`` makes moves through the API (its first that is not "done", if any) until
    ``waiting`` is to move (two seats taking turns)."""
    while waiting not in (view := seat_view(server, links, seat))["to_act"]:
        texts = [m["text"] for m in view["legal"]]
        body = {"seat": seat, "move": next((t for t in texts if t != "done"), texts[0])}
        r = httpx.post(
            f"{server.url}/api/games/{links['id']}/move", json=body, headers=seat_auth(links, seat)
        )
        assert r.status_code == 200, r.text


def log_lines(page: Any) -> list[str]:
    """The log's lines of moves as the page shows them (what CSS hides left out; not the
    steps the rules took on their own, which each seat may be told differently)."""
    return [str(t) for t in page.locator("#log li:not(.event)").all_inner_texts()]


def moves_made(view: dict[str, Any]) -> int:
    """The moves in a payload's log (its lines less the steps the rules took on their own)."""
    return sum(1 for e in view["log"] if not e.get("event"))


MOVE_LINES = "document.querySelectorAll('#log li:not(.event)').length"


# -- clocks ----------------------------------------------------------------------------------------
def test_a_real_time_clock_runs_out_a_bot_takes_over_and_the_link_takes_it_back(
    server: Server, browsers: Any, shots: Path
) -> None:
    links = create(server, "battle-merchants", ["human", "human"], clock=REALTIME)
    first = httpx.get(f"{server.url}/api/games/{links['id']}/view").json()["views"][0]["to_act"][0]
    other = 1 - first
    mover = open_seat(browsers(), seat_url(server, links, first))
    watcher = open_seat(browsers(), seat_url(server, links, other))
    clocks = watcher.locator("#seat-list .clock")
    assert clocks.count() == 2
    assert watcher.locator(f"#seat-list .clock.running[data-seat='{first}']").count() == 1
    # the time runs out: every seat is told, and a bot takes the seat after the grace period
    watcher.wait_for_selector(".out-of-time", timeout=10_000)
    assert f"Seat {first + 1}'s time is up" in text(watcher, ".out-of-time")
    assert "Your time is up" in text(mover, ".out-of-time")
    watcher.wait_for_selector(".bot-took-over", timeout=15_000)
    assert f"Seat {first + 1} is played by a random bot since move 1" in text(
        watcher, ".bot-took-over"
    )
    assert "its time ran out" in text(watcher, ".bot-took-over")
    mover.wait_for_selector("#take-back")
    mover.screenshot(path=str(shots / "bot-took-over.png"))
    mover.click("#take-back")
    wait_until(mover, "document.querySelector('.bot-took-over') === null", 15)
    assert mover.locator("#seat-list .held").count() == 0
    wait_until(watcher, "document.querySelector('#seat-list .held') === null", 15)


def test_a_turn_based_clock_survives_a_server_restart(
    tmp_path: Path, browsers: Any, shots: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    clock = {"kind": "turn", "per_move": 86400, "grace": 3600}
    with Server(url, tmp_path / "one.log") as one:
        links = create(one, "archmagi", ["human", "human"], clock=clock)
        page = open_seat(browsers(), seat_url(one, links, 0))
        before = text(page, "#seat-list .clock.running")
        assert before.startswith("23:59:") or before == "1 d 0:00:00"
        assert "Turn-based clock: 1 d 0:00:00 a move" in text(page, ".clock-rule")
        page.close()  # before the server stops (else it keeps knocking)
    time.sleep(1.5)
    with Server(url, tmp_path / "two.log") as two:  # a new server: the clock kept running
        page = open_seat(browsers(), seat_url(two, links, 0))
        after = text(page, "#seat-list .clock.running")
        assert after.startswith("23:59:") and after < before
        page.screenshot(path=str(shots / "clock-turn-based.png"))
        page.close()
    for log in ("one.log", "two.log"):
        assert "Traceback" not in (tmp_path / log).read_text()


def test_both_clocks_run_in_a_simultaneous_phase(
    server: Server, browsers: Any, shots: Path
) -> None:
    links = create(
        server, "merchants-of-magick", ["human", "human"], clock={**REALTIME, "bank": 600}
    )
    page = open_seat(browsers(), seat_url(server, links, 0))
    assert page.locator("#seat-list .clock.running").count() == 2
    page.screenshot(path=str(shots / "clock-real-time.png"))


# -- bots in people's seats ------------------------------------------------------------------------
def test_a_seat_hands_itself_to_a_bot_and_takes_it_back(server: Server, browsers: Any) -> None:
    links = create(server, "archmagi", ["human", "human"])
    page = open_seat(browsers(), seat_url(server, links, 0))
    page.select_option("#hand-bot", "random")
    page.click("#hand")
    page.wait_for_selector(".bot-took-over")
    assert "Your seat is played by a random bot" in text(page, ".bot-took-over")
    assert "its player had to go" in text(page, ".bot-took-over")
    assert text(page, "#seat-list li:first-child .held") == "random bot in your place"
    page.click("#take-back")
    wait_until(page, "document.querySelector('.bot-took-over') === null", 15)
    page.wait_for_selector("#hand")


def test_a_bot_s_moves_in_a_person_s_seat_name_the_bot(server: Server, browsers: Any) -> None:
    links = create(server, "archmagi", ["human", "human"])
    (first,) = seat_view(server, links, 0)["to_act"]
    other = 1 - first
    mine = open_seat(browsers(), seat_url(server, links, first))
    theirs = open_seat(browsers(), seat_url(server, links, other))
    watcher = open_seat(browsers(), server.url + links["spectator"])
    mine.select_option("#hand-bot", "random")
    mine.click("#hand")  # the bot plays the seat's turn
    wait_until(theirs, "document.body.dataset.yourTurn === 'yes'")
    made = moves_made(seat_view(server, links, other))  # the bot's moves: 0 to made - 1
    assert made >= 1
    for page in (mine, theirs, watcher):
        wait_until(page, f"{MOVE_LINES} === {made}")
    assert all(line.startswith("The random bot, in your seat, ") for line in log_lines(mine))
    assert all(line.startswith(f"Seat {first + 1} (random bot) ") for line in log_lines(theirs))
    assert log_lines(watcher) == log_lines(theirs)
    # short forms: "The random bot in your seat: ..."
    mine.check("#short-forms")
    assert log_lines(mine)[0].startswith("The random bot in your seat: ")
    mine.uncheck("#short-forms")
    # the replay tells it so too
    mine.click("#replay-first")
    mine.click("#replay-next")
    wait_until(mine, f"{MOVE_LINES} === 1")
    assert log_lines(mine)[0].startswith("The random bot, in your seat, ")
    mine.click("#replay-live")
    # the person takes the seat back: their own moves are "You" again
    mine.click("#take-back")
    mine.wait_for_selector("#hand")
    play_until(server, links, other, first)
    wait_until(mine, "document.body.dataset.yourTurn === 'yes'")
    play_until(server, links, first, other)
    wait_until(theirs, "document.body.dataset.yourTurn === 'yes'")
    total = moves_made(seat_view(server, links, other))
    wait_until(mine, f"{MOVE_LINES} === {total}")
    lines = log_lines(mine)
    assert all(line.startswith("The random bot, in your seat, ") for line in lines[:made])
    assert lines[-1].startswith("You ") and "bot" not in lines[-1].split(":")[0]
    wait_until(theirs, f"{MOVE_LINES} === {total}")
    assert log_lines(theirs)[-1].startswith(f"Seat {first + 1} (human) ")


def test_the_vote_opens_once_the_seat_was_away_long_enough(tmp_path: Path, browsers: Any) -> None:
    with Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        tmp_path / "server.log",
        extra=("--absent-after", "5"),
    ) as slow:
        created = time.time()
        links = create(slow, "archmagi", ["human", "human"])  # seat 2 never comes
        page = open_seat(browsers(), seat_url(slow, links, 0))
        page.wait_for_selector(".vote-wait[data-seat='1']")
        assert page.locator(".vote-button").count() == 0
        said = text(page, ".vote-wait .vote-opens")
        assert re.fullmatch(r"You may vote to hand Seat 2 to a bot in [1-5] s\.", said), said
        assert text(page, ".vote-wait").startswith("Seat 2 is away (not seen yet). ")
        wait_until(page, f"document.querySelector('.vote-opens')?.textContent !== {said!r}")
        page.wait_for_selector(".vote-button[data-seat='1']", timeout=10_000)
        assert time.time() >= created + 5 - 0.5  # not before the server takes a vote
        assert page.locator(".vote-wait").count() == 0
        page.click(".vote-button[data-seat='1']")
        page.wait_for_selector(".bot-took-over")
        assert page.locator("#error").is_hidden()  # the server took the vote
        page.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_the_other_seat_votes_on_an_absent_seat(server: Server, browsers: Any) -> None:
    links = create(server, "archmagi", ["human", "human"])  # seat 2 never comes
    time.sleep(1.2)  # the server takes a vote after a seat was away 1 s (--absent-after 1)
    page = open_seat(browsers(), seat_url(server, links, 0))
    page.wait_for_selector(".vote-button[data-seat='1']")
    assert "Seat 2 is away" in text(page, ".vote")
    page.click(".vote-button[data-seat='1']")
    page.wait_for_selector(".bot-took-over")
    assert "Seat 2 is played by a greedy bot" in text(page, ".bot-took-over")
    assert "the others voted" in text(page, ".bot-took-over")
    # seat 2 comes back: its link takes the seat back
    back = open_seat(browsers(), seat_url(server, links, 1))
    back.click("#take-back")
    wait_until(page, "document.querySelector('.bot-took-over') === null", 15)


# -- presence, your move, my games ---------------------------------------------------------------
def test_presence_updates_when_a_tab_closes(server: Server, browsers: Any) -> None:
    links = create(server, "archmagi", ["human", "human"])
    page = open_seat(browsers(), seat_url(server, links, 0))
    assert "seen" in text(page, "#seat-list li:nth-child(2) .presence")  # not seen yet
    other = open_seat(browsers(), seat_url(server, links, 1))
    wait_until(page, "document.querySelector('#seat-list li:nth-child(2) .presence.here') !== null")
    assert text(page, "#seat-list li:nth-child(2) .presence") == "● here"
    other.close()
    wait_until(page, "document.querySelector('#seat-list li:nth-child(2) .presence.away') !== null")
    assert text(page, "#seat-list li:nth-child(2) .presence") == "○ seen just now"


def test_your_move_changes_the_title_and_icon(server: Server, browsers: Any) -> None:
    links = create(server, "archmagi", ["human", "human"])
    mine = open_seat(browsers(), seat_url(server, links, 0))
    theirs = open_seat(browsers(), seat_url(server, links, 1))
    wait_until(mine, "document.body.dataset.yourTurn === 'yes'")
    assert mine.title().startswith("(Your move) ")
    assert mine.get_attribute("link[rel=icon]", "href") == "/static/icon-turn.svg"
    assert theirs.get_attribute("body", "data-your-turn") == "no"
    assert not theirs.title().startswith("(Your move)")
    assert theirs.get_attribute("link[rel=icon]", "href") == "/static/icon.svg"


#: the page's notifications recorded (``window.made``), and a switch for its visibility
#: (``window.hide(true)``: the tab in the background, as the Notification API sees it)
RECORD_NOTIFICATIONS = """(() => {
  window.made = [];
  let hidden = false;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible") });
  window.hide = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options = {}) {
      window.made.push({ title, body: options.body, tag: options.tag });
      THROW
      super(title, options);
    }
  };
})();"""


def test_your_move_notifies_a_background_tab_that_allowed_it(server: Server, browsers: Any) -> None:
    """One notification when the seat's move comes while its tab is hidden and the player
    allowed notifications; none while the tab is shown, none without the permission; a browser
    that refuses to construct one (Chrome on Android) still shows the move."""
    links = create(server, "archmagi", ["human", "human"])
    (first,) = seat_view(server, links, 0)["to_act"]
    other = 1 - first
    cases = {  # name: (hidden, permissions, the constructor throws)
        "background": (True, ["notifications"], False),
        "shown": (False, ["notifications"], False),
        "not allowed": (True, [], False),
        "android": (True, ["notifications"], True),
    }
    pages = {}
    for name, (hidden, permissions, throws) in cases.items():
        page = browsers(permissions=permissions)
        throw = 'throw new TypeError("Illegal constructor");' if throws else ""
        page.add_init_script(RECORD_NOTIFICATIONS.replace("THROW", throw))
        open_seat(page, seat_url(server, links, other))
        page.evaluate(f"window.hide({'true' if hidden else 'false'})")
        pages[name] = page
    assert pages["background"].evaluate("Notification.permission") == "granted"
    assert pages["not allowed"].evaluate("Notification.permission") != "granted"
    assert all(p.evaluate("window.made") == [] for p in pages.values())  # not its move yet
    play_until(server, links, first, other)
    for page in pages.values():
        wait_until(page, "document.body.dataset.yourTurn === 'yes'")
        wait_until(page, "document.querySelector('#moves button.move') !== null")
    pages["background"].wait_for_timeout(500)  # a second message would come by now
    told = {
        "title": "Your move in Archmagi",
        "body": f"Seat {other + 1}: it is your turn.",
        "tag": f"rulebook-{links['id']}",
    }
    assert pages["background"].evaluate("window.made") == [told]
    assert pages["shown"].evaluate("window.made") == []
    assert pages["not allowed"].evaluate("window.made") == []
    assert pages["android"].evaluate("window.made") == [told]  # tried, refused, drawn on


def test_my_games_lists_only_this_browser_s_games(server: Server, browsers: Any) -> None:
    links = create(server, "archmagi", ["human", "human"])
    mine = open_seat(browsers(), seat_url(server, links, 0))
    mine.goto(f"{server.url}/")
    mine.wait_for_selector("#my-games[data-ready=yes]")
    row = mine.locator(f"#my-games-list tr[data-game-id='{links['id']}']")
    assert row.count() == 1
    assert "your move" in str(row.locator(".now").text_content())
    stranger = browsers()
    stranger.goto(f"{server.url}/")
    stranger.wait_for_selector("#my-games[data-ready=yes]", state="attached")
    assert stranger.locator("#my-games").is_hidden()
    assert stranger.locator(f"tr[data-game-id='{links['id']}']").count() == 0


# -- open seats ------------------------------------------------------------------------------------
def test_open_tables_and_the_race_for_the_last_seat(
    server: Server, browsers: Any, shots: Path
) -> None:
    creator = browsers()
    creator.goto(f"{server.url}/")
    creator.wait_for_selector("#new-form[data-ready=yes]")
    creator.select_option("#game", "archmagi")
    creator.fill("#players", "2")
    creator.dispatch_event("#players", "change")
    creator.select_option("#seat_0", "human")
    creator.select_option("#seat_1", "open")
    creator.select_option("#clock", "turn")
    creator.click("#new-form button[type=submit]")
    creator.wait_for_url("**/links*")
    game_id = creator.url.split("/games/")[1].split("/")[0]
    one, two = browsers(), browsers()
    for page in (one, two):
        page.goto(f"{server.url}/")
        page.wait_for_selector("#open-tables[data-ready=yes]")
    row = f"#open-list tr[data-game-id='{game_id}']"
    assert "Seat 2: open seat" in str(one.locator(row).text_content())
    assert "1 day a move" in str(one.locator(row).text_content())
    one.locator(row).scroll_into_view_if_needed()
    one.screenshot(path=str(shots / "open-tables.png"))
    one.click(f"{row} button.join[data-seat='1']")
    one.wait_for_selector("#game[data-live=yes]")
    assert "You are seat 2." in text(one, "#whoami")
    two.click(f"{row} button.join[data-seat='1']")  # the same seat, from a page shown before
    two.wait_for_selector("#join-error:not([hidden])")
    assert text(two, "#join-error") == "seat 2 is not open any more (someone took it first)"


# -- rematch ---------------------------------------------------------------------------------------
def test_rematch_from_every_seat_s_link(server: Server, browsers: Any) -> None:
    links = create(server, "pandoria-merchants", ["human", "human"])
    pages = [open_seat(browsers(), seat_url(server, links, p)) for p in (0, 1)]
    for p, page in enumerate(pages):
        page.select_option("#hand-bot", "random")
        page.click("#hand")
        page.wait_for_selector(f"#seat-list li:nth-child({p + 1}) .held")
    for page in pages:
        page.wait_for_selector("#rematch", timeout=90_000)
    assert text(pages[1], "#rematch") == "Rematch"
    pages[0].click("#rematch")
    pages[0].wait_for_url(lambda u: links["id"] not in u)
    pages[0].wait_for_selector("#game[data-live=yes]")
    assert "You are seat 1." in text(pages[0], "#whoami")
    new_id = pages[0].url.split("/games/")[1].split("#")[0]
    wait_until(pages[1], "document.querySelector('#rematch').textContent === 'Join the rematch'")
    pages[1].click("#rematch")
    pages[1].wait_for_url(f"**/games/{new_id}#*")
    pages[1].wait_for_selector("#game[data-live=yes]")
    assert "You are seat 2." in text(pages[1], "#whoami")
