"""Pandoria Merchants: the rulebook's worked example, enclosure on hand-made maps, and rules.

Hand-made maps are text grids compiled with :func:`build_board` (the same code that compiles
``data/maps.toml``); states on them are arranged directly, then moves go through ``apply``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import rulebook
from rulebook import IllegalAction
from rulebook.core import Event, apply_heard
from rulebook.pandoria_merchants import (
    GAME,
    actions,
    aloud,
    buildings,
    buying,
    drawing,
    family,
    scoring,
)
from rulebook.pandoria_merchants import solo as solo_version
from rulebook.pandoria_merchants.board import KINDS, Board, bits, build_board, enclosed
from rulebook.pandoria_merchants.content import content
from rulebook.pandoria_merchants.rules import PandoriaState
from rulebook.pandoria_merchants.spells import start_spell
from rulebook.pandoria_merchants.terms import (
    ACTION,
    BUILT,
    BUY,
    CRAFT,
    CRYSTAL,
    DRAW,
    OWNED,
    WILD,
    WOOD,
    replaced,
)

C = content()
LETTERS = {"W": "wood", "C": "crystal", "K": "craft", "G": "gold", "T": "city"}
NAME = "pandoria-merchants"


def board(*rows: str, starts: dict[str, str] | None = None, rows_used: int | None = None) -> Board:
    return build_board([r.split() for r in rows], LETTERS, starts or {}, rows_used)


def on(b: Board, players: int = 2, variant: str = "standard") -> PandoriaState:
    """A fresh state on a hand-made board, past setup, at the start of seat 0's turn."""
    state = PandoriaState(GAME, GAME.setup(players, 0, variant), board=b)
    state.phase = ACTION
    state.turn = 0
    return state


def draw(s: PandoriaState, hex_name: str, kind: str) -> None:
    h = s.board.index[hex_name]
    s.res = s.res[:h] + bytes((KINDS.index(kind) + 1,)) + s.res[h + 1 :]
    s.kinds[KINDS.index(kind)] |= 1 << h
    s.empty &= ~(1 << h)
    s.near |= s.board.nbr[h]
    s._legal = None


def worker(s: PandoriaState, seat: int, hex_name: str) -> None:
    h = s.board.index[hex_name]
    s.workers = replaced(s.workers, seat, s.workers[seat] | 1 << h)
    s.empty &= ~(1 << h)
    s.near |= s.board.nbr[h]
    s._legal = None


def area_of(s: PandoriaState, hex_name: str) -> int:
    h = s.board.index[hex_name]
    return s.board.area(s.kinds[s.kind_at(h)], h)


def is_enclosed(s: PandoriaState, hex_name: str) -> bool:
    return enclosed(s.board, area_of(s, hex_name), s.empty)


def card(card_id: str) -> int:
    return C.card_by_id[card_id].index


def to_worker_step(s: PandoriaState, seat: int, drawn: str) -> None:
    """Seat ``seat`` has just drawn its Resources (the last one on ``drawn``): Worker next."""
    s.turn = seat
    s.phase = DRAW
    s.item = 2
    s.r1 = s.board.index[drawn]
    s.r2 = -1
    s.touched = 1 << s.r1
    s._legal = None


# -- the worked example (4. Score any Enclosed Areas) ------------------------------------------
WORKED = ("~ C C .", ". W . .", ". . . .")  # crystal area B1-C1; A1 a lake


def worked_example(tower: bool) -> tuple[PandoriaState, list[tuple[int, int, int]]]:
    s = on(board(*WORKED))
    worker(s, 0, "A2")  # Jeff
    worker(s, 1, "D1")  # Bernd
    draw(s, "B2", "wood")  # Jeff's Resource this turn, next to C2
    if tower:
        s.mark(0, card("rage/tower"), BUILT)
    s.tracks = ((0, 0, 0, 0), (0, 0, 0, 0))
    gains: list[tuple[int, int, int]] = []
    original = scoring.gain

    def record(s: PandoriaState, p: int, resource: int, amount: int) -> None:
        gains.append((p, resource, amount))
        original(s, p, resource, amount)

    setattr(scoring, "gain", record)  # noqa: B010 - a module function, recorded
    try:
        to_worker_step(s, 0, "B2")
        assert not is_enclosed(s, "B1")
        s.apply(0, "worker C2")  # Jeff's second Worker closes the crystal area
    finally:
        setattr(scoring, "gain", original)  # noqa: B010
    return s, gains


def test_worked_example_jeff_4_crystals_bernd_2() -> None:
    """ "Jeff (J) enclosed the crystal-area, so he gets 4 crystals (2 crystals x 2 workers)
    and Bernd (B) gets 2 crystals.\""""
    s, gains = worked_example(tower=False)
    assert (0, CRYSTAL, 4) in gains and (1, CRYSTAL, 2) in gains
    assert s.tracks[0][CRYSTAL] == 4 and s.tracks[1][CRYSTAL] == 2
    assert s.scored == area_of(s, "B1")


def test_worked_example_with_the_tower_jeff_gets_4_more() -> None:
    """ "With the Tower e.g. Jeff would get 4 crystals more!" (2 per Crystal space, not
    multiplied by Workers); over the maximum of 5, every 2 give 1 VP."""
    s, gains = worked_example(tower=True)
    assert (0, CRYSTAL, 8) in gains and (1, CRYSTAL, 2) in gains
    assert s.tracks[0][CRYSTAL] == 5 and s.vp[0][1] == 1  # 8 = 5 + 3 over: 1 VP


# -- enclosure on hand-made maps ---------------------------------------------------------------
def test_enclosure_by_the_edge_of_the_map() -> None:
    s = on(board("C . .", ". . .", ". . ."))
    assert not is_enclosed(s, "A1")
    draw(s, "B1", "wood")
    assert not is_enclosed(s, "A1")
    worker(s, 0, "A2")  # A1's neighbours: B1, A2 and the edge
    assert is_enclosed(s, "A1")


def test_enclosure_by_lakes() -> None:
    s = on(board("~ ~ ~", "~ G ~", "~ . ~"))
    assert not is_enclosed(s, "B2")
    draw(s, "B3", "wood")
    assert is_enclosed(s, "B2")


def test_enclosure_grows_through_same_resources_only() -> None:
    s = on(board("C C . .", ". . . .", ". . . ."))
    draw(s, "C1", "crystal")
    assert area_of(s, "A1").bit_count() == 3
    draw(s, "D1", "wood")
    for h in ("A2", "B2"):
        worker(s, 0, h)
    assert not is_enclosed(s, "A1")  # C2 is still empty next to C1
    draw(s, "C2", "gold")  # another Resource is a wall
    assert is_enclosed(s, "A1")


def test_a_river_is_a_boundary_only_with_fewer_than_4_players() -> None:
    rows = ("C . .", ". . .", ". . .")
    two = on(board(*rows, rows_used=1))  # the river under row 1 with 2-3 players
    four = on(board(*rows), players=4)
    for s in (two, four):
        draw(s, "B1", "wood")
    assert is_enclosed(two, "A1")
    assert not is_enclosed(four, "A1")
    # the real map: with 2 players rows 5-10 do not exist, with 4 they do
    assert C.boards[2].rows_used == 4 and C.boards[3].rows_used == 7 and C.boards[4].rows_used == 10


def test_swamp_spaces_are_walls() -> None:
    s = on(board("C . .", ". . .", ". . ."))
    draw(s, "B1", "wood")
    worker(s, 0, "B2")
    assert not is_enclosed(s, "A1")
    h = s.board.index["A2"]
    s.swamp |= 1 << h
    s.empty &= ~(1 << h)
    assert is_enclosed(s, "A1")


def test_workers_and_other_resources_are_walls() -> None:
    s = on(board(". G .", ". . .", ". . ."))
    for h, k in (("A1", "city"), ("C1", "wood")):
        draw(s, h, k)
    worker(s, 0, "B2")
    assert not is_enclosed(s, "B1")
    worker(s, 1, "A2")
    assert is_enclosed(s, "B1")


def test_solo_rivers_cut_adjacency_between_territories() -> None:
    b = build_board([r.split() for r in ("1C 1. 2.", "1. 1. 2.")], LETTERS, {})
    a1, b1, c1 = (b.index[h] for h in ("A1", "B1", "C1"))
    assert b.nbr[b1] >> a1 & 1 and not b.nbr[b1] >> c1 & 1
    assert b.geo[b1] >> c1 & 1  # still touching on the sheet


def test_only_the_encloser_collects_artifacts() -> None:
    s = on(board("~ C C .", ". W . .", ". . . ."))
    s.artifacts = {s.board.index["B1"]: 1}
    worker(s, 0, "A2")
    worker(s, 1, "D1")
    draw(s, "B2", "wood")
    to_worker_step(s, 1, "B2")  # Bernd closes the area: the Artifact is his
    s.apply(1, "worker C2")
    assert s.held_artifacts == (0, 1)


