"""The ``llm:MODEL@BASE_URL`` seat (rulebook.agents.llm) against a local OpenAI-compatible
server replying with recorded answers (tests/llm_server.py): each kind of answer leads to its
move or to a retry with the protocol's error line, the policy's fallback, the time limit, the
token budget, what is counted per game, whole games, and one-line errors for bad specs and
servers that cannot be reached. No request leaves 127.0.0.1."""

from __future__ import annotations

import dataclasses
import json
import random
import socket
import threading
from typing import Any

import pytest

from llm_server import ChatServer, Reply, first_move
from rulebook.agents import llm
from rulebook.agents.llm import LLMAgent, LLMError, make_llm, one_line, parse_spec
from rulebook.agents.protocol import BadAnswer, Forfeit, ask_together, read_move
from rulebook.core import State, games, new_game
from rulebook.simulate import play

#: a game with many moves a turn, for one seat (solo: 24 moves a game)
SOLO = ("merchants-of-magick", 1)


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in llm.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def solo() -> State:
    return new_game(SOLO[0], players=SOLO[1], seed=3)


def agent(server: ChatServer, options: str = "", seed: int = 0) -> LLMAgent:
    made = make_llm(f"test-model@{server.url}{'?' + options if options else ''}", seed)
    assert isinstance(made, LLMAgent)
    return made


def moves_of(state: State, seat: int = 0) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def refusal(state: State, answer: str, seat: int = 0) -> str:
    """The protocol's error line for ``answer``."""
    with pytest.raises(BadAnswer) as refused:
        read_move(state, seat, answer)
    return str(refused.value)


# -- the spec ----------------------------------------------------------------------------------


def test_a_spec_gives_the_model_the_url_and_the_options() -> None:
    s = parse_spec(
        "Qwen/Qwen3-8B@http://127.0.0.1:8000/v1?moves=0&retries=3&seconds=30&tokens=500"
        "&budget=100000&price_in=0.15&price_out=0.6&fallback=forfeit&temperature=0.2"
    )
    assert (s.model, s.base_url) == ("Qwen/Qwen3-8B", "http://127.0.0.1:8000/v1")
    assert (s.moves, s.retries, s.seconds, s.tokens, s.budget) == (False, 3, 30.0, 500, 100000)
    assert (s.price_in, s.price_out, s.fallback, s.temperature) == (0.15, 0.6, "forfeit", 0.2)
    plain = parse_spec("gpt-4o-mini@https://api.example.com/v1")
    assert (plain.moves, plain.retries, plain.seconds, plain.tokens, plain.budget) == (
        True, 2, 60.0, 2000, None
    )  # fmt: skip
    assert not plain.priced
    # a model name may hold "@" (a version); the URL starts at "@http"
    assert parse_spec("claude@2024@http://h/v1").model == "claude@2024"
    assert parse_spec("m@http://h/v1?seconds=0&tokens=0").seconds is None


@pytest.mark.parametrize(
    ("rest", "says"),
    [
        ("gpt-4o-mini", "give llm:MODEL@BASE_URL"),
        ("@http://127.0.0.1:8000/v1", "give llm:MODEL@BASE_URL"),
        ("m@ftp://127.0.0.1/v1", "give llm:MODEL@BASE_URL"),
        ("m@http:///v1", "names no host"),
        ("m@http://h/v1?speed=3", "no option 'speed'"),
        ("m@http://h/v1?retries=-1", "retries='-1': give a whole number"),
        ("m@http://h/v1?seconds=fast", "seconds='fast': not a number"),
        ("m@http://h/v1?moves=maybe", "moves='maybe': give 1 or 0"),
        ("m@http://h/v1?fallback=pass", "give random or forfeit"),
        ("m@http://h/v1?temperature=9", "give a number from 0 to 2"),
        ("m@http://h/v1?tokens=1&tokens=2", "given twice"),
        ("m@http://h/v1?moves", "write them as ?name=value"),
    ],
)
def test_a_bad_spec_is_refused_in_one_line(rest: str, says: str) -> None:
    with pytest.raises(LLMError) as refused:
        make_llm(rest, 0)
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_make_agent_seats_a_model_with_its_spec_as_written() -> None:
    from rulebook.agents import make_agent

    seat = make_agent("llm:Some/Model-7B@http://127.0.0.1:9/V1?retries=1", 5)
    assert isinstance(seat, LLMAgent)
    assert (seat.settings.model, seat.settings.base_url) == (
        "Some/Model-7B",
        "http://127.0.0.1:9/V1",
    )
    assert seat.policy.retries == 1


