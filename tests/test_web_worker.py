"""The web app's worker processes (:mod:`rulebook.web.worker`): answers, errors, and a worker
killed with requests in flight."""

from __future__ import annotations

import asyncio
import os
import signal
from dataclasses import replace
from typing import Any, NamedTuple

import pytest

import rulebook
from rulebook.core import IllegalAction
from rulebook.web.bot_moves import Told
from rulebook.web.bots import BotRunner, Tellings
from rulebook.web.worker import WorkerFailed, WorkerLost, Workers


def _told(moves: int, key: str = "g", lineage: int = 0, start: int = 0) -> tuple[Told, int]:
    """A game after ``moves`` moves, told from move ``start`` on, and the seat to move."""
    state = rulebook.new_game("archmagi", 2, seed=11)
    for _ in range(moves):
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    log = [(p, str(a)) for p, a in state.history]
    told = Told(key, lineage, state.setup.to_dict(), start, log[start:])
    return told, state.current_players()[0]


def test_answers_errors_and_a_killed_worker() -> None:
    async def scenario() -> None:
        pool = Workers(1, "bot worker")
        await pool.start()
        try:
            told, seat = _told(3)
            move = await pool.call("choose", told, seat, "random")
            assert isinstance(move, str) and move
            with pytest.raises(WorkerFailed, match="no agent called"):
                await pool.call("choose", told, seat, "no-such-bot")
            worker = pool.workers[0]
            slow = [
                asyncio.create_task(pool.call("choose", _told(3, f"g{i}")[0], seat, "mcts:5000"))
                for i in range(3)
            ]
            await asyncio.sleep(0.3)
            os.kill(worker.process.pid, signal.SIGKILL)
            for task in slow:  # every request it held fails, none hangs
                with pytest.raises(WorkerLost):
                    async with asyncio.timeout(10):
                        await task
            again = await pool.call("reveals", told)  # a new worker takes over
            assert isinstance(again, bool)
            assert pool.restarts == 1 and pool.workers[0] is not worker
        finally:
            await pool.stop()
        assert all(w.process.returncode is not None for w in pool.workers)

    asyncio.run(scenario())


def test_a_worker_plays_on_from_the_moves_it_holds_and_asks_for_the_rest() -> None:
    """bot_moves keeps each game's state: told the moves since those it holds, it plays on
    from it; told moves after others than it holds (another lineage, another count, a game it
    dropped) it answers None and keeps nothing; told whole, it starts again."""
    from rulebook.web import bot_moves

    whole, _ = _told(12, "kept")
    first = bot_moves._state_for(_told(8, "kept")[0], 8)
    assert first is not None
    again = bot_moves._state_for(_told(12, "kept", start=8)[0], 12)
    assert again is first  # played on: the same object
    assert [[p, str(a)] for p, a in first.history] == [list(m) for m in whole.moves]
    assert bot_moves._state_for(_told(12, "kept", start=11)[0], 12) is None  # holds 12, not 11
    assert "kept" not in bot_moves._states
    assert bot_moves._state_for(_told(12, "kept", start=8)[0], 12) is None  # dropped: asks
    fresh = bot_moves._state_for(whole, 11)  # told whole: built anew, keeps what it was told
    assert fresh is not None and fresh is not first and len(fresh.history) == 11
    other = _told(12, "kept", lineage=1, start=11)[0]
    assert bot_moves._state_for(other, 12) is None  # an undo's new log: not played on
    refused = replace(whole, moves=[*whole.moves[:5], (whole.moves[5][0], "no such move")])
    with pytest.raises(IllegalAction):
        bot_moves._state_for(refused, 12)
    assert "kept" not in bot_moves._states  # a refused move keeps nothing
    reseeded = bot_moves._state_for(Told("kept", 2, {**whole.setup, "seed": 12}, 0, []), 0)
    assert reseeded is not None and reseeded.setup.seed == 12 and not reseeded.history


class _Move(NamedTuple):
    seat: int
    move: str


class _Game:
    """A game as the server holds it, for :class:`Tellings` (a log and its lineage)."""

    def __init__(self, told: Told) -> None:
        self.id = told.key
        self.lineage = told.lineage
        self.log = [_Move(s, m) for s, m in told.moves]
        self.setup = told.setup

    def worker_setup(self) -> dict[str, Any]:
        return self.setup


def test_the_server_tells_each_worker_the_moves_it_lacks() -> None:
    """Tellings: the first request tells the whole log; the next, only the moves since those
    kept (a bot's move keeps them all, an undo check all but the last); a new lineage, or a
    worker holding more moves than are to be kept, the whole log again."""
    whole, seat = _told(10, "t")
    game = _Game(whole)
    record = Tellings()
    assert record.tell(game, 10).start == 0
    game.log += [_Move(seat, "x")]
    assert (record.tell(game, 11), record.kept["t"]) == (
        Told("t", 0, whole.setup, 10, [(seat, "x")]),
        (0, 11),
    )
    assert record.tell(game, 10).start == 0  # it holds 11, 10 to keep: told whole
    assert record.tell(game, 11).start == 10
    game.lineage = 5
    assert record.tell(game, 11).start == 0  # another lineage: told whole
    assert record.tell(game, 11, whole=True).start == 0


def test_a_worker_that_dropped_a_game_is_told_it_whole() -> None:
    """Through real workers: a bot's move tells the moves since the last, an undo check
    keeps all but the last move, and a worker that no longer holds the game (answers None)
    is told it whole at once, the move still chosen."""

    async def scenario() -> None:
        runner = BotRunner(1)
        await runner.start()
        try:
            worker = runner.bots.workers[0]
            starts: list[int] = []
            call = worker.call

            async def spied(name: str, told: Told, *args: Any) -> Any:
                starts.append(told.start)
                return await call(name, told, *args)

            worker.call = spied  # type: ignore[method-assign]
            six, seat = _told(6, "w")
            game = _Game(six)
            assert isinstance(await runner.choose(game, seat, "random"), str)
            nine, seat = _told(9, "w")
            game.log = [_Move(s, m) for s, m in nine.moves]
            assert isinstance(await runner.choose(game, seat, "random"), str)
            assert starts == [0, 6] and runner._told[worker].kept["w"] == (0, 9)
            # a telling of another lineage makes the worker drop the game, as its cache would
            assert (
                await call("choose", replace(nine, lineage=7, start=9, moves=[]), seat, "x") is None
            )
            assert isinstance(await runner.choose(game, seat, "random"), str)
            assert starts == [0, 6, 9, 0]
            assert isinstance(await runner.reveals(game), bool)
            assert runner._told[runner.checker.workers[0]].kept["w"] == (0, 8)
        finally:
            await runner.close()

    asyncio.run(scenario())
