"""Driving the real game page's board in chromium (browser tests and the screenshots script):
create a game from the home page, find the board's places, click them as a person would."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def served(folder: Path) -> Iterator[Any]:
    """A real ``rulebook serve`` on SQLite in ``folder``, for a module's browser tests; no
    traceback may reach its log."""
    from webserver import Server

    with Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log") as running:
        yield running
    assert "Traceback" not in (folder / "server.log").read_text()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, through Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


#: moves that end a phase or a turn: a test clicks them only when nothing else is on the board
ENDING = {"done", "pass", "end", "skip"}


def create_game(
    page: Any,
    base: str,
    game: str,
    players: int,
    variant: str | None = None,
    seats: list[str] | None = None,
    options: dict[str, str] | None = None,
) -> None:
    """Fill the home page's new-game form, create the game and open seat 1's link."""
    page.goto(f"{base}/")
    page.wait_for_selector("#new-form[data-ready=yes]")
    page.select_option("#game", game)
    if variant is not None:
        page.select_option("#variant", variant)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    for name, value in (options or {}).items():
        field = f"#option_{name}"  # a list of choices, or text for an option given by a rule
        if page.eval_on_selector(field, "e => e.tagName") == "SELECT":
            page.select_option(field, value)
        else:
            page.fill(field, value)
    for p, kind in enumerate(seats or ["human"] + ["greedy"] * (players - 1)):
        page.select_option(f"#seat_{p}", kind)
    page.click("#new-form button[type=submit]")
    page.click("a.open[data-seat='0']")
    page.wait_for_selector("#board .rb-turn")


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> None:
    """Poll a JavaScript expression until it is true. The app's Content-Security-Policy
    forbids evaluating strings in the page, which ``page.wait_for_function`` does; Playwright's
    ``evaluate`` is not affected."""
    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(40)


def wait_for_version(page: Any, above: int, timeout: float = 30.0) -> None:
    """Wait until the page's view has more moves than ``above``."""
    wait_until(page, f"Number(document.querySelector('#game').dataset.version) > {above}", timeout)


def version(page: Any) -> int:
    return int(page.get_attribute("#game", "data-version") or -1)


def places(page: Any) -> list[tuple[str, list[str]]]:
    """The board's places with moves now: each one's ``data-key`` (stable across redraws)
    and the move texts it stands for."""
    found: list[tuple[str, list[str]]] = page.eval_on_selector_all(
        "#board [data-moves]",
        "nodes => nodes.map(n => [n.dataset.key || '', n.dataset.moves.split('\\n')])",
    )
    return [(key, texts) for key, texts in found if key]


def place_at(page: Any, key: str) -> Any:
    return page.locator(f'#board [data-key="{key}"]')


def click_listed(button: Any) -> None:
    """Click a move button of the page's list, unfolding its group first (a long list folds
    its moves under their headings); again, as a person would, when the list was redrawn
    between the unfolding and the click (a group just opened folds again in the new list)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    unfold = "b => { const group = b.closest('details'); if (group) group.open = true; }"
    for _ in range(3):
        button.evaluate(unfold)
        try:
            button.click(timeout=5000)
            return
        except PlaywrightTimeout:
            continue
    button.click()


def wait_for_turn(page: Any, timeout: float = 30.0) -> bool:
    """Wait until this seat has moves (or the game is over): False if over."""
    wait_until(
        page,
        "document.querySelector('#moves button.move') !== null"
        " || document.querySelector('#board .rb-over') !== null",
        timeout,
    )
    return page.locator("#moves button.move").count() > 0


def click_places(
    page: Any, moves: int, rng: random.Random, offer_first: bool = True
) -> dict[str, Any]:
    """Make ``moves`` moves by clicking places on the board (never the move list); the first
    click goes to a place standing for several moves when there is one, and picks from the
    page's menu (``ctx.offer``). A move no place stands for is made from the page's list
    (counted in ``listed``). Returns what was clicked."""
    made: list[str] = []
    offers = 0
    listed = 0
    # a try the view overtook (below) is tried again, a few times at most
    tries = 3 * moves
    while len(made) + listed < moves and tries:
        tries -= 1
        if not wait_for_turn(page):
            break
        before = version(page)
        spots = places(page)
        if not spots:  # a move the board has no place for: the page's list
            click_listed(page.locator("#moves button.move").first)
            listed += 1
            wait_for_version(page, before)
            continue
        playing = [(k, m) for k, m in spots if not set(m) <= ENDING]
        several = [(k, m) for k, m in playing if len(m) > 1]
        if offer_first and several and offers == 0:
            key, texts = rng.choice(several)
        else:
            key, texts = rng.choice(playing or spots)
        # the mouse comes from outside the board, as a hand does: a tip its last place opened
        # on hover (a redraw under a still mouse) closes, and never stands over the next place
        page.mouse.move(0, 0)
        place_at(page, key).click()
        # the menu of the place's moves, or its one move made. In a simultaneous phase the
        # other seats' moves may arrive between reading the places and the click, which then
        # meets a newer view: a menu of other moves, or a menu where one move was read
        # (closed), or no menu where several were; each is tried again from the new view
        wait_until(
            page,
            "document.querySelector('#offer:not([hidden]) button.move') !== null"
            f" || Number(document.querySelector('#game').dataset.version) > {before}",
        )
        menu = page.locator("#offer:not([hidden]) button.move").count() > 0
        if version(page) > before or menu != (len(texts) > 1):
            if menu:
                page.locator("#offer button.cancel").click()
            if version(page) > before and not menu and len(texts) == 1:
                made.append(texts[0])  # the move read was made
            continue
        buttons = page.locator("#offer button.move")
        offered = [buttons.nth(i).get_attribute("data-move") for i in range(buttons.count())]
        assert sorted(offered) == sorted(texts), (offered, texts)
        pick = rng.randrange(buttons.count())
        made.append(offered[pick] or "")
        buttons.nth(pick).click()
        offers += 1
        wait_for_version(page, before)
    return {"moves": made, "offers": offers, "listed": listed}


#: a page of each game: (game, variant, seats, options), the five games and Pandoria
#: Merchants' solo
EVERY_GAME = [
    ("merchants-of-magick", "standard", ["human", "greedy"], {}),
    ("ye-olde-magick-shoppe", "standard", ["human", "greedy"], {}),
    ("battle-merchants", "standard", ["human", "greedy"], {}),
    ("pandoria-merchants", "standard", ["human", "greedy"], {}),
    ("pandoria-merchants", "solo", ["human"], {"level": "expert"}),
    ("archmagi", "standard", ["human", "greedy"], {"magi": "fire,water"}),
]
