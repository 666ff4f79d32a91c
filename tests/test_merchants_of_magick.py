"""Merchants of Magick: the rulebook's worked examples and its rules, one test each.

States are built with ``new_game`` and then arranged (dice, sheet marks, Orders) to match each
example; moves are made only through ``State.apply``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import rulebook
from rollwrite_helpers import (
    card_index,
    check_solo_shift,
    complete,
    finish_round,
    finish_round_heard,
    mark,
    markable,
    moves,
    new_state,
    set_dice,
    told,
    told_round_ends_and_scores,
)
from rulebook import Action, IllegalAction
from rulebook.core import apply_heard
from rulebook.core.policy import random_move
from rulebook.core.rollwrite import SheetState
from rulebook.merchants_of_magick import FreeMark, Spend
from rulebook.merchants_of_magick.content import content
from rulebook.merchants_of_magick.rules import MerchantsState

GAME = "merchants-of-magick"
C = content()
LAYOUT = C.layout


def new(players: int = 2, seed: int = 0) -> MerchantsState:
    return new_state(MerchantsState, GAME, players, seed)


def order(name: str) -> int:
    return card_index(new(), name)


# -- worked examples of the rulebook ----------------------------------------------------------
def test_example_six_on_a_d10() -> None:
    """SPELL RESEARCH example: a 6 on the d10 marks Leather (>=), Elemental and Arcane (<=)
    circles it satisfies, never one it is too high for, and never the Scroll's Wood >3 circle."""
    state = new()
    set_dice(state, d10=6)
    legal = {m.split()[1] for m in moves(state, 0) if m.startswith("d10 ")}
    expected = markable(state, ("leather", "elemental", "arcane"), 6)
    assert legal == expected
    assert "scroll/wood" not in legal  # 6 > 3, but the d10 may not be used for Wood
    assert {
        "backpack/leather",
        "greaves/leather",
        "divine/elemental",
        "of-the-elves/arcane",
    } <= legal
    assert not legal & {"plate-armor/leather", "shocking/elemental", "everlasting/arcane"}
    with pytest.raises(IllegalAction):
        state.apply(0, "d10 scroll/wood")


def test_example_greaves_with_potions() -> None:
    """POTIONS example: a 5 on the d6, 3 Potions; 2 Potions make it 7 for the last Steel circle
    of the Greaves; the row is complete, its 4 Coins circled and 1 Potion gained."""
    state = new()
    set_dice(state, d6=5)
    mark(state, 0, "greaves/leather")
    state.potions[0] = 3
    assert "d6 greaves/steel" in moves(state, 0)
    assert state.explain(0, state.parse_action(0, "d6 greaves/steel")).endswith("(5+2: 2 potions)")
    state.apply(0, "d6 greaves/steel")
    assert "greaves" in state.observation(0)["seats"][0]["completed"]
    assert state.score_breakdown(0)["crafting"] == 4
    assert state.potions[0] == 3 - 2 + 1


def test_example_greaves_without_enough_potions() -> None:
    state = new()
    set_dice(state, d6=5)
    state.potions[0] = 1
    assert "d6 greaves/steel" not in moves(state, 0)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=r"needs 2 Potions \(5 on the d6\); you have 1"):
        state.apply(0, "d6 greaves/steel")
    assert state.snapshot() == before
    set_dice(state, d6=6)  # one short: "1 Potion", not "1 Potion(s)" (issue 17)
    state.potions[0] = 0
    with pytest.raises(IllegalAction, match=r"needs 1 Potion \(6 on the d6\); you have 0"):
        state.apply(0, "d6 greaves/steel")


