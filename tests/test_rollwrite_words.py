"""The roll-and-write games' moves in plain words (issue 23): ``State.describe`` for every move
met in seeded games of every variant, and the rulebooks' worked examples told word for word.

Merchants of Magick and Ye Olde Magick Shoppe share the phrasing (``SheetState.describe``);
each supplies its own names (Potions or Bonus Modifiers, Orders or Customers, Coins or stars).
"""

from __future__ import annotations

import random
import re

import pytest

import rulebook
from rollwrite_helpers import card_index, complete, mark, new_state, set_dice
from rulebook.core.rollwrite import Done, FreeMark, SheetState, Spend
from rulebook.core.rollwrite.words import row_kind
from rulebook.core.words import third_person
from rulebook.merchants_of_magick.rules import MerchantsState
from rulebook.web.views import entry
from rulebook.ye_olde_magick_shoppe.rules import ShoppeState

MOM = "merchants-of-magick"
YOMS = "ye-olde-magick-shoppe"
VERBS = {Spend: "Use", Done: "Finish", FreeMark: "Mark"}
#: the parts a move's words may have; every one is met in the games below
PARTS = {
    "raised": r"\(\d+ raised to \d+",
    "lowered": r"\(\d+ lowered to \d+",
    "extra": r"Extra Dice (slot|box) \d of \d",
    "completing": r", completing ",
    "claiming": r"claiming the (Order|Customer|Connoisseur) ",
    "leaving": r", leaving the d\d+ \(\d+\)",
}


def _play(game: str, players: int, variant: str, seed: int) -> tuple[set[str], set[type]]:
    """A seeded game whose every legal move's words are checked; moves that complete a row
    are preferred (so that claims and rewards come up). Returns the parts and kinds met."""
    state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
    assert isinstance(state, SheetState)
    rng = random.Random(seed)
    parts: set[str] = set()
    kinds: set[type] = set()
    while not state.is_terminal():
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        said = {a: state.describe(p, a) for a in legal}
        for action, text in said.items():
            check_words(state, p, action, text)
            kinds.add(type(action))
            parts |= {name for name, pattern in PARTS.items() if re.search(pattern, text)}
        completing = [a for a, t in said.items() if ", completing " in t]
        choice = rng.choice(completing or legal) if rng.random() < 0.9 else legal[0]
        if players > 1 and rng.random() < 0.2:
            check_public(state, p, choice, rng)
        state.apply(p, choice)
    return parts, kinds


def check_words(state: SheetState, p: int, action: rulebook.Action, text: str) -> None:
    """A move's plain words: its verb first, capitalised; more than the bare move; told of
    another seat as a sentence; nothing addressed to "you" (it is told of others too)."""
    assert text.split(" ")[0] == VERBS[type(action)], text
    assert text != str(action) and text != state.explain(p, action)
    assert not re.search(r"\b(you|your)\b", text, re.IGNORECASE), text
    told = third_person(text)
    assert told.split(" ")[0] == VERBS[type(action)].lower() + (
        "es" if type(action) is Done else "s"
    )
    assert told.partition(" ")[2] == text.partition(" ")[2]  # only the verb changes
    assert "  " not in text and not text.endswith((",", " ", "."))


def check_public(state: SheetState, p: int, action: rulebook.Action, rng: random.Random) -> None:
    """What another seat learns of the move is the same whatever it cannot see (the deck and
    the face-down cards re-sampled), and is no more than the move's own words."""
    told = state.describe_public(p, action)
    assert told == state.describe(p, action)  # the sheets are public: nothing is withheld
    for q in range(state.num_players):
        if q != p:
            assert state.determinize(q, rng).describe_public(p, action) == told


CASES = [
    (MOM, 1, "solo", 1),
    (MOM, 2, "standard", 2),
    (MOM, 4, "standard", 3),
    (YOMS, 1, "solo", 4),
    (YOMS, 3, "standard", 5),
]


