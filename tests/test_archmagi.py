"""Archmagi rules tests: setup, the turn, the symbols, the Flow of Magic, the Round ends (the
end-of-round-mid-Draw and Search-limit clarifications), the end of the game, hidden information.

The rulebook has no worked example with numbers; its clarifications are the examples here.
"""

from __future__ import annotations

import pickle
import random
import re
from typing import cast

import pytest

import rulebook
from rulebook import IllegalAction
from rulebook.agents import make_agent
from rulebook.archmagi.content import ELEMENTS, KINDS, Effect, content
from rulebook.archmagi.moves import Move
from rulebook.archmagi.rules import ArchmagiState
from rulebook.archmagi.symbols import EFFECT_WORDS
from rulebook.core import Event, apply_heard


def card(name: str, nth: int = 0) -> int:
    """The ``nth`` physical card called ``name``."""
    ids = [i for i, s in enumerate(content().cards) if s.name == name]
    return ids[nth]


def cards(*names: str) -> list[int]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        out.append(card(n, seen.get(n, 0)))
        seen[n] = seen.get(n, 0) + 1
    return out


def table(players: int = 4, magi: tuple[str, ...] = ELEMENTS, seed: int = 1) -> ArchmagiState:
    """A new game whose seats play ``magi`` (in order); seat 0 is in its Play Phase."""
    s = rulebook.new_game("archmagi", players=players, seed=seed)
    assert isinstance(s, ArchmagiState)
    s.magi = list(magi[:players])
    s.magi_specs = [content().magi[ELEMENTS.index(e)] for e in s.magi]
    s.seat_of = {e: p for p, e in enumerate(s.magi)}
    s.plays = s.magi_of(0).plays
    s.crystals = [0] * players  # undo what the Magi dealt by the seed did at the start
    s.stack.clear()
    assert s.current_players() == (0,) and s.phase == "play" and not s.stack
    return s


def texts(s: ArchmagiState, p: int) -> list[str]:
    return [str(a) for a in s.legal_actions(p)]


# -- content and setup -----------------------------------------------------------------------
def test_cards_and_moves_pickle_as_their_fields() -> None:
    """Spells, Monsters, their symbols and the moves pickle field by field (``__reduce__``: the
    compiled frozen classes cannot be pickled otherwise), hashes made afresh."""
    c = content()
    piles = (c.cards, c.monsters, rulebook.new_game("archmagi", 4, 1).action_vocabulary())
    again = pickle.loads(pickle.dumps(piles))
    assert again == piles
    assert [hash(m) for m in again[2]] == [hash(m) for m in piles[2]]


def test_content_matches_the_contents_list() -> None:
    c = content()
    sets = [(s.element, s.set, s.round) for s in c.cards]
    assert sets.count(("common", "starting_common", 0)) == 12
    for r, want in zip((1, 2, 3, 4), (16, 12, 8, 4), strict=True):
        assert sets.count(("common", "round", r)) == want
    for e in ELEMENTS:
        assert sets.count((e, "book", 0)) == 20
        assert sets.count((e, "starting", 0)) == 3
    assert [sum(m.tier == t for m in c.monsters) for t in (1, 2, 3)] == [10, 10, 10]
    assert [m.element for m in c.magi] == list(ELEMENTS)
    starting = next(s for s in c.cards if s.set == "starting_common")
    assert [(e.kind, e.n) for e in starting.top] == [("look_draft", 4)]


#: a rough worth of each symbol, to compare Actions (a Search brings one Spell into Hand)
WORTH = {"gain": 1, "draw": 1, "plays": 1, "spend": -1, "discard": -1}


def worth(effects: tuple[Effect, ...]) -> int:
    total = 0
    for e in effects:
        if e.kind == "may":
            total += max(0, worth(e.then))
        elif e.kind == "search":
            total += 1
        else:
            total += WORTH.get(e.kind, 0) * e.n
    return total


def test_common_spells_are_weaker_than_elemental_spells() -> None:
    """COMMON SPELLS: "Common Spells are weaker than Elemental Spells": no Common Action is worth
    more than the best single Elemental Action, and every Common is worth less than the best
    Elemental Spell (its two Actions)."""
    c = content()
    elemental = [s for s in c.cards if not s.common]
    best_action = max(max(worth(s.top), worth(s.bottom)) for s in elemental)
    best_spell = max(worth(s.top) + worth(s.bottom) for s in elemental)
    for s in c.cards:
        if s.common:
            assert worth(s.top) <= best_action < best_spell, s.name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    s = rulebook.new_game("archmagi", players=players, seed=5)
    assert isinstance(s, ArchmagiState)
    c = content()
    assert len(set(s.magi)) == players
    round1 = sum(1 for x in c.cards if x.set == "round" and x.round == 1 and x.players <= players)
    assert round1 == {2: 8, 3: 12, 4: 16}[players]
    # the Magic Pool: Round 1 Commons + 3 Starting Spells per Magi, less seat 0's first Draw
    assert len(s.pool) == round1 + 3 * players - 1
    assert all(c.cards[x].set in ("round", "starting") for x in s.pool + s.hands[0][3:])
    for p in range(players):
        hand = s.hands[p][:3]
        assert [c.cards[x].set for x in hand] == ["starting_common"] * 3
        assert len(s.books[p]) == 20
        assert {c.cards[x].element for x in s.books[p]} == {s.magi[p]}
    assert len(s.hands[0]) == 4 and all(len(s.hands[p]) == 3 for p in range(1, players))
    assert s.paths == [[], [], []] and s.plays == s.magi_of(0).plays


def test_magi_rotate_with_the_seed() -> None:
    firsts = set()
    for k in range(40):
        s = rulebook.new_game("archmagi", players=4, seed=k)
        assert isinstance(s, ArchmagiState)
        firsts.add(s.magi[0])
    assert firsts == set(ELEMENTS)


def test_magi_can_be_chosen() -> None:
    s = rulebook.new_game(
        "archmagi", players=2, seed=1, options={"magi": "water,flora,fire,lightning"}
    )
    assert isinstance(s, ArchmagiState)
    assert s.magi == ["water", "flora"]
    assert {content().cards[x].element for x in s.books[1]} == {"flora"}
    # a shorter list names the first seats' Magi; the other seats are dealt from the rest
    s = rulebook.new_game("archmagi", players=2, seed=1, options={"magi": "fire,flora"})
    assert isinstance(s, ArchmagiState) and s.magi == ["fire", "flora"]
    for seed in range(6):
        s = rulebook.new_game("archmagi", players=4, seed=seed, options={"magi": "water"})
        assert isinstance(s, ArchmagiState) and s.magi[0] == "water"
        assert sorted(s.magi) == sorted(ELEMENTS)


