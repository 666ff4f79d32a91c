"""Arranging a roll-and-write sheet game for a worked example (tests only): set the dice, mark
circles or whole rows with no side effects, list the legal moves, end a round."""

from __future__ import annotations

from rulebook.core.rollwrite import SheetState


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
