"""Every game's board, at a seeded position where one place stands for several moves: clicking
it asks the page for just those moves (``ctx.offer``), and the one picked is made. Drawn in
Debian's chromium through the board harness (``tests/board_harness.py``, no server), so the
positions are the same every run: a circle two dice can mark, Battle Merchants' mat row that
forges a Standard or a Vorpal Weapon, a Pandoria hex either die can fill, the Fire Magi's
Bottom half (its Bottom Action, or Top then Bottom)."""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from board_harness import CHROMIUM, Harness, Table, table

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.xdist_group("board-harness"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]


def shared_circle(legal: list[str]) -> bool:
    return max(Counter(t.split(" ")[1] for t in legal if t != "done").values(), default=0) > 1


def standard_and_vorpal(legal: list[str]) -> bool:
    return any(t.startswith("forge vorpal ") and f"forge {t.split()[-1]}" in legal for t in legal)


def two_kinds_on_a_hex(legal: list[str]) -> bool:
    hexes = [t.split(" ")[1] for t in legal if re.match(r"^(wood|crystal|craft|gold|city) ", t)]
    return max(Counter(hexes).values(), default=0) > 1


def top_then_bottom(legal: list[str]) -> bool:
    return any(t.startswith("both ") for t in legal)


#: (game, players, options, the position wanted, seed)
CASES = [
    ("merchants-of-magick", 2, None, shared_circle, 1),
    ("ye-olde-magick-shoppe", 3, None, shared_circle, 1),
    ("battle-merchants", 2, None, standard_and_vorpal, 0),
    ("pandoria-merchants", 2, None, two_kinds_on_a_hex, 1),
    ("archmagi", 2, {"magi": "fire,water"}, top_then_bottom, 0),
]


def position(
    game: str,
    players: int,
    options: dict[str, str] | None,
    wanted: Callable[[list[str]], bool],
    seed: int,
) -> Table:
    """Play seeded random moves until the seat to act has the position wanted; sit it there."""
    t = table(game, players, seed=seed, options=options)
    rng = random.Random(seed)
    state = t.state
    for _ in range(5000):
        p = state.current_players()[0]
        legal = [str(a) for a in state.legal_actions(p)]
        if wanted(legal):
            t.seat = p
            t.moves = []
            t.labels = ["human" if q == p else "greedy" for q in range(players)]
            return t
        t.apply(p, rng.choice(legal))
    raise AssertionError(f"{game}: no such position in 5000 moves")


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


@pytest.mark.parametrize(
    ("game", "players", "options", "wanted", "seed"), CASES, ids=[c[0] for c in CASES]
)
def test_a_place_of_several_moves_offers_just_those(
    harness: Harness,
    game: str,
    players: int,
    options: dict[str, str] | None,
    wanted: Callable[[list[str]], bool],
    seed: int,
) -> None:
    t = position(game, players, options, wanted, seed)
    page: Any = harness.open(t)
    spots = page.eval_on_selector_all(
        "#board [data-moves]", "ns => ns.map(n => [n.dataset.key, n.dataset.moves.split('\\n')])"
    )
    several = [(key, moves) for key, moves in spots if len(moves) > 1]
    assert several, spots
    legal = {str(a) for a in t.state.legal_actions(t.seat)}
    assert all(m in legal for _, moves in spots for m in moves)  # nothing invented
    key, moves = several[0]
    before = len(t.state.history)
    page.locator(f'#board [data-key="{key}"]').click()
    assert sorted(page.evaluate("window.__offered")) == sorted(moves)
    page.locator("#offer button").nth(1).click()
    page.wait_for_function("window.__sent && window.__sent.length === 1")
    assert page.evaluate("window.__sent") == [moves[1]]  # the menu lists them in order
    assert t.moves == [moves[1]]
    assert len(t.state.history) > before
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()
