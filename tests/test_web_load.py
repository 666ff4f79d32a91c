"""The load generator (``benchmarks/web_load.py``) and the soak's command line, without a server:
a request refused for load (503 with when to ask again) is sent again after that wait and
counted as a refusal, any other failure as an error; the latency of a move sent again counts
from its first sending; acknowledged moves missing from the store are found; ``--think MIN-MAX``
is the one way to give the think time, and bad values get a clear error."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import soak
import web_load

BUSY_MOVE = "the server is too busy to take moves now; nothing was changed"
BUSY_GAME = "the server is too busy to start new games now; nothing was created"


# -- the resend decision ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("status", "retry_after", "wait"),
    [
        (503, "2", 2.0),  # the header
        (503, 2, 2.0),  # the socket's retry_after
        (503, "0.5", 0.5),
        (503, "600", web_load.LONGEST_WAIT),  # waits at most a minute, as the page
        (503, None, None),  # a 503 that says not when is a failure, as the page takes it
        (503, "0", None),
        (503, "-3", None),
        (503, "nan", None),
        (503, "inf", None),
        (503, "Wed, 21 Oct 2026 07:28:00 GMT", None),
        (503, True, None),
        (429, "60", None),  # a client's share is not the server's load
        (409, None, None),
        (500, "2", None),
        (200, None, None),
    ],
)
def test_only_a_503_saying_when_is_asked_again(
    status: int, retry_after: object, wait: float | None
) -> None:
    assert web_load.refusal(status, retry_after) == wait


def test_the_wait_is_spread_over_a_second() -> None:
    rng = random.Random(1)
    waits = [web_load.resend_after(2.0, rng) for _ in range(200)]
    assert all(2.0 <= w < 3.0 for w in waits)
    assert max(waits) - min(waits) > 0.5  # spread, not all at once


# -- a person sending a refused move again ---------------------------------------------------
def table(views: int = 3) -> web_load.Game:
    """A game of two seats (connections 0 and 1) and a spectator (2), all at version 5, seat
    0 to move ``buy``."""
    game = web_load.Game("g1", ["t0", "t1"])
    game.versions = [5] * views
    game.views[0] = {"seat": 0, "version": 5, "legal": [{"text": "buy"}]}
    return game


class Socket:
    """A seat's socket: answers each move with the next of ``answers`` (the server's reply,
    less the id), as the game's watcher would hand it over; on ``moved`` every connection
    sees the new version and the game ends."""

    def __init__(self, game: web_load.Game, stats: web_load.Stats, answers: list[dict]) -> None:
        self.game, self.stats, self.answers = game, stats, answers
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        message = json.loads(text)
        self.sent.append(message)
        reply = {**self.answers.pop(0), "id": message["id"]}
        asyncio.get_running_loop().call_soon(self.answer, reply)

    def answer(self, reply: dict[str, Any]) -> None:
        self.game.answers.pop(reply["id"]).set_result(reply)
        if reply["type"] == "moved":
            for i in range(len(self.game.versions)):
                self.game.seen(i, reply["version"], self.stats)
            self.game.over.set()


class Http:
    """An HTTP client posting to a server that gives ``responses`` in turn."""

    def __init__(self, responses: list[httpx.Response]) -> None:
        self.responses = responses
        self.posted: list[tuple[str, Any]] = []

    async def post(self, path: str, json: Any = None, headers: Any = None) -> httpx.Response:
        self.posted.append((path, json))
        return self.responses.pop(0)


def play(game: web_load.Game, stats: web_load.Stats, https: list[Any], acked: list[tuple]) -> None:
    async def go() -> None:
        game.changed[0].set()
        person = web_load.person(
            https, game, 0, stats, random.Random(0), (0.0, 0.0), lambda *a: acked.append(a)
        )
        async with asyncio.timeout(10):
            await person

    asyncio.run(go())


def busy(status: int = 503) -> dict[str, Any]:
    return {"type": "error", "status": status, "error": BUSY_MOVE, "retry_after": 2}


def test_a_move_refused_for_load_is_sent_again_until_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float] = []
    monkeypatch.setattr(web_load, "resend_after", lambda s, rng: waits.append(s) or 0.05)
    game, stats, acked = table(), web_load.Stats(measuring=True), []
    socket = Socket(game, stats, [busy(), busy(), {"type": "moved", "version": 6}])
    game.sockets[0] = socket
    play(game, stats, [], acked)
    bodies = [{k: m[k] for k in ("seat", "move", "version")} for m in socket.sent]
    assert bodies == [{"seat": 0, "move": "buy", "version": 5}] * 3  # the same move each time
    assert waits == [2.0, 2.0]  # the wait the server said
    assert stats.errors == 0 and not stats.kinds
    assert stats.refused == {f"move: {BUSY_MOVE}": 2}
    assert stats.refusals("move") == 2 and stats.refused_measuring["move"] == 2
    assert stats.resent == 1
    assert acked == [("g1", 5, 0, "buy")]
    # the latency counts from the first sending: two waits of 0.05 s at least
    assert len(stats.latencies) == 1 and stats.latencies[0] >= 0.1
    assert game.waiting == []


@pytest.mark.parametrize(
    "refused",
    [busy(409), {**busy(), "retry_after": None}, busy(429)],
    ids=["the game moved on", "503 saying not when", "429"],
)
def test_a_move_refused_otherwise_is_an_error_and_not_sent_again(
    refused: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_load, "resend_after", lambda s, rng: 0.0)
    game, stats, acked = table(), web_load.Stats(measuring=True), []
    socket = Socket(game, stats, [refused])
    game.sockets[0] = socket

    async def end_soon() -> None:  # time enough to send it again, were it sent again
        await asyncio.sleep(0.2)
        game.over.set()
        game.changed[0].set()

    async def go() -> None:
        ending = asyncio.create_task(end_soon())
        game.changed[0].set()
        await web_load.person(
            [], game, 0, stats, random.Random(0), (0.0, 0.0), lambda *a: acked.append(a)
        )
        await ending

    asyncio.run(go())
    assert len(socket.sent) == 1 and acked == []
    assert stats.errors == 1 and not stats.refused
    assert game.waiting == [] and stats.latencies == []


def test_a_move_posted_over_http_and_refused_is_posted_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An older server (``--baseline-src``) takes moves by HTTP: its 503 and Retry-After."""
    monkeypatch.setattr(web_load, "resend_after", lambda s, rng: s / 40)
    game, stats, acked = table(), web_load.Stats(measuring=True), []
    refused = httpx.Response(503, headers={"retry-after": "2"}, json={"error": BUSY_MOVE})
    made = httpx.Response(200, json={"version": 6})
    http = Http([refused, made])

    original = http.post

    async def post(path: str, json: Any = None, headers: Any = None) -> httpx.Response:
        answer = await original(path, json, headers)
        if answer.status_code == 200:
            for i in range(3):
                game.seen(i, 6, stats)
            game.over.set()
        return answer

    monkeypatch.setattr(http, "post", post)
    play(game, stats, [http], acked)
    assert [p for p, _ in http.posted] == ["/api/games/g1/move"] * 2
    assert http.posted[0][1] == http.posted[1][1] == {"seat": 0, "move": "buy", "version": 5}
    assert stats.errors == 0 and stats.refused == {f"move: {BUSY_MOVE}": 1}
    assert stats.resent == 1 and acked == [("g1", 5, 0, "buy")]
    assert stats.latencies[0] >= 0.05


