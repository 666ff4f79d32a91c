"""Ye Olde Magick Shoppe: the rulebook's worked examples and its rules, one test each.

States are built with ``new_game`` and then arranged (dice, sheet marks, customers) to match
each example; moves are made only through ``State.apply``.
"""

from __future__ import annotations

import os

import pytest

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
from rulebook import IllegalAction
from rulebook.core import apply_heard
from rulebook.ye_olde_magick_shoppe.content import content
from rulebook.ye_olde_magick_shoppe.rules import ShoppeState

GAME = "ye-olde-magick-shoppe"
C = content()
LAYOUT = C.layout
MINUS, PLUS = 0, 1


def new(players: int = 2, seed: int = 0) -> ShoppeState:
    return new_state(ShoppeState, GAME, players, seed)


def card(name: str) -> int:
    return card_index(new(), name)


# -- the text's data -------------------------------------------------------------------------
def test_decks_and_certifications_as_printed() -> None:
    assert sum(o.kind == "customer" for o in C.cards) == 40
    assert sum(o.kind == "connoisseur" for o in C.cards) == 16
    assert all(o.double for o in C.cards if o.kind == "connoisseur")
    assert card("Vorpal Sword") in C.customers
    assert card("Everlasting Waterskin of the Dragons") in C.connoisseurs
    boxes = {m.name: (LAYOUT.columns[m.column].id, m.circles) for m in (*C.material, *C.energy)}
    assert boxes == {
        "Steel Material Mastery": ("steel", 4),
        "Wood Material Mastery": ("wood", 5),
        "Leather Material Mastery": ("leather", 6),
        "Elemental Energy Mastery": ("elemental", 6),
        "Arcane Energy Mastery": ("arcane", 5),
        "Wild Energy Mastery": ("wild", 4),
    }
    assert len(LAYOUT.rows) == 30
    assert [LAYOUT.columns[c].id for c in (0, 1, 2)] == ["steel", "wood", "leather"]


# -- worked examples of the rulebook ----------------------------------------------------------
def test_example_six_on_a_d10() -> None:
    """Spell Research example: a 6 on a d10 may mark the Waterskin's Leather >= 3 or Shocking's
    Arcane <= 10, not Everlasting's Elemental <= 1 nor the Torch's Wood >= 3."""
    state = new()
    set_dice(state, d10=6)
    legal = {m.split()[1] for m in moves(state, 0) if m.startswith("d10 ")}
    assert {"waterskin/leather", "shocking/arcane"} <= legal
    assert "everlasting/elemental" not in legal
    assert "torch/wood" not in legal
    expected = markable(state, ("leather", "elemental", "arcane"), 6)
    assert legal == expected
    for bad in ("d10 everlasting/elemental", "d10 torch/wood"):
        before = state.snapshot()
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
        assert state.snapshot() == before


def test_example_d6_four_with_two_plus_two_modifiers_marks_the_sword_steel_eight() -> None:
    """Bonus Modifiers example: with only Spell Research Efficiency complete the plus modifiers
    are worth +2; two of them turn a d6 4 into 8 for the Sword's Steel >= 8 box."""
    state = new()
    complete(state, 0, "spell-research-efficiency")
    state.level[0] = [0, 1]
    state.bonus[0] = [0, 3]
    set_dice(state, d6=4)
    assert LAYOUT.circle_by_id["sword/steel"].threshold == 8
    assert state.observation(0)["seats"][0]["bonus_values"]["plus"] == 2
    action = state.parse_action(0, "d6 sword/steel")
    assert state.explain(0, action) == "d6 sword/steel (4+4: 2 plus modifiers)"
    state.apply(0, action)
    assert state.marks[0] & LAYOUT.circle_by_id["sword/steel"].bit
    assert state.bonus[0] == [0, 1]  # two crossed out


def test_example_two_extra_dice_spend_all_four() -> None:
    """Extra Dice example: marking 2 Extra Dice boxes spends all 4 dice of the round."""
    state = new()
    set_dice(state, d6=6, d8=8, d10=1, d12=1)
    for move in ("d6 helmet/steel", "d8 cudgel/wood", "d10 shocking/elemental"):
        state.apply(0, move)
    assert state.extra_used[0] == 1
    state.apply(0, "d12 everlasting/elemental")
    assert state.extra_used[0] == 2
    assert 0 not in state.current_players()  # all four dice spent


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 8])
def test_setup_customers_and_connoisseur_far_right(players: int) -> None:
    state = new(players)
    customers = 3 if players <= 2 else 2
    assert state.shop_size == customers + 1
    for line in state.lines:
        assert [C.cards[o].kind for o in line] == ["customer"] * customers + ["connoisseur"]
    assert len(state.deck) == 40 - players * customers
    assert state.observation(0)["masteries"][0]["side"] == "higher"