def test_ship_worker_scores_areas_next_to_its_lake() -> None:
    """Ship: the Worker scores any area adjacent to that lake."""
    s = on(board("~ S ~", "C . .", ". . ."))
    s.ships = {s.board.index["B1"]: 1}
    draw(s, "B2", "wood")
    draw(s, "A3", "gold")
    s.tracks = ((0,) * 4, (0,) * 4)
    to_worker_step(s, 0, "A3")
    s.apply(0, "worker B3")  # closes A2 (crystal): B3 for seat 0, the Ship for seat 1
    assert s.tracks[0][CRYSTAL] == 1 and s.tracks[1][CRYSTAL] == 1


def test_rage_doubles_a_worker_this_turn() -> None:
    s, _ = worked_example(tower=False)
    assert s.tracks[0][CRYSTAL] == 4
    s2 = on(board(*WORKED))
    worker(s2, 0, "A2")
    worker(s2, 1, "D1")
    draw(s2, "B2", "wood")
    s2.tracks = ((0,) * 4, (0,) * 4)
    s2.rage_hex, s2.rage_extra = s2.board.index["A2"], 1  # Rage (2) on A2
    to_worker_step(s2, 0, "B2")
    s2.apply(0, "worker C2")
    assert s2.tracks[0][CRYSTAL] == 5 and s2.vp[0][1] == 0  # 6: capped at 5, 1 lost


# -- turn rules --------------------------------------------------------------------------------
def test_wild_die_is_any_resource_but_the_other_die() -> None:
    s = rulebook.new_game(NAME, players=2, seed=1)
    assert isinstance(s, PandoriaState)
    s.phase, s.dice, s.both_wild, s._legal = WILD, (-1, CRYSTAL), False, None
    assert {str(a) for a in s.legal_actions(s.turn)} == {
        "choose wood",
        "choose craft",
        "choose gold",
        "choose city",
    }
    s.dice, s.both_wild, s._legal = (-1, -1), True, None
    s.apply(s.turn, "choose gold")
    assert "choose gold" in {str(a) for a in s.legal_actions(s.turn)}  # both "?": same allowed


def test_first_resource_must_touch_a_drawn_symbol_or_a_starting_space() -> None:
    s = on(board(". . . . . .", ". . . . . .", ". . . . . @", ". . . . . .", starts={"F3": "gold"}))
    s.phase, s.item, s.dice, s._legal = DRAW, 0, (WOOD, CRYSTAL), None
    hexes = {str(a).split()[1] for a in s.legal_actions(0)}
    # adjacent to F3, or next to such a hex (the other Resource then touches F3)
    assert "A1" not in hexes and "E3" in hexes and "D3" in hexes
    s.apply(0, "wood D3")  # not touching F3 itself: the crystal must
    assert {str(a) for a in s.legal_actions(0)} == {"crystal E3"}  # next to D3 and F3


def test_doubles_draw_an_artifact() -> None:
    s = on(board(". . . .", ". . . .", ". . . @", starts={"D3": "gold"}))
    s.phase, s.item, s.dice, s._legal = DRAW, 0, (WOOD, WOOD), None
    s.apply(0, "wood C3")
    s.apply(0, str(s.legal_actions(0)[0]))
    assert sum(s.artifacts.values()) == 1


def test_forfeit_only_when_two_plus_one_no_longer_fit() -> None:
    s = on(board(". . .", "~ @ ~", "~ ~ ~", starts={"B2": "gold"}))
    s.phase, s.item, s.dice, s._legal = DRAW, 0, (WOOD, CRYSTAL), None
    assert "skip" not in {str(a) for a in s.legal_actions(0)}
    s2 = on(board(". ~ ~", "~ ~ ~", "~ ~ @", starts={"C3": "gold"}))
    s2.near = s2.board.nbr[s2.board.index["A1"]] | (1 << s2.board.index["A1"])
    s2.phase, s2.item, s2.dice, s2._legal = DRAW, 0, (WOOD, CRYSTAL), None
    moves = {str(a) for a in s2.legal_actions(0)}
    assert moves == {"wood A1", "crystal A1", "skip"}


def test_tracks_cap_at_5_and_every_2_over_give_1_vp_store_2() -> None:
    s = on(board(". ."))
    s.tracks = replaced(s.tracks, 0, (1, 1, 1, 1))
    scoring.gain(s, 0, WOOD, 6)  # 7: 2 over
    assert s.tracks[0][WOOD] == 5 and s.vp[0][1] == 1
    s.mark(0, card("construct/store"), BUILT)
    scoring.gain(s, 0, WOOD, 3)
    assert s.vp[0][1] == 2 and s.vp[0][2] == 2


def test_crafts_pay_only_the_shortfall_2_to_1_market_1_to_1() -> None:
    s = on(board(". ."))
    s.tracks = replaced(s.tracks, 0, (0, 0, 4, 2))
    need = [0, 0, 0, 3]
    assert buying.crafts_needed(s, 0, need) == 2
    buying.pay(s, 0, need)
    assert s.tracks[0] == (0, 0, 2, 0)
    s.tracks = replaced(s.tracks, 0, (0, 0, 1, 2))
    assert buying.crafts_needed(s, 0, need) is None
    s.mark(0, card("conjure/market"), BUILT)
    assert buying.crafts_needed(s, 0, need) == 1


def test_buying_all_three_of_a_column_blocks_it() -> None:
    s = on(board(". ."))
    for cid in ("acquire/bank", "rage/tower"):
        s.mark(0, card(cid), OWNED)
    s.tracks = replaced(s.tracks, 0, (5, 5, 5, 5))
    s.phase, s.turn, s._legal = BUY, 0, None
    s.apply(0, "buy swamp/treasury")
    assert s.blocked >> 1 & 1
    s.turn, s.phase, s._legal = 1, BUY, None
    s.tracks = replaced(s.tracks, 1, (5, 5, 5, 5))
    assert not {str(a) for a in s.legal_actions(1)} & {
        "buy acquire/bank",
        "buy rage/tower",
        "buy swamp/treasury",
    }


def test_bank_carpenter_wizardry_lower_costs_but_never_below_1() -> None:
    s = on(board(". ."))
    c = C.card_by_id
    assert buying.gold_cost(s, 0, c["acquire/bank"]) == 2
    s.mark(0, card("acquire/bank"), BUILT)
    assert (
        buying.gold_cost(s, 0, c["swamp/treasury"]) == 3
        and buying.gold_cost(s, 0, c["muster/saw-mill"]) == 1
    )
    s.mark(0, card("terrain/carpenter"), BUILT)
    assert buildings.build_cost(s, 0, c["ship/statue"]) == 2
    s.mark(0, card("terrain/wizardry"), BUILT)
    assert (
        buildings.spell_cost(s, 0, c["muster/saw-mill"]) == 1
        and buildings.spell_cost(s, 0, c["rage/academy"]) == 1
    )


def test_monument_costs_1_craft_and_5_minus_the_buildings_wood() -> None:
    s = on(board(". ."))
    s.mark(0, card("rage/academy"), BUILT)  # Academy: 3 Wood
    s.tracks = replaced(s.tracks, 0, (2, 0, 1, 0))
    s.phase, s._legal = ACTION, None
    s.apply(0, "monument rage/academy")
    assert s.tracks[0] == (0, 0, 0, 0)
    assert s.monuments_won[0] == (10,) and s.monument_left[0] is False
    # the next player gets the next highest
    assert buildings.monument_value(s) == 8


def test_relic_takes_artifacts_and_a_craft_highest_remaining() -> None:
    s = on(board(". ."))
    s.held_artifacts = replaced(s.held_artifacts, 0, 3)
    s.set_track(0, CRAFT, 1)
    s.phase, s._legal = ACTION, None
    s.apply(0, "relic 3")
    assert s.relics_won[0] == (10,) and s.held_artifacts[0] == 0 and s.tracks[0][CRAFT] == 0


def test_relics_and_monuments_crossed_out_by_player_count() -> None:
    two = rulebook.new_game(NAME, players=2, seed=0)
    four = rulebook.new_game(NAME, players=4, seed=0)
    assert isinstance(two, PandoriaState) and isinstance(four, PandoriaState)
    assert sum(two.monument_left) < sum(four.monument_left)
    assert sum(map(sum, two.relic_left)) < sum(map(sum, four.relic_left))


def test_buy_only_after_enclosing() -> None:
    s = on(board(". . .", ". . .", ". . ."))
    s.tracks = replaced(s.tracks, 0, (5, 5, 5, 5))
    s.phase, s._legal = ACTION, None
    s._after_action()
    assert s.phase != BUY


def test_end_threshold_then_the_round_is_finished() -> None:
    s = rulebook.new_game(NAME, players=3, seed=2)
    assert isinstance(s, PandoriaState)
    for p in range(3):
        s.apply(p, s.legal_actions(p)[0])
    s.pre_enclosed = 7
    assert s.turn == 0
    rng = random.Random(0)
    seen = set()
    while not s.is_terminal():
        seen.add(s.turn)
        p = s.current_players()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    assert seen == {0, 1, 2} and s.round == 1


