"""The expert bot: the information-set search of :mod:`rulebook.agents.mcts`, unchanged in how
it sees the game, judging the positions where it stops with a value learned from self-play
(:mod:`rulebook.agents.value`, trained by ``rulebook train``) instead of the game's hand-written
``evaluate``.

At a leaf the value net reads each seat's observation tensor (:mod:`rulebook.core.spaces`: what
that seat may see, nothing else) and predicts its final margin; a finished game scores its true
margins. The search itself samples what the deciding seat cannot see from that seat's
information set (``State.determinize``), so the decision depends on the seat's view only.

Weights ship with the package, one file per game, variant and player count in
``rulebook/agents/weights/`` (``merchants-of-magick-standard-2p.npz``, beside a ``.toml`` naming
the command, seed and code version that made it). They are read on the first decision in a game;
a configuration without weights raises :class:`NoWeights`, which says how to train them.
``RULEBOOK_EXPERT_WEIGHTS=DIR`` makes the bot read another folder (``rulebook train`` does, to
play its next round with the weights it just fitted).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from rulebook.agents.base import Agent
from rulebook.agents.mcts import DEFAULT_EXPLORATION, MCTSAgent, leaf_rewards
from rulebook.agents.value import ValueNet
from rulebook.core import Action, RulebookError, Setup, State
from rulebook.core.registry import get_game
from rulebook.core.spaces import ObservationEncoder, encoder

#: iterations of the default ``expert`` spec
DEFAULT_ITERATIONS = 400
#: the folder of the shipped weights
WEIGHTS = Path(__file__).resolve().parent / "weights"
#: the environment variable naming another folder of weights
WEIGHTS_ENV = "RULEBOOK_EXPERT_WEIGHTS"


class NoWeights(RulebookError):
    """The expert has no trained weights for a configuration (the message says how to train)."""


def weights_dir() -> Path:
    """Where the expert reads its weights: ``$RULEBOOK_EXPERT_WEIGHTS`` or the package's."""
    other = os.environ.get(WEIGHTS_ENV)
    return Path(other) if other else WEIGHTS


def weights_name(setup: Setup) -> str:
    """The file name (without suffix) of a configuration's weights."""
    return f"{setup.game}-{setup.variant}-{setup.players}p"


def weights_path(setup: Setup) -> Path:
    return weights_dir() / f"{weights_name(setup)}.npz"


def has_weights(setup: Setup) -> bool:
    """Whether the expert can play this configuration (its weights are there)."""
    return weights_path(setup).is_file()


def trained() -> frozenset[str]:
    """The configurations (:func:`weights_name`) the expert has weights for."""
    folder = weights_dir()
    return frozenset(p.stem for p in folder.glob("*.npz")) if folder.is_dir() else frozenset()


def check_trained(specs: Iterable[str], setup: Setup) -> None:
    """:class:`NoWeights` (saying how to train them) if any of the agent ``specs`` is the
    expert and the configuration has no weights: checked before any game starts."""
    if any(spec.strip().lower().partition(":")[0] == "expert" for spec in specs):
        net_for(setup)


def train_command(setup: Setup) -> str:
    return f"rulebook train {setup.game} --players {setup.players} --variant {setup.variant}"


def net_for(setup: Setup) -> ValueNet:
    """The value net of a configuration, read once per file; :class:`NoWeights` if none."""
    path = weights_path(setup)
    if not path.is_file():
        title = get_game(setup.game).title
        raise NoWeights(
            f"the expert bot has not been trained for {title} ({setup.variant}, "
            f"{setup.players} {'player' if setup.players == 1 else 'players'}): no "
            f"{path.name} in {path.parent}; train it with `{train_command(setup)}`, or "
            "choose another bot"
        )
    return _read(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _read(path: str, _mtime: int) -> ValueNet:
    return ValueNet.load(Path(path))


def final_margins(state: State) -> list[float]:
    """Each seat's final score minus the best other seat's; a solo seat's share of the win.
    What the value net learns to predict."""
    n = state.num_players
    if n == 1:
        return state.returns()
    scores = state.scores()
    out = []
    for p in range(n):
        best = max(s for q, s in enumerate(scores) if q != p)
        out.append(float(scores[p] - best))
    return out


class Judge:
    """The leaf evaluation of one configuration: every seat's observation tensor in one batch
    through the net; a finished game's true margins."""

    def __init__(self, setup: Setup) -> None:
        self.net = net_for(setup)
        self.encoder: ObservationEncoder = encoder(setup)
        size = int(np.prod(self.encoder.shape))
        if size != self.net.inputs:
            raise NoWeights(
                f"the expert's weights {weights_path(setup).name} were trained on observations "
                f"of {self.net.inputs} values, and this version's have {size}: retrain them "
                f"with `{train_command(setup)}`"
            )
        self.rows = np.zeros((setup.players, size), np.float32)

    def __call__(self, state: State) -> list[float]:
        if state.is_terminal():
            return final_margins(state)
        rows = self.rows
        for p in range(len(rows)):
            rows[p] = self.encoder.encode_state(state, p).reshape(-1)
        base = leaf_rewards(state)
        return [b + float(v) for b, v in zip(base, self.net.values(rows), strict=True)]


class ExpertAgent(Agent):
    """ISMCTS with the learned value at its leaves (no rollout past the tree); budget by
    ``iterations`` or by ``seconds`` per move, as ``mcts``."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
    ) -> None:
        super().__init__(seed)
        self.search = MCTSAgent(seed, iterations, seconds, cutoff=0, exploration=exploration)
        self._judges: dict[str, Judge] = {}

    def judge(self, state: State) -> Judge:
        key = weights_name(state.setup)
        found = self._judges.get(key)
        if found is None:
            found = self._judges[key] = Judge(state.setup)
        return found

    def act(self, state: State, player: int) -> Action:
        """The search's move, from the seat's information alone: it starts from the position
        with all the seat cannot see in one fixed order (:meth:`State.canonical`) and re-samples
        it from there, so two positions the seat cannot tell apart get the same decision."""
        self.search.leaf = self.judge(state)
        return self.search.act(state.canonical(player), player)

    @property
    def last_value(self) -> float:
        """The chosen move's mean value (points of margin) in the last decision's search."""
        return self.search.last_value

    @property
    def last_iterations(self) -> int:
        return self.search.last_iterations
