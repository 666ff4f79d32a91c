"""Game clocks of web games, as Board Game Arena's players know them: none (friends at one
table, the default), real time (a bank of seconds, an increment added after each move, never
above a cap) or turn-based (a fixed time for each move, such as a day, for play over days).

A clock is data, never a timer in memory: each write of a game stores the seconds every seat
had left and when (``since``, UNIX seconds). The seats that are to move (each seat still to
decide in a simultaneous phase; never a seat a bot holds, nor an open seat) use up their time
from ``since`` on, so any process, and any restart, reads the same clocks from the database.
The game row also stores the ``deadline``: when the first running seat's time and the grace
period after it will be over; a sweep of every process finds the games past theirs, and a bot
takes that seat (:mod:`rulebook.web.live`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

Kind = Literal["realtime", "turn"]


@dataclass(frozen=True)
class Clock:
    """A game's clock, chosen at creation (seconds throughout)."""

    kind: Kind
    #: real time: each seat's time at the start
    bank: int = 0
    #: real time: added to a seat's time after each of its moves
    increment: int = 0
    #: real time: the most a seat's time may hold
    cap: int = 0
    #: turn-based: the time for each move
    per_move: int = 0
    #: after a seat's time ran out, before a bot takes it (the seat may still move meanwhile)
    grace: int = 0
    #: the bot that takes a seat whose time ran out (an agent spec, ``greedy``)
    bot: str = "greedy"

    def to_text(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_text(text: str | None) -> Clock | None:
        return None if not text else Clock(**json.loads(text))

    def start(self, players: int) -> list[float]:
        """Every seat's time when the game starts."""
        return [float(self.bank if self.kind == "realtime" else self.per_move)] * players

    def public(self) -> dict[str, Any]:
        """The clock as the payload and the open tables show it."""
        return {k: v for k, v in asdict(self).items() if v or k == "kind"}

    def describe(self) -> str:
        """In a few words: ``real time 5 min + 10 s`` or ``1 day a move``."""
        if self.kind == "realtime":
            return f"real time {span(self.bank)} + {span(self.increment)} a move"
        return f"{span(self.per_move)} a move"


def span(seconds: float) -> str:
    """``90`` as ``1 min 30 s``, ``86400`` as ``1 day``."""
    s = int(seconds)
    parts = []
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        if s >= size:
            n, s = divmod(s, size)
            parts.append(f"{n} {unit}{'s' if unit == 'day' and n > 1 else ''}")
    return " ".join(parts) or "0 s"


@dataclass(frozen=True)
class Times:
    """The clocks as stored after a write: each seat's seconds left at ``since``."""

    left: tuple[float, ...]
    since: float

    def to_text(self) -> str:
        return json.dumps([round(x, 3) for x in self.left])

    @staticmethod
    def read(left: str | None, since: float | None) -> Times | None:
        if left is None or since is None:
            return None
        return Times(tuple(float(x) for x in json.loads(left)), float(since))

    def now(self, running: Iterable[int], at: float) -> list[float]:
        """Each seat's time left at ``at``: the running seats' counted down since the write."""
        left = list(self.left)
        for p in running:
            left[p] -= at - self.since
        return left


def after(
    clock: Clock,
    times: Times,
    running_before: Sequence[int],
    running_after: Sequence[int],
    mover: int | None,
    at: float,
) -> Times:
    """The clocks after a write at ``at``: the seats that were running used their time; real
    time adds the increment to the seat that moved (from no less than nothing: a move made in
    the grace period starts from zero), up to the cap; turn-based gives a fresh time to each
    seat that now has a move to make (the mover again included)."""
    left = times.now(running_before, at)
    if clock.kind == "realtime":
        if mover is not None:
            left[mover] = min(max(left[mover], 0.0) + clock.increment, clock.cap or clock.bank)
    else:
        for p in running_after:
            if p not in running_before or p == mover:
                left[p] = float(clock.per_move)
    return Times(tuple(left), at)


def taken_back(clock: Clock, times: Times, seat: int) -> Times:
    """The clocks when a person takes a seat back from a bot: real time gives the seat what it
    had, but at least the grace period; turn-based a whole move's time."""
    left = list(times.left)
    if clock.kind == "realtime":
        left[seat] = max(left[seat], float(clock.grace))
    else:
        left[seat] = float(clock.per_move)
    return Times(tuple(left), times.since)


def move_undone(clock: Clock, times: Times, seat: int) -> Times:
    """The clocks when ``seat`` takes its last move back: real time takes back the increment
    that move earned (the time it took stays used)."""
    if clock.kind != "realtime":
        return times
    left = list(times.left)
    left[seat] -= clock.increment
    return Times(tuple(left), times.since)


def deadline(clock: Clock, times: Times, running: Iterable[int]) -> float | None:
    """When the first running seat's time and grace period will be over (None: nobody runs)."""
    ends = [times.since + times.left[p] + clock.grace for p in running]
    return min(ends) if ends else None


def overdue(clock: Clock, times: Times, running: Iterable[int], at: float) -> list[int]:
    """The running seats whose time and grace period are over at ``at``."""
    return [p for p in running if times.since + times.left[p] + clock.grace <= at]