# -- the prompt --------------------------------------------------------------------------------


def test_the_prompt_is_how_to_play_then_the_view_and_the_numbered_moves() -> None:
    state = solo()
    legal = moves_of(state)
    with ChatServer(legal[0]) as server:
        agent(server).act(state, 0)
    [request] = server.requests
    system, user = request["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    rules = state.game.how_to_play()
    assert rules is not None and rules.strip() in system["content"]
    assert "its text as listed, or its number" in system["content"]
    for n, move in enumerate(legal, 1):
        assert f"\n{n}. {move}\n" in user["content"] + "\n"
    from rulebook.agents.protocol import text_view

    assert user["content"].startswith(text_view(state, 0))
    assert request["model"] == "test-model"
    assert request["max_tokens"] == 2000
    assert "temperature" not in request


def test_without_the_moves_the_prompt_gives_their_grammar() -> None:
    state = solo()
    legal = moves_of(state)
    with ChatServer(legal[0]) as server:
        assert str(agent(server, "moves=0&tokens=50&temperature=0").act(state, 0)) == legal[0]
    system, user = server.requests[0]["messages"]
    assert "how moves are written" in user["content"].lower()
    assert "Your legal moves" not in user["content"]
    assert "\n1. " not in user["content"]
    assert "its number" not in system["content"]
    assert (server.requests[0]["max_tokens"], server.requests[0]["temperature"]) == (50, 0)


def test_the_key_comes_from_the_environment_else_a_placeholder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = solo()
    legal = moves_of(state)
    with ChatServer(legal[0], legal[0], legal[0]) as server:
        agent(server).act(state, 0)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
        agent(server).act(state, 0)
        monkeypatch.setenv("RULEBOOK_LLM_API_KEY", "sk-rulebook")
        agent(server).act(state, 0)
    keys = [h.get("Authorization") or h.get("authorization") for h in server.headers]
    assert keys == [f"Bearer {llm.NO_KEY}", "Bearer sk-openai", "Bearer sk-rulebook"]


# -- the answers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["exact", "number", "json move", "json index", "chatty", "shouting", "thinking"]
)
def test_each_kind_of_answer_gives_its_move(kind: str) -> None:
    state = solo()
    legal = moves_of(state)
    target = legal[3]
    answer = {
        "exact": target,
        "number": "4",
        "json move": json.dumps({"move": target}),
        "json index": '{"index": 4}',
        "chatty": f"Let me weigh my options.\n\nI will play `{target}` this turn, it scores best.",
        "shouting": f"  {target.upper()}  ",
        "thinking": f"<think>maybe {legal[0]}? or {legal[1]}...</think>\n{target}",
    }[kind]
    with ChatServer(answer) as server:
        seat = agent(server)
        assert str(seat.act(state, 0)) == target
    assert len(server.requests) == 1
    assert seat.tally["bad_answers"] == 0 and seat.tally["retries"] == 0


def test_an_illegal_answer_gets_the_protocols_error_line_and_the_model_recovers() -> None:
    state = solo()
    legal = moves_of(state)
    with ChatServer("I sell the shop to a dragon.", "99", legal[2]) as server:
        seat = agent(server)
        assert str(seat.act(state, 0)) == legal[2]
    first, second, third = server.requests
    # the retries continue the conversation: the bad answer, then the error line as it is
    assert second["messages"][:2] == first["messages"]
    assert second["messages"][2] == {"role": "assistant", "content": "I sell the shop to a dragon."}
    assert second["messages"][3] == {
        "role": "user",
        "content": refusal(state, "I sell the shop to a dragon."),
    }
    assert third["messages"][-1] == {"role": "user", "content": refusal(state, "99")}
    assert "there is no move 99" in third["messages"][-1]["content"]
    tally = seat.tally
    assert (tally["bad_answers"], tally["retries"], tally["fallbacks"]) == (2, 2, 0)