EXPECTED_MAGI = (
    "expected comma-separated distinct Magi from fire, water, flora, lightning, or random; "
    "the first N are dealt to the seats"
)


@pytest.mark.parametrize(
    ("value", "wrong"),
    [
        ("water,water", "water named twice (one seat each)"),
        ("fire,ice", "no Magi called ice"),
        ("random,fire", "random stands alone (it deals every Magi)"),
        ("fire,,water", "an empty name between commas"),
        ("", "no Magi named"),
    ],
)
def test_a_bad_magi_option_says_what_is_expected_and_what_was_wrong(value: str, wrong: str) -> None:
    """Issue 17: one short line (not the 65 orderings), naming what is wrong."""
    with pytest.raises(rulebook.SetupError) as caught:
        rulebook.new_game("archmagi", players=2, options={"magi": value})
    message = str(caught.value)
    assert message == f"option magi={value}: {wrong}; {EXPECTED_MAGI}"


def test_the_magi_option_takes_any_case_and_is_saved_canonical() -> None:
    s = rulebook.new_game("archmagi", players=2, seed=1, options={"magi": "WATER, Fire"})
    assert isinstance(s, ArchmagiState) and s.magi == ["water", "fire"]
    assert s.setup.options["magi"] == "water,fire"
    assert rulebook.new_game("archmagi", 2, options={"magi": "Random"}).setup.options == {
        "magi": "random"
    }


