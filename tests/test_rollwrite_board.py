"""The roll-and-write boards explain themselves (issue 23): in the real page, in Debian's
chromium, hovering (desktop) and tapping (a phone's touch screen) the sheet's parts shows
their texts from the data files, the same as ``view.static`` and the terminal's ``card NAME``;
keyboard focus shows them too. On a phone the other seats' sheets zoom in to a readable size.

One server and one browser serve the module (``xdist_group``: one worker runs it).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import rulebook
from boardpages import CHROMIUM, served, wait_until
from rulebook.core.boardkit import board_static
from webserver import Server

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.xdist_group("rollwrite-board"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

MOM = "merchants-of-magick"
YOMS = "ye-olde-magick-shoppe"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served(tmp_path_factory.mktemp("rollwrite")) as running:
        yield running


def open_game(
    server: Server, browser: Any, game: str, players: int, variant: str, **context: Any
) -> tuple[Any, Any, dict[str, Any], list[str]]:
    """A new game (seat 1 human, the others greedy) open at seat 1's link; its static data."""
    body = {"game": game, "players": players, "variant": variant}
    body["seats"] = ["human"] + ["greedy"] * (players - 1)  # type: ignore[assignment]
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=30).json()
    g = rulebook.get_game(game)
    static = board_static(g, g.setup(players, 0, variant))
    assert static is not None
    ctx = browser.new_context(**(context or {"viewport": {"width": 1280, "height": 800}}))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.url + created["seats"][0]["url"])
    page.wait_for_selector("#game[data-live='yes']")
    # the bots decide at once: the board redraws until they are done
    wait_until(page, "document.querySelector('#board .rb-status.rb-deciding') === null")
    page.wait_for_timeout(200)
    return ctx, page, static, errors


def into_view(page: Any, node: Any, mouse: bool = True) -> None:
    """Scroll ``node`` into view (with the mouse away) and let the scroll end (a scroll hides
    the tip, and the pointer must then come onto the part again)."""
    if mouse:
        page.mouse.move(0, 0)
    node.scroll_into_view_if_needed()
    page.wait_for_timeout(100)


def tip_text(page: Any) -> str:
    tip = page.locator("#rb-tip")
    return str(tip.inner_text()) if tip.is_visible() else ""


def long_press(page: Any, selector: str) -> None:
    """A finger held on a part (a tap would act: a die, a circle): its tip, no action."""
    page.dispatch_event(selector, "pointerdown", {"pointerType": "touch", "isPrimary": True})
    page.wait_for_timeout(700)
    page.dispatch_event(selector, "pointerup", {"pointerType": "touch"})
    page.dispatch_event(selector, "click", {"pointerType": "touch"})


def parts(page: Any, static: dict[str, Any]) -> list[tuple[str, str]]:
    """(selector, the text it explains itself with) for one part of each kind on the board:
    an Order or Customer card, a sheet row, a circle, a column, a die, a Mastery card, the
    Extra Dice, the score, and the game's own parts."""
    board = "#board .rb-main"
    card = page.locator("#board .rb-line-wrap .rb-card .rb-card-name").first.inner_text()
    mastery = page.locator("#board .rb-mastery .rb-card-name").first.inner_text()
    row = static["rows"][3]
    circle = row["circles"][0]
    found = [
        ("#board .rb-line-wrap .rb-card", static["cards"][card]),
        (f'{board} .rb-row[data-row="{row["id"]}"] .rb-row-name', row["explain"]),
        (f'{board} [data-circle="{circle["id"]}"]', circle["explain"]),
        (
            f'{board} .rb-col-head[data-column="{static["columns"][2]["id"]}"]',
            static["columns"][2]["explain"],
        ),
        ('#board [data-die-slot="d10"] .rb-tray-die', static["dice"][2]["explain"]),
        ("#board .rb-mastery", static["cards"][mastery]),
        ("#board .rb-side .rb-extra", static["explain"]["extra"]),
        ("#board .rb-side .rb-score", static["explain"]["score"]),
    ]
    if "potions" in static["explain"]:
        adventurer = page.locator("#board .rb-side .mom-adventurer .rb-card-name").inner_text()
        name = adventurer.split(": ", 1)[1]
        found += [
            ("#board .rb-side .mom-potions", static["explain"]["potions"]),
            ("#board .rb-side .mom-adventurer", static["cards"][name]),
        ]
    else:
        found.append(("#board .rb-side .yoms-track", static["explain"]["minus"]))
    if "rating" in static["explain"]:
        found.append(("#board .rb-ratings", static["explain"]["rating"]))
    return found


