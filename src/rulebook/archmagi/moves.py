"""Archmagi's Player Turn in terms: its phases, the moves a seat makes, the tasks of an Action.

PLAYER TURN: "There are 4 Phases to each Turn." The Draw Phase needs no move; in the Play
Phase a seat spends Plays (``draw``, ``top X``, ``bottom X``, the Fire Magi's ``both X``, the
Flora Magi's ``plant X``) or ends it (``end``); in the Monster Phase it defeats a Monster
(``defeat M``) or not (``pass``); the Discard Phase asks only for the hand limit. Inside an
Action, a Reward or the Flow of Magic, a symbol that needs a decision waits as a task of the
stack (:data:`INPUT`) and is answered by a move naming a Spell (``discard X``, ``take X``...)
or by ``use``/``skip``, ``draft``/``draw``, ``pass``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from rulebook.archmagi.content import Content, content
from rulebook.core import Action
from rulebook.core.action import KeyedAction
from rulebook.core.data import cached

#: the phases of a turn (PLAYER TURN; the Draw Phase needs no move), and the game over
PLAY: Final = "play"
MONSTER: Final = "monster"
DISCARD: Final = "discard"
OVER: Final = "over"

#: verbs of moves that name a Spell, a Monster, or nothing
SPELL_VERBS = ("top", "bottom", "both", "plant", "discard", "uproot", "take", "return", "draft")
PLAIN_VERBS = ("draw", "end", "pass", "use", "skip", "draft")
#: stack tasks that wait for a decision of their seat
INPUT: Final = frozenset(
    {
        "discard",
        "plant",
        "uproot",
        "search",
        "return",
        "look",
        "draft",
        "may",
        "flow",
        "pay",
        "limit",
    }
)

#: why Spells are drawn, for what is told of it (:func:`rulebook.archmagi.aloud.drew`): by a
#: move's own Draw (its line says so), in the Draw Phase, or for a Draft when the Spell Book is
#: empty (SYMBOLS GUIDE, Draft)
BY_MOVE: Final = 0
DRAW_PHASE: Final = 1
FOR_DRAFT: Final = 2

#: a task of the stack: (kind, seat, number, data)
Task = tuple[str, int, int, Any]


@dataclass(frozen=True, slots=True, eq=False)
class Move(KeyedAction):
    """A move: a verb, and the Spell or Monster it names (if any): ``top Ember``, ``pass``."""

    verb: str
    card: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.card}" if self.card else self.verb


class Moves:
    """Every move of the game, built once per content and shared by all states."""

    def __init__(self, c: Content) -> None:
        self.by_text: dict[str, Move] = {}
        vocab: list[Move] = [Move(v) for v in PLAIN_VERBS]
        vocab += [Move(v, n) for v in SPELL_VERBS for n in c.names]
        vocab += [Move("defeat", m.name) for m in c.monsters]
        for m in vocab:
            self.by_text[str(m).lower()] = m
        self.vocabulary = tuple(vocab)
        #: the moves by verb and card, made once: ``named[verb][card]``, ``plain[verb]``
        self.named: dict[str, dict[str, Move]] = {v: {} for v in (*SPELL_VERBS, "defeat")}
        self.plain: dict[str, Move] = {}
        for m in vocab:
            if m.card:
                self.named[m.verb][m.card] = m
            else:
                self.plain[m.verb] = m
        self.name_of = tuple(card.name for card in c.cards)


@cached
def moves() -> Moves:
    return Moves(content())


def listed(move: Move, actions: list[Action]) -> bool:
    """Whether ``move`` (one of :class:`Moves`) is among ``actions`` (made of them too): found
    by identity, without comparing fields."""
    return any(action is move for action in actions)


def distinct(names: list[str]) -> list[str]:
    """``names`` without repeats, in order (one move per Spell or Monster name)."""
    return list(dict.fromkeys(names))
