"""Battle Merchants: every worked example of the rulebook, and the rules around them."""

from __future__ import annotations

import random

import pytest

import rulebook
from rulebook import IllegalAction
from rulebook.battle_merchants.actions import TURN
from rulebook.battle_merchants.content import Space, card_text, content
from rulebook.battle_merchants.craft import learn_cost
from rulebook.battle_merchants.forge import can_forge, forge_cost, forge_limit
from rulebook.battle_merchants.rules import BattleState
from rulebook.battle_merchants.seasons import battle_level, battles, cleanup, repairs
from rulebook.battle_merchants.sell import sale_value
from rulebook.battle_merchants.setup import EMPTY, FIRE, GONE, LOCK
from rulebook.battle_merchants.turns import start_turn
from rulebook.battle_merchants.year_end import year_end

AXE, SWORD, MACE, HAMMER = range(4)
ORC, DWARF, ELF, HOBGOBLIN = range(4)


def new(players: int = 4, seed: int = 1, current: int = 0) -> BattleState:
    state = rulebook.new_game("battle-merchants", players=players, seed=seed)
    assert isinstance(state, BattleState)
    state.current = current
    return state


def space(state: BattleState, sid: str) -> Space:
    return state.board.spaces[state.board.space_by_id[sid]]


def craft_card(weapon: int, cost: int, levels: int, coins: int) -> int:
    for k in content().crafts:
        if (k.weapon, k.multiplier, k.levels, k.coins) == (weapon, cost, levels, coins):
            return k.index
    raise AssertionError("no such Craft Card")


def kingdom_card(name: str) -> int:
    return next(k.index for k in content().kingdom if k.name == name)


def test_each_cards_words_are_worked_out_once_by_its_index() -> None:
    """The views name a card by its index in the content's words (worked out once): the same
    words as the card's own, for every Craft and Kingdom Card."""
    c = content()
    assert [k.index for k in c.crafts] == list(range(len(c.crafts)))
    assert [k.index for k in c.kingdom] == list(range(len(c.kingdom)))
    assert c.craft_labels == tuple(k.label(c.weapons) for k in c.crafts)
    assert c.kingdom_texts == tuple(card_text(k, c) for k in c.kingdom)
    assert len(set(c.kingdom_texts)) > 1 and c.craft_labels[0].startswith(c.weapons[0])


def put(state: BattleState, sid: str, owner: int, vorpal: bool = False) -> None:
    state.spaces[space(state, sid).index] = owner * 2 + int(vorpal)


def offer_kingdom(state: BattleState, name: str) -> None:
    card = kingdom_card(name)
    state.kingdom_pool = [card]
    if card in state.kingdom_deck:
        state.kingdom_deck.remove(card)


def bf(state: BattleState, sid: str) -> int:
    return space(state, sid).index >> 1


# -- content -----------------------------------------------------------------------------------
def test_content_counts_match_the_text() -> None:
    c = content()
    assert sum(k.deck == "spring_summer" for k in c.crafts) == 36
    assert sum(k.deck == "autumn_winter" for k in c.crafts) == 20
    assert len(c.kingdom) == 28
    assert c.chart.sell_standard == 6 and c.chart.forge_standard == 5
    assert c.chart.forge_vorpal == 15
    for name in ("ExtraCrafty", "Slush Fund", "Drive the Workers", "Desperate Times"):
        kingdom_card(name)
    four, three = c.boards[4], c.boards[3]
    assert len(four.regions) == 4 and len(three.regions) == 3
    assert len(four.races) == 4 and len(three.races) == 3
    assert all(len(b.spaces) == len(b.regions) * 12 for b in (four, three))


def test_setup() -> None:
    for n in (2, 3, 4):
        s = new(n)
        assert s.gold == [10] * n
        assert len(s.craft_pool) == 5 and len(s.kingdom_pool) == 3
        assert all(sum(levels) == 2 for levels in s.levels)
        assert all(sum(t) == 1 for t in s.race_tiles)
        fire = [i for i, t in enumerate(s.tokens) if t == FIRE]
        assert fire == [r * 6 for r in range(len(s.board.regions))]
        kingdom = [content().kingdom[k] for k in s.kingdom_deck + s.kingdom_pool]
        assert all(n in k.players for k in kingdom)
        assert kingdom[0].pile == "D"  # the single D card at the bottom
    assert sorted(new(2).steve_races) == [0, 1, 2, 3]


# -- worked examples ---------------------------------------------------------------------------
def test_example_axe_craft_costs() -> None:
    """2 Axe Levels + an x2 card: pay 4, 4 Levels; then an x1 card: pay 4, 5 Levels (Vorpal),
    and Axes cost 2 gold less."""
    s = new()
    s.levels[0][AXE] = 2
    s.craft_pool = [craft_card(AXE, 2, 2, 0), craft_card(AXE, 1, 1, 2)]
    s.gold[0] = 20
    s.apply(0, "learn 1")
    assert (s.gold[0], s.levels[0][AXE]) == (16, 4)
    assert not can_forge(s, 0, AXE, True)
    s.current, s.step = 0, TURN
    s.craft_pool = [craft_card(AXE, 1, 1, 2)]
    s.apply(0, "learn 1")
    assert (s.gold[0], s.levels[0][AXE]) == (12, 5)
    assert can_forge(s, 0, AXE, True)
    assert forge_cost(s, 0, AXE, False) == 3
    assert forge_cost(s, 0, AXE, True) == 13


def test_zero_levels_make_a_card_free() -> None:
    s = new()
    assert s.levels[0][MACE] == 0
    assert learn_cost(s, 0, craft_card(MACE, 2, 2, 0)) == 0


def test_example_forge_thirteen_gold() -> None:
    """1 Hammer (no coins) and 2 Axes (1-coin discount): 5 + 4 + 4 = 13 gold."""
    s = new(current=1)  # purple: Mace and Hammer
    s.levels[1][AXE] = 1
    s.coins[1][AXE] = 1
    s.gold[1] = 20
    s.apply(1, "forge hammer")
    s.apply(1, "forge axe")
    assert s.current == 1
    s.apply(1, "forge axe")
    assert s.gold[1] == 7
    assert s.supply[1][HAMMER * 2] == 1 and s.supply[1][AXE * 2] == 2
    assert s.current == 2  # three Weapons: the turn is over


