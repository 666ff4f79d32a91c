"""Every game as an OpenSpiel Python game (``pip install 'rulebook[rl]'``).

    import pyspiel
    import rulebook.interop.openspiel  # registers python_rulebook_merchants_of_magick, ...

    game = pyspiel.load_game("python_rulebook_merchants_of_magick", {"players": 4})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(np.random.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(np.random.choice(state.legal_actions())))

Game type (the same for the five games)
    * Dynamics ``SEQUENTIAL``: simultaneous phases (the roll-and-writes' crafting) are played one
      seat after another, the lowest seat still to act first, each seat seeing the others as
      they were when the phase began; so the games are of ``IMPERFECT_INFORMATION``, as are
      hidden hands and decks.
    * Chance ``EXPLICIT_STOCHASTIC``: every die and every shuffle is drawn at chance nodes (see
      below); the engine's seed plays no part.
    * Utility: with ``reward="win"`` (the default with two or more players) each seat's return
      is its share of the win, ``CONSTANT_SUM`` with sum 1 in [0, 1]; ``"margin"`` (score less
      the best other score) and ``"score"`` (the default in solo games) are ``GENERAL_SUM``
      within the recorded score bounds (:mod:`rulebook.interop.bounds`).
    * Reward model ``TERMINAL``: returns come at the end of the game.

Parameters: ``players``, ``variant`` (default: the game's for that count), ``options`` (setup
options as ``name:value``, several joined by ``;``, a ``,`` in a value written ``+``:
``level:expert``, ``magi:water+fire``) and ``reward``.

Chance nodes
    The engine draws every chance event through :class:`rulebook.core.chance.Chance`; each is
    a sequence of uniform draws among ``n`` outcomes: a die of ``s`` sides is one draw among
    ``s`` (outcome ``k`` shows ``k + 1``), a shuffle of ``m`` cards is ``m - 1`` draws
    (Fisher-Yates: the card that goes to position ``m - 1``, then ``m - 2``...). Each draw is
    one chance node with ``n`` equally likely outcomes ``0 .. n-1``. The setup's shuffles are
    the first chance nodes; a move that rolls or shuffles (the end of a round, a reshuffle) is
    followed by its chance nodes. To do so without stopping the engine in the middle of a move,
    the adapter replays: the move is played on a copy with a
    :class:`~rulebook.core.chance.ScriptedChance` holding the outcomes chosen so far; when the
    script runs out the copy is dropped and the draw asked for becomes the chance node; with
    the outcome chosen, the move is played again from the start, one draw further. A game is
    so a function of its OpenSpiel history alone (which is what it serialises to).

Observations (through the Observer of :meth:`RulebookGame.make_py_observer`)
    * ``observation_tensor``: the seat's tensor from its game's encoder (``Game.encoder``),
      built from ``state.observation(p)`` alone; ``observation_string``: that observation as
      JSON.
    * ``information_state_string``: the observation and every move as the seat learned of it:
      its own moves in full, the others' as they were announced to it (``State.announce``:
      a card taken from a face-down pile is not named), the moves of a simultaneous phase
      still under way only once it ends. What the seat saw of chance (cards it drew, dice) is
      in the observation of the moment, not recalled move by move.
    * ``information_state_tensor``: the same, of fixed size: the observation tensor, then one
      slot per move up to ``max_game_length`` (:class:`MoveRecord`: the mover relative to the
      seat, whether the move was announced without its detail, its index in binary).
      ``rl_environment`` uses it as ``info_state`` (:func:`environment` warns when told to
      use the observation instead).
    * At a chance node the seats see the position before the move whose chance is being drawn
      (during the setup's deal, nothing yet).

ISMCTS: :meth:`RulebookState.resample_from_infostate` re-samples what the seat cannot see with
the engine's ``determinize`` (seeded from OpenSpiel's probability sampler), so OpenSpiel's
Python ``ISMCTSBot`` plays by ``bot.step(state)``; ``evaluate_bots`` also calls ``restart_at``,
which that bot lacks: :class:`ISMCTSBot` is the same bot with it. :func:`resampler` is the same
re-sampling for ``ISMCTSBot.set_resampler``. Tabular CFR cannot finish an iteration on these
trees (:func:`tree_size`; ``docs/research.md``).
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rulebook
from rulebook.agents.mcts import leaf_rewards
from rulebook.core import Action, State, UnknownGame, get_game
from rulebook.core.chance import ChanceNeeded, ScriptedChance, scripted
from rulebook.interop.bounds import Bounds, bounds
from rulebook.interop.common import Config, Table, default_reward

#: OpenSpiel's short name of each game: ``python_rulebook_`` and the game's name
PREFIX = "python_rulebook_"


def short_name(game: str) -> str:
    return PREFIX + game.replace("-", "_")


def _parse_options(text: str) -> dict[str, str]:
    """Setup options from OpenSpiel's ``options`` parameter: ``name:value`` pairs joined by
    ``;``, a ``,`` inside a value written ``+`` (OpenSpiel's parameters cannot hold ``=`` or
    ``,``): ``magi:water+fire``."""
    options = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = part.partition(":")
        if not sep or not name.strip() or not value.strip():
            raise UnknownGame(f"options are name:value pairs joined by ';', not {text!r}")
        options[name.strip()] = value.strip().replace("+", ",")
    return options


def options_parameter(options: dict[str, str]) -> str:
    """The ``options`` parameter of a game's setup options (the inverse of the parsing)."""
    return ";".join(f"{k}:{v.replace(',', '+')}" for k, v in sorted(options.items()))


