"""The terminal's menu of moves: numbers that stay put within a phase, moves under headings.

Numbers are stable within a phase: a move keeps its number for as long as the seat goes on
deciding in the same phase; moves that become legal get the next free numbers; a number whose
move is no longer legal is refused with the reason, and never picks another move. The numbers
start again at 1 when the phase changes for the seat: when another seat has moved, or when
chance has dealt something new (dice rolled, cards shuffled) since the menu was made.

The menu groups moves under headings, as :mod:`rulebook.core.menu` places them (die and column
for the roll-and-writes, e.g. ``d6 steel: 3 grimoire  4 sword``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text

from rulebook.core import Action, IllegalAction, State
from rulebook.core.menu import Place, places

#: the style of a move's number in menus
NUMBER = "bold cyan"
#: spaces between two moves on one line of the menu
GAP = 2
#: how far the continued lines of a paragraph of the menu are indented
INDENT = 2


def phase_key(state: State, player: int) -> tuple[int, int]:
    """What a seat's numbers last for: no other seat has moved, no chance event happened."""
    last_other = next(
        (i for i in range(len(state.history) - 1, -1, -1) if state.history[i][0] != player), -1
    )
    return last_other, state.chance.draws


@dataclass
class Menu:
    """One seat's numbered moves for one phase (their text forms, by number)."""

    key: tuple[int, int]
    texts: dict[int, str] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)

    def number(self, action: Action) -> int:
        """The number of ``action``, given the next free one if it has none yet."""
        text = str(action)
        found = self.numbers.get(text)
        if found is None:
            found = self.numbers[text] = len(self.texts) + 1
            self.texts[found] = text
        return found


class Menus:
    """The menus of every seat at the table, kept while each seat's phase lasts."""

    def __init__(self) -> None:
        self.by_seat: dict[int, Menu] = {}

    def numbered(self, state: State, player: int) -> list[tuple[int, Place]]:
        """The seat's legal moves, placed in the menu, with their numbers (a new menu numbers
        them in the order it shows them)."""
        key = phase_key(state, player)
        menu = self.by_seat.get(player)
        if menu is None or menu.key != key:
            menu = self.by_seat[player] = Menu(key)
        placed = places(state, player, state.legal_actions(player))
        return [(menu.number(place.action), place) for place in placed]

    def resolve(self, state: State, player: int, text: str) -> Action:
        """The move a person typed: a number from the menu, or a move's text."""
        if not text.isdigit():
            return state.parse_action(player, text)
        numbered = self.numbered(state, player)
        number = int(text)
        for n, place in numbered:
            if n == number:
                return place.action
        menu = self.by_seat[player]
        gone = menu.texts.get(number)
        if gone is None:
            numbers = ", ".join(_ranges([n for n, _ in numbered])) or "none"
            raise IllegalAction(f"there is no move {number} (the moves now: {numbers})")
        why = why_not(state, player, gone)
        raise IllegalAction(f"move {number} ({gone}) is no longer possible: {why}")


def why_not(state: State, player: int, text: str) -> str:
    """Why the move ``text`` cannot be made now (the game's refusal)."""
    trial = state.clone()
    try:
        trial.apply(player, text)
    except IllegalAction as exc:
        return str(exc)
    return "it is not among the legal moves now"


def _ranges(numbers: Sequence[int]) -> list[str]:
    """``[1, 2, 3, 7]`` as ``["1-3", "7"]``."""
    out: list[str] = []
    start = prev = None
    for n in sorted(numbers):
        if prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return out


# -- laying the menu out ------------------------------------------------------------------------
def menu_lines(numbered: Sequence[tuple[int, Place]], width: int) -> list[Text]:
    """The menu as lines at most ``width`` wide: the ungrouped moves first, then a paragraph
    per heading's first word (``d6=3``, ``sell``) with its moves flowing after it; the rest of
    a heading (``steel``, ``mountains``) leads its own moves inline. Numbers ascend within a
    heading."""
    paragraphs: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for number, place in numbered:
        first, _, sub = place.heading.partition(" ")
        paragraphs.setdefault(first, {}).setdefault(sub, []).append((number, place.label))
    lines: list[Text] = []
    for first, subs in paragraphs.items():
        tokens: list[Text] = []
        for sub, items in subs.items():
            for k, (number, label) in enumerate(sorted(items)):
                token = Text()
                if sub and k == 0:
                    token.append(f"{sub}: ", style="bold")
                token.append(str(number), style=NUMBER)
                token.append(f" {label}")
                tokens.append(token)
        lines += _flow(first, tokens, width)
    return lines


def _flow(head: str, tokens: Sequence[Text], width: int) -> list[Text]:
    """A paragraph: the heading, then the tokens as its words, continued lines indented by
    :data:`INDENT`; a token too long for a line of its own is wrapped."""
    lines: list[Text] = []
    line = Text()
    if head:
        line.append(head + " ", style="bold")
    start = len(line.plain)
    for token in tokens:
        used = len(line.plain) > start
        if len(line.plain) + (GAP if used else 0) + len(token.plain) <= width:
            line.append(" " * GAP if used else "")
            line.append_text(token)
            continue
        if used:
            lines.append(line)
            line = Text(" " * INDENT)
            start = INDENT
        if start + len(token.plain) <= width:
            line.append_text(token)
            continue
        room = max(width - start - 2, 10)
        parts = textwrap.wrap(token.plain, room) or [""]
        line.append_text(token[: len(parts[0])])
        rest = token.plain[len(parts[0]) :].strip()
        for part in textwrap.wrap(rest, room):
            lines.append(line)
            line = Text(" " * (start + 2) + part)
        lines.append(line)
        line = Text(" " * INDENT)
        start = INDENT
    if len(line.plain) > start or not lines:
        lines.append(line)
    for done in lines:
        done.rstrip()
    return lines
