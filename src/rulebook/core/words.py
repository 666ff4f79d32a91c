"""Words in messages: counting (``1 player``, ``2-8 players``), seats as people count them
(``seat 1`` is the first seat), and a move told of another seat (``declines to answer``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulebook.core.state import State

#: verbs whose third person is not the regular one
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, in the plural (``many``, default ``noun + "s"``) unless 1."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def player_count(low: int, high: int) -> str:
    """A range of player counts: ``1 player``, ``3 players``, ``2-8 players``."""
    return plural(low, "player") if low == high else f"{low}-{high} players"


def seat(player: int) -> str:
    """A seat as people count seats, from 1: ``seat(0) == "seat 1"``. Code, save files and
    the JSON API number seats from 0; every text a person reads names them with this."""
    return f"seat {player + 1}"


def seat_label(player: int, labels: Sequence[str] | None = None) -> str:
    """``seat 2`` or, with the seats' labels, ``seat 2 (greedy)``."""
    return f"{seat(player)} ({labels[player]})" if labels else seat(player)


def verdict(state: State, labels: Sequence[str] | None = None) -> str:
    """The end of a finished game in one line, the same wherever it is shown (the terminal,
    ``rulebook replay``, the web page): ``Winner: seat 2 (greedy)``, ``Winners (shared): ...``,
    ``Final score: 71`` (solo), ``Final score: 64, the Trolls 58: seat 1 wins`` (solo against
    the game's own opponent)."""
    won = state.winners()
    names = ", ".join(seat_label(p, labels) for p in won)
    opponent = state.game.variant(state.setup.variant).opponent
    if opponent:  # a solo game against the game itself: won only by beating it
        theirs = sum(state.opponent_breakdown().values())
        result = f"{names} wins" if won else f"{opponent} win"
        return f"Final score: {state.scores()[0]}, {opponent} {theirs}: {result}"
    if state.num_players == 1:
        return f"Final score: {state.scores()[0]}"
    if len(won) == 1:
        return f"Winner: {names}"
    return f"Winners (shared): {names}"


def third_person(phrase: str) -> str:
    """A move told in plain words as an instruction (``Decline to answer the Flow of Magic``)
    told of another seat, to follow its name: ``declines to answer the Flow of Magic``.

    The phrase's first word is its verb (:meth:`State.describe` begins so); it takes the third
    person (``pass`` -> ``passes``, ``carry`` -> ``carries``, ``have`` -> ``has``) and a lower
    case first letter. The rest is kept as it is."""
    verb, space, rest = phrase.partition(" ")
    lower = verb.lower()
    if lower in _IRREGULAR:
        said = _IRREGULAR[lower]
    elif lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        said = lower + "es"
    elif len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        said = lower[:-1] + "ies"
    else:
        said = lower + "s"
    return said + space + rest