@pytest.mark.parametrize("game", [MOM, YOMS])
def test_every_move_of_every_variant_reads_as_plain_words(game: str) -> None:
    parts: set[str] = set()
    kinds: set[type] = set()
    for name, players, variant, seed in CASES:
        if name == game:
            met, types = _play(game, players, variant, seed)
            parts |= met
            kinds |= types
    assert parts == set(PARTS), set(PARTS) - parts
    assert kinds == ({Spend, Done, FreeMark} if game == MOM else {Spend, Done})


# -- the rulebooks' examples, word for word ----------------------------------------------------
def mom(players: int = 2) -> MerchantsState:
    return new_state(MerchantsState, MOM, players, 0)


def yoms(players: int = 2) -> ShoppeState:
    return new_state(ShoppeState, YOMS, players, 0)


def said(state: SheetState, move: str, p: int = 0) -> str:
    return state.describe(p, state.parse_action(p, move))


def test_greaves_with_two_potions() -> None:
    """POTIONS: a 5 on the d6 and 2 Potions mark the last Steel 7 circle of the Greaves,
    which gives its 4 Coins and 1 Potion."""
    state = mom()
    set_dice(state, d6=5)
    mark(state, 0, "greaves/leather")
    state.potions[0] = 3
    assert said(state, "d6 greaves/steel") == (
        "Use the d6 (5) and 2 Potions to mark Greaves in Steel (5 raised to 7), "
        "completing Greaves (4 Coins and 1 Potion)"
    )
    told = entry(state, 0, state.parse_action(0, "d6 greaves/steel"))
    assert told.plain_public == (
        "uses the d6 (5) and 2 Potions to mark Greaves in Steel (5 raised to 7), "
        "completing Greaves (4 Coins and 1 Potion)"
    )


def test_todd_claims_the_everlasting_pendant_of_the_elves() -> None:
    """ORDERS: the Pendant completed with the Everlasting and "of the Elves" rows claims the
    Order, 5 Coins."""
    state = mom()
    pendant = card_index(state, "Everlasting Pendant of the Elves")
    state.lines[0][1] = pendant
    complete(state, 0, "ring", "everlasting", "of-the-elves")
    set_dice(state, d8=6)
    assert said(state, "d8 pendant/wood") == (
        "Use the d8 (6) to mark Pendant in Wood, completing Pendant (1 Coin and 1 Potion) and "
        "claiming the Order Everlasting Pendant of the Elves (5 Coins)"
    )


def test_a_six_on_the_d10_and_research_results_lowered() -> None:
    """SPELL RESEARCH: a 6 on the d10 marks an Arcane circle it is at most; a higher result is
    lowered with Potions (each 1)."""
    state = mom()
    set_dice(state, d10=6, d12=12)
    state.potions[0] = 5
    assert said(state, "d10 shocking/arcane") == "Use the d10 (6) to mark Shocking in Arcane"
    assert said(state, "d12 everlasting/wild") == (
        "Use the d12 (12) and 3 Potions to mark Everlasting in Wild (12 lowered to 9)"
    )


def test_extra_dice_free_then_paid_and_the_end_of_the_phase() -> None:
    """EXTRA DICE: beyond 2 results a round, the first 3 slots are free and the next cost
    Potions; ending the phase leaves the other results unused."""
    state = mom()
    set_dice(state, d6=6, d8=3, d10=7, d12=3)
    state.potions[0] = 9
    state.apply(0, "d6 backpack/leather")
    state.apply(0, "d8 scroll/wood")
    assert said(state, "done") == (
        "Finish crafting and research for this round, leaving the d10 (7) and the d12 (3) unused"
    )
    assert said(state, "d12 fiery/wild") == (
        "Use the d12 (3) and 2 Potions to mark Fiery in Wild (3 lowered to 1; "
        "Extra Dice slot 1 of 6, free)"
    )
    state.extra_used[0] = 3
    assert said(state, "d12 fiery/wild") == (
        "Use the d12 (3) and 4 Potions to mark Fiery in Wild (3 lowered to 1 with 2 Potions; "
        "Extra Dice slot 4 of 6 for 2 Potions)"
    )


