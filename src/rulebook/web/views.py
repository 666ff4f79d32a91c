"""Every payload a viewer of a web game receives is built here, and only here.

The boardgame.io ``playerView`` idea: one pure function of (state, viewer, stored log) strips
what the viewer may not see, so one test (``tests/test_web_leaks.py``) can prove for every game
that a seat's payload does not change when what the seat cannot see is re-sampled. A viewer is a
seat number or ``None`` for a spectator, who gets :meth:`State.public_observation`.

The move log is told as the viewer learned of it: a seat's own moves with ``explain`` (as its
menu showed them) and ``describe`` (in plain words), other seats' moves with ``announce`` and
``describe_public``; moves of a simultaneous phase still under way
(:meth:`State.pending_moves`) are withheld from the seats that did not make them, and from
spectators, until the phase ends. A move a bot made in a person's seat (a stint) carries the
bot's name (``bot``), and the seat's own line reads in the third person ("the greedy bot, in
your seat, buys ..."): who made a move is public (the stints are in every payload), never what
the move hid. After a move come the steps the rules took on their own after it (battles fought,
areas scored: :mod:`rulebook.core.events`), each a line of its own marked ``event``, told as
the viewer may read it and withheld with the move while it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import orjson

from rulebook.core import Action, Event, State, apply_heard
from rulebook.core.menu import places
from rulebook.core.state import verdict
from rulebook.core.words import third_person


@dataclass(frozen=True)
class Entry:
    """One move of the stored log with the ways it is told, worked out before it was made
    (a move is told in the position it is made from): short and in plain words, to the seat
    that made it and to everyone else."""

    seat: int
    move: str  #: the move's text form, as stored and replayed
    explain: str  #: for the seat that made it
    announce: str  #: for everyone else
    #: in plain words after its subject: ``use the d8 ...`` for the seat that made it ("you"),
    #: ``uses the d8 ...`` for everyone else ("seat 2")
    plain: str
    plain_public: str
    #: what the rules did on their own after the move (:mod:`rulebook.core.events`)
    events: tuple[Event, ...] = ()


def _after_subject(phrase: str) -> str:
    """A plain-words instruction (``Use the d8 ...``) as it reads after ``you``."""
    return phrase[:1].lower() + phrase[1:]


def entry(before: State, seat: int, action: Action) -> Entry:
    """The log entry of ``action`` by ``seat`` in the position ``before`` (not yet made)."""
    return Entry(
        seat,
        str(action),
        before.explain(seat, action),
        before.announce(seat, action),
        _after_subject(before.describe(seat, action)),
        third_person(before.describe_public(seat, action)),
    )


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """The moves ``seat`` may make, in the order a menu lists them (:mod:`rulebook.core.menu`):
    the text to send back, the short form, the plain words, and the heading it is listed
    under ("" for none)."""
    return [
        {
            "text": str(p.action),
            "explain": state.explain(seat, p.action),
            "plain": state.describe(seat, p.action),
            "group": p.heading,
        }
        for p in places(state, seat, state.legal_actions(seat))
    ]


def made(state: State, seat: int, action: Action) -> Entry:
    """Make ``action`` by ``seat`` (:meth:`State.apply`) and return its log entry: the move
    told in the position it is made from, then the steps the rules took on their own."""
    told = entry(state, seat, action)
    events = apply_heard(state, seat, action)
    return replace(told, events=events) if events else told


def version(state: State, viewer: int | None, log: Sequence[Entry]) -> int:
    """The number of moves in ``viewer``'s log (the payload's ``version``), without building
    the log: the moves of a simultaneous phase under way count only for the seat that made
    them."""
    pending_from = len(log) - state.pending_moves()
    return pending_from + sum(1 for e in log[pending_from:] if e.seat == viewer)


def to_text(data: Any) -> str:
    """``data`` as JSON text (orjson: six times faster than ``json`` on payloads; ``json``
    for what orjson does not take, such as integers beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(data)


class KeptLog:
    """One viewer's log lines (:func:`visible_log`) kept from one payload to the next, so that
    each settled move is told once, not again at every change of the game. Only for a log
    that grows by appending or is replaced whole (an undo, a replay): a kept move is known by
    its :class:`Entry` object. The moves of a simultaneous phase under way are not kept (they
    show once the phase is settled)."""

    __slots__ = ("ends", "entries", "lines")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        #: the lines of the first ``i + 1`` kept moves: ``lines[: ends[i]]``
        self.ends: list[int] = []
        self.lines: list[dict[str, Any]] = []

    def kept(self, log: Sequence[Entry], settled: int) -> int:
        """How many of the first moves of ``log`` (at most ``settled``) are kept as they are
        (those after them are forgotten)."""
        k = min(len(self.entries), len(log), settled)
        while k and log[k - 1] is not self.entries[k - 1]:
            k -= 1
        if k < len(self.entries):
            del self.entries[k:], self.ends[k:]
            del self.lines[self.ends[-1] if self.ends else 0 :]
        return k

    def keep(self, e: Entry, lines: list[dict[str, Any]]) -> None:
        self.entries.append(e)
        self.lines.extend(lines)
        self.ends.append(len(self.lines))


def visible_log(
    state: State,
    viewer: int | None,
    log: Sequence[Entry],
    bots: Mapping[int, str] | None = None,
    kept: KeptLog | None = None,
) -> list[dict[str, Any]]:
    """The moves as ``viewer`` learned of them (see the module docstring); ``bots``: the
    moves (by their place in ``log``) a bot made in a person's seat, and the bot's name;
    ``kept``: the lines told last time, reused (the caller forgets it when ``bots`` changes
    for a move already made)."""
    if len(log) != len(state.history):
        raise ValueError(f"the log has {len(log)} moves, the game {len(state.history)}")
    bots = bots or {}
    pending_from = len(log) - state.pending_moves()
    start = 0 if kept is None else kept.kept(log, pending_from)
    told = [] if kept is None else kept.lines[:]
    for i in range(start, len(log)):
        e = log[i]
        own = e.seat == viewer
        if i >= pending_from and not own:
            continue
        bot = bots.get(i)
        line: dict[str, Any]
        if own:
            # the seat's own words (what it knows), told of the bot that made the move
            line = {"seat": e.seat, "text": e.explain, "plain": e.plain}
            if bot is not None:
                line["plain"] = third_person(e.plain)
        else:
            line = {"seat": e.seat, "text": e.announce, "plain": e.plain_public}
        if bot is not None:
            line["bot"] = bot
        lines = [line]
        for event in e.events:
            said = event.told_to(viewer)
            if said is not None:
                lines.append({"seat": event.seat, "event": True, "text": said, "plain": said})
        told.extend(lines)
        if kept is not None and i < pending_from:
            kept.keep(e, lines)
    return told


def result(state: State, labels: Sequence[str]) -> dict[str, Any] | None:
    """The end of the game: scores, each seat's breakdown, winners and what decided, the
    verdict in the words the terminal uses, the solo rating or verdict where the game gives
    one, and notes on scoring categories (None while the game runs)."""
    if not state.is_terminal():
        return None
    seats = range(state.num_players)
    return {
        "verdict": verdict(state, labels),
        "notes": state.score_notes(),
        "scores": state.scores(),
        "breakdowns": [state.score_breakdown(p) for p in seats],
        "winners": state.winners(),
        "decided_by": state.decided_by(),
        "tiebreaks": list(state.tiebreak_labels()),
        "rating": state.public_observation().get("rating"),
        # solo against the game itself (the Trolls): who it is and its points by category
        "opponent": state.game.variant(state.setup.variant).opponent,
        "opponent_breakdown": state.opponent_breakdown(),
    }


def view(
    state: State,
    viewer: int | None,
    log: Sequence[Entry],
    labels: Sequence[str],
    can_undo: bool = False,
    bots: Mapping[int, str] | None = None,
    kept: KeptLog | None = None,
) -> dict[str, Any]:
    """The payload of one viewer (a seat, or ``None`` for a spectator): the contract of
    ``docs/web-api.md`` that the page and the game boards draw from. ``bots``: the moves of
    ``log`` a bot made in a person's seat; ``kept``: the viewer's log lines told last time
    (:func:`visible_log`)."""
    setup = state.setup
    to_act = list(state.current_players())
    observation = state.public_observation() if viewer is None else state.observation(viewer)
    legal = [] if viewer is None or viewer not in to_act else legal_moves(state, viewer)
    told = visible_log(state, viewer, log, bots, kept)
    return {
        "game": setup.game,
        "title": state.game.title,
        "variant": setup.variant,
        "players": setup.players,
        "options": dict(setup.options),
        "seat": viewer,
        "seats": [
            {"seat": p, "label": labels[p], "deciding": p in to_act}
            for p in range(state.num_players)
        ],
        "observation": observation,
        "legal": legal,
        "to_act": to_act,
        "log": told,
        "over": state.is_terminal(),
        "result": result(state, labels),
        "rating_scale": [{"from": least, "title": title} for least, title in state.rating_scale()],
        "version": version(state, viewer, log),
        "can_undo": can_undo and viewer is not None,
    }
