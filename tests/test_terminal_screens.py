"""The terminal's screens at 80 columns (issue 17): a turn of every game, variant and player
count fits 80x40 with nothing cut; at 80x24 the last screen before the prompt holds the dice
(where the game has dice) and every move; every view fits 80 columns and says what its
abbreviations mean."""

from __future__ import annotations

import pytest

import rulebook
from rulebook.cli.common import table_view
from screens import Config, configurations, render, screen_lines, walk

CONFIGS = configurations()
#: decisions shown per game: enough to pass through every phase of every game
SCREENS = 8


def sample(config: Config, seed: int = 0) -> list[tuple[list[str], bool]]:
    """About :data:`SCREENS` turn screens spread over a whole game between random bots."""
    decisions = sum(1 for _ in walk(config, seed, "random", every=1, show=False))
    every = max(1, decisions // SCREENS)
    return [screen_lines(s) for s in walk(config, seed, "random", every=every)]


@pytest.mark.parametrize("config", CONFIGS, ids=[c.label for c in CONFIGS])
def test_a_turn_fits_80_by_40_with_nothing_cut(config: Config) -> None:
    for lines, holds_the_end in sample(config):
        text = "\n".join(lines)
        assert len(lines) + 1 <= 40, f"{len(lines) + 1} lines:\n{text}"  # + the prompt
        assert all(len(line) <= 80 for line in lines), text
        assert "…" not in text, text  # Rich's mark of a cut cell
        assert holds_the_end, f"at 80x24 the dice or moves scroll away:\n{text}"


@pytest.mark.parametrize("game", rulebook.games())
def test_every_view_fits_80_columns(game: str) -> None:
    g = rulebook.get_game(game)
    for variant in g.variants:
        state = rulebook.new_game(game, variant.max_players, 5, variant.name)
        for _ in range(60):  # a game under way
            if state.is_terminal():
                break
            player = state.current_players()[0]
            state.apply(player, state.legal_actions(player)[-1])
        player = state.current_players()[0] if state.current_players() else 0
        for view in (*(v.draw for v in g.views), table_view):
            lines = render([view(state, player)])
            assert all(len(line) <= 80 for line in lines)
            assert "…" not in "\n".join(lines)
            assert "{'" not in "\n".join(lines)  # no Python dict or list on screen


def screen_text(game: str, players: int, variant: str | None = None, moves: int = 0) -> str:
    state = rulebook.new_game(game, players, 2, variant)
    for _ in range(moves):
        player = state.current_players()[0]
        state.apply(player, state.legal_actions(player)[-1])
    draw = state.game.turn_view
    assert draw is not None
    return " ".join("\n".join(render([draw(state, state.current_players()[0])])).split())


def test_battle_merchants_explains_tokens_and_defeated_weapons() -> None:
    text = screen_text("battle-merchants", 4)
    assert "token F fire: open, L lock: closed" in text
    assert "Defeated 0+0V" in text and "Defeated Standard+Vorpal" in text
    merchants = " ".join(
        render(
            [
                rulebook.get_game("battle-merchants")
                .views[2]
                .draw(rulebook.new_game("battle-merchants", 4, 2), 0)
            ]
        )
    )
    assert "0S 0V" not in merchants and "Defeated 0 Standard, 0 Vorpal" in merchants


def test_the_sheet_explains_its_thresholds() -> None:
    """In each game's words: Merchants of Magick's circles, Ye Olde Magick Shoppe's boxes."""
    for game, place in (("merchants-of-magick", "circle"), ("ye-olde-magick-shoppe", "box")):
        state = rulebook.new_game(game, 2, 1)
        sheet = next(v for v in state.game.views if v.name == "sheet")
        text = " ".join(" ".join(render([sheet.draw(state, 0)])).split())
        assert f"A crafting {place} >=5 takes a result of 5 or more" in text
        assert f"a research {place} <=6 a result of 6 or less" in text


def test_pandoria_explains_its_map_and_shows_relics_as_text() -> None:
    text = screen_text("pandoria-merchants", 2, moves=2)
    assert "* pre-printed, @ Starting space" in text
    realm = rulebook.get_game("pandoria-merchants").views[1]
    state = rulebook.new_game("pandoria-merchants", 3, 2)
    shown = " ".join(" ".join(render([realm.draw(state, 0)])).split())
    assert "Relics left: for 2 Artifacts 6, 5, 4; for 3 Artifacts 10, 8, 7" in shown
    assert "relic-2" not in shown


def test_roll_and_writes_show_the_dice_right_above_the_moves() -> None:
    state = rulebook.new_game("merchants-of-magick", 3, 4)
    draw = state.game.turn_view
    assert draw is not None
    lines = render([draw(state, 0)])
    assert lines[-2].startswith("Moves: die=result")
    assert lines[-1].startswith("Dice: d6=")
