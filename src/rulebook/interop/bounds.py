"""The bounds OpenSpiel's ``GameInfo`` needs, per configuration, from ``data/bounds.toml``.

OpenSpiel asks every game for the longest game (decisions), the most chance outcomes of one
chance node, the most chance nodes in a game and the range of the returns. The rulebooks bound
none of these directly, so they are measured: :func:`measure` plays seeded games with random and
greedy moves through the same scripted chance as the OpenSpiel adapter and records the largest
values seen; ``benchmarks/interop_bounds.py`` writes twice those (scores: twice the largest
magnitude) into the data file, each entry marked authored with its reason. The conformance
tests check that no game goes past them.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rulebook.core.chance import ScriptedChance, scripted
from rulebook.core.errors import RulebookError
from rulebook.core.policy import greedy_move, random_move
from rulebook.interop.common import Config

_FIELDS = ("max_game_length", "max_chance_outcomes", "max_chance_nodes", "min_score", "max_score")


@dataclass(frozen=True)
class Bounds:
    """What a configuration never exceeds (see the module docstring)."""

    max_game_length: int
    max_chance_outcomes: int
    max_chance_nodes: int
    min_score: int
    max_score: int


@cache
def _table() -> dict[str, Any]:
    text = resources.files("rulebook.interop").joinpath("data/bounds.toml").read_text("utf-8")
    return tomllib.loads(text)


def bounds(config: Config) -> Bounds:
    """The recorded bounds of ``config``; :class:`RulebookError` if it has none or they are
    malformed (each must be authored, with a reason)."""
    entry = _table().get(config.name)
    if not isinstance(entry, dict):
        raise RulebookError(f"interop/data/bounds.toml has no entry for {config.name}")
    if entry.get("source") != "authored" or not str(entry.get("reason", "")).strip():
        raise RulebookError(f"bounds of {config.name} must be marked authored, with a reason")
    values = {}
    for name in _FIELDS:
        value = entry.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulebookError(f"bounds of {config.name}: {name} must be a whole number")
        values[name] = value
    if values["max_game_length"] < 1 or values["max_chance_outcomes"] < 1:
        raise RulebookError(f"bounds of {config.name}: lengths must be positive")
    if values["min_score"] > values["max_score"]:
        raise RulebookError(f"bounds of {config.name}: min_score is above max_score")
    return Bounds(**values)


@dataclass
class Measured:
    """The largest values seen over some games of a configuration."""

    game_length: int = 0
    chance_outcomes: int = 0
    chance_nodes: int = 0
    min_score: int = 0
    max_score: int = 0

    def add(self, other: Measured) -> None:
        self.game_length = max(self.game_length, other.game_length)
        self.chance_outcomes = max(self.chance_outcomes, other.chance_outcomes)
        self.chance_nodes = max(self.chance_nodes, other.chance_nodes)
        self.min_score = min(self.min_score, other.min_score)
        self.max_score = max(self.max_score, other.max_score)


def play_scripted(config: Config, seed: int, greedy: bool) -> Measured:
    """One game of ``config`` with every chance draw made at random from ``seed`` (as the
    OpenSpiel adapter's chance nodes make them) and random (or greedy) moves; what it needed."""
    rng = random.Random(seed)
    chance = _Drawing(rng)
    with scripted(chance):
        state = config.new_game(0)
    policy = greedy_move if greedy else random_move
    moves = 0
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply(p, policy(state, p, rng))
        moves += 1
    scores = state.scores()
    return Measured(
        moves, max(chance.sizes, default=0), len(chance.sizes), min(scores), max(scores)
    )


class _Drawing(ScriptedChance):
    """A scripted chance that draws every outcome itself, uniformly, and records the sizes."""

    __slots__ = ("_rng",)

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self._rng = rng

    def draw(self, n: int) -> int:
        self.sizes.append(n)
        return self._rng.randrange(n)

    def copy(self) -> ScriptedChance:
        """A copy for a clone (a bot's lookahead): its own generator and its own record, so
        only the game's own draws are counted."""
        return _Drawing(random.Random(self._rng.getrandbits(64)))


def measure(config: Config, games: int, greedy_games: int, seed: int = 0) -> Measured:
    """The largest values over ``games`` random and ``greedy_games`` greedy games."""
    total = Measured()
    for i in range(games + greedy_games):
        total.add(play_scripted(config, seed + i, greedy=i >= games))
    return total
