"""A ladder of agents, as in the IEEE CoG 2025 Tabletop Games Balancing Competition: balance
measured not only for one kind of player but at each rung of skill.

A :class:`Rung` says who plays: one agent in every seat (``greedy``), or one candidate seat
against the same opponent in every other seat (``mcts:200-greedy``), the candidate's seat
rotating one seat per game so that it plays every seat and every faction equally often. On a
plain rung a faction's win rate is measured against the even share 1/N; on a candidate rung it
is the candidate's win rate with that faction, measured against the mean over the factions (how
much skill pays should not depend on the faction chosen).

:data:`LADDER` is the default ladder of ``rulebook strength --ladder``: random, greedy and mcts
at two budgets, each as the candidate against greedy opponents; :func:`ladder_table` sets the
faction tables of the rungs side by side, with each faction's gain from skill.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rulebook.core import RulebookError
from rulebook.core.words import seat
from rulebook.lab.summary import Rate, Row, faction_rates, rate_of, seat_rates

#: the rungs of ``rulebook strength --ladder``: each candidate against greedy opponents
LADDER = ("random-greedy", "greedy", "mcts:200-greedy", "mcts:1000-greedy")


class RungError(RulebookError):
    """A rung that cannot be read: one line, before anything runs."""


def split_pair(text: str) -> tuple[str, str, bool]:
    """``CANDIDATE-OPPONENT`` split at its first dash outside quotes (an outside agent's spec
    may hold dashes: ``"cmd:./my-agent.sh"-greedy``), each side stripped of its quotes; the
    last item says whether there was a dash."""
    quote = ""
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "-":
            return _unquote(text[:i]), _unquote(text[i + 1 :]), True
    return _unquote(text), "", False


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text


@dataclass(frozen=True)
class Rung:
    """One agent in every seat (``candidate == opponent``), or a candidate seat against the
    opponent in every other seat."""

    candidate: str
    opponent: str

    @classmethod
    def parse(cls, text: str) -> Rung:
        """``greedy`` or ``mcts:200-greedy`` (candidate-opponent)."""
        from rulebook.agents import make_agent

        candidate, opponent, sep = split_pair(text)
        opponent = opponent if sep else candidate
        if not candidate or not opponent:
            raise RungError(f"a rung is AGENT or CANDIDATE-OPPONENT, not {text!r}")
        for spec in (candidate, opponent):
            try:
                make_agent(spec)
            except (RulebookError, ValueError) as exc:
                raise RungError(f"rung {text!r}: {exc}") from None
        return cls(candidate, opponent)

    @property
    def mixed(self) -> bool:
        return self.candidate != self.opponent

    def agents(self, players: int) -> tuple[str, ...]:
        """The agents of a job (rotated when mixed: the candidate moves one seat a game)."""
        return (self.candidate,) + (self.opponent,) * (players - 1)

    def __str__(self) -> str:
        return f"{self.candidate}-{self.opponent}" if self.mixed else self.candidate

    def describe(self) -> str:
        if not self.mixed:
            return f"{self.candidate} in every seat"
        return f"one {self.candidate} seat against {self.opponent}, seats rotating"


def candidate_seat(row: Row, rung: Rung) -> int:
    """The seat the candidate of ``rung`` played in a stored game."""
    return list(row["agents"]).index(rung.candidate)


def rates(rows: Sequence[Row], rung: Rung, by: str) -> list[Rate]:
    """Win rates per ``faction`` or per ``seat`` on a rung's games: on a plain rung, every
    seat's (against 1/N); on a candidate rung, the candidate's, against their mean."""
    if not rung.mixed:
        return faction_rates(rows) if by == "faction" else seat_rates(rows)
    groups: dict[str, list[tuple[Row, int]]] = defaultdict(list)
    for r in rows:
        p = candidate_seat(r, rung)
        if by == "seat":
            groups[seat(p)].append((r, p))
        elif r["factions"]:
            groups[r["factions"][p]].append((r, p))
    found = [rate_of(name, v, 0.0) for name, v in sorted(groups.items())]
    mean = statistics.fmean(r.rate for r in found) if found else 0.0
    return [replace(r, expected=mean) for r in found]


@dataclass(frozen=True)
class LadderRow:
    """One faction up the ladder: its win rate at each rung, and its gain from skill (the top
    rung's rate minus the greedy rung's, in points, beside the factions' mean gain)."""

    faction: str
    rates: tuple[Rate | None, ...]
    gain: float | None


def ladder_table(rungs: Sequence[Rung], rows: Sequence[Sequence[Row]]) -> list[LadderRow]:
    """The faction table of each rung side by side (``rows[i]``: the games of ``rungs[i]``)."""
    per_rung = [
        {r.label: r for r in rates(games, rung, "faction")}
        for rung, games in zip(rungs, rows, strict=True)
    ]
    names = sorted({name for found in per_rung for name in found})
    base = next((i for i, rung in enumerate(rungs) if str(rung) == "greedy"), None)
    top = len(rungs) - 1
    out = []
    for name in names:
        cells = tuple(found.get(name) for found in per_rung)
        low = cells[base] if base is not None and base != top else None
        high = cells[top]
        gain = 100 * (high.rate - low.rate) if low is not None and high is not None else None
        out.append(LadderRow(name, cells, gain))
    return out
