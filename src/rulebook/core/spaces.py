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
* :class:`FlatEncoder` is the base the games' encoders share: a flat ``float32`` vector laid
  out part by part (:class:`Parts`), with the seats in relative order (the viewer first, then
  the seats after it in turn order), so a network always finds "me" in the same place.
* The adapters' fast path (``encode_state``, ``encode_into``) reads the state itself, without
  building the observation (:class:`DirectEncoder`, the sheet games' encoder): the very values
  of the observation's tensor, which ``tests/test_fast_encoding.py`` checks at every step of
  random games of every configuration, for every seat (so it shows no more than the
  observation does).

Every value has bounds (:meth:`ObservationEncoder.bounds`, what a Gymnasium ``Box`` needs):
each part declares its ``low`` and ``high`` (``[0, 1]`` unless it says otherwise). Most parts
are bounded by the rules or the content (one-hot and multi-hot parts, a count divided by the
most there can be). An amount the rules leave open (a score, gold, Crystals, Potions) is divided
by a scale of about its usual final value and *capped*: values beyond its ``high`` (at least
twice the largest seen in simulated games) are shown as ``high``, so a tensor never leaves its
bounds.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from rulebook.core.batch import legal_flat
from rulebook.core.data import cached
from rulebook.core.errors import IllegalAction, RulebookError, UnknownGame
from rulebook.core.registry import get_game
from rulebook.core.writes import KeptSeats, Writes

if TYPE_CHECKING:
    from rulebook.core.game import Setup
    from rulebook.core.state import Action, State

Vector = npt.NDArray[np.float32]
T = TypeVar("T")


@dataclass(frozen=True)
class Slice:
    """A named part of an observation tensor: ``tensor[start:stop]`` holds ``meaning``, every
    value within ``[low, high]``; a ``capped`` part holds an amount the rules leave open, shown
    as ``high`` (or ``low``) beyond those bounds."""

    name: str
    start: int
    stop: int
    meaning: str
    low: float = 0.0
    high: float = 1.0
    capped: bool = False

    @property
    def range(self) -> str:
        """The bounds as the docs show them: ``[0, 1]``, ``[0, 4] capped``."""
        text = f"[{self.low:g}, {self.high:g}]"
        return f"{text} capped" if self.capped else text

    @property
    def size(self) -> int:
        return self.stop - self.start


class ObservationEncoder(ABC):
    """One game configuration's observation tensor: a fixed shape and dtype, built from
    ``observation(p)`` alone (see the module docstring)."""

    dtype: npt.DTypeLike = np.float32

    @property
    @abstractmethod
    def shape(self) -> tuple[int, ...]:
        """The tensor's shape, the same for every seat and every position of the
        configuration."""

    @abstractmethod
    def encode(self, observation: Mapping[str, Any]) -> npt.NDArray[Any]:
        """The tensor of one seat's observation (``state.observation(p)``)."""

    @abstractmethod
    def slices(self) -> Sequence[Slice]:
        """What each part of the (flattened) tensor means, in order, covering all of it."""

    def bounds(self) -> tuple[Vector, Vector]:
        """The lowest and the highest value of every element (two ``float32`` arrays of
        :attr:`shape`), from the slices' ``low`` and ``high``: no tensor of this encoder has a
        value outside them."""
        return slice_bounds(self.slices(), self.shape)

    def encode_state(self, state: State, player: int) -> npt.NDArray[Any]:
        """The tensor of seat ``player`` in ``state``: :meth:`encode` of its observation."""
        return self.encode(state.observation(player))

    def encode_into(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """Write the tensor of seat ``players[i]`` in ``states[i]`` into ``out[i]`` (``out``:
        ``(len(states), *shape)``, preallocated), for batched environments. An encoder may
        do it faster than one :meth:`encode_state` at a time, giving the same tensors."""
        for i, (state, player) in enumerate(zip(states, players, strict=True)):
            out[i] = self.encode_state(state, player)

    # -- the privileged part of the global state (PettingZoo's ``state()``) --------------------
    def piles(self) -> Sequence[Pile]:
        """The piles whose order (or face-down cards whose faces) no seat sees, for the
        privileged global state (:class:`GlobalState`); none by default (a game whose hidden
        part is only the future dice)."""
        return ()

    def hidden(self, state: State) -> Sequence[Sequence[int]]:
        """The cards of each of :meth:`piles` in ``state``, in the state's order (the top of a
        pile last). The one method of an encoder that reads the state itself rather than an
        observation: what it returns is for :class:`GlobalState` alone, never an
        observation."""
        return ()


def slice_bounds(slices: Iterable[Slice], shape: tuple[int, ...]) -> tuple[Vector, Vector]:
    """Every element's lowest and highest value from the slices covering a tensor."""
    size = int(np.prod(shape))
    low = np.zeros(size, np.float32)
    high = np.ones(size, np.float32)
    for part in slices:
        low[part.start : part.stop] = part.low
        high[part.start : part.stop] = part.high
    return low.reshape(shape), high.reshape(shape)


@dataclass(frozen=True)
class Pile:
    """A pile whose order no seat sees (a deck), or cards lying face down, named ``name``,
    holding cards numbered ``0 .. cards - 1`` (the game's own numbering of that kind of card),
    described by ``meaning``."""

    name: str
    cards: int
    meaning: str


@dataclass(frozen=True)
class Caps:
    """The span ``[start, stop)`` of a layout holding its capped parts, and each element's
    bounds there (``-inf`` and ``inf`` for an element not capped)."""

    start: int
    stop: int
    low: Vector
    high: Vector
    #: the same bounds over whole rows (``-inf`` and ``inf`` outside the span), or ``None``
    #: when the span is under half a row (then clipping the span alone is cheaper)
    row_low: Vector | None = None
    row_high: Vector | None = None


class Parts:
    """The layout of a flat tensor, declared part by part: each part is a named slice."""

    def __init__(self) -> None:
        self._slices: list[Slice] = []
        self._names: set[str] = set()
        self.size = 0

    def add(
        self,
        name: str,
        size: int,
        meaning: str,
        *,
        low: float = 0.0,
        high: float = 1.0,
        capped: bool = False,
    ) -> int:
        """Append a part of ``size`` values holding ``meaning``, each within ``[low, high]``
        (``capped``: an open amount, clipped to them); return where it starts.

        A part of size 0 (a feature the configuration does not have) takes no room and is not
        listed by :attr:`slices`.
        """
        if size < 0:
            raise ValueError(f"part {name!r} has a negative size")
        if name in self._names:
            raise ValueError(f"two parts are called {name!r}")
        if not low < high:
            raise ValueError(f"part {name!r}: low {low:g} is not below high {high:g}")
        self._names.add(name)
        start = self.size
        if size:
            self._slices.append(Slice(name, start, start + size, meaning, low, high, capped))
            self.size += size
        return start

    @property
    def slices(self) -> tuple[Slice, ...]:
        return tuple(self._slices)


def seat_order(you: int, players: int) -> list[int]:
    """The seats in relative order: ``you`` first, then the seats after it in turn order."""
    return [(you + k) % players for k in range(players)]


def relative(seat: int, you: int, players: int) -> int:
    """Where ``seat`` sits in :func:`seat_order` of ``you`` (0: the viewer)."""
    return (seat - you) % players


def hot(ones: list[int], start: int, size: int, index: int) -> None:
    """Mark ``start + index`` as a 1 of ``ones``, for a one-hot part of ``size`` values
    starting at ``start``."""
    if not 0 <= index < size:
        raise RulebookError(f"value {index!r} is outside a part of {size}")
    ones.append(start + index)


def lookup(table: Mapping[str, int], key: object, what: str) -> int:
    """``table[key]``; :class:`RulebookError` naming ``what`` when the key is unknown (an
    observation of other content, or of another game)."""
    try:
        return table[key]  # type: ignore[index]
    except (KeyError, TypeError):
        raise RulebookError(f"the observation names an unknown {what}: {key!r}") from None


def positions(table: Mapping[str, int], keys: Iterable[object], start: int, what: str) -> list[int]:
    """``start + table[key]`` for every key (a multi-hot part); :class:`RulebookError` naming
    ``what`` when a key is unknown."""
    try:
        return [start + table[key] for key in keys]  # type: ignore[index]
    except (KeyError, TypeError):
        bad = next(k for k in keys if not isinstance(k, str) or k not in table)
        raise RulebookError(f"the observation names an unknown {what}: {bad!r}") from None


def index_of(names: Iterable[str]) -> dict[str, int]:
    """``{name: position}`` of distinct names, in order (duplicates keep their first place)."""
    table: dict[str, int] = {}
    for name in names:
        table.setdefault(name, len(table))
    return table


class FlatEncoder(ObservationEncoder):
    """A configuration's observation as a flat ``float32`` vector laid out by :class:`Parts`.

    A game's encoder declares its parts in ``__init__`` (after ``super().__init__(setup)``),
    from the configuration and the game's published content only, and writes one observation
    into a zeroed vector in :meth:`fill`. Counts and amounts are divided by a documented scale
    so that values stay near ``[0, 1]``; categories are one-hot.
    """

    #: the fields of the observation the tensor leaves out, as patterns (``seats[*].name``:
    #: ``[*]`` for every item of a list), each with the reason: fixed by the configuration,
    #: or following from what the tensor shows
    IGNORED: Mapping[str, str] = {}
    #: each seat's slots by name, in :func:`seat_order` from the viewer (declared by the game's
    #: encoder; ``to_act`` and ``winner`` among them, for :meth:`seats`)
    at_seat: list[dict[str, int]]

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.players = setup.players
        self.parts = Parts()
        self._caps: Caps | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.parts.size,)

    def slices(self) -> tuple[Slice, ...]:
        return self.parts.slices

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        out = self.encode_uncapped(observation)
        self.cap(out)
        return out

    def encode_uncapped(self, observation: Mapping[str, Any]) -> Vector:
        """The tensor before the capped parts are clipped to their bounds (for tests: a part
        that is not capped must be within its bounds already)."""
        game = observation.get("game") if isinstance(observation, Mapping) else None
        if game != self.setup.game:
            raise RulebookError(f"not an observation of {self.setup.game} (game {game!r})")
        seats = observation.get("seats")
        if not isinstance(seats, list) or len(seats) != self.players:
            raise RulebookError(f"not an observation of a {self.players}-seat game")
        out = np.zeros(self.parts.size, dtype=np.float32)
        ones: list[int] = []
        self.fill(observation, out, ones)
        if ones:
            out[ones] = 1.0
        return out

    def cap(self, out: npt.NDArray[Any]) -> None:
        """Clip the capped parts of ``out`` (one row, or rows of this shape) to their bounds,
        in place: the span from the first capped element to the last, with ``-inf`` and
        ``inf`` as the bounds of the elements between that are not capped (they keep their
        values exactly), in two whole-span NumPy passes (``maximum`` then ``minimum``, what
        ``np.clip`` does element by element), much cheaper than gathering the capped
        elements. When the span is most of a row and ``out`` is C-contiguous, the passes run
        over whole rows: NumPy's loops run twice as fast over contiguous memory as over a
        column range of each row."""
        caps = self._caps if self._caps is not None else self._capped_parts()
        if caps.stop > caps.start:
            if caps.row_low is not None and caps.row_high is not None and out.flags.c_contiguous:
                np.maximum(out, caps.row_low, out=out)
                np.minimum(out, caps.row_high, out=out)
                return
            span = out[..., caps.start : caps.stop]
            np.maximum(span, caps.low, out=span)
            np.minimum(span, caps.high, out=span)

    def _capped_parts(self) -> Caps:
        """The span of the capped parts and its bounds (worked out once, at the first
        encoding: the parts are all declared by then)."""
        capped = [s for s in self.parts.slices if s.capped]
        start = min((s.start for s in capped), default=0)
        stop = max((s.stop for s in capped), default=0)
        low = np.full(stop - start, -np.inf, np.float32)
        high = np.full(stop - start, np.inf, np.float32)
        for s in capped:
            low[s.start - start : s.stop - start] = s.low
            high[s.start - start : s.stop - start] = s.high
        size = self.parts.size
        row_low = row_high = None
        if 2 * (stop - start) >= size:
            row_low = np.full(size, -np.inf, np.float32)
            row_high = np.full(size, np.inf, np.float32)
            row_low[start:stop] = low
            row_high[start:stop] = high
        self._caps = Caps(start, stop, low, high, row_low, row_high)
        return self._caps

    def declare_seats(
        self, declare: Callable[[str], dict[str, int]], to_act: str = "1 if it is this seat's turn"
    ) -> None:
        """Declare :attr:`at_seat`: one block per seat in relative order, the game's parts
        (``declare(prefix)``, each named ``prefix + name``) then its ``to_act`` slot (meaning
        ``to_act``) and its ``winner`` slot."""
        add = self.parts.add
        self.at_seat = []
        for k in range(self.players):
            p = f"seat{k}."
            at = declare(p)
            at["to_act"] = add(p + "to_act", 1, to_act)
            at["winner"] = add(p + "winner", 1, "1 if this seat won (the game is over)")
            self.at_seat.append(at)

    def seats(
        self, observation: Mapping[str, Any], ones: list[int]
    ) -> list[tuple[int, dict[str, int]]]:
        """Each seat in :func:`seat_order` from the viewer (``observation["you"]``) with its
        slots (:attr:`at_seat`), having marked in ``ones`` the ``to_act`` slot of each seat to
        act now and the ``winner`` slot of each winner."""
        at_seat = self.at_seat
        current = observation["current_players"]
        winners = observation.get("winners", ())
        order = []
        for k, p in enumerate(seat_order(observation["you"], self.players)):
            at = at_seat[k]
            if p in current:
                ones.append(at["to_act"])
            if p in winners:
                ones.append(at["winner"])
            order.append((p, at))
        return order

    def reads(self, state: State) -> bool:
        """Whether :meth:`encode_into` reads ``state`` itself (a fast path) rather than its
        observation: not by default."""
        return False

    def encode_state(self, state: State, player: int) -> Vector:
        if not self.reads(state):
            return self.encode(state.observation(player))
        out = np.empty((1, self.parts.size), np.float32)
        self.encode_into([state], [player], out)
        row: Vector = out[0]
        return row

    @abstractmethod
    def fill(self, observation: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        """Write ``observation`` into ``out`` (zeros, of this encoder's shape): amounts
        directly, and the positions that hold 1 (one-hot and multi-hot parts) into ``ones``
        (one NumPy assignment for all of them is much cheaper than one each)."""


class DirectEncoder(FlatEncoder):
    """A :class:`FlatEncoder` that also reads its game's states directly (the adapters' fast
    path): :meth:`fill_state` lists what :meth:`fill` would write for ``state.observation(p)``
    without building that observation, and :meth:`encode_into` writes a whole batch with a few
    NumPy calls. The tensors are the same values (``tests/test_fast_encoding.py`` holds every
    step of random games of every configuration to :meth:`encode`); a state of another class
    goes through its observation."""

    #: the game's state class, which :meth:`fill_state` reads
    STATE: type[State]
    #: whether this configuration reads its states directly (a game may leave some
    #: variants to :meth:`fill`)
    direct = True
    #: the lists :meth:`encode_into` fills, kept between batches (:class:`Writes`)
    _writes: Writes | None = None

    #: whether :meth:`encode_into` keeps each game's seat blocks between calls and rewrites one
    #: only when its :meth:`seat_key` changed (:class:`~rulebook.core.writes.KeptSeats`): the
    #: encoder then writes its rows with :meth:`fill_table_state` and :meth:`fill_seat_state`
    keeps_seats = False
    #: the seat blocks kept per batch size (:class:`~rulebook.core.writes.KeptSeats`)
    _kept: dict[int, KeptSeats] | None = None
    #: the object a game may keep its fast path in (a class of its own: compiled, its
    #: attributes sit at fixed places and its methods are called directly, where this class's
    #: are looked up by name), which :meth:`write_run` hands the kept runs to
    fast: Any = None

    def fill_state(self, state: Any, player: int, base: int, out: Writes) -> None:
        """List into ``out`` what :meth:`fill` writes for ``state.observation(player)``, its
        positions offset by ``base`` (the row's start in the batch). Only what the
        observation shows may be read. By default the table part
        (:meth:`fill_table_state`, :meth:`write_run`), the ``to_act`` and ``winner`` slots
        (:meth:`seat_flags`), then each seat's block (:meth:`fill_seat_state`)."""
        self.fill_table_state(state, player, base, out)
        for run in range(len(self.kept_runs())):
            self.write_run(state, player, run, None, base, out)
        facts = self.seat_facts(state)
        current, winners = self.seat_flags(state)
        for p, at in out.seats(self.at_seat, player, base, current, winners):
            self.fill_seat_state(state, p, facts, base, at, out)

    def fill_table_state(self, state: Any, player: int, base: int, out: Writes) -> None:
        """:meth:`fill_state` without the seat blocks (the default :meth:`fill_state`)."""
        raise NotImplementedError

    def seat_flags(self, state: Any) -> tuple[Sequence[int], Sequence[int]]:
        """The seats to act and the winners (none while the game runs)."""
        s: State = state
        return s.current_players(), s.winners() if s.is_terminal() else ()

    def seat_facts(self, state: Any) -> Any:
        """What every seat block of ``state`` reads, worked out once per state and passed to
        :meth:`seat_key` and :meth:`fill_seat_state` (nothing by default)."""
        return None

    def seat_key(self, state: Any, p: int, facts: Any) -> object:
        """Everything seat ``p``'s block shows but its ``to_act`` and ``winner`` slots, as a
        value compared with ``==``: equal keys, equal blocks."""
        raise NotImplementedError

    def fill_seat_state(
        self, state: Any, p: int, facts: Any, base: int, at: Mapping[str, int], out: Writes
    ) -> None:
        """List into ``out`` seat ``p``'s block but its ``to_act`` and ``winner`` slots, its
        slots at ``base + at[name]``."""
        raise NotImplementedError

    def kept_runs(self) -> list[tuple[int, int, bool, bool]]:
        """Runs ``(start, stop, by_viewer, patched)`` of the table part that
        :class:`~rulebook.core.writes.KeptSeats` keeps per game (per game and viewer if
        ``by_viewer``) and has :meth:`write_run` update (:meth:`fill_table_state` leaves them
        out): none by default. A run not ``patched`` is zeroed before :meth:`write_run` lists
        it again; a ``patched`` one only when it showed nothing yet."""
        return []

    def write_run(
        self, state: Any, you: int, run: int, last: object, base: int, out: Writes
    ) -> object:
        """Kept run ``run`` of ``state`` as ``you`` sees it, written from the record ``last``
        (``None``: nothing yet, the run is zeros): ``last`` itself if the run still shows
        ``state``, else a new record of what it shows, having listed into ``out`` (positions
        offset by ``base``, as :meth:`fill_table_state`'s) the whole run or, for a
        ``patched`` run that showed ``last``, every element that changed since (a zero
        included). By default :attr:`fast`'s ``write_run``, with the same arguments."""
        if self.fast is None:
            raise NotImplementedError
        return self.fast.write_run(state, you, run, last, base, out)

    def reads(self, state: State) -> bool:
        return self.direct and isinstance(state, self.STATE)

    def encode_into(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        size = self.parts.size
        if (
            not self.direct
            or out.shape != (len(states), size)
            or out.dtype != np.float32
            or not out.flags.c_contiguous
            or not all(isinstance(s, self.STATE) for s in states)
        ):
            super().encode_into(states, players, out)
            return
        if self.keeps_seats:
            # this size's blocks (a second batch at once, from another thread, gets its own)
            kept = self._kept = self._kept or {}
            rows = kept.pop(len(states), None) or KeptSeats(self, len(states))
            rows.write(self, states, players, out)
            kept[len(states)] = rows
        else:
            self._write_rows(states, players, out)
        self.cap(out)

    def encode_state(self, state: State, player: int) -> Vector:
        """:meth:`fill_state` of one state into a new row (not the kept blocks of
        :meth:`encode_into`: for one row at a time, even of one game stepping, listing the
        whole row costs less than comparing it with what was kept)."""
        if not self.reads(state):
            return self.encode(state.observation(player))
        out = np.empty((1, self.parts.size), np.float32)
        self._write_rows([state], [player], out)
        self.cap(out)
        row: Vector = out[0]
        return row

    def _write_rows(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """Each row from :meth:`fill_state`, the capped parts not clipped yet."""
        size = self.parts.size
        # this encoder's lists, cleared (a second batch at once, from another thread, gets its own)
        writes, self._writes = self._writes or Writes(), None
        writes.clear()
        try:
            for i, (state, player) in enumerate(zip(states, players, strict=True)):
                if type(player) is not int or not 0 <= player < self.players:
                    state.check_seat(player)  # raises, as observation(player) does
                self.fill_state(state, player, i * size, writes)
            out[...] = 0.0
            writes.write(out.reshape(-1))
        finally:
            self._writes = writes


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
        try:
            return list(legal_flat([state], [player], self._index, self.size))
        except (KeyError, TypeError):  # a move outside the vocabulary: name it
            return [self.index(a) for a in state.legal_actions(player)]

    def mask(self, state: State, player: int) -> npt.NDArray[np.int8]:
        """1 for each index that is a legal move of ``player`` now, 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.legal_indices(state, player)] = 1
        return mask

    def masks_into(
        self, states: Sequence[State], players: Sequence[int], out: npt.NDArray[Any]
    ) -> None:
        """:meth:`mask` of each ``(states[i], players[i])`` into ``out[i]`` (preallocated,
        ``(len(states), size)``), with one NumPy assignment for the whole batch. A seat that
        is not to act (or a finished game) gets a row of zeros."""
        out[...] = 0
        if out.shape != (len(states), self.size) or not out.flags.c_contiguous:
            for i, (state, player) in enumerate(zip(states, players, strict=True)):
                out[i, self.legal_indices(state, player)] = 1
            return
        if len(players) != len(states):
            raise ValueError(f"{len(players)} seats for {len(states)} states")
        try:  # flat indices of out, gathered by compiled code (rulebook.core.batch)
            ones = legal_flat(list(states), list(players), self._index, self.size)
        except (KeyError, TypeError):  # a move outside the vocabulary: name it
            for state, player in zip(states, players, strict=True):
                self.legal_indices(state, player)
            raise
        out.reshape(-1)[np.frombuffer(ones, np.int64)] = 1  # type: ignore[call-overload]


#: action spaces built so far, by the identity of the vocabulary they number (games hand out
#: one shared vocabulary per configuration; it is kept here so its id stays its own)
_SPACES: dict[int, tuple[Sequence[Action], ActionSpace]] = {}


def action_space(state: State) -> ActionSpace:
    """The action space of ``state``'s configuration (game, variant, players, options)."""
    vocabulary = state.action_vocabulary()
    known = _SPACES.get(id(vocabulary))
    if known is not None and known[0] is vocabulary:
        return known[1]
    space = ActionSpace(vocabulary)
    if len(_SPACES) >= 256:  # content reloaded many times (data overrides): start afresh
        _SPACES.clear()
    _SPACES[id(vocabulary)] = (vocabulary, space)
    return space


def once_per_configuration(build: Callable[[Setup], T]) -> Callable[[Setup], T]:
    """``build(setup)`` once per configuration (game, players, variant, options); what was
    built is dropped with the compiled content (:func:`rulebook.core.data.clear_caches`)."""
    built: Callable[[], dict[tuple[str, int, str, tuple[tuple[str, str], ...]], T]] = cached(dict)

    @functools.wraps(build)
    def once(setup: Setup) -> T:
        key = (setup.game, setup.players, setup.variant, tuple(sorted(setup.options.items())))
        known = built()
        if key not in known:
            known[key] = build(setup)
        return known[key]

    return once


@once_per_configuration
def encoder(setup: Setup) -> ObservationEncoder:
    """The observation encoder of a configuration (its game's ``Game.encoder``), built once."""
    game = get_game(setup.game)
    if game.encoder is None:
        raise UnknownGame(f"{game.title} has no observation encoder")
    made: ObservationEncoder = game.encoder(setup)
    return made


def observation_tensor(state: State, player: int) -> npt.NDArray[Any]:
    """Seat ``player``'s observation as its configuration's fixed-shape tensor."""
    return encoder(state.setup).encode(state.observation(player))


class GlobalState:
    """The privileged, full-information tensor of a configuration: what a centralised critic
    (MAPPO, QMIX...) learns from, as PettingZoo's ``state()`` gives it. Never an observation:
    it holds what every seat may see and what none may.

    Laid out as every seat's observation tensor in seat order (``seatP/`` then that seat's
    own slices: seat ``P``'s view, itself first, as its observation shows it; so every hand
    and every choice of a simultaneous phase is there, each in its owner's view), then the
    ``hidden.`` parts of the game's :meth:`ObservationEncoder.piles`, what no seat sees: per
    card of the pile, 1 for its top card, ``(m - k) / m`` for the ``k``-th card under the top
    of a pile of ``m``, 0 when the card is not in it. The future dice are not in it (no one
    knows them: they are drawn when rolled).
    """

    def __init__(self, setup: Setup, observation: ObservationEncoder) -> None:
        self.observation = observation
        self.players = setup.players
        self.seat_size = int(np.prod(observation.shape))
        parts = Parts()
        for p in range(self.players):
            start = parts.size
            for part in observation.slices():
                parts.add(
                    f"seat{p}/{part.name}",
                    part.size,
                    f"seat {p}'s observation: {part.meaning}",
                    low=part.low,
                    high=part.high,
                    capped=part.capped,
                )
            if parts.size != start + self.seat_size:
                raise ValueError("an encoder's slices do not cover its tensor")
        self.piles = tuple(observation.piles())
        self.at_pile = [
            parts.add(
                f"hidden.{pile.name}",
                pile.cards,
                f"{pile.meaning}; per card: 1 on top, (m - k) / m for the k-th under it of m, "
                "0 if not in it",
            )
            for pile in self.piles
        ]
        self.parts = parts
        self.shape = (parts.size,)
        self.dtype = np.dtype(np.float32)

    def slices(self) -> tuple[Slice, ...]:
        return self.parts.slices

    def bounds(self) -> tuple[Vector, Vector]:
        return slice_bounds(self.parts.slices, self.shape)

    def encode(self, state: State) -> Vector:
        """The global state of ``state``."""
        out = np.zeros(self.parts.size, np.float32)
        size = self.seat_size
        encode = self.observation.encode_state
        for p in range(self.players):
            out[p * size : (p + 1) * size] = np.asarray(encode(state, p)).reshape(-1)
        hidden = self.observation.hidden(state)
        if len(hidden) != len(self.piles):
            raise RulebookError(f"{len(hidden)} hidden piles, not the {len(self.piles)} declared")
        for pile, start, cards in zip(self.piles, self.at_pile, hidden, strict=True):
            m = len(cards)
            if m:
                index = np.fromiter(cards, np.intp, m)
                if index.min() < 0 or index.max() >= pile.cards:
                    raise RulebookError(f"pile {pile.name!r} holds a card outside 0-{pile.cards}")
                out[start + index] = np.arange(1, m + 1, dtype=np.float32) / m
        return out


@once_per_configuration
def global_state(setup: Setup) -> GlobalState:
    """The global-state encoder of a configuration (:class:`GlobalState`), built once."""
    return GlobalState(setup, encoder(setup))