def test_list_shows_the_magi_rule_not_a_count_of_choices() -> None:
    from typer.testing import CliRunner

    from rulebook.cli import app

    result = CliRunner().invoke(app, ["list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "option magi: comma-separated distinct Magi from fire, water, flora," in text
    assert "choices" not in text


# -- the Play Phase --------------------------------------------------------------------------
def test_plays_top_bottom_and_the_magi_abilities() -> None:
    s = table()  # fire, water, flora, lightning
    s.hands[0] = cards("Ember", "Tide Pool", "Crystal Shard")
    moves = texts(s, 0)
    assert {"top Ember", "bottom Ember", "both Ember", "top Tide Pool", "top Crystal Shard"} <= set(
        moves
    )
    assert "bottom Tide Pool" not in moves and "both Tide Pool" not in moves
    s.apply(0, "both Ember")  # Fire: Top (gain 1) followed by Bottom (gain 3)
    assert s.crystals[0] == 4 and s.plays == 1
    assert s.play_area == [card("Ember")]
    s.apply(0, "top Crystal Shard")
    assert s.crystals[0] == 6
    # no Plays left: Monster Phase (nothing to defeat in Round 1), Discard Phase, next turn
    assert s.turn == 1 and s.exhausted == [card("Crystal Shard")]
    assert card("Ember") in s.discard


def test_flora_plants_instead_of_bottom_actions_and_planted_spells_grow() -> None:
    s = table(magi=("flora", "fire", "water", "lightning"))
    s.hands[0] = cards("Sprout", "Ember")
    moves = texts(s, 0)
    assert "plant Sprout" in moves and "bottom Sprout" not in moves
    assert "plant Ember" not in moves
    s.apply(0, "plant Sprout")
    assert s.planted[0] == [card("Sprout")] and s.plays == 1
    s.apply(0, "end")
    for p in (1, 2, 3):
        while s.turn == p:
            s.apply(p, "end" if "end" in texts(s, p) else texts(s, p)[-1])
    # seat 0's next Play Phase starts with the Bottom Action of Sprout: gain 1
    assert s.turn == 0 and s.crystals[0] == 1


def test_lightning_has_2_plays_and_gains_a_crystal_at_its_turn_start() -> None:
    """The authored Lightning ability (data/magi.toml, round 7): its charge needs no decision."""
    s = table()  # fire, water, flora, lightning
    for p in (0, 1, 2):
        s.apply(p, "end")
    assert s.turn == 3 and s.crystals[3] == 1 and s.plays == 2
    assert len(s.hands[3]) == 3 + 1 and "end" in texts(s, 3)


def test_a_you_may_is_a_choice_to_use_or_skip() -> None:
    """CLARIFICATIONS' "you may": Harvest's Top (gain 1, then may Uproot 1 to gain 2); no Flora
    Magi at the table, so the Uprooted Sprout flows to no one."""
    s = table(2, ("fire", "water"))
    s.hands[0] = cards("Harvest")
    s.planted[0] = cards("Sprout")
    s.apply(0, "top Harvest")
    assert texts(s, 0) == ["use", "skip"] and s.crystals[0] == 1
    s.apply(0, "use")
    assert texts(s, 0) == ["uproot Sprout"]
    s.apply(0, "uproot Sprout")
    assert s.crystals[0] == 3 and not s.planted[0]


def test_spend_must_be_payable() -> None:
    s = table()
    s.hands[0] = cards("Inferno")  # top: spend 1, gain 3
    assert "top Inferno" not in texts(s, 0)
    with pytest.raises(IllegalAction):
        s.apply(0, "top Inferno")
    s.crystals[0] = 1
    s.apply(0, "top Inferno")
    assert s.crystals[0] == 3


def test_discard_is_mandatory_and_a_choice() -> None:
    s = table()
    s.hands[0] = cards("Flame Lash", "Glimmer", "Crystal Shard")
    s.apply(0, "bottom Flame Lash")  # discard 1, gain 3
    assert texts(s, 0) == ["discard Glimmer", "discard Crystal Shard"]
    s.apply(0, "discard Glimmer")
    assert s.exhausted == [card("Glimmer")] and s.crystals[0] == 3  # a Common is Exhausted


def test_you_may_is_optional() -> None:
    s = table(magi=("flora", "fire", "water", "lightning"))
    s.hands[0] = cards("Harvest")  # gain 1, you may (uproot 1, gain 2)
    s.planted[0] = cards("Sprout")
    s.apply(0, "top Harvest")
    assert texts(s, 0) == ["use", "skip"]
    assert s.explain(0, Move("use")) == "use (uproot 1, gain 2 crystal(s))"
    s.apply(0, "use")
    assert texts(s, 0) == ["uproot Sprout"]
    s.apply(0, "uproot Sprout")
    assert s.crystals[0] == 3 and s.planted[0] == [] and card("Sprout") in s.discard


def test_look_draft_and_reshuffle() -> None:
    s = table()
    s.hands[0] = cards("Call of the Element")
    top4 = s.books[0][-4:]
    s.apply(0, "top Call of the Element")
    names = {content().cards[x].name for x in top4}
    assert {m.card for m in s.legal_actions(0) if isinstance(m, Move)} == names
    pick = content().cards[top4[-1]].name
    s.apply(0, f"draft {pick}")
    assert len(s.books[0]) == 19 and content().cards[s.discard[-1]].name == pick


# -- Flow of Magic ---------------------------------------------------------------------------
def test_flow_of_magic_interrupts_for_the_element_magi() -> None:
    s = table()  # seat 1 is the Water Magi (takes without discarding): use Flora at seat 2
    s.hands[0] = cards("Cinder Trade", "Sprout")  # top: discard 1, gain 2
    s.hands[2] = cards("Glimmer")
    s.apply(0, "top Cinder Trade")
    s.apply(0, "discard Sprout")  # a Flora Spell discarded by another player
    assert s.current_players() == (2,)
    assert texts(s, 2) == ["take Sprout", "pass"]
    assert texts(s, 0) == []
    offer = s.explain(2, Move("take", "Sprout"))  # with the Spell's actions, to choose by
    assert offer.startswith("take Sprout (Flow of Magic: flora; top: ") and "bottom: " in offer
    s.apply(2, "take Sprout")
    assert texts(s, 2) == ["discard Glimmer"]
    assert "Flow of Magic" in s.explain(2, Move("discard", "Glimmer"))
    s.apply(2, "discard Glimmer")
    assert s.hands[2] == cards("Sprout") and card("Glimmer") in s.exhausted
    # play resumes: the rest of Cinder Trade (gain 2), then seat 0 goes on
    assert s.current_players() == (0,) and s.crystals[0] == 2


def test_flow_of_magic_pass_and_water_takes_freely() -> None:
    s = table()
    s.hands[0] = cards("Cinder Trade", "Tide Pool")
    s.apply(0, "top Cinder Trade")
    s.apply(0, "discard Tide Pool")
    assert s.current_players() == (1,)
    hand = list(s.hands[1])
    s.apply(1, "take Tide Pool")  # Water Magi (authored): no Spell to discard
    assert s.hands[1] == [*hand, card("Tide Pool")] and s.current_players() == (0,)
    # passing leaves the Spell in the discard pile
    s2 = table()
    s2.hands[0] = cards("Cinder Trade", "Sprout")
    s2.apply(0, "top Cinder Trade")
    s2.apply(0, "discard Sprout")
    s2.apply(2, "pass")
    assert s2.discard[-1] == card("Sprout") and s2.current_players() == (0,)


def test_flow_of_magic_back_and_forth_ends_when_the_other_element_runs_out() -> None:
    """FLOW OF MAGIC: the Spell discarded to take is itself discarded by another player, so it
    may Flow on; each step uses up a Spell of the other Magi's element from the payer's Hand,
    so the exchange ends (here after 5 takings)."""
    s = table(2, ("fire", "flora"))
    s.hands[0] = cards("Cinder Trade", "Sprout", "Thornvine", "Bloom")
    s.hands[1] = cards("Ember", "Blaze", "Glimmer")
    s.apply(0, "top Cinder Trade")
    s.apply(0, "discard Sprout")
    steps = [
        (1, "take Sprout", "discard Ember"),
        (0, "take Ember", "discard Thornvine"),
        (1, "take Thornvine", "discard Blaze"),
        (0, "take Blaze", "discard Bloom"),
    ]
    for seat, take, pay in steps:
        assert s.current_players() == (seat,) and take in texts(s, seat)
        s.apply(seat, take)
        s.apply(seat, pay)
    # the Flora Magi holds no Fire Spell any more: paying with a Common flows to no one
    assert s.current_players() == (1,) and texts(s, 1) == ["take Bloom", "pass"]
    s.apply(1, "take Bloom")
    assert sorted(texts(s, 1)) == ["discard Glimmer", "discard Sprout", "discard Thornvine"]
    s.apply(1, "discard Glimmer")
    assert s.current_players() == (0,) and not s.stack and s.crystals[0] == 2
    assert sorted(s.hands[0]) == sorted(cards("Ember", "Blaze"))
    assert sorted(s.hands[1]) == sorted(cards("Sprout", "Thornvine", "Bloom"))


def test_no_flow_for_own_element_or_an_empty_hand() -> None:
    s = table()
    s.hands[0] = cards("Cinder Trade", "Ember")
    s.apply(0, "top Cinder Trade")
    s.apply(0, "discard Ember")  # Fire's own Spell
    assert s.current_players() == (0,) and not s.stack
    s = table()
    s.hands[0] = cards("Cinder Trade", "Sprout")
    s.hands[2] = []
    s.apply(0, "top Cinder Trade")
    s.apply(0, "discard Sprout")  # the Flora Magi has nothing to discard for it
    assert s.current_players() == (0,)


# -- Rounds: the clarifications --------------------------------------------------------------
def test_round_ends_mid_draw_and_the_draw_resumes() -> None:
    """END OF ROUND: "If the Magic Pool is emptied by a Draw, even if that Draw is incomplete,
    pause the current player's turn, set up the next Round, then resume that player's Turn,
    continuing their Draw if needed."""
    s = table()
    s.hands[0] = cards("Windfall")  # draw 3
    last = card("Crystal Shard")
    s.pool = [last]
    s.discard = cards("Ember", "Sprout", "Spark")
    s.apply(0, "top Windfall")
    assert s.round == 2
    assert s.hands[0][0] == last and len(s.hands[0]) == 3  # 1 from Round 1, 2 from Round 2
    assert len(s.paths[0]) == 3 and all(content().monsters[m].tier == 1 for m in s.paths[0])
    round2 = sum(1 for x in content().cards if x.set == "round" and x.round == 2)
    assert len(s.pool) + 2 == 3 + round2 and s.discard == []
    assert s.current_players() == (0,) and s.plays == 1  # the turn goes on


def test_search_reveals_no_more_than_the_pool_and_does_not_end_the_round() -> None:
    """END OF ROUND: Search only reveals up to the Spells in the Pool, and does not end the
    Round unless only one Spell is left."""
    s = table()
    s.hands[0] = cards("Deep Scry")  # search 4
    s.pool = cards("Glimmer", "Crystal Shard", "Scrying Pool")
    s.apply(0, "top Deep Scry")
    assert texts(s, 0) == ["take Glimmer", "take Crystal Shard", "take Scrying Pool"]
    assert s.observation(0)["magic_pool"] == 3 and s.round == 1
    s.apply(0, "take Crystal Shard")
    assert texts(s, 0) == ["return Glimmer", "return Scrying Pool"]
    s.apply(0, "return Glimmer")  # the last one returned lies on top
    assert s.pool == cards("Glimmer", "Scrying Pool") and s.round == 1
    assert s.observation(1)["choice"] is None


def test_a_search_is_announced_without_naming_the_spells() -> None:
    """The terminal tells the other seats a bot's move by ``announce``: a Search's choices are
    Spells of the face-down Magic Pool and stay unnamed."""
    s = table()
    s.hands[0] = cards("Deep Scry")
    s.pool = cards("Glimmer", "Crystal Shard", "Scrying Pool", "Insight", "Geode")
    s.apply(0, "top Deep Scry")
    take = s.parse_action(0, "take Insight")
    assert s.announce(0, take) == "take a Spell (Search)" and s.explain(0, take).startswith(
        "take Insight (Search: common; "
    )
    s.apply(0, take)
    back = s.parse_action(0, "return Geode")
    assert "Geode" not in s.announce(0, back)
    s.apply(0, back)
    s.apply(0, "return Scrying Pool")
    draw = s.parse_action(0, "draw")
    assert s.stack == [] and s.announce(0, draw) == "draw"


def test_the_terminal_names_no_spell_a_bot_takes_by_search() -> None:
    from typer.testing import CliRunner

    from rulebook.cli import app

    for seed in range(20):  # a game in which a bot searches
        args = ["play", "archmagi", "-p", "2", "--seats", "greedy,greedy", "--seed", str(seed)]
        out = CliRunner().invoke(app, args).output
        if "take a Spell (Search)" in out:
            break
    assert "take a Spell (Search)" in out and "return a Spell to the top" in out
    assert not re.search(r"\): return [A-Z]", out)


def test_search_of_the_last_spell_ends_the_round() -> None:
    s = table()
    s.hands[0] = cards("Deep Scry")
    s.pool = cards("Glimmer")
    s.apply(0, "top Deep Scry")
    s.apply(0, "take Glimmer")
    assert s.round == 2 and card("Glimmer") in s.hands[0]


def test_drafts_as_draws_in_round_4_and_with_an_empty_book() -> None:
    s = table()
    s.round = 4
    s.hands[0] = cards("Firestorm")  # bottom: draft 2
    s.apply(0, "bottom Firestorm")
    assert texts(s, 0) == ["draft", "draw"]
    hand = len(s.hands[0])
    s.apply(0, "draw")
    s.apply(0, "draft")
    assert len(s.hands[0]) == hand + 1 and len(s.books[0]) == 19
    s = table()
    s.books[0] = []
    s.hands[0] = cards("Firestorm")
    s.apply(0, "bottom Firestorm")  # an empty Spell Book: the Drafts are Draws
    assert len(s.hands[0]) == 2 and s.current_players() == (0,)


def test_the_game_ends_after_the_turn_that_ends_round_4() -> None:
    s = table()
    s.round = 4
    s.hands[0] = cards("Windfall", "Crystal Shard")
    s.pool = cards("Glimmer")
    s.apply(0, "top Windfall")  # empties the last Magic Pool: this is the last turn
    assert s.final and not s.is_terminal() and s.current_players() == (0,)
    assert "draw" not in texts(s, 0)
    s.apply(0, "top Crystal Shard")
    assert s.is_terminal() and s.winners() == [0, 1, 2, 3]


# -- Monster and Discard Phases --------------------------------------------------------------
def test_defeat_a_monster_pays_rewards_and_refills() -> None:
    s = table()
    c = content()
    tier1 = [i for i, m in enumerate(c.monsters) if m.tier == 1]
    s.paths[0] = [tier1[0], tier1[1], tier1[2]]
    s.monster_decks[0] = [tier1[3]]
    goblin = c.monsters[tier1[0]]
    s.crystals[0] = goblin.crystals
    s.hands[0] = cards("Glimmer", "Crystal Shard")
    s.apply(0, "end")
    assert f"defeat {goblin.name}" in texts(s, 0) and "pass" in texts(s, 0)
    s.apply(0, f"defeat {goblin.name}")
    while s.current_players() == (0,) and s.stack:
        s.apply(0, texts(s, 0)[0])
    assert s.trophies[0] == [tier1[0]] and s.favor(0) == goblin.favor
    assert s.paths[0] == [tier1[3], tier1[1], tier1[2]] and s.monster_decks[0] == []
    assert s.scores()[0] == goblin.favor and s.score_breakdown(0) == {"favor": goblin.favor}


def test_an_empty_monster_deck_leaves_the_spot_empty_and_one_monster_per_turn() -> None:
    """MONSTERS: "If there are no more Monsters in that Tier of Monster Deck, then do not
    Refill the empty spot"; MONSTER PHASE: at most 1 Monster per turn."""
    s = table()
    c = content()
    tier1 = [i for i, m in enumerate(c.monsters) if m.tier == 1 and not m.spells]
    s.paths[0] = tier1[:3]
    s.monster_decks[0] = []
    s.crystals[0] = 40
    s.apply(0, "end")
    s.apply(0, f"defeat {c.monsters[tier1[1]].name}")
    while s.current_players() == (0,) and s.stack:
        s.apply(0, texts(s, 0)[0])
    assert s.paths[0] == [tier1[0], tier1[2]] and s.turn == 1 and s.trophies[0] == [tier1[1]]


def test_hand_limit_of_ten() -> None:
    s = table()
    s.hands[0] = cards(
        *["Glimmer"] * 4, *["Crystal Shard"] * 4, "Ember", "Sprout", "Spark", "Tide Pool"
    )
    s.apply(0, "end")
    assert texts(s, 0) == [
        "discard Glimmer",
        "discard Crystal Shard",
        "discard Ember",
        "discard Sprout",
        "discard Spark",
        "discard Tide Pool",
    ]
    s.apply(0, "discard Glimmer")
    s.apply(0, "discard Ember")
    assert len(s.hands[0]) == 10 and s.turn == 1


# -- hidden information ----------------------------------------------------------------------
def test_observation_hides_other_hands_books_and_the_pool_order() -> None:
    s = table()
    t = s.clone()
    # swap a Spell of seat 1's Hand with one of the Magic Pool: only seat 1 can tell
    t.hands[1][0], t.pool[0] = t.pool[0], t.hands[1][0]
    t.pool.reverse()
    t.books[2].reverse()
    assert s.observation(0) == t.observation(0)
    assert s.observation(1) != t.observation(1)
    text = str(s.observation(0))
    assert str(s.setup.seed) not in text or s.setup.seed < 10


def test_determinize_keeps_the_view_and_plays_on() -> None:
    s = rulebook.new_game("archmagi", players=3, seed=11)
    rng = random.Random(3)
    for _ in range(40):
        p = s.current_players()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    for p in range(3):
        d = s.determinize(p, random.Random(p))
        assert d.observation(p) == s.observation(p)


def test_the_view_shows_the_hand_with_elements_and_actions() -> None:
    from rich.console import Console

    s = table()
    s.hands[0] = cards("Ember", "Glimmer", "Glimmer")
    s.discard = cards("Sprout")
    console = Console(width=120, record=True)
    console.print(rulebook.archmagi.render.render(s, 0))
    lines = console.export_text().splitlines()
    ember = next(line for line in lines if "Ember" in line)
    assert "fire" in ember and "gain 1 crystal(s)" in ember and "gain 3 crystal(s)" in ember
    glimmer = next(line for line in lines if "Glimmer x2" in line)
    assert "common" in glimmer and "draw 1" in glimmer
    assert any("Discard pile: 1 spells (top: Sprout)" in line for line in lines)
    assert any("You are the Fire Magi: When you Play a Fire Spell" in line for line in lines)


def test_determinize_resamples_the_spells_another_seat_searches() -> None:
    s = table()
    s.hands[0] = cards("Deep Scry")
    s.apply(0, "top Deep Scry")
    seen = s.looking.copy()
    other = [s.determinize(1, random.Random(k)) for k in range(8)]
    assert all(d.observation(1) == s.observation(1) for d in other)
    assert any(sorted(d.looking) != sorted(seen) for d in other)
    own = s.determinize(0, random.Random(1))
    assert own.looking == seen and own.observation(0) == s.observation(0)


def test_greedy_beats_random() -> None:
    from rulebook.simulate import run

    results = run("archmagi", 2, ["greedy", "random"], games=20, seed=100)
    greedy = sum(1 for r in results if r.winners == [0])
    assert greedy >= 15


# -- moves in plain words (issue 23) -----------------------------------------------------------
#: the verbs a move in plain words begins with, as told to the seat making it and of it
PLAIN_VERBS = {
    "Choose": "chooses",
    "Decline": "declines",
    "Defeat": "defeats",
    "Discard": "discards",
    "Draft": "drafts",
    "Draw": "draws",
    "End": "ends",
    "Plant": "plants",
    "Play": "plays",
    "Put": "puts",
    "Take": "takes",
    "Uproot": "uproots",
}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower()))


