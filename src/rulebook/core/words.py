"""Words in messages: counting (``1 player``, ``2-8 players``), seats as people count them
(``seat 1`` is the first seat), and a move told of another seat (``declines to answer``). The
end of a game in one line, which reads the state, is :func:`rulebook.core.state.verdict`."""

from __future__ import annotations

from collections.abc import Sequence

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
