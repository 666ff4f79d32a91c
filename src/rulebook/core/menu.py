"""Where each legal move sits in a list of moves: under a heading, as the game places it
(``Game.menu_entry``: die and column for the roll-and-writes, e.g. ``d6=5 steel``), by default
under the first word of its short text when other moves share it. The terminal's numbered menu
and the web page's grouped move buttons both list moves so."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rulebook.core.state import Action, State


@dataclass(frozen=True)
class Place:
    """Where a move sits: under ``heading`` ("" for none) as ``label``; headings are listed
    by ``rank``, then in order of first appearance."""

    action: Action
    heading: str
    label: str
    rank: int


def places(state: State, player: int, actions: Sequence[Action]) -> list[Place]:
    """Where each move sits: as the game places it; by default under the first word of its
    explanation when other moves share that word, else ungrouped with its whole text. Listed
    ungrouped first, then by the heading's rank and first appearance."""
    hook = state.game.menu_entry
    if hook is not None:
        found = [Place(a, *hook(state, player, a)) for a in actions]
    else:
        texts = [state.explain(player, a) for a in actions]
        heads = Counter(t.partition(" ")[0] for t in texts)
        found = []
        for action, text in zip(actions, texts, strict=True):
            head, _, rest = text.partition(" ")
            shared = heads[head] > 1 and rest
            found.append(Place(action, head if shared else "", rest if shared else text, 0))
    first: dict[str, int] = {}
    for i, place in enumerate(found):
        first.setdefault(place.heading, i)
    return sorted(found, key=lambda p: (p.heading != "", p.rank, first[p.heading]))