def test_sponsored_adventurer_orders_and_the_free_mark() -> None:
    """SPONSORED ADVENTURERS: the Ranger's Ring of the Elves, its 1st Order: 3 Potions; a
    free mark won later says so."""
    state = mom()
    ranger = next(a for a in state.content.adventurers if a.name == "The Ranger")
    state.adventurer[0] = ranger.index
    state.adventurer_masks[0] = ranger.masks
    state.adventurer_coins[0] = ranger.coins
    state.lines[0] = []
    state.shop_size = 0
    complete(state, 0, "of-the-elves")
    set_dice(state, d6=3)
    assert said(state, "d6 ring/leather") == (
        "Use the d6 (3) to mark Ring in Leather, completing Ring (2 Coins and 1 Potion) and "
        "fulfilling the Sponsored Adventurer's Ring of the Elves (3 Potions)"
    )
    state.free_marks[0] = 1
    assert said(state, "free backpack/leather") == (
        "Mark Backpack in Leather for free (a Sponsored Adventurer reward), "
        "completing Backpack (1 Coin and 1 Potion)"
    )


def test_ye_olde_sword_with_two_plus_two_bonus_modifiers() -> None:
    """Bonus Modifiers: with Spell Research Efficiency complete the plus modifiers are worth
    +2; two of them turn a d6 4 into 8 for the Sword's Steel 8 box."""
    state = yoms()
    complete(state, 0, "spell-research-efficiency")
    state.level[0] = [0, 1]
    state.bonus[0] = [0, 3]
    set_dice(state, d6=4)
    assert said(state, "d6 sword/steel") == (
        "Use the d6 (4) and 2 plus Bonus Modifiers to mark Sword in Steel (4 raised to 8, +2 each)"
    )


def test_ye_olde_customers_charms_and_extra_dice_boxes() -> None:
    """A Customer claimed when the Sword is complete; a Charm's rewards; the Extra Dice box a
    third result takes."""
    state = yoms()
    sword = card_index(state, "Vorpal Sword")
    state.lines[0][0] = sword
    complete(state, 0, "vorpal")
    mark(state, 0, "sword/wood", "sword/leather", "crafting-proficiency/wild")
    state.bonus[0] = [1, 2]
    set_dice(state, d6=6, d8=4, d10=9)
    assert said(state, "d6 sword/steel") == (
        "Use the d6 (6) and 2 plus Bonus Modifiers to mark Sword in Steel (6 raised to 8, +1 "
        "each), completing Sword (3 stars and a minus Bonus Modifier) and claiming the Customer "
        "Vorpal Sword (6 stars)"
    )
    state.apply(0, "d6 sword/steel")
    state.apply(0, "d10 bracers/leather")
    assert said(state, "d8 crafting-proficiency/elemental") == (
        "Use the d8 (4) to mark Crafting Proficiency in Elemental (Extra Dice box 1 of 5), "
        "completing Crafting Proficiency (1 star, a plus Bonus Modifier and the next minus Bonus "
        "Modifier Value)"
    )


# -- the board's texts (view.static), the same as the terminal's ``card NAME`` -------------------
@pytest.mark.parametrize(
    ("game", "players", "variant"),
    [(MOM, 1, "solo"), (MOM, 4, "standard"), (YOMS, 1, "solo"), (YOMS, 3, "standard")],
)
def test_the_board_explains_every_part_from_the_data_files(
    game: str, players: int, variant: str
) -> None:
    from rulebook.core.boardkit import board_static

    g = rulebook.get_game(game)
    setup = g.setup(players, 1, variant)
    static = board_static(g, setup)
    assert static is not None and g.cards is not None
    assert static["cards"] == g.cards(setup)  # the texts of ``card NAME``
    state = rulebook.new_game(game, players=players, seed=1, variant=variant)
    obs = state.observation(0)
    for seat in obs["seats"]:
        line = seat["orders" if game == MOM else "customers"] + seat["waiting"]
        assert all(c["name"] in static["cards"] for c in line if "name" in c)
        if game == MOM:
            assert seat["adventurer"]["name"] in static["cards"]
    assert all(m["name"] in static["cards"] for m in obs["masteries"])
    parts = [*static["dice"], *static["columns"], *static["rows"]]
    parts += [c for row in static["rows"] for c in row["circles"]]
    assert all(p["explain"] for p in parts)
    assert all(row["reward_explain"] for row in static["rows"])
    assert set(static["categories"]) == {row["category"] for row in static["rows"]}
    mine = {"deck", "score", "extra", "line", "face_down", "empty", "waiting"}
    own = {"potions", "free_marks"} if game == MOM else {"minus", "plus"}
    rating = {"rating"} if game == MOM and variant == "solo" else set()
    assert set(static["explain"]) == mine | own | rating
    assert all(static["explain"].values())


