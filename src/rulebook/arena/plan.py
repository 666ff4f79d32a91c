"""What a tournament plays: its :class:`Plan` (agents, games, seat counts, tables, seed, the
outside agents' policy) and the tables drawn from it, each with its game, seats and seed.

The draw: for each game and seat count, the *line-ups* (which agents sit together) are every
group of that many agents, so that every agent meets every other at every seat count; with
fewer agents than seats, each agent in turn takes the extra seats (agents cycled from it).
Each line-up is played at ``tables`` tables, one seat order each, going round its
*rotation*: every order of its agents for up to three seats; from four seats on, the line-up
turned one seat at a time, then reversed and turned again (each agent sits in every seat, with
each neighbour on either side). The default ``tables`` is one whole rotation.

Tables are numbered round by round (round ``k``: the ``k``-th table of every line-up of every
game and seat count), and table ``i`` is seeded ``seed + i`` (its agents by
:func:`rulebook.agents.agent_seed`): more tables extend a tournament without changing the
tables already played, and the results never depend on the workers or on interruptions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rulebook.agents import is_outside
from rulebook.agents.protocol import PolicyChanges
from rulebook.core import RulebookError, get_game
from rulebook.core.words import plural

#: the seat counts of a game when none are given: two players, and four
DEFAULT_PLAYERS = (2, 4)
#: the agents of the bot ladder, weakest first (a rating is anchored on the weakest present)
LADDER = ("random", "greedy", "mcts", "expert")


class PlanError(RulebookError):
    """A plan that cannot be played (one line, before any game)."""


def canonical_spec(spec: str) -> str:
    """A seat spec as the arena names its agent: built-in bots in lower case, outside agents
    (``cmd:``, ``ws:``, ``llm:``) as given (paths and URLs are case-sensitive)."""
    text = spec.strip()
    return text if is_outside(text) else text.lower().replace(" ", "")


def ladder_rank(spec: str) -> int | None:
    """Where a spec's agent stands on the bot ladder (0: random), None for any other agent."""
    kind = spec.partition(":")[0]
    return LADDER.index(kind) if kind in LADDER else None


@dataclass(frozen=True)
class Table:
    """One game of the tournament."""

    index: int
    game: str
    players: int
    variant: str
    #: the agent of each seat
    seats: tuple[str, ...]
    seed: int
    #: the table's changes to the outside agents' policy (None: each agent's own)
    policy: PolicyChanges | None = None


@dataclass(frozen=True)
class Plan:
    """A tournament: who plays, what, at how many seats, how often, from which seed."""

    agents: tuple[str, ...]
    games: tuple[str, ...]
    #: the seat counts of each game, in the order of ``games``
    players: tuple[tuple[int, ...], ...]
    #: tables per line-up (0: one whole rotation of each line-up)
    tables: int
    seed: int
    #: the outside agents' policy (``--retries``...; None: each agent's own, and always None
    #: without outside agents: bots play alike under any)
    policy: PolicyChanges | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["games"] = list(self.games)
        data["players"] = [list(p) for p in self.players]
        data["policy"] = None if self.policy is None else self.policy.given()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        policy = data.get("policy")  # (a plan written before the policy was kept has none)
        return cls(
            tuple(data["agents"]),
            tuple(data["games"]),
            tuple(tuple(int(n) for n in p) for p in data["players"]),
            int(data["tables"]),
            int(data["seed"]),
            None if policy is None else PolicyChanges.from_given(policy),
        )

    def same_tournament(self, other: Plan) -> bool:
        """Whether ``other`` plays the same tables, perhaps more or fewer of them, under the
        same policy."""
        return (self.agents, self.games, self.players, self.seed, self.policy) == (
            other.agents,
            other.games,
            other.players,
            other.seed,
            other.policy,
        )

    def describe(self) -> str:
        counts = "; ".join(
            f"{g} at {'/'.join(map(str, p))}" for g, p in zip(self.games, self.players, strict=True)
        )
        policy = "" if self.policy is None else f"; outside agents: {self.policy.describe()}"
        return f"{', '.join(self.agents)}; {counts}; seed {self.seed}{policy}"

    def draw(self) -> list[Table]:
        """Every table of the tournament, in the order they are numbered."""
        settings = []
        for game, counts in zip(self.games, self.players, strict=True):
            found = get_game(game)
            for n in counts:
                variant = found.default_variant(n)
                settings += [(game, n, variant, lineup) for lineup in lineups(self.agents, n)]
        rounds = self.tables or max(len(rotation(s[3])) for s in settings)
        tables: list[Table] = []
        for k in range(rounds):
            for game, n, variant, lineup in settings:
                orders = rotation(lineup)
                if self.tables == 0 and k >= len(orders):
                    continue  # the default: one whole rotation of each line-up
                i = len(tables)
                order = orders[k % len(orders)]
                tables.append(Table(i, game, n, variant, order, self.seed + i, self.policy))
        return tables