def test_a_new_game_refused_for_load_is_asked_for_again(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr(web_load, "resend_after", lambda s, rng: waits.append(s) or 0.0)
    refused = httpx.Response(503, headers={"retry-after": "10"}, json={"error": BUSY_GAME})
    created = httpx.Response(201, json={"id": "g2", "seats": []})
    http = Http([refused, refused, created])
    stats = web_load.Stats()
    body = {"game": "archmagi", "players": 3, "seats": ["human", "human", "random"]}
    links = asyncio.run(web_load.new_game(http, body, stats, random.Random(0)))  # type: ignore
    assert links == {"id": "g2", "seats": []}
    assert [b for _, b in http.posted] == [body] * 3
    assert waits == [10.0, 10.0]
    assert stats.refused == {f"game: {BUSY_GAME}": 2} and stats.errors == 0
    assert stats.refused_measuring == {}  # refused during the warm-up: not while measuring
    # a failure is an error, not asked again
    http = Http([httpx.Response(400, json={"error": "bad request: players"})])
    stats = web_load.Stats()
    found = asyncio.run(web_load.new_game(http, body, stats, random.Random(0)))  # type: ignore
    assert found is None
    assert stats.errors == 1 and not stats.refused and len(http.posted) == 1


# -- the report ---------------------------------------------------------------------------------
def test_the_report_counts_refusals_apart_from_errors() -> None:
    stats = web_load.Stats()
    stats.refuse("game", BUSY_GAME)  # in the warm-up
    stats.measuring = True
    for _ in range(3):
        stats.refuse("move", BUSY_MOVE)
    stats.refuse("game", BUSY_GAME)
    stats.resent = 2
    stats.error("move: ConnectionClosedError no close frame received or sent")
    row = web_load.outcome(stats, 1234, [])
    assert row["errors"] == 1
    assert row["errors_by_kind"] == {
        "move: ConnectionClosedError no close frame received or sent": 1
    }
    assert (row["moves_refused"], row["games_refused"]) == (3, 2)
    assert (row["moves_refused_measuring"], row["games_refused_measuring"]) == (3, 1)
    assert row["refused_by_reason"] == {f"move: {BUSY_MOVE}": 3, f"game: {BUSY_GAME}": 2}
    assert row["moves_resent_and_made"] == 2
    assert (row["acknowledged_moves"], row["lost_moves"]) == (1234, 0)
    json.dumps(row)  # --json writes it
    line = web_load.outcome_line(row)
    assert line.startswith("errors 1 (0 of 1,234 acknowledged moves lost); ")
    assert line.endswith(
        "refused for load and asked again: moves 3 times (2 moves made when sent again), "
        "new games 2 times (3 and 1 of those while measuring)"
    )
    kinds = web_load.outcome_kinds(stats)
    assert kinds[0] == "errors:" and kinds[2].startswith("refused for load")
    assert f"     3 x move: {BUSY_MOVE}" in kinds
    quiet = web_load.outcome(web_load.Stats(), 10, None)
    assert web_load.outcome_line(quiet) == (
        "errors 0 (10 acknowledged moves, not checked in the store); refused for load: none"
    )
    assert web_load.outcome_kinds(web_load.Stats()) == []


def test_acknowledged_moves_missing_from_the_store_are_found(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite3"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE moves (game_id TEXT, number INT, seat INT, move TEXT)")
        connection.executemany(
            "INSERT INTO moves VALUES (?, ?, ?, ?)",
            [("g1", 0, 0, "buy"), ("g1", 1, 1, "sell"), ("g2", 0, 0, "pass")],
        )
    connection.close()
    acked = {("g1", 0): (0, "buy"), ("g1", 1): (1, "sell")}
    assert web_load.lost_moves(f"sqlite:///{db}", acked) == []
    acked[("g2", 0)] = (0, "buy")  # stored otherwise
    acked[("g3", 4)] = (1, "sell")  # not stored
    assert web_load.lost_moves(f"sqlite:///{db}", acked) == [
        "g2 move 0: seat 0 'buy' (stored: (0, 'pass'))",
        "g3 move 4: seat 1 'sell' (stored: None)",
    ]


# -- --think ------------------------------------------------------------------------------------
PARSERS = [web_load.arguments, soak.arguments]


@pytest.mark.parametrize("arguments", PARSERS, ids=["web_load", "soak"])
def test_think_is_given_as_min_max(arguments: Any) -> None:
    assert arguments().parse_args([]).think == (1.0, 3.0)
    assert arguments().parse_args(["--think", "5-15"]).think == (5.0, 15.0)
    assert arguments().parse_args(["--think", "0.5-2"]).think == (0.5, 2.0)
    assert arguments().parse_args(["--think", "2-2"]).think == (2.0, 2.0)


@pytest.mark.parametrize("arguments", PARSERS, ids=["web_load", "soak"])
@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("3-1", "'3-1': MIN must be at least 0 and at most MAX"),
        ("x", "'x' is not MIN-MAX: give two numbers of seconds"),
        ("3", "'3' is not MIN-MAX"),
        ("1-", "'1-' is not MIN-MAX"),
        ("1-x", "'1-x' is not MIN-MAX"),
        ("1-inf", "'1-inf' is not MIN-MAX"),
        ("nan-1", "'nan-1' is not MIN-MAX"),
    ],
)
def test_a_bad_think_gets_a_clear_error(
    arguments: Any, given: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        arguments().parse_args(["--think", given])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --think: {said}" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("arguments", PARSERS, ids=["web_load", "soak"])
@pytest.mark.parametrize("old", ["--think-min", "--think-max"])
def test_the_old_think_options_are_gone(
    arguments: Any, old: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        arguments().parse_args([old, "2"])
    assert "unrecognized arguments" in capsys.readouterr().err


def test_think_range_raises_argparses_error() -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        web_load.think_range("3-1")


# -- the stack's floor (benchmarks/web_floor.py, cited in docs/performance.md) -----------------
FLOOR = Path(__file__).resolve().parent.parent / "benchmarks" / "web_floor.py"


@pytest.mark.parametrize("fanout", ["tasks", "direct"])
def test_the_floor_benchmark_serves_rooms_and_reports_cpu_per_move(fanout: str) -> None:
    options = ["--rooms", "8", "--warmup", "2", "--seconds", "4", "--fanout", fanout]
    done = subprocess.run(
        [sys.executable, str(FLOOR), *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = re.fullmatch(
        r"8 rooms: ([\d.]+) moves/s; CPU per move: server ([\d.]+) ms, "
        r"load generator ([\d.]+) ms\n",
        done.stdout,
    )
    assert line is not None, done.stdout
    assert 1.0 < float(line[1]) < 8.0  # a move every 1-3 s in each of 8 rooms
    assert float(line[2]) > 0 and float(line[3]) > 0


@pytest.mark.parametrize(
    "options", [["--rooms", "0"], ["--seconds", "0"], ["--warmup", "-1"], ["--seconds", "nan"]]
)
def test_the_floor_benchmark_refuses_bad_values_in_one_line(options: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(FLOOR), *options], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--rooms must be at least 1" in done.stderr.splitlines()[-1]
