"""Outside agents at the table (rulebook.agents.outside): programs through ``cmd:`` (the
examples in Python and in POSIX sh, programs that hang, die, babble or ignore the end) and
remote agents through ``ws:`` (a small WebSocket server in the test)."""

from __future__ import annotations

import json
import logging
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import rulebook
from rulebook.agents import agent_seed, make_agent
from rulebook.agents.outside import ProgramAgent, SocketAgent
from rulebook.agents.protocol import OutsideAgent, Policy
from rulebook.core import State
from rulebook.simulate import play

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHELL_AGENT = f"cmd:sh {shlex.quote(str(EXAMPLES / 'agent.sh'))}"
PYTHON_AGENT = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLES / 'agent_python.py'))}"


def python(code: str) -> list[str]:
    """A program in Python, as the argv of a program agent."""
    return [sys.executable, "-c", code]


def battle() -> tuple[State, int]:
    state = rulebook.new_game("battle-merchants", players=2, seed=1)
    return state, state.current_players()[0]


def play_with(state: State, outside: OutsideAgent, seat: int = 0) -> State:
    """Play ``state`` to its end with ``outside`` in ``seat`` and random agents elsewhere,
    then tell the outside agent the game is over."""
    agents = [make_agent("random", agent_seed(7, p)) for p in range(state.num_players)]
    agents[seat] = outside
    try:
        play(state, agents)
    finally:
        outside.finish(state)
    return state


def configurations(game: str) -> Iterator[tuple[str, int]]:
    """Each variant of ``game`` at its least and its most seats."""
    for variant in rulebook.get_game(game).variants:
        for players in sorted({variant.min_players, variant.max_players}):
            yield variant.name, players


@pytest.mark.parametrize("game", rulebook.games())
def test_the_shell_agent_plays_every_variant_to_the_end(game: str) -> None:
    for variant, players in configurations(game):
        state = rulebook.new_game(game, players=players, seed=11, variant=variant)
        agent = make_agent(SHELL_AGENT, seed=5)
        assert isinstance(agent, ProgramAgent)
        seat = players - 1  # the last seat: it waits for the others' moves
        play_with(state, agent, seat)
        assert state.is_terminal()
        tally = agent.tally
        shell_moves = sum(1 for p, _ in state.history if p == seat)
        where = f"{game} {variant} {players}: {tally} {agent.incidents}"
        assert tally["moves"] == tally["answers"] == shell_moves > 0, where
        assert tally["bad_answers"] == tally["fallbacks"] == tally["timeouts"] == 0, where
        assert agent._process is None  # stopped at the end


def test_the_python_agent_plays_a_game_and_exits_at_the_end() -> None:
    state = rulebook.new_game("pandoria-merchants", players=2, seed=2)
    agent = make_agent(PYTHON_AGENT, seed=1)
    assert isinstance(agent, ProgramAgent)
    process: list[Any] = []
    opened = agent.open

    def keep(state: State, player: int) -> None:
        opened(state, player)
        process.append(agent._process)

    agent.open = keep  # type: ignore[method-assign]
    play_with(state, agent)
    assert state.is_terminal() and agent.tally["answers"] == agent.tally["moves"] > 0
    assert process[0].returncode == 0  # it read "end" and left by itself


def test_the_program_is_sent_start_then_moves_and_its_stderr_goes_to_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    record = tmp_path / "heard.jsonl"
    code = (
        "import json, sys\n"
        f"out = open({str(record)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    out.write(line); out.flush()\n"
        "    m = json.loads(line)\n"
        "    print('heard', m['type'], file=sys.stderr, flush=True)\n"
        "    if m['type'] == 'move': print(json.dumps({'index': 1}), flush=True)\n"
    )
    state, player = battle()
    agent = ProgramAgent(python(code), seed=9, policy=Policy(seconds=20))
    with caplog.at_level(logging.INFO, logger="rulebook.agents.outside"):
        first = agent.act(state, player)
        agent.finish(state)
    assert first == state.legal_actions(player)[0]
    heard = [json.loads(line) for line in record.read_text().splitlines()]
    assert [m["type"] for m in heard] == ["start", "move", "end"]
    start = heard[0]
    assert start == {
        "type": "start",
        "protocol": 1,
        "game": "battle-merchants",
        "variant": "standard",
        "options": {},
        "players": 2,
        "seat": player,
        "seed": start["seed"],
    }
    assert start["seed"] not in (9, state.setup.seed)
    assert heard[1]["moves"] == [str(a) for a in state.legal_actions(player)]
    assert heard[1]["deadline_ms"] is not None and 0 < heard[1]["deadline_ms"] <= 20000
    assert "heard move" in caplog.text


def test_a_program_that_hangs_is_timed_out_and_its_late_answer_dropped() -> None:
    # answers its first request after 1.5 s (too late), then every request at once
    code = (
        "import sys, time\n"
        "first = True\n"
        "for line in sys.stdin:\n"
        '    if \'"type":"move"\' not in line: continue\n'
        "    if first: time.sleep(1.5); first = False; print('kingdom 3', flush=True)\n"
        "    else: print('learn 2', flush=True)\n"
    )
    state, player = battle()
    agent = ProgramAgent(python(code), seed=1, policy=Policy(seconds=0.5))
    began = time.monotonic()
    agent.act(state, player)
    assert time.monotonic() - began < 1.4
    assert agent.tally["timeouts"] == 1 and agent.tally["fallbacks"] == 1
    assert agent.incidents[0]["kind"] == "timeout"
    time.sleep(1.2)  # the late answer comes in; the next request must not take it
    assert str(agent.act(state, player)) == "learn 2"
    agent.finish(state)


