"""Arranging a roll-and-write sheet game for a worked example (tests only): set the dice, mark
circles or whole rows with no side effects, list the legal moves, end a round (and hear what the
rules told of it)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import rulebook
from rulebook.core import Event, apply_heard
from rulebook.core.rollwrite import SheetState

S = TypeVar("S", bound=SheetState)


def new_state(cls: type[S], game: str, players: int, seed: int) -> S:
    state = rulebook.new_game(game, players=players, seed=seed)
    assert isinstance(state, cls)
    return state


def card_index(state: SheetState, name: str) -> int:
    """The number of the customer card called ``name``."""
    return next(o.index for o in state.content.cards if o.name == name)


def set_dice(state: SheetState, **values: int) -> None:
    dice = dict(zip(state.content.dice, state.dice, strict=True))
    dice.update(values)
    state.dice = tuple(dice[d] for d in state.content.dice)


def mark(state: SheetState, player: int, *circles: str) -> None:
    """Mark circles directly (the sheet as the example starts), with no side effects."""
    for cid in circles:
        state.marks[player] |= state.content.layout.circle_by_id[cid].bit


def complete(state: SheetState, player: int, *rows: str) -> None:
    for rid in rows:
        state.marks[player] |= state.content.layout.row_by_id[rid].mask


def moves(state: SheetState, player: int) -> set[str]:
    return {str(a) for a in state.legal_actions(player)}


def finish_round(state: SheetState) -> None:
    """Every seat still crafting ends its phase: the end of the round runs."""
    for p in list(state.current_players()):
        state.apply(p, "done")


def markable(state: SheetState, columns: tuple[str, ...], value: int) -> set[str]:
    """The circles of ``columns`` an unmodified ``value`` satisfies (>= crafting, <= research)."""
    layout = state.content.layout
    return {
        c.id
        for c in layout.circles
        if layout.columns[c.column].id in columns
        and (c.threshold <= value if c.at_least else c.threshold >= value)
    }


def check_solo_shift(state: SheetState) -> list[int]:
    """A solo round's end: every card shifts left, the leftmost leaves, the top card joins.
    Returns the line before."""
    line = state.lines[0].copy()
    top = state.deck[-1]
    finish_round(state)
    assert state.lines[0] == [*line[1:], top]
    assert state.discards == [line[0]]
    return line


def finish_round_heard(state: SheetState) -> list[Event]:
    """:func:`finish_round`, listening: what the rules told of the steps it set off, in order."""
    heard: list[Event] = []
    for p in list(state.current_players()):
        heard += apply_heard(state, p, "done")
    return heard


def told(events: Sequence[Event], viewer: int | None) -> list[str]:
    """The lines ``viewer`` reads of ``events`` (after "You" or the seat's name, or the table's
    sentence), those it is told nothing of left out."""
    return [line for line in (e.told_to(viewer) for e in events) if line is not None]


def heard_game_is_the_game(game: str, players: int, seed: int) -> list[Event]:
    """Play a game of random moves twice, once listening to every move (``apply_heard``, as
    front ends do) and once not; the two must be the same game (telling changes nothing: the
    next round's dice, read early to be told, are the dice it would roll). Returns what was
    told."""
    quiet = rulebook.new_game(game, players=players, seed=seed)
    loud = rulebook.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    heard: list[Event] = []
    while not quiet.is_terminal():
        p = quiet.current_players()[0]
        action = rng.choice(quiet.legal_actions(p))
        quiet.apply(p, action)
        heard += apply_heard(loud, p, action)
        assert loud.snapshot() == quiet.snapshot()
    return heard


def told_round_ends_and_scores(game: str, players: int) -> None:
    """A random game of ``game`` played listening is the same game (:func:`heard_game_is_the_game`),
    and the table is told each of the first nine rounds' ends and each seat's final score."""
    lines = told(heard_game_is_the_game(game, players, seed=players), None)
    assert sum(line.startswith("Round ") and line.endswith(" is over.") for line in lines) == 9
    assert sum(line.startswith("finishes with ") for line in lines) == players