def test_example_todd_claims_the_everlasting_pendant_of_the_elves() -> None:
    """ORDERS example: Todd has the Ring, Pendant, Everlasting and "of the Elves"; he claims the
    Everlasting Pendant of the Elves for 5 Coins, not the Everlasting Ring of the Orcs (no "of the
    Orcs") nor the Backpack of the Elves (no Backpack)."""
    state = new()
    pendant = order("Everlasting Pendant of the Elves")
    ring = order("Everlasting Ring of the Orcs")
    backpack = order("Backpack of the Elves")
    state.lines[0] = [ring, pendant, backpack, state.lines[0][3]]
    complete(state, 0, "ring", "everlasting", "of-the-elves")
    mark(state, 0)  # the Pendant is completed by the move below
    set_dice(state, d8=6)
    deck_before = len(state.deck)
    state.apply(0, "d8 pendant/wood")
    assert [C.orders[o].name for o in state.claimed[0]] == ["Everlasting Pendant of the Elves"]
    assert state.score_breakdown(0)["orders"] == 5
    assert state.lines[0][0] == ring and state.lines[0][2] == backpack
    assert state.lines[0][1] < 0  # replaced face-down from the deck
    assert len(state.deck) == deck_before - 1
    assert state.observation(0)["seats"][0]["orders"][1] == {"face_down": True}


def test_example_master_blacksmith_and_master_enchanter() -> None:
    """MASTERY PHASE example: Master Blacksmith unscored pays 8 to everyone meeting it this
    round, then flips to 4; Master Enchanter, scored before, pays 4."""
    state = new(players=3)
    blacksmith = next(m.index for m in C.material if m.name == "Master Blacksmith")
    enchanter = next(m.index for m in C.energy if m.name == "Master Enchanter")
    state.mastery_cards = (blacksmith, enchanter)
    state.mastery_master[1] = False  # Master Enchanter was scored in a previous round
    steel = [c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "steel"]
    arcane = [c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "arcane"]
    need = C.material[blacksmith].circles
    mark(state, 0, *steel[:need])
    mark(state, 1, *steel[:need], *arcane[: C.energy[enchanter].circles])
    finish_round(state)
    assert state.mastery_scored[0] == [8, -1]
    assert state.mastery_scored[1] == [8, 4]
    assert state.mastery_scored[2] == [-1, -1]
    assert state.mastery_master == [False, False]
    mark(state, 2, *steel[:need])
    finish_round(state)
    assert state.mastery_scored[2][0] == 4  # Apprentice side now
    assert state.mastery_scored[0] == [8, -1]  # each card scores once per player
    assert state.score_breakdown(1)["material_mastery"] == 8
    assert state.score_breakdown(1)["energy_mastery"] == 4


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "orders"), [(1, 4), (2, 4), (3, 3), (4, 3), (5, 3), (6, 3), (7, 2), (8, 2)]
)
def test_orders_dealt_by_player_count(players: int, orders: int) -> None:
    state = new(players)
    obs = state.observation(0)
    assert [len(s["orders"]) for s in obs["seats"]] == [orders] * players
    assert all(not o.get("face_down") for s in obs["seats"] for o in s["orders"])
    assert len({s["adventurer"]["name"] for s in obs["seats"]}) == players
    assert len(state.deck) == len(C.orders) - players * orders - (2 if players == 1 else 0)
    if players == 1:
        assert state.setup.variant == "solo"
        assert len(obs["seats"][0]["waiting"]) == 2


def test_three_double_orders_are_redealt() -> None:
    state = new(3)
    doubles = [o.index for o in C.orders if o.double]
    singles = [o.index for o in C.orders if not o.double]
    # next three cards drawn are doubles, then singles
    state.deck = singles[6:] + singles[:3] + doubles[:3]
    state.deck_seen = 0
    line = state._deal_orders()
    assert sorted(line) == sorted(singles[:3])
    assert sorted(state.deck[:3]) == doubles[:3]  # returned to the bottom, seen by everyone
    assert state.deck_seen == 3
    known = state.observation(1)["deck"]["known_bottom"]
    assert sorted(known) == sorted(C.orders[d].name for d in doubles[:3])


