"""The log says aloud what the rules did on their own, in a real browser.

For each game, bots play a game up to a step nobody chose (a war, an enclosed area, a round's
end, a Mastery: :mod:`rulebook.core.events`); the game is uploaded to a real ``rulebook serve``
as a save file and opened in chromium as seat 1, whose log must show that step's line in plain
words, as a line of its own, not numbered as a move.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import rulebook
from boardpages import chromium, served, wait_until
from rulebook.agents import make_agent
from rulebook.web.views import made

pytestmark = pytest.mark.xdist_group("log-browser")

#: game, players, variant, bots, and what seat 1's log must show after the step (a regular
#: expression one event line of the page matches)
CASES = [
    ("battle-merchants", 2, "standard", "greedy", r"Battle at \w+ Battlefield \d+ .*(beats|tie)"),
    ("battle-merchants", 3, "standard", "random", r"earns? \d+ gold for repairs"),
    ("archmagi", 2, "standard", "greedy", r"^Tier 1 Monsters come onto their Path: the [A-Z]"),
    ("archmagi", 3, "standard", "random", r"^Round 3 begins: .* shuffled into a new Magic Pool"),
    ("merchants-of-magick", 3, "standard", "greedy", r"scores? \d+ Coins (each )?for Master \w+"),
    ("ye-olde-magick-shoppe", 2, "standard", "greedy", r"scores? \d+ stars .*Certification:"),
    ("merchants-of-magick", 1, "solo", "greedy", r"\d+ Coins for Master .*only one a solo game"),
    ("pandoria-merchants", 2, "standard", "greedy", r"enclose.*area.*gains? \d+ \w+ \(\d+ Worker"),
    ("pandoria-merchants", 2, "family", "greedy", r"area .*scores? \d+ VP \(.* the \w+ Guild\)"),
    ("pandoria-merchants", 1, "solo", "greedy", r"Trolls score -?\d+ points? for Territory \d"),
]


def played_until(game: str, players: int, variant: str, agent: str, pattern: str) -> str:
    """The save file of a game between bots stopped right after a move whose steps, as seat 0
    reads them, include a line matching ``pattern``."""
    state = rulebook.new_game(game, players, seed=11, variant=variant)
    bots = [make_agent(agent, p) for p in range(players)]
    while not state.is_terminal():
        seat = state.current_players()[0]
        told = made(state, seat, bots[seat].act(state, seat))
        if any(re.search(pattern, e.told_to(0) or "") for e in told.events):
            return state.to_json()
    raise AssertionError(f"{game}: no step told as {pattern!r} in a whole game")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with served(tmp_path_factory.mktemp("log")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.mark.parametrize(("game", "players", "variant", "agent", "pattern"), CASES)
def test_the_log_tells_the_steps_nobody_chose(
    server: Any, browser: Any, game: str, players: int, variant: str, agent: str, pattern: str
) -> None:
    save = played_until(game, players, variant, agent, pattern)
    seats = ",".join(["human"] + [agent] * (players - 1))
    r = httpx.post(
        f"{server.url}/api/games/upload",
        files={"file": ("game.json", save, "application/json")},
        data={"seats": seats},
    )
    assert r.status_code == 201, r.text
    link = next(s["url"] for s in r.json()["seats"] if s["seat"] == 0)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(server.url + link if link.startswith("/") else link)
        wait_until(
            page,
            "document.querySelectorAll('#log li.event').length > 0"
            " && document.querySelector('#game').dataset.version !== undefined",
        )
        lines = page.eval_on_selector_all("#log li.event", "ns => ns.map(n => n.innerText)")
        assert any(re.search(pattern, line) for line in lines), json.dumps(lines[-20:])
        # a step is not a move: the list's numbers count the moves only (the page's version)
        numbered, moves = page.evaluate(
            "[[...document.querySelectorAll('#log li')]"
            ".filter(n => getComputedStyle(n).display === 'list-item').length,"
            " Number(document.querySelector('#game').dataset.version)]"
        )
        assert numbered == moves
    finally:
        page.close()


def test_the_save_file_holds_moves_only(tmp_path: Path) -> None:
    """What is told is never stored: the save file of a game with battles is its setup and
    moves, and replays to the same game."""
    save = played_until("battle-merchants", 2, "standard", "greedy", r"Battle at")
    data = json.loads(save)
    assert set(data) == {"format", "game", "players", "seed", "variant", "options", "log"}
    again = rulebook.from_json(save)
    assert again.snapshot() == rulebook.from_json(again.to_json()).snapshot()