def test_authored_cards_and_rows_say_so() -> None:
    """Content the rulebooks lack is marked in its text, with why, in the project's words."""
    from rulebook.core.data import load
    from rulebook.merchants_of_magick.content import PACKAGE, AdventurersFile, OrdersFile
    from rulebook.ye_olde_magick_shoppe.content import PACKAGE as SHOPPE
    from rulebook.ye_olde_magick_shoppe.content import CustomersFile

    mom_cards = rulebook.get_game(MOM).cards
    yoms_cards = rulebook.get_game(YOMS).cards
    assert mom_cards is not None and yoms_cards is not None
    texts = {**mom_cards(rulebook.get_game(MOM).setup(2, 1))}
    for spec in load(OrdersFile, PACKAGE, "orders.toml").orders:
        marked = "Authored for this project" in texts[spec.name]
        assert marked == (spec.source == "authored"), spec.name
    assert texts["Everlasting Pendant of the Elves"].count("\n") == 0  # the rulebook's own
    for adv in load(AdventurersFile, PACKAGE, "adventurers.toml").adventurers:
        assert "From public sources, not the rulebook." in texts[adv.name]
        assert ("its Coins (the public card has" in texts[adv.name]) == ("coins" in adv.authored)
    assert "Authored for this project: its column" in texts["Master Blacksmith"]
    shoppe = yoms_cards(rulebook.get_game(YOMS).setup(2, 1))
    decks = load(CustomersFile, SHOPPE, "customers.toml")
    for spec in (*decks.customers, *decks.connoisseurs):
        assert "Authored for this project: its stars" in shoppe[spec.name]
    assert "Authored for this project" not in shoppe["Wild Energy Mastery"].split("\n")[0]


def test_a_row_is_named_by_its_category() -> None:
    """One rule names a row of each category in the tips of both sheet games."""
    assert [row_kind(c) for c in ("gear", "weapon", "plate-armor", "charm", "glyph")] == [
        "Gear",
        "Weapon",
        "Plate Armor",
        "Charm",
        "Glyph",
    ]
    assert row_kind("prefix") == "Prefix Enchantment"
    assert row_kind("suffix") == "Suffix Enchantment"


# -- circles or boxes ----------------------------------------------------------------------------
#: the sheet's places named as a noun: "circle(s)", but not the verb of the rulebooks ("circle the
#: next value", "circles its Bonus Modifier", "circled") nor Ye Olde's Customer Circle
PLACE_CIRCLE = re.compile(r"(?<!customer )\bcircles?\b(?!\s+(?:the|its|next)\b)", re.IGNORECASE)
PLACE_BOX = re.compile(r"\bbox(?:es)?\b", re.IGNORECASE)