def test_solo_setup_four_in_the_shoppe_and_two_waiting() -> None:
    state = new(1)
    assert state.shop_size == 4
    kinds = [C.cards[o].kind for o in state.lines[0]]
    assert kinds == ["customer"] * 3 + ["connoisseur"] + ["customer"] * 2
    obs = state.observation(0)["seats"][0]
    assert len(obs["customers"]) == 4 and len(obs["waiting"]) == 2


# -- Bonus Modifiers and Charms ---------------------------------------------------------------
def test_crafting_rows_give_minus_research_rows_plus_usable_on_the_next_die() -> None:
    state = new()
    set_dice(state, d6=5, d8=1, d10=9, d12=12)
    state.apply(0, "d6 helmet/steel")  # completes the Helmet: a minus modifier
    assert state.bonus[0] == [1, 0]
    assert state.score_breakdown(0)["items"] == C.rows[LAYOUT.row_by_id["helmet"].index].stars
    # the minus modifier lowers the d12's 12 to 11 at once: Fiery's Wild <= 11
    assert "d12 fiery/wild" in moves(state, 0)
    state.apply(0, "d12 fiery/wild")
    assert state.bonus[0] == [0, 0]
    mark(state, 1, "everlasting/wild")
    state.apply(1, "d8 everlasting/elemental")  # completes a spell: a plus modifier
    assert state.bonus[1] == [0, 1]


def test_modifiers_help_one_way_only() -> None:
    state = new()
    set_dice(state, d12=12, d6=1)
    state.bonus[0] = [0, 5]  # plus modifiers cannot lower a result
    assert "d12 fiery/wild" not in moves(state, 0)
    state.bonus[0] = [5, 0]  # minus modifiers cannot raise one
    assert "d6 helmet/steel" not in moves(state, 0)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="plus Bonus"):
        state.apply(0, "d6 helmet/steel")
    assert state.snapshot() == before


def test_charms_advance_the_bonus_modifier_value() -> None:
    state = new()
    assert state.modifier_value(0, MINUS) == 1 and state.modifier_value(0, PLUS) == 1
    mark(state, 0, "crafting-efficiency/arcane")
    set_dice(state, d10=10)
    state.apply(0, "d10 crafting-efficiency/elemental")
    assert state.level[0] == [1, 0] and state.modifier_value(0, MINUS) == 2
    state.apply(0, "done")
    finish_round(state)
    mark(state, 0, "crafting-proficiency/wild")
    set_dice(state, d8=4)
    state.apply(0, "d8 crafting-proficiency/elemental")
    assert state.modifier_value(0, MINUS) == 3
    assert state.observation(0)["seats"][0]["bonus_values"] == {"minus": -3, "plus": 1}


# -- customers -------------------------------------------------------------------------------
def test_claim_when_item_and_enchantments_complete_replace_face_down() -> None:
    state = new()
    sword = card("Vorpal Sword")
    state.lines[0][0] = sword
    complete(state, 0, "vorpal")
    mark(state, 0, "sword/wood", "sword/leather")
    state.bonus[0] = [0, 2]
    set_dice(state, d6=6)
    deck = len(state.deck)
    state.apply(0, "d6 sword/steel")
    assert state.claimed[0] == [sword]
    assert state.lines[0][0] < 0 and len(state.deck) == deck - 1
    assert state.score_breakdown(0)["customers"] == C.cards[sword].value
    assert state.observation(0)["seats"][0]["customers"][0] == {"face_down": True}
    # crafting is simultaneous: seat 1 sees seat 0's shoppe as the phase began until it ends
    assert state.observation(1)["seats"][0]["customers"][0]["name"] == "Vorpal Sword"
    assert state.pending_moves() == 1


def test_connoisseur_needs_both_enchantments() -> None:
    state = new()
    conn = card("Shocking Sword of the Elves")
    state.lines[0][-1] = conn
    complete(state, 0, "sword", "shocking")
    finish_round(state)
    assert conn not in state.claimed[0]
    state.lines[0].append(conn)
    state.shop_size += 1
    complete(state, 0, "of-the-elves")
    finish_round(state)
    assert conn in state.claimed[0]