def test_forge_needs_craft_and_gold() -> None:
    s = new()
    legal = {str(a) for a in s.legal_actions(0)}
    assert "forge axe" in legal and "forge sword" in legal  # red's mat
    assert "forge mace" not in legal and "forge vorpal axe" not in legal
    s.coins[0][AXE] = 9
    assert forge_cost(s, 0, AXE, False) == 0  # never below 0


def test_example_dwarf_sale_for_eight_gold() -> None:
    """A Standard Axe to the Dwarves with 2 Dwarf Reward Tiles earns 6 + 2 = 8; then she takes
    the Dwarf tile of her colour, which did not count for that sale, and no second one."""
    s = new(current=1)
    s.race_tiles[1][DWARF] = 2
    s.supply[1][AXE * 2] = 2
    s.apply(1, "sell forest/dwarf/1")
    assert s.gold[1] == 18
    assert s.race_tiles[1][DWARF] == 3
    assert not s.reward_spaces[DWARF][1]
    s.current, s.step = 1, TURN
    s.spaces[space(s, "forest/dwarf/1").index] = EMPTY
    s.apply(1, "sell forest/dwarf/1")
    assert s.gold[1] == 18 + 9
    assert s.race_tiles[1][DWARF] == 3  # one tile per race per Season


def test_example_grasslands_unlocking() -> None:
    """Only the first Battlefield (Axe, Sword) is open; filling it sends its token to the
    Season Area and unlocks the Mace and Hammer spaces."""
    s = new(current=2)
    s.supply[2] = [1] * 8
    legal = {str(a) for a in s.legal_actions(2)}
    assert "sell grasslands/dwarf/1" in legal and "sell grasslands/elf/1" in legal
    assert "sell grasslands/dwarf/2" not in legal and "sell grasslands/elf/2" not in legal
    assert [space(s, f"grasslands/{r}/1").weapon for r in ("dwarf", "elf")] == [AXE, SWORD]
    assert [space(s, f"grasslands/{r}/2").weapon for r in ("dwarf", "elf")] == [MACE, HAMMER]
    put(s, "grasslands/dwarf/1", 0)
    s.apply(2, "sell grasslands/elf/1")
    assert s.tokens[bf(s, "grasslands/elf/1")] == GONE
    assert s.tokens[bf(s, "grasslands/elf/2")] == FIRE
    assert s.season_area == 1
    s.current, s.step = 2, TURN
    legal = {str(a) for a in s.legal_actions(2)}
    assert "sell grasslands/dwarf/2" in legal and "sell grasslands/elf/2" in legal
    with pytest.raises(IllegalAction):
        s.apply(2, "sell grasslands/elf/3")


def test_open_space_left_by_a_battle_can_be_sold_to() -> None:
    s = new()
    s.supply[0][SWORD * 2] = 1
    target = bf(s, "mountains/elf/3")
    s.tokens[target] = GONE
    assert "sell mountains/hobgoblin/3" not in {str(a) for a in s.legal_actions(0)}
    s.supply[0][AXE * 2] = 1
    assert "sell mountains/hobgoblin/3" in {str(a) for a in s.legal_actions(0)}


def test_example_battles() -> None:
    """Vorpal Mace beats a Standard Axe; Mace Level 3 beats Hammer Level 2; two Vorpals at
    Level 5 tie (both removed, 1 gold each)."""
    s = new()
    red, purple, yellow = 0, 1, 2
    put(s, "mountains/elf/3", red, vorpal=True)  # mace
    put(s, "mountains/hobgoblin/3", purple)  # axe
    s.levels[purple][MACE] = 3
    s.levels[yellow][HAMMER] = 2
    put(s, "mountains/elf/6", yellow)  # hammer
    put(s, "mountains/hobgoblin/6", purple)  # mace
    s.levels[red][SWORD] = 5
    s.levels[yellow][MACE] = 5
    put(s, "mountains/elf/1", red, vorpal=True)  # sword
    put(s, "mountains/hobgoblin/1", yellow, vorpal=True)  # mace
    gold = s.gold.copy()
    battles(s)
    assert s.spaces[space(s, "mountains/elf/3").index] == red * 2 + 1
    assert s.spaces[space(s, "mountains/hobgoblin/3").index] == EMPTY
    assert s.defeated[red] == [1, 0]
    assert s.spaces[space(s, "mountains/hobgoblin/6").index] == purple * 2
    assert s.spaces[space(s, "mountains/elf/6").index] == EMPTY
    assert s.defeated[purple] == [1, 0]
    assert s.spaces[space(s, "mountains/elf/1").index] == EMPTY
    assert s.spaces[space(s, "mountains/hobgoblin/1").index] == EMPTY
    assert s.gold[red] == gold[red] + 1 and s.gold[yellow] == gold[yellow] + 1
    assert s.defeated[yellow] == [0, 0]


def test_own_weapons_fight_and_repairs_pay_two_each() -> None:
    s = new()
    s.levels[0][MACE] = 2
    put(s, "mountains/elf/3", 0)  # mace, level 2
    put(s, "mountains/hobgoblin/3", 0)  # axe, level 1
    put(s, "desert/orc/1", 0)
    battles(s)
    assert s.defeated[0] == [1, 0]
    gold = s.gold[0]
    repairs(s)
    assert s.gold[0] == gold + 2 * 2


def test_example_steve_sells_in_the_desert() -> None:
    """Purple sells to the Hobgoblins in the Mountains; Steve sells to the Orcs: the open Orc
    spaces are tied, and the Desert's Axe space is the first clockwise."""
    s = new(players=2, current=1)
    s.steve_races = [ORC, ELF, HOBGOBLIN, DWARF]
    s.steve_cube = 0
    s.tokens[bf(s, "mountains/hobgoblin/2")] = FIRE
    s.supply[1][HAMMER * 2] = 1
    gold = s.gold.copy()
    s.apply(1, "sell mountains/hobgoblin/2")
    target = space(s, "desert/orc/1")
    assert target.weapon == AXE
    assert s.spaces[target.index] == s.steve * 2  # Steve's Standard, no owner
    assert s.spaces[space(s, "forest/orc/1").index] == EMPTY
    assert s.gold[0] == gold[0] and s.gold[1] == gold[1] + 6
    assert s.steve_cube == 1