@pytest.mark.parametrize("game", ["merchants-of-magick", "ye-olde-magick-shoppe"])
def test_the_deck_after_the_game_is_the_deck(game: str) -> None:
    """During the crafting a seat sees the deck as it began less its own draws; once the game
    is over every seat sees the deck as it is (its own draws of the last round are not taken
    off again)."""
    drew_last_round = 0
    for seed in range(100):  # at least 10 games, and on until one drew in its last round
        if seed >= 10 and drew_last_round:
            break
        state = rulebook.new_game(game, players=3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_players()[0]
            state.apply(p, random_move(state, p, rng))
        assert isinstance(state, SheetState)
        drew_last_round += any(state._phase_draws)
        for p in range(3):
            assert state.observation(p)["deck"]["cards"] == len(state.deck)
    assert drew_last_round, "no game drew a card in its last round: the check saw nothing"


def test_two_double_orders_are_kept() -> None:
    state = new(3)
    doubles = [o.index for o in C.orders if o.double]
    singles = [o.index for o in C.orders if not o.double]
    state.deck = [*singles[3:], singles[0], doubles[0], doubles[1]]
    assert sorted(state._deal_orders()) == sorted([singles[0], doubles[0], doubles[1]])


def test_masteries_start_on_master_side() -> None:
    obs = new(4).observation(0)
    assert [m["kind"] for m in obs["masteries"]] == ["material", "energy"]
    assert all(m["side"] == "master" and m["value"] == 8 for m in obs["masteries"])


# -- crafting and research ------------------------------------------------------------------
def test_two_results_then_extra_dice_in_order() -> None:
    state = new()
    set_dice(state, d6=6, d8=8, d10=1, d12=1)
    state.apply(0, "d6 sword/steel")
    state.apply(0, "d8 staff/wood")
    assert state.extra_used[0] == 0
    state.apply(0, "d10 shocking/elemental")  # 3rd result: first Extra Die, free
    assert state.extra_used[0] == 1
    state.apply(0, "d12 everlasting/arcane")
    assert state.extra_used[0] == 2
    assert 0 not in state.current_players()  # all four results spent: phase over for seat 0


def test_paid_extra_dice_cost_potions() -> None:
    state = new()
    set_dice(state, d6=6, d8=8, d10=1, d12=1)
    state.extra_used[0] = 3  # the three free slots are used
    state.apply(0, "d6 sword/steel")
    state.apply(0, "d8 staff/wood")
    state.potions[0] = 1
    assert moves(state, 0) == {"done"}  # the 4th slot costs 2 Potions
    with pytest.raises(IllegalAction, match="Extra Die"):
        state.apply(0, "d10 shocking/elemental")
    state.potions[0] = 2
    state.apply(0, "d10 shocking/elemental")
    assert state.potions[0] == 0 and state.extra_used[0] == 4


def test_no_extra_dice_left() -> None:
    state = new()
    set_dice(state, d6=6, d8=8)
    state.extra_used[0] = 6
    state.potions[0] = 20
    state.apply(0, "d6 sword/steel")
    state.apply(0, "d8 staff/wood")
    assert 0 not in state.current_players()  # no further result can be spent


def test_each_result_marks_one_circle_once() -> None:
    state = new()
    set_dice(state, d6=6, d8=8)
    state.apply(0, "d6 scroll/wood")
    with pytest.raises(IllegalAction, match="already spent the d6"):
        state.apply(0, "d6 helmet/steel")
    with pytest.raises(IllegalAction, match="already marked"):
        state.apply(0, "d8 scroll/wood")


def test_research_needs_a_low_result() -> None:
    state = new()
    set_dice(state, d12=12)
    state.potions[0] = 0
    assert "d12 of-the-elves/wild" not in moves(state, 0)  # 12 > 10
    state.potions[0] = 2
    assert "d12 of-the-elves/wild" in moves(state, 0)  # 12-2 = 10
    state.apply(0, "d12 of-the-elves/wild")
    assert state.potions[0] == 0


def test_completing_a_row_gives_one_potion_and_potion_supplier_five() -> None:
    state = new()
    set_dice(state, d6=6, d8=1)
    state.apply(0, "d6 sword/steel")
    assert state.potions[0] == 1
    state.apply(0, "d8 potion-supplier/elemental")
    assert state.potions[0] == 1 + 5


def test_charm_bonus_counts_fulfilled_orders_of_its_category() -> None:
    state = new()
    accessory = [o for o in C.orders if o.category == "accessory"][:2]
    weapon = next(o for o in C.orders if o.category == "weapon")
    state.claimed[0] = [accessory[0].index, accessory[1].index, weapon.index]
    complete(state, 0, "renowned-accessories")
    assert state.score_breakdown(0)["charms_bonus"] == 4
    complete(state, 0, "weapon-prestige")
    assert state.score_breakdown(0)["charms_bonus"] == 6


# -- Sponsored Adventurer ---------------------------------------------------------------------
def _adventurer_state() -> tuple[MerchantsState, str, list[str]]:
    state = new()
    adv = C.adventurers[state.adventurer[0]]
    return state, adv.enchantment, list(adv.items)


def _complete_all_but_one(state: MerchantsState, row_id: str) -> tuple[str, str]:
    """Complete ``row_id`` but one circle; return that circle and a die that can mark it."""
    row = LAYOUT.row_by_id[row_id]
    last = LAYOUT.circles[row.circles[-1]]
    state.marks[0] |= row.mask & ~last.bit
    die = sorted(LAYOUT.columns[last.column].dice, key=C.dice.index)[0]
    set_dice(state, **{die: last.threshold})
    return last.id, die


def test_adventurer_rewards_in_order() -> None:
    state, enchantment, items = _adventurer_state()
    complete(state, 0, *items)
    state.lines[0] = []  # keep Orders out of the way
    state.shop_size = 0
    circle, die = _complete_all_but_one(state, enchantment)
    potions = state.potions[0]
    state.apply(0, f"{die} {circle}")
    # all three Orders at once: 3 Potions, then two free marks; Coins at the end
    assert state.adventurer_done[0] == 0b111
    assert state.potions[0] == potions + 1 + 3
    assert state.free_marks[0] == 2
    assert all(str(a).startswith("free ") for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="free mark first"):
        state.apply(0, "done")
    free = state.legal_actions(0)[0]
    state.apply(0, free)
    state.apply(0, state.legal_actions(0)[0])
    assert state.free_marks[0] == 0
    assert (
        state.score_breakdown(0)["sponsored_adventurer"] == C.adventurers[state.adventurer[0]].coins
    )


def test_adventurer_first_order_gives_three_potions_only() -> None:
    state, enchantment, items = _adventurer_state()
    state.shop_size = 0
    complete(state, 0, enchantment)
    circle, die = _complete_all_but_one(state, items[0])
    state.apply(0, f"{die} {circle}")
    assert state.adventurer_done[0] == 0b001
    assert state.potions[0] == 1 + 3
    assert state.free_marks[0] == 0
    assert state.score_breakdown(0)["sponsored_adventurer"] == 0


# -- Customer phase, rounds, end --------------------------------------------------------------
def test_orders_rotate_clockwise_and_face_down_orders_are_revealed() -> None:
    state = new(3)
    before = [line.copy() for line in state.lines]
    state.lines[1][0] = ~state.lines[1][0]  # a face-down card leaves seat 1
    finish_round(state)
    assert state.round == 2
    for p in range(3):
        assert state.lines[p] == [*before[p][1:], before[(p - 1) % 3][0]]


def test_no_customer_phase_in_the_last_round_and_game_ends_after_round_ten() -> None:
    state = new(2)
    for _ in range(9):
        finish_round(state)
    assert state.round == 10 and not state.is_terminal()
    lines = [line.copy() for line in state.lines]
    finish_round(state)
    assert state.is_terminal() and state.round == 10
    assert state.lines == lines
    assert state.current_players() == ()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "done")


