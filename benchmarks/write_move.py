"""The client's CPU of one move's write on PostgreSQL: the server's way (:class:`AsyncMoves`,
the prepared statement sent through libpq) beside psycopg's ``execute`` of the same statement.

A throwaway PostgreSQL server (the machine's binaries), two games, ``--writes`` moves written
one after another into each, each write awaited; the CPU of this process
(``time.process_time``) per write, on uvloop as in the server, the two ways alternating
``--repeat`` times.

Usage::

    python benchmarks/write_move.py [--writes 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pgtemp import missing, postgres
from rulebook.core import Setup
from rulebook.web.store import _WRITE_MOVE, AsyncMoves, MoveWrite, Store, _psycopg


def move(game: str, writes: int) -> MoveWrite:
    return MoveWrite(game, writes, writes, writes % 2, f"move {writes}", False, False)


async def server_way(dsn: str, game: str, n: int) -> float:
    """CPU seconds of ``n`` writes through :class:`AsyncMoves` (one connected first)."""
    moves = AsyncMoves(lambda: psycopg.AsyncConnection.connect(dsn, autocommit=True))
    assert await moves.write_moves([move(game, 0)]) == [True]
    start = time.process_time()
    for i in range(1, n):
        assert await moves.write_moves([move(game, i)]) == [True]
    spent = time.process_time() - start
    await moves.close()
    return spent


async def execute_way(dsn: str, game: str, n: int) -> float:
    """CPU seconds of ``n`` writes through psycopg's ``execute`` (prepared after 5 uses)."""
    sql, names, fixed = _psycopg(_WRITE_MOVE)

    def params(m: MoveWrite) -> list[Any]:
        values = {
            **fixed,
            "b_id": m.game_id,
            "b_writes": m.writes,
            "b_over": m.over,
            "b_bots": m.bots_move,
            "b_left": None,
            "b_since": None,
            "b_deadline": None,
            "game_id": m.game_id,
            "number": m.number,
            "seat": m.seat,
            "move": m.move,
        }
        return [values[name] for name in names]

    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
        await connection.execute(sql, params(move(game, 0)))
        start = time.process_time()
        for i in range(1, n):
            cursor = await connection.execute(sql, params(move(game, i)))
            assert cursor.rowcount == 1
        return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if (why := missing()) is not None:
        print(f"no PostgreSQL: {why}", file=sys.stderr)
        return 1
    ways: dict[str, Callable[[str, str, int], Awaitable[float]]] = {
        "AsyncMoves (libpq, prepared)": server_way,
        "psycopg execute": execute_way,
    }
    with postgres() as url:
        store = Store(url)
        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        for r in range(args.repeat):
            for k, (name, way) in enumerate(ways.items()):
                game = f"bench-{r}-{k}"
                setup = Setup("battle-merchants", 2, 7, "standard", {})
                store.create(game, setup, ["human"] * 2, [])
                spent = uvloop.run(way(dsn, game, args.writes))  # the server's loop
                print(f"{name:30} {1e6 * spent / (args.writes - 1):6.1f} us of CPU a write")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