def test_steve_ignores_locks_and_skips_a_full_race() -> None:
    s = new(players=2, current=0)
    s.steve_races = [ORC, ELF, HOBGOBLIN, DWARF]
    for row, spaces in enumerate(s.board.rows):
        if s.board.row_race[row] == ORC:
            for i in spaces[:3]:
                s.spaces[i] = 0
    s.supply[0][SWORD * 2] = 1
    s.apply(0, "sell grasslands/elf/1")
    placed = [s.board.spaces[i].id for i, code in enumerate(s.spaces) if code == s.steve * 2]
    assert placed == ["desert/orc/4"] or placed == ["forest/orc/4"]
    assert s.tokens[bf(s, placed[0])] == LOCK
    # a full race: no sale, the cube still moves
    s2 = new(players=2, current=0)
    s2.steve_races = [ORC, ELF, HOBGOBLIN, DWARF]
    for row, spaces in enumerate(s2.board.rows):
        if s2.board.row_race[row] == ORC:
            for i in spaces:
                s2.spaces[i] = 0
    s2.supply[0][SWORD * 2] = 1
    before = sum(code == s2.steve * 2 for code in s2.spaces)
    s2.apply(0, "sell grasslands/elf/1")
    assert sum(code == s2.steve * 2 for code in s2.spaces) == before
    assert s2.steve_cube == 1


def test_steve_loses_every_battle() -> None:
    s = new(players=2)
    put(s, "mountains/elf/1", 0)  # a Level-1 Standard sword
    s.levels[0][SWORD] = 1
    s.spaces[space(s, "mountains/hobgoblin/1").index] = s.steve * 2
    battles(s)
    assert s.defeated[0] == [1, 0]
    assert s.spaces[space(s, "mountains/elf/1").index] == 0


def test_steve_sells_twice_with_drive_the_workers() -> None:
    s = new(players=2, current=0)
    s.steve_races = [ORC, ELF, HOBGOBLIN, DWARF]
    offer_kingdom(s, "Drive the Workers")
    s.supply[0][SWORD * 2] = 1
    s.supply[0][AXE * 2] = 1
    s.apply(0, "kingdom 1")
    assert s.gold[0] == 8  # the card costs 2
    s.apply(0, "sell grasslands/elf/1")
    s.apply(0, "sell grasslands/dwarf/1")
    assert sum(code == s.steve * 2 for code in s.spaces) == 2
    assert s.steve_cube == 2
    assert s.current == 1


# -- the Season's end --------------------------------------------------------------------------
def test_third_token_ends_the_season_after_one_turn_each() -> None:
    s = new(current=1)
    s.season_area = 2
    s.supply[1][AXE * 2] = 1
    put(s, "grasslands/elf/1", 0)
    s.apply(1, "sell grasslands/dwarf/1")
    assert s.season_area == 3 and s.ending_after == 0
    # seats 2, 3 and 0 take one last turn; a later token is discarded
    s.supply[2][MACE * 2] = 1
    put(s, "forest/dwarf/1", 0)
    s.apply(2, "sell forest/orc/1")
    assert s.tokens_discarded == 1 and s.season_area == 3
    assert s.tokens[bf(s, "forest/dwarf/2")] == FIRE  # the next Battlefield still unlocks
    for seat in (3, 0):
        assert s.season == 0 and s.current == seat
        s.apply(seat, s.legal_actions(seat)[0])
    assert s.season == 1
    assert s.current == 1  # the trigger player starts the next Season
    assert s.season_area == 0
    assert len(s.kingdom_pool) == 3 and len(s.craft_pool) == 5


def test_cleanup_refills_rewards_and_flips_bonus_cards() -> None:
    s = new()
    s.reward_spaces[ORC][0] = False
    s.bonus_owner[AXE] = 0
    s.bonus_up[AXE] = False
    used = list(s.kingdom_pool)
    cleanup(s)
    assert s.reward_spaces[ORC][0] and s.bonus_up[AXE]
    assert all(k in s.kingdom_discard for k in used)


def test_summer_cleanup_boxes_the_spring_deck() -> None:
    s = new()
    s.season = 1
    cleanup(s)
    assert s.spring_deck == [] and s.boxed > 0
    s.season = 2
    start_turn(s)
    assert all(content().crafts[k].deck == "autumn_winter" for k in s.craft_pool)


def test_two_player_cleanup_discards_space_one_only_after_other_actions() -> None:
    s = new(players=2)
    kingdom, crafts = list(s.kingdom_pool), list(s.craft_pool)
    s.last_kind = "learn"
    cleanup(s)
    assert s.kingdom_pool == kingdom and s.craft_pool == crafts
    s.last_kind = "sell"
    cleanup(s)
    assert s.kingdom_pool == kingdom[1:] and s.craft_pool == crafts[1:]
    assert s.kingdom_discard == kingdom[:1] and s.craft_discard == crafts[:1]


def test_year_end_scoring() -> None:
    s = new()
    s.season = 3
    s.supply[0][AXE * 2] = 2
    s.supply[0][AXE * 2 + 1] = 1
    s.defeated[1] = [1, 2]  # 5
    s.defeated[2] = [3, 0]  # 3
    s.defeated[3] = [1, 0]
    s.kingdom_cards[3] = [kingdom_card("War Bonds")]
    before = s.gold.copy()
    year_end(s)
    assert s.is_terminal()
    assert s.gold[0] - before[0] == 2 * 2 + 7
    assert s.gold[1] - before[1] == 15
    assert s.gold[2] - before[2] == 7
    assert s.gold[3] - before[3] == 7
    assert s.score_breakdown(3)["end_cards"] == 7
    assert sum(s.score_breakdown(1).values()) == s.scores()[1]


