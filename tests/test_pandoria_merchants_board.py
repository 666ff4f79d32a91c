"""Pandoria Merchants' board explains itself (issue 23): every part of the sheets shows the
text `card NAME` gives (the data files) on hover, keyboard focus and tap; a place that makes a
move shows it on a long press, making no move; the Worker a Rage made count more is marked on
the map; solo counts Territories ("Territory 1 of 8"), and the Trolls' points say what they are
made of. Drawn in Debian's chromium through the board harness (``tests/board_harness.py``, no
server), desktop (1280 x 800) and phone (390 x 844, touch)."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from board_harness import CHROMIUM, Harness, Table, table
from rulebook.core import State
from rulebook.pandoria_merchants import GAME

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.xdist_group("board-harness"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]
NAME = "pandoria-merchants"


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


def position(
    variant: str, players: int, wanted: Callable[[State], bool], seed: int = 1, pick: str = ""
) -> Table:
    """Seeded random moves (those starting with ``pick`` first) until the position wanted;
    the seat to act there sits at the page."""
    options = {"level": "beginner"} if variant == "solo" else None
    t = table(NAME, players, seed=seed, variant=variant, options=options)
    rng = random.Random(seed)
    state = t.state
    for _ in range(3000):
        p = state.current_players()[0]
        if wanted(state):
            t.seat, t.moves = p, []
            t.labels = ["human" if q == p else "greedy" for q in range(players)]
            return t
        legal = [str(a) for a in state.legal_actions(p)]
        chosen = [m for m in legal if pick and m.startswith(pick)]
        t.apply(p, rng.choice(chosen or legal))
    raise AssertionError("no such position")


def texts(t: Table) -> dict[str, str]:
    return GAME.cards(t.state.setup)  # type: ignore[misc]


def tip(page: Any) -> str | None:
    shown: str | None = page.evaluate(
        "(() => { const t = document.getElementById('rb-tip');"
        " return t && !t.hidden ? t.innerText : null; })()"
    )
    return shown


def hover(page: Any, selector: str) -> str | None:
    node = page.locator(f"#board {selector}").first
    node.scroll_into_view_if_needed()
    node.hover()
    return tip(page)


def tap(page: Any, selector: str) -> str | None:
    node = page.locator(f"#board {selector}").first
    node.scroll_into_view_if_needed()
    node.tap()
    return tip(page)


def long_press(page: Any, selector: str) -> str | None:
    """A finger held on the node (touch events through the DevTools protocol)."""
    node = page.locator(f"#board {selector}").first
    node.scroll_into_view_if_needed()
    box = node.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(700)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(100)
    return tip(page)


def in_action(state: State) -> bool:
    return state.phase == "action" and len(state.history) > 12


def test_standard_components_explain_themselves_on_hover_and_focus(harness: Harness) -> None:
    t = position("standard", 3, in_action)
    page: Any = harness.open(t, height=800)
    said = texts(t)
    shown = hover(page, '[data-key="hex:D3"]')  # the wood Starting space
    assert shown and said["wood"] in shown and said["starting space"] in shown
    assert shown.startswith("D3: Wood (Starting space)")
    shown = hover(page, ".pm-track")
    assert shown and shown.startswith("Wood track: ") and said["track"] in shown
    shown = hover(page, '[data-key="die:0"]')
    assert shown and said["dice"] in shown
    shown = hover(page, '[data-key="key:artifact"]')
    assert shown == f"Artifact\n{said['artifact']}"
    shown = hover(page, '[data-key="monuments"]')
    assert shown and said["monument"] in shown and "Authored for this project" in shown
    # a Realm card: its Spell, Building and price each, and the whole card by keyboard focus
    card = "muster/tower"
    parts = page.locator(f'#board [data-key="card:{t.seat}:{card}"] > div')
    parts.nth(0).hover()
    assert tip(page) == "Spell Muster\nSpell Muster: costs 1 Crystal to cast. Draw a Worker on " \
        "an empty hex next to a drawn Resource or Worker (or a Starting space)."  # fmt: skip
    page.locator(f'#board [data-key="card:{t.seat}:{card}"]').focus()
    shown = tip(page)
    assert shown and shown.endswith(said[card]) and "Authored for this project" in shown
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_a_tap_on_a_phone_shows_the_text_and_a_long_press_on_a_place_makes_no_move(
    harness: Harness,
) -> None:
    """Issue 23 on a phone: a tap shows a part's text (the tap's focus used to hide it again at
    once), a second tap hides it; a long press on a place shows its text and makes no move."""
    t = position("standard", 2, in_action)
    page: Any = harness.open(t, width=390, height=844, touch=True)
    said = texts(t)
    assert tap(page, '[data-key="die:1"]')
    shown = tap(page, '[data-key="key:worker"]')
    assert shown == f"Worker\n{said['worker']}"
    assert tap(page, '[data-key="key:worker"]') is None  # a second tap hides it
    shown = tap(page, f'[data-key="vp:{t.seat}"]')
    assert shown and said["victory points"] in shown
    places = page.locator("#board .pm-card.rb-place")
    assert places.count()
    card = places.first.get_attribute("data-card")
    shown = long_press(page, f'.pm-card.rb-place[data-card="{card}"]')
    assert shown and shown.endswith(said[card])
    assert page.evaluate("window.__sent") is None and t.moves == []
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_family_guilds_and_the_archive_explain_themselves(harness: Harness) -> None:
    t = position("family", 2, lambda s: s.phase == "claim")
    page: Any = harness.open(t, width=390, height=844, touch=True)
    said = texts(t)
    shown = tap(page, '[data-key="guild:0"]')
    assert shown and shown.startswith("Artisans Guild: Craft") and said["guild"] in shown
    shown = tap(page, '[data-key="archive"]')
    assert shown and said["spell archive"] in shown and "Authored for this project" in shown
    shown = long_press(page, ".pm-room.rb-place")
    assert shown and "Next to claim here" in shown
    assert page.evaluate("window.__sent") is None
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_solo_counts_territories_and_explains_the_trolls_points(harness: Harness) -> None:
    """Issue 23: solo said "Round 1" all game; its header counts Territories, and each of the
    Trolls' Territory points says how it was made (below zero where the table was beaten)."""
    t = position("solo", 1, lambda s: s.phase == "draw" and len(s.finished) == 2)  # type: ignore[attr-defined]
    page: Any = harness.open(t, height=800)
    progress = page.inner_text('#board [data-key="progress"]')
    assert progress.startswith("Territory 3 of 8") and "Round" not in page.inner_text("#board")
    shown = hover(page, '[data-key="trolls:1"]')
    words = t.state.observation(0)["solo"]["troll_points"][0]["words"]
    assert shown and shown.endswith(words) and "the table's 6 minus your" in words
    shown = hover(page, '[data-key="trolls-total"]')
    assert shown and "below zero where you scored more than the table" in shown
    assert page.locator("#board .pm-solo tr.pm-now td").first.inner_text() == "3"
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_the_raged_worker_is_marked_on_the_map(harness: Harness) -> None:
    """Issue 23: a Rage was seen only in the log. The Worker it made count more is ringed and
    marked "x3" on the map, and says so, for the rest of the turn and the next."""
    t = position(
        "standard",
        2,
        lambda s: bool(s.raged) and s.phase in ("draw", "wild", "buy"),  # type: ignore[attr-defined]
        seed=2,
        pick="buy rage",
    )
    raged = t.state.observation(0)["rage"]
    page: Any = harness.open(t, height=800)
    assert page.locator("#board .pm-rage").count() == 1
    assert page.text_content("#board .pm-rage") == f"×{raged['counts_as']}"
    shown = hover(page, f'[data-key="hex:{raged["hex"]}"]')
    counted = f"Worker here count{'s' if raged['this_turn'] else 'ed'} as {raged['counts_as']}"
    assert shown and "Rage" in shown and counted in shown
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()
