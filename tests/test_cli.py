"""The ``rulebook`` command line, driven through Typer's test runner with fed stdin."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import rulebook
from rulebook.cli import app
from rulebook.cli.menu import Menus

GAME = "merchants-of-magick"
runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> Result:
    """Run the CLI with ``args`` (and ``stdin`` as typed input)."""
    return runner.invoke(app, list(args), input=stdin)


def saved_log(path: Path) -> list[list[object]]:
    """The action log of a save file."""
    log: list[list[object]] = json.loads(path.read_text(encoding="utf-8"))["log"]
    return log


def bot_game(path: Path, seed: int = 3) -> Result:
    """A whole two-bot game, saved to ``path``."""
    return invoke(
        "play", GAME, "--players", "2", "--seats", "random,greedy", "--seed", str(seed),
        "--save", str(path),
    )  # fmt: skip


# -- list, version, simulate ------------------------------------------------------------------
def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert rulebook.__version__ in result.output


def test_list_shows_the_registered_games() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert GAME in result.output
    assert "Merchants of Magick" in result.output
    assert "standard (2-8)" in result.output
    assert "solo (1)" in result.output


def test_simulate_prints_a_table_per_seat() -> None:
    result = invoke("simulate", GAME, "--players", "2", "--games", "3", "--agents", "random,greedy")
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output
    assert "mean score" in result.output
    assert "random" in result.output and "greedy" in result.output
    assert "3 games played in" in result.output and "games/s" in result.output


def test_simulate_cycles_agents_and_solo_has_no_win_rate() -> None:
    result = invoke("simulate", GAME, "-p", "1", "-n", "2", "--agents", "greedy")
    assert result.exit_code == 0, result.output
    assert "mean score" in result.output
    assert "win rate" not in result.output
    result = invoke("simulate", GAME, "-p", "3", "-n", "1", "--agents", "random")
    assert result.exit_code == 0, result.output
    assert result.output.count("random") >= 3


# -- play ----------------------------------------------------------------------------------------
def test_play_between_bots_runs_to_the_end(tmp_path: Path) -> None:
    result = bot_game(tmp_path / "game.json")
    assert result.exit_code == 0, result.output
    assert "seat 2 (greedy): " in result.output  # seats are named from 1
    assert "Final scores" in result.output
    state = rulebook.load(tmp_path / "game.json")
    assert state.is_terminal()
    winners = ", ".join(f"seat {p + 1} ({('random', 'greedy')[p]})" for p in state.winners())
    assert f"Winner: {winners}" in result.output or f"Winners (shared): {winners}" in result.output


def test_bad_input_shows_an_error_and_asks_again(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ("play", GAME, "-p", "2", "--seed", "5", "--save", str(save))
    stdin = "banana\n999\n0\nfree scroll/wood\nquit\n"
    result = invoke(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    assert "'banana' is not a move" in result.output
    assert "there is no move 999" in result.output
    assert "there is no move 0" in result.output
    assert "no free mark" in result.output
    assert result.output.count("seat 1: number") == 5
    assert "Stopped after 0 moves" in result.output
    assert saved_log(save) == []


def test_moves_by_number_and_by_text(tmp_path: Path) -> None:
    state = rulebook.new_game(GAME, players=2, seed=5)
    number, place = Menus().numbered(state, 0)[1]  # as the menu numbers them
    first = place.action
    state.apply(0, first)
    second = state.legal_actions(0)[-1]
    save = tmp_path / "game.json"
    stdin = f"{number}\n{str(second).upper()}\nquit\n"
    result = invoke("play", GAME, "-p", "2", "--seed", "5", "--save", str(save), stdin=stdin)
    assert result.exit_code == 0, result.output
    assert f"seat 1 (human): {first}" in result.output
    assert f"seat 1 (human): {second}" in result.output
    assert saved_log(save) == [[0, str(first)], [0, str(second)]]


def test_commands_help_moves_table_and_save(tmp_path: Path) -> None:
    manual = tmp_path / "manual.json"
    stdin = f"help\nmoves\ntable\nsave\nsave {manual}\nquit\n"
    result = invoke("play", GAME, "-p", "2", "--seed", "1", stdin=stdin)
    assert result.exit_code == 0, result.output
    assert "every move with its whole text" in result.output
    assert result.output.count("1 done") == 2  # the turn's screen and moves
    assert "save needs one file name" in result.output
    assert "Saved to " in result.output
    assert rulebook.load(manual).history == []


def test_end_of_input_abandons_the_game_and_autosaves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke("play", GAME, "-p", "2", "--seed", "2", "--save", str(save), stdin="2\n")
    assert result.exit_code == 1, result.output
    assert "Input ended: the game is abandoned after 1 move." in result.output
    assert "The move is saved in" in result.output
    assert len(saved_log(save)) == 1


def test_solo_human_plays_to_the_end_and_gets_a_rating() -> None:
    # move 1 is "done" or, when a free mark is owed, the first free mark: the game always ends
    result = invoke("play", GAME, "--players", "1", "--seed", "4", stdin="1\n" * 300)
    assert result.exit_code == 0, result.output
    assert "Final score:" in result.output
    assert "Rating:" in result.output


def test_save_then_replay(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert bot_game(save).exit_code == 0
    state = rulebook.load(save)
    result = invoke("replay", str(save), "--verbose")
    assert result.exit_code == 0, result.output
    player, action = state.history[0]
    assert f"1. seat {player + 1}: {action}" in result.output
    assert f"{len(state.history)}. seat" in result.output
    assert "Final scores" in result.output
    assert "Winner" in result.output
    quiet = invoke("replay", str(save))
    assert quiet.exit_code == 0
    assert "1. seat" not in quiet.output


def test_load_resumes_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    started = invoke("play", GAME, "-p", "2", "--seed", "6", "--save", str(save), stdin="2\nquit\n")
    assert started.exit_code == 0, started.output
    first = saved_log(save)
    assert len(first) == 1
    args = ("play", GAME, "--load", str(save), "--seats", "greedy,random", "--save", str(save))
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "Resumed after 1 move." in result.output
    assert "Final scores" in result.output
    finished = rulebook.load(save)
    assert finished.is_terminal()
    assert saved_log(save)[:1] == first


def test_load_rejects_conflicting_setup(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert bot_game(save).exit_code == 0
    for extra in (["--players", "3"], ["--seed", "1"], ["--variant", "standard"]):
        result = invoke("play", GAME, "--load", str(save), "--seats", "greedy,greedy", *extra)
        assert result.exit_code == 2, result.output
        assert "error:" in result.stderr


# -- usage errors -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", GAME, "-p", "2", "--seats", "human,wizard"], "no agent called 'wizard'"),
        (["play", GAME, "-p", "3", "--seats", "human,greedy"], "names 2 seats but the game has 3"),
        (["play", GAME, "-p", "2", "--seats", "human"], "names 1 seat but the game has 2 players"),
        (["play", GAME, "-p", "2", "--seats", "human,"], "empty entry"),
        (["play", GAME, "-p", "9"], "cannot be played by 9 players: it takes 1 player (solo) or"),
        (["play", GAME, "-p", "0"], "cannot be played by 0 players"),
        (["play", "battle-merchants", "-p", "1"], "cannot be played by 1 player: it takes 2-4"),
        (["play", GAME, "-p", "2", "--variant", "solo"], "(solo) takes 1 player, not 2"),
        (["play", "archmagi", "-p", "2", "-o", "magi=water,water"], "water named twice"),
        (["play", GAME, "-p", "2", "--variant", "family"], "no variant 'family'"),
        (["play", GAME, "-p", "2", "--option", "hard"], "key=value"),
        (["play", GAME, "-p", "2", "--option", "level=hard"], "has no option level"),
        (["play", GAME, "-p", "2", "--level", "hard"], "has no option level"),
        (["play", GAME, "-p", "2", "-o", "level=a", "--level", "b"], "disagree"),
        (["play", GAME], "--players is required"),
        (["play", "chess", "-p", "2"], "no game called 'chess'"),
        (["play", GAME, "-p", "2", "--save", "/nonexistent/dir/g.json"], "cannot save"),
        (["simulate", GAME, "-p", "2", "-n", "1", "--agents", "random,x"], "no agent called"),
        (["simulate", GAME, "-p", "1", "-n", "1", "--agents", "random,random"], "2 agents"),
        (["simulate", GAME, "-p", "2", "-n", "1", "--agents", "human"], "human cannot play"),
        (["simulate", GAME, "-p", "2", "-n", "0", "--agents", "random"], "at least 1"),
        (["simulate", GAME, "-p", "9", "-n", "1", "--agents", "random"], "9 players"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all", "it is not JSON text"),
        ("[1, 2]", "expected a JSON object"),
        ('{"game": "merchants-of-magick", "players": 2}', "missing"),
        (
            '{"game": "merchants-of-magick", "players": 2, "seed": 1, "log": [[0, "fly away"]]}',
            "does not replay",
        ),
        ('{"game": "chess", "players": 2, "seed": 1, "log": []}', "no game called"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"game": "chess", "players": 2, "seed": NaN, "log": []}', "NaN is not JSON"),
        ('{"game": "\\udc00", "players": 2, "seed": 1, "log": []}', "lone surrogate"),
    ],
)
def test_malformed_save_files_exit_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    for args in (["replay", str(path)], ["play", GAME, "--load", str(path)]):
        result = invoke(*args)
        assert result.exit_code == 2, result.output
        assert message in result.stderr
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.output


def test_replay_of_a_missing_or_binary_file_exits_2(tmp_path: Path) -> None:
    result = invoke("replay", str(tmp_path / "nothing.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.stderr
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    result = invoke("replay", str(binary))
    assert result.exit_code == 2
    assert "not UTF-8" in result.stderr


def early_breaks(text: str) -> list[str]:
    """Lines of a help panel broken before the terminal's edge: the next line's first word,
    continuing the same description, would have fitted on it."""
    inner = [
        line[2:-2] for line in text.splitlines() if line.startswith("│ ") and line.endswith(" │")
    ]
    found = []
    for a, b in itertools.pairwise(inner):
        word = b.strip().split()[0] if b.strip() else ""
        if not b[:1].isspace() or not word or word[0] in "-[":
            continue  # b starts a row, an option, or Typer's [default: ...] line
        if len(a.rstrip()) + 1 + len(word) < len(a):
            found.append(f"{a.strip()!r} / {b.strip()!r}")
    return found


@pytest.mark.parametrize(
    "command", ["", *sorted(c.name or c.callback.__name__ for c in app.registered_commands)]
)
def test_help_texts_are_paragraphs_the_terminal_wraps(command: str) -> None:
    """Every help (``rulebook --help``, each command's) at 80 columns: sentences run to the
    edge of their column, none broken mid-line where the docstring's lines ended."""
    args = [command, "--help"] if command else ["--help"]
    result = runner.invoke(app, args, env={"COLUMNS": "80", "TERM": "dumb"})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert early_breaks(result.output) == []


@pytest.mark.parametrize("eta", [True, False])
def test_a_progress_line_fits_80_columns(eta: bool) -> None:
    """``simulate``'s, ``strength``'s, ``record``'s and ``tune``'s progress line in an 80-column
    terminal: the description cut with an ellipsis, the counts and times whole."""
    import io

    from rich.console import Console

    from rulebook.cli.common import progress_line

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, force_terminal=False)
    bar = progress_line(console, 40000, eta=eta)
    task = bar.add_task("Merchants of Magick: greedy, greedy, mcts:200, greedy", total=40000)
    bar.advance(task, 12345)
    console.print(bar.make_tasks_table(bar.tasks))
    line = out.getvalue().rstrip("\n")
    assert "\n" not in line and len(line) <= 80, line
    assert line.startswith("Merchants of Magick: greedy") and "…" in line
    assert "12345/40000" in line and "0:00:00" in line
    assert ("eta" in line) == eta