def test_two_player_defeated_bonus_is_seven() -> None:
    s = new(players=2)
    s.season = 3
    s.defeated = [[2, 0], [1, 0]]
    year_end(s)
    assert s.year_end[0]["defeated_weapons"] == 7 and s.year_end[1]["defeated_weapons"] == 0


def test_tie_breaker_counts_weapons_on_the_board() -> None:
    s = new()
    put(s, "desert/orc/1", 0, vorpal=True)
    put(s, "forest/orc/1", 1)
    put(s, "forest/dwarf/1", 1)
    s.gold = [20, 20, 5, 5]
    s.step = "over"
    assert s.tiebreak(0) == (3,) and s.tiebreak(1) == (4,)
    assert s.winners() == [1]


# -- Craft Bonus -------------------------------------------------------------------------------
def test_first_to_level_six_takes_the_craft_bonus_once_per_season() -> None:
    s = new()
    s.levels[0][AXE] = 4
    s.craft_pool = [craft_card(AXE, 2, 2, 0)]
    s.gold[0] = 30
    s.apply(0, "learn 1")
    assert s.bonus_owner[AXE] == 0 and s.bonus_up[AXE]
    s.current, s.step = 0, TURN
    legal = {str(a) for a in s.legal_actions(0)}
    assert "bonus vorpal grasslands/dwarf/1" in legal and "bonus grasslands/dwarf/1" in legal
    gold = s.gold[0]
    s.apply(0, "bonus vorpal grasslands/dwarf/1")
    assert s.gold[0] == gold - 15 + 18
    assert not s.bonus_up[AXE]
    s.current, s.step = 0, TURN
    assert not any(str(a).startswith("bonus") for a in s.legal_actions(0))
    # a second player reaching 6 gets nothing
    s.levels[1][AXE] = 5
    s.current = 1
    s.craft_pool = [craft_card(AXE, 0, 1, 0)]
    s.apply(1, "learn 1")
    assert s.bonus_owner[AXE] == 0


# -- Kingdom Cards -----------------------------------------------------------------------------
def test_kingdom_limit_and_durations() -> None:
    s = new()
    s.kingdom_cards[0] = [kingdom_card("Trophy Hall"), kingdom_card("War Profiteer")]
    s.kingdom_pool = [kingdom_card("Battle Drills"), kingdom_card("Tax Windfall")]
    legal = {str(a) for a in s.legal_actions(0)}
    assert "kingdom 1" not in legal  # Permanent: at the Spring limit of 2
    assert "kingdom 2" in legal  # Immediate: always
    s.apply(0, "kingdom 2")
    assert s.gold[0] == 14
    assert kingdom_card("Tax Windfall") in s.kingdom_discard
    s.season = 3  # Winter: four cards
    s.current, s.step = 0, TURN
    s.kingdom_pool = [kingdom_card("Battle Drills")]
    s.apply(0, "kingdom 1")
    assert kingdom_card("Battle Drills") in s.kingdom_cards[0]


def test_negative_gold_card_needs_the_gold() -> None:
    s = new()
    offer_kingdom(s, "War Bonds")
    s.gold[0] = 2
    assert "kingdom 1" not in {str(a) for a in s.legal_actions(0)}
    s.gold[0] = 3
    s.apply(0, "kingdom 1")
    assert s.gold[0] == 0


def test_final_card_stays_in_the_pool() -> None:
    s = new()
    offer_kingdom(s, "Slush Fund")
    s.apply(0, "kingdom 1")
    assert s.gold[0] == 12
    assert s.kingdom_pool[0] == kingdom_card("Slush Fund")  # refilled around it
    cleanup(s)
    assert s.kingdom_pool == [kingdom_card("Slush Fund")]


def test_permanent_kingdom_effects() -> None:
    s = new()
    s.kingdom_cards[0] = [
        kingdom_card("Orc War Contract"),
        kingdom_card("Apprentice Smiths"),
        kingdom_card("Caravan Master"),
        kingdom_card("Quartermaster"),
        kingdom_card("Battle Drills"),
        kingdom_card("Armorers' Guild"),
        kingdom_card("Night Shift"),
    ]
    assert forge_cost(s, 0, AXE, False) == 5
    assert forge_cost(s, 0, AXE, True) == 15 - 3 - 2
    orc = space(s, "desert/orc/1")
    assert sale_value(s, 0, orc, False) == 6 + 1 + 1  # printed Orc tile + contract
    assert sale_value(s, 0, orc, True) == 18 + 1 + 1 + 2
    assert battle_level(s, 0, AXE) == 2
    assert forge_limit(s, 0) == 4
    put(s, "desert/orc/1", 0)
    gold = s.gold[0]
    repairs(s)
    assert s.gold[0] == gold + 3


def test_extra_crafty_takes_a_free_craft_and_discards_its_link_with_two() -> None:
    s = new(players=2)
    crafts = list(s.craft_pool)
    s.kingdom_pool[0] = kingdom_card("ExtraCrafty")
    gold = s.gold[0]
    s.apply(0, "kingdom 1")
    assert s.craft_pool[0] == EMPTY and crafts[0] in s.craft_discard  # the linked card
    assert s.step == "free-craft"
    s.levels[0][content().crafts[crafts[1]].weapon] = 3
    s.apply(0, "learn 2")
    assert s.gold[0] == gold
    assert crafts[1] in s.crafts[0]
    assert crafts[3] in s.craft_discard  # Craft space 2 is linked to Craft space 4
    start_turn(s)
    assert len(s.craft_pool) == 5 and s.craft_pool[:2] == [crafts[2], crafts[4]]


def test_slush_fund_is_never_discarded_by_its_link() -> None:
    s = new(players=2)
    s.kingdom_pool[0] = kingdom_card("Slush Fund")
    crafts = list(s.craft_pool)
    s.apply(0, "learn 1")
    assert crafts[0] in s.crafts[0]
    assert s.kingdom_pool[0] == kingdom_card("Slush Fund")


