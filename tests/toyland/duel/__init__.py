"""Coin duel: a two-seat test game whose data sets a faction's chance to win.

Each seat is dealt a faction, Heads or Tails, from the seed; seat 0 flips once; the Heads seat
wins with the probability ``coin.heads`` of ``data/duel.toml``. The even value is 0.5: what
``rulebook tune`` must find (``tests/test_tune.py``, which registers it for its tests only).
``coin.ribbon`` changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rulebook.core import Action, Game, IllegalAction, Setup, State, Variant
from rulebook.core.data import Sourced, Strict, cached, load


class Coin(Sourced):
    heads: float
    ribbon: int


class DuelFile(Strict):
    coin: Coin


@cached
def coin() -> Coin:
    """The coin of the data file (with the data override in force, if any)."""
    return load(DuelFile, "toyland.duel.data", "duel.toml").coin


class Flip(Action):
    __slots__ = ()

    def __str__(self) -> str:
        return "flip"


FLIP = Flip()


class DuelState(State):
    def __init__(self, game: Game, setup: Setup) -> None:
        super().__init__(game, setup)
        self.coin = coin()
        self.heads_seat = self.chance.rng().randrange(2)
        self.winner: int | None = None

    def current_players(self) -> Sequence[int]:
        return [] if self.winner is not None else [0]

    def legal_actions(self, player: int) -> list[Action]:
        return [FLIP] if player in self.current_players() else []

    def _apply(self, player: int, action: Action) -> None:
        heads_wins = self.chance.rng().random() < self.coin.heads
        self.winner = self.heads_seat if heads_wins else 1 - self.heads_seat

    def parse_action(self, player: int, text: str) -> Action:
        if text.strip().lower() != "flip":
            raise IllegalAction(f"{text!r} is not a move; the only move is flip")
        return FLIP

    def is_terminal(self) -> bool:
        return self.winner is not None

    def scores(self) -> list[int]:
        return [int(p == self.winner) for p in range(2)]

    def score_breakdown(self, player: int) -> dict[str, int]:
        return {"won": self.scores()[player]}

    def tiebreak(self, player: int) -> tuple[int, ...]:
        return ()

    def observation(self, player: int) -> dict[str, Any]:
        return {"heads_seat": self.heads_seat, "winner": self.winner}

    def public_observation(self) -> dict[str, Any]:
        return {**self.observation(0), "you": None}

    def clone(self) -> DuelState:
        other = DuelState.__new__(DuelState)
        self._copy_base(other)
        other.coin, other.heads_seat, other.winner = self.coin, self.heads_seat, self.winner
        return other

    def _resample_hidden(self, player: int, rng: random.Random | None) -> None:
        return None

    def snapshot(self) -> dict[str, Any]:
        return self.observation(0)


def faction(state: State, seat: int) -> str:
    assert isinstance(state, DuelState)
    return "Heads" if seat == state.heads_seat else "Tails"


def counters(state: State, seat: int) -> Mapping[str, float]:
    return {"flips": float(len(state.history))}


#: registered only while a test needs it (``tests/test_tune.py``), so that the tests that
#: cover every registered game do not meet it
DUEL = Game(
    name="coin-duel",
    title="Coin duel",
    rulebook="tests",
    variants=(Variant("standard", 2, 2),),
    create=lambda setup: DuelState(DUEL, setup),
    evaluate=lambda state, seat: float(state.scores()[seat]),
    faction=faction,
    counters=counters,
    common_players=2,
)
