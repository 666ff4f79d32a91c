"""Driving the real game page's board in chromium (browser tests and the screenshots script):
create a game from the home page, find the board's places, click them as a person would."""

from __future__ import annotations

import random
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
        page.select_option(f"#option_{name}", value)
    for p, kind in enumerate(seats or ["human"] + ["greedy"] * (players - 1)):
        page.select_option(f"#seat_{p}", kind)
    page.click("#new-form button[type=submit]")
    page.click("a.open[data-seat='0']")
    page.wait_for_selector("#board .rb-turn")


def version(page: Any) -> int:
    return int(page.get_attribute("#game", "data-version") or -1)


def places(page: Any) -> list[tuple[Any, list[str]]]:
    """The board's places with moves now, each with the move texts it stands for."""
    found = []
    locator = page.locator("#board [data-moves]")
    for i in range(locator.count()):
        node = locator.nth(i)
        found.append((node, (node.get_attribute("data-moves") or "").split("\n")))
    return found


def wait_for_turn(page: Any, timeout: float = 30_000) -> bool:
    """Wait until the board offers this seat a place (or the game is over): False if over."""
    page.wait_for_function(
        "document.querySelector('#board [data-moves]') !== null"
        " || document.querySelector('#board .rb-over') !== null",
        timeout=timeout,
    )
    return page.locator("#board [data-moves]").count() > 0


def click_places(
    page: Any, moves: int, rng: random.Random, offer_first: bool = True
) -> dict[str, Any]:
    """Make ``moves`` moves by clicking places on the board (never the move list); the first
    click goes to a place standing for several moves when there is one, and picks from the
    page's menu (``ctx.offer``). Returns what was clicked."""
    made: list[str] = []
    offers = 0
    for _ in range(moves):
        if not wait_for_turn(page):
            break
        before = version(page)
        spots = places(page)
        playing = [(n, m) for n, m in spots if not set(m) <= ENDING]
        several = [(n, m) for n, m in playing if len(m) > 1]
        if offer_first and several and offers == 0:
            node, texts = rng.choice(several)
        else:
            node, texts = rng.choice(playing or spots)
        node.scroll_into_view_if_needed()
        node.click()
        if len(texts) > 1:
            page.wait_for_selector("#offer:not([hidden]) button.move")
            buttons = page.locator("#offer button.move")
            offered = [buttons.nth(i).get_attribute("data-move") for i in range(buttons.count())]
            assert sorted(offered) == sorted(texts), (offered, texts)
            pick = rng.randrange(buttons.count())
            made.append(offered[pick] or "")
            buttons.nth(pick).click()
            offers += 1
        else:
            made.append(texts[0])
        page.wait_for_function(f"Number(document.querySelector('#game').dataset.version) > {before}")
    return {"moves": made, "offers": offers}