def lineups(agents: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The groups of agents that sit together at ``seats`` seats (see the module docstring)."""
    if seats <= len(agents):
        return list(itertools.combinations(agents, seats))
    k = len(agents)
    cycled = [tuple(agents[(i + j) % k] for j in range(seats)) for i in range(k)]
    return list({tuple(sorted(c)): c for c in reversed(cycled)}.values())[::-1]


def rotation(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The seat orders a line-up is played in, in turn (see the module docstring)."""
    n = len(lineup)
    if n <= 3:
        orders = list(itertools.permutations(lineup))
    else:
        back = lineup[::-1]
        orders = [lineup[i:] + lineup[:i] for i in range(n)]
        orders += [back[i:] + back[:i] for i in range(n)]
    return list(dict.fromkeys(orders))  # the same agent twice: some orders coincide


def make_plan(
    agents: Sequence[str],
    games: Sequence[str],
    players: Sequence[int] | None,
    tables: int | None,
    seed: int,
    policy: PolicyChanges | None = None,
) -> Plan:
    """Check a tournament and fill in its defaults: :class:`PlanError` in one line if it cannot
    be played (fewer than two agents, one named twice, a game without a variant for two or more
    seats, a seat count that fits none of the games, fewer than one table). The ``policy`` is
    kept only where an agent is an outside one."""
    specs = [canonical_spec(a) for a in agents]
    if len(specs) < 2:
        raise PlanError(f"an arena needs at least 2 agents, not {len(specs)}")
    twice = sorted({s for s in specs if specs.count(s) > 1})
    if twice:
        raise PlanError(f"--agents names {', '.join(twice)} more than once")
    if not games:
        raise PlanError("an arena needs at least one game")
    if len(set(games)) < len(games):
        raise PlanError("--games names a game more than once")
    if tables is not None and tables < 1:
        raise PlanError(f"--tables must be at least 1, not {tables}")
    if players is not None and any(n < 2 for n in players):
        raise PlanError(f"--players: an arena's tables have 2 seats or more, not {min(players)}")
    counts: list[tuple[int, ...]] = []
    for name in games:
        game = get_game(name)
        seats = [
            n
            for v in game.variants
            for n in range(max(2, v.min_players), v.max_players + 1)
            if v.max_players >= 2
        ]
        if not seats:
            raise PlanError(f"{game.title} is played solo only: no arena at its tables")
        low, high = min(seats), max(seats)
        if players is None:
            chosen = sorted({min(max(n, low), high) for n in DEFAULT_PLAYERS})
        else:
            chosen = sorted({n for n in players if n in seats})
        if not chosen:
            raise PlanError(
                f"{game.title} takes {low}-{high} players at its tables, not "
                f"{'/'.join(map(str, players or ()))}"
            )
        counts.append(tuple(chosen))
    if players is not None:
        unused = sorted({n for n in players if all(n not in c for c in counts)})
        if unused:
            raise PlanError(f"no game of the arena is played by {plural(unused[0], 'player')}")
    if not any(is_outside(s) for s in specs):
        policy = None
    return Plan(tuple(specs), tuple(games), tuple(counts), tables or 0, seed, policy)