def test_final_scoring_conversions() -> None:
    s = on(board(". ."))
    s.tracks = replaced(s.tracks, 0, (3, 5, 1, 4))
    s.mark(0, card("ship/statue"), OWNED)
    s.held_artifacts = replaced(s.held_artifacts, 0, 2)
    b = s.score_breakdown(0)
    assert (b["resources"], b["unused_cards"], b["artifacts"]) == (1 + 2 + 0 + 2, 1, 2)


# -- family version ----------------------------------------------------------------------------
def test_family_guilds_and_one_vp_per_resource() -> None:
    s = on(board(*WORKED), variant="family")
    assert s.guild == (KINDS.index("craft"), KINDS.index("gold"))  # Artisans, Goldsmiths
    s.guild = replaced(s.guild, 0, CRYSTAL)  # as the Alchemists
    worker(s, 0, "A2")
    worker(s, 1, "D1")
    draw(s, "B2", "wood")
    to_worker_step(s, 0, "B2")
    s.apply(0, "worker C2")
    assert s.vp[0] == (4, 2) and s.vp[1] == (2, 0)
    assert s.phase == "claim"
    assert {str(a) for a in s.legal_actions(0)} == {"claim 1a", "claim 1b"}  # 2 players
    s.apply(0, "claim 1b")
    assert s.held[0] == ("clone",)


def test_family_archive_levels_and_early_end() -> None:
    s = rulebook.new_game(NAME, players=2, seed=0, variant="family")
    assert isinstance(s, PandoriaState)
    for r in s.rooms:
        room = C.rooms[r]
        if room.level < 3:
            s.taken = replaced(s.taken, r, len(room.spells))
    assert {C.rooms[r].id for r in family.claimable(s)} == {"3a", "3b"}
    for r in family.claimable(s):
        s.taken = replaced(s.taken, r, len(C.rooms[r].spells))
    assert family.level3_exhausted(s)


def test_family_archive_room_is_filled_before_another_is_chosen() -> None:
    """ "Choose one of the rooms on the first level ... The next turn areas are enclosed, that
    player writes their initial on the next Spell in that room. When all the Spells in a room
    have been taken, the next player to win a Spell can choose another room on the same
    level." """
    s = rulebook.new_game(NAME, players=4, seed=0, variant="family")
    assert isinstance(s, PandoriaState)
    s.phase, s._legal = "claim", None
    assert {str(a) for a in s.legal_actions(0)} == {"claim 1a", "claim 1b", "claim 1c", "claim 1d"}
    s.apply(0, "claim 1b")
    room = next(r for r in C.rooms if r.id == "1b")
    for seat in (1, 2):
        s.phase, s.turn, s._legal = "claim", seat, None
        assert [str(a) for a in s.legal_actions(seat)] == ["claim 1b"]
        s.apply(seat, "claim 1b")
    assert s.taken[room.index] == len(room.spells) == 3
    assert s.held[:3] == (("clone",), ("terrain",), ("rage",))
    s.phase, s.turn, s._legal = "claim", 3, None
    assert {str(a) for a in s.legal_actions(3)} == {"claim 1a", "claim 1c", "claim 1d"}


# -- solo version ------------------------------------------------------------------------------
def solo(level: str = "beginner", seed: int = 0) -> PandoriaState:
    s = rulebook.new_game(NAME, players=1, seed=seed, variant="solo", options={"level": level})
    assert isinstance(s, PandoriaState)
    return s


@pytest.mark.parametrize(
    ("level", "last"), [("beginner", [60, 70]), ("intermediate", [65, 80]), ("expert", [70, 100])]
)
def test_solo_levels(level: str, last: list[int]) -> None:
    assert solo(level).troll_table()[-2:] == last


def test_solo_must_draw_two_plus_one_and_buy_after_two_areas() -> None:
    s = solo()
    s.apply(0, s.legal_actions(0)[0])
    rng = random.Random(1)
    while len(s.finished) == 0:
        assert "skip" not in {str(a) for a in s.legal_actions(0)}
        if s.phase == BUY:
            assert s.enclosed_now >= 2
        s.apply(0, rng.choice(s.legal_actions(0)))
    assert s.finished == (1,) and len(s.my_territory) == 1
    assert s.phase == "bridge" and not drawing.full_turn_fits(s)  # 2 + 1 no longer fit


def test_solo_whole_game_trolls_claim_columns_and_elements() -> None:
    s = solo("expert", seed=3)
    rng = random.Random(3)
    while not s.is_terminal():
        s.apply(0, rng.choice(s.legal_actions(0)))
    assert len(s.finished) == 8 and len(s.trolls) == 8
    assert len(s.troll_columns) == 6  # after Territories 3-8
    # from the 4th: one element a Territory, three after the 8th
    assert len(s.troll_claims) <= 4 + 3
    table = s.troll_table()
    for k in range(8):
        assert s.trolls[k] >= table[k] - s.my_territory[k]
    assert s.scores()[0] == sum(s.my_territory) + sum(
        v
        for key, v in s.score_breakdown(0).items()
        if key in ("resources", "unused_cards", "artifacts")
    )


def test_troll_score_is_the_table_minus_yours_even_below_zero() -> None:
    """ "The Trolls score points shown for that Territory in the table minus your score for
    that Territory": beating the table's value takes points off the Trolls."""
    s = solo()
    s.add_vp(0, 0, s.troll_table()[0] + 14)  # 14 more than the table in Territory 1
    solo_version.finish_territory(s)
    assert s.my_territory == (s.troll_table()[0] + 14,)
    assert s.trolls == (-14,) and s.trolls_total() == -14
    assert s.phase == "bridge"


def _greedy_choice(s: PandoriaState) -> str:
    from rulebook.agents.greedy import GreedyAgent

    return str(GreedyAgent(0).act(s, 0))


def test_greedy_solo_gives_the_trolls_as_little_as_it_can() -> None:
    """Greedy play in solo counts the Trolls' points: it gives them the column it owns most
    of, and the lowest of the Relics and Monuments they may claim."""
    s = solo()
    s.apply(0, s.legal_actions(0)[0])
    for k in range(3):  # three Territories finished; column 4 fully bought
        s.finished += (k + 1,)
        s.my_territory += (0,)
        s.trolls += (0,)
    for card in C.cards:
        if card.column == 3:
            s.mark(0, card.index, OWNED)
    s.phase = "trolls-column"
    s._legal = None
    for _ in range(5):
        assert _greedy_choice(s) == "trolls column-4"
    s.apply(0, "trolls column-4")
    assert s.phase == "trolls-column" or s.phase == "bridge"
    s.finished += (4,)
    s.my_territory += (0,)
    s.phase = "trolls-element"
    s._legal = None
    lowest = min(
        [("monument", buildings.monument_value(s))]
        + [(f"relic-{n}", actions.relic_value(s, k)) for k, (n, _) in enumerate(C.relics)],
        key=lambda e: e[1] or 99,
    )[0]
    assert _greedy_choice(s) == f"trolls {lowest}"


def test_illegal_moves_change_nothing() -> None:
    s = rulebook.new_game(NAME, players=2, seed=5)
    before = s.snapshot()
    for text in ("wood Z99", "buy nothing", "cast", "worker A1", "pass pass pass"):
        with pytest.raises(IllegalAction):
            s.apply(0, text)
    assert s.snapshot() == before


