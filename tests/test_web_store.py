"""The store's checked writes (rulebook.web.store): a move or an undo is stored only if the game's
stored count of writes is the one it was made on, so two writers that raced can never fork a
log; and a database made before the count existed is brought up to date when opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from rulebook.core import Setup
from rulebook.web.store import MoveWrite, Store

SETUP = Setup("battle-merchants", 2, 7, "standard", {})


def store_with_game(path: Path) -> Store:
    store = Store(f"sqlite:///{path}")
    store.create("g", SETUP, ["human", "human"], [])
    return store


def move(writes: int, number: int, text: str, game: str = "g") -> MoveWrite:
    return MoveWrite(game, writes, number, number % 2, text, False, False)


def test_a_move_made_on_a_stale_copy_is_not_stored(tmp_path: Path) -> None:
    store = store_with_game(tmp_path / "g.sqlite3")
    assert store.write_moves([move(0, 0, "a")]) == [True]
    assert store.write_moves([move(0, 0, "b")]) == [False]  # raced: the same count
    assert store.write_moves([move(1, 1, "c")]) == [True]
    stored = store.load("g")
    assert stored is not None and stored.log == [(0, "a"), (1, "c")] and stored.writes == 2


def test_a_refused_move_leaves_the_rest_of_its_batch_stored(tmp_path: Path) -> None:
    store = store_with_game(tmp_path / "g.sqlite3")
    store.create("h", SETUP, ["human", "human"], [])
    assert store.write_moves([move(0, 0, "a")]) == [True]
    batch = [move(0, 0, "x", "h"), move(0, 1, "stale"), move(1, 1, "y", "h")]
    assert store.write_moves(batch) == [True, False, True]
    batch = [move(2, 2, "z", "h"), move(2, 2, "raced", "h"), move(1, 1, "b")]
    assert store.write_moves(batch) == [True, False, True]
    assert store.since("g", 0)[:2] == (2, [(0, "a"), (1, "b")])
    assert store.since("h", 0)[:2] == (3, [(0, "x"), (1, "y"), (0, "z")])


def test_an_undo_after_another_write_is_refused(tmp_path: Path) -> None:
    """The undo check's ABA: a move undone and made again elsewhere still counts two writes."""
    store = store_with_game(tmp_path / "g.sqlite3")
    assert store.write_moves([move(0, 0, "a")]) == [True]
    assert store.undo("g", 1, 0, False)  # back to no move, at 2 writes
    assert store.write_moves([move(2, 0, "a")]) == [True]  # the same log as after write 1
    assert not store.undo("g", 1, 0, False)  # a copy at write 1 may not undo
    assert store.write_moves([move(1, 1, "b")]) == [False]  # nor move
    assert store.since("g", 0)[:2] == (3, [(0, "a")])


def test_since_reads_the_count_with_the_moves_after_a_number(tmp_path: Path) -> None:
    store = store_with_game(tmp_path / "g.sqlite3")
    for n, text in enumerate("abc"):
        assert store.write_moves([move(n, n, text)]) == [True]
    assert store.since("g", 1)[:2] == (3, [(1, "b"), (0, "c")])
    assert store.since("g", 3)[:2] == (3, [])
    assert store.since("nope", 0) is None
    assert store.writes_of(["g", "nope"]) == {"g": 3}


def test_a_database_from_before_the_count_of_writes_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # the schema as main had it before issue 24
        db.executescript(
            """
            CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64), variant VARCHAR(64),
                players INTEGER, seed VARCHAR(64), options TEXT, seats TEXT, over BOOLEAN,
                created DATETIME);
            CREATE TABLE tokens (digest VARCHAR(64) PRIMARY KEY, game_id VARCHAR(32), seats TEXT);
            CREATE TABLE moves (game_id VARCHAR(32), number INTEGER, seat INTEGER, move TEXT,
                PRIMARY KEY (game_id, number));
            INSERT INTO games VALUES ('old', 'battle-merchants', 'standard', 2, '7', '{}',
                '["human", "human"]', 0, '2026-01-01 00:00:00');
            INSERT INTO moves VALUES ('old', 0, 0, 'a');
            """
        )
    store = Store(f"sqlite:///{path}")
    stored = store.load("old")
    assert stored is not None and stored.log == [(0, "a")] and stored.writes == 0
    assert store.write_moves([move(0, 1, "b", "old")]) == [True]
    assert store.since("old", 0)[:2] == (1, [(0, "a"), (1, "b")])
    assert store.waiting_for_bots() == []
    # issue 25's columns and tables: the old game has no clock, no bot in a seat, no vote
    found = store.load("old")
    assert found is not None and found.clock is None and found.clocks.left is None
    assert found.stints == () and found.votes == {} and found.rematch is None
    assert store.overdue(1e12) == [] and store.open_tables() == []
    with sqlite3.connect(path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    assert {"stints", "votes", "seen"} <= tables
    assert {"clock", "clock_left", "clock_since", "deadline", "open_seats", "rematch"} <= columns
