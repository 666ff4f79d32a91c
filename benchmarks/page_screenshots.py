"""The game pages' screenshots kept in ``docs/screenshots/`` (desktop and phone), retaken.

    .venv/bin/python benchmarks/page_screenshots.py [OUT_DIR] [--learn]

Starts ``rulebook serve`` on a throwaway SQLite file, creates each game from the home page (the
way a player does), plays a few moves by clicking the board, and saves the page at 1280 and
360 px wide as ``GAME-desktop.png`` and ``GAME-phone.png``. With ``--learn``, only the pages
that teach a game: each game's how-to-play open over its board (``GAME-how-to-play.png``), a
card explained on a phone (the board's tip where the board has them, ``GAME-tip-phone.png``;
the card reference, ``cards-phone.png``) and the solo end screens (``GAME-solo-end.png``),
saved as palette PNGs to stay small. With ``--lab``, the balance lab's pages (for
docs/designers.md): its home, The Warrior's Coins changed in the data form, a comparison
running and its result (``lab-*.png``). Look at them before committing.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from boardpages import CHROMIUM, CHROMIUM_ARGS, click_places, create_game  # noqa: E402
from webserver import Server  # noqa: E402

#: (file name, game, players, variant, options, moves to make first)
SHOTS = (
    ("merchants-of-magick", "merchants-of-magick", 3, None, None, 5),
    ("ye-olde-magick-shoppe", "ye-olde-magick-shoppe", 2, None, None, 5),
    ("battle-merchants", "battle-merchants", 3, None, None, 8),
    ("pandoria-merchants", "pandoria-merchants", 3, None, None, 14),
    ("pandoria-merchants-solo", "pandoria-merchants", 1, "solo", {"level": "expert"}, 14),
    ("archmagi", "archmagi", 3, None, None, 6),
)


def small(path: Path) -> None:
    """The screenshot as a palette PNG (a quarter of the size, no visible loss here)."""
    from PIL import Image

    with Image.open(path) as image:
        palette = image.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
        palette.save(path, optimize=True)


def finished_solo(base: str, game: str, options: dict[str, str]) -> str:
    """A solo game played to its end by the greedy bot, uploaded: its seat's link."""
    import httpx

    import rulebook
    from rulebook.agents import make_agent
    from rulebook.simulate import play

    state = play(rulebook.new_game(game, 1, 5, "solo", options), [make_agent("greedy", 1)])
    files = {"file": ("game.json", rulebook.save_text(state))}
    links = httpx.post(f"{base}/api/games/upload", files=files, data={"seats": "human"}).json()
    url: str = links["seats"][0]["url"]
    return url


def on_a_phone(browser: Any) -> tuple[Any, Any]:
    """A phone's context (390x844, touch) and a page in it."""
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    return phone, phone.new_page()


def learning(browser: Any, base: str, out: Path) -> None:
    """How to play over each board, a card explained on a phone, the solo end screens."""
    import httpx

    import rulebook

    shots = []
    for name in rulebook.games():
        players = 1 if name in ("merchants-of-magick", "pandoria-merchants") else 2
        variant = "solo" if players == 1 else None
        body = {"game": name, "players": players, "variant": variant}
        seats = ["human"] + ["greedy"] * (players - 1)
        links = httpx.post(f"{base}/api/games", json={**body, "seats": seats}).json()
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(base + links["seats"][0]["url"])
        page.wait_for_selector("#game[data-live='yes']")
        page.click("#howto-open")
        if page.locator("#howto-jump").is_visible():
            page.click("#howto-jump-link")  # the variant's own rules
        page.wait_for_timeout(300)
        shots.append(out / f"{name}-how-to-play.png")
        page.screenshot(path=str(shots[-1]))
        page.close()
        phone, tapped = on_a_phone(browser)
        tapped.goto(base + links["seats"][0]["url"])
        tapped.wait_for_selector("#game[data-live='yes']")
        tips = tapped.locator("#board [data-explain]:not(.rb-place, .rb-control, [data-rove])")
        if tips.count():  # the board's own tips
            tips.first.scroll_into_view_if_needed()
            tips.first.tap()
            tapped.wait_for_timeout(200)
            shots.append(out / f"{name}-tip-phone.png")
            tapped.screenshot(path=str(shots[-1]))
        phone.close()
    phone, page = on_a_phone(browser)
    page.goto(f"{base}/cards/merchants-of-magick")
    page.wait_for_selector("body[data-ready='yes']")
    page.fill("#card-filter", "master")
    page.wait_for_timeout(200)
    shots.append(out / "cards-phone.png")
    page.screenshot(path=str(shots[-1]))
    phone.close()
    solos = (("merchants-of-magick", {}), ("pandoria-merchants", {"level": "beginner"}))
    for name, options in solos:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(base + finished_solo(base, name, options))
        page.wait_for_selector("#result:not([hidden])")
        page.locator("#result").scroll_into_view_if_needed()
        shots.append(out / f"{name}-solo-end.png")
        page.screenshot(path=str(shots[-1]))
        page.close()
    for path in shots:
        small(path)
        print(path)


