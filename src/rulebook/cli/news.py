"""The moves made at the table as each seat may learn of them (the terminal's "what changed").

A seat learns of another seat's move as the game announces it (``State.announce``: a card
taken from a face-down pile is not named), and of its own moves as it made them
(``State.explain``). Moves of a simultaneous phase still under way
(``State.pending_moves()``) are kept from the other seats until the phase ends, as the
seats' observations already show each other as they were when it began. After each move come
the steps the rules took on their own (battles, scoring: :mod:`rulebook.core.events`), as the
seat may read them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rulebook.cli.common import seat_label
from rulebook.core import Action, Event, State, apply_heard


@dataclass(frozen=True)
class Entry:
    """One move: where it sits in the game's history, who made it, its two texts, and what
    the rules did on their own after it."""

    index: int
    seat: int
    public: str
    own: str
    events: tuple[Event, ...] = ()


class News:
    """The moves made in this session and how far each seat has caught up with them."""

    def __init__(self, state: State, labels: Sequence[str]) -> None:
        self.labels = list(labels)
        self.entries: list[Entry] = []
        self.start = len(state.history)
        #: per seat: the history index up to which it has seen the others' moves
        self.seen: dict[int, int] = {}

    def make(self, state: State, player: int, action: Action) -> Entry:
        """Make a move (``State.apply``: :class:`IllegalAction`, and nothing changes, if it is
        not legal now) and note it, told in the position it was made from."""
        index = len(state.history)
        public, own = state.announce(player, action), state.explain(player, action)
        events = apply_heard(state, player, action)
        entry = Entry(index, player, public, own, events)
        self.entries.append(entry)
        return entry

    def line(self, entry: Entry, viewer: int | None) -> str:
        """``seat 1 (greedy): d6 greaves/steel``, as ``viewer`` may read it, then a line for
        each step the rules took on their own after it."""
        text = entry.own if entry.seat == viewer else entry.public
        said = self.said(entry, viewer)
        return "\n".join([f"{seat_label(entry.seat, self.labels)}: {text}", *said])

    def said(self, entry: Entry, viewer: int | None) -> list[str]:
        """The steps the rules took on their own after ``entry``'s move, as ``viewer`` may
        read them: ``You enclose ...`` (the viewer's own), ``seat 2 (greedy) wins the battle
        ...``, or the table's own sentence."""
        lines = []
        for event in entry.events:
            told = event.told_to(viewer)
            if told is None:
                continue
            if event.seat is not None:
                who = "You" if event.seat == viewer else seat_label(event.seat, self.labels)
                told = f"{who} {told}"
            lines.append(told)
        return lines

    @staticmethod
    def settled(state: State) -> int:
        """How many moves of the history every seat may know of now."""
        return len(state.history) - state.pending_moves()

    def visible(self, state: State, viewer: int) -> list[Entry]:
        """Every move of this session ``viewer`` may know of now."""
        settled = self.settled(state)
        return [e for e in self.entries if e.index < settled or e.seat == viewer]

    def unseen(self, state: State, viewer: int) -> list[Entry]:
        """The other seats' moves ``viewer`` may know of and has not seen yet; they count as
        seen from now on."""
        settled = self.settled(state)
        since = self.seen.get(viewer, self.start)
        self.seen[viewer] = max(since, settled)
        return [e for e in self.entries if since <= e.index < settled and e.seat != viewer]

    def summary(
        self, entries: Sequence[Entry], viewer: int | None, width: int, limit: int, head: str
    ) -> list[str]:
        """The entries as at most ``limit`` lines ``width`` wide, after ``head``: one
        paragraph per run of moves by one seat, and one for the steps the rules took after a
        move; the latest kept when they do not all fit."""
        paragraphs: list[list[str]] = []
        last_seat = None
        for entry in entries:
            text = entry.own if entry.seat == viewer else entry.public
            if entry.seat == last_seat:
                paragraphs[-1].append(text)
            else:
                paragraphs.append([f"{seat_label(entry.seat, self.labels)}: {text}"])
                last_seat = entry.seat
            said = self.said(entry, viewer)
            if said:  # the steps that followed, one paragraph; the next move starts anew
                paragraphs.append(said)
                last_seat = None
        lines: list[str] = []
        for moves in paragraphs:
            lines += textwrap.wrap("; ".join(moves), width - 2, subsequent_indent="    ")
        if len(lines) < limit:
            return [f"{head}:"] + ["  " + line for line in lines]
        kept = lines[-(limit - 1) :]
        while len(kept) > 1 and kept[0].startswith(" "):  # start with a seat's name
            kept = kept[1:]
        return [f"{head} (earlier moves: type log):"] + ["  " + k for k in kept]