def test_immediate_kingdom_effects() -> None:
    s = new()
    offer_kingdom(s, "Free Samples")
    s.apply(0, "kingdom 1")
    assert {str(a) for a in s.legal_actions(0)} == {"forge axe", "forge sword", "done"}
    s.apply(0, "forge sword")
    assert s.supply[0][SWORD * 2] == 1 and s.gold[0] == 10
    s.current = 0
    offer_kingdom(s, "Grasslands Charter")
    s.apply(0, "kingdom 1")
    grass = s.board.regions.index("grasslands")
    assert s.region_tiles[0][grass] == 1 and not s.region_on_board[grass]
    assert s.gold[0] == 11
    assert sale_value(s, 0, space(s, "grasslands/elf/1"), False) == 7
    s.current = 0
    offer_kingdom(s, "Desperate Times")
    s.supply[0][AXE * 2] = 1
    s.apply(0, "kingdom 1")
    s.apply(0, "sell grasslands/dwarf/1")
    assert s.gold[0] == 11 + 6 + 1 - 1  # +1 Grasslands tile, -1 desperate price
    assert s.current == 0
    s.apply(0, "done")
    assert s.current == 1


def test_end_kingdom_cards_pay_at_year_end() -> None:
    s = new()
    s.season = 3
    s.kingdom_cards[0] = [
        kingdom_card("War Profiteer"),
        kingdom_card("Trophy Hall"),
        kingdom_card("Master's Library"),
        kingdom_card("Old Stock Buyer"),
        kingdom_card("Siege Engineers"),
        kingdom_card("Royal Loan"),
    ]
    s.defeated[0] = [1, 1]
    s.crafts[0] = [0, 1, 2]
    s.supply[0][AXE * 2] = 1
    put(s, "desert/orc/1", 0)
    year_end(s)
    assert s.year_end[0]["end_cards"] == 3 + 1 + 1 + 1 + 1 - 8


# -- turns and hidden information ---------------------------------------------------------------
def test_illegal_moves_change_nothing() -> None:
    s = new()
    before = s.snapshot()
    for text in ("sell grasslands/dwarf/1", "learn 9", "forge vorpal axe", "done", "bonus x"):
        with pytest.raises(IllegalAction):
            s.apply(0, text)
    with pytest.raises(IllegalAction):
        s.apply(1, "forge axe")
    assert s.snapshot() == before


def test_observation_hides_deck_order() -> None:
    s = new()
    other = s.clone()
    random.Random(5).shuffle(other.spring_deck)
    other._resample_hidden(0, random.Random(3))
    assert other.kingdom_deck != s.kingdom_deck or other.spring_deck != s.spring_deck
    assert s.observation(0) == other.observation(0)
    assert "kingdom_deck" not in str(s.observation(1))


def test_a_season_without_sales_goes_on_while_anyone_can_act() -> None:
    """The text ends a Season only with the third Demand Token: rounds without a sale do not."""
    s = new(players=2)
    s.gold = [1000, 1000]
    for _ in range(40):  # 20 rounds of forging, no sale
        p = s.current
        s.apply(p, "forge axe" if p == 0 else "forge mace")
        s.apply(p, "done")
    assert s.season == 0


def test_a_frozen_table_goes_to_war() -> None:
    """Decision: when every player in turn can only pass, nothing can ever change, so war
    breaks out (the Season ends); the player after the last to pass starts the next one."""
    s = new(players=3)
    s.gold = [0, 0, 0]
    s.craft_pool = [craft_card(AXE, 2, 2, 0)] * 5
    s.levels = [[1, 1, 1, 1] for _ in range(3)]
    s.kingdom_pool = []
    s.kingdom_deck = []
    assert [str(a) for a in s.legal_actions(0)] == ["pass"]
    s.apply(0, "pass")
    s.apply(1, "pass")
    assert s.season == 0
    s.apply(2, "pass")
    assert s.season == 1 and s.current == 0


def test_standard_weapons_never_forge_for_free_from_the_data() -> None:
    """Every Forge discount a player can hold together (all Craft coins of one Weapon and every
    Kingdom discount) leaves a Standard Weapon costing gold: a free Weapon would be free gold
    (its End Value) on every Forge action, an endless loop that never sells."""
    c = content()
    for w in range(len(c.weapons)):
        coins = sum(k.coins for k in c.crafts if k.weapon == w)
        cards = sum(k.amount for k in c.kingdom if k.effect == "forge_discount" and k.quality != 1)
        assert c.chart.forge_standard - coins - cards >= 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_random_games_finish(players: int) -> None:
    from rulebook.agents.greedy import GreedyAgent

    s = new(players, seed=players)
    agent = GreedyAgent(seed=1)
    rng = random.Random(players)
    moves = 0
    while not s.is_terminal():
        p = s.current_players()[0]
        action = agent.act(s, p) if p == 0 else rng.choice(s.legal_actions(p))
        s.apply(p, action)
        moves += 1
        assert moves < 5000
    assert s.season == 3


@pytest.mark.parametrize("card", [k.name for k in content().kingdom])
def test_every_kingdom_card_can_be_taken(card: str) -> None:
    """Each card pays or costs its gold and goes where its duration says."""
    k = content().kingdom[kingdom_card(card)]
    players = min(k.players)
    s = new(players=players)
    s.season = 3
    s.gold[0] = 20
    s.supply[0][AXE * 2] = 1
    offer_kingdom(s, card)
    s.apply(0, "kingdom 1")
    assert s.gold[0] == 20 + k.gold
    assert (k.index in s.kingdom_cards[0]) == (k.duration in ("permanent", "end"))
    assert (k.index in s.kingdom_discard) == (k.duration == "immediate")
    assert (k.index in s.kingdom_pool) == (k.duration == "final")
    expected = {"free_craft": "free-craft", "free_forge": "free-forge", "sell_twice": "sell"}
    assert s.step == expected.get(k.effect, "turn")


# -- the terminal view ---------------------------------------------------------------------------
def _screen(state: BattleState, seat: int) -> str:
    from rich.console import Console

    from rulebook.battle_merchants.render import render

    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render(state, seat))
    return console.export_text()