@dataclass
class _Move:
    """One move of the game's log as each seat learned of it."""

    seat: int
    text: str  # as the mover knows it
    announced: str  # as the other seats learn of it
    index: int  # its action index

    @property
    def hidden(self) -> bool:
        """Whether the other seats learn of it without its detail (a card from a face-down
        pile)."""
        return self.announced != self.text


class _Node:
    """The adapter's own part of an OpenSpiel state (kept in one attribute so that OpenSpiel's
    clone, a deep copy of the Python attributes, copies it with the engine's cheap ``clone``;
    pickled as its OpenSpiel history and rebuilt by replaying it)."""

    __slots__ = ("actions", "log", "need", "outcomes", "pending", "spec", "state")

    def __init__(self, spec: _Spec) -> None:
        self.spec = spec
        #: the game; at a chance node, the game before the move whose chance is drawn; None
        #: while the setup is dealt
        self.state: State | None = None
        self.pending: tuple[int, Action] | None = None
        #: the outcomes drawn so far for the pending move (or the setup)
        self.outcomes: list[int] = []
        #: outcomes of the next chance draw; 0 at a decision node; -1 not yet worked out
        self.need = -1
        self.log: list[_Move] = []
        #: the OpenSpiel history: every action (chance outcome or move index) applied
        self.actions: list[int] = []

    def __getstate__(self) -> dict[str, Any]:
        """The configuration and the history: a game is a function of its history."""
        return {"config": self.spec.config, "reward": self.spec.reward, "actions": self.actions}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__init__(_spec(saved["config"], saved["reward"]))  # type: ignore[misc]
        for action in saved["actions"]:
            self.settle()
            if self.need > 0:
                self.chance(action)
            else:
                assert self.state is not None
                self.move(self.state.current_players()[0], action)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        node = _Node(self.spec)
        node.state = None if self.state is None else self.state.clone()
        node.pending = self.pending
        node.outcomes = self.outcomes.copy()
        node.need = self.need
        node.log = self.log.copy()
        node.actions = self.actions.copy()
        return node

    # -- advancing ----------------------------------------------------------------------------
    def settle(self) -> None:
        """Play the pending move (or the setup) with the outcomes drawn so far: done, or the
        size of the next draw it needs."""
        if self.need >= 0:
            return
        chance = ScriptedChance(self.outcomes)
        try:
            if self.state is None:
                with scripted(chance):
                    state = self.spec.config.new_game(0)
            else:
                assert self.pending is not None
                state = self.state.clone()
                state.chance = chance
                state.apply(*self.pending)
        except ChanceNeeded as need:
            if need.outcomes > self.spec.bounds.max_chance_outcomes:
                raise pyspiel.SpielError(
                    f"a chance draw among {need.outcomes} outcomes: more than the "
                    f"{self.spec.bounds.max_chance_outcomes} recorded in bounds.toml"
                ) from None
            self.need = need.outcomes
            return
        state.chance = ScriptedChance((), 0, chance.draws)
        self.state = state
        self.pending = None
        self.outcomes = []
        self.need = 0

    def chance(self, outcome: int) -> None:
        self.settle()
        if not 0 <= outcome < self.need:
            raise pyspiel.SpielError(f"chance outcome {outcome} is not one of 0-{self.need - 1}")
        self.outcomes.append(outcome)
        self.actions.append(outcome)
        self.need = -1
        self.settle()

    def move(self, player: int, index: int) -> None:
        state = self.state
        assert state is not None and self.need == 0
        action = self.spec.table.space.action(index)  # the move itself checks it is legal
        text = str(action)
        self.log.append(_Move(player, text, state.announce(player, action), index))
        self.actions.append(index)
        self.pending = (player, action)
        self.need = -1
        self.settle()

    # -- what seats see ------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any] | None:
        return None if self.state is None else self.state.observation(player)

    def known_moves(self, player: int) -> list[_Move]:
        """The moves ``player`` knows of, in the log's order: its own, and the others' but
        those of a simultaneous phase still under way."""
        if self.state is None:
            return []
        known = len(self.log) - self.state.pending_moves()
        return [m for i, m in enumerate(self.log) if i < known or m.seat == player]

    def info_state(self, player: int) -> str:
        """The seat's observation and the moves as it learned of them (module docstring)."""
        observation = self.observation(player)
        if observation is None:
            return f"seat {player}: the setup is being dealt"
        lines = [
            f"{m.seat}: {m.text if m.seat == player else m.announced}"
            for m in self.known_moves(player)
        ]
        return json.dumps(observation, sort_keys=True) + "\n" + "\n".join(lines)


