"""The web app's worker processes (:mod:`rulebook.web.worker`): answers, errors, and a worker
killed with requests in flight."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

import rulebook
from rulebook.core import IllegalAction
from rulebook.web.worker import WorkerFailed, WorkerLost, Workers


def _data(moves: int) -> tuple[dict[str, object], int]:
    """A game after ``moves`` moves, as its save data, and the seat to move."""
    state = rulebook.new_game("archmagi", 2, seed=11)
    for _ in range(moves):
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    log = [[p, str(a)] for p, a in state.history]
    return {"format": "rulebook/1", **state.setup.to_dict(), "log": log}, state.current_players()[0]


def test_answers_errors_and_a_killed_worker() -> None:
    async def scenario() -> None:
        pool = Workers(1, "bot worker")
        await pool.start()
        try:
            data, seat = _data(3)
            move = await pool.call("choose", "g", data, seat, "random")
            assert isinstance(move, str) and move
            with pytest.raises(WorkerFailed, match="no agent called"):
                await pool.call("choose", "g", data, seat, "no-such-bot")
            worker = pool.workers[0]
            slow = [
                asyncio.create_task(pool.call("choose", f"g{i}", data, seat, "mcts:5000"))
                for i in range(3)
            ]
            await asyncio.sleep(0.3)
            os.kill(worker.process.pid, signal.SIGKILL)
            for task in slow:  # every request it held fails, none hangs
                with pytest.raises(WorkerLost):
                    async with asyncio.timeout(10):
                        await task
            again = await pool.call("reveals", "g", data)  # a new worker takes over
            assert isinstance(again, bool)
            assert pool.restarts == 1 and pool.workers[0] is not worker
        finally:
            await pool.stop()
        assert all(w.process.returncode is not None for w in pool.workers)

    asyncio.run(scenario())


def test_a_worker_advances_the_state_it_kept_and_rebuilds_one_that_no_longer_fits() -> None:
    """bot_moves keeps each game's state with the log it was built from: a longer log is
    played on from it; a log that changed before its end, or another setup, starts again."""
    from rulebook.web import bot_moves

    data, _ = _data(12)
    log = data["log"]
    assert isinstance(log, list)
    first = bot_moves._state_for("kept", {**data, "log": log[:8]})
    assert bot_moves._state_for("kept", data) is first  # played on: the same object
    assert [[p, str(a)] for p, a in first.history] == log
    changed = {**data, "log": [*log[:5], [log[5][0], "no such move"]]}  # refused: not kept
    with pytest.raises(IllegalAction):
        bot_moves._state_for("kept", changed)
    again = bot_moves._state_for("kept", data)  # the cache lost it: built anew, the same game
    assert again is not first and again.history == first.history
    reseeded = bot_moves._state_for("kept", {**data, "seed": 12, "log": []})
    assert reseeded is not again and reseeded.setup.seed == 12 and not reseeded.history
    swapped = bot_moves._state_for("kept", {**data, "log": log[:4]})  # shorter: not an extension
    assert len(swapped.history) == 4
