"""The game pages' screenshots kept in ``docs/screenshots/`` (desktop and phone), retaken.

    .venv/bin/python benchmarks/page_screenshots.py [OUT_DIR]

Starts ``rulebook serve`` on a throwaway SQLite file, creates each game from the home page (the
way a player does), plays a few moves by clicking the board, and saves the page at 1280 and
360 px wide as ``GAME-desktop.png`` and ``GAME-phone.png``. Look at them before committing.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

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


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'games.sqlite3'}"
        with Server(db, Path(folder) / "server.log") as server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
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
