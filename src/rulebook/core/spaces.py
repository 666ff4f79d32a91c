"""Fixed spaces for learning agents: every game's moves as a fixed vocabulary with stable
indices, the legal-action mask, and each seat's observation as a fixed-shape tensor.

Like OpenSpiel's ``num_distinct_actions`` and ``observation_tensor``, both are fixed per game,
variant, player count and options (never per seed or position), so a network's input and output
layers fit every game of a configuration.

* :class:`ActionSpace` numbers :meth:`State.action_vocabulary` (a game's every move, legal now or
  not) in its declared order: index ``i`` is always the same move in a configuration.
* :class:`ObservationEncoder` is what a game package supplies (``Game.encoder``): it turns
  ``state.observation(p)`` (only what seat ``p`` may see) into a NumPy vector of fixed shape and
  dtype, and documents what each slice means (:meth:`ObservationEncoder.slices`). An encoder
  reads the observation only, so the tensor can never hold what the seat may not see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rulebook.core.errors import IllegalAction, UnknownGame
from rulebook.core.registry import get_game

if TYPE_CHECKING:
    from rulebook.core.game import Setup
    from rulebook.core.state import Action, State


@dataclass(frozen=True)
class Slice:
    """A named part of an observation tensor: ``tensor[start:stop]`` holds ``meaning``."""

    name: str
    start: int
    stop: int
    meaning: str


class ObservationEncoder(ABC):
    """One game configuration's observation tensor: a fixed shape and dtype, built from
    ``observation(p)`` alone (see the module docstring)."""

    #: the tensor's shape, the same for every seat and every position of the configuration
    shape: tuple[int, ...]
    dtype: npt.DTypeLike = np.float32

    @abstractmethod
    def encode(self, observation: Mapping[str, Any]) -> npt.NDArray[Any]:
        """The tensor of one seat's observation (``state.observation(p)``)."""

    @abstractmethod
    def slices(self) -> Sequence[Slice]:
        """What each part of the (flattened) tensor means, in order, covering all of it."""


class ActionSpace:
    """A configuration's moves numbered ``0 .. size-1`` (its action vocabulary, in order)."""

    def __init__(self, vocabulary: Sequence[Action]) -> None:
        if not vocabulary:
            raise UnknownGame("this game has no action vocabulary")
        self.vocabulary: tuple[Action, ...] = tuple(vocabulary)
        self._index: dict[Action, int] = {}
        for i, action in enumerate(self.vocabulary):
            if action in self._index:
                raise ValueError(f"the action vocabulary lists {action} twice")
            self._index[action] = i

    @property
    def size(self) -> int:
        return len(self.vocabulary)

    def index(self, action: Action) -> int:
        """The stable index of ``action``; :class:`IllegalAction` if it is not in the vocabulary."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise IllegalAction(f"{action!r} is not in the action vocabulary") from None

    def action(self, index: int) -> Action:
        """The move numbered ``index``; :class:`IllegalAction` if there is none."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise IllegalAction(f"an action index must be a whole number, not {index!r}")
        if not 0 <= index < self.size:
            raise IllegalAction(f"no action {index}: indices are 0-{self.size - 1}")
        return self.vocabulary[int(index)]

    def legal_indices(self, state: State, player: int) -> list[int]:
        """The indices of ``player``'s legal moves now, in the order the state lists them."""
        return [self.index(a) for a in state.legal_actions(player)]

    def mask(self, state: State, player: int) -> npt.NDArray[np.int8]:
        """1 for each index that is a legal move of ``player`` now, 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.legal_indices(state, player)] = 1
        return mask


def action_space(state: State) -> ActionSpace:
    """The action space of ``state``'s configuration (game, variant, players, options)."""
    return ActionSpace(state.action_vocabulary())


def encoder(setup: Setup) -> ObservationEncoder:
    """The observation encoder of a configuration (its game's ``Game.encoder``)."""
    game = get_game(setup.game)
    if game.encoder is None:
        raise UnknownGame(f"{game.title} has no observation encoder")
    return game.encoder(setup)


def observation_tensor(state: State, player: int) -> npt.NDArray[Any]:
    """Seat ``player``'s observation as its configuration's fixed-shape tensor."""
    return encoder(state.setup).encode(state.observation(player))