CASES = [(MOM, 1, "solo"), (MOM, 3, "standard"), (YOMS, 1, "solo"), (YOMS, 2, "standard")]


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_hovering_a_part_shows_its_text_from_the_data_files(
    server: Server, browser: Any, game: str, players: int, variant: str
) -> None:
    ctx, page, static, errors = open_game(server, browser, game, players, variant)
    for selector, text in parts(page, static):
        node = page.locator(selector).first
        into_view(page, node)
        node.hover()
        assert text in tip_text(page), selector
        assert text.split("\n")[0] in str(node.get_attribute("aria-description") or "") or (
            text.split("\n")[0]
            in page.evaluate(
                "s => document.querySelector(s).closest('[data-explain]').dataset.explain",
                selector,
            )
        )
    page.mouse.move(1, 1)
    assert tip_text(page) == ""
    ctx.close()
    assert errors == [], errors


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_tapping_a_part_on_a_phone_shows_its_text(
    server: Server, browser: Any, game: str, players: int, variant: str
) -> None:
    ctx, page, static, errors = open_game(server, browser, game, players, variant, **PHONE)
    before = page.locator("#board .rb-marked").count()
    for selector, text in parts(page, static):
        if "data-circle" in selector:
            continue  # a circle that can be marked is a place: a tap marks it
        node = page.locator(selector).first
        into_view(page, node, mouse=False)
        if "data-die-slot" in selector:
            # a tap on a die selects it: held, it explains itself
            long_press(page, selector)
        else:
            node.tap()
        assert text in tip_text(page), selector
    page.locator("#board .rb-line-wrap .rb-card").first.tap()
    page.locator("#board .rb-line-wrap .rb-card").first.tap()  # a second tap hides it
    assert tip_text(page) == ""
    assert page.locator("#board .rb-marked").count() == before  # no tap made a move
    ctx.close()
    assert errors == [], errors


def test_keyboard_focus_shows_a_rows_text(server: Server, browser: Any) -> None:
    """Tab reaches the sheet's half (one Tab stop: a circle to mark), an arrow its row."""
    ctx, page, static, errors = open_game(server, browser, MOM, 1, "solo")
    inside = "document.activeElement.closest('#board .rb-main .rb-sheet-half') !== null"
    for _ in range(100):
        page.keyboard.press("Tab")
        if page.evaluate(inside):
            break
    else:
        pytest.fail("no half of the sheet reached by Tab")
    assert page.evaluate("document.activeElement.dataset.key").startswith("circle:")
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
        row = page.evaluate("document.activeElement.dataset.row || ''")
        if row:
            break
    else:
        pytest.fail("no row reached by the arrows")
    explained = next(r["explain"] for r in static["rows"] if r["id"] == row)
    assert explained in tip_text(page)
    page.keyboard.press("Escape")
    assert tip_text(page) == ""
    ctx.close()
    assert errors == [], errors


@pytest.mark.parametrize("game", [MOM, YOMS])
def test_the_other_seats_sheets_zoom_in_on_a_phone(
    server: Server, browser: Any, game: str, tmp_path: Path
) -> None:
    """Found in issue 23: on a phone the other seats' sheets were drawn at about 40% and could
    not be zoomed. On a phone they are zoomed in at first (a finger taps their rows): each half
    as wide as the viewer's own, the page still never scrolls sideways, a tap on a row explains
    it; their control shows them whole (both halves side by side) and back."""
    ctx, page, static, errors = open_game(server, browser, game, 3, "standard", **PHONE)
    own = page.locator("#board .rb-main .rb-sheet-half").first.bounding_box()
    rival = page.locator("#board .rb-rival").first
    half = rival.locator(".rb-sheet-half").first
    assert rival.locator(".rb-zoomed").count() == 1
    assert half.bounding_box()["width"] >= 0.9 * own["width"]
    overflow = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(overflow) <= 0
    row = rival.locator('.rb-row[data-row="greaves"], .rb-row[data-row="sword"]').first
    into_view(page, row, mouse=False)
    row.locator(".rb-row-name").tap()
    name = row.get_attribute("data-row")
    assert next(r["explain"] for r in static["rows"] if r["id"] == name) in tip_text(page)
    page.screenshot(path=str(tmp_path / f"{game}-rival-zoomed.png"), full_page=True)
    rival.locator(".rb-zoom-button").click()
    assert half.bounding_box()["width"] < 0.6 * own["width"]
    # the choice survives the redraws the other seats' moves bring
    wait_until(page, "document.querySelector('#board .rb-status.rb-deciding') === null")
    assert rival.locator(".rb-zoomed").count() == 0
    rival.locator(".rb-zoom-button").click()
    assert half.bounding_box()["width"] >= 0.9 * own["width"]
    ctx.close()
    assert errors == [], errors