def _check_plain(s: ArchmagiState, p: int, action: Move, rng: random.Random) -> set[str]:
    """One legal move's plain words: a capitalised verb first, more than the bare move, "you"
    for the mover and "they" for the others, nothing hidden told to the others (the same
    words from every other seat's view re-sampled), read as a sentence after a seat's name.
    Returns the verbs of the Search's hidden moves met."""
    from rulebook.core.words import third_person

    own, public = s.describe(p, action), s.describe_public(p, action)
    verb, told = own.split(" ")[0], third_person(public)
    assert verb in PLAIN_VERBS, own
    assert public.split(" ")[0] == verb and told.split(" ")[0] == PLAIN_VERBS[verb], public
    assert own != str(action) and own != s.explain(p, action)
    assert not _words(own) & {"their", "they"}, own
    assert not _words(public) & {"you", "your"}, public
    assert told == PLAIN_VERBS[verb] + public[len(verb) :]
    if verb not in ("Choose", "Decline"):  # "chooses to X, then Y": one verb told of the seat
        # a Spell's Action named in brackets ("its Bottom Action (draft 1 ..., then gain 1
        # Crystal)") is not the seat's verb
        assert ", then " not in re.sub(r"\([^)]*\)", "", public.split(":")[0]), (
            f"a second verb not told of the seat: {public}"
        )
    hidden = bool(s.stack) and s.stack[-1][0] in ("search", "return")
    if hidden:
        assert action.card in own and action.card not in public
    if hidden or rng.random() < 0.05:
        for q in range(s.num_players):
            if q != p:
                assert s.determinize(q, rng).describe_public(p, action) == public
    return {str(action).split(" ")[0]} if hidden else set()


