"""The games' board views (issue 13, the contract in docs/web-api.md), without a browser: where each
board's files are found, what ``static(setup)`` gives (public, the same for every seed, read
from the data files), and what the observations add for the boards."""

from __future__ import annotations

import json
import random
import re

import pytest

import rulebook
from rulebook.core import Setup, get_game
from rulebook.core.boardkit import board_file, board_static

GAMES = rulebook.games()
IMPORT = re.compile(r"""(?:from\s+|import\s*\(\s*|@import\s+url\(\s*)["']\./([^"']+)["']""")


def setups(game: str) -> list[Setup]:
    """One setup per variant and player count (Archmagi: one Magi choice too)."""
    g = get_game(game)
    out = []
    for v in g.variants:
        for n in range(v.min_players, v.max_players + 1):
            out.append(g.setup(n, 1, v.name))
    if game == "pandoria-merchants":
        out += [g.setup(1, 1, "solo", {"level": lv}) for lv in ("intermediate", "expert")]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_board_whose_imports_are_all_served(game: str) -> None:
    g = get_game(game)
    assert g.web_view == f"rulebook.{game.replace('-', '_')}.web"
    found = board_file(g, "board.js")
    assert found is not None and found[1].startswith("text/javascript")
    assert "export function render(root, view, ctx)" in found[0]
    css = board_file(g, "board.css")
    assert css is not None and css[1].startswith("text/css")
    # every module and stylesheet a board imports ("./sheet.js", "./kit.css") is served too
    seen: set[str] = set()
    todo = ["board.js", "board.css"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        served = board_file(g, name)
        assert served is not None, f"{game}: {name} is imported but not served"
        todo += IMPORT.findall(served[0])
    assert "kit.js" in seen
    if game in ("merchants-of-magick", "ye-olde-magick-shoppe"):
        assert {"sheet.js", "sheet.css"} <= seen  # the shared roll-and-write sheet


@pytest.mark.parametrize(
    "name",
    [
        "../rules.py",
        "board.py",
        "__init__.py",
        "a/board.js",
        "/etc/passwd",
        "",
        ".js",
        "BOARD.JS",
        "board.js/",
        "kit.js\x00",
        "x" * 80 + ".js",
        "missing.js",
    ],
)
def test_board_files_are_only_board_modules(name: str) -> None:
    assert board_file(get_game("archmagi"), name) is None


@pytest.mark.parametrize("game", GAMES)
def test_static_is_public_and_the_same_for_every_seed(game: str) -> None:
    """``static(setup)`` draws on the configuration only: another seed changes nothing, so it
    can hold no deck order, no die and no seed."""
    g = get_game(game)
    for setup in setups(game):
        first = board_static(g, setup)
        assert first is not None
        other = Setup(setup.game, setup.players, 987654, setup.variant, setup.options)
        assert board_static(g, other) == first
        json.dumps(first)  # plain data for the page


def test_sheet_static_is_the_printed_sheet() -> None:
    from rulebook.merchants_of_magick.content import content as mom
    from rulebook.ye_olde_magick_shoppe.content import content as yoms

    g = get_game("merchants-of-magick")
    st = board_static(g, g.setup(2, 0))
    assert st is not None
    layout = mom().layout
    circles = {c["id"]: c["threshold"] for row in st["rows"] for c in row["circles"]}
    assert circles == {c.id: c.threshold for c in layout.circles}
    assert [r["value"] for r in st["rows"]] == [r.value for r in layout.rows]
    assert st["extra_dice_costs"] == [0, 0, 0, 2, 3, 4]
    supplier = next(r for r in st["rows"] if r["id"] == "potion-supplier")
    assert supplier["potions"] == 5  # "gain 5 potions instead of 1"
    assert {c["id"]: c["dice"] for c in st["columns"]}["steel"] == ["d6"]
    solo = board_static(g, g.setup(1, 0, "solo"))
    assert solo is not None and solo["ratings"][0] == [60, "Apprentice"]

    y = get_game("ye-olde-magick-shoppe")
    st = board_static(y, y.setup(3, 0))
    assert st is not None
    rows = yoms().rows
    assert [r["bonus_kind"] for r in st["rows"]] == [r.bonus for r in rows]
    assert st["modifier_values"] == {"minus": [1, 2, 3], "plus": [1, 2, 3]}
    assert st["words"]["masteries"] == "Certifications"


def test_other_statics_come_from_the_data_files() -> None:
    from rulebook.archmagi.content import content as am
    from rulebook.battle_merchants.content import content as bm
    from rulebook.pandoria_merchants.content import content as pm

    g = get_game("battle-merchants")
    st = board_static(g, g.setup(3, 0))
    assert st is not None
    assert st["chart"]["standard"] == {"forge": 5, "sell": 6, "end": bm().chart.end_standard}
    assert "hobgoblin" not in st["races"] and st["steve"] is False  # 3 players: no Hobgoblins
    st2 = board_static(g, g.setup(2, 0))
    assert st2 is not None and st2["steve"] is True

    p = get_game("pandoria-merchants")
    for players, rows in ((2, 4), (3, 7), (4, 10)):
        st = board_static(p, p.setup(players, 0))
        assert st is not None
        assert (st["width"], st["height"]) == (pm().boards[players].width, rows)
        assert st["boundary"] == (None if players == 4 else rows)
    solo = board_static(p, p.setup(1, 0, "solo"))
    assert solo is not None and len(solo["bridges"]) == len(pm().boards[0].bridges)

    a = get_game("archmagi")
    st = board_static(a, a.setup(2, 0))
    assert st is not None
    assert set(st["spells"]) == {s.name for s in am().cards}
    ember = next(s for s in am().cards if s.bottom)
    assert st["spells"][ember.name]["bottom"] == [e.text() for e in ember.bottom]
    assert [m["element"] for m in st["magi"]] == ["fire", "water", "flora", "lightning"]


def test_battle_merchants_observation_gives_the_craft_cards_faces() -> None:
    """The board draws each face-up Craft Card from its faces: they say what the labels say."""
    state = rulebook.new_game("battle-merchants", players=3, seed=4)
    rng = random.Random(4)
    checked = 0
    while not state.is_terminal() and checked < 40:
        obs = state.observation(0)
        assert len(obs["craft_faces"]) == len(obs["craft_cards"])
        for face, label in zip(obs["craft_faces"], obs["craft_cards"], strict=True):
            if label is None:
                assert face is None
                continue
            coins = f", {face['coins']} coin{'s' if face['coins'] > 1 else ''}" * bool(
                face["coins"]
            )
            assert label == f"{face['weapon']} +{face['levels']} ({face['cost']}{coins})"
            checked += 1
        p = state.current_players()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    assert checked >= 40


def test_customer_cards_say_which_deck_they_are_from() -> None:
    """Ye Olde Magick Shoppe: each shoppe's far-right card is its Connoisseur, drawn apart."""
    state = rulebook.new_game("ye-olde-magick-shoppe", players=3, seed=2)
    for seat in state.observation(1)["seats"]:
        kinds = [c["kind"] for c in seat["customers"]]
        assert kinds == ["customer", "customer", "connoisseur"]
    order = rulebook.new_game("merchants-of-magick", players=2, seed=2).observation(0)
    assert {c["kind"] for s in order["seats"] for c in s["orders"]} == {"order"}