def test_customer_circle_rotates_and_face_down_cards_flip() -> None:
    state = new(3)
    before = [line.copy() for line in state.lines]
    state.lines[1][0] = ~state.lines[1][0]
    finish_round(state)
    for p in range(3):
        assert state.lines[p] == [*before[p][1:], before[(p - 1) % 3][0]]
    assert all(o >= 0 for line in state.lines for o in line)


def test_solo_line_shifts_left_and_draws_face_up() -> None:
    check_solo_shift(new(1))


# -- Certifications, end and scoring ------------------------------------------------------------
def _steel(state: ShoppeState, p: int, k: int) -> None:
    mark(state, p, *[c.id for c in LAYOUT.circles if LAYOUT.columns[c.column].id == "steel"][:k])


def test_certification_first_players_same_round_higher_later_lower() -> None:
    state = new(3)
    state.mastery_cards = (next(m.index for m in C.material if m.name.startswith("Steel")), 0)
    _steel(state, 0, 4)
    _steel(state, 1, 4)
    finish_round(state)
    assert [state.mastery_scored[p][0] for p in range(3)] == [6, 6, -1]
    _steel(state, 2, 4)
    finish_round(state)
    assert state.mastery_scored[2][0] == 3
    finish_round(state)
    assert state.mastery_scored[0][0] == 6  # once each
    assert state.score_breakdown(0)["certifications"] == 6


def test_solo_scores_only_the_lower_value() -> None:
    state = new(1)
    state.mastery_cards = (next(m.index for m in C.material if m.name.startswith("Steel")), 0)
    _steel(state, 0, 4)
    finish_round(state)
    assert state.mastery_scored[0][0] == 3
    assert state.observation(0)["masteries"][0]["side"] == "lower"


def test_glyphs_score_per_item_of_their_category() -> None:
    state = new()
    complete(state, 0, "waterskin", "torch", "sword")
    assert state.score_breakdown(0)["glyphs"] == 0
    complete(state, 0, "gear-discounting")
    assert state.score_breakdown(0)["glyphs"] == 2
    complete(state, 0, "weapon-discounting", "armor-discounting")
    assert state.score_breakdown(0)["glyphs"] == 3


def test_game_ends_after_round_ten_and_ties_go_to_most_customers() -> None:
    state = new()
    for _ in range(10):
        assert not state.is_terminal()
        finish_round(state)
    assert state.is_terminal() and state.round == 10
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "done")
    assert state.scores() == [0, 0] and state.winners() == [0, 1]
    state.claimed[1] = [0]
    assert state.tiebreak(1) > state.tiebreak(0)


def test_no_free_marks_in_this_game() -> None:
    state = new()
    with pytest.raises(IllegalAction):
        state.apply(0, "free sword/steel")
    assert not any(str(a).startswith("free") for a in state.action_vocabulary())


# -- the terminal view and the bots -------------------------------------------------------------
def test_menu_says_when_a_move_marks_an_extra_dice_box() -> None:
    state = new()
    set_dice(state, d6=6, d8=8, d10=1, d12=12)
    first = state.parse_action(0, "d6 helmet/steel")
    assert state.explain(0, first) == "d6 helmet/steel"
    state.apply(0, first)
    state.apply(0, "d8 cudgel/wood")
    third = state.parse_action(0, "d10 shocking/elemental")
    assert state.explain(0, third) == "d10 shocking/elemental (Extra Dice box 1/5)"
    fourth = state.parse_action(0, "d12 fiery/wild")
    assert state.explain(0, fourth) == "d12 fiery/wild (12-1: 1 minus modifier; Extra Dice box 1/5)"


