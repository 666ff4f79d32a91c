"""Battle Merchants' board explains itself (issue 23): every kind of component carries its
text from the data files (the board's static ``texts``, the terminal's ``card NAME``), shown
in a tip on hover (desktop), on a tap (phone) and, on a place that makes a move, on a long
press that makes no move. Drawn in Debian's chromium through the board harness
(``tests/board_harness.py``, no server), at seeded positions."""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

from board_harness import CHROMIUM, Harness, Table, advance, table

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.xdist_group("board-harness"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

#: each kind of component the board draws (a CSS selector) and the name of its text
COMPONENTS = {
    "#board .bm-craft": "Craft Card",
    "#board .bm-kingdom": "Kingdom Card",
    "#board .bm-space:not(.bm-filled)": "Weapon Space",
    "#board .bm-space.bm-filled": "Weapon tile on the board",
    "#board .bm-battlefield-token.bm-is-fire": "Demand Token (fire)",
    "#board .bm-battlefield-token.bm-is-lock": "Demand Token (lock)",
    "#board .bm-region-text": "Region",
    "#board .bm-race-text": "race",
    "#board .bm-region > .bm-hex": "Region Reward Tile",
    "#board .bm-reward-space": "the races' Reward spaces",
    "#board .bm-seasons": "Seasons",
    "#board .bm-area": "Season Area",
    "#board .bm-mat-row": "Craft Level track",
    "#board .bm-mat header strong": "mat",
    "#board .bm-gold": "Gold",
    "#board .bm-tile-chip": "Reward Tile on a mat",
    "#board .bm-bonus-chip": "Craft Bonus card",
    "#board .bm-k-chip": "Kingdom Card on a mat",
    "#board .bm-mat-foot .bm-small-text": "Defeated Weapons",
    "#board .bm-deck": "decks",
    "#board .bm-steve-head": "Salesman Steve",
    "#board .bm-steve > .bm-small-text": "side board",
}

#: what the page says of every explained node: its selector match, text and heading
EXPLAINED = """(selectors) => {
  const out = {};
  for (const sel of selectors) {
    out[sel] = [...document.querySelectorAll(sel)].map((n) => [
      n.getAttribute('data-explain'), n.getAttribute('data-explain-heading')]);
  }
  return out;
}"""
#: the tip's text, None while it is hidden
TIP = """(() => {
  const t = document.getElementById('rb-tip');
  return t && !t.hidden ? t.innerText : null;
})()"""


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


def steve_table() -> Table:
    """2 players, some way into the game: Weapons on the board, tiles and cards on mats."""
    t = table("battle-merchants", 2, seed=6)
    return advance(t, 60, random.Random(7))


def test_every_component_carries_its_text_from_the_data_files(harness: Harness) -> None:
    t = steve_table()
    page = harness.open(t)
    texts = t.view()["static"]["texts"]
    found = page.evaluate(EXPLAINED, list(COMPONENTS))
    for selector, kind in COMPONENTS.items():
        nodes = found[selector]
        assert nodes, f"no {kind} drawn ({selector})"
        for text, heading in nodes:
            assert text and heading, f"{kind} without a text ({selector})"
            # the data files' text, after what the observation adds of this very one
            assert any(text == known or text.endswith("\n" + known) for known in texts.values()), (
                kind,
                text,
            )
    crafts = [text for text, _ in found["#board .bm-craft"]]
    assert all("Authored for this project" in text for text in crafts)
    page.close()
    assert page.errors == []


def test_hovering_shows_the_tip(harness: Harness) -> None:
    t = steve_table()
    page = harness.open(t)
    texts = t.view()["static"]["texts"]
    name = t.state.observation(0)["kingdom_cards"][0]["name"]
    for selector, expected in (
        ("#board .bm-kingdom", texts[name]),
        ("#board .bm-lock", texts["Demand Token (lock)"]),
        ("#board .bm-steve-head", texts["Salesman Steve"]),
        ("#board .bm-gold", texts["Gold"]),
    ):
        node = page.locator(selector).first
        node.scroll_into_view_if_needed()
        node.hover()
        page.wait_for_selector("#rb-tip:not([hidden])")
        shown = page.evaluate(TIP)
        assert shown is not None and expected in shown.replace("\n", " "), (selector, shown)
        page.mouse.move(1, 1)
    page.close()
    assert page.errors == []


def long_press(page: Any, selector: str) -> None:
    node = page.locator(selector).first
    node.scroll_into_view_if_needed()
    box = node.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    time.sleep(0.7)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_a_tap_shows_the_tip_and_a_long_press_on_a_place_makes_no_move(
    harness: Harness,
) -> None:
    t = table("battle-merchants", 2, seed=6)
    t.play_others(random.Random(1))
    page = harness.open(t, width=390, height=844, touch=True)
    texts = t.view()["static"]["texts"]
    for selector, name in (
        ("#board .bm-race-text", None),
        ("#board .bm-tile-chip", None),
        ("#board .bm-bonus-chip", "Axe Craft Bonus"),
    ):
        node = page.locator(selector).first
        node.scroll_into_view_if_needed()
        node.tap()
        page.wait_for_selector("#rb-tip:not([hidden])")
        shown = page.evaluate(TIP)
        expected = (
            texts[name]
            if name
            else page.evaluate(
                "(s) => document.querySelector(s).getAttribute('data-explain')", selector
            )
        )
        assert shown is not None and expected.split("\n")[-1] in shown.replace("\n", " ")
    node.tap()  # a second tap on the same one hides it
    page.wait_for_selector("#rb-tip[hidden]", state="attached")
    # a Craft Card that can be learned: a long press explains it and learns nothing
    learnable = "#board .bm-craft.rb-place"
    assert page.locator(learnable).count()
    before = len(t.state.history)
    long_press(page, learnable)
    page.wait_for_selector("#rb-tip:not([hidden])")
    time.sleep(0.3)
    assert "Craft Card" in (page.evaluate(TIP) or "")
    assert len(t.state.history) == before and not page.evaluate("window.__sent || []")
    page.close()
    assert page.errors == []


#: where the focus is: inside the board or not, the rove group it is in, its data-key
WHERE = """() => {
  const a = document.activeElement;
  const group = a && a.closest('[data-rove]');
  return { board: document.getElementById('board').contains(a),
           group: group ? group.getAttribute('data-rove') : null,
           key: a ? a.getAttribute('data-key') : null };
}"""


def test_a_redraw_never_drops_the_keyboards_focus_out_of_the_board(harness: Harness) -> None:
    """A redraw keeps the focus on the same part (by its data-key); where that part is gone or
    has no key, on its group's Tab stop: never on the page's start, where the next Tab or arrow
    would begin again from the top."""
    t = steve_table()
    page = harness.open(t)
    row = page.locator("#board .bm-mat-row[tabindex]").first
    row.focus()
    page.keyboard.press("ArrowRight")  # the keyboard's focus (a click's stays where it fell)
    start = page.evaluate(WHERE)
    assert start["board"] and start["group"] and start["key"]
    redraw = "async () => window.__show(await window.pyView())"
    page.evaluate(redraw)
    assert page.evaluate(WHERE) == start  # the same part
    for change in (
        "document.activeElement.setAttribute('data-key', 'gone:1')",  # the part is gone
        "document.activeElement.removeAttribute('data-key')",  # a part with no key
    ):
        page.evaluate(f"() => {change}")
        page.evaluate(redraw)
        now = page.evaluate(WHERE)
        assert now["board"] and now["group"] == start["group"], (change, now)
        page.keyboard.press("ArrowRight")  # the arrows still walk the group
        assert page.evaluate(WHERE)["group"] == start["group"]
    page.close()
    assert page.errors == []