# -- the terminal ------------------------------------------------------------------------------
def test_cli_plays_with_typed_coordinates_and_the_solo_level() -> None:
    from typer.testing import CliRunner

    from rulebook.cli import app

    state = solo("expert", seed=4)
    first = str(state.legal_actions(0)[0])  # the starting card
    state.apply(0, first)
    while state.phase != DRAW:
        state.apply(0, state.legal_actions(0)[0])
    typed = str(state.legal_actions(0)[0]).lower()  # "wood c3" is read as "wood C3"
    result = CliRunner().invoke(
        app,
        ["play", NAME, "-p", "1", "--variant", "solo", "--level", "expert", "--seed", "4"],
        input=f"{first}\n" + "1\n" * (len(state.history) - 1) + f"{typed}\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Territory 1" in result.output and "A   B   C" in result.output
    assert "not a legal move" not in result.output and "is not a move" not in result.output


def test_menus_show_costs() -> None:
    s = on(board(". ."))
    s.tracks = replaced(s.tracks, 0, (5, 5, 5, 5))
    s.phase, s._legal = BUY, None
    from rulebook.pandoria_merchants.moves import Move

    assert s.explain(0, Move("buy", "ship/statue")).startswith("buy ship/statue (3 gold")
    s.mark(0, card("ship/statue"), OWNED)
    assert s.explain(0, Move("build", "ship/statue")) == "build ship/statue (statue: 3 wood)"


def _rendered(s: PandoriaState) -> str:
    from rich.console import Console

    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(GAME.render(s, 0))
    return console.export_text()


def test_view_shows_the_realm_sheet_and_the_solo_bridges() -> None:
    """A player sees every card's price and costs (not only when buying), blocked columns,
    and in solo where the Bridges are."""
    s = solo()
    text = _rendered(s)
    assert "Realm sheet" in text and "ship/statue 3g1c3w" in text
    assert "Bridges: " in text and "E4-F5" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_solo_end_says_who_won_against_the_trolls() -> None:
    """The solo game's end names the result against the Trolls (not "Winners: [0]")."""
    s = solo(seed=2)
    rng = random.Random(2)
    while not s.is_terminal():
        s.apply(0, rng.choice(s.legal_actions(0)))
    obs = s.observation(0)
    expected = "You beat the Trolls" if s.solo_won() else "The Trolls win"
    assert obs["rating"].startswith(expected)
    text = _rendered(s)
    assert expected in text and "Winners" not in text


def test_solo_bridges_must_end_on_empty_hexes() -> None:
    """A new Territory starts on the Bridge's space, so a Bridge may not end on a pre-printed
    space (the data check rejects it)."""
    from rulebook.core.data import DataError, load
    from rulebook.pandoria_merchants.content import (
        PACKAGE,
        GameFile,
        MapsFile,
        RealmFile,
        compile_content,
    )

    maps = load(MapsFile, PACKAGE, "maps.toml")
    realm = load(RealmFile, PACKAGE, "realm.toml")
    game = load(GameFile, PACKAGE, "game.toml")
    compile_content(maps, realm, game)
    solo = maps.solo.model_copy(update={"bridges": [*maps.solo.bridges, ("E5", "F5")]})
    maps = maps.model_copy(update={"solo": solo})  # E5 is a pre-printed City
    with pytest.raises(DataError, match="empty hexes"):
        compile_content(maps, realm, game)


# -- the solo verdict (End of Game and Final Score) ---------------------------------------------
def _finished_solo(seed: int = 2) -> PandoriaState:
    """A whole solo game played with random moves (the Trolls win it by far)."""
    s = solo(seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(0, rng.choice(s.legal_actions(0)))
    return s


def _trolls_score(s: PandoriaState, total: int) -> None:
    """Make the Trolls' total ``total`` by changing their last Territory's entry."""
    s.trolls = (*s.trolls[:-1], s.trolls[-1] + total - s.trolls_total())


def test_solo_when_the_trolls_win_nobody_wins() -> None:
    """ "If you have more total points than the Trolls, you win!": when they score more, the
    player is not a winner (winners() empty, returns() [0.0]); their points are laid out by
    the text's categories and add up to their total."""
    s = _finished_solo()
    assert s.scores()[0] < s.trolls_total()
    assert s.winners() == [] and s.returns() == [0.0] and not s.solo_won()
    trolls = s.opponent_breakdown()
    assert set(trolls) == {"territories", "cards", "relics_and_monuments"}
    assert sum(trolls.values()) == s.trolls_total()
    assert trolls["territories"] == sum(
        t - mine for t, mine in zip(s.troll_table(), s.my_territory, strict=True)
    )
    assert s.observation(0)["rating"] == "The Trolls win"


def test_solo_more_points_than_the_trolls_wins_and_a_tie_does_not() -> None:
    """More points than the Trolls wins; the same total is not "more", so the Trolls win."""
    s = _finished_solo()
    mine = s.scores()[0]
    _trolls_score(s, mine - 1)
    assert s.winners() == [0] and s.returns() == [1.0] and s.solo_won()
    assert s.observation(0)["rating"] == "You beat the Trolls"
    _trolls_score(s, mine)
    assert s.winners() == [] and s.returns() == [0.0] and not s.solo_won()
    assert s.observation(0)["rating"] == "The Trolls win"


def test_solo_final_table_shows_the_trolls_and_the_verdict(tmp_path: Path) -> None:
    """The final scores name the Trolls' points beside the player's, and the verdict agrees
    with winners(): no "Winner: seat 0" when the Trolls win."""
    from typer.testing import CliRunner

    from rulebook.cli import app

    s = _finished_solo()
    rulebook.save(s, tmp_path / "solo.json")
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "solo.json")])
    assert result.exit_code == 0, result.output
    verdict = f"Final score: {s.scores()[0]}, the Trolls {s.trolls_total()}: the Trolls win"
    assert verdict in result.output
    assert "Winner" not in result.output
    assert "relics and monuments" in result.output


# -- forfeiting part of a turn (2.1, 2.2 and the Note on forfeiting) ----------------------------
RULE_21 = (
    "One of the Resources must also be adjacent to at least one previously drawn Resource or "
    "Worker—or one of the 4 Starting Resource spaces."
)
RULE_FORFEIT = (
    "You may forfeit drawing any 1 or 2 (Resources/Worker) only if there are less than 3 empty "
    "hex spaces adjacent to each other."
)


def _two_spaces_left() -> PandoriaState:
    """A map with 2 empty hexes left, B1 next to the Starting space A1 and C1 beyond it: the
    full 2 + 1 no longer fits, so the player may forfeit."""
    s = on(board("@ . . ~", "~ ~ ~ ~", starts={"A1": "gold"}))
    s.phase, s.item, s.dice, s._legal = DRAW, 0, (WOOD, CRYSTAL), None
    return s


def _moves(s: PandoriaState) -> set[str]:
    return {str(a) for a in s.legal_actions(0)}


def test_a_first_resource_touching_nothing_drawn_cannot_lose_its_partner() -> None:
    """Issue 17. RULE_21 and RULE_FORFEIT: a first Resource drawn on C1 touches nothing drawn
    and no Starting space; it is allowed only because the second can go on B1, so the second
    may not then be forfeited (it was: C1 stood alone, breaking 2.1)."""
    assert "adjacent to at least one previously drawn" in RULE_21
    s = _two_spaces_left()
    assert _moves(s) >= {"wood B1", "wood C1", "crystal C1", "skip"}
    s.apply(0, "wood C1")
    assert _moves(s) == {"crystal B1"}  # no "skip": the crystal must meet 2.1 for both
    before = s.snapshot()
    with pytest.raises(IllegalAction):
        s.apply(0, "skip")
    assert s.snapshot() == before
    s.apply(0, "crystal B1")
    assert s.kind_at(s.board.index["B1"]) == CRYSTAL


def test_a_first_resource_meeting_the_rule_itself_may_be_drawn_alone() -> None:
    """RULE_FORFEIT: drawn on B1 (next to the Starting space) the first Resource meets 2.1
    itself, so the second may be forfeited; the Worker then goes next to the Resource drawn
    (2.2: "adjacent to one of the Resources you just drew")."""
    assert "less than 3 empty hex spaces" in RULE_FORFEIT
    s = _two_spaces_left()
    s.apply(0, "wood B1")
    assert _moves(s) == {"crystal C1", "skip"}
    s.apply(0, "skip")
    assert _moves(s) == {"worker C1"}


def test_the_worker_after_a_lone_resource_goes_next_to_it() -> None:
    """2.2 "Then draw one Worker on any empty hex space that is adjacent to one of the
    Resources you just drew": after one Resource and a forfeit, only its neighbours."""
    s = on(board("@ . . . ~", "~ ~ ~ ~ ~", starts={"A1": "gold"}))  # B1 C1 D1 in a row
    s.phase, s.item, s.dice, s._legal = DRAW, 0, (WOOD, CRYSTAL), None
    assert "skip" not in _moves(s)  # 2 + 1 fits: nothing may be forfeited
    s.apply(0, "wood B1")
    s.apply(0, "crystal C1")
    assert _moves(s) == {"worker D1"}  # next to C1; A1 is the Starting space


def test_spells_drawing_two_symbols_place_each_where_the_rule_allows_it() -> None:
    """Swamp: "Blacken any one (or 2 adjacent to each other) empty hex space(s) adjacent to at
    least one other drawn Resource or Worker"; Terrain: "draw those Resource symbols on the
    Map, adjacent to at least one other drawn Resource or Worker". Each first symbol meets the
    rule by itself, so stopping after it (Swamp's skip, Terrain with no room) breaks nothing."""
    b = board(". . . . .", ". . . . .", ". . . . .")
    s = on(b)
    draw(s, "C2", "wood")
    near = {b.names[h] for h in range(len(b.names)) if s.near >> h & 1 and s.empty >> h & 1}
    start_spell(s, "swamp", 2)
    firsts = {str(a).split()[1] for a in s.legal_actions(0)}
    assert firsts == near  # every first space touches the drawn wood
    s.apply(0, "swamp B2")
    assert "skip" in _moves(s)  # one space is a whole Swamp
    s.apply(0, "skip")
    s2 = on(b)
    draw(s2, "C2", "wood")
    start_spell(s2, "terrain", 2)
    while -1 in s2.dice:
        s2.apply(0, str(s2.legal_actions(0)[0]))
    hexes = {str(a).split()[1] for a in s2.legal_actions(0)}
    assert hexes == near and "skip" not in _moves(s2)


# -- refusals say why (issue 17) ---------------------------------------------------------------
def _refusal(s: PandoriaState, text: str) -> str:
    before = s.snapshot()
    with pytest.raises(IllegalAction) as caught:
        s.apply(s.turn, text)
    assert s.snapshot() == before
    return str(caught.value)


