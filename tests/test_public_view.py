"""The core additions the web app relies on: every game's public view (what spectators see)
and the naming of the tie-breaker that decided a game."""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulebook
from rulebook.cli import app


def _played(name: str, variant: str, players: int, moves: int) -> rulebook.State:
    state = rulebook.new_game(name, players, seed=11, variant=variant)
    rng = random.Random(2)
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize(
    ("name", "variant", "players"),
    [
        (name, v.name, max(v.min_players, min(3, v.max_players)))
        for name in rulebook.games()
        for v in rulebook.get_game(name).variants
    ],
)
def test_public_view_is_a_seat_view_without_the_seat(name: str, variant: str, players: int) -> None:
    state = _played(name, variant, players, 25)
    public = state.public_observation()
    json.dumps(public)
    assert public["you"] is None
    mine = state.observation(0)
    assert set(public) <= set(mine)
    if name in ("battle-merchants", "pandoria-merchants"):  # everything is public there
        assert public == {**mine, "you": None}


def test_spectators_see_no_hand() -> None:
    state = _played("archmagi", "standard", 2, 5)
    assert "hand" in state.observation(0) and "hand" not in state.public_observation()
    assert all(isinstance(s["hand"], int) for s in state.public_observation()["seats"])


def test_spectators_see_simultaneous_choices_only_when_the_phase_ends() -> None:
    state = rulebook.new_game("merchants-of-magick", 2, seed=4)
    before = state.public_observation()
    move = next(a for a in state.legal_actions(0) if str(a) != "done")
    state.apply(0, move)
    after = state.public_observation()
    assert after["seats"][0]["marked"] == before["seats"][0]["marked"]
    assert state.observation(0)["seats"][0]["marked"] != before["seats"][0]["marked"]
    for seat in (0, 1):
        while seat in state.current_players():
            state.apply(seat, "done")
    assert (
        state.public_observation()["seats"][0]["marked"]
        == state.observation(1)["seats"][0]["marked"]
    )


def test_decided_by_names_the_tie_breaker() -> None:
    state = _played("merchants-of-magick", "standard", 3, 10_000)
    assert state.is_terminal()
    assert state.tiebreak_labels() == ("most fulfilled Orders", "most Potions")
    cases = [
        ([9, 5, 5], {0: (0, 0), 1: (9, 9), 2: (9, 9)}, "score"),
        ([9, 9, 5], {0: (3, 0), 1: (2, 7), 2: (9, 9)}, "most fulfilled Orders"),
        ([9, 9, 9], {0: (3, 4), 1: (3, 2), 2: (1, 9)}, "most Potions"),
        ([9, 9, 5], {0: (3, 4), 1: (3, 4), 2: (9, 9)}, "shared"),
    ]
    for scores, keys, expected in cases:
        state.scores = lambda s=scores: list(s)  # type: ignore[method-assign]
        state.tiebreak = lambda p, k=keys: k[p]  # type: ignore[method-assign]
        assert state.decided_by() == expected, (scores, keys)


def test_every_game_names_its_tie_breakers() -> None:
    for name in rulebook.games():
        state = rulebook.new_game(name, 2, seed=1)
        assert len(state.tiebreak_labels()) == len(state.tiebreak(0))


runner = CliRunner()


def test_serve_refuses_a_bad_setup_in_one_line(tmp_path: Path) -> None:
    for args, reason in [
        (["--db", "nonsense://x"], "bad database URL"),
        (["--db", f"sqlite:///{tmp_path}/no/such/dir/../../x.db", "--port", "0"], "--port"),
        (["--bot-delay", "-1"], "--bot-delay"),
        (["--bot-delay", "nan"], "--bot-delay must be 0-60 seconds, not nan"),
        (["--bot-delay", "inf"], "--bot-delay must be 0-60 seconds, not inf"),
        (["--bot-workers", "-3"], "--bot-workers"),
        # issue 22: a URL of a database the server cannot use names those it can
        (["--db", "mysql://x"], "supported: sqlite:///FILE, postgresql://"),
        (["--db", "postgresql+asyncpg://u@h/db"], "supported: sqlite:///FILE, postgresql://"),
        # a typo in the folder is not a fresh empty database
        (["--db", f"sqlite:///{tmp_path}/no/such/dir/x.sqlite3"], "no folder"),
        (["--db", "postgresql://u@h:port/db"], "supported: sqlite:///FILE, postgresql://"),
        (["--db", ""], "bad database URL ''"),
        (["--db", "sqlite:///"], "keeps games in memory"),
    ]:
        result = runner.invoke(app, ["serve", *args])
        assert result.exit_code == 2, (args, result.output)
        assert reason in result.output and "Traceback" not in result.output
        assert result.output.startswith("error: ") and result.output.count("\n") == 1, args
    assert not (tmp_path / "no").exists()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(
            app, ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}"]
        )
    assert result.exit_code == 2 and "cannot listen" in result.output


def test_serve_creates_its_own_default_folder_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make run``'s default database goes in ``data/``: created when missing, in one line
    (a --db in a missing folder is refused instead, above)."""
    monkeypatch.chdir(tmp_path)
    with socket.socket() as taken:  # the port is taken: serve stops after the database
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = runner.invoke(app, ["serve", "--port", port])
        assert result.exit_code == 2 and "cannot listen" in result.output
        assert "created the folder data/ for the games' database" in result.output
        assert (tmp_path / "data" / "rulebook.sqlite3").exists()
        again = runner.invoke(app, ["serve", "--port", port])
        assert again.exit_code == 2 and "created" not in again.output
