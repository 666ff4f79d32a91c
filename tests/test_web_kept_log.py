"""The log lines a viewer is told, kept from one payload to the next (views.KeptLog), and the
deltas' count of lines kept (live.differences): the same as told afresh at every step."""

from __future__ import annotations

import random

import pytest

from rulebook.core import Setup, State, get_game
from rulebook.web.live import differences, replay
from rulebook.web.views import Entry, KeptLog, made, visible_log

#: a game of every kind: simultaneous phases (the roll-and-write sheets), hidden hands
GAMES = [
    ("merchants-of-magick", 3),
    ("ye-olde-magick-shoppe", 2),
    ("battle-merchants", 2),
    ("pandoria-merchants", 3),
    ("archmagi", 2),
]


def _walk(game: str, players: int, seed: int) -> None:
    setup = Setup(game, players, seed, "standard", {})
    state = get_game(game).create(setup)
    rng = random.Random(seed)
    log: list[Entry] = []
    viewers: list[int | None] = [None, *range(players)]
    kept = {v: KeptLog() for v in viewers}
    bots = {0: "greedy"}
    pending_seen = False
    for step in range(160):
        if state.is_terminal():
            break
        seat = rng.choice(list(state.current_players()))
        log.append(made(state, seat, rng.choice(state.legal_actions(seat))))
        pending_seen = pending_seen or state.pending_moves() > 0
        if step % 37 == 36:  # an undo: the game replayed, every entry a new object
            state, log, _ = replay(setup, [(e.seat, e.move) for e in log[:-1]])
        for v in viewers:
            fresh = visible_log(state, v, log, bots)
            assert visible_log(state, v, log, bots, kept[v]) == fresh, (game, step, v)
    assert step > 40


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_kept_lines_are_the_lines_told_afresh(game: str, players: int) -> None:
    _walk(game, players, seed=3)


def test_a_simultaneous_phase_is_told_as_it_settles() -> None:
    """The sheets' rounds: a seat's move shows to the others only once the round settles; the
    kept lines must not hold it back, nor show it early."""
    setup = Setup("merchants-of-magick", 3, 11, "standard", {})
    state = get_game("merchants-of-magick").create(setup)
    rng = random.Random(11)
    log: list[Entry] = []
    kept = KeptLog()
    hidden = 0
    for _ in range(120):
        if state.is_terminal():
            break
        seat = max(state.current_players())  # seat 0 watches the others move first
        log.append(made(state, seat, rng.choice(state.legal_actions(seat))))
        fresh = visible_log(state, 0, log)
        hidden += len(fresh) < len(visible_log(state, seat, log))
        assert visible_log(state, 0, log, kept=kept) == fresh
    assert hidden, "no move was hidden from seat 0 while its round ran: the test saw no phase"


def _played(setup: Setup, moves: int, seed: int) -> tuple[State, list[Entry]]:
    state = get_game(setup.game).create(setup)
    rng = random.Random(seed)
    log: list[Entry] = []
    for _ in range(moves):
        seat = rng.choice(list(state.current_players()))
        log.append(made(state, seat, rng.choice(state.legal_actions(seat))))
    return state, log


def test_a_log_replaced_by_another_is_told_anew() -> None:
    """A game replayed from the store after another process wrote other moves: the same
    number of moves, other entries: nothing of the lines kept before may stay."""
    setup = Setup("battle-merchants", 2, 5, "standard", {})
    kept = KeptLog()
    state, log = _played(setup, 30, seed=1)
    visible_log(state, 1, log, kept=kept)
    other, other_log = _played(setup, 30, seed=2)
    fresh = visible_log(other, 1, other_log)
    assert fresh != visible_log(state, 1, log)
    assert visible_log(other, 1, other_log, kept=kept) == fresh


def test_differences_count_the_lines_kept() -> None:
    a, b, c = {"seat": 0, "text": "a"}, {"seat": 1, "text": "b"}, {"seat": 0, "text": "c"}
    old = {"version": 1, "log": [a, b]}
    assert differences(old, {"version": 2, "log": [a, b, c]}) == ({"version": 2}, 2, [c])
    assert differences(old, {"version": 2, "log": [a]}) == ({"version": 2}, 1, [])
    assert differences(old, {"version": 1, "log": [a, c]}) == ({}, 1, [c])
    assert differences(old, {"version": 1, "log": [dict(a)]}) == ({}, 1, [])
    assert differences(old, {"version": 1, "log": []}) == ({}, 0, [])
    assert differences(old, {"version": 1}) is None