def test_every_move_met_in_seeded_games_reads_in_plain_words() -> None:
    """Random and greedy games at 2, 3 and 4 players: every legal move at every step."""
    from rulebook.agents import make_agent

    kinds: set[str] = set()
    hidden: set[str] = set()
    # 2 players, seed 8: a "you may" (Harvest's Top with a Spell Planted) comes up
    configs = ((2, "random", 1), (3, "greedy", 2), (4, "random", 3), (2, "random", 8))
    for players, agent, seed in configs:
        s = rulebook.new_game("archmagi", players=players, seed=seed)
        assert isinstance(s, ArchmagiState)
        agents = [make_agent(agent, p) for p in range(players)]
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.current_players()[0]
            step = s.stack[-1][0] if s.stack else s.phase
            for action in s.legal_actions(p):
                assert isinstance(action, Move)
                hidden |= _check_plain(s, p, action, rng)
                kinds.add(f"{step} {action.verb}")
            s.apply(p, agents[p].act(s, p))
    assert hidden == {"take", "return"}
    assert {"play top", "play bottom", "play draw", "play end", "monster defeat"} <= kinds
    assert {"flow take", "flow pass", "pay discard", "may use", "look draft"} <= kinds


def test_plays_in_plain_words_say_what_they_do_and_cost() -> None:
    s = table()  # fire, water, flora, lightning
    s.hands[0] = cards("Glimmer", "Blaze", "Inferno")
    s.crystals[0] = 1

    def said(text: str, p: int = 0) -> str:
        return s.describe(p, s.parse_action(p, text))

    assert said("top Glimmer") == (
        "Play the Top Action of Glimmer (a Common Spell, Exhausted after use): gain 1 Crystal, "
        "then draw 1 Spell from the Magic Pool; uses 1 of your 2 Plays"
    )
    assert said("both Blaze") == (
        "Play both Actions of Blaze, Top then Bottom (a Fire Spell): gain 1 Crystal, then draft "
        "1 Spell from your Spell Book onto the discard pile, then gain 3 Crystals; uses 1 of "
        "your 2 Plays"
    )
    assert said("top Inferno") == (
        "Play the Top Action of Inferno (a Fire Spell): spend 1 Crystal, then gain 3 Crystals; "
        "uses 1 of your 2 Plays"
    )
    assert (
        said("draw")
        == "Draw the top Spell of the Magic Pool into your Hand; uses 1 of your 2 Plays"
    )
    assert said("end") == "End the Play Phase, losing 2 unused Plays"
    s.apply(0, "top Glimmer")
    draw = s.parse_action(0, "draw")
    assert s.describe(0, draw).endswith("; uses your last Play")
    assert s.describe_public(0, draw) == (
        "Draw the top Spell of the Magic Pool into their Hand; uses their last Play"
    )

    flora = table(magi=("flora", "fire", "water", "lightning"))
    flora.hands[0] = cards("Sprout")
    assert flora.describe(0, flora.parse_action(0, "plant Sprout")) == (
        "Plant Sprout from your Hand in your Planted area; its Bottom Action (gain 1 Crystal) "
        "then happens at the start of each of your Play Phases; uses 1 of your 2 Plays"
    )