def test_solo_orders_shift_left_and_the_leftmost_is_discarded() -> None:
    state = new(1)
    line = check_solo_shift(state)
    assert state.observation(0)["discards"] == [C.orders[line[0]].name]


def test_solo_scores_only_the_apprentice_side() -> None:
    state = new(1)
    steel = [c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "steel"]
    state.mastery_cards = (next(m.index for m in C.material if m.column == 0), 0)
    mark(state, 0, *steel)
    finish_round(state)
    card = C.material[state.mastery_cards[0]]
    assert state.mastery_scored[0][0] == card.apprentice
    assert state.observation(0)["masteries"][0]["side"] == "apprentice"


@pytest.mark.parametrize(
    ("score", "rating"),
    [
        (0, "Unrated"),
        (59, "Unrated"),
        (60, "Apprentice"),
        (75, "Craftsman"),
        (80, "Merchant"),
        (90, "Master"),
        (130, "Master"),
    ],
)
def test_solo_rating(score: int, rating: str) -> None:
    """The title of a score (``rating_of``), and of a solo seat's real score (``rating``: its
    fulfilled Orders worth ``score`` Coins, built here, compiled or not)."""
    state = new(1)
    assert state.rating_of(score) == rating
    left, claimed = score, []
    for o in sorted(C.orders, key=lambda o: -o.coins):
        if o.coins <= left and left - o.coins != 1:
            claimed.append(o.index)
            left -= o.coins
    assert left == 0
    state.claimed = [claimed]
    assert state.scores() == [score]
    assert state.rating() == rating


