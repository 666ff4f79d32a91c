"""The move protocol leaks nothing: for every game, variant and seat count, two states that
differ only in what a seat cannot see (:meth:`State.determinize` re-samples it) give that
seat byte-identical messages: the move request (observation, text view, legal moves), the
grammar sent when the moves are withheld, and the error lines for bad answers. And the game
loop asks only the seats that must act.

The normal suite samples a few dozen pairs per game; a long run is asked for with
``RULEBOOK_LEAK_EXAMPLES`` (pairs per game; docs/protocol.md gives the command and result).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulebook
from properties import MOVE_SEEDS, Case, cases, new_state, setups
from rulebook.agents import Agent
from rulebook.agents.protocol import BadAnswer, grammar, move_request, read_move
from rulebook.core import Action, Setup, State
from rulebook.core.policy import random_move
from rulebook.simulate import play

#: pairs per game: a few in the normal suite, many in a long run
EXAMPLES = int(os.environ.get("RULEBOOK_LEAK_EXAMPLES", "25"))
#: the most random moves played before a pair is compared
MOVES = 400
#: answers that are no legal move in most positions, whatever the game
BAD_ANSWERS = (
    "xyzzy",
    "",
    "0",
    "999",
    '{"index": 999}',
    '{"move": "pass"}',
    "pass",
    "done",
    "draw",
    "end",
    "learn 9",
    "take Ember",
    "wood C7",
    "d12 elite-armor/wild",
    "either pass or done",
)


def messages(state: State, seat: int) -> str:
    """Everything the protocol sends ``seat`` in ``state``, as the bytes it sends."""
    sent: dict[str, Any] = {
        "request": move_request(state, seat, deadline=2.0),
        "grammar": grammar(state, seat),
        "errors": [],
    }
    for answer in BAD_ANSWERS:
        for listed in (True, False):
            try:
                said = str(read_move(state, seat, answer, listed=listed))
            except BadAnswer as bad:
                said = f"refused: {bad}"
            sent["errors"].append(said)
    return json.dumps(sent, sort_keys=True)


def played(setup: Setup, moves: int, move_seed: int) -> State:
    """The game of ``setup`` after ``moves`` random moves (fewer if it ends)."""
    state = new_state(setup)
    rng = random.Random(move_seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        player = rng.choice(list(state.current_players()))
        state.apply(player, random_move(state, player, rng))
    return state


def pairs(game: str) -> st.SearchStrategy[tuple[State, int, int]]:
    """A state of ``game`` (any variant, seat count and options) after random moves, a seat,
    and the seed that re-samples what the seat cannot see."""
    return st.sampled_from(cases([game])).flatmap(
        lambda case: st.tuples(
            setups(case).flatmap(
                lambda setup: st.builds(
                    lambda moves, seed: played(setup, moves, seed),
                    st.integers(0, MOVES),
                    MOVE_SEEDS,
                )
            ),
            st.integers(0, case.players - 1),
            MOVE_SEEDS,
        )
    )


@pytest.mark.parametrize("game", rulebook.games())
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_a_seat_gets_the_same_bytes_whatever_it_cannot_see(game: str, data: st.DataObject) -> None:
    state, seat, seed = data.draw(pairs(game))
    other = state.determinize(seat, random.Random(seed))
    assert messages(other, seat) == messages(state, seat)


def test_the_check_sees_a_difference_when_there_is_one() -> None:
    """The comparison is not blind: another seat's messages differ, and so does the seat's own
    after a move of its own."""
    state = rulebook.new_game("battle-merchants", players=2, seed=1)
    (seat,) = state.current_players()
    assert messages(state, seat) != messages(state, 1 - seat)
    after = state.clone()
    after.apply(seat, after.legal_actions(seat)[0])
    assert messages(after, seat) != messages(state, seat)


class Watching(Agent):
    """A random agent that records the seats it was asked to move for, and checks each is
    one the game waits for."""

    def __init__(self, seed: int, asked: list[tuple[int, bool]]) -> None:
        super().__init__(seed)
        self.asked = asked

    def act(self, state: State, player: int) -> Action:
        self.asked.append((player, player in state.current_players()))
        return random_move(state, player, self.rng)


@pytest.mark.parametrize("case", cases(), ids=str)
def test_only_the_seats_that_must_act_are_asked(case: Case) -> None:
    state = rulebook.new_game(case.game, players=case.players, seed=5, variant=case.variant)
    asked: list[tuple[int, bool]] = []
    play(state, [Watching(p, asked) for p in range(case.players)])
    assert asked and all(must for _, must in asked)
    assert len(asked) == len(state.history)


@pytest.mark.parametrize("game", rulebook.games())
def test_the_pairs_differ_in_what_the_seat_cannot_see(game: str) -> None:
    """A re-sampled state is not the same state: the pairs compared hold different hidden
    information (deck orders, other hands, future dice)."""
    state = played(rulebook.get_game(game).setup(2, 3), 6, 1)
    samples = [state.determinize(0, random.Random(k)).snapshot() for k in range(4)]
    assert any(sample != state.snapshot() for sample in samples)
