"""The steps the rules take on their own, told (:mod:`rulebook.core.events`): who reads what,
listening only while a front end asks, and the terminal's lines."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import rulebook
from rulebook.agents import make_agent
from rulebook.cli.common import Seat
from rulebook.cli.session import Session
from rulebook.core import Event, IllegalAction, apply_heard


def test_an_event_reads_as_each_viewer_may_read_it() -> None:
    drew = Event(1, "Draw 2 Spells", own="Draw Fireball and Frost")
    assert drew.told_to(1) == "draw Fireball and Frost"
    assert drew.told_to(0) == "draws 2 Spells"
    assert drew.told_to(None) == "draws 2 Spells"
    assert drew.phrase(1) == "Draw Fireball and Frost"
    table = Event(None, "Winter is over: war!")
    assert table.told_to(0) == table.told_to(None) == "Winter is over: war!"
    secret = Event(0, "", own="Look at the top card: Fireball")
    assert secret.told_to(1) is None and secret.told_to(None) is None
    assert secret.told_to(0) == "look at the top card: Fireball"


def war(seed: int = 11) -> tuple[rulebook.State, int, rulebook.Action]:
    """A Battle Merchants game one move before its first war."""
    state = rulebook.new_game("battle-merchants", 2, seed=seed)
    bots = [make_agent("greedy", p) for p in range(2)]
    while True:
        seat = state.current_players()[0]
        action = bots[seat].act(state, seat)
        trial = state.clone()
        if any(e.text.startswith("Battle at") for e in apply_heard(trial, seat, action)):
            return state, seat, action
        state.apply(seat, action)


def test_steps_are_told_only_while_someone_listens() -> None:
    state, seat, action = war()
    quiet = state.clone()
    quiet.apply(seat, action)  # nobody listens: nothing kept
    assert quiet.heard is None
    told = apply_heard(state, seat, action)
    assert state.heard is None  # and nothing kept after
    assert any(e.text.startswith("Battle at") for e in told)
    assert quiet.snapshot() == state.snapshot()
    # a search's clone of a listened state records nothing
    state.heard = []
    clone = state.clone()
    assert clone.heard is None
    state.heard = None


def test_an_illegal_move_tells_nothing_and_changes_nothing() -> None:
    state = rulebook.new_game("battle-merchants", 2, seed=3)
    before = state.snapshot()
    with pytest.raises(IllegalAction):
        apply_heard(state, 1, "pass")
    assert state.heard is None
    assert state.snapshot() == before


def test_the_terminal_tells_the_steps_after_the_move() -> None:
    state, seat, action = war()
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    session = Session(state, [Seat("human", None), Seat("human", None)], console, None)
    entry = session.make(seat, action)
    lines = session.news.line(entry, 0).splitlines()
    assert lines[0].startswith(f"seat {seat + 1}")
    assert any(line.startswith("Battle at") for line in lines[1:])
    summary = session.news.summary([entry], 0, 100, 40, "Since your last look")
    assert any("Battle at" in line for line in summary)


def told_steps() -> list[tuple[str, str, int]]:
    """Every step the rules tell by name (``s.tell("battle", ...)``) in the source: (module,
    step, line)."""
    import ast
    from pathlib import Path

    src = Path(rulebook.__file__).resolve().parent
    found = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(("rulebook", *path.relative_to(src).with_suffix("").parts))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "tell"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append((module, node.args[0].value, node.lineno))
    return found


def test_every_step_told_has_its_words_and_no_rule_imports_them() -> None:
    """A typo in a step's name would fail only when someone listens: every name the rules
    tell is a function of their game's ``aloud`` module (the sheet engine's for the two sheet
    games), which no section of the rules imports (the rules name the steps; the words read
    the rules): only the module of the game's State names it, in its ``texts``."""
    import importlib
    from pathlib import Path

    steps = told_steps()
    assert len(steps) > 30
    for module, step, line in steps:
        package = module.rsplit(".", 1)[0]
        aloud = importlib.import_module(f"{package}.aloud")
        assert callable(getattr(aloud, step, None)), f"{module}:{line} tells {step!r}"
        if module.endswith((".rules", ".rollwrite.engine")):
            continue
        source = Path(rulebook.__file__).parent.joinpath(*module.split(".")[1:]).with_suffix(".py")
        text = source.read_text(encoding="utf-8")  # the source, compiled or not
        assert "import aloud" not in text and f"{package}.aloud" not in text, module


def setups() -> list[tuple[str, str, int]]:
    """Every game and variant at its fewest and most players (4 at most)."""
    return [
        (name, v.name, n)
        for name in rulebook.games()
        for v in rulebook.get_game(name).variants
        for n in sorted({v.min_players, min(v.max_players, 4)})
    ]


@pytest.mark.parametrize(("game", "variant", "players"), setups())
def test_the_result_says_where_each_point_came_from(game: str, variant: str, players: int) -> None:
    """Every scoring category of every seat's breakdown (and the solo opponent's) has a note
    in plain words, which the result screen and the terminal show."""
    state = rulebook.new_game(game, players, seed=1, variant=variant)
    notes = state.score_notes()
    wanted = set(state.score_breakdown(0)) | set(state.opponent_breakdown())
    assert wanted <= set(notes), wanted - set(notes)
    assert all(len(notes[k]) > 20 for k in wanted)