def test_a_recorded_agent_reaches_a_legal_move_after_an_illegal_one() -> None:
    """An agent that answers illegally, then reads the error line it is sent and answers
    from what the line says (the form of a valid move, the number range)."""
    state = solo()

    def recovering(body: dict[str, Any]) -> Reply:
        last = body["messages"][-1]
        if last["role"] == "user" and "legal moves" in last["content"] and "1." in last["content"]:
            return Reply("Buy the moon")  # the first ask: an illegal answer
        assert "is not a move" in last["content"] or "not a legal move" in last["content"]
        # it reads "answer ... its number from 1 to N" and answers the last number
        upper = int(last["content"].rsplit("from 1 to ", 1)[1].split()[0].rstrip(".;,"))
        return Reply(str(upper))

    with ChatServer(then=recovering) as server:
        seat = agent(server)
        move = seat.act(state, 0)
    assert move == state.legal_actions(0)[-1]
    assert len(server.requests) == 2
    assert seat.tally["bad_answers"] == 1


def test_too_many_bad_answers_bring_the_fallback() -> None:
    state = solo()
    with ChatServer("pass", "pass") as server:
        seat = agent(server, "retries=1", seed=4)
        move = seat.act(state, 0)
    assert move in state.legal_actions(0)
    assert len(server.requests) == 2
    tally = seat.tally
    assert (tally["bad_answers"], tally["retries"], tally["fallbacks"]) == (2, 1, 1)
    assert seat.incidents[-1]["kind"] == "bad answers"

    with ChatServer("pass") as server:
        seat = agent(server, "retries=0&fallback=forfeit")
        with pytest.raises(Forfeit):
            seat.act(state, 0)
    assert seat.tally["forfeits"] == 1


def test_an_answer_past_the_time_limit_is_a_timeout() -> None:
    state = solo()
    legal = moves_of(state)
    with ChatServer(Reply(legal[0], delay=4.0), legal[1]) as server:
        seat = agent(server, "seconds=1")
        move = seat.act(state, 0)
        assert move in state.legal_actions(0)
        tally = seat.tally
        assert (tally["timeouts"], tally["fallbacks"], tally["requests"]) == (1, 1, 1)
        # the next move is asked again, in a new conversation
        assert str(seat.act(state, 0)) == legal[1]
    assert len(server.requests[1]["messages"]) == 2


def test_a_busy_server_is_asked_again_and_a_refusal_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(llm, "FIRST_PAUSE", 0.01)
    state = solo()
    legal = moves_of(state)
    with ChatServer(Reply("slow down", status=429), legal[1]) as server:
        seat = agent(server)
        assert str(seat.act(state, 0)) == legal[1]
    assert seat.tally["server_retries"] == 1
    with (
        ChatServer(Reply("invalid api key", status=401)) as server,
        pytest.raises(LLMError) as refused,
    ):
        agent(server).act(state, 0)
    message = str(refused.value)
    assert "answered 401: invalid api key" in message and "RULEBOOK_LLM_API_KEY" in message
    assert "\n" not in message


def test_a_missing_server_is_one_clear_line() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    seat = make_llm(f"m@http://127.0.0.1:{port}/v1", 0)
    with pytest.raises(LLMError) as refused:
        seat.act(solo(), 0)
    message = str(refused.value)
    assert message.startswith(f"cannot reach the model server at http://127.0.0.1:{port}/v1")
    assert "\n" not in message and "Traceback" not in message


def test_one_line_leaves_out_the_thinking_and_joins_the_lines() -> None:
    assert one_line("<think>\nhm\n</think>\n\n  buy  \n this ") == "buy this"
    assert one_line("<think>never closed") == ""
    assert one_line(None) == ""