class _Spec:
    """What every state of one loaded game shares: its configuration, spaces and bounds."""

    def __init__(self, config: Config, reward: str) -> None:
        self.config = config
        self.table = Table(config, reward)
        self.bounds: Bounds = bounds(config)
        self.reward = self.table.reward
        self.moves = MoveRecord(config.players, self.table.space.size, self.bounds.max_game_length)
        self.observation_size = int(np.prod(self.table.shape))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self


@cache
def _spec(config: Config, reward: str) -> _Spec:
    """The shared part of a loaded configuration (built once per process)."""
    return _Spec(config, reward)


def _game_type(game: str, utility: Any = pyspiel.GameType.Utility.CONSTANT_SUM) -> pyspiel.GameType:
    """The game's type for OpenSpiel: constant-sum for the share of the win, ``utility``
    general-sum for the score rewards."""
    g = get_game(game)
    low = min(v.min_players for v in g.variants)
    high = max(v.max_players for v in g.variants)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"rulebook {g.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": g.common_players or low,
            "variant": "",
            "options": "",
            "reward": "",
        },
    )


class RulebookGame(pyspiel.Game):  # type: ignore[misc]
    """One game configuration as an OpenSpiel game (module docstring); :func:`register`
    makes one subclass per game, naming it in :attr:`GAME`."""

    GAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.GAME
        params = dict(params or {})
        kind = _game_type(game)
        players = int(params.get("players", kind.parameter_specification["players"]))
        variant = str(params.get("variant", "")) or None
        options = _parse_options(str(params.get("options", "")))
        reward = str(params.get("reward", "")) or default_reward(players)
        spec = _spec(Config.of(game, players, variant, options), reward)
        b = spec.bounds
        if spec.reward == "win":
            low, high, total = 0.0, 1.0, 1.0
        else:
            kind = _game_type(game, pyspiel.GameType.Utility.GENERAL_SUM)
            total = None
            low, high = float(b.min_score), float(b.max_score)
            if spec.reward == "margin" and players > 1:
                low, high = low - high, high - low
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.table.space.size,
            max_chance_outcomes=b.max_chance_outcomes,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=b.max_game_length,
        )
        super().__init__(kind, info, params)

    @property
    def spec(self) -> _Spec:
        """The configuration's shared part (kept outside the game object: OpenSpiel may free
        a game after Python has shut down, when it must hold no Python objects)."""
        params = self.get_parameters()
        game = self.get_type().short_name[len(PREFIX) :].replace("_", "-")
        players = int(params["players"])
        config = Config.of(
            game, players, str(params["variant"]) or None, _parse_options(str(params["options"]))
        )
        return _spec(config, str(params["reward"]) or default_reward(players))

    def new_initial_state(self) -> RulebookState:
        return RulebookState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.spec.bounds.max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> RulebookObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RulebookObserver(self.spec, perfect_recall)


