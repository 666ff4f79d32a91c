"""Terminal play as a newcomer meets it (issue 17): saves never lost or overwritten unasked,
stable move numbers, hot-seat, what each seat may see, card and rules look-ups, exit codes.

CLI points run through Typer's runner (scripted stdin) or a subprocess, never with a
traceback in the output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import rulebook
from rulebook.cli import app
from rulebook.cli.menu import Menus
from rulebook.core import IllegalAction

MOM = "merchants-of-magick"
runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> Result:
    result = runner.invoke(app, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result


def flat(text: str) -> str:
    """``text`` with every run of spaces and line breaks as one space (the console wraps)."""
    return " ".join(text.split())


def number_of(state: rulebook.State, player: int, text: str) -> int:
    """The menu number of the move ``text`` in a fresh menu."""
    return next(n for n, p in Menus().numbered(state, player) if str(p.action) == text)


def bot_save(path: Path, game: str = MOM, seed: int = 3, seats: str = "greedy,greedy") -> None:
    result = invoke(
        "play", game, "-p", "2", "--seats", seats, "--seed", str(seed), "--save", str(path)
    )
    assert result.exit_code == 0, result.output


def half_game(path: Path, game: str = MOM, seed: int = 4) -> None:
    """An unfinished two-seat game saved in ``path`` (the person stops at once)."""
    result = invoke(
        "play", game, "-p", "2", "--seed", str(seed), "--save", str(path), stdin="quit\n"
    )
    assert result.exit_code == 0, result.output


# -- saves: never overwritten unasked, resumed where they were --------------------------------
def test_save_refuses_to_overwrite_an_unfinished_game_of_another_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    half_game(path, "pandoria-merchants")
    before = path.read_bytes()
    result = invoke("play", MOM, "-p", "2", "--seed", "1", "--save", str(path), stdin="quit\n")
    assert result.exit_code == 2
    assert "holds an unfinished game of Pandoria Merchants" in result.stderr
    assert "--overwrite" in result.stderr
    assert path.read_bytes() == before
    again = invoke(
        "play", MOM, "-p", "2", "--seed", "1", "--save", str(path), "--overwrite", stdin="quit\n"
    )
    assert again.exit_code == 0, again.output
    assert rulebook.load(path).setup.game == MOM


def test_save_refuses_an_unfinished_game_of_the_same_game_and_a_file_that_is_no_save(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    half_game(path, MOM, seed=4)
    result = invoke("play", MOM, "-p", "2", "--seed", "9", "--save", str(path), stdin="quit\n")
    assert result.exit_code == 2
    assert "holds an unfinished game of Merchants of Magick" in result.stderr
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes", encoding="utf-8")
    result = invoke("play", MOM, "-p", "2", "--save", str(notes), stdin="quit\n")
    assert result.exit_code == 2
    assert "exists and is not a save file" in result.stderr
    assert notes.read_text(encoding="utf-8") == "my notes"


def test_save_replaces_a_finished_game_of_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    bot_save(path, seed=3)
    result = invoke("play", MOM, "-p", "2", "--seed", "8", "--save", str(path), stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert rulebook.load(path).setup.seed == 8


def test_in_game_save_refuses_another_game_unless_asked(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    half_game(other, "archmagi")
    before = other.read_bytes()
    stdin = f"save {other}\nsave {other} --overwrite\nquit\n"
    result = invoke("play", MOM, "-p", "2", "--seed", "1", stdin=stdin)
    assert "holds an unfinished game of Archmagi" in result.output
    assert "Saved to" in result.output
    assert other.read_bytes() != before
    assert rulebook.load(other).setup.game == MOM


def test_load_keeps_saving_to_the_same_file_and_needs_no_game_name(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = rulebook.new_game(MOM, players=2, seed=6)
    first = number_of(state, 0, str(state.legal_actions(0)[1]))
    started = invoke(
        "play", MOM, "-p", "2", "--seed", "6", "--save", str(path), stdin=f"{first}\nquit\n"
    )
    assert started.exit_code == 0, started.output
    assert len(rulebook.load(path).history) == 1
    resumed = invoke("play", "--load", str(path), stdin="done\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Resumed after 1 move." in resumed.output
    assert len(rulebook.load(path).history) >= 2  # the moves after the resume are saved
    kept = path.read_bytes()
    not_saved = invoke("play", "--load", str(path), "--no-save", stdin="quit\n")
    assert not_saved.exit_code == 0
    assert path.read_bytes() == kept


def test_end_of_input_after_a_save_says_which_moves_are_not_saved(tmp_path: Path) -> None:
    manual = tmp_path / "manual.json"
    state = rulebook.new_game(MOM, players=1, seed=7)
    first = next(str(a) for a in state.legal_actions(0) if str(a).startswith("d6 "))
    second = next(str(a) for a in state.legal_actions(0) if str(a).endswith("/elemental"))
    stdin = f"{first}\nsave {manual}\n{second}\n"
    result = invoke("play", MOM, "-p", "1", "--seed", "7", stdin=stdin)
    assert result.exit_code == 1
    assert "the game is abandoned after 2 moves" in result.output
    assert f"Move 2 is not saved (the last save, {manual}, holds 1 move)" in flat(result.output)
    assert "no --save FILE was given" not in result.output


def test_save_files_record_the_seats_and_loading_names_the_bots(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    bot_save(path, seed=5, seats="greedy,random")
    assert rulebook.saved_seats(path) == ["greedy", "random"]
    result = invoke("play", "--load", str(path))
    assert result.exit_code == 0, result.output
    assert "(human)" not in result.output
    assert "Seats: 1 greedy, 2 random." in flat(result.output)
    winners = rulebook.load(path).winners()
    assert f"seat {winners[0] + 1} ({['greedy', 'random'][winners[0]]})" in result.output
    relabelled = invoke("play", "--load", str(path), "--seats", "human,human", "--no-save")
    assert "Seats: 1 human, 2 human." in flat(relabelled.output)


def test_input_that_ends_at_once_exits_non_zero(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from rulebook.cli import app; app()"]
    done = subprocess.run(
        [*command, "play", MOM, "-p", "2", "--seed", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "Input ended: the game is abandoned after 0 moves." in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_the_seed_is_not_shown_to_people() -> None:
    result = invoke("play", MOM, "-p", "2", "--seed", "424242", stdin="quit\n")
    assert "424242" not in result.output


# -- numbers and the menu ---------------------------------------------------------------------
def test_move_numbers_are_stable_within_a_phase() -> None:
    state = rulebook.new_game(MOM, players=1, seed=11)
    menus = Menus()
    before = {n: str(p.action) for n, p in menus.numbered(state, 0)}
    spend = next(n for n, text in before.items() if text.startswith("d6 "))
    state.apply(0, menus.resolve(state, 0, str(spend)))
    after = {n: str(p.action) for n, p in menus.numbered(state, 0)}
    assert all(before[n] == text for n, text in after.items() if n in before)
    with pytest.raises(IllegalAction, match=rf"move {spend} \(d6 .*\) is no longer possible"):
        menus.resolve(state, 0, str(spend))
    with pytest.raises(IllegalAction, match="there is no move 999"):
        menus.resolve(state, 0, "999")


def test_numbers_start_again_when_the_phase_changes() -> None:
    state = rulebook.new_game(MOM, players=1, seed=11)
    menus = Menus()
    first = {n: str(p.action) for n, p in menus.numbered(state, 0)}
    state.apply(0, "done")  # the round ends: new dice, new phase
    second = {n: str(p.action) for n, p in menus.numbered(state, 0)}
    assert min(second) == 1 and max(second) == len(second)
    assert first != second


def test_a_number_typed_twice_is_refused_at_the_prompt() -> None:
    state = rulebook.new_game(MOM, players=1, seed=11)
    number = number_of(
        state, 0, next(str(a) for a in state.legal_actions(0) if str(a)[:3] == "d6 ")
    )
    result = invoke("play", MOM, "-p", "1", "--seed", "11", stdin=f"{number}\n{number}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"move {number} (d6 " in result.output and "is no longer possible" in result.output


# -- hot-seat and what each seat may see -------------------------------------------------------
def test_hot_seat_passes_the_device_and_hides_the_first_seats_choices() -> None:
    state = rulebook.new_game(MOM, players=2, seed=12)
    spend = next(str(a) for a in state.legal_actions(0) if str(a).startswith("d6 "))
    stdin = f"\n{spend}\ndone\n\ndone\n\nquit\n"  # Enter at each pass of the device
    result = invoke("play", MOM, "-p", "2", "--seats", "human,human", "--seed", "12", stdin=stdin)
    out = result.output
    assert out.count("pass the device to seat") >= 3
    seat1 = out.index("pass the device to seat 2")
    first_look = out[seat1 : out.index("seat 2: number", seat1)]
    assert spend not in first_look  # seat 2 chooses without seeing seat 1's choices
    back = out.index("pass the device to seat 1", seat1)
    assert "seat 2 (human): done" in out[back:]  # the round is over: both are told


def test_a_bots_choices_in_a_simultaneous_phase_stay_hidden_until_it_ends() -> None:
    result = invoke(
        "play", MOM, "-p", "2", "--seats", "greedy,human", "--seed", "13", stdin="done\nquit\n"
    )
    out = result.output
    first_screen = out[: out.index("seat 2: number")]
    assert "seat 1 (greedy):" not in first_screen
    second = out.index("seat 2: number", out.index("seat 2 (human): done"))
    assert "seat 1 (greedy):" in out[:second]


def test_log_lists_the_moves_a_seat_may_know() -> None:
    result = invoke(
        "play",
        MOM,
        "-p",
        "2",
        "--seats",
        "greedy,human",
        "--seed",
        "13",
        stdin="log\ndone\nlog\nquit\n",
    )
    logs = result.output.split("seat 2: number")
    assert "No move has been made" in logs[1]  # the bot's moves are still hidden
    assert "seat 1 (greedy):" in logs[3] and "seat 2 (human): done" in logs[3]


# -- help, rules and cards -----------------------------------------------------------------------
@pytest.mark.parametrize("game", rulebook.games())
def test_rules_command_and_prompt_show_how_to_play(game: str) -> None:
    result = invoke("rules", game)
    assert result.exit_code == 0, result.output
    title = rulebook.get_game(game).title
    assert f"{title}: how to play" in result.output
    for part in ("The goal", "In the terminal"):
        assert part in result.output


def test_help_lists_the_game_views_rules_and_card() -> None:
    result = invoke("play", "battle-merchants", "-p", "2", "--seed", "1", stdin="help\nquit\n")
    for command in ("rules", "card NAME", "board", "merchants", "log", "save FILE"):
        assert command in result.output


def test_card_looks_names_up_case_insensitively_with_did_you_mean() -> None:
    stdin = "card tide pool\ncard TIDE\ncard Tidepol\ncard zzz\nquit\n"
    result = invoke("play", "archmagi", "-p", "2", "--seed", "1", stdin=stdin)
    out = result.output
    assert out.count("Tide Pool: Water Spell (in the Water Magi's Spell Book)") == 2
    assert "Authored for this project" in out  # Tide Pool's text is the project's
    assert "Did you mean: Tide Pool" in out
    assert "No card called 'zzz'" in out


@pytest.mark.parametrize("game", rulebook.games())
def test_every_game_gives_card_texts_from_its_data(game: str) -> None:
    g = rulebook.get_game(game)
    for variant in g.variants:
        setup = g.setup(variant.max_players, 1, variant.name)
        texts = g.cards(setup) if g.cards else {}
        assert texts, f"{game} {variant.name} has no card texts"
        assert all(name.strip() and text.strip() for name, text in texts.items())


def test_the_cards_named_on_the_table_can_be_looked_up() -> None:
    mom = rulebook.new_game(MOM, players=2, seed=1)
    cards = rulebook.get_game(MOM).cards(mom.setup)  # type: ignore[misc]
    obs = mom.observation(0)
    for seat in obs["seats"]:
        assert all(o["name"] in cards for o in seat["orders"])
        assert seat["adventurer"]["name"] in cards
    assert all(m["name"] in cards for m in obs["masteries"])
    pandoria = rulebook.new_game("pandoria-merchants", players=2, seed=1)
    texts = rulebook.get_game("pandoria-merchants").cards(pandoria.setup)  # type: ignore[misc]
    assert all(c["card"] in texts for c in pandoria.observation(0)["realm"])
    assert "Tower" not in texts and "tower" in texts


def test_archmagi_draft_shows_each_spells_top_and_bottom_actions() -> None:
    state = rulebook.new_game("archmagi", players=2, seed=3)
    for _ in range(300):
        player = state.current_players()[0]
        drafts = [a for a in state.legal_actions(player) if str(a).startswith("draft ")]
        if drafts:
            break
        moves = state.legal_actions(player)
        look = [a for a in moves if str(a) == "top Call of the Element"]
        state.apply(player, look[0] if look else moves[-1])
    texts = [state.explain(player, a) for a in drafts]
    assert texts and all("top:" in t and "bottom:" in t for t in texts)


# -- input hints and error texts ------------------------------------------------------------------
@pytest.mark.parametrize("game", [MOM, "ye-olde-magick-shoppe"])
def test_roll_and_write_input_hints_are_real_moves_of_the_game(game: str) -> None:
    state = rulebook.new_game(game, players=2, seed=1)
    with pytest.raises(IllegalAction) as refused:
        state.parse_action(0, "banana")
    examples = str(refused.value).split("'")[3::2]  # the quoted examples
    assert examples
    vocabulary = {str(a) for a in state.action_vocabulary()}
    assert all(example in vocabulary for example in examples)


def test_replay_errors_do_not_send_to_the_prompt(tmp_path: Path) -> None:
    for game, move in (
        ("pandoria-merchants", "wood Z99"),
        ("pandoria-merchants", "fly"),
        (MOM, "x"),
    ):
        path = tmp_path / "bad.json"
        data = {"game": game, "players": 2, "seed": 1, "log": [[0, move]]}
        path.write_text(json.dumps(data), encoding="utf-8")
        result = invoke("replay", str(path))
        assert result.exit_code == 2
        assert "does not replay" in result.stderr
        assert "moves'" not in result.stderr and "type moves" not in result.stderr


def test_replay_verbose_names_what_was_sold(tmp_path: Path) -> None:
    path = tmp_path / "bm.json"
    bot_save(path, "battle-merchants", seed=2)
    result = invoke("replay", str(path), "--verbose")
    assert result.exit_code == 0, result.output
    sales = [line for line in result.output.splitlines() if ": sell " in line]
    assert sales and all(" to the " in line and " gold)" in line for line in sales)