def test_view_fits_80_columns_and_says_what_cards_do() -> None:
    s = new(players=2)
    s.kingdom_pool = [kingdom_card("Night Shift"), kingdom_card("ExtraCrafty")]
    text = _screen(s, 0)
    assert "…" not in text  # no Weapon or race name cut short
    assert "hammer" in text and "hobgoblin" in text
    assert "Forge up to 4 Weapons" in text
    assert "take a face-up Craft Card for free" in text
    # 2 players: the side board's black lines, and what a move discards with it
    assert "kingdom 1 - craft 1" in text
    assert "discards" in s.explain(0, s.moves.kingdom[0])
    assert "Reward Tiles" in text


def test_every_kingdom_card_has_a_card_text() -> None:
    from rulebook.battle_merchants.content import card_text

    for k in content().kingdom:
        assert card_text(k, content()) and "why" not in card_text(k, content())


# -- moves in plain words (issue 23) -----------------------------------------------------------
#: the verbs the plain words of a move begin with, and as they are told of another seat
VERBS = {
    "Pay": "pays",
    "Learn": "learns",
    "Take": "takes",
    "Use": "uses",
    "Forge": "forges",
    "Sell": "sells",
    "Stop": "stops",
    "Make": "makes",
    "Decline": "declines",
    "Pass": "passes",
}
#: the kinds of move (type, step of the turn) every seeded game below meets; the rarer ones
#: (the steps after Drive the Workers, Desperate Times, ExtraCrafty and Free Samples, the Craft
#: Bonus action, a pass) are made on purpose in the tests after it
COMMON = {
    ("Learn", "turn"),
    ("TakeKingdom", "turn"),
    ("Forge", "turn"),
    ("Forge", "forge"),
    ("Sell", "turn"),
    ("Done", "forge"),
}


def check_words(state: BattleState, seat: int, action: rulebook.Action) -> str:
    """The plain words of one move: a capitalised verb first, more than the bare move, the
    same for everyone (nothing is hidden), told of another seat as a sentence, and no "you"
    outside a quoted card text (the words are told of other seats too)."""
    from rulebook.core.words import third_person

    said = state.describe(seat, action)
    verb = said.split(" ")[0]
    assert verb in VERBS, said
    assert said != str(action) and len(said) > len(str(action)), said
    assert state.describe_public(seat, action) == said
    told = third_person(said)
    assert told.startswith(VERBS[verb] + " "), told
    unquoted = " ".join(said.split('"')[::2]).lower().replace(";", " ").replace(",", " ")
    assert not {"you", "your", "yours"} & set(unquoted.split()), said
    return said


def steve_space(state: BattleState, before: list[int]) -> str | None:
    """Where Salesman Steve sold in the last move, as the plain words name it."""
    for i, (was, now) in enumerate(zip(before, state.spaces, strict=True)):
        if was == EMPTY and now == state.steve * 2:
            s = state.board.spaces[i]
            race = content().races[s.race]
            region = state.board.regions[s.region].title()
            from rulebook.battle_merchants.content import race_plural

            return f"to the {race_plural(race)} at {region} Battlefield {s.battlefield + 1}"
    return None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_move_of_seeded_games_reads_as_plain_words(players: int) -> None:
    """Every legal move met in random and greedy games, for each player count; the words
    said of a move come true (Salesman Steve's sale; the kind of move); the words do not
    change when the decks (the hidden part) are shuffled again."""
    from rulebook.agents import make_agent

    met: set[tuple[str, str]] = set()
    for seed in range(3):
        s = new(players=players, seed=seed)
        agents = [make_agent("greedy" if (seed + p) % 2 else "random", p) for p in range(players)]
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.current_players()[0]
            for action in s.legal_actions(p):
                met.add((type(action).__name__, s.step))
                check_words(s, p, action)
            action = agents[p].act(s, p)
            said = s.describe(p, action)
            other = (p + 1) % players
            assert s.determinize(other, rng).describe_public(p, action) == said
            before = list(s.spaces)
            s.apply(p, action)
            if players == 2 and type(action).__name__ in ("Sell", "Bonus"):
                where = steve_space(s, before)
                if where is not None and "Salesman Steve sells" in said:
                    assert said.endswith(where) or f"{where};" in said, said
    assert met >= COMMON, COMMON - met


def test_the_rare_moves_read_as_plain_words() -> None:
    """The second sale of Drive the Workers or Desperate Times, and stopping there; declining
    ExtraCrafty's and Free Samples' free card or Weapon; passing."""
    s = new(players=3)
    offer_kingdom(s, "Desperate Times")
    s.supply[0][SWORD * 2] = 2
    s.race_tiles[0] = [0, 0, 0, 0]
    check_words(s, 0, s.parse_action(0, "kingdom 1"))
    s.apply(0, "kingdom 1")
    assert check_words(s, 0, s.parse_action(0, "done")) == "Make no sale after all"
    assert check_words(s, 0, s.parse_action(0, "sell grasslands/elf/1")) == (
        "Sell a Standard Sword to the Elves at Grasslands Battlefield 1 (sale 1 of up to 2) "
        "for 5 gold (6 - 1 for Desperate Times); take an Elf Reward Tile"
    )
    s.apply(0, "sell grasslands/elf/1")
    assert check_words(s, 0, s.parse_action(0, "done")) == "Stop selling after 1 sale"
    s = new(players=3)
    offer_kingdom(s, "ExtraCrafty")
    s.apply(0, "kingdom 1")
    assert check_words(s, 0, s.moves.learn[0]).startswith("Take the ")
    assert "for free (ExtraCrafty): " in check_words(s, 0, s.moves.learn[0])
    assert (
        check_words(s, 0, s.parse_action(0, "done")) == "Decline the free Craft Card (ExtraCrafty)"
    )
    s = new(players=3)
    offer_kingdom(s, "Free Samples")
    s.apply(0, "kingdom 1")
    assert check_words(s, 0, s.parse_action(0, "forge axe")) == (
        "Forge a Standard Axe for free (Free Samples)"
    )
    assert check_words(s, 0, s.parse_action(0, "done")) == (
        "Decline the free Standard Weapon (Free Samples)"
    )
    s = new(players=3)
    s.gold[0], s.kingdom_pool, s.craft_pool = 0, [], []
    assert [str(a) for a in s.legal_actions(0)] == ["pass"]
    assert check_words(s, 0, s.parse_action(0, "pass")) == (
        "Pass the turn: no action is possible (when every merchant passes in a row, the "
        "Season ends)"
    )


