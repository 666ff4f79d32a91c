"""The balance lab's game statistics (``Game.counters``, ``Game.faction``) of all five games:
finite numbers, the same for the same seed, a faction per seat where the game has one, and
values checked against hand-driven positions."""

from __future__ import annotations

import math
import random

import pytest

import properties as props
import rulebook
from rulebook.archmagi import actions
from rulebook.archmagi.rules import ArchmagiState
from rulebook.battle_merchants.actions import TURN
from rulebook.battle_merchants.content import content as battle_content
from rulebook.battle_merchants.rules import BattleState
from rulebook.battle_merchants.seasons import battles
from rulebook.battle_merchants.setup import EMPTY
from rulebook.core import State
from rulebook.core.rollwrite import SheetState
from rulebook.merchants_of_magick.rules import MerchantsState
from rulebook.pandoria_merchants.rules import PandoriaState
from rulebook.pandoria_merchants.terms import BUILT, CAST, MONUMENT, OWNED
from rulebook.ye_olde_magick_shoppe.rules import ShoppeState

CASES = [
    ("merchants-of-magick", 1, "solo"),
    ("merchants-of-magick", 3, None),
    ("ye-olde-magick-shoppe", 1, "solo"),
    ("ye-olde-magick-shoppe", 4, None),
    ("battle-merchants", 2, None),
    ("battle-merchants", 4, None),
    ("pandoria-merchants", 1, "solo"),
    ("pandoria-merchants", 3, "standard"),
    ("pandoria-merchants", 4, "family"),
    ("archmagi", 2, None),
    ("archmagi", 4, None),
]


def finished(name: str, players: int, variant: str | None, seed: int) -> State:
    state = rulebook.new_game(name, players=players, seed=seed, variant=variant)
    return props.play_random(state, random.Random(seed))


def test_every_game_has_the_lab_hooks() -> None:
    for name in rulebook.games():
        game = rulebook.get_game(name)
        assert game.counters is not None, name
        assert game.common_players == 4, name
    factions = {n for n in rulebook.games() if rulebook.get_game(n).faction is not None}
    assert "ye-olde-magick-shoppe" not in factions  # nothing is dealt to a seat for good
    assert {"merchants-of-magick", "battle-merchants", "archmagi"} <= factions


@pytest.mark.parametrize(("name", "players", "variant"), CASES)
def test_counters_are_finite_and_deterministic(
    name: str, players: int, variant: str | None
) -> None:
    game = rulebook.get_game(name)
    assert game.counters is not None
    a = finished(name, players, variant, seed=5)
    b = finished(name, players, variant, seed=5)
    for p in range(players):
        ca, cb = dict(game.counters(a, p)), dict(game.counters(b, p))
        assert ca == cb
        assert ca, "no counters"
        for key, value in ca.items():
            assert isinstance(value, float) and math.isfinite(value), (key, value)
            assert value >= 0, (key, value)
            if ":" in key:
                group, _, item = key.partition(":")
                assert group and item, key
        if game.faction is not None:
            f = game.faction(a, p)
            assert f == game.faction(b, p)
            if name == "pandoria-merchants" and variant != "family":
                assert f == ""  # no faction outside the family version
            else:
                assert isinstance(f, str) and f


# -- the sheet games ------------------------------------------------------------------------------
MOM_PLAIN = {
    "rows_completed",
    "item_rows_completed",
    "orders_claimed",
    "double_orders_claimed",
    "order_coins",
    "potions_left",
    "extra_dice_used",
    "adventurer_orders",
    "masteries_scored",
    "circles_marked",
}


def _fill_row_and_claim(state: SheetState, player: int) -> tuple[str, str, int]:
    """Mark every circle of the first row and claim the first card by hand."""
    row = state.content.layout.rows[0]
    state.marks[player] |= row.mask
    card = state.content.cards[0]
    state.claimed[player].append(card.index)
    state.extra_used[player] = 2
    return row.id, card.name, card.value


def test_merchants_of_magick_counter_names_are_unchanged() -> None:
    state = rulebook.new_game("merchants-of-magick", players=2, seed=1)
    assert isinstance(state, MerchantsState)
    row, order, coins = _fill_row_and_claim(state, 1)
    c = rulebook.get_game("merchants-of-magick").counters
    assert c is not None
    got = dict(c(state, 1))
    assert {k for k in got if ":" not in k} == MOM_PLAIN
    assert got["rows_completed"] == 1.0 and got[f"row:{row}"] == 1.0
    assert got["orders_claimed"] == 1.0 and got[f"order:{order}"] == 1.0
    assert got["order_coins"] == float(coins)
    assert got["extra_dice_used"] == 2.0
    assert got["circles_marked"] == float(state.content.layout.rows[0].mask.bit_count())
    assert dict(c(state, 0))["rows_completed"] == 0.0


def test_ye_olde_magick_shoppe_counters_in_its_own_words() -> None:
    state = rulebook.new_game("ye-olde-magick-shoppe", players=2, seed=1)
    assert isinstance(state, ShoppeState)
    row, customer, stars = _fill_row_and_claim(state, 0)
    state.bonus[0] = [1, 2]
    c = rulebook.get_game("ye-olde-magick-shoppe").counters
    assert c is not None
    got = dict(c(state, 0))
    assert got["rows_completed"] == 1.0 and got[f"row:{row}"] == 1.0
    assert got["customers_claimed"] == 1.0 and got[f"customer:{customer}"] == 1.0
    assert got["customer_stars"] == float(stars)
    assert got["connoisseurs_claimed"] == 0.0  # the first card is a normal Customer
    assert got["minus_modifiers_left"] == 1.0 and got["plus_modifiers_left"] == 2.0
    assert got["extra_dice_used"] == 2.0
    assert "certifications_scored" in got and "double_customers_claimed" not in got