def _texts(value: object) -> list[str]:
    """Every string inside ``value`` (dicts' values, lists' items)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    return []


def _shown(console_thing: object) -> str:
    from io import StringIO

    from rich.console import Console

    console = Console(file=StringIO(), width=100, record=True)
    console.print(console_thing)
    return console.export_text()


def _player_texts(game: str, players: int, variant: str) -> list[str]:
    """What a player of ``game`` reads: How to play, the board's printed parts and tips, the
    first-turn guide, the cards, the terminal's table, turn view and views, the words of every
    move over some rounds, and the refusal of a move typed wrong."""
    from rulebook.core.boardkit import board_static
    from rulebook.core.guide import load_guide
    from rulebook.core.rollwrite.web import sheet_tips

    g = rulebook.get_game(game)
    setup = g.setup(players, 3, variant)
    texts = [g.how_to_play() or ""]
    texts += _texts(board_static(g, setup))
    texts += _texts(dict(g.cards(setup))) if g.cards else []
    texts += [f"{step.title}. {step.text}" for step in load_guide(g)]
    tips = sheet_tips(f"{g.web_view}")
    texts += _texts(tips.categories) + _texts(tips.score)
    state = rulebook.new_game(game, players=players, seed=3, variant=variant)
    rng = random.Random(3)
    for _ in range(12):
        if state.is_terminal():
            break
        p = state.current_players()[0]
        assert g.render is not None and g.turn_view is not None
        texts += [_shown(g.render(state, p)), _shown(g.turn_view(state, p))]
        texts += [_shown(view.draw(state, p)) + view.about for view in g.views]
        legal = state.legal_actions(p)
        texts += [state.describe(p, a) for a in legal] + [state.explain(p, a) for a in legal]
        state.apply(p, rng.choice(legal))
    with pytest.raises(rulebook.IllegalAction) as refused:
        state.parse_action(state.current_players()[0], "no such move")
    return [*texts, str(refused.value)]


@pytest.mark.parametrize(("game", "variant", "players"), [(YOMS, "standard", 3), (YOMS, "solo", 1)])
def test_ye_olde_magick_shoppe_has_boxes(game: str, variant: str, players: int) -> None:
    """Ye Olde Magick Shoppe's sheet has boxes ("checkboxes"), not circles: no text a player
    reads calls a place of its sheet a circle (the rulebook's verb, "circle the next Bonus
    Modifier Value", and the Customer Circle stay)."""
    texts = _player_texts(game, players, variant)
    said = [
        t[max(m.start() - 60, 0) : m.end() + 20] for t in texts for m in PLACE_CIRCLE.finditer(t)
    ]
    assert not said, said[:5]


@pytest.mark.parametrize(("game", "variant", "players"), [(MOM, "standard", 3), (MOM, "solo", 1)])
def test_merchants_of_magick_has_circles(game: str, variant: str, players: int) -> None:
    """Merchants of Magick's sheet has circles, and its Extra Dice slots: no text a player reads
    speaks of a box (but the Mastery cards' note on the prototype's boxes they copy)."""
    texts = _player_texts(game, players, variant)
    prototype = re.compile(r"the prototype's \w+ certification asks \d+ boxes")
    said = [t for t in texts if PLACE_BOX.search(prototype.sub("", t))]
    assert not said, said[:5]
    assert any(PLACE_CIRCLE.search(t) for t in texts)  # the word is there to find


def test_the_shared_board_names_places_in_each_games_words() -> None:
    """The shared sheet view (``sheet.js``) writes no "circle" of its own for people to read:
    the word comes from each game's ``SheetWords`` (``static.words.circle``): circles for
    Merchants of Magick, boxes for Ye Olde Magick Shoppe. Its quoted texts may name the SVG
    element, CSS classes, data attributes and keys, never the place."""
    from pathlib import Path

    from rulebook.core.boardkit import board_static
    from rulebook.core.rollwrite import web

    source = (Path(web.__file__).parent / "sheet.js").read_text(encoding="utf-8")
    lines = [
        line for line in source.splitlines() if not line.lstrip().startswith(("//", "/*", "*"))
    ]
    code = re.sub(r"\$\{[^{}`]*\}", "${}", "\n".join(lines))  # what is written, not computed
    quoted = re.findall(r'"[^"\n]*"|`[^`\n]*`', code)
    allowed = re.compile(r'^"circle"$|rb-circle|data-circle|^`circle:\$')
    said = [q for q in quoted if re.search(r"\bcircles?\b", q) and not allowed.search(q)]
    assert not said, said
    for game, word in ((MOM, "circle"), (YOMS, "box")):
        g = rulebook.get_game(game)
        static = board_static(g, g.setup(2, 1))
        assert static is not None and static["words"]["circle"] == word
