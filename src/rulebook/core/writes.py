"""What the fast encoders write into a batch of observation rows (compiled, see
:mod:`rulebook.compiled`): :class:`Writes` collects, for every row of a batch, the amounts, the
ones and the runs of values a :class:`~rulebook.core.spaces.DirectEncoder` reads from a state,
and writes them all with a few NumPy calls (one assignment for thousands of positions is much
cheaper than one each). One is kept per encoder and cleared between batches, so a step
allocates no lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from librt.vecs import append, vec
from mypy_extensions import i64

from rulebook.core.errors import RulebookError

if TYPE_CHECKING:
    from rulebook.core.state import State


class Positions:
    """Positions listed one at a time, kept as machine integers (librt's ``vec[i64]``):
    ``append`` as a list's, then handed to NumPy whole, without a copy or a conversion per
    position (a list of Python integers costs NumPy about a hundred nanoseconds a
    position to read)."""

    def __init__(self) -> None:
        self.listed: vec[i64] = vec[i64]()

    def append(self, at: int) -> None:
        self.listed = append(self.listed, at)

    def clear(self) -> None:
        self.listed = vec[i64](capacity=len(self.listed))

    def __len__(self) -> int:
        return len(self.listed)

    def array(self) -> Any:
        """The positions as a (read-only) NumPy array over the same memory."""
        return np.frombuffer(self.listed, np.int64)  # type: ignore[call-overload]


class Writes:
    """The positions of a batch (offset by each row's start) and what they hold: each amount
    at ``where[j]`` is ``values[j]``, each run ``(start, array)`` of ``chunks`` is written at
    ``start`` (a position at most once among them), each position of ``ones`` holds 1 (written
    after the amounts).

    The positions listed after :meth:`begin` are relative to its ``base`` (added by NumPy when
    written): a writer that lists a block's positions from the block's start lists small
    integers, which Python keeps made once, instead of a new integer object per position."""

    def __init__(self) -> None:
        self.where = Positions()
        self.values: vec[float] = vec[float]()
        self.ones = Positions()
        self.chunks: list[tuple[int, Any]] = []
        #: what an encoder keeps between the batches written with these lists (a row's
        #: parts as last written, by whatever key the encoder chooses; :meth:`clear` keeps it)
        self.kept: dict[Any, Any] = {}
        #: :meth:`count`'s scratch: a count per place (zeros between calls), the places counted
        self.tally: list[int] = []
        self.seen: list[int] = []
        #: per :meth:`begin` (and one at 0 first): its base, and where its positions start in
        #: ``where`` and in ``ones``
        self.bases: list[int] = [0]
        self.where_from: list[int] = [0]
        self.ones_from: list[int] = [0]

    def clear(self) -> None:
        self.where.clear()
        self.values = vec[float](capacity=len(self.values))
        self.ones.clear()
        self.chunks.clear()
        if len(self.bases) > 1:
            del self.bases[1:]
            del self.where_from[1:]
            del self.ones_from[1:]

    def begin(self, base: int) -> None:
        """The positions listed from now on (until the next call) are relative to ``base``."""
        k = len(self.bases) - 1
        if k and self.where_from[k] == len(self.where) and self.ones_from[k] == len(self.ones):
            self.bases[k] = base  # the last one listed nothing
            return
        self.bases.append(base)
        self.where_from.append(len(self.where))
        self.ones_from.append(len(self.ones))

    def chunk(self, at: int, values: Any) -> None:
        """The run ``values`` at position ``at`` (relative, as the others)."""
        self.chunks.append((self.bases[-1] + at, values))

    def amount(self, at: int, value: float) -> None:
        """``value`` at position ``at``."""
        self.where.append(at)
        self.values = append(self.values, value)

    def hot(self, start: int, size: int, index: int) -> None:
        """A 1 at ``start + index``, for a one-hot part of ``size`` values at ``start``."""
        if not 0 <= index < size:
            raise RulebookError(f"value {index!r} is outside a part of {size}")
        self.ones.append(start + index)

    def count(self, places: list[int], cards: list[int], start: int, sums: list[float]) -> None:
        """Cards given by number counted per place (``places[card]``), as ``fill`` counts
        copies one ``out[i] += step`` at a time (``sums[k]``: ``k`` of them, :func:`sums`):
        each place's count at ``start + place``."""
        # a kept tally per place (no dictionary: hashing each card's place cost more than the
        # rest of the count), back to zeros when done
        tally, seen = self.tally, self.seen
        try:
            for card in cards:
                i = places[card]
                while i >= len(tally):
                    tally.append(0)
                k = tally[i]
                if k == 0:
                    seen.append(i)
                tally[i] = k + 1
            for i in seen:
                self.amount(start + i, sums[tally[i]])
        finally:
            for i in seen:
                tally[i] = 0
            seen.clear()

    def seats(
        self,
        at_seat: list[dict[str, int]],
        you: int,
        base: int,
        current: Sequence[int],
        winners: Sequence[int],
    ) -> list[tuple[int, dict[str, int]]]:
        """Each seat in relative order from ``you`` with its slots (``at_seat``), having
        marked the ``to_act`` slot of each seat in ``current`` and the ``winner`` slot of each
        of ``winners`` (the row at ``base``)."""
        n = len(at_seat)
        order: list[tuple[int, dict[str, int]]] = []
        for k in range(n):
            p = (you + k) % n
            at = at_seat[k]
            if p in current:
                self.ones.append(base + at["to_act"])
            if p in winners:
                self.ones.append(base + at["winner"])
            order.append((p, at))
        return order

    def write(self, flat: Any) -> None:
        """Write everything listed into ``flat`` (the batch's rows, one after the other, zeros
        where nothing is listed)."""
        for start, chunk in self.chunks:
            flat[start : start + len(chunk)] = chunk
        # the listed positions and amounts are read by NumPy from their own memory; the
        # amounts (doubles) round to float32 as a conversion one at a time does
        where, ones = self.where, self.ones
        if len(where):
            flat[self._absolute(where, self.where_from)] = np.frombuffer(  # type: ignore[call-overload]
                self.values, np.float64
            )
        if len(ones):
            flat[self._absolute(ones, self.ones_from)] = 1.0

    def _absolute(self, listed: Positions, starts: list[int]) -> Any:
        """The positions ``listed`` as an array, each plus the base of its :meth:`begin`."""
        at = listed.array()
        k = len(starts)
        if k > 1:
            bounds = np.empty(k + 1, np.intp)
            bounds[:k] = starts
            bounds[k] = len(listed)
            at = at + np.repeat(np.fromiter(self.bases, np.intp, k), bounds[1:] - bounds[:k])
        return at


class SeatsEncoder(Protocol):
    """What :class:`KeptSeats` reads of the encoder whose seat blocks it keeps: a
    :class:`~rulebook.core.spaces.DirectEncoder` that sets ``keeps_seats`` (named here by what
    it supplies: the encoders' module uses this one, not the other way round)."""

    #: the seats of the configuration, and the first slot of each part of each seat's block
    players: int
    at_seat: list[dict[str, int]]
    #: the object the game keeps its fast path in, if any
    fast: Any

    @property
    def shape(self) -> tuple[int, ...]: ...
    def kept_runs(self) -> list[tuple[int, int, bool, bool]]: ...
    def fill_table_state(self, state: Any, player: int, base: int, out: Writes) -> None: ...
    def seat_flags(self, state: Any) -> tuple[Sequence[int], Sequence[int]]: ...
    def seat_facts(self, state: Any) -> Any: ...
    def seat_key(self, state: Any, p: int, facts: Any) -> object: ...
    def fill_seat_state(
        self, state: Any, p: int, facts: Any, base: int, at: Mapping[str, int], out: Writes
    ) -> None: ...


class KeptSeats:
    """The seat blocks of a batch of ``n`` games, kept between calls of
    :meth:`~rulebook.core.spaces.DirectEncoder.encode_into` (an encoder that sets
    ``keeps_seats``): per game and seat (absolute, not relative) the block and the key it was
    written from (:meth:`~rulebook.core.spaces.DirectEncoder.seat_key`, everything the block
    shows but the ``to_act`` and ``winner`` slots). :meth:`write` rewrites a block only when
    its key changed (or, if the encoder has a ``write_seat`` method, has it patch the block
    from the record of what it showed: below), copies the blocks into ``out`` in the viewers'
    seat orders (one call), then writes each game's table part and the seats' flags from the
    state. The table's kept runs (:meth:`~rulebook.core.spaces.DirectEncoder.kept_runs`) are
    kept the same way, per game or per game and viewer, each beside a record of what it
    shows, updated by :meth:`~rulebook.core.spaces.DirectEncoder.write_run` only when that
    changed and copied into ``out`` with one call per run. The games may change in any way
    between calls (a new game in a row): a key or record is compared, never trusted, and a
    call that fails forgets every one.

    ``enc.write_seat(state, p, facts, last, base, at, out)``, if the encoder has it, writes
    seat ``p``'s block but its ``to_act`` and ``winner`` slots (``facts``:
    :meth:`~rulebook.core.spaces.DirectEncoder.seat_facts`'s; the block's slots at ``base +
    at[name]``) from the record ``last`` (``None``: nothing yet, the block is zeros): it lists
    into ``out`` the whole block or, if the block showed ``last``, every element that changed
    since (a zero included), and returns the record of what the block shows now (``last``
    itself, updated, or a new one)."""

    def __init__(self, enc: SeatsEncoder, n: int) -> None:
        self.n, self.m, self.size = n, enc.players, enc.shape[0]
        at = enc.at_seat
        self.start = min(at[0].values())
        self.block = (self.size - self.start) // self.m
        if self.start + self.m * self.block != self.size or any(
            at[k][name] != start + k * self.block
            for k in range(self.m)
            for name, start in at[0].items()
        ):
            raise RulebookError("the seat blocks are not the tensor's last parts, in order")
        self.at = at[0]
        self.blocks = np.zeros((n * self.m, self.block), np.float32)
        self.keys: list[object] = [None] * (n * self.m)
        #: the encoder's ``write_seat``, if it patches its seat blocks (above), and per game
        #: and seat the record it returned
        self.write_seat: Callable[..., object] | None = getattr(enc, "write_seat", None)
        self.records: list[object] = [None] * (n * self.m)
        #: the table's kept runs: per run its place, whether it is kept per viewer, its rows
        #: (per game, or per game and viewer ``i * m + viewer``), their records, what a call
        #: rewrites and (per viewer) the row each game's viewer sees
        self.runs = enc.kept_runs()
        #: what writes the kept runs: the encoder's :attr:`~rulebook.core.spaces.DirectEncoder.
        #: fast` object if it has one (called directly, not through the encoder), or itself
        self.run_writer: Any = enc.fast if enc.fast is not None else enc
        if any(not 0 <= a < b <= self.start for a, b, _, _ in self.runs):
            raise RulebookError("a kept run is not inside the table part")
        self.run_rows = [
            np.zeros((n * self.m if by_viewer else n, b - a), np.float32)
            for a, b, by_viewer, _ in self.runs
        ]
        self.run_shown: list[list[object]] = [
            [None] * (n * self.m if by_viewer else n) for _, _, by_viewer, _ in self.runs
        ]
        self.run_writes = [Writes() for _ in self.runs]
        #: per run: the rows to zero before its writes, and whether any was written
        self.run_changed: list[list[int]] = [[] for _ in self.runs]
        self.run_written = [False for _ in self.runs]
        self.run_seen: list[list[int]] = [[] for _ in self.runs]
        # what a call writes (kept: a call allocates no lists of its own)
        self.table = Writes()
        self.seats = Writes()
        self.changed: list[int] = []
        self.order: list[int] = []

    def write(
        self, enc: SeatsEncoder, states: Sequence[State], players: Sequence[int], out: Any
    ) -> None:
        """The rows of each ``states[i].observation(players[i])`` into ``out[i]`` (C-contiguous
        ``float32``, ``(n, size)``), the capped parts not clipped yet."""
        n, m, size, block, start = self.n, self.m, self.size, self.block, self.start
        table, seats, changed, order, keys, records = (
            self.table,
            self.seats,
            self.changed,
            self.order,
            self.keys,
            self.records,
        )
        write_seat, at = self.write_seat, self.at
        table.clear()
        seats.clear()
        changed.clear()
        order.clear()
        runs, run_shown, run_writes = self.runs, self.run_shown, self.run_writes
        run_changed, run_seen = self.run_changed, self.run_seen
        run_written, run_writer = self.run_written, self.run_writer
        for r in range(len(runs)):
            run_writes[r].clear()
            run_changed[r].clear()
            run_seen[r].clear()
            run_written[r] = False
        try:
            for i in range(n):
                state, you = states[i], players[i]
                if type(you) is not int or not 0 <= you < m:
                    state.check_seat(you)  # raises, as observation(player) does
                table.begin(i * size)
                enc.fill_table_state(state, you, 0, table)
                for r in range(len(runs)):
                    a, b, by_viewer, patched = runs[r]
                    row = i * m + you if by_viewer else i
                    last = run_shown[r][row]
                    writes = run_writes[r]
                    writes.begin(row * (b - a))
                    shown = run_writer.write_run(state, you, r, last, -a, writes)
                    if shown is not last:
                        run_shown[r][row] = shown
                        run_written[r] = True
                        if last is None or not patched:
                            run_changed[r].append(row)
                    if by_viewer:
                        run_seen[r].append(row)
                current, winners = enc.seat_flags(state)
                table.seats(enc.at_seat, you, 0, current, winners)
                facts = enc.seat_facts(state)
                j = i * m
                if write_seat is not None:
                    for p in range(m):
                        last = records[j + p]
                        seats.begin((j + p) * block)
                        records[j + p] = write_seat(state, p, facts, last, -start, at, seats)
                        if last is None:
                            changed.append(j + p)
                else:
                    for p in range(m):
                        key = enc.seat_key(state, p, facts)
                        if key != keys[j + p]:
                            seats.begin((j + p) * block)
                            enc.fill_seat_state(state, p, facts, -start, at, seats)
                            keys[j + p] = key
                            changed.append(j + p)
                for k in range(m):
                    order.append(j + (you + k) % m)
            if changed:
                self.blocks[changed] = 0.0
            if len(seats.where) or len(seats.ones) or seats.chunks:
                seats.write(self.blocks.reshape(-1))
            for r in range(len(runs)):
                if run_written[r]:
                    rows = self.run_rows[r]
                    if run_changed[r]:
                        rows[run_changed[r]] = 0.0
                    run_writes[r].write(rows.reshape(-1))
        except BaseException:
            self.keys = [None] * (n * m)
            self.records = [None] * (n * m)
            self.run_shown = [[None] * len(shown) for shown in run_shown]
            raise
        out[:, :start] = 0.0
        for r in range(len(runs)):
            a, b, by_viewer, _ = runs[r]
            rows = self.run_rows[r]
            if by_viewer:
                seen = run_seen[r]
                out[:, a:b] = rows[np.fromiter(seen, np.intp, len(seen))]
            else:
                out[:, a:b] = rows
        out[:, start:] = self.blocks[order].reshape(n, m * block)
        table.write(out.reshape(-1))  # the table parts, and the seats' flags over the blocks


def sums(step: float, most: int) -> list[float]:
    """``k`` times ``step`` added one at a time into a ``float32`` (``out[i] += step``, as
    ``fill`` counts copies), for ``k`` in ``0 .. most``: a count's value in one lookup, the
    very same number."""
    cell = np.zeros(1, np.float32)
    made = [0.0]
    for _ in range(most):
        cell[0] += step
        made.append(float(cell[0]))
    return made