def test_monsters_in_plain_words_say_their_cost_favor_and_reward() -> None:
    s = table()
    c = content()
    basilisk = next(i for i, m in enumerate(c.monsters) if m.name == "Basilisk")
    s.paths[1] = [basilisk]
    s.crystals[0] = 8
    s.apply(0, "end")
    defeat = s.parse_action(0, "defeat Basilisk")
    assert s.describe(0, defeat) == (
        "Defeat the Basilisk (Tier 2) for 8 Crystals and 1 Spell discarded from your Hand, "
        "worth 4 Favor Points; Reward: gain 3 Crystals"
    )
    assert s.describe(0, Move("pass")) == "Defeat no Monster this turn"


def played(hand: tuple[str, ...], *moves: str) -> ArchmagiState:
    """A new table (fire, water, flora, lightning) whose seat 0 holds ``hand`` and made
    ``moves``."""
    s = table()
    s.hands[0] = cards(*hand)
    for move in moves:
        s.apply(0, move)
    return s


def test_the_flow_of_magic_in_plain_words() -> None:
    from rulebook.core.words import third_person

    s = played(("Cinder Trade", "Sprout", "Tide Pool"), "top Cinder Trade")
    s.hands[2] = cards("Glimmer")  # the Flora Magi pays with a Spell; the Water Magi does not
    assert s.describe(0, Move("discard", "Sprout")) == (
        "Discard Sprout from your Hand to the discard pile (the Flora Magi may take it by the "
        "Flow of Magic)"
    )
    s.apply(0, "discard Sprout")
    leave = Move("pass")
    assert s.describe(2, leave) == (
        "Decline to answer the Flow of Magic, leaving Sprout in the discard pile"
    )
    assert third_person(s.describe_public(2, leave)) == (
        "declines to answer the Flow of Magic, leaving Sprout in the discard pile"
    )
    assert s.describe(2, s.parse_action(2, "take Sprout")) == (
        "Take Sprout from the discard pile into your Hand by the Flow of Magic, paid with a "
        "Spell discarded from your Hand next"
    )
    s.apply(2, "take Sprout")
    assert s.describe(2, Move("discard", "Glimmer")) == (
        "Discard Glimmer from your Hand to the Exhausted pile, to take Sprout by the Flow of Magic"
    )
    water = played(("Cinder Trade", "Tide Pool"), "top Cinder Trade", "discard Tide Pool")
    assert water.describe(1, Move("take", "Tide Pool")) == (
        "Take Tide Pool from the discard pile into your Hand by the Flow of Magic, free for the "
        "Water Magi"
    )


def test_a_search_in_plain_words_names_its_spells_to_the_searcher_only() -> None:
    from rulebook.core.words import third_person

    s = played(("Deep Scry",))
    s.pool = cards("Glimmer", "Crystal Shard", "Scrying Pool", "Insight", "Geode")
    s.apply(0, "top Deep Scry")
    take = Move("take", "Insight")
    assert s.describe(0, take) == "Take Insight into your Hand from the Spells looked at (Search)"
    assert third_person(s.describe_public(0, take)) == (
        "takes one of the Spells they looked at into their Hand (Search)"
    )
    s.apply(0, take)
    back = Move("return", "Geode")
    assert s.describe(0, back) == (
        "Put Geode back on top of the Magic Pool (Search): the Spells put back after it lie "
        "above it"
    )
    assert third_person(s.describe_public(0, back)) == (
        "puts one of the Spells they looked at back on top of the Magic Pool (Search)"
    )


def test_other_decisions_in_plain_words() -> None:
    from rulebook.core.words import third_person

    s = table()  # "you may": Harvest's Top, with a Spell Planted
    s.hands[0] = cards("Harvest")
    s.planted[0] = cards("Sprout")
    s.apply(0, "top Harvest")
    use = "Choose to uproot 1 Planted Spell, then gain 2 Crystals"
    assert s.describe(0, Move("use")) == use
    assert third_person(s.describe_public(0, Move("skip"))) == (
        "declines to uproot 1 Planted Spell, then gain 2 Crystals"
    )
    # the hand limit of the Discard Phase (game.toml: 10)
    limit = played((*["Glimmer"] * 4, *["Crystal Shard"] * 4, "Ember", "Sprout", "Spark"), "end")
    assert limit.describe(0, Move("discard", "Ember")) == (
        "Discard Ember from your Hand to the discard pile, to get down to the hand limit of 10 "
        "(11 in Hand)"
    )
    # Look and Draft (Call of the Element: the top 4 of the Spell Book)
    look = played(("Call of the Element",), "top Call of the Element")
    pick = cast(Move, look.legal_actions(0)[0])
    assert look.describe(0, pick) == (
        f"Draft {pick.card} from the top 4 Spells of your Spell Book onto the discard pile of "
        "the Magic Pool; the Spell Book is shuffled afterwards"
    )
    # every symbol has its words
    assert set(EFFECT_WORDS) == set(KINDS) - {"may"}


