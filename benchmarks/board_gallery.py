"""Screenshots of every game's board at chosen positions, desktop and phone width (dev tool).

    .venv/bin/python benchmarks/board_gallery.py OUT_DIR [GAME ...]

Builds real games (every variant) at several positions - the start, mid-game, a simultaneous
phase under way, an interrupt (Archmagi's Flow of Magic, a Pandoria "?" die), the end - and
renders each with its board module in Debian's chromium through the harness of
``tests/board_harness.py`` (no web app needed), at 1280 and 360 px wide. Look at the PNGs.
It also fails loudly if a board throws a JavaScript error.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from board_harness import Table, advance, harness, table
from rulebook.core import State


def _until_phase(phase: str) -> Callable[[State], bool]:
    def check(state: State) -> bool:
        return state.observation(0).get("phase") == phase

    return check


def _flow(state: State) -> bool:
    choice = state.observation(0).get("choice")
    return bool(choice and choice["kind"] == "flow")


def positions(game: str) -> Iterator[tuple[str, Table]]:
    """Named positions of ``game``; each table is seated for the seat to act."""
    rng = random.Random(7)
    if game in ("merchants-of-magick", "ye-olde-magick-shoppe"):
        yield "4p-start", table(game, 4, seed=3)
        t = table(game, 4, seed=4)
        yield "4p-mid", advance(t, 60, rng)
        t = table(game, 3, seed=5)
        advance(t, 30, rng)
        # seat 0 has moved once in the simultaneous phase, others still deciding
        for p in list(t.state.current_players()):
            if p == 0:
                legal = [a for a in t.state.legal_actions(0) if str(a) != "done"]
                if legal:
                    t.apply(0, str(legal[0]))
        yield "3p-simultaneous", t
        yield "solo-start", table(game, 1, seed=6)
        yield "solo-end", advance(table(game, 1, seed=8), 10_000, rng)
        yield "8p-mid", advance(table(game, 8, seed=9), 80, rng)
    elif game == "battle-merchants":
        yield "4p-start", table(game, 4, seed=3)
        yield "4p-mid", advance(table(game, 4, seed=4), 60, rng)
        yield "3p-mid", advance(table(game, 3, seed=5), 40, rng)
        yield "2p-steve", advance(table(game, 2, seed=6), 30, rng)
        yield "4p-end", advance(table(game, 4, seed=8), 10_000, rng)
    elif game == "pandoria-merchants":
        yield "4p-start", table(game, 4, seed=3)
        yield "4p-mid", advance(table(game, 4, seed=4), 120, rng)
        yield "2p-mid", advance(table(game, 2, seed=5), 60, rng)
        yield "family-3p", advance(table(game, 3, variant="family", seed=6), 60, rng)
        solo = table(game, 1, variant="solo", options={"level": "expert"}, seed=7)
        yield "solo-mid", advance(solo, 80, rng)
        yield "4p-end", advance(table(game, 4, seed=8), 100_000, rng)
    elif game == "archmagi":
        yield "4p-start", table(game, 4, seed=3)
        yield "2p-mid", advance(table(game, 2, seed=4), 80, rng)
        flow = table(game, 3, seed=5)
        advance(flow, 4000, rng, until=_flow)
        flow.seat = flow.state.current_players()[0] if flow.state.current_players() else 0
        yield "3p-flow", flow
        yield "4p-end", advance(table(game, 4, seed=8), 100_000, rng)


GAMES = (
    "merchants-of-magick",
    "ye-olde-magick-shoppe",
    "battle-merchants",
    "pandoria-merchants",
    "archmagi",
)


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    games = sys.argv[2:] or GAMES
    failures = []
    with harness() as h:
        for game in games:
            for name, t in positions(game):
                for width, tag in ((1280, "desktop"), (360, "phone")):
                    page = h.open(t, width=width, height=800)
                    path = out / f"{game}-{name}-{tag}.png"
                    page.screenshot(path=str(path), full_page=True)
                    overflow = page.evaluate(
                        "document.documentElement.scrollWidth"
                        " - document.documentElement.clientWidth"
                    )
                    if page.errors or overflow > 0:
                        failures.append(f"{path.name}: errors {page.errors}, overflow {overflow}px")
                    page.close()
                    print(path)
    for f in failures:
        print("PROBLEM", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
