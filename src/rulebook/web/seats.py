"""Who may sit in a seat of a web game: a person, or one of the bots at a named strength.

Seats are stored as the agents' specs (:func:`rulebook.agents.make_agent`), the same words the
terminal and save files use (``human``, ``greedy``, ``mcts:200``), and shown to players by name.

The server may offer agents outside the process too (``rulebook serve --seat NAME=SPEC``: a
program, a remote agent or a language model, :mod:`rulebook.agents.protocol`): :func:`offer`
adds them to the menu under the names the server gives them; nobody can seat another one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from rulebook.agents import is_outside
from rulebook.core import UnknownGame

HUMAN = "human"
#: a seat left open at creation: anyone may take it from the home page's open tables
OPEN = "open"
#: an open seat someone took (a person, with the private link they were given)
JOINED = "joined"
#: the seats people play
PEOPLE = frozenset({HUMAN, JOINED})


@dataclass(frozen=True)
class SeatChoice:
    """One entry of the new-game form's seat menu."""

    key: str  #: what the form sends
    spec: str  #: the agent spec stored (``human`` for a person)
    label: str  #: what players read
    about: str


#: the seat menu, weakest bot first; mcts budgets are iterations per move (see README "Bots"
#: for the time they take: about 0.3-0.5 s per 1000 iterations on one core)
CHOICES: tuple[SeatChoice, ...] = (
    SeatChoice("human", HUMAN, "human", "a person, with a private link"),
    SeatChoice("random", "random", "random", "plays any legal move"),
    SeatChoice("greedy", "greedy", "greedy", "takes the move that looks best right now"),
    SeatChoice("mcts-quick", "mcts:200", "mcts (quick)", "tree search, 200 iterations a move"),
    SeatChoice("mcts", "mcts:1000", "mcts", "tree search, 1000 iterations a move"),
    SeatChoice("mcts-strong", "mcts:3000", "mcts (strong)", "tree search, 3000 iterations a move"),
    SeatChoice(
        "expert",
        "expert",
        "expert",
        "tree search judging positions as it learned from self-play (where trained)",
    ),
    SeatChoice("open", OPEN, "open seat", "anyone may take it from the home page"),
)
#: the menu's own seat kinds, by key (:func:`choices` adds the server's outside agents)
BY_KEY = {c.key: c for c in CHOICES}
_LABELS = {c.spec: c.label for c in CHOICES} | {JOINED: "human"}
#: the bots a seat may be handed to (the expert plays only where it was trained, and the
#: server's outside agents may be slow or gone: not ones to hand any seat to)
BOTS = tuple(c for c in CHOICES if c.spec not in (HUMAN, OPEN, "expert"))
#: the seat kinds that need trained weights for the configuration
LEARNED = frozenset({"expert"})
#: an outside seat's name in the menu
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,23}$")
#: the outside agents this server offers (:func:`offer`), by menu key
_OUTSIDE: dict[str, SeatChoice] = {}


def offer(agents: Mapping[str, str]) -> None:
    """Offer these outside agents (menu name -> ``cmd:``/``ws:``/``llm:`` spec) in the seat
    menu, instead of any offered before (the server does, from its settings).
    :class:`UnknownGame` if a name is taken or malformed or a spec is not an outside one."""
    chosen: dict[str, SeatChoice] = {}
    for name, spec in agents.items():
        check_outside(name, spec)
        about = f"an agent outside the server: {spec.partition(':')[0].lower()}"
        chosen[name] = SeatChoice(name, spec.strip(), name, about)
    _OUTSIDE.clear()
    _OUTSIDE.update(chosen)


def check_outside(name: str, spec: str) -> None:
    """:class:`UnknownGame` saying why ``name`` cannot offer ``spec`` in the menu."""
    if not _NAME.match(name):
        raise UnknownGame(
            f"a seat's name is 1-24 lower-case letters, digits and dashes, not {name!r}"
        )
    if name in BY_KEY or name == JOINED:
        raise UnknownGame(f"the seat name {name!r} is one of the menu's own")
    if not is_outside(spec):
        forms = "cmd:PATH [ARGS], ws:URL or llm:MODEL@BASE_URL"
        raise UnknownGame(f"seat {name}: {spec!r} is not an outside agent ({forms})")


def outside() -> dict[str, str]:
    """The outside agents this server offers: name -> spec."""
    return {name: c.spec for name, c in _OUTSIDE.items()}


def choices() -> tuple[SeatChoice, ...]:
    """The seat menu: people, the bots, this server's outside agents, the open seat."""
    return (*CHOICES[:-1], *_OUTSIDE.values(), CHOICES[-1])


def spec_of(key: str) -> str:
    """The spec stored for a seat chosen in the form (:class:`UnknownGame` if unknown)."""
    choice = next((c for c in choices() if c.key == key), None)
    if choice is None:
        known = ", ".join(c.key for c in choices())
        raise UnknownGame(f"no seat kind {key!r} (choose one of: {known})")
    return choice.spec


def label(spec: str) -> str:
    """The name players read for a stored seat spec (``mcts:200`` is "mcts (quick)"; an
    outside agent's, the name the server gives it)."""
    found = _LABELS.get(spec)
    if found is not None:
        return found
    outside = next((c for c in _OUTSIDE.values() if c.spec == spec), None)
    if outside is not None:
        return outside.label
    return UNOFFERED if is_outside(spec) else spec


#: an outside agent's seat once the server no longer offers it: its spec (a path, an address,
#: a key's name) is the operator's, never shown to players
UNOFFERED = "an agent outside the server"


def saved(spec: str) -> str:
    """How a save file names a seat: as stored, but an agent outside the server by its name
    in this server's menu (:data:`UNOFFERED` once it is not offered): its spec is the
    operator's. Uploaded to a server offering that name, the file seats that agent again."""
    if not is_outside(spec):
        return spec
    return next((name for name, c in _OUTSIDE.items() if c.spec == spec), UNOFFERED)


def kind(spec: str) -> str:
    """What plays a seat by its stored spec: ``person``, ``bot`` or ``open`` (a bot holding a
    person's seat for a while does not change it: that is the payload's ``held``)."""
    if spec in PEOPLE:
        return "person"
    return "open" if spec == OPEN else "bot"


def check_spec(spec: str) -> str:
    """A seat of an uploaded save file, normalised, if this server seats it: a person, a bot
    of the menu, or an outside agent the server offers (by its menu name, or its spec).
    :class:`UnknownGame` otherwise: a file may name any bot, and ``mcts:10000000`` would hold
    a worker (the bots of every game) for hours, and a program only the server's operator may
    name."""
    offered = _OUTSIDE.get(spec.strip())  # by its name in the menu (a save file's)
    if offered is not None:
        return offered.spec
    if any(c.spec == spec.strip() for c in _OUTSIDE.values()):
        return spec.strip()
    spec = spec.strip().lower()
    if spec not in _LABELS or spec == JOINED:
        known = ", ".join(c.spec for c in CHOICES)
        raise UnknownGame(
            f"the file seats {spec[:40]!r}, not one of this server's seats ({known}): "
            "give the seats"
        )
    return spec


def bot_spec(key: str) -> str:
    """The spec of a bot chosen by its menu key (``greedy``, ``mcts-quick``):
    :class:`UnknownGame` if it names no bot."""
    found = next((c for c in BOTS if c.key == key), None)
    if found is None:
        raise UnknownGame(f"no bot {key!r} (choose one of: {', '.join(c.key for c in BOTS)})")
    return found.spec