# -- Battle Merchants -----------------------------------------------------------------------------
def _battle(players: int = 4) -> BattleState:
    state = rulebook.new_game("battle-merchants", players=players, seed=1)
    assert isinstance(state, BattleState)
    return state


def test_battle_merchants_counts_sales_per_race_and_region() -> None:
    """The Dwarf sale example, twice: two Standard Axes to the Dwarves of the Forest."""
    s = _battle()
    s.current = 1
    s.supply[1][0] = 2
    s.apply(1, "sell forest/dwarf/1")
    s.current, s.step = 1, TURN
    s.spaces[s.board.spaces[s.board.space_by_id["forest/dwarf/1"]].index] = EMPTY
    s.apply(1, "sell forest/dwarf/1")
    c = rulebook.get_game("battle-merchants").counters
    assert c is not None
    got = dict(c(s, 1))
    assert got["sold_standard"] == 2.0 and got["weapons_sold"] == 2.0
    assert got["race:dwarf"] == 2.0 and got["region:forest"] == 2.0
    assert got["sold_vorpal"] == 0.0
    assert "race:dwarf" not in c(s, 0)


def test_battle_merchants_counts_battles() -> None:
    """The battles example: red's Vorpal beats purple, purple's Mace beats yellow's Hammer,
    red and yellow tie at Level 5."""
    s = _battle()
    red, purple, yellow = 0, 1, 2
    mace, sword, hammer = 2, 1, 3

    def put(sid: str, owner: int, vorpal: bool = False) -> None:
        s.spaces[s.board.space_by_id[sid]] = owner * 2 + int(vorpal)

    put("mountains/elf/3", red, vorpal=True)
    put("mountains/hobgoblin/3", purple)
    s.levels[purple][mace] = 3
    s.levels[yellow][hammer] = 2
    put("mountains/elf/6", yellow)
    put("mountains/hobgoblin/6", purple)
    s.levels[red][sword] = 5
    s.levels[yellow][mace] = 5
    put("mountains/elf/1", red, vorpal=True)
    put("mountains/hobgoblin/1", yellow, vorpal=True)
    battles(s)
    c = rulebook.get_game("battle-merchants").counters
    assert c is not None
    won_lost_tied = [
        tuple(c(s, p)[k] for k in ("battles_won", "battles_lost", "battles_tied"))
        for p in (red, purple, yellow)
    ]
    assert won_lost_tied == [(1.0, 0.0, 1.0), (1.0, 1.0, 0.0), (0.0, 1.0, 1.0)]
    assert c(s, red)["defeated_standard"] == 1.0


def test_battle_merchants_faction_is_the_mat_colour() -> None:
    s = _battle()
    f = rulebook.get_game("battle-merchants").faction
    assert f is not None
    assert [f(s, p) for p in range(4)] == list(battle_content().colours[:4])
    assert len({f(s, p) for p in range(4)}) == 4


# -- Pandoria Merchants ---------------------------------------------------------------------------
def test_pandoria_merchants_counts_cards_by_their_state() -> None:
    s = rulebook.new_game("pandoria-merchants", players=2, seed=1, variant="standard")
    assert isinstance(s, PandoriaState)
    cards = s.c.cards
    s.cards = ((OWNED, CAST, BUILT, MONUMENT, *[0] * (len(cards) - 4)), *s.cards[1:])
    c = rulebook.get_game("pandoria-merchants").counters
    assert c is not None
    got = dict(c(s, 0))
    assert got["cards_owned"] == 4.0
    assert got["spells_cast"] == 1.0 and got[f"spell:{cards[1].spell}"] == 1.0
    assert got["buildings_built"] == 2.0
    assert got[f"building:{cards[2].building}"] >= 1.0
    assert all(got[f"card:{cards[i].id}"] == 1.0 for i in range(4))


def test_pandoria_merchants_family_faction_is_the_guild() -> None:
    s = rulebook.new_game("pandoria-merchants", players=3, seed=1, variant="family")
    assert isinstance(s, PandoriaState)
    f = rulebook.get_game("pandoria-merchants").faction
    assert f is not None
    assert [f(s, p) for p in range(3)] == [s.c.guilds[p][0] for p in range(3)]


# -- Archmagi -------------------------------------------------------------------------------------
def test_archmagi_faction_is_the_magi_and_monsters_count() -> None:
    s = rulebook.new_game("archmagi", players=2, seed=1, options={"magi": "water,fire"})
    assert isinstance(s, ArchmagiState)
    game = rulebook.get_game("archmagi")
    assert game.faction is not None and game.counters is not None
    assert [game.faction(s, p) for p in range(2)] == ["Water Magi", "Fire Magi"]
    monster = 0  # the first Monster of the data
    s.trophies[1].append(monster)
    actions.gain(s, 1, 3)  # the Symbols Guide's crystal gain, counted for the lab
    got = dict(game.counters(s, 1))
    m = s.content.monsters[monster]
    assert got["monsters_defeated"] == 1.0 and got[f"monster:{m.name}"] == 1.0
    assert got["favor"] == float(m.favor)
    assert got["crystals_gained"] == 3.0
    assert dict(game.counters(s, 0))["monsters_defeated"] == 0.0
