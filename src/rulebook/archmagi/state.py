"""Archmagi's table (Player Turn): what a game holds between moves, and the small helpers that
need no section of the rules.

PLAYER TURN: "There are 4 Phases to each Turn." Every section of the rules
(:mod:`~rulebook.archmagi.phases`, :mod:`~rulebook.archmagi.monsters`,
:mod:`~rulebook.archmagi.actions`, :mod:`~rulebook.archmagi.flow`,
:mod:`~rulebook.archmagi.rounds`, :mod:`~rulebook.archmagi.setup`) is a set of functions over a
:class:`Table`; :class:`rulebook.archmagi.rules.ArchmagiState` is the table with the game's
protocol (the stack machine that steps through the Phases, the legal moves, copies), and the
only class a game is made of. This module imports no section.
"""

from __future__ import annotations

from rulebook.archmagi.content import Content, MagiSpec
from rulebook.archmagi.moves import Moves, Task, distinct
from rulebook.core import IllegalAction, State


class Table(State):
    """The fields of a game of Archmagi for 2-4 players, and their invariants.

    Cards are indices into ``content.cards`` (Monsters into ``content.monsters``); piles are
    lists whose last card is the top. Seat ``p`` plays the Magi of element ``magi[p]``
    (``seat_of[magi[p]] == p``). The ``stack`` holds the tasks still to run, the last first;
    while it is not empty, its last task's seat decides.
    """

    content: Content
    moves: Moves
    magi: list[str]
    #: each seat's Magi Ability Card (shared by clones: never changed)
    magi_specs: list[MagiSpec]
    seat_of: dict[str, int]
    round: int
    final: bool
    phase: str
    turn: int
    plays: int
    pool: list[int]
    discard: list[int]
    exhausted: list[int]
    books: list[list[int]]
    hands: list[list[int]]
    planted: list[list[int]]
    play_area: list[int]
    looking: list[int]
    crystals: list[int]
    trophies: list[list[int]]
    monster_decks: list[list[int]]
    paths: list[list[int]]
    stack: list[Task]
    #: per seat, what the balance lab counts (:mod:`rulebook.archmagi.stats`): Crystals gained,
    #: Spells played (``spell:<name>``), planted, drafted, Flow of Magic offers taken or left
    tally: list[dict[str, int]]
    #: the action log as text, as far as it was needed (shared by clones: never changed)
    _texts: tuple[tuple[int, str], ...]

    def magi_of(self, p: int) -> MagiSpec:
        """Seat ``p``'s Magi Ability Card."""
        return self.magi_specs[p]

    def count(self, p: int, key: str, by: int = 1) -> None:
        """Count ``by`` more of ``key`` in seat ``p``'s tally (for the balance lab)."""
        if self.determinized:
            return  # a search's sample: never counted by the lab
        # a new dict, never a change in place: clones share the seats' tallies
        tally = dict(self.tally[p])
        tally[key] = tally.get(key, 0) + by
        self.tally[p] = tally

    def take(self, pile: list[int], name: str) -> int:
        """Remove and return the first card called ``name`` from ``pile``."""
        name_of = self.moves.name_of
        for i, card in enumerate(pile):
            if name_of[card] == name:
                return pile.pop(i)
        raise IllegalAction(f"no {name} there")  # pragma: no cover - legality checked first

    def names(self, cards: list[int]) -> list[str]:
        """The names of ``cards``, each once (one move per name)."""
        name_of = self.moves.name_of
        return distinct([name_of[c] for c in cards])