def test_tie_breakers_most_orders_then_most_potions_then_shared() -> None:
    state = new(3)
    state.marks = [0, 0, 0]
    two = [o.index for o in C.orders if o.coins == 2]
    four = next(o.index for o in C.orders if o.coins == 4)
    state.claimed = [[four], [two[0], two[1]], []]
    state.potions = [5, 0, 9]
    assert state.scores()[:2] == [4, 4]
    assert state.winners() == [1]  # same Coins: most fulfilled Orders wins
    state.claimed = [[four], [two[0]], [two[1]]]
    state.marks[1] = state.marks[2] = LAYOUT.row_by_id["sword"].mask  # 2 + 2 Coins
    assert state.scores() == [4, 4, 4]
    assert state.winners() == [2]  # same Orders: most Potions wins
    state.potions = [9, 0, 9]
    assert state.winners() == [0, 2]  # still tied: shared victory


def test_empty_deck_claim_leaves_one_order_fewer() -> None:
    state = new()
    state.deck = []
    pendant = order("Everlasting Pendant of the Elves")
    state.lines[0][0] = pendant
    complete(state, 0, "everlasting", "of-the-elves")
    set_dice(state, d8=6)
    state.apply(0, "d8 pendant/wood")
    assert len(state.lines[0]) == 3
    assert state.claimed[0] == [pendant]


def test_order_already_complete_is_claimed_when_it_arrives() -> None:
    state = new(2)
    arriving = state.lines[1][0]
    o = C.orders[arriving]
    state.marks[0] |= o.mask
    finish_round(state)
    assert arriving in state.claimed[0]


@pytest.mark.parametrize(
    ("build", "wrong_type"),
    [
        (lambda: Spend(["d6"], "x"), True),  # type: ignore[arg-type]
        (lambda: FreeMark({}), True),  # type: ignore[arg-type]
        (lambda: Spend("d6", "sword/wood"), False),
        (lambda: FreeMark("sword"), False),
    ],
)
def test_hand_built_moves_with_odd_fields_are_refused(
    build: Callable[[], Action], wrong_type: bool
) -> None:
    """A hand-built move with a field of the wrong type, or naming nothing, changes nothing.
    Pure Python builds either and ``apply`` refuses it (:class:`IllegalAction`); compiled, a
    field of the wrong type is refused where the move is built (``TypeError``: the compiled
    class checks its fields' declared types), one naming nothing by ``apply``."""
    state = new()
    before = state.snapshot()
    if wrong_type and rulebook.compiled.active:
        with pytest.raises(TypeError):
            build()
    else:
        bad = build()
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    assert state.snapshot() == before


def test_views_are_copies() -> None:
    state = new()
    snap = state.snapshot()
    state.current_players()
    state.apply(0, state.legal_actions(0)[1])
    assert snap != state.snapshot()
    assert isinstance(state.current_players(), tuple)


# -- the simultaneous crafting phase ----------------------------------------------------------
def test_crafting_is_simultaneous_no_seat_sees_another_s_choices_before_the_phase_ends() -> None:
    """Everyone crafts at once: until every seat is done, a seat sees the other sheets as they
    were when the phase began (and who is still deciding); the moves are revealed together."""
    state = new(3, seed=4)
    before = [state.observation(p) for p in range(3)]
    move = next(a for a in state.legal_actions(0) if str(a) != "done")
    state.apply(0, move)
    state.apply(0, "done")
    assert state.pending_moves() == 2
    for p in (1, 2):
        seen = state.observation(p)
        assert seen["seats"][0] == {**before[p]["seats"][0], "done": True}
        assert seen["deck"] == before[p]["deck"]
    assert state.observation(0)["seats"][0] != before[0]["seats"][0]
    state.apply(1, "done")
    assert state.pending_moves() == 3
    state.apply(2, "done")  # the phase ends: all of it is public
    assert state.pending_moves() == 0
    assert state.observation(1)["seats"][0] == state.observation(0)["seats"][0]
    assert str(move).split()[-1] in state.observation(2)["seats"][0]["marked"]


