"""The Archmagi board explains itself (issue 23): every card, pile, token, phase and symbol
shows its text from the data files on hover (desktop), on a tap (phone) and on keyboard focus,
and the decisions' buttons read in plain words. Through the board harness (no server)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from board_harness import CHROMIUM, Harness, Table, table
from rulebook.archmagi.cards import cards
from rulebook.archmagi.content import content, glossary
from rulebook.archmagi.rules import ArchmagiState

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.xdist_group("boards"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


def lightning_table() -> Table:
    """Seat 0 plays the Lightning Magi and has played Harvest's Top with a Spell Planted, so a
    "you may" waits; the Tier 1 Path holds three Monsters and seat 1 has Planted a Spell and
    defeated a Monster."""
    t = table("archmagi", 2, seed=5, options={"magi": "lightning,flora"})
    state = t.state
    assert isinstance(state, ArchmagiState) and not state.stack
    tier1 = [i for i, m in enumerate(content().monsters) if m.tier == 1]
    state.paths[0] = tier1[:3]
    state.trophies[1] = [tier1[3]]
    state.planted[1] = [state.books[1].pop()]
    book = state.books[1]
    for name, pile in (("Harvest", state.hands[0]), ("Sprout", state.planted[0])):
        index = next(i for i in book if content().cards[i].name == name)
        book.remove(index)
        pile.append(index)
    t.apply(0, "top Harvest")
    assert state.stack[-1][0] == "may"
    return t


def tip(page: Any) -> str:
    shown = page.locator("#rb-tip")
    return str(shown.inner_text()) if shown.is_visible() else ""


def test_every_part_of_the_board_explains_itself_on_hover(harness: Harness) -> None:
    t = lightning_table()
    page = harness.open(t)
    texts = cards(t.state.setup)
    for kind in (".am-card", ".am-half", ".am-monster", ".am-ability", ".am-pile", ".am-symbol"):
        nodes = page.locator(f"#board {kind}")
        assert nodes.count(), kind
        assert nodes.count() == page.locator(f"#board {kind}[data-explain]").count(), kind
    monster = content().monsters[t.state.paths[0][1]].name
    page.locator(f'#board .am-monster[data-monster="{monster}"]').hover()
    assert tip(page) == f"{monster}\n{texts[monster]}"
    assert "Authored for this project" in texts[monster]
    page.locator("#board .am-symbol", has_text="Search").hover()
    name, text = glossary().symbols["search"]
    assert tip(page) == f"{name}\n{text}"
    page.locator("#board .am-pool").hover()
    assert tip(page) == "Magic Pool\n" + glossary().terms["Magic Pool"] + (
        "\nA ruling of this project: " + glossary().authored["Magic Pool"] + "."
    )
    page.locator("#board .am-mat .am-ability").first.hover()
    assert tip(page) == f"Lightning Magi\n{texts['Lightning Magi']}"
    # a mouse may move onto a tip, which stays while it is there (WCAG 1.4.13): the mouse
    # leaves it before it points at a part the tip lies over
    page.mouse.move(0, 0)
    planted = t.state.moves.name_of[t.state.planted[1][0]]
    page.locator("#board .am-planted .am-card").first.hover(position={"x": 20, "y": 8})
    assert tip(page) == f"{planted}\n{texts[planted]}"
    # a decision's buttons say in plain words what they do
    labels = page.locator("#board .am-decision button").all_inner_texts()
    assert labels == [
        "Choose to uproot 1 Planted Spell, then gain 2 Crystals",
        "Decline to uproot 1 Planted Spell, then gain 2 Crystals",
    ]
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_a_tap_on_a_phone_shows_a_card_and_a_second_tap_hides_it(harness: Harness) -> None:
    """One tap shows the tip (the tap also focuses the node: the tip must not toggle off)."""
    t = lightning_table()
    page = harness.open(t, width=390, height=844, touch=True)
    texts = cards(t.state.setup)
    ability = page.locator("#board .am-mat .am-ability").first
    ability.scroll_into_view_if_needed()
    ability.tap()
    assert tip(page) == f"Lightning Magi\n{texts['Lightning Magi']}"
    ability.tap()
    assert tip(page) == ""
    trophy = page.locator("#board .am-trophy").first
    trophy.tap()
    name = content().monsters[t.state.trophies[1][0]].name
    assert tip(page) == f"{name}\n{texts[name]}"
    page.locator("#board .am-symbol", has_text="Favor").tap()
    assert tip(page).startswith("Favor\n" + glossary().terms["Favor"])
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()
