"""Properties every registered game must have, at every variant and player count it allows.

The cases come from the registry (``rulebook.games()`` and each game's variants), so a game
registered later is checked with no change here; the checks themselves live in
``tests/properties.py``. Seeds and move choices are drawn by Hypothesis; the number of examples
comes from the Hypothesis profile (see ``tests/conftest.py``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import properties as props
import rulebook

CASES = props.cases()

for_every_case = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])


def _playout(
    data: st.DataObject, case: props.Case, snapshots: bool = False, check: bool = False
) -> tuple[props.Playout, random.Random]:
    """A random game of ``case`` from Hypothesis-drawn seeds, and the generator that chose it
    (left for the test to go on choosing with)."""
    setup = data.draw(props.setups(case), label="setup")
    rng = random.Random(data.draw(props.MOVE_SEEDS, label="move seed"))
    return props.record_playout(setup, rng, snapshots=snapshots, check=check), rng


def _midgame(data: st.DataObject, playout: props.Playout, label: str = "step") -> int:
    """A step of the playout drawn by Hypothesis (shrinks towards the first move)."""
    return data.draw(st.integers(0, len(playout.states) - 1), label=label)


def test_every_game_is_covered() -> None:
    assert {c.game for c in CASES} == set(rulebook.games())
    assert len({c.id for c in CASES}) == len(CASES)


# -- playing to the end ------------------------------------------------------------------------
@for_every_case
@given(data=st.data())
def test_random_games_end_consistently(case: props.Case, data: st.DataObject) -> None:
    """Random legal moves never raise, the game ends within the move bound, and the end is
    consistent: scores, winners, breakdowns, returns (and the game's own end condition)."""
    setup = data.draw(props.setups(case), label="setup")
    rng = random.Random(data.draw(props.MOVE_SEEDS, label="move seed"))
    state = props.new_state(setup)
    props.play_random(state, rng, check=True)
    props.check_final(state)


# -- save files and replays --------------------------------------------------------------------
@for_every_case
@given(data=st.data())
def test_replay_rebuilds_every_step(case: props.Case, data: st.DataObject) -> None:
    """replay_steps passes through every state of the game; replay(log()) and
    from_json(to_json()) rebuild the game exactly at random steps and at the end."""
    playout, rng = _playout(data, case, snapshots=True)
    props.check_replay_steps(playout)
    for state in [*props.some(playout.states[:-1], 3, rng), playout.final]:
        props.check_replays(state)


@for_every_case
@given(data=st.data())
def test_same_seed_and_moves_give_the_same_game(case: props.Case, data: st.DataObject) -> None:
    """A fresh new_game with the same setup, fed the same action texts, ends identical."""
    playout, _ = _playout(data, case)
    props.check_fresh_replay(playout.setup, playout.moves, props.frozen(playout.final))
    step = _midgame(data, playout)
    props.check_fresh_replay(playout.setup, playout.moves[:step], playout.states[step].snapshot())


@for_every_case
@given(data=st.data())
def test_to_json_is_valid_and_stable(case: props.Case, data: st.DataObject) -> None:
    """to_json is JSON holding the log, and the reloaded game's to_json is the same text."""
    playout, rng = _playout(data, case)
    props.check_json(playout.states[_midgame(data, playout)])
    for state in [playout.states[0], *props.some(playout.states, 2, rng), playout.final]:
        props.check_json(state)


# -- copies ------------------------------------------------------------------------------------
@for_every_case
@given(data=st.data())
def test_clone_is_independent(case: props.Case, data: st.DataObject) -> None:
    """Playing a clone to the end leaves the original alone, and the other way round."""
    playout, rng = _playout(data, case)
    props.check_clone_independent(playout.states[_midgame(data, playout)], rng)
    props.check_clone_independent(playout.states[0], rng)


# -- refusing moves ----------------------------------------------------------------------------
@for_every_case
@given(data=st.data())
def test_junk_text_is_refused(case: props.Case, data: st.DataObject) -> None:
    """Text that is no legal move (any unicode, whitespace, mangled moves) raises
    IllegalAction and changes nothing; text naming a legal move acts like that move."""
    playout, rng = _playout(data, case)
    state = playout.states[_midgame(data, playout)]
    vocabulary = [str(a) for a in state.action_vocabulary()]
    texts = data.draw(st.lists(props.junk_texts(vocabulary), min_size=1, max_size=8), "texts")
    seats = [*state.current_players(), rng.randrange(state.num_players)]
    for text in texts:
        for p in seats:
            props.check_text(state, p, text)


@for_every_case
@given(data=st.data())
def test_illegal_vocabulary_actions_are_refused(case: props.Case, data: st.DataObject) -> None:
    """Actions of the vocabulary that are not legal for a seat are refused by it."""
    playout, rng = _playout(data, case)
    for state in [playout.states[_midgame(data, playout)], *props.some(playout.states, 2, rng)]:
        props.check_illegal_vocabulary(state, rng)


@for_every_case
@given(data=st.data())
def test_moves_by_seats_not_to_act_are_refused(case: props.Case, data: st.DataObject) -> None:
    """A legal move applied by a seat not to act, a seat that does not exist, or a player that
    is not an int, is refused and changes nothing."""
    playout, rng = _playout(data, case)
    for state in [playout.states[_midgame(data, playout)], *props.some(playout.states, 2, rng)]:
        props.check_wrong_seats(state, rng)


@for_every_case
@given(data=st.data())
def test_non_actions_are_refused(case: props.Case, data: st.DataObject) -> None:
    """Objects that are no move of the game (None, bytes, foreign Actions...) are refused."""
    playout, _ = _playout(data, case)
    for state in [playout.states[_midgame(data, playout)], playout.states[0]]:
        props.check_non_actions(state)


@for_every_case
@given(data=st.data())
def test_rebuilt_actions_are_refused_or_act_alike(case: props.Case, data: st.DataObject) -> None:
    """Game actions rebuilt with other field values (combinations no move has, junk, other
    cached fields) are refused, unless equal to a legal move: then they act exactly like it."""
    playout, rng = _playout(data, case)
    for state in [playout.states[_midgame(data, playout)], *props.some(playout.states, 3, rng)]:
        props.check_rebuilt_actions(state, rng)


@for_every_case
@given(data=st.data())
def test_moves_after_the_end_are_refused(case: props.Case, data: st.DataObject) -> None:
    """Once the game is over every move of every seat, as action or text, is refused."""
    playout, _ = _playout(data, case)
    vocabulary = [str(a) for a in playout.final.action_vocabulary()]
    texts = data.draw(st.lists(props.junk_texts(vocabulary), max_size=4), label="texts")
    props.check_after_end(playout.final, texts)


# -- action texts ------------------------------------------------------------------------------
@for_every_case
@given(data=st.data())
def test_parse_action_inverts_str(case: props.Case, data: st.DataObject) -> None:
    """parse_action(p, str(a)) == a for every legal move at every step, and for the whole
    vocabulary (whose texts are distinct)."""
    playout, rng = _playout(data, case, check=True)
    for state in playout.states:
        props.check_parse_legal(state)
    for state in [playout.states[0], *props.some(playout.states, 1, rng)]:
        props.check_parse_vocabulary(state)


# -- hidden information ------------------------------------------------------------------------
@for_every_case
@given(data=st.data())
def test_determinize_keeps_the_view(case: props.Case, data: st.DataObject) -> None:
    """determinize(p) never changes observation(p) nor the original state, and the sample
    plays to the end. (A view that showed hidden information, such as a deck's order, would
    change when the hidden information is re-sampled.)"""
    playout, rng = _playout(data, case)
    picked = [playout.states[_midgame(data, playout)], *props.some(playout.states, 2, rng)]
    for state in picked:
        for p in range(state.num_players):
            props.check_determinize(state, p, rng)


@for_every_case
@given(data=st.data())
def test_observations_are_json_and_hide_the_seed(case: props.Case, data: st.DataObject) -> None:
    """Every view is plain JSON data, has no ``seed`` key and never shows the (large) seed:
    one random seat's view at every step, and every seat's at a few steps."""
    setup = data.draw(props.setups(case, seeds=props.LARGE_SEEDS), label="setup")
    rng = random.Random(data.draw(props.MOVE_SEEDS, label="move seed"))
    playout = props.record_playout(setup, rng)
    for state in playout.states:
        props.check_observation_hides_seed(state, rng.randrange(state.num_players))
    for state in [playout.final, *props.some(playout.states, 2, rng)]:
        for p in range(state.num_players):
            props.check_observation_hides_seed(state, p)
