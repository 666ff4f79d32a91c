"""The sheet games' fast lookahead: each move made on the state and undone, for the game's own
evaluation (the greedy bot's one-step lookahead, and the search bots' rollouts).

Registered by each sheet game as ``Game.lookahead`` (its ``lookahead`` module re-exports
:func:`lookahead`), which ``State.lookahead`` uses for the game's own evaluation; the rules
never import it. It gives the very values of ``State.lookahead_on_clones`` (a clone per move),
which ``tests/test_speed.py`` holds it to:

- a move changes only the seat's own fields and the deck
  (:func:`rulebook.core.rollwrite.crafting.act`), which are saved before and put back after
  (:func:`save_seat`, :func:`restore_seat`; the game's own fields by its ``_save_own`` and
  ``_restore_own``);
- a move that ends the crafting phase (the seat's last, with every other seat done) is followed
  by the seat's part of the Mastery and Customer phases (:func:`round_end_value`);
- the moves the game values without making them (``Game.evaluate_moves``: a spend that
  completes no row changes only a row's share done, the cards' and the resources) are not made
  at all; and of spends marking the same circle with results that need the same change, one is
  made: they differ only in the die spent, which the sheet games' evaluations never read (the
  position after each is the same but for the round's spent dice), so they have the very same
  value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulebook.core.rollwrite.crafting import act
from rulebook.core.rollwrite.customer_phase import lines_moved, turn_up
from rulebook.core.rollwrite.customers import claim
from rulebook.core.rollwrite.engine import SheetState
from rulebook.core.rollwrite.mastery import masters, mastery_value
from rulebook.core.rollwrite.moves import CRAFTING, OVER, Spend
from rulebook.core.rollwrite.state import C
from rulebook.core.state import Action, State


def lookahead(state: State, player: int, actions: Sequence[Action]) -> list[float]:
    """``evaluate(after, player)`` for the state ``after`` each of ``actions`` (legal moves of
    ``player`` now), for the game's own evaluation, each move made on ``state`` and undone."""
    assert isinstance(state, SheetState)
    s: SheetState[Any] = state
    game = s.game
    evaluate = game.evaluate
    assert evaluate is not None
    others_done = all(d for q, d in enumerate(s.done) if q != player)
    known = game.evaluate_moves(s, player, actions) if game.evaluate_moves is not None else None
    #: per (circle, change) of a spend made: its value
    alike: dict[int, float] = {}
    targets = s.moves.spend_target
    values = []
    for i, action in enumerate(actions):
        if known is not None:
            quick = known[i]
            if quick is not None:
                values.append(quick)
                continue
        key = -1
        if type(action) is Spend:
            target = targets.get(action)
            if target is not None:
                die, circle = target
                # the circle and the change (signed, |change| < 128) in one number
                key = circle.index << 8 | circle.change_needed(s.dice[die]) & 255
                same = alike.get(key)
                if same is not None:
                    values.append(same)
                    continue
        saved = save_seat(s, player)
        try:
            if act(s, player, action) and others_done:
                value = round_end_value(s, player, evaluate)
            else:
                value = evaluate(s, player)
        finally:
            restore_seat(s, player, saved)
        if key >= 0:
            alike[key] = value
        values.append(value)
    return values


def round_end_value(s: SheetState[C], p: int, evaluate: Callable[[State, int], float]) -> float:
    """The game's own evaluation of seat ``p`` after the Mastery phase and (but in the last
    round) the Customer phase that follow this position, worked out for ``p`` alone on this
    state (in the middle of :func:`lookahead`, whose :func:`restore_seat` puts back ``p``'s
    line, claims and the deck) and put back.

    ``p``'s part of a round's end is the masteries it scores (``masters``, at the values the
    cards have before anyone scores them), the line it receives (``lines_moved``, turned up)
    and the cards it claims from it (``claim``); the game ends after the last round. A sheet
    game's evaluation of ``p`` reads ``p``'s own part of the table and whether the game is
    over, nothing else the round's end changes (the other seats, the next roll); the cards
    other seats claim first change only which face-down cards ``p`` draws (a non-solo line
    holds no waiting cards), which no evaluation reads. ``tests/test_speed.py`` holds the
    values to a clone's."""
    scored = s.mastery_scored[p]
    was = scored.copy()
    for k in range(2):
        if masters(s, p, k):
            scored[k] = mastery_value(s, k)
    discards = len(s.discards)
    try:
        if s.round >= s.content.rounds:
            s.phase = OVER
            return evaluate(s, p)
        moved = lines_moved(s)[p]
        turn_up(moved)
        s.lines[p] = moved
        claim(s, p)
        return evaluate(s, p)
    finally:
        s.phase = CRAFTING
        s.mastery_scored[p] = was
        del s.discards[discards:]


def save_seat(s: SheetState[Any], p: int) -> tuple[Any, ...]:
    """What :func:`~rulebook.core.rollwrite.crafting.act` may change for seat ``p``; the line
    and the deck are swapped for copies (the moves change them in place) and the originals
    kept."""
    line = s.lines[p]
    deck = s.deck
    s.lines[p] = line.copy()
    s.deck = deck.copy()
    return (
        s.marks[p],
        s.extra_used[p],
        s.spent[p],
        s.results[p],
        s.free_marks[p],
        line,
        len(s.claimed[p]),
        deck,
        s.deck_seen,
        s._phase_draws[p],
        s._save_own(p),
    )


def restore_seat(s: SheetState[Any], p: int, saved: tuple[Any, ...]) -> None:
    """Put back what :func:`save_seat` saved."""
    (
        s.marks[p],
        s.extra_used[p],
        s.spent[p],
        s.results[p],
        s.free_marks[p],
        s.lines[p],
        claimed,
        s.deck,
        s.deck_seen,
        s._phase_draws[p],
        own,
    ) = saved
    del s.claimed[p][claimed:]
    s._restore_own(p, own)