# -- what the table says aloud (rulebook.core.rollwrite.aloud) ----------------------------------
def dice_said(state: SheetState) -> str:
    """THE RESOURCE PHASE: the round's roll as the round's first line names it."""
    shown = [f"{v} on the {d}" for d, v in zip(C.dice, state.dice, strict=True)]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def test_the_mastery_phase_is_told_who_scores_which_side() -> None:
    """THE MASTERY PHASE example, told: the seats meeting the unscored Master Blacksmith in the
    same round are told together, with its Master side and its flip; a seat meeting Master
    Enchanter, scored before, its Apprentice side (its own line: "you" to it); the round ends,
    the Orders move on and the next round's dice are told."""
    state = new(players=3)
    blacksmith = next(m.index for m in C.material if m.name == "Master Blacksmith")
    enchanter = next(m.index for m in C.energy if m.name == "Master Enchanter")
    state.mastery_cards = (blacksmith, enchanter)
    state.mastery_master[1] = False  # Master Enchanter was scored in a previous round
    steel = [c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "steel"]
    arcane = [c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "arcane"]
    mark(state, 0, *steel[:4])
    mark(state, 1, *steel[:4], *arcane[:5])
    heard = finish_round_heard(state)
    enchanter_said = (
        "4 Coins for Master Enchanter (Energy Mastery: 5 circles marked in the Arcane column): "
        "its Apprentice side, as it was first scored in an earlier round"
    )
    table = [
        "Round 1 of 10 is over.",
        "Seats 1 and 2 score 8 Coins each for Master Blacksmith (Material Mastery: 4 circles "
        "marked in the Steel column): its Master side, as the first to meet it; from now on it "
        "pays its Apprentice side, 4 Coins.",
        "The Orders move one space clockwise, each seat's leftmost to the seat on its left.",
        f"Round 2 of 10 begins: the dice show {dice_said(state)}.",
    ]
    assert told(heard, 1) == [*table[:2], f"score {enchanter_said}", *table[2:]]
    assert told(heard, 0) == [*table[:2], f"scores {enchanter_said}", *table[2:]]
    assert told(heard, None) == told(heard, 0)
    assert [e.seat for e in heard] == [None, None, 1, None, None]
    mark(state, 2, *steel[:4])
    heard = finish_round_heard(state)
    assert told(heard, 2)[1] == (
        "score 4 Coins for Master Blacksmith (Material Mastery: 4 circles marked in the Steel "
        "column): its Apprentice side, as it was first scored in an earlier round"
    )


def test_orders_turned_face_up_and_claimed_on_arrival_are_told() -> None:
    """THE CUSTOMER PHASE, told: a face-down Order passed on is named where it is turned up;
    one arriving in a shoppe whose sheet completes it is claimed, told to its seat as its own,
    and its face-down replacement is not named."""
    state = new(3)
    hidden = state.lines[1][0]
    state.lines[1][0] = ~hidden  # a face-down Order leaves seat 2 for seat 3
    arriving = state.lines[2][0]  # seat 3's leftmost, to seat 1
    state.marks[0] |= C.orders[arriving].mask
    heard = finish_round_heard(state)
    hidden_o, arriving_o = C.orders[hidden], C.orders[arriving]
    assert told(heard, None)[1] == (
        "The Orders move one space clockwise, each seat's leftmost to the seat on its left; "
        f"turned face up: the Order {hidden_o.name} ({hidden_o.coins} Coins) in seat 3's shoppe."
    )
    claim = (
        f"the Order {arriving_o.name} ({arriving_o.coins} Coins) as it comes face-up into the "
        "shoppe (the sheet already completes it); a face-down card from the deck takes its place"
    )
    assert told(heard, 0)[2] == f"claim {claim}"
    assert told(heard, 1)[2] == told(heard, None)[2] == f"claims {claim}"
    assert arriving in state.claimed[0]
    # the replacement, face-down until the next Customer Phase, is named nowhere
    replacement = C.orders[~state.lines[0][-1]].name
    assert not any(replacement in line for line in told(heard, 0))


