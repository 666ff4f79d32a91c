"""What the three research adapters share: configurations, spaces and rewards.

A *configuration* is a game, its variant, player count and options: everything that fixes the
action space (:class:`rulebook.core.spaces.ActionSpace`) and the observation tensor's shape
(``Game.encoder``). A :class:`Table` holds one configuration's spaces and turns a finished game
into rewards:

* ``"win"``: each seat's share of the win (:meth:`State.returns`: 1 for a sole winner, 1/k for
  k tied winners, 0 otherwise) — the default with two or more players;
* ``"margin"``: the seat's score less the best other seat's (its score alone in solo games);
* ``"score"``: the seat's final score — the default in solo games, where the share of the win
  is always 1 and teaches nothing.

Rewards come only at the end of a game (0 before), as the games score at the end.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass
from functools import wraps
from itertools import product
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

import rulebook
from rulebook.core import IllegalAction, Setup, State, UnknownGame, get_game, new_game
from rulebook.core.spaces import (
    ActionSpace,
    GlobalState,
    ObservationEncoder,
    action_space,
    encoder,
    global_state,
)

if TYPE_CHECKING:
    from gymnasium import spaces

#: the reward schemes of :class:`Table` (see the module docstring)
REWARDS = ("win", "margin", "score")
#: what an environment does with an action index that is not a legal move: ``"penalize"``
#: refuses the move (the game is unchanged, the same seat is still to act), gives the seat
#: ``illegal_reward`` for that step and says why in its info (``"illegal"``); ``"raise"``
#: raises :class:`rulebook.IllegalAction`, also changing nothing
ILLEGAL = ("penalize", "raise")
#: the default reward of a refused move under ``illegal="penalize"``
ILLEGAL_REWARD = -1.0
#: the index a seat's mask offers, alone, when an environment asks the seat for an action it
#: has no decision for (a PettingZoo Parallel seat waiting for the others to end their
#: crafting; a Gymnasium game over, which a vector environment's next-step reset ignores):
#: whatever the seat sends then is ignored. In the roll-and-writes it is ``done``
IDLE = 0
#: options with at most this many listed choices are enumerated by :func:`configurations`
#: (Pandoria Merchants' solo level); larger ones, and those given by a rule rather than a list
#: (Archmagi's Magi), keep their default
SMALL_OPTION = 4

P = ParamSpec("P")
A = TypeVar("A", bound="Arguments")
E = TypeVar("E")


@dataclass(frozen=True)
class Config:
    """A game configuration: game, player count, variant and options (all validated)."""

    game: str
    players: int
    variant: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(
        cls,
        game: str,
        players: int,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
    ) -> Config:
        """The configuration, with the game's defaults filled in; :class:`UnknownGame` with the
        reason if the game, variant, player count or an option is not one the game has."""
        setup = get_game(game).setup(players, 0, variant, options)
        return cls(setup.game, setup.players, setup.variant, tuple(sorted(setup.options.items())))

    def setup(self, seed: int) -> Setup:
        return Setup(self.game, self.players, seed, self.variant, dict(self.options))

    def new_game(self, seed: int) -> State:
        return new_game(self.game, self.players, seed, self.variant, dict(self.options))

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def name(self) -> str:
        """``merchants-of-magick-4p``, with the variant unless it is the default for the count,
        and the options: ``pandoria-merchants-1p-level-expert``."""
        parts = [self.game, f"{self.players}p"]
        if self.variant != get_game(self.game).default_variant(self.players):
            parts.append(self.variant)
        parts += [f"{k}-{v}" for k, v in self.options if _listed(self.game, k)]
        return "-".join(parts)

    @property
    def camel(self) -> str:
        """The name in Gymnasium's style: ``MerchantsOfMagick-4p``, ``PandoriaMerchants-3p-Family``,
        ``PandoriaMerchants-1p-Expert`` (the solo level)."""
        words = [_camel(self.game), f"{self.players}p"]
        if self.variant != get_game(self.game).default_variant(self.players):
            words.append(_camel(self.variant))
        words += [_camel(v) for k, v in self.options if _listed(self.game, k)]
        return "-".join(words)


def _camel(name: str) -> str:
    return "".join(w.capitalize() for w in re.split(r"[-_ ]", name))


def _listed(game: str, option: str) -> bool:
    """Whether an option is enumerated by :func:`configurations` (and so named in ids)."""
    return any(
        o.name == option and 0 < len(o.choices) <= SMALL_OPTION for o in get_game(game).options
    )


def configurations(games: list[str] | None = None) -> Iterator[Config]:
    """Every configuration of every game (or of ``games``): each variant at each player count,
    with every choice of the small options (:data:`SMALL_OPTION`) and the default of others."""
    for name in games or rulebook.games():
        game = get_game(name)
        for variant in game.variants:
            small = [
                o
                for o in game.options
                if 0 < len(o.choices) <= SMALL_OPTION
                and (not o.variants or variant.name in o.variants)
            ]
            for n in range(variant.min_players, variant.max_players + 1):
                for choice in product(*(o.choices for o in small)):
                    options = {o.name: c for o, c in zip(small, choice, strict=True)}
                    yield Config.of(name, n, variant.name, options)


def default_reward(players: int) -> str:
    return "win" if players > 1 else "score"


def final_rewards(state: State, reward: str) -> list[float]:
    """Each seat's reward for the finished game ``state`` under ``reward`` (module docstring)."""
    if reward == "win":
        return state.returns()
    scores = [float(s) for s in state.scores()]
    if reward == "score" or len(scores) == 1:
        return scores
    return [s - max(t for q, t in enumerate(scores) if q != p) for p, s in enumerate(scores)]