# -- the table says aloud what the rules do on their own (rulebook.archmagi.aloud) ------------
def heard(s: ArchmagiState, seat: int, move: str) -> tuple[Event, ...]:
    """The events ``seat``'s ``move`` sets off (:func:`apply_heard`)."""
    return apply_heard(s, seat, s.parse_action(seat, move))


def told(events: tuple[Event, ...], viewer: int | None) -> list[str]:
    """What ``viewer`` (None: a spectator) reads of ``events``, as the log's lines read: "You"
    before its own seat's events, the seat's name before another's."""
    lines = []
    for e in events:
        said = e.told_to(viewer)
        if said is None:
            continue
        if e.seat is None:
            lines.append(said)
        else:
            lines.append(f"{'You' if e.seat == viewer else f'Seat {e.seat + 1}'} {said}")
    return lines


def test_the_draw_phase_names_the_spell_drawn_to_its_seat_only() -> None:
    s = table()  # fire, water, flora, lightning
    s.hands[0] = cards("Ember", "Crystal Shard")
    s.pool = cards("Glimmer", "Geode", "Crystal Cluster")
    s.apply(0, "top Ember")
    events = heard(s, 0, "top Crystal Shard")  # the last Play: the turn ends
    assert told(events, 1) == [
        "Seat 1 discards the Spells of the Play Area (Discard Phase): Ember to the discard "
        "pile, Crystal Shard to the Exhausted pile",
        "You draw Crystal Cluster from the Magic Pool (Draw Phase)",
    ]
    public = "Seat 2 draws 1 Spell from the Magic Pool (Draw Phase)"
    assert told(events, 0)[1] == told(events, 2)[1] == told(events, None)[1] == public
    assert told(events, 0)[0] == "You discard the Spells of the Play Area (Discard Phase): " + (
        "Ember to the discard pile, Crystal Shard to the Exhausted pile"
    )
    # a Draw of a move's own: its line told the others; the seat alone learns which Spell
    events = heard(s, 1, "draw")
    assert told(events, 1) == ["You draw Geode"]
    assert told(events, 0) == told(events, None) == []


def test_a_round_end_tells_the_new_monsters_and_the_new_magic_pool() -> None:
    """END OF ROUND 1 in the middle of a Draw: the Spell drawn before, the Round's end, the
    Tier 1 Monsters, the new Magic Pool, the Spells drawn after."""
    s = table()
    s.hands[0] = cards("Windfall")  # draw 3
    s.pool = cards("Crystal Shard")
    s.discard = cards("Ember", "Sprout", "Spark")
    s.monster_decks[0] = [6, 0, 1, 2]  # Wild Boar, Goblin Sneak, Cave Bat Swarm, Mud Slime
    events = heard(s, 0, "top Windfall")
    table_lines = [
        "The Magic Pool has run out: Round 1 is over.",
        "Tier 1 Monsters come onto their Path: the Mud Slime (4 Crystals, 2 Favor Points), "
        "the Cave Bat Swarm (3 Crystals, 1 Favor Point) and the Goblin Sneak (3 Crystals, "
        "1 Favor Point).",
        "Round 2 begins: the 3 Spells of the discard pile and the 12 Round 2 Common Spells are "
        "shuffled into a new Magic Pool of 15 Spells.",
    ]
    assert told(events, 1) == told(events, None) == table_lines
    after = " and ".join(content().cards[c].name for c in s.hands[0][1:])
    assert told(events, 0) == ["You draw Crystal Shard", *table_lines, f"You draw {after}"]


def test_round_3_ends_with_drafts_as_draws_and_the_exhausted_pile_stays_out() -> None:
    s = table(players=2, magi=("fire", "water"))
    s.round = 3
    s.hands[0] = cards("Glimmer")
    s.pool = cards("Geode")
    s.exhausted = cards("Crystal Shard", "Tithe")
    s.monster_decks[2] = [20, 21, 22, 26]  # Red Dragon, Lich, Kraken, Demon Lord
    events = heard(s, 0, "top Glimmer")
    assert told(events, None) == [
        "The Magic Pool has run out: Round 3 is over.",
        "Tier 3 Monsters come onto their Path: the Demon Lord (14 Crystals and 2 Spells, "
        "8 Favor Points), the Kraken (10 Crystals and 2 Spells, 6 Favor Points) and the Lich "
        "(11 Crystals and 2 Spells, 6 Favor Points).",
        "Round 4 begins: the 2 Round 4 Common Spells are shuffled into a new Magic Pool of "
        "2 Spells; the 2 Exhausted Spells stay out. From now on, any Draft may be a Draw "
        "instead.",
    ]
    assert s.paths[2] == [26, 22, 21] and s.monster_decks[2] == [20]


def test_the_last_round_and_the_game_end_tell_each_seats_favor_and_the_winners() -> None:
    s = table()
    s.round = 4
    s.hands[0] = cards("Windfall", "Glimmer")
    s.pool = cards("Geode")
    s.trophies = [[2], [10, 0], [12], []]  # Mud Slime; Troll, Goblin Sneak; Ogre; none
    events = heard(s, 0, "top Windfall")
    assert told(events, 1) == [
        "The Magic Pool has run out: Round 4, the last Round, is over.",
        "Seat 1 finishes this turn, the last of the game",
    ]
    assert told(events, 0) == [
        "You draw Geode",
        "The Magic Pool has run out: Round 4, the last Round, is over.",
        "You finish this turn, the last of the game",
    ]
    events = heard(s, 0, "top Glimmer")  # gain 1, draw 1: nothing left to draw
    assert s.is_terminal()
    assert told(events, 2) == [
        "Seat 1 draws nothing: the Magic Pool is empty (the last Round is over)",
        "Seat 1 discards the Spells of the Play Area (Discard Phase): Windfall and Glimmer to "
        "the Exhausted pile",
        "The last turn is over: the game ends. Favor Points decide.",
        "Seat 1 scores 2 Favor Points for 1 Monster defeated (Mud Slime 2)",
        "Seat 2 scores 4 Favor Points for 2 Monsters defeated (Troll 3, Goblin Sneak 1)",
        "You score 4 Favor Points for 1 Monster defeated (Ogre 4)",
        "Seat 4 scores no Favor Points: no Monster defeated",
        "Seat 2 shares the victory with 4 Favor Points, tied for the most",
        "You share the victory with 4 Favor Points, tied for the most",
    ]
    assert s.winners() == [1, 2]
    s = table(players=2, magi=("fire", "water"))
    s.round, s.final = 4, True
    s.trophies = [[12], []]
    assert told(heard(s, 0, "end"), 1)[-1] == "Seat 1 wins the game with 4 Favor Points, the most"