def test_a_claim_with_the_deck_out_is_told() -> None:
    """ORDERS: "In the rare case that the Orders deck is empty ... no replacement Order is
    drawn": the move's line tells the claim, the table that nothing replaces it."""
    state = new()
    state.deck = []
    pendant = order("Everlasting Pendant of the Elves")
    state.lines[0][0] = pendant
    complete(state, 0, "everlasting", "of-the-elves")
    set_dice(state, d8=6)
    heard = apply_heard(state, 0, "d8 pendant/wood")
    assert told(heard, 1) == [
        "The Order deck is out: nothing replaces the Order Everlasting Pendant of the Elves "
        "(5 Coins) in seat 1's shoppe; the shoppe holds one card fewer."
    ]


def test_a_seat_out_of_results_is_told_why_its_crafting_ended() -> None:
    """EXTRA DICE: a seat's phase ends by itself when no result is left it may spend; the seat
    is told why (the others see it done, and are told nothing)."""
    state = new()
    state.extra_used[0] = len(C.rules.extra_dice_costs)  # every Extra Dice slot used
    first = next(a for a in state.legal_actions(0) if str(a) != "done")
    assert apply_heard(state, 0, first) == ()
    second = next(a for a in state.legal_actions(0) if str(a) != "done")
    heard = apply_heard(state, 0, second)
    assert told(heard, 0) == [
        "finish crafting and research for this round: no Extra Dice slots left"
    ]
    assert told(heard, 1) == told(heard, None) == []
    assert state.done[0]


def test_the_solo_shift_and_apprentice_side_are_told() -> None:
    """SOLO VARIANT, told: the Orders shift left, the leftmost discarded, the first waiting
    one entering the shoppe, a new one joining from the deck; only the Apprentice side."""
    state = new(1)
    state.mastery_cards = (next(m.index for m in C.material if m.name == "Master Blacksmith"), 0)
    mark(state, 0, *[c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "steel"])
    line, top = state.lines[0].copy(), state.deck[-1]
    heard = finish_round_heard(state)
    left, entering, joining = (C.orders[o] for o in (line[0], line[4], top))
    assert told(heard, 0) == [
        "Round 1 of 10 is over.",
        "score 4 Coins for Master Blacksmith (Material Mastery: 4 circles marked in the Steel "
        "column): its Apprentice side, the only one a solo game scores",
        f"The Orders shift one space left: the Order {left.name} ({left.coins} Coins) is "
        f"discarded; the Order {entering.name} ({entering.coins} Coins) enters the shoppe; "
        f"the Order {joining.name} ({joining.coins} Coins) joins the line from the deck.",
        f"Round 2 of 10 begins: the dice show {dice_said(state)}.",
    ]


def test_the_end_of_the_game_tells_each_score_by_category_and_the_solo_title() -> None:
    """END OF GAME and the SOLO VARIANT's table, told: the seat's Coins by category (those that
    scored), then its title."""
    state = new(1)
    state.round = C.rounds
    complete(state, 0, "sword", "fiery")
    left, claimed = 84 - state.score(0), []  # Fulfilled Orders make up 84 Coins in all
    for o in sorted(C.orders, key=lambda o: -o.coins):
        if o.coins <= left and left - o.coins != 1:
            claimed.append(o.index)
            left -= o.coins
    state.claimed = [claimed]
    assert state.score(0) == 84  # the Sword 2 and Fiery 1 (sheet.toml), Orders 81
    heard = finish_round_heard(state)
    assert told(heard, 0) == [
        "Round 10 of 10 is over: the game ends.",
        "finish with 84 Coins: 2 for Crafting, 1 for Spell Research and 81 for Completed Orders",
        "earn the title Merchant (80 Coins or more; Master needs 90 Coins)",
    ]
    assert state.is_terminal()


@pytest.mark.parametrize("players", [1, 8])
def test_a_game_told_aloud_is_the_same_game(players: int) -> None:
    """Listening changes nothing (solo and 8 players): the same moves make the same game, and
    every round's end and each seat's final score are told."""
    told_round_ends_and_scores(GAME, players)