def test_refusals_of_hexes_say_why() -> None:
    """No such hex, beyond the river, a lake, an occupied space, a die not rolled, a hex that
    touches nothing drawn: each refusal names its reason (not "is not a legal move now")."""
    s = rulebook.new_game(NAME, players=2, seed=5)
    assert isinstance(s, PandoriaState)
    assert "choose your starting card, e.g. 'start " in _refusal(s, "wood Z99")
    while s.phase != DRAW:
        s.apply(s.turn, s.legal_actions(s.turn)[0])
    assert s.dice == (3, 1)  # gold and crystal
    assert "there is no hex Z99 (columns A-N, rows 1-4)" in _refusal(s, "wood Z99")
    assert "A9 is beyond the river: with 2 players the Map is used down to row 4" in _refusal(
        s, "gold A9"
    )
    assert "E1 is a lake" in _refusal(s, "gold E1")
    assert "B2 is a pre-printed wood space" in _refusal(s, "gold B2")
    assert "D3 is a Starting space (wood)" in _refusal(s, "gold D3")
    assert "the dice leave you crystal or gold to draw, not wood" in _refusal(s, "wood N1")
    assert "A1 is not next to a Resource or Worker drawn before this turn" in _refusal(s, "gold A1")
    assert "you may forfeit only when" in _refusal(s, "skip")
    assert "is not a move now: draw your first Resource" in _refusal(s, "pass")
    s.apply(s.turn, "gold D1")
    assert "the second Resource goes next to the first (D1)" in _refusal(s, "crystal H1")
    assert "the second Resource must be drawn" in _refusal(s, "skip")
    s.apply(s.turn, "crystal C2")
    assert "the Worker goes next to a Resource you just drew (D1, C2)" in _refusal(s, "worker H1")
    assert "D1 already holds a gold" in _refusal(s, "worker D1")
    for text in ("wood Z99", "gold A1", "worker H1", "pass"):
        with pytest.raises(IllegalAction) as caught:
            s.apply(s.turn, text)
        assert "not a legal move now" not in str(caught.value)
        assert "type 'moves'" not in str(caught.value)


def test_solo_refusal_names_the_territory_being_worked() -> None:
    """Solo: "you may only work in one Territory at a time"."""
    s = solo()
    s.apply(0, s.legal_actions(0)[0])
    while s.phase != DRAW:
        s.apply(0, s.legal_actions(0)[0])
    b = s.board
    elsewhere = next(h for h in bits(b.land & s.empty & ~s.zone) if s.kind_at(h) < 0)
    kind = KINDS[s.dice[0]]
    reason = _refusal(s, f"{kind} {b.names[elsewhere]}")
    assert f"is in Territory {b.territory[elsewhere]}; you are working in Territory 1" in reason


# -- moves in plain words, components explained (issue 23) -------------------------------------
#: the verbs the plain words begin with, as told of another seat (core.words.third_person)
TOLD = {
    "takes", "chooses", "draws", "forfeits", "goes", "casts", "builds", "makes", "moves",
    "puts", "blackens", "stops", "buys", "claims", "gives", "crosses",
}  # fmt: skip


def _kind(s: PandoriaState, a: rulebook.Action) -> tuple[str, str, str]:
    """A move's kind: phase, Spell being cast (the draw step; the Spell of a card bought or
    cast), verb."""
    verb, _, arg = str(a).partition(" ")
    step = s.spell if s.phase == "spell" else str(s.item) if s.phase == DRAW else ""
    if verb in ("buy", "cast") and not s.family:
        step = arg.split("/")[0]
    return s.phase, step, verb


def _curious_game(variant: str, players: int, seed: int, seen: set[tuple[str, ...]]) -> None:
    """A seeded game that makes a move of a kind not met yet whenever it can (so that few
    games meet every kind), checking the plain words of every legal move on the way."""
    from rulebook.core.words import third_person

    options = {"level": "expert"} if variant == "solo" else {}
    s = rulebook.new_game(NAME, players, seed=seed, variant=variant, options=options)
    assert isinstance(s, PandoriaState)
    rng = random.Random(seed)
    vocabulary = list(s.action_vocabulary())
    while not s.is_terminal():
        p = s.current_players()[0]
        moves = s.legal_actions(p)
        new = []
        for a in moves:
            plain, public = s.describe(p, a), s.describe_public(p, a)
            assert plain[0].isupper() and plain != str(a), (a, plain)
            assert third_person(plain).split()[0] in TOLD, plain  # it begins with its verb
            told = third_person(public)  # "seat 2 draws their ...": a sentence
            assert not {"you", "your", "yours"} & set(told.lower().replace(",", " ").split())
            # nothing in a move is hidden: the words do not change with the unseen (the dice
            # to come), from any seat's view
            for q in range(players):
                assert s.determinize(q, rng).describe_public(p, a) == public
            kind = (variant, *_kind(s, a))
            if kind not in seen:
                new.append(a)
                seen.add(kind)
        # a move not legal now (the web app tells a move before checking it) keeps its short form
        for a in rng.sample(vocabulary, 3):
            if a not in moves:
                assert s.describe(p, a) == s.explain(p, a)
        chosen = rng.choice(new or moves)
        said, before = s.describe(p, chosen), s.vp[p]
        s.apply(p, chosen)
        _said_vp_is_scored(said, before, s.vp[p])


def _said_vp_is_scored(said: str, before: tuple[int, ...], after: tuple[int, ...]) -> None:
    """The VP a move's words promise (a Relic's or Monument's worth, the Academy's and the
    Shrine's) are the VP it scores."""
    import re

    from rulebook.pandoria_merchants.terms import ACADEMY, MONUMENTS, RELICS, SHRINE

    if len(before) != len(after) or len(before) <= MONUMENTS:
        return  # the family version: no such VP
    promised = {
        ACADEMY: r"Academy scores (\d+) VP",
        SHRINE: r"Shrine scores (\d+) VP",
        RELICS: r"^Make a Relic worth (\d+) VP",
        MONUMENTS: r"^Build a Monument worth (\d+) VP",
    }
    for source, pattern in promised.items():
        found = re.search(pattern, said)
        assert after[source] - before[source] == (int(found[1]) if found else 0), said


def test_every_move_in_plain_words_begins_with_its_verb_and_tells_others_of_it() -> None:
    seen: set[tuple[str, ...]] = set()
    for variant, players, seeds in (("standard", 2, 3), ("standard", 4, 1), ("family", 3, 3)):
        for seed in range(seeds):
            _curious_game(variant, players, seed, seen)
    for seed in range(4):
        _curious_game("solo", 1, seed, seen)
    verbs = {(v, phase, verb) for v, phase, _, verb in seen}
    standard = {
        ("setup", "start"), ("wild", "choose"), ("draw", "wood"), ("draw", "city"),
        ("draw", "worker"), ("draw", "skip"), ("action", "pass"), ("action", "cast"),
        ("action", "build"), ("action", "monument"), ("action", "relic"), ("buy", "buy"),
        ("buy", "pass"), ("spell", "take"), ("spell", "worker"), ("spell", "conjure"),
        ("spell", "build"), ("spell", "rage"), ("spell", "ship"), ("spell", "swamp"),
    }  # fmt: skip
    # (a second Swamp hex forgone, Construct's Monument: in the examples below)
    family = {
        ("wild", "choose"), ("draw", "gold"), ("draw", "worker"), ("action", "cast"),
        ("action", "pass"), ("claim", "claim"), ("spell", "worker"), ("spell", "rage"),
        ("spell", "ship"), ("spell", "swamp"),
    }  # fmt: skip
    solo_only = {("trolls-column", "trolls"), ("trolls-element", "trolls"), ("bridge", "bridge")}
    assert {("standard", *k) for k in standard} <= verbs
    assert {("family", *k) for k in family} <= verbs
    assert {("solo", *k) for k in solo_only} <= verbs
    for variant in ("standard", "family"):  # a Resource the Terrain dice show
        assert any((variant, "spell", "terrain", kind) in seen for kind in KINDS)
    spells = {step for v, phase, step, _ in seen if phase == "spell" and v != "family"}
    assert spells == {"acquire", "clone", "conjure", "construct", "muster", "rage", "ship",
                      "swamp", "terrain"}  # fmt: skip


def _plain(s: PandoriaState, text: str) -> str:
    move = s.parse_action(s.turn, text)
    assert move in s.legal_actions(s.turn), text
    return s.describe(s.turn, move)