def _text(state: ShoppeState, player: int) -> str:
    from rich.console import Console

    from rulebook.ye_olde_magick_shoppe.render import render

    console = Console(width=120, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(render(state, player))
    return console.export_text()


def test_view_explains_bonus_modifiers_charms_glyphs_and_certification_progress() -> None:
    state = new()
    state.mastery_cards = (next(m.index for m in C.material if m.name.startswith("Steel")), 0)
    _steel(state, 1, 3)
    complete(state, 0, "waterskin", "torch", "gear-discounting")
    state.bonus[0] = [2, 1]
    state.level[0] = [1, 0]
    text = " ".join(_text(state, 0).split())
    assert "2 minus (-2 each), 1 plus (+1 each)" in text
    assert "Gear Discounting: 1 star per Gear crafted (2 now)" in text
    assert "Crafting Efficiency: circle the next minus value" in text
    assert "steel 3/4" in text  # seat 1's progress towards the Steel Material Mastery


def test_with_the_deck_out_a_claimed_space_stays_empty_and_moves_with_the_circle() -> None:
    """Cards move one space clockwise; when no customer is left to replace a claimed one, its
    space stays empty and travels around the table like a card (the shoppe does not shrink
    for good)."""
    state = new(3)
    sword = card("Vorpal Sword")
    others = [o for o in C.customers if o != sword][:8]
    a, c, d, e, f, g, h, i = others
    state.lines = [[a, sword, c], [d, e, f], [g, h, i]]
    state.deck.clear()
    complete(state, 0, "vorpal")
    mark(state, 0, "sword/wood", "sword/leather")
    state.bonus[0] = [0, 2]
    set_dice(state, d6=6)
    state.apply(0, "d6 sword/steel")
    assert state.claimed[0] == [sword]
    assert state.observation(0)["seats"][0]["customers"][1] == {"empty": True}
    finish_round(state)  # seat 0 passes a to seat 1 and receives g from seat 2
    assert [len(line) for line in state.lines] == [3, 3, 3]
    assert state.lines[0][1:] == [c, g] and state.lines[1] == [e, f, a]
    finish_round(state)  # the empty space is passed on to seat 1, at its far right
    assert state.lines[0] == [c, g, h] and state.lines[1][:2] == [f, a]
    assert state.observation(0)["seats"][1]["customers"][2] == {"empty": True}
    assert "(empty)" in " ".join(_text(state, 0).split())


#: the printed sheet's thresholds per row (END of the rulebook), in print order; the Sword's
#: first circle is the Bonus Modifiers example's "Steel >= 8" (printed ">= 6")
PRINTED = {
    "waterskin": [3], "torch": [3], "backpack": [1, 6], "ladder": [7, 1], "grimoire": [5, 4, 4],
    "slingshot": [7], "cudgel": [6], "shuriken": [4], "longbow": [8, 6], "sword": [8, 5, 4],
    "bracers": [9], "helmet": [5], "shield": [3, 9], "greaves": [7, 5], "full-plate": [8, 2, 8],
    "fiery": [6, 11], "shocking": [2, 10], "everlasting": [1, 9], "vorpal": [12, 2, 7],
    "of-the-elves": [11, 10], "of-the-dwarves": [8, 4], "of-the-titans": [7, 4],
    "of-the-dragons": [3, 9, 2], "crafting-efficiency": [10, 8], "crafting-proficiency": [4, 8],
    "spell-research-efficiency": [5, 6], "spell-research-proficiency": [7, 6],
    "gear-discounting": [3, 5], "weapon-discounting": [3, 5], "armor-discounting": [1, 3],
}  # fmt: skip


def test_sheet_thresholds_and_dice_as_printed() -> None:
    assert {
        row.id: [LAYOUT.circles[i].threshold for i in row.circles] for row in LAYOUT.rows
    } == PRINTED
    dice = {col.id: set(col.dice) for col in LAYOUT.columns}
    # "d6 can be used to craft Steel, Wood, or Leather. d10 can be used to craft Leather, or
    # research Elemental and Arcane energies. The only die [...] in the Wild column is the d12."
    assert {c for c, d in dice.items() if "d6" in d} == {"steel", "wood", "leather"}
    assert {c for c, d in dice.items() if "d10" in d} == {"leather", "elemental", "arcane"}
    assert dice["wild"] == {"d12"}
    # the HOW TO PLAY checkbox table (Everlasting's <= 1: the d10 example's Elemental)
    columns = {c.id: LAYOUT.columns[c.column].id for c in LAYOUT.circles}
    assert {cid for cid in columns if cid.split("/")[0] in ("backpack", "vorpal")} == {
        "backpack/steel", "backpack/leather", "vorpal/elemental", "vorpal/arcane", "vorpal/wild"
    }  # fmt: skip
    assert "everlasting/elemental" in columns and "of-the-elves/wild" in columns
    kinds = {row.id: C.bonus_kind[row.index] for row in LAYOUT.rows}
    assert all(kinds[r.id] == (MINUS if r.category in ("gear", "weapon", "armor") else PLUS)
               for r in LAYOUT.rows)  # fmt: skip


# -- what the table says aloud (rulebook.core.rollwrite.aloud) ----------------------------------
def test_certifications_are_told_first_players_then_later_ones() -> None:
    """Certifications, told in the game's words (boxes, stars, higher and lower values): the
    first players of the same round together, with the lower value from then on; a later one
    its lower value, as its own line."""
    state = new(3)
    state.mastery_cards = (next(m.index for m in C.material if m.name.startswith("Steel")), 0)
    _steel(state, 0, 4)
    _steel(state, 1, 4)
    heard = finish_round_heard(state)
    assert told(heard, 2)[1] == (
        "Seats 1 and 2 score 6 stars each for Steel Material Mastery (Material Mastery "
        "Certification: 4 boxes marked in the Steel column): its higher value, as the first to "
        "meet it; from now on it pays its lower value, 3 stars."
    )
    _steel(state, 2, 4)
    heard = finish_round_heard(state)
    later = (
        "3 stars for Steel Material Mastery (Material Mastery Certification: 4 boxes marked in "
        "the Steel column): its lower value, as it was first scored in an earlier round"
    )
    assert told(heard, 2)[1] == f"score {later}"
    assert told(heard, 0)[1] == told(heard, None)[1] == f"scores {later}"


def test_solo_certification_and_shift_are_told() -> None:
    """Solo Variant, told: only the lower value; the customers shift left, the leftmost
    leaving, the first waiting one entering the shoppe, a new one joining face-up."""
    state = new(1)
    state.mastery_cards = (next(m.index for m in C.material if m.name.startswith("Steel")), 0)
    _steel(state, 0, 4)
    line, top = state.lines[0].copy(), state.deck[-1]
    heard = finish_round_heard(state)
    left, entering, joining = (C.cards[o] for o in (line[0], line[4], top))
    assert [left.kind, entering.kind, joining.kind] == ["customer"] * 3
    assert told(heard, 0)[1:3] == [
        "score 3 stars for Steel Material Mastery (Material Mastery Certification: 4 boxes "
        "marked in the Steel column): its lower value, the only one a solo game scores",
        f"The Customers shift one space left: the Customer {left.name} ({left.value} stars) is "
        f"discarded; the Customer {entering.name} ({entering.value} stars) enters the shoppe; "
        f"the Customer {joining.name} ({joining.value} stars) joins the line from the deck.",
    ]


def test_the_circle_turning_face_up_and_the_deck_out_are_told() -> None:
    """Round Flow 3 and 6-7, told: a claim with the Customer deck out leaves its space empty
    (the move's line names the claim, the table what follows); the circle rotates; a
    face-down card passed on is named where it is flipped."""
    state = new(3)
    sword = card("Vorpal Sword")
    a, c, d, e, f, g, h, i = [o for o in C.customers if o != sword][:8]
    state.lines = [[a, sword, c], [d, e, f], [~g, h, i]]
    state.deck.clear()
    complete(state, 0, "vorpal")
    mark(state, 0, "sword/wood", "sword/leather")
    state.bonus[0] = [0, 2]
    set_dice(state, d6=6)
    heard = apply_heard(state, 0, "d6 sword/steel")
    assert told(heard, 1) == [
        "The Customer deck is out: nothing replaces the Customer Vorpal Sword (6 stars) in "
        "seat 1's shoppe; its space stays empty."
    ]
    heard = finish_round_heard(state)
    g_card = C.cards[g]
    assert told(heard, None)[1] == (
        "The Customers move one space clockwise, each seat's leftmost to the seat on its left; "
        f"turned face up: the Customer {g_card.name} ({g_card.value} stars) in seat 1's shoppe."
    )


def test_the_end_of_the_game_tells_each_seat_s_stars_by_category() -> None:
    """End of the Game and Scoring, told: each seat's stars by category, those that scored."""
    state = new()
    state.round = C.rounds
    complete(state, 0, "waterskin", "torch", "gear-discounting")
    state.claimed[1] = [card("Vorpal Sword")]
    heard = finish_round_heard(state)
    assert told(heard, 0) == [
        "Round 10 of 10 is over: the game ends.",
        "finish with 4 stars: 2 for Items and 2 for Glyphs",  # a Glyph's own stars: 0
        "finishes with 6 stars: 6 for Customers",
    ]
    assert state.is_terminal()


@pytest.mark.parametrize("players", [1, 8])
def test_a_game_told_aloud_is_the_same_game(players: int) -> None:
    """Listening changes nothing (solo and 8 players): the same moves make the same game, and
    every round's end and each seat's final score are told."""
    told_round_ends_and_scores(GAME, players)