def test_learning_a_craft_in_plain_words_follows_the_axe_example() -> None:
    """Learn Craft: with 2 Axe Levels an x2 card costs 4 gold; later, with 4 Levels, an x1 card
    with a 2-coin discount costs 4 again, brings Level 5 (Vorpal Axes) and the discount."""
    s = new()
    s.levels[0][AXE] = 2
    s.craft_pool = [craft_card(AXE, 2, 2, 0), craft_card(AXE, 1, 1, 2), craft_card(AXE, 0, 1, 0)]
    assert check_words(s, 0, s.moves.learn[0]) == (
        "Pay 4 gold (2 per Axe Level held) to learn the Axe +2 Craft Card (Craft space 1): Axe "
        "Craft from Level 2 to 4"
    )
    s.levels[0][AXE] = 4
    assert check_words(s, 0, s.moves.learn[1]) == (
        "Pay 4 gold (1 per Axe Level held) to learn the Axe +1 Craft Card (Craft space 2): Axe "
        "Craft from Level 4 to 5; every Axe forged costs 2 gold less; Vorpal Axes can be forged"
    )
    s.levels[0][AXE] = 5
    assert check_words(s, 0, s.moves.learn[2]) == (
        "Learn the Axe +1 Craft Card (Craft space 3), a free card: Axe Craft from Level 5 to 6; "
        "the Axe Craft Bonus card comes with it"
    )
    s.levels[0][AXE] = 0  # "if you have zero Levels, the card is free"
    assert check_words(s, 0, s.moves.learn[0]).startswith(
        "Learn the Axe +2 Craft Card (Craft space 1) for free (x2, no Axe Level yet): Axe Craft "
        "from Level 0 to 2"
    )


def test_forging_in_plain_words_follows_the_thirteen_gold_example() -> None:
    """He forges a Hammer for 5 and two Axes for 4 each (a 1-gold discount on his Craft
    Cards), up to three Weapons; a Vorpal one costs 15 less the Kingdom discounts."""
    s = new()
    s.levels[0][HAMMER] = 1
    s.coins[0][AXE] = 1
    assert check_words(s, 0, s.parse_action(0, "forge hammer")) == (
        "Pay 5 gold to forge a Standard Hammer, Weapon 1 of up to 3 this turn"
    )
    s.apply(0, "forge hammer")
    assert check_words(s, 0, s.parse_action(0, "forge axe")) == (
        "Pay 4 gold (5 less 1 for Craft Card coins) to forge a Standard Axe, Weapon 2 of up to 3 "
        "this turn"
    )
    assert check_words(s, 0, s.parse_action(0, "done")) == "Stop forging after 1 Weapon"
    s = new()
    s.levels[0][AXE] = 5
    s.coins[0][AXE] = 1
    s.gold[0] = 20
    s.kingdom_cards[0] = [kingdom_card("Quartermaster")]
    assert check_words(s, 0, s.parse_action(0, "forge vorpal axe")) == (
        "Pay 11 gold (15 less 1 for Craft Card coins, 3 for Quartermaster) to forge a Vorpal "
        "Axe, Weapon 1 of up to 3 this turn"
    )


def test_selling_in_plain_words_follows_the_dwarf_and_steve_examples() -> None:
    """The Dwarf sale: 6 + 2 for her two Dwarf Reward Tiles = 8 gold, then the Dwarf tile of
    her colour. Steve's example: Purple sells to the Hobgoblins in the Mountains and Steve,
    selling to the Orcs, takes the Desert's Axe space."""
    s = new(current=1)
    s.race_tiles[1][DWARF] = 2
    s.supply[1][AXE * 2] = 1
    assert check_words(s, 1, s.parse_action(1, "sell forest/dwarf/1")) == (
        "Sell a Standard Axe to the Dwarves at Forest Battlefield 1 for 8 gold (6 + 2 for Dwarf "
        "Reward Tiles); take a Dwarf Reward Tile"
    )
    s = new(players=2, current=1)
    s.steve_races = [ORC, ELF, HOBGOBLIN, DWARF]
    s.tokens[bf(s, "mountains/hobgoblin/2")] = FIRE
    s.supply[1][HAMMER * 2] = 1
    assert check_words(s, 1, s.parse_action(1, "sell mountains/hobgoblin/2")) == (
        "Sell a Standard Hammer to the Hobgoblins at Mountains Battlefield 2 for 6 gold; take a "
        "Hobgoblin Reward Tile; then Salesman Steve sells a Standard Axe to the Orcs at Desert "
        "Battlefield 1"
    )


def test_the_third_demand_token_and_the_seasons_end_in_plain_words() -> None:
    """Filling a Battlefield sends its token to the Season Area and opens the next one; the
    third token means one last turn for everyone else; the last of those turns ends the
    Season; later tokens go back to the box."""
    s = new(current=1)
    s.season_area = 2
    s.supply[1][AXE * 2] = 1
    put(s, "grasslands/elf/1", 0)
    assert check_words(s, 1, s.parse_action(1, "sell grasslands/dwarf/1")) == (
        "Sell a Standard Axe to the Dwarves at Grasslands Battlefield 1 for 7 gold (6 + 1 for "
        "Dwarf Reward Tile); take a Dwarf Reward Tile; Battlefield 1's Demand Token goes to the "
        "Season Area (3 of 3) and Battlefield 2 opens: every other merchant takes one last turn, "
        "then war"
    )
    s.apply(1, "sell grasslands/dwarf/1")
    s.supply[2][MACE * 2] = 1
    put(s, "forest/dwarf/1", 0)
    assert check_words(s, 2, s.parse_action(2, "sell forest/orc/1")).endswith(
        "; Battlefield 1's Demand Token goes back to the box (the Season is ending) and "
        "Battlefield 2 opens"
    )
    s.apply(2, "sell forest/orc/1")
    s.apply(3, s.legal_actions(3)[0])
    assert all(
        check_words(s, 0, a).endswith("; this ends Spring: war follows")
        for a in s.legal_actions(0)
        if type(a).__name__ in ("Learn", "Sell", "Bonus")
    )