def test_plain_words_of_moves_with_their_costs() -> None:
    """Checked by hand against the rulebook: Crafts stand in 2 for 1 only for what is lacking
    (5.: "a card that costs 3 Gold and you only have 2"), a Monument costs 1 Craft and 5 Wood
    less the recycled Building's Wood (3.4), a Relic 2 Artifacts and 1 Craft (3.3); the card
    costs are the Realm sheet's (realm.toml: Rage 2 / Tower 3 Gold, 1 Crystal, 2 Wood)."""
    s = on(board(". ."))
    s.tracks = replaced(s.tracks, 0, (1, 1, 3, 2))
    s.phase, s._legal = BUY, None
    assert _plain(s, "buy rage/tower") == (
        "Buy the Rage 2 / Tower card for 3 Gold (2 Crafts for the 1 Gold you lack): its Spell "
        "Rage 2 costs 1 Crystal to cast, its Building Tower 2 Wood to build"
    )
    assert _plain(s, "pass") == "Buy no card this turn"
    worker(s, 0, "A1")  # a Worker for the Rage Spell to make count more
    s.mark(0, card("rage/tower"), OWNED)
    s.mark(0, card("rage/academy"), BUILT)  # the Academy: 3 Wood, and 1 VP a Building
    s.held_artifacts = replaced(s.held_artifacts, 0, 2)
    s.tracks = replaced(s.tracks, 0, (2, 1, 3, 0))
    s.phase, s._legal = ACTION, None
    assert _plain(s, "cast rage/tower") == (
        "Cast Rage 2 from your Rage 2 / Tower card for 1 Crystal; the card is used up. Rage 2: "
        "one of your Workers counts as 2 Workers when scoring this turn"
    )
    assert _plain(s, "build rage/tower") == (
        "Build the Tower of your Rage 2 / Tower card for 2 Wood; its Spell is lost; your "
        "Academy scores 1 VP. Tower: 2 more Crystals for every Crystal hex you score with at "
        "least 1 Worker (not multiplied by Workers)"
    )
    assert _plain(s, "monument rage/academy") == (
        "Build a Monument worth 10 VP over your Academy (Rage 3 / Academy card) for 2 Wood and "
        "1 Craft: the Academy stops working"  # crossed out first: it scores nothing
    )
    assert _plain(s, "relic 2") == (
        "Make a Relic worth 6 VP from 2 of your Artifacts for 1 Craft; your Academy scores 1 VP"
    )
    assert _plain(s, "pass") == "Go on without a Spell, Building, Relic or Monument this turn"
    # the others are told of the same move in the third person (the web log, core.words)
    from rulebook.web.views import entry

    told = entry(s, 0, s.parse_action(0, "relic 2"))
    assert told.plain == "make a Relic worth 6 VP from 2 of your Artifacts for 1 Craft; your " \
        "Academy scores 1 VP"  # fmt: skip
    assert told.plain_public == "makes a Relic worth 6 VP from 2 of their Artifacts for 1 " \
        "Craft; their Academy scores 1 VP"  # fmt: skip
    # the Construct Spell: a Building or a Monument without Wood (Spell Index)
    s.mark(0, card("construct/store"), OWNED)
    s.tracks, s._legal = replaced(s.tracks, 0, (0, 2, 1, 0)), None
    s.apply(0, "cast construct/store")
    assert _plain(s, "monument rage/academy") == (
        "Build a Monument worth 10 VP over your Academy (Rage 3 / Academy card) for 1 Craft and "
        "no Wood (Construct): the Academy stops working"
    )
    assert _plain(s, "build rage/tower").startswith(
        "Build the Tower of your Rage 2 / Tower card without paying Wood (Construct); its Spell "
        "is lost; your Academy scores 1 VP. Tower: "
    )


def test_plain_words_of_drawing_and_of_spells() -> None:
    s = on(board(". . . .", ". . . .", ". . . ."), players=2)
    draw(s, "A1", "wood")
    s.phase, s.item, s.dice, s._legal = DRAW, 0, (KINDS.index("gold"), KINDS.index("city")), None
    assert (
        _plain(s, "gold B1") == "Draw Gold on B1 as your first Resource (the City goes next to it)"
    )
    s.apply(0, "gold B1")
    assert _plain(s, "city C1") == "Draw a City on C1 as your second Resource"
    s.apply(0, "city C1")
    assert _plain(s, "worker D1") == "Draw your Worker on D1, next to the Resources you just drew"
    t = on(board(". . . .", ". . . .", ". . . ."), players=2)
    draw(t, "A1", "wood")
    t.phase, t.spell, t.power, t.spell_left, t.spell_hex = "spell", "swamp", 2, 2, -1
    t._legal = None
    first = str(t.legal_actions(0)[0]).split()[1]
    assert _plain(t, f"swamp {first}") == (
        f"Blacken {first} as a Swamp: nothing goes there and it closes areas (you may blacken a "
        "hex next to it too)"
    )
    t.apply(0, f"swamp {first}")
    second = str(t.legal_actions(0)[0]).split()[1]
    assert _plain(t, f"swamp {second}") == f"Blacken {second} too, next to {first} (Swamp)"
    assert _plain(t, "skip") == "Stop at one Swamp hex"
    s.phase, s.spell, s.power, s._legal = "spell", "conjure", 0, None
    assert _plain(s, "conjure gold") == "Move your Gold marker from 1 to 5 (Conjure)"


def test_plain_words_of_the_solo_and_family_steps() -> None:
    s = solo()
    s.apply(0, "start muster/saw-mill")
    s.finished, s.my_territory, s.trolls = (1, 2, 3), (0, 0, 0), (0, 0, 0)
    s.mark(0, card("acquire/bank"), OWNED)
    s.phase, s._legal = "trolls-column", None
    assert _plain(s, "trolls column-2") == (
        "Give column 2 to the Trolls for 2 VP: it closes, and its cards you have not bought (2) "
        "are crossed out, 1 VP each"
    )
    s.phase, s._legal = "bridge", None
    end = s.board.names[solo_version.bridges(s)[0]]
    there = s.board.territory[s.board.index[end]]
    assert _plain(s, f"bridge {end}") == (
        f"Cross the Bridge to {end} into the map's Territory {there} (your Territory 4 of 8)"
    )
    f = rulebook.new_game(NAME, players=2, seed=1, variant="family")
    assert isinstance(f, PandoriaState)
    f.phase, f._legal = "claim", None
    assert _plain(f, "claim 1a") == (
        "Claim Muster from room 1a of the Spell Archive, to cast on a later turn"
    )
    f.held = replaced(f.held, 0, ("rage3",))
    f.workers = replaced(f.workers, 0, 1)
    f.phase, f._legal = ACTION, None
    assert _plain(f, "cast rage3") == (
        "Cast your Rage 3 Spell; it is used up. Rage 3: one of your Workers counts as 3 "
        "Workers when scoring this turn"
    )


def test_the_raged_worker_is_in_every_view_for_the_turn_and_the_next() -> None:
    """Issue 23: a Rage used to be seen only in the log. The Worker it made count more is in
    the observation (everyone's: the map is public) for the rest of that turn, and marked as
    last turn's during the next."""
    s = on(board(*WORKED))  # the worked example: Jeff's Worker on C2 encloses B1-C1
    worker(s, 0, "A2")  # Jeff
    worker(s, 1, "D1")  # Bernd
    draw(s, "B2", "wood")
    worker(s, 0, "C2")
    s.touched = 1 << s.board.index["C2"]
    s.mark(0, card("rage/academy"), OWNED)
    s.tracks = replaced(s.tracks, 0, (5, 5, 5, 5))
    s.phase, s._legal = ACTION, None
    assert s.observation(1)["rage"] is None
    s.apply(0, "cast rage/academy")
    crystals = s.vp[0][1]
    s.apply(0, "rage C2")
    # 2 Crystals x (A2 + C2 counting 3) = 8: 3 + 8 is 6 past the full track, 3 VP
    assert s.vp[0][1] - crystals == 3
    seen = {"seat": 0, "hex": "C2", "counts_as": 3, "this_turn": True}
    assert s.phase == BUY  # an area enclosed: seat 0 may buy, and everyone sees the Rage
    assert s.observation(1)["rage"] == seen and s.public_observation()["rage"] == seen
    s.apply(0, "pass")
    assert s.turn == 1 and s.observation(0)["rage"] == {**seen, "this_turn": False}
    while s.turn == 1:
        s.apply(1, s.legal_actions(1)[0])
    assert s.observation(0)["rage"] is None


def test_solo_counts_territories_not_rounds() -> None:
    """Issue 23: solo has no rounds ("Round 1" all game long): the views say "Territory 3 of
    8", counted in the order played, which the Trolls' table follows."""
    from rulebook.pandoria_merchants.render import turn

    s = solo()
    assert s.observation(0)["solo"]["progress"] == "Territory 1 of 8"
    s.apply(0, s.legal_actions(0)[0])
    rng = random.Random(2)
    while s.phase != "bridge":
        s.apply(0, rng.choice(s.legal_actions(0)))
    assert s.observation(0)["solo"]["progress"] == "Territory 1 of 8 finished"
    s.apply(0, s.legal_actions(0)[0])
    solo_view = s.observation(0)["solo"]
    assert solo_view["progress"] == "Territory 2 of 8" and solo_view["playing"] == 2
    from rich.console import Console

    console = Console(width=120, record=True)
    console.print(turn(s, 0))
    assert "Territory 2 of 8" in console.export_text() and "Round" not in console.export_text()
    while not s.is_terminal():
        s.apply(0, rng.choice(s.legal_actions(0)))
    assert s.observation(0)["solo"]["progress"] == "All 8 Territories finished"