def lab(browser: Any, base: str, out: Path) -> None:
    """The lab's pages as a designer meets them (a real comparison of 300 games a side)."""
    import re

    from boardpages import wait_until

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/lab")
    wait_until(page, "document.body.dataset.ready === 'yes'")
    page.goto(f"{base}/lab/data/merchants-of-magick")
    wait_until(page, "document.body.dataset.ready === 'yes'")
    page.fill("#filter", "Warrior")
    group = page.locator(".data-group:not([hidden])", has_text="adventurers: The Warrior")
    group.locator(".value", has=page.locator("label", has_text=re.compile("^coins$"))).locator(
        "input"
    ).fill("14")
    page.fill("#whatif-name", "Warrior 14 Coins")
    shots = [out / "lab-data.png"]
    page.screenshot(path=str(shots[-1]))
    page.click("#save")
    page.wait_for_url(re.compile(r"/lab/whatifs/[0-9a-f]+$"))
    page.click("text=Compare it with the shipped data")
    wait_until(page, "document.body.dataset.ready === 'yes'")
    page.fill("#run-games", "300")
    page.click("#estimate-button")
    wait_until(page, "document.querySelector('#estimate').textContent.startsWith('About')", 60)
    shots.append(out / "lab-home.png")
    page.screenshot(path=str(shots[-1]), full_page=True)
    page.click("#start")
    page.wait_for_url(re.compile(r"/lab/runs/[0-9a-f]+$"))
    wait_until(page, "document.querySelector('#run-progress').value > 150", 300)
    shots.append(out / "lab-run.png")
    page.screenshot(path=str(shots[-1]), full_page=True)
    wait_until(page, "document.querySelector('#run-page').dataset.status === 'done'", 900)
    page.locator("#result").scroll_into_view_if_needed()
    shots.append(out / "lab-result.png")
    page.screenshot(path=str(shots[-1]), full_page=True)
    page.close()
    for path in shots:
        small(path)
        print(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out", nargs="?", type=Path, default=ROOT / "docs" / "screenshots", metavar="OUT_DIR"
    )
    parser.add_argument("--learn", action="store_true", help="only the pages that teach a game")
    parser.add_argument("--lab", action="store_true", help="only the balance lab's pages")
    args = parser.parse_args(argv)  # --help or a wrong option: nothing taken, nothing written
    from playwright.sync_api import sync_playwright

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'games.sqlite3'}"
        extra = ("--lab-dir", str(Path(folder) / "lab"))
        with Server(db, Path(folder) / "server.log", extra=extra) as server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            if args.lab:
                lab(browser, server.url, out)
                browser.close()
                return
            if args.learn:
                learning(browser, server.url, out)
                browser.close()
                return
            for name, game, players, variant, options, moves in SHOTS:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                create_game(page, server.url, game, players, variant, options=options)
                click_places(page, moves, random.Random(3))
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / f"{name}-desktop.png"), full_page=True)
                page.set_viewport_size({"width": 360, "height": 780})
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / f"{name}-phone.png"), full_page=True)
                print(out / f"{name}-desktop.png", out / f"{name}-phone.png")
                page.close()
            browser.close()


if __name__ == "__main__":
    main()