def test_planted_spells_and_the_lightning_charge_are_told_as_the_play_phase_begins() -> None:
    s = table()  # fire, water, flora, lightning
    s.planted[2] = cards("Sprout", "Seedling")
    s.books[2] = cards("Bloom", "Harvest")
    top = "Harvest"
    s.apply(0, "end")
    events = heard(s, 1, "end")
    lines = told(events, 0)
    assert lines[1:] == [
        "Seat 3 starts the Play Phase with the Bottom Actions of the Planted Flora Spells: "
        "Sprout (gain 1 Crystal), then Seedling (draft 1 Spell from their Spell Book onto the "
        "discard pile, then gain 1 Crystal)",
        f"Seat 3 drafts {top} from their Spell Book onto the discard pile of the Magic Pool",
    ]
    assert told(events, 2)[1:] == [
        "You start the Play Phase with the Bottom Actions of the Planted Flora Spells: "
        "Sprout (gain 1 Crystal), then Seedling (draft 1 Spell from your Spell Book onto the "
        "discard pile, then gain 1 Crystal)",
        f"You draft {top} from your Spell Book onto the discard pile of the Magic Pool",
    ]
    assert s.crystals[2] == 2 and s.discard[-1] == card(top)
    events = heard(s, 2, "end")
    assert told(events, None)[-1] == (
        "Seat 4 starts the Play Phase with the Lightning Magi's ability: gain 1 Crystal"
    )


def test_a_monster_path_refilled_or_left_empty() -> None:
    s = table()
    s.paths[0] = [0, 1, 2]
    s.monster_decks[0] = [3, 4]  # the Giant Rat comes next, then the Kobold Thief
    s.crystals[0] = 3
    s.apply(0, "end")
    assert told(heard(s, 0, "defeat Goblin Sneak"), None) == [
        "In its place, the Giant Rat (4 Crystals, 1 Favor Point) comes onto the Tier 1 Path "
        "from its Monster Deck (1 Monster left there).",
        "Seat 2 draws 1 Spell from the Magic Pool (Draw Phase)",
    ]
    assert s.paths[0] == [4, 1, 2]
    s = table()
    s.paths[0] = [0, 1, 2]
    s.monster_decks[0] = []
    s.crystals[0] = 3
    s.apply(0, "end")
    assert told(heard(s, 0, "defeat Cave Bat Swarm"), 1)[0] == (
        "The Tier 1 Monster Deck is empty: the spot on its Path stays empty."
    )


def test_drafts_name_the_spell_and_an_empty_spell_book_draws_instead() -> None:
    s = table()
    s.hands[0] = cards("Firestorm")  # bottom: draft 2
    first, second = (content().cards[c].name for c in s.books[0][-1:-3:-1])
    events = heard(s, 0, "bottom Firestorm")
    assert told(events, 1) == [
        f"Seat 1 drafts {first} from their Spell Book onto the discard pile of the Magic Pool",
        f"Seat 1 drafts {second} from their Spell Book onto the discard pile of the Magic Pool",
    ]
    s = table()
    s.books[0] = []
    s.hands[0] = cards("Firestorm")
    s.pool = cards("Glimmer", "Geode", "Crystal Cluster")
    events = heard(s, 0, "bottom Firestorm")
    instead = "from the Magic Pool instead of drafting"
    assert told(events, 1) == [f"Seat 1 draws 1 Spell {instead}: their Spell Book is empty"] * 2
    assert told(events, 0) == [
        f"You draw Crystal Cluster {instead}: your Spell Book is empty",
        f"You draw Geode {instead}: your Spell Book is empty",
    ]


def test_a_crystal_gain_cut_short_by_the_main_pile_is_told() -> None:
    s = table()
    s.hands[0] = cards("Crystal Shard", "Crystal Shard")  # gain 2
    s.crystals = [0, 79, 0, 0]
    assert told(heard(s, 0, "top Crystal Shard"), 1) == [
        "Seat 1 gains only 1 of 2 Crystals: the main pile of 80 has no more"
    ]
    assert told(heard(s, 0, "top Crystal Shard"), 0)[0] == (
        "You gain no Crystal instead of 2: all 80 Crystals of the main pile are taken"
    )


@pytest.mark.parametrize(
    ("players", "magi"), [(2, "fire"), (3, "water"), (4, "flora"), (2, "lightning")]
)
def test_a_whole_game_tells_every_round_end_and_the_scores(players: int, magi: str) -> None:
    """Random bots, every Magi in the first seat: each Round's end is told once, three Tiers of
    Monsters come out, the scores told at the end are the game's, and the game is the one
    played with nobody listening."""
    s = rulebook.new_game("archmagi", players, seed=7, options={"magi": magi})
    quiet = s.clone()
    bots = [make_agent("random", p) for p in range(players)]
    lines: list[str] = []
    while not s.is_terminal():
        p = s.current_players()[0]
        move = bots[p].act(s, p)
        quiet.apply(p, move)
        lines += told(apply_heard(s, p, move), None)
    assert quiet.snapshot() == s.snapshot()  # listening changes nothing
    for r in (1, 2, 3):
        assert lines.count(f"The Magic Pool has run out: Round {r} is over.") == 1
        assert (
            sum(line.startswith(f"Tier {r} Monsters come onto their Path") for line in lines) == 1
        )
    assert lines.count("The Magic Pool has run out: Round 4, the last Round, is over.") == 1
    scored = [int(m[1]) for line in lines if (m := re.search(r"scores (\d+) Favor", line))]
    scored += [0] * sum("scores no Favor Points" in line for line in lines)
    assert sorted(scored) == sorted(s.scores())
    # others learn how many Spells a seat draws, never which
    assert not any(re.search(r"draws (?!\d|nothing)", line) for line in lines)