# -- what is counted ---------------------------------------------------------------------------


def test_tokens_latency_and_cost_are_counted_per_game() -> None:
    state = solo()
    legal = moves_of(state)
    replies = [
        Reply("I think the best move here is", 1000, 20, finish_reason="length"),
        Reply(legal[0], 1100, 5),
        Reply(legal[1], usage=False),
    ]
    with ChatServer(*replies) as server:
        seat = agent(server, "price_in=2&price_out=8")
        seat.act(state, 0)
        seat.act(state, 0)
    tally = seat.tally
    assert (tally["requests"], tally["unmetered"], tally["truncated"]) == (3, 1, 1)
    assert (tally["prompt_tokens"], tally["completion_tokens"], tally["tokens"]) == (2100, 25, 2125)
    assert tally["cost"] == pytest.approx((2100 * 2 + 25 * 8) / 1_000_000)
    assert 0 < tally["latency_max"] <= tally["latency"] <= tally["seconds"]
    assert tally["moves"] == 2
    # without prices the cost is unknown, not zero
    with ChatServer(legal[0]) as server:
        unpriced = agent(server)
        unpriced.act(state, 0)
    assert "cost" not in unpriced.tally
    # a new game starts the counts again
    other = new_game(SOLO[0], players=1, seed=4)
    with ChatServer(Reply(moves_of(other)[0], 7, 1)) as server:
        seat.settings = dataclasses.replace(seat.settings, base_url=server.url)
        seat.close()
        seat.act(other, 0)
    assert (seat.tally["requests"], seat.tally["tokens"], seat.tally["moves"]) == (1, 8, 1)


def test_past_the_token_budget_the_fallback_plays_without_asking() -> None:
    state = solo()
    legal = moves_of(state)
    with ChatServer(Reply(legal[0], 100, 10), Reply(legal[0], 100, 10)) as server:
        seat = agent(server, "budget=200")
        seat.act(state, 0)
        seat.act(state, 0)
        assert seat.tally["tokens"] == 220 and seat.over_budget
        assert seat.act(state, 0) in state.legal_actions(0)
    assert len(server.requests) == 2
    assert (seat.tally["over_budget"], seat.tally["fallbacks"], seat.tally["moves"]) == (1, 1, 3)


# -- whole games -------------------------------------------------------------------------------


def test_a_whole_game_against_the_server() -> None:
    state = solo()
    with ChatServer(then=first_move) as server:
        seat = agent(server)
        play(state, [seat])
        seat.finish(state)
    assert state.is_terminal()
    tally = seat.tally
    assert tally["moves"] == len(state.history) == len(server.requests)
    assert (tally["bad_answers"], tally["fallbacks"], tally["timeouts"]) == (0, 0, 0)
    assert tally["tokens"] == 53 * len(server.requests)
    # every move made was the first listed
    replay = new_game(SOLO[0], players=1, seed=3)
    for player, action in state.history:
        assert action == replay.legal_actions(player)[0]
        replay.apply(player, action)


def test_seats_of_a_simultaneous_phase_are_asked_at_once() -> None:
    """Both seats' requests are in flight together: each answer waits for the other
    request to arrive (asked one after the other, the first would wait in vain)."""
    state = new_game("merchants-of-magick", players=2, seed=1)
    assert list(state.current_players()) == [0, 1]
    together = threading.Barrier(2, timeout=10)

    def both(body: dict[str, Any]) -> Reply:
        try:
            together.wait()
        except threading.BrokenBarrierError:
            return Reply("the other seat was not asked at the same time", status=400)
        return first_move(body)

    with ChatServer(then=both) as server:
        seats = [agent(server, seed=0), agent(server, seed=1)]
        moves = ask_together([(seats[p], state, p) for p in (0, 1)])
    assert moves == [state.legal_actions(0)[0], state.legal_actions(1)[0]]
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    ("game", "players"), [("merchants-of-magick", 3), ("ye-olde-magick-shoppe", 2)]
)
def test_a_whole_game_with_simultaneous_phases_asked_together(game: str, players: int) -> None:
    """Every seat of a simultaneous phase chooses from the same position; the moves are then
    made in seat order, each still legal (the phases are independent between seats)."""
    from rulebook.agents import RandomAgent

    state = new_game(game, players=players, seed=2)
    with ChatServer(then=first_move) as server:
        seats = [agent(server, seed=0), RandomAgent(1), agent(server, seed=2)][:players]
        rounds = 0
        while not state.is_terminal():
            players = list(state.current_players())
            moves = ask_together([(seats[p], state, p) for p in players])
            rounds += len(players) > 1
            for player, move in zip(players, moves, strict=True):
                state.apply(player, move)
        for seat in seats:
            seat.finish(state)
    assert rounds > 0
    for seat in seats:
        if isinstance(seat, LLMAgent):
            assert seat.tally["bad_answers"] == 0 and seat.tally["moves"] > 0


