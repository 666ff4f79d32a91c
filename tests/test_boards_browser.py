"""The games' boards in the real page, in Debian's chromium, driven by Playwright as a person
would: every game is created from the home page and played for several moves by clicking the
places of its board (never the list of moves), a place standing for several moves opens the
page's menu (``ctx.offer``), a game is played by keyboard alone, and a 360 px wide screen shows
whole boards without sideways scrolling.

One server and one browser serve the module (``xdist_group``: one worker runs it). The pages'
screenshots in ``docs/screenshots/`` are retaken by ``benchmarks/page_screenshots.py``.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardpages import (
    CHROMIUM,
    click_places,
    create_game,
    place_at,
    places,
    served,
    version,
    wait_for_turn,
    wait_for_version,
)
from webserver import Server

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.xdist_group("boards"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served(tmp_path_factory.mktemp("boards")) as running:
        yield running


def open_page(browser: Any, width: int = 1280) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return context, page, errors


#: (game, players, variant, options, board moves to make, an offer is sure to come up)
GAMES = [
    ("merchants-of-magick", 2, None, None, 4, True),
    ("ye-olde-magick-shoppe", 1, "solo", None, 4, True),
    ("battle-merchants", 2, None, None, 4, False),
    ("pandoria-merchants", 3, None, None, 6, False),
    ("pandoria-merchants", 2, "family", None, 5, False),
    ("pandoria-merchants", 1, "solo", {"level": "expert"}, 5, False),
    ("archmagi", 2, None, {"magi": "fire,water"}, 4, False),
]


@pytest.mark.parametrize(
    ("game", "players", "variant", "options", "moves", "offer"),
    GAMES,
    ids=[f"{g}-{v or 'standard'}-{n}p" for g, n, v, _, _, _ in GAMES],
)
def test_moves_by_clicking_the_board(
    server: Server,
    browser: Any,
    game: str,
    players: int,
    variant: str | None,
    options: dict[str, str] | None,
    moves: int,
    offer: bool,
) -> None:
    context, page, errors = open_page(browser)
    create_game(page, server.url, game, players, variant, options=options)
    assert page.locator("#board svg, #board .rb-card, #board .am-card").count() > 0
    start = version(page)
    made = click_places(page, moves, random.Random(players))
    board_moves = len(made["moves"])
    assert board_moves >= moves - made["listed"] and board_moves >= moves // 2, made
    assert version(page) > start
    if offer:
        assert made["offers"] >= 1, made
    # every move the board draws is one the page lists (it never invents one): read at once,
    # from the same view
    legal, drawn = page.evaluate(
        """() => [
          [...document.querySelectorAll('#moves button.move')].map(b => b.dataset.move),
          [...document.querySelectorAll('#board [data-moves]')].flatMap(n =>
            n.dataset.moves.split('\\n')),
        ]"""
    )
    legal, drawn = set(legal), set(drawn)
    assert drawn <= legal, drawn - legal
    context.close()
    assert errors == [], errors


def test_a_move_that_needs_a_choice_opens_the_menu_of_just_those_moves(
    server: Server, browser: Any
) -> None:
    """Merchants of Magick: a circle several dice can mark stands for several moves: the page's
    menu offers exactly those, and picking one makes it."""
    context, page, errors = open_page(browser)
    create_game(page, server.url, "merchants-of-magick", 1, "solo")
    wait_for_turn(page)
    several = [(k, t) for k, t in places(page) if len(t) > 1]
    assert several, "a circle two dice can mark"
    key, texts = several[0]
    before = version(page)
    place_at(page, key).click()
    page.wait_for_selector("#offer:not([hidden]) button.move")
    offered = page.eval_on_selector_all("#offer button.move", "b => b.map(x => x.dataset.move)")
    assert sorted(offered) == sorted(texts)
    plain = page.locator("#offer button.move").nth(1).locator(".plain").inner_text()
    page.locator("#offer button.move").nth(1).click()
    wait_for_version(page, before)
    log = page.inner_text("#log")
    # the log tells the move made in the button's plain words ("Use the d8..." -> "You use...")
    assert plain[0].lower() + plain[1:] in log, (plain, log)
    context.close()
    assert errors == [], errors


def test_keyboard_alone(server: Server, browser: Any) -> None:
    """Merchants of Magick solo by keyboard only: Tab to a circle, Enter; the menu's first
    move takes the focus, Enter; a die is selected with Space and narrows the circles."""
    context, page, errors = open_page(browser)
    create_game(page, server.url, "merchants-of-magick", 1, "solo")
    wait_for_turn(page)
    made = 0
    for _ in range(3):
        if not wait_for_turn(page):
            break
        before = version(page)
        for _ in range(300):  # Tab until the focus is on a circle of the sheet
            page.keyboard.press("Tab")
            key = page.evaluate("document.activeElement.dataset.key || ''")
            if key.startswith("circle:"):
                break
        else:
            pytest.fail("no circle reached by Tab")
        moves = page.evaluate("document.activeElement.dataset.moves").split("\n")
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert label and all(m.split(" ")[0] in label for m in moves)
        page.keyboard.press("Enter")
        if len(moves) > 1:
            page.wait_for_selector("#offer:not([hidden]) button.move")
            assert page.evaluate("document.activeElement.dataset.move") in moves
            page.keyboard.press("Enter")
        wait_for_version(page, before)
        made += 1
    assert made == 3
    # a die chosen by keyboard narrows the glowing circles to that die
    if wait_for_turn(page):
        die = page.locator("#board .rb-tray-die.rb-usable").first
        if die.count():
            die.focus()
            page.keyboard.press(" ")
            name = die.get_attribute("data-die")
            assert (
                page.locator(f'#board [data-die="{name}"]').get_attribute("aria-pressed") == "true"
            )
            # a circle the chosen die can mark now stands for that die's move alone
            narrowed = [t for _, t in places(page) if any(m.startswith(f"{name} ") for m in t)]
            assert narrowed and all(len(t) == 1 for t in narrowed), narrowed
    context.close()
    assert errors == [], errors


@pytest.mark.parametrize(
    "game", ["battle-merchants", "pandoria-merchants", "archmagi", "ye-olde-magick-shoppe"]
)
def test_phone_width(server: Server, browser: Any, game: str, tmp_path: Path) -> None:
    """At 360 px wide the page never scrolls sideways, the board fits, and a place is still
    clicked; a big drawing keeps a size a finger can tap, panned inside its own frame, and its
    control fits it whole to the screen and back."""
    context, page, errors = open_page(browser, width=360)
    create_game(page, server.url, game, 2)
    page.screenshot(path=str(tmp_path / f"{game}-360.png"), full_page=True)
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    board = page.locator("#board").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 360
    zoom = page.locator("#board .rb-zoom-button")
    if zoom.count():
        zoomed = page.locator("#board .rb-zoomed")
        assert zoomed.count() == zoom.count()
        frame = zoomed.first.bounding_box()
        assert frame is not None and frame["x"] + frame["width"] <= 360
        # a map or a board is panned inside its frame (another seat's sheet: its halves stack)
        assert zoomed.first.evaluate(
            "f => f.scrollWidth > f.clientWidth || !f.querySelector(':scope > svg')"
        )
        zoom.first.click()  # the whole drawing on the screen
        assert zoomed.count() == zoom.count() - 1
        zoom.first.click()
        assert zoomed.count() == zoom.count()
        assert (
            page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            <= 0
        )
    made = click_places(page, 2, random.Random(7), offer_first=False)
    assert len(made["moves"]) >= 1
    context.close()
    assert errors == [], errors