def check_limit(limit: Any, name: str) -> int | None:
    """An episode limit (``max_cycles``, ``max_episode_steps``): None (no limit) or a
    positive whole number; :class:`UnknownGame` naming ``name`` otherwise."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int | np.integer) or limit < 1:
        raise UnknownGame(f"{name} must be a positive whole number or None, not {limit!r}")
    return int(limit)


def as_index(action: Any) -> int:
    """An action given as a number (Python or NumPy, 0-d array included) as an ``int``;
    :class:`IllegalAction` for anything else."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise IllegalAction(f"an action must be a move's index, not {action!r}")
    return int(action)


class Table:
    """One configuration's spaces and rewards, shared by the states an adapter plays."""

    def __init__(
        self,
        config: Config,
        reward: str | None = None,
        illegal: str = "penalize",
        illegal_reward: float = ILLEGAL_REWARD,
    ) -> None:
        reward = default_reward(config.players) if reward is None else reward
        if reward not in REWARDS:
            raise UnknownGame(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise UnknownGame(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.config = config
        self.reward = reward
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.space: ActionSpace = action_space(config.new_game(0))
        self.encoder: ObservationEncoder = encoder(config.setup(0))
        self.shape = tuple(self.encoder.shape)
        self.dtype = np.dtype(self.encoder.dtype)
        #: every value's bounds, from the encoder's parts (capped parts included)
        low, high = self.encoder.bounds()
        self.low = np.asarray(low, self.dtype)
        self.high = np.asarray(high, self.dtype)
        self._global: GlobalState | None = None
        #: the mask of a seat not to act (all 0) and of one asked for an action it has no
        #: decision for (:data:`IDLE` alone); shared, so read-only
        self.no_mask = np.zeros(self.space.size, np.int8)
        self.idle_mask = self.no_mask.copy()
        self.idle_mask[IDLE] = 1
        self.no_mask.flags.writeable = False
        self.idle_mask.flags.writeable = False

    def observation_space(self) -> spaces.Dict:
        """The space of an environment's observations: the seat's tensor within the encoder's
        bounds (``"observation"``) and the legal-move mask (``"action_mask"``)."""
        from gymnasium import spaces  # the [rl] extra, which only the adapters need

        return spaces.Dict(
            {
                "observation": spaces.Box(self.low, self.high, dtype=self.dtype),
                "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
            }
        )

    @property
    def global_encoder(self) -> GlobalState:
        """The configuration's privileged global state (built at its first use)."""
        if self._global is None:
            self._global = global_state(self.config.setup(0))
        return self._global

    def state_space(self) -> spaces.Box:
        """The space of the global state (:class:`GlobalState`), within its bounds."""
        from gymnasium import spaces

        low, high = self.global_encoder.bounds()
        return spaces.Box(low, high, dtype=np.float32)

    def global_state(self, state: State) -> npt.NDArray[np.float32]:
        """The privileged global state of ``state`` (every seat's view and the hidden piles)."""
        return self.global_encoder.encode(state)

    def observe(self, state: State, player: int) -> npt.NDArray[Any]:
        """Seat ``player``'s observation tensor (only what the seat may see)."""
        return np.asarray(self.encoder.encode_state(state, player), dtype=self.dtype)

    def mask(self, state: State, player: int) -> npt.NDArray[np.int8]:
        """1 for each of ``player``'s legal moves now (all 0 when the seat is not to act)."""
        if state.is_terminal() or player not in state.current_players():
            return self.no_mask
        return self.space.mask(state, player)

    def try_move(self, state: State, player: int, index: Any) -> str | None:
        """Play action ``index`` for ``player``; None when done, else why it was refused
        (``illegal="penalize"``; with ``"raise"`` the :class:`IllegalAction` propagates).
        A refused move changes nothing."""
        try:
            state.apply(player, self.space.action(as_index(index)))
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            return str(exc)
        return None

    def play(
        self, state: State, player: int, index: Any, legal: npt.NDArray[np.int8]
    ) -> str | None:
        """:meth:`try_move`, but an index ``legal`` holds (the seat's mask as the environment
        made it in this very position: its own copy, which no caller can write into) is made
        as a known legal move (:meth:`State.apply_legal`), not checked again by the engine."""
        if (
            isinstance(index, int | np.integer)
            and not isinstance(index, bool)
            and 0 <= index < legal.size
            and legal[index]
        ):
            state.apply_legal(player, self.space.vocabulary[index])
            return None
        return self.try_move(state, player, index)

    def rewards(self, state: State) -> list[float]:
        """Each seat's reward: 0 until the game is over, then :func:`final_rewards`."""
        if not state.is_terminal():
            return [0.0] * state.num_players
        return final_rewards(state, self.reward)

    @staticmethod
    def to_act(state: State) -> int:
        """The seat that moves next: in a simultaneous phase, the lowest seat still to act
        (the phase is played one seat after another, each seeing the others as they were when
        it began, as PettingZoo and OpenSpiel serialise simultaneous moves)."""
        return state.current_players()[0]


@dataclass(frozen=True)
class Arguments:
    """What every environment is made with, stated once: a configuration (game, player count,
    variant, options), then, by keyword only, how it plays. An adapter's own parameters are
    the fields of its subclass (:class:`rulebook.interop.gymnasium.GymArguments`...): they
    follow ``options`` among the positional ones, and a keyword the adapter does not take is
    refused with ``TypeError``, as a misspelt keyword is."""

    game: str
    players: int
    variant: str | None = None
    options: Mapping[str, str] | None = None
    _: KW_ONLY
    #: ``"win"``, ``"margin"`` or ``"score"`` (default: ``"win"``, solo ``"score"``)
    reward: str | None = None
    #: ``"penalize"`` (default) or ``"raise"``: what an illegal index does (:data:`ILLEGAL`)
    illegal: str = "penalize"
    #: the reward of a refused move with ``illegal="penalize"`` (default -1)
    illegal_reward: float = ILLEGAL_REWARD
    #: ``"ansi"`` for the environment's ``render`` to return text
    render_mode: str | None = None

    def table(self) -> Table:
        """The table of the configuration (its defaults filled in) played so."""
        config = Config.of(self.game, self.players, self.variant, self.options)
        return Table(config, self.reward, self.illegal, self.illegal_reward)


def takes(
    arguments: Callable[P, A],
) -> Callable[[Callable[[E, A], None]], Callable[Concatenate[E, P], None]]:
    """An environment's ``__init__(self, arguments)`` made to take the parameters of
    ``arguments`` (an :class:`Arguments` class), which checks and holds them."""

    def decorate(init: Callable[[E, A], None]) -> Callable[Concatenate[E, P], None]:
        @wraps(init)
        def __init__(self: E, /, *args: P.args, **kwargs: P.kwargs) -> None:
            init(self, arguments(*args, **kwargs))

        given = inspect.signature(arguments).parameters.values()
        itself = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        __init__.__signature__ = inspect.Signature([itself, *given])  # type: ignore[attr-defined]
        return __init__

    return decorate