def test_an_error_of_one_seat_asked_together_reaches_the_caller() -> None:
    state = new_game("merchants-of-magick", players=2, seed=1)
    with ChatServer(then=lambda body: Reply("down", status=401)) as server:
        seats = [agent(server), agent(server)]
        with pytest.raises(LLMError, match="answered 401"):
            ask_together([(seats[p], state, p) for p in (0, 1)])


# -- from the command line ---------------------------------------------------------------------


def test_simulate_seats_a_model_and_a_missing_server_is_one_line() -> None:
    from typer.testing import CliRunner

    from rulebook.cli import app

    runner = CliRunner()
    args = ["simulate", SOLO[0], "--players", "1", "--games", "1", "--workers", "1", "--agents"]
    with ChatServer(then=first_move) as server:
        played = runner.invoke(app, [*args, f"llm:Test-Model@{server.url}"])
    assert played.exit_code == 0, played.output
    assert "1 game played" in played.output
    assert len(server.requests) > 1 and server.requests[0]["model"] == "Test-Model"

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    missing = runner.invoke(app, [*args, f"llm:m@http://127.0.0.1:{port}/v1"])
    assert missing.exit_code == 2
    lines = [line for line in missing.output.splitlines() if line.startswith("error:")]
    assert lines == [
        f"error: cannot reach the model server at http://127.0.0.1:{port}/v1 "
        "([Errno 111] Connection refused): is it running, and is the URL right?"
    ]
    assert "Traceback" not in missing.output


# -- hidden information ------------------------------------------------------------------------


def _unfold(state: State, moves: int = 40) -> list[str]:
    """What every seat sees over the next ``moves`` moves, the same choices made each time
    (by their place in the moves list)."""
    state, rng, seen = state.clone(), random.Random(0), []
    for _ in range(moves):
        seen.append(json.dumps([state.observation(p) for p in range(state.num_players)]))
        if state.is_terminal():
            break
        player = state.current_players()[0]
        legal = state.legal_actions(player)
        seen.append(" ".join(map(str, legal)))
        state.apply(player, legal[rng.randrange(len(legal))])
    return seen


@pytest.mark.parametrize("game", sorted(games()))
def test_what_the_model_is_sent_holds_nothing_its_seat_cannot_see(game: str) -> None:
    """Two positions that differ only in what the seat cannot see (the rest re-sampled) give
    byte-identical requests: the prompts, the error line after a bad answer, the retry."""
    rng = random.Random(7)
    state = new_game(game, players=2 if game != "merchants-of-magick" else 3, seed=11)
    for _ in range(12):
        player = state.current_players()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    seat = state.current_players()[0]
    other = state.determinize(seat, random.Random(1))
    assert _unfold(state) != _unfold(other)  # the two differ: the same moves tell them apart
    sent = []
    for position in (state, other):
        with ChatServer("the shiny one", then=first_move) as server:
            agent(server).act(position, seat)
        sent.append(json.dumps(server.requests, sort_keys=True))
    assert len(json.loads(sent[0])) == 2
    assert sent[0] == sent[1]