class RulebookState(pyspiel.State):  # type: ignore[misc]
    """A position of a game, chance nodes included (module docstring)."""

    def __init__(self, game: RulebookGame) -> None:
        super().__init__(game)
        self._node = _Node(game.spec)

    # -- OpenSpiel's API -----------------------------------------------------------------------
    def current_player(self) -> int:
        node = self._node
        node.settle()
        if node.need > 0:
            return int(pyspiel.PlayerId.CHANCE)
        assert node.state is not None
        if node.state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return node.state.current_players()[0]

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        node.settle()
        state = node.state
        if node.need or state is None or state.is_terminal():
            return []
        if player != state.current_players()[0]:
            return []
        return sorted(node.spec.table.space.legal_indices(state, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        node.settle()
        if node.need <= 0:
            return []
        return [(k, 1.0 / node.need) for k in range(node.need)]

    def _apply_action(self, action: int) -> None:
        node = self._node
        node.settle()
        if node.need > 0:
            node.chance(int(action))
        else:
            assert node.state is not None
            node.move(node.state.current_players()[0], int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return str(self._node.spec.table.space.action(int(action)))

    def is_terminal(self) -> bool:
        node = self._node
        node.settle()
        return node.need == 0 and node.state is not None and node.state.is_terminal()

    def returns(self) -> list[float]:
        node = self._node
        node.settle()
        if not self.is_terminal():
            return [0.0] * node.spec.config.players
        assert node.state is not None
        return [float(r) for r in node.spec.table.rewards(node.state)]

    def __str__(self) -> str:
        node = self._node
        node.settle()
        if node.state is None:
            return f"setup: {len(node.outcomes)} chance draws made"
        text = json.dumps(node.state.snapshot(), sort_keys=True, default=str)
        if node.need > 0:
            text += f"\ndrawing chance for seat {node.pending[0] if node.pending else '?'}: "
            text += f"{node.outcomes} so far"
        return text

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | None = None
    ) -> RulebookState:
        """A state of ``player_id``'s information state, what it cannot see re-sampled
        (:func:`resample`), seeded from ``probability_sampler`` (OpenSpiel's, floats in
        [0, 1)) or, without one, from Python's ``random``."""
        if probability_sampler is None:
            seed = random.getrandbits(64)
        else:
            seed = int(probability_sampler() * 2**53)
        return resample(self, player_id, random.Random(seed))

    # -- for the adapter's users -----------------------------------------------------------------
    def rulebook_state(self) -> State | None:
        """The engine's state (at a chance node, before the move being drawn); a copy."""
        state = self._node.state
        return None if state is None else state.clone()


class MoveRecord:
    """The moves part of the information-state tensor: one slot per move of the game (up to
    ``max_game_length``, bounds.toml), in the order of the log as the seat knows it; a slot
    holds the mover (one-hot, relative: 0 is the viewer), 1 if the move was announced without
    its detail (a card taken from a face-down pile: its index is then left out), and the
    action index in binary (least significant bit first). Empty slots are all 0."""

    def __init__(self, players: int, actions: int, length: int) -> None:
        self.players = players
        self.length = length
        self.bits = max(1, (actions - 1).bit_length())
        self.slot = players + 1 + self.bits
        self.size = length * self.slot
        #: the bits of every index, one row per index
        self._binary = ((np.arange(actions)[:, None] >> np.arange(self.bits)[None, :]) & 1).astype(
            np.float32
        )

    def fill(self, moves: list[_Move], player: int, out: npt.NDArray[np.float32]) -> None:
        """Write ``moves`` as ``player`` knows them into ``out`` (of :attr:`size`, zeros)."""
        if len(moves) > self.length:
            raise pyspiel.SpielError(
                f"a game of more than {self.length} moves, the max_game_length of bounds.toml: "
                "its information-state tensor cannot hold it"
            )
        if not moves:
            return
        slots = out.reshape(self.length, self.slot)
        rows = np.arange(len(moves))
        n = self.players
        slots[rows, [(m.seat - player) % n for m in moves]] = 1.0
        hidden = np.array([m.hidden and m.seat != player for m in moves])
        slots[rows[hidden], n] = 1.0
        shown = rows[~hidden]
        if shown.size:
            index = np.array([moves[i].index for i in shown])
            slots[shown, n + 1 :] = self._binary[index]


class RulebookObserver:
    """OpenSpiel's PyObserver: the seat's tensor, observation and information state strings.

    The information-state tensor (``perfect_recall``) is the observation tensor followed by
    every move the seat knows of (:class:`MoveRecord`): the view of this moment and the whole
    record of moves, the seat's own in full and the others' as they were announced to it, of
    fixed size (the observation's plus ``max_game_length`` slots)."""

    def __init__(self, spec: _Spec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        size = spec.observation_size
        moves = spec.moves.size if perfect_recall else 0
        self.tensor: npt.NDArray[np.float32] = np.zeros(size + moves, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["moves"] = self.tensor[size:]

    def set_from(self, state: RulebookState, player: int) -> None:
        node = state._node
        node.settle()
        self.tensor.fill(0)
        if node.state is not None:
            encoded = self.spec.table.encoder.encode_state(node.state, player)
            self.dict["observation"][:] = np.asarray(encoded, np.float32).reshape(-1)
        if self.perfect_recall:
            self.spec.moves.fill(node.known_moves(player), player, self.dict["moves"])

    def string_from(self, state: RulebookState, player: int) -> str:
        node = state._node
        node.settle()
        if self.perfect_recall:
            return node.info_state(player)
        observation = node.observation(player)
        if observation is None:
            return f"seat {player}: the setup is being dealt"
        return json.dumps(observation, sort_keys=True)


class EvaluationEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An evaluator for OpenSpiel's ``MCTSBot`` and ``ISMCTSBot`` that judges a leaf as
    rulebook's ``mcts`` does, with the game's own evaluation (``Game.evaluate``): each seat's
    value less the best other seat's (solo: the value), instead of a random rollout to the end.

    Values are divided by ``scale`` (default 1): OpenSpiel's UCT constant expects returns of
    about ``[-1, 1]``. The prior is uniform over the legal moves (the chance outcomes' own
    probabilities at a chance node)."""

    def __init__(self, scale: float = 1.0) -> None:
        if scale <= 0:
            raise ValueError(f"scale must be positive, not {scale}")
        self.scale = scale

    def evaluate(self, state: RulebookState) -> npt.NDArray[np.float64]:
        node = state._node
        node.settle()
        position = node.state
        if position is None:  # the setup is being dealt: nothing to judge yet
            return np.zeros(state.get_game().num_players())
        return np.asarray(leaf_rewards(position), dtype=np.float64) / self.scale

    def prior(self, state: RulebookState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def resample(state: RulebookState, player: int, rng: random.Random) -> RulebookState:
    """A copy of ``state`` in which all that ``player`` cannot see (other hands, the decks'
    order) is re-sampled from ``rng`` with the engine's ``determinize``; its future chance
    events stay chance nodes. Only at a decision node (the seat's information state)."""
    copy: RulebookState = state.clone()
    node = copy._node
    node.settle()
    if node.state is None or node.need > 0:
        raise pyspiel.SpielError("resample at a decision node, not at a chance node")
    sample = node.state.determinize(player, rng)
    sample.chance = ScriptedChance((), 0, node.state.chance.draws)
    node.state = sample
    return copy


def resampler(state: RulebookState, player: int) -> RulebookState:
    """:func:`resample` seeded from Python's ``random`` (for ``ISMCTSBot.set_resampler``)."""
    return resample(state, player, random.Random(random.getrandbits(64)))


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ``ISMCTSBot`` as it is, with the ``restart_at`` that OpenSpiel's
    ``evaluate_bots`` calls first (the bot searches afresh at every step, so there is
    nothing to restart; OpenSpiel's own raises ``RestartAt(state) not implemented``)."""

    def restart_at(self, state: pyspiel.State) -> None:
        pass


class PerfectRecallWarning(UserWarning):
    """An OpenSpiel environment's ``info_state`` holds the observation, not the information
    state."""


#: OpenSpiel's algorithms that read ``info_state`` as a perfect-recall information state
PERFECT_RECALL = "NFSP, Deep CFR, ESCHER, R-NaD, policy-gradient (RPG/QPG) exploitability"


def environment(game: str | pyspiel.Game, **kwargs: Any) -> Any:
    """OpenSpiel's ``rl_environment.Environment`` of a game (a loaded game or a name, loaded
    with the remaining ``kwargs`` that the environment does not take as parameters).

    Its ``info_state`` is the perfect-recall information-state tensor by default. With
    ``observation_type=ObservationType.OBSERVATION`` it is the observation tensor of the
    moment under that same name, which suits DQN, PPO, A2C and the like but not the
    algorithms that assume perfect recall (:data:`PERFECT_RECALL`): a
    :class:`PerfectRecallWarning` says so."""
    from open_spiel.python import rl_environment

    kind = kwargs.get("observation_type")
    if kind == rl_environment.ObservationType.OBSERVATION:
        warnings.warn(
            "info_state will hold the observation tensor (this moment's view), not the "
            f"perfect-recall information state that {PERFECT_RECALL} assume",
            PerfectRecallWarning,
            stacklevel=2,
        )
    return rl_environment.Environment(game, **kwargs)


@dataclass(frozen=True)
class TreeSize:
    """Knuth's estimate of a game tree's size from random playouts (:func:`tree_size`), as
    base-10 logarithms: the histories (every node, chance nodes included, as tabular CFR
    visits each once per iteration) and the terminal histories; and the playouts' mean length
    in nodes."""

    log10_histories: float
    log10_terminals: float
    length: float
    playouts: int


def _log10_mean(logs: list[float]) -> float:
    """``log10`` of the mean of ``10 ** x`` for ``x`` in ``logs`` (without overflowing)."""
    top = max(logs)
    return top + float(np.log10(np.mean([10.0 ** (x - top) for x in logs])))


def tree_size(game: pyspiel.Game, playouts: int, seed: int = 0) -> TreeSize:
    """Estimate the size of ``game``'s tree with Knuth's estimator: along a playout choosing
    uniformly among the legal actions (and chance outcomes), the product of the branching
    factors down to a node is an unbiased estimate of how many nodes the tree has at that
    depth; summed over depths, of its nodes; at the end, of its terminal histories. The mean
    over ``playouts`` is the estimate (its spread is large: a rough order of magnitude)."""
    if playouts < 1:
        raise ValueError("at least one playout")
    rng = random.Random(seed)
    histories, terminals, lengths = [], [], []
    for _ in range(playouts):
        state = game.new_initial_state()
        log_width = 0.0  # log10 of the product of the branching factors so far
        depth_logs = [0.0]  # the root: one node
        while not state.is_terminal():
            options = (
                [a for a, _ in state.chance_outcomes()]
                if state.is_chance_node()
                else state.legal_actions()
            )
            log_width += float(np.log10(len(options)))
            depth_logs.append(log_width)
            state.apply_action(rng.choice(options))
        histories.append(_log10_mean(depth_logs) + float(np.log10(len(depth_logs))))
        terminals.append(log_width)
        lengths.append(len(depth_logs))
    return TreeSize(
        _log10_mean(histories), _log10_mean(terminals), float(np.mean(lengths)), playouts
    )


def register() -> list[str]:
    """Register every game with OpenSpiel (done on import); returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game in rulebook.games():
        name = short_name(game)
        if name not in registered:
            # a class (not a closure): OpenSpiel keeps its factories until after Python has
            # shut down, and a class, unlike a closure, is never freed then
            title = "".join(w.capitalize() for w in game.split("-"))
            factory = type(f"{title}Game", (RulebookGame,), {"GAME": game})
            pyspiel.register_game(_game_type(game), factory)
        names.append(name)
    return names


GAMES = register()
