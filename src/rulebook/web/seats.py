"""Who may sit in a seat of a web game: a person, or one of the bots at a named strength.

Seats are stored as the agents' specs (:func:`rulebook.agents.make_agent`), the same words the
terminal and save files use (``human``, ``greedy``, ``mcts:200``), and shown to players by name.
"""

from __future__ import annotations

from dataclasses import dataclass

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
BY_KEY = {c.key: c for c in CHOICES}
_LABELS = {c.spec: c.label for c in CHOICES} | {JOINED: "human"}
#: the bots a seat may be handed to (the expert plays only where it was trained: not one to
#: hand any seat to)
BOTS = tuple(c for c in CHOICES if c.spec not in (HUMAN, OPEN, "expert"))
#: the seat kinds that need trained weights for the configuration
LEARNED = frozenset({"expert"})


def spec_of(key: str) -> str:
    """The spec stored for a seat chosen in the form (:class:`UnknownGame` if unknown)."""
    choice = BY_KEY.get(key)
    if choice is None:
        known = ", ".join(BY_KEY)
        raise UnknownGame(f"no seat kind {key!r} (choose one of: {known})")
    return choice.spec


def label(spec: str) -> str:
    """The name players read for a stored seat spec (``mcts:200`` is "mcts (quick)")."""
    return _LABELS.get(spec, spec)


def kind(spec: str) -> str:
    """What plays a seat by its stored spec: ``person``, ``bot`` or ``open`` (a bot holding a
    person's seat for a while does not change it: that is the payload's ``held``)."""
    if spec in PEOPLE:
        return "person"
    return "open" if spec == OPEN else "bot"


def check_spec(spec: str) -> str:
    """A seat of an uploaded save file, normalised, if this server seats it: a person or a bot
    of the menu. :class:`UnknownGame` otherwise: a file may name any bot, and ``mcts:10000000``
    would hold a worker (the bots of every game) for hours."""
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