def test_the_trolls_points_say_why_they_fall_below_zero() -> None:
    """Issue 23: "explain negative Troll points". Each finished Territory's share of the
    Trolls' points, and their total, in words (the observation, so the end screen can show
    them): the table minus your points there, below zero where you beat the table."""
    s = solo()
    s.add_vp(0, 0, s.troll_table()[0] + 14)
    solo_version.finish_territory(s)
    words = s.observation(0)["solo"]
    assert words["troll_points"] == [
        {
            "territory": 1,
            "table": 6,
            "yours": 20,
            "cards": 0,
            "relics_and_monuments": 0,
            "total": -14,
            "words": "Territory 1: the table's 6 minus your 20 = -14 (you beat the table by 14): "
            "-14 for the Trolls",
        }
    ]
    assert words["trolls_explained"].startswith(
        "The Trolls have -14 points: -14 from the Territories (each Territory's table value "
        "minus your points there, below zero where you scored more than the table), 0 for"
    )
    # a whole game: each Territory's parts add up to the Trolls' points there
    s = solo("expert", seed=3)
    rng = random.Random(3)
    while not s.is_terminal():
        s.apply(0, rng.choice(s.legal_actions(0)))
    points = s.observation(0)["solo"]["troll_points"]
    assert [p["total"] for p in points] == list(s.trolls)
    for p in points:
        assert p["total"] == p["table"] - p["yours"] + p["cards"] + p["relics_and_monuments"]
    assert sum(p["cards"] for p in points) == s.opponent_breakdown()["cards"]
    assert sum(p["relics_and_monuments"] for p in points) == s.troll_elements


def test_every_component_has_a_text_and_authored_ones_say_so() -> None:
    """What the board explains comes from the data files (as `card NAME` shows it): every
    component of each variant has a text, the Realm cards (authored in realm.toml) say they
    are authored, and an entry describing authored values that does not say so is refused."""
    import sys

    from rulebook.core.data import DataError

    texts = sys.modules["rulebook.pandoria_merchants.cards"]  # the package names its function

    needed = {
        "wood", "crystal", "craft", "gold", "city", "dice", "?", "empty hex", "starting space",
        "pre-printed space", "worker", "area", "lake", "ship space", "swamp space", "river",
        "map", "turn", "victory points",
    }  # fmt: skip
    per_variant = {
        "standard": needed | {"artifact", "track", "card", "column", "relic", "monument"},
        "family": needed | {"guild", "spell archive"},
        "solo": needed | {"artifact", "track", "card", "relic", "monument", "trolls", "bridge",
                          "territory"},
    }  # fmt: skip
    for variant, names in per_variant.items():
        found = GAME.cards(GAME.setup(1 if variant == "solo" else 2, 0, variant))  # type: ignore[misc]
        assert names <= set(found), names - set(found)
    found = GAME.cards(GAME.setup(2, 0))  # type: ignore[misc]
    for c in C.cards:
        assert found[c.id].endswith(texts.AUTHORED + ": the rulebook does not give the Realm "
                                    "sheet's cards, where they sit or what they cost.")  # fmt: skip
    for name in ("relic", "monument"):
        assert texts.AUTHORED in found[name]
    assert "Authored" not in found["rage"] and "Authored" not in found["tower"]
    bad = texts.Term(name="x", text="values", source="rulebook", authored={"text": "made up"})
    data = texts.GlossaryFile(
        notes=texts.Notes(source="rulebook", authored_card="n"), entries=[bad]
    )
    original = texts.load
    try:
        texts.load = lambda model, package, name: (  # type: ignore[assignment]
            data if name == "glossary.toml" else original(model, package, name)
        )
        texts.glossary.cache_clear()  # type: ignore[attr-defined]
        with pytest.raises(DataError, match="describes authored values"):
            texts.glossary()
    finally:
        texts.load = original
        texts.glossary.cache_clear()  # type: ignore[attr-defined]


# -- what the table says aloud (the steps nobody chooses: rulebook.core.events) -----------------
def told(events: tuple[Event, ...] | list[Event], viewer: int | None) -> list[str | None]:
    return [e.told_to(viewer) for e in events]


def listened(s: PandoriaState, step: Callable[[], object]) -> list[Event]:
    """What the rules tell while ``step`` (a call into a section) runs on ``s``."""
    heard: list[Event] = []
    s.heard = heard
    try:
        step()
    finally:
        s.heard = None
    return heard


def test_the_worked_example_is_told_with_who_scored_what_and_why() -> None:
    """ "Jeff (J) enclosed the crystal-area, so he gets 4 crystals (2 crystals x 2 workers)
    and Bernd (B) gets 2 crystals": one line for the area, each seat's share with its Workers
    and the hexes; Jeff reads "you", Bernd and spectators read Jeff's seat."""
    s = on(board(*WORKED))
    worker(s, 0, "A2")  # Jeff
    worker(s, 1, "D1")  # Bernd
    draw(s, "B2", "wood")
    s.tracks = ((0, 0, 0, 0), (0, 0, 0, 0))
    to_worker_step(s, 0, "B2")
    area = apply_heard(s, 0, "worker C2")[0]
    shares = "4 Crystals (2 Workers × 2 hexes); seat 2 gains 2 Crystals (1 Worker × 2 hexes)"
    printed = "2 of the 3 pre-printed Resource spaces are enclosed (3 end the game)"
    assert area.seat == 0
    assert (
        area.told_to(0)
        == f"enclose the Crystal area of 2 hexes (B1, C1): you gain {shares}; {printed}"
    )
    others = f"encloses the Crystal area of 2 hexes (B1, C1): seat 1 gains {shares}; {printed}"
    assert area.told_to(1) == area.told_to(None) == others


def test_a_told_area_names_the_buildings_the_full_track_the_store_and_artifacts() -> None:
    """With the Tower "Jeff would get 4 crystals more!"; 8 Crystals on an empty track fill it
    at 5, the 3 over give 1 VP (one lost), the Store adds 2 VP; Jeff collects the Artifact."""
    s = on(board(*WORKED))
    worker(s, 0, "A2")
    worker(s, 1, "D1")
    draw(s, "B2", "wood")
    s.mark(0, card("rage/tower"), BUILT)
    s.mark(0, card("construct/store"), BUILT)
    s.tracks = ((0, 0, 0, 0), (0, 0, 0, 0))
    s.artifacts = {s.board.index["B1"]: 1}
    to_worker_step(s, 0, "B2")
    area = apply_heard(s, 0, "worker C2")[0]
    assert area.told_to(0) == (
        "enclose the Crystal area of 2 hexes (B1, C1): you gain 8 Crystals (2 Workers × 2 hexes "
        "+ 4 for the Tower), 3 beyond a full track: 1 VP (1 lost), + 2 VP for the Store; seat 2 "
        "gains 2 Crystals (1 Worker × 2 hexes); you collect 1 Artifact; 2 of the 3 pre-printed "
        "Resource spaces are enclosed (3 end the game)"
    )
    assert "seat 1 collects 1 Artifact" in str(area.told_to(1))
    assert s.vp[0][1:3] == (1, 2)  # what was told is what was scored


def test_a_told_area_counts_ships_and_rage() -> None:
    """A Ship's Worker and a Raged Worker are named where they count."""
    s = on(board("~ S ~", "C . .", ". . ."))
    s.ships = {s.board.index["B1"]: 1}
    draw(s, "B2", "wood")
    draw(s, "A3", "gold")
    s.tracks = ((0,) * 4, (0,) * 4)
    to_worker_step(s, 0, "A3")
    lines = told(apply_heard(s, 0, "worker B3"), 0)
    assert lines[0] == (
        "enclose the Crystal area of 1 hex (A2): you gain 1 Crystal (1 Worker × 1 hex); seat 2 "
        "gains 1 Crystal (1 Worker on a Ship: 1 × 1 hex); 1 of the 1 pre-printed Resource "
        "spaces is enclosed (3 end the game)"
    )
    assert lines[1] == "enclose the Gold area of 1 hex (A3): you gain 1 Gold (1 Worker × 1 hex)"
    s = on(board(*WORKED))
    worker(s, 0, "A2")
    worker(s, 1, "D1")
    draw(s, "B2", "wood")
    s.tracks = ((0,) * 4, (0,) * 4)
    s.rage_hex, s.rage_extra = s.board.index["A2"], 1  # Rage 2 on A2
    to_worker_step(s, 0, "B2")
    assert told(apply_heard(s, 0, "worker C2"), 1)[0] == (
        "encloses the Crystal area of 2 hexes (B1, C1): seat 1 gains 6 Crystals (2 Workers, "
        "the one on A2 counting 2 by Rage: 3 × 2 hexes), 1 beyond a full track, lost; seat 2 "
        "gains 2 Crystals (1 Worker × 2 hexes); 2 of the 3 pre-printed Resource spaces are "
        "enclosed (3 end the game)"
    )


def test_an_area_no_worker_touches_is_told_too() -> None:
    """An area enclosed with no Worker next to it counts for the end; nobody scores it."""
    s = on(board("C . . .", ". . . .", ". . . ."))
    draw(s, "B1", "wood")
    draw(s, "A2", "wood")
    to_worker_step(s, 1, "A2")
    s.touched |= 1 << s.board.index["B1"]
    area = apply_heard(s, 1, "worker A3")[0]  # A1's Crystal: the map's edge, B1 and A2
    assert area.told_to(0) == (
        "encloses the Crystal area of 1 hex (A1): no Worker is next to it, so nobody scores; "
        "1 of the 1 pre-printed Resource spaces is enclosed (3 end the game)"
    )
    assert s.tracks == ((1,) * 4, (1,) * 4)