def test_kingdom_cards_in_plain_words_say_their_gold_and_black_lines() -> None:
    """Negative gold is paid; a kept card counts toward the Spring limit of two; with 2
    players taking ExtraCrafty discards the Craft Card its black line joins (the x2 Hammer of
    the rulebook's example); Slush Fund stays; a Craft Bonus sale says the card goes face
    down."""
    s = new()
    offer_kingdom(s, "War Bonds")
    assert check_words(s, 0, s.moves.kingdom[0]) == (
        "Pay 3 gold to take the Kingdom Card War Bonds (Kingdom space 1), kept (1 of 2 Kingdom "
        'Cards this Spring): "At the Year\'s End: +7 gold"'
    )
    offer_kingdom(s, "Slush Fund")
    assert check_words(s, 0, s.moves.kingdom[0]) == (
        "Use the Kingdom Card Slush Fund (Kingdom space 1) to take 2 gold (the card stays)"
    )
    s = new(players=2)
    s.kingdom_pool[0] = kingdom_card("ExtraCrafty")
    s.craft_pool[0] = craft_card(HAMMER, 2, 2, 0)
    assert check_words(s, 0, s.moves.kingdom[0]) == (
        'Take the Kingdom Card ExtraCrafty (Kingdom space 1): then "Take a face-up Craft Card '
        'for free"; its black line discards the Hammer +2 Craft Card (Craft space 1)'
    )
    s = new()
    s.levels[0][AXE] = 6
    s.bonus_owner[AXE], s.bonus_up[AXE] = 0, True
    assert check_words(s, 0, s.parse_action(0, "bonus grasslands/dwarf/1")) == (
        "Use the Axe Craft Bonus card (once a Season) to forge a Standard Axe for 5 gold and "
        "sell it at once to the Dwarves at Grasslands Battlefield 1 for 6 gold; take a Dwarf "
        "Reward Tile"
    )


def test_a_move_in_the_log_reads_as_a_sentence_about_its_seat() -> None:
    from rulebook.web.views import entry

    s = new()
    s.levels[0][AXE] = 2
    s.craft_pool = [craft_card(AXE, 2, 2, 0)]
    told = entry(s, 0, s.moves.learn[0])
    assert told.plain.startswith("pay 4 gold (2 per Axe Level held) to learn the Axe +2")
    assert told.plain_public.startswith("pays 4 gold (2 per Axe Level held) to learn the Axe")


def test_the_turn_view_names_the_seat_in_a_step_counted_from_one() -> None:
    """Seats are named from 1 in every text a person reads (issue 23): the turn view of a
    Forge action under way said "Seat 0" for the first seat."""
    from rich.console import Console

    from rulebook.battle_merchants.render import turn

    s = new(players=3, current=0)
    s.apply(0, "forge axe")
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(turn(s, 1))
    text = console.export_text()
    assert "Seat 1 is in the forge step" in text and "Seat 0" not in text


# -- what the cards and components say (issue 23) -----------------------------------------------
def test_every_card_and_component_on_the_table_has_a_text() -> None:
    """The board's tips and ``card NAME`` share one text per name (the board's static data):
    every face-up Craft and Kingdom Card met in a game, the Craft Bonus cards, each race and
    its Reward Tile, each Region and its tile, each mat; authored ones say so."""
    from rulebook.battle_merchants.cards import AUTHORED_CARDS, AUTHORED_TEXTS, cards
    from rulebook.battle_merchants.content import race_plural
    from rulebook.battle_merchants.web import static

    for players in (2, 3, 4):
        s = new(players=players, seed=players)
        texts = cards(s.setup)
        assert static(s.setup)["texts"] == texts
        rng = random.Random(players)
        while not s.is_terminal():
            obs = s.observation(0)
            for label in obs["craft_cards"]:
                if label is not None:
                    assert AUTHORED_CARDS in texts[label[0].upper() + label[1:]]
            for k in obs["kingdom_cards"]:
                if k is not None:
                    assert AUTHORED_TEXTS in texts[k["name"]]
            p = s.current_players()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
        c = content()
        for race in obs["reward_spaces"]:
            assert texts[race_plural(race)] and texts[f"{race.title()} Reward Tile"]
        for region in obs["regions"]:
            assert texts[region["name"].title()] and texts[f"{region['name'].title()} Reward Tile"]
        for colour in c.colours[:players]:
            assert "authored for this project" in texts[f"{colour.title()} mat"]
        assert ("Salesman Steve" in texts) == ("Side board" in texts) == (players == 2)
        assert ("Hobgoblins" in texts) == (players != 3)
        for w in c.weapons:
            assert (
                f"Level {c.rules.bonus_level} of {w.title()}" in texts[f"{w.title()} Craft Bonus"]
            )


def test_texts_and_plain_words_take_their_numbers_from_the_data_files() -> None:
    """Change the Vorpal forge cost and a Kingdom Card's gold in the data: the card texts and
    the plain words of the moves follow."""
    from rulebook.battle_merchants.cards import cards
    from rulebook.battle_merchants.content import PACKAGE
    from rulebook.core.data import set_overrides

    set_overrides(
        {
            (PACKAGE, "mats.toml"): {"chart": {"forge_vorpal": 14}},
            (PACKAGE, "kingdom.toml"): {"cards": {"War Bonds": {"gold": -4}}},
        }
    )
    try:
        s = new()
        texts = cards(s.setup)
        assert "forged for 14 gold" in texts["Vorpal Weapon"]
        assert "costs 4 gold to take" in texts["War Bonds"]
        s.levels[0][AXE] = 5
        s.gold[0] = 20
        assert s.describe(0, s.parse_action(0, "forge vorpal axe")).startswith(
            "Pay 14 gold to forge a Vorpal Axe"
        )
        offer_kingdom(s, "War Bonds")
        assert s.describe(0, s.moves.kingdom[0]).startswith("Pay 4 gold to take")
    finally:
        set_overrides({})