def test_a_program_that_dies_is_gone_and_the_table_plays_on() -> None:
    code = "import sys\nsys.stdin.readline()\nprint('out of ideas', file=sys.stderr)\nsys.exit(3)"
    state, player = battle()
    agent = ProgramAgent(python(code), seed=1, policy=Policy(seconds=30))
    began = time.monotonic()
    assert agent.act(state, player) in state.legal_actions(player)
    assert agent.act(state, player) in state.legal_actions(player)
    assert time.monotonic() - began < 10
    assert agent.gone is not None and "exited with code 3: out of ideas" in agent.gone
    assert agent.tally["gone"] == 2 and agent.tally["fallbacks"] == 2
    agent.finish(state)


def test_a_program_that_cannot_start_is_gone(tmp_path: Path) -> None:
    program = tmp_path / "agent"
    program.write_text("#!/bin/sh\necho done\n")
    program.chmod(0o755)
    agent = make_agent(f"cmd:{program}")
    program.unlink()
    state, player = battle()
    assert agent.act(state, player) in state.legal_actions(player)
    assert isinstance(agent, OutsideAgent) and agent.gone is not None
    assert "could not start" in agent.gone
    agent.finish(state)


def test_a_babbling_program_is_corrected_then_falls_back() -> None:
    code = (
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'error': print(m['reason'], file=sys.stderr, flush=True)\n"
        "    if m['type'] == 'move': print('I am thinking...', flush=True)\n"
    )
    state, player = battle()
    agent = ProgramAgent(python(code), seed=1, policy=Policy(retries=1, seconds=20))
    assert agent.act(state, player) in state.legal_actions(player)
    tally = agent.tally
    assert (tally["answers"], tally["bad_answers"], tally["retries"], tally["fallbacks"]) == (
        2,
        2,
        1,
        1,
    )
    agent.finish(state)


def test_finish_kills_a_program_that_ignores_the_end() -> None:
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "for line in sys.stdin:\n"
        "    if '\"type\":\"move\"' in line: print('1', flush=True)\n"
        "time.sleep(60)\n"
    )
    state, player = battle()
    agent = ProgramAgent(python(code), seed=1, policy=Policy(seconds=20), grace=0.2)
    agent.act(state, player)
    process = agent._process
    assert process is not None
    began = time.monotonic()
    agent.finish(state)
    assert process.poll() is not None and time.monotonic() - began < 5


# -- ws: ---------------------------------------------------------------------------------------


@contextmanager
def server(answer: Callable[[dict[str, Any]], str | None]) -> Iterator[str]:
    """A WebSocket agent on a free local port: ``answer`` each message (``None``: no answer);
    the URL it listens at."""
    from websockets.sync.server import ServerConnection, serve

    heard: list[dict[str, Any]] = []

    def handler(connection: ServerConnection) -> None:
        for data in connection:
            message = json.loads(data)
            heard.append(message)
            reply = answer(message)
            if reply is not None:
                connection.send(reply)

    with serve(handler, "127.0.0.1", 0) as running:
        thread = threading.Thread(target=running.serve_forever, daemon=True)
        thread.start()
        port = running.socket.getsockname()[1]
        try:
            yield f"ws://127.0.0.1:{port}/seat"
        finally:
            running.shutdown()
            thread.join(5)


def test_a_remote_agent_plays_a_game_over_a_websocket() -> None:
    types: list[str] = []

    def first_move(message: dict[str, Any]) -> str | None:
        types.append(message["type"])
        return message["moves"][0] if message["type"] == "move" else None

    with server(first_move) as url:
        agent = make_agent(f"ws:{url}", seed=3)
        assert isinstance(agent, SocketAgent)
        state = play_with(rulebook.new_game("archmagi", players=2, seed=5), agent)
    assert state.is_terminal()
    assert agent.tally["answers"] == agent.tally["moves"] > 0
    assert types[0] == "start" and types[-1] == "end"
    assert types.count("move") == agent.tally["moves"]


def test_a_silent_remote_agent_times_out_and_a_missing_one_is_gone() -> None:
    with server(lambda message: None) as url:
        agent = SocketAgent(url, policy=Policy(seconds=0.3))
        state, player = battle()
        assert agent.act(state, player) in state.legal_actions(player)
        assert agent.tally["timeouts"] == 1
        agent.finish(state)
    nobody = SocketAgent(url, policy=Policy(seconds=0.3), connect_seconds=2)
    assert nobody.act(state, player) in state.legal_actions(player)
    assert nobody.gone is not None and "could not connect" in nobody.gone
    nobody.finish(state)


# -- where seats are named ----------------------------------------------------------------------


def test_seat_lists_keep_outside_specs_as_written() -> None:
    from rulebook.cli.common import parse_specs

    given = "Random, cmd:./My Agent.sh --modes 'a,b', MCTS:200,ws:ws://Host:9/Seat"
    assert parse_specs(given, "--agents") == [
        "random",
        "cmd:./My Agent.sh --modes 'a,b'",
        "mcts:200",
        "ws:ws://Host:9/Seat",
    ]


def test_simulate_tells_every_agent_the_end_and_reports_tallies() -> None:
    from rulebook.simulate import play_one

    result = play_one("battle-merchants", 2, ["random", SHELL_AGENT], seed=4)
    bot, shell = result.tallies
    assert bot == {}
    assert shell["moves"] == shell["answers"] > 0 and shell["fallbacks"] == 0
    ended: list[State] = []

    class Ending(OutsideAgent):
        def exchange(self, message: dict[str, Any], seconds: float | None) -> str:
            raise TimeoutError

        def finish(self, state: State) -> None:
            ended.append(state)

    state = rulebook.new_game("archmagi", players=2, seed=1)
    agent = Ending(1)
    play(state, [agent, agent])  # one agent in two seats: told once
    assert ended == [state] and state.is_terminal()
