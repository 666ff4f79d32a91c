"""The move protocol (rulebook.agents.protocol): the messages a seat is sent, the tolerant
reading of its answers, the table's policy, and the seat specs of outside agents."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import rulebook
from rulebook.agents import RandomAgent, make_agent
from rulebook.agents.protocol import (
    VERSION,
    BadAnswer,
    Forfeit,
    OutsideAgent,
    Policy,
    grammar,
    move_request,
    read_move,
    text_view,
)
from rulebook.core import State, UnknownGame
from rulebook.simulate import play


def battle() -> tuple[State, int, list[str]]:
    """Battle Merchants, 2 seats, seed 1: seat 1 to act, with 10 moves ("learn 1".."learn 5",
    "forge mace", "forge hammer", "kingdom 1".."kingdom 3")."""
    state = rulebook.new_game("battle-merchants", players=2, seed=1)
    (player,) = state.current_players()
    return state, player, [str(a) for a in state.legal_actions(player)]


def read(answer: str, listed: bool = True) -> str:
    state, player, _ = battle()
    return str(read_move(state, player, answer, listed=listed))


def refusal(answer: str, listed: bool = True) -> str:
    state, player, _ = battle()
    with pytest.raises(BadAnswer) as refused:
        read_move(state, player, answer, listed=listed)
    return str(refused.value)


def test_the_setting_is_as_the_tests_assume() -> None:
    _, player, moves = battle()
    assert player == 1
    assert moves[:3] == ["learn 1", "learn 2", "learn 3"]
    assert "forge mace" in moves and "kingdom 3" in moves and len(moves) == 10


@pytest.mark.parametrize("game", rulebook.games())
def test_every_legal_move_reads_as_itself(game: str) -> None:
    state = rulebook.new_game(game, players=2, seed=4)
    player = state.current_players()[0]
    for action in state.legal_actions(player):
        assert read_move(state, player, str(action)) == action
        assert read_move(state, player, f"  {str(action).upper()}  ") == action


@pytest.mark.parametrize(
    ("answer", "move"),
    [
        ("learn 3", "learn 3"),
        ("  LEARN   3 ", "learn 3"),
        ("Forge\tMace", "forge mace"),
        ("`learn 3`", "learn 3"),
        ('"kingdom 2".', "kingdom 2"),
        ("3", "learn 3"),
        ("#3", "learn 3"),
        ("3.", "learn 3"),
        ("10", "kingdom 3"),
        ('{"move": "Forge Mace"}', "forge mace"),
        ('{"index": 6}', "forge mace"),
        ('"learn 5"', "learn 5"),
        ("I will forge mace this turn, it sells well.", "forge mace"),
        ("Of the options I prefer `kingdom 1` over learn 2.", "kingdom 1"),
        ("My move:\n**learn 4**", "learn 4"),
    ],
)
def test_answers_are_read_tolerantly(answer: str, move: str) -> None:
    assert read(answer) == move


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("xyzzy", '"xyzzy" is not a move'),
        ("", "the answer was empty"),
        ("0", "there is no move 0: the moves are numbered from 1 to 10"),
        ("11", "there is no move 11"),
        ('{"index": 11}', "there is no move 11"),
        ('{"move": "forge axe"}', '"forge axe" is not a legal move now'),
        ('{"go": 1}', 'a JSON answer is {"move": "<a move>"} or {"index": <its number>}'),
        ("learn 9", '"learn 9" is not a move'),
        ("either learn 1 or learn 2", 'names 2 legal moves ("learn 1", "learn 2")'),
        ("forge axe", '"forge axe" is not a legal move now'),
    ],
)
def test_bad_answers_get_one_line_naming_a_valid_move(answer: str, says: str) -> None:
    said = refusal(answer)
    assert says in said
    assert "\n" not in said
    assert 'answer one of the 10 legal moves as listed (e.g. "learn 1")' in said
    assert "or its number from 1 to 10" in said


def test_a_long_or_multiline_bad_answer_is_quoted_short_on_one_line() -> None:
    said = refusal("nothing\nat all " * 40)
    assert "\n" not in said and len(said) < 250
    assert '"nothing\\nat all' in said


def test_without_the_list_numbers_are_refused_and_the_grammar_is_shown() -> None:
    state, player, _ = battle()
    assert read("forge mace", listed=False) == "forge mace"
    said = refusal("3", listed=False)
    assert "no moves were listed" in said
    assert grammar(state, player) in said and "learn 1" not in said.split("look like")[0]
    assert grammar(state, player).startswith("moves look like 'learn 2'")


def test_the_move_request_holds_the_seats_view_only() -> None:
    state, player, moves = battle()
    request = move_request(state, player, deadline=1.5)
    assert request["type"] == "move" and request["protocol"] == VERSION == 1
    assert (request["game"], request["variant"], request["players"], request["seat"]) == (
        "battle-merchants",
        "standard",
        2,
        1,
    )
    assert request["observation"] == state.observation(player)
    assert request["moves"] == moves and "grammar" not in request
    assert request["deadline_ms"] == 1500
    assert request["text"] == text_view(state, player)
    withheld = move_request(state, player, moves=False)
    assert "moves" not in withheld and withheld["grammar"] == grammar(state, player)
    assert withheld["deadline_ms"] is None
    json.dumps(request)  # JSON-able as it is


def test_the_text_view_is_the_games_render_in_plain_text() -> None:
    state, player, _ = battle()
    text = text_view(state, player)
    assert "\x1b" not in text and "[dim]" not in text
    assert "Salesman Steve" in text and "you (purple)" in text
    assert all(len(line) <= 100 for line in text.splitlines())
    other = text_view(state, 1 - player)
    assert other != text and "you (red)" in other


# -- the table's policy ------------------------------------------------------------------------


class Scripted(OutsideAgent):
    """An outside agent answering from a list (an exception in it is raised instead)."""

    name = "scripted"

    def __init__(self, answers: list[Any], **kwargs: Any) -> None:
        super().__init__(3, **kwargs)
        self.answers: Iterator[Any] = iter(answers)
        self.sent: list[dict[str, Any]] = []

    def exchange(self, message: dict[str, Any], seconds: float | None) -> str:
        self.sent.append(message)
        answer = next(self.answers)
        if isinstance(answer, BaseException):
            raise answer
        return str(answer)

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def test_a_bad_answer_gets_an_error_and_another_request() -> None:
    state, player, _ = battle()
    agent = Scripted(["xyzzy", "forge mace"])
    assert str(agent.act(state, player)) == "forge mace"
    kinds = [m["type"] for m in agent.sent]
    assert kinds == ["start", "move", "error", "move"]
    start, first, error, again = agent.sent
    assert start["seat"] == player and start["players"] == 2 and start["seed"] != 3
    assert error["reason"].startswith('"xyzzy" is not a move')
    assert again["retry"] == 1 and again["error"] == error["reason"]
    assert "retry" not in first
    tally = agent.tally
    assert (tally["moves"], tally["answers"], tally["bad_answers"], tally["retries"]) == (
        1,
        2,
        1,
        1,
    )
    assert tally["fallbacks"] == 0
    assert [i["kind"] for i in agent.incidents] == ["bad answer"]


def test_after_the_retries_the_policy_plays_a_random_move() -> None:
    state, player, moves = battle()
    agent = Scripted(["no", "still no", "never"], policy=Policy(retries=2))
    assert str(agent.act(state, player)) in moves
    tally = agent.tally
    assert (tally["bad_answers"], tally["retries"], tally["fallbacks"]) == (3, 2, 1)
    assert [m["type"] for m in agent.sent].count("move") == 3


def test_a_forfeit_policy_forfeits() -> None:
    state, player, _ = battle()
    agent = Scripted(["no"], policy=Policy(retries=0, fallback="forfeit"))
    with pytest.raises(Forfeit) as forfeit:
        agent.act(state, player)
    assert forfeit.value.seat == player
    assert agent.tally["forfeits"] == 1


def test_a_timeout_falls_back_at_once_and_a_gone_agent_stays_gone() -> None:
    state, player, moves = battle()
    agent = Scripted([TimeoutError(), ConnectionResetError("closed")], policy=Policy(seconds=1))
    assert str(agent.act(state, player)) in moves
    assert agent.tally["timeouts"] == 1 and agent.tally["fallbacks"] == 1
    assert str(agent.act(state, player)) in moves
    assert agent.gone == "closed"
    assert str(agent.act(state, player)) in moves  # not asked again: the script is spent
    assert agent.tally["gone"] == 2 and agent.tally["fallbacks"] == 3


def test_finish_sends_the_results_of_a_finished_game_only() -> None:
    state, player, _ = battle()
    agent = Scripted(["1"])
    agent.act(state, player)
    agent.finish(state)
    stopped = agent.sent[-1]
    assert stopped["type"] == "end" and stopped["over"] is False
    assert stopped["scores"] is None and stopped["winners"] is None
    agent = Scripted(["1"] * 10_000)
    play(state, [RandomAgent(1), agent] if player == 1 else [agent, RandomAgent(1)])
    end = agent.sent[-1]
    assert end["type"] == "end" and end["over"] is True
    assert end["scores"] == state.scores() and end["winners"] == state.winners()
    assert end["moves"] == len(state.history)


@pytest.mark.parametrize(
    "policy",
    [{"retries": -1}, {"retries": 1.5}, {"fallback": "pass"}, {"seconds": 0}],
)
def test_a_bad_policy_is_refused(policy: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Policy(**policy)


# -- seat specs ----------------------------------------------------------------------------------


def test_outside_specs_keep_their_case_and_are_checked() -> None:
    with pytest.raises(UnknownGame, match=r"no executable program at '\./No/Such/Agent'"):
        make_agent("cmd:./No/Such/Agent --fast")
    with pytest.raises(UnknownGame, match="no program 'no-such-agent-xyz' on the PATH"):
        make_agent("CMD:no-such-agent-xyz")
    with pytest.raises(UnknownGame, match="cannot read the command"):
        make_agent("cmd:'unclosed")
    with pytest.raises(UnknownGame, match="names no agent: write cmd:PATH"):
        make_agent("cmd:")
    with pytest.raises(UnknownGame, match="ws: needs a WebSocket URL"):
        make_agent("ws:http://example.org")
    agent = make_agent("cmd:python3 examples/agent_python.py --First")
    assert agent.name.endswith("examples/agent_python.py --First")
    assert make_agent("ws:ws://Example.org:9/Seat").name == "ws:ws://Example.org:9/Seat"
    assert make_agent("Random").name == "random"  # the other specs are as they were


def test_an_llm_spec_goes_to_the_llm_module() -> None:
    try:
        import rulebook.agents.llm  # noqa: F401
    except ImportError:
        with pytest.raises(UnknownGame, match="llm: seats are not available"):
            make_agent("llm:some-model@http://localhost:9/v1")
    else:
        pytest.skip("the llm module is here: its own tests cover its seats")