def test_the_family_version_tells_points_and_the_guild_bonus() -> None:
    """Family: "every Resource is one Victory Point" per Worker, and the Guild's bonus."""
    s = on(board(*WORKED), variant="family")
    s.guild = replaced(s.guild, 0, CRYSTAL)  # as the Alchemists
    worker(s, 0, "A2")
    worker(s, 1, "D1")
    draw(s, "B2", "wood")
    to_worker_step(s, 0, "B2")
    area = apply_heard(s, 0, "worker C2")[0]
    assert area.told_to(0) == (
        "enclose the Crystal area of 2 hexes (B1, C1): you score 6 VP (2 Workers × 2 hexes + 2 "
        "for the Alchemists Guild); seat 2 scores 2 VP (1 Worker × 2 hexes); 2 of the 3 "
        "pre-printed Resource spaces are enclosed (3 end the game)"
    )
    assert s.vp == ((4, 2), (2, 0))


def test_each_turn_tells_its_roll() -> None:
    """1. Roll 2 Resource Dice: the roll a turn begins with, told after the move before it (here
    the last starting card); doubles bring an Artifact, a "?" is any other Resource."""
    s = rulebook.new_game(NAME, players=2, seed=1)
    assert isinstance(s, PandoriaState)
    assert apply_heard(s, 0, "start muster/saw-mill") == ()
    assert told(apply_heard(s, 1, "start conjure/market"), 1) == ["rolls Wood and Gold"]
    assert str(s.dice) == str((WOOD, KINDS.index("gold")))
    s.dice = (CRYSTAL, CRYSTAL)
    assert aloud.rolled(s) == Event(
        0, "Roll Crystal and Crystal: doubles, so an Artifact goes between the two"
    )
    s.dice = (-1, CRYSTAL)
    assert aloud.rolled(s).text == "Roll ? and Crystal: the ? may be any Resource but Crystal"
    s.dice = (-1, -1)
    assert aloud.rolled(s).text == "Roll ? and ?: each ? may be any Resource, the same one too"
    s.family, s.dice = True, (WOOD, WOOD)
    assert aloud.rolled(s).text == "Roll Wood and Wood"  # no Artifacts in the family version


def test_the_terrain_spell_tells_its_dice() -> None:
    s = on(board(". . .", ". . ."))
    s.near = s.board.land
    events = listened(s, lambda: start_spell(s, "terrain", 2))
    faces = " and ".join("?" if d < 0 else KINDS[d].capitalize() for d in s.dice)
    assert events[0].seat == 0 and events[0].text.startswith(
        f"Roll 2 dice for the Terrain Spell: {faces}"
    )


def test_a_symbol_with_no_hex_left_is_forfeited_aloud() -> None:
    """2.2: with no empty hex next to the Resources just drawn, the Worker is forfeited by
    itself, and the table hears it."""
    s = on(board(". C ~", "~ ~ ~"))
    draw(s, "A1", "wood")
    to_worker_step(s, 0, "A1")
    events = listened(s, lambda: s._enter(DRAW))
    assert told(events, 1)[0] == (
        "forfeits the Worker: no empty hex is left next to the Resources just drawn"
    )


def test_the_poorhouse_is_told() -> None:
    s = on(board(". ."))
    s.mark(0, card("swamp/poorhouse"), BUILT)
    s.tracks = replaced(s.tracks, 0, (0, 2, 0, 1))
    events = listened(s, lambda: buildings.poorhouse(s, 0))
    assert told(events, 0) == [
        "gain 1 Wood and 1 Craft from the Poorhouse (tracks at 0 go up to 1)"
    ]
    assert told(events, 1) == [
        "gains 1 Wood and 1 Craft from the Poorhouse (tracks at 0 go up to 1)"
    ]
    assert s.tracks[0] == (1, 2, 1, 1)


def test_the_end_and_the_final_score_are_told() -> None:
    """End of Game and Final Score: the end set off (the round is finished), then each seat's
    points by category, with the Resources left."""
    s = rulebook.new_game(NAME, players=3, seed=2)
    assert isinstance(s, PandoriaState)
    for p in range(3):
        s.apply(p, s.legal_actions(p)[0])
    s.pre_enclosed = 7
    rng = random.Random(0)
    heard: list[Event] = []
    while not s.is_terminal():
        p = s.current_players()[0]
        heard += apply_heard(s, p, rng.choice(s.legal_actions(p)))
    lines = told([e for e in heard if not e.text.startswith("Roll")], None)
    assert lines[0] == (
        "The end is near: 7 of the 8 pre-printed Resource spaces are enclosed (7 end the game); "
        "the round is played to its end, seat 3's turn last."
    )
    assert lines[-4] == "The game is over: the final score."
    for p in range(3):
        parts = s.score_breakdown(p)
        assert heard[-3 + p].seat == p
        assert f"with {s.score(p)} VP" in str(heard[-3 + p].text)
        assert (f"{parts['unused_cards']} for unused cards" in str(heard[-3 + p].text)) == bool(
            parts["unused_cards"]
        )


def test_the_final_score_names_every_category() -> None:
    s = on(board(". ."))
    s.tracks = replaced(s.tracks, 0, (3, 5, 1, 4))
    s.mark(0, card("ship/statue"), OWNED)
    s.held_artifacts = replaced(s.held_artifacts, 0, 2)
    s.vp = replaced(s.vp, 0, (4, 3, 2, 3, 1, 6, 10))
    events = listened(s, s._game_over)
    assert told(events, 0) == [
        "The game is over: the final score.",
        "end the game with 37 VP: 4 for City areas, 3 for Resources beyond full tracks, 2 for "
        "the Store, 3 for the Shrine, 1 for the Academy, 6 for Relics, 10 for Monuments, 5 for "
        "the Resources left (1 VP for 2 of each: Wood 3, Crystal 5, Craft 1, Gold 4), 1 for "
        "unused cards, 2 for the Artifacts left",
        "ends the game with 0 VP",
    ]
    assert s.score(0) == 37


def test_the_cities_note_names_the_buildings_that_count() -> None:
    assert "Statue" in rulebook.new_game(NAME, players=2, seed=0).score_notes()["cities"]


def test_a_finished_territory_and_the_trolls_points_are_told() -> None:
    """Territory is finished: your points there; Victory Points for the Trolls: the table's
    value minus yours (below 0 when you beat it)."""
    s = solo()
    s.add_vp(0, 0, s.troll_table()[0] + 14)
    assert told(listened(s, lambda: solo_version.finish_territory(s)), None) == [
        "finishes Territory 1 of 8 with 20 points there: 2 Resources and a Worker no longer "
        "fit; its open areas are not scored",
        "The Trolls score -14 points for Territory 1 of 8: the table's 6 minus the 20 scored "
        "there = -14 (the table beaten by 14).",
    ]


def test_after_the_8th_territory_the_trolls_take_three_and_the_game_ends_aloud() -> None:
    """ "After the 8th Territory, there are 3 elements, that are crossed out": told before
    they are, then the column the player gives, the Trolls' points and the final score."""
    s = solo()
    table = s.troll_table()
    s.finished = (1, 5, 2, 6, 3, 7, 4)
    s.my_territory = (0,) * 7
    s.trolls = tuple(table[:7])
    s.troll_parts = ((0, 0),) * 7
    s.territory = 8
    s.add_vp(0, 0, 20)
    heard = listened(s, lambda: solo_version.finish_territory(s))
    assert told(heard, 0) == [
        "finish Territory 8 of 8 with 20 points there: 2 Resources and a Worker no longer fit; "
        "its open areas are not scored",
        "After the last Territory the Trolls take the best left: the Relic of 2 Artifacts worth "
        "6 VP, the Relic of 3 Artifacts worth 10 VP and the Monument worth 10 VP.",
    ]
    assert told(apply_heard(s, 0, "trolls column-1"), 0) == [
        "The Trolls score 79 points for Territory 8 of 8: the table's 70 minus the 20 scored "
        "there = 50, + 3 for crossed-out cards, + 26 for Relics and Monuments.",
        "The game is over: the final score.",
        "end the game with 20 VP: 20 for City areas",
        f"The Trolls end with {sum(table[:7]) + 79} points: {sum(table) - 20} from the "
        "Territories, 3 for crossed-out cards, 26 for Relics and Monuments.",
    ]


def test_a_turn_with_nothing_to_draw_is_told_and_ends_the_game() -> None:
    """Decision 9: when no Resource can be drawn anywhere, the end is set off as by the
    threshold; each such turn says so, the first one that the round is the last."""
    s = on(board(". ."))
    s.near = s.anchor_extra = 0
    lines = told(listened(s, s._begin_turn), None)
    assert lines[:2] == [
        "draws nothing this turn: no empty hex is left where a Resource may go; the game ends "
        "with this round, after seat 2's turn",
        "draws nothing this turn: no empty hex is left where a Resource may go",
    ]
    assert lines[2] == "The game is over: the final score." and s.is_terminal()
