"""The core: seeded chance, setup checks, save files, data provenance, the sheet engine."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rulebook
from rulebook import IllegalAction, RulebookError, SaveFileError, SetupError, UnknownGame
from rulebook.agents import RandomAgent
from rulebook.archmagi.content import PACKAGE as ARCHMAGI_DATA
from rulebook.archmagi.content import GameFile, MagiFile
from rulebook.core import Chance, data
from rulebook.core.data import (
    DataError,
    Sourced,
    clear_caches,
    content_from_files,
    load,
    validate,
)
from rulebook.core.sheet import Layout, RowSpec, rotate_clockwise, shift_left
from rulebook.simulate import play

GAME = "merchants-of-magick"


def played(seed: int = 5, players: int = 3, moves: int = 25) -> rulebook.State:
    state = rulebook.new_game(GAME, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        p = state.current_players()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state


# -- registry and setup ---------------------------------------------------------------------
def test_games_lists_registered_games() -> None:
    assert GAME in rulebook.games()
    assert rulebook.get_game(GAME).title == "Merchants of Magick"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"name": GAME, "players": 0},
            r"Merchants of Magick cannot be played by 0 players: it takes 1 player \(solo\) or "
            r"2-8 players \(standard\)",
        ),
        ({"name": GAME, "players": 9}, "cannot be played by 9 players"),
        ({"name": "archmagi", "players": 1}, "cannot be played by 1 player: it takes 2-4"),
        ({"name": GAME, "players": 1, "variant": "standard"}, "takes 2-8 players, not 1"),
        ({"name": GAME, "players": 2, "variant": "solo"}, r"\(solo\) takes 1 player, not 2"),
        ({"name": GAME, "players": 2, "variant": "family"}, "no variant 'family'"),
        ({"name": GAME, "players": 2, "options": {"level": "x"}}, "no option level"),
        ({"name": GAME, "players": "2"}, "players must be a whole number, not '2'"),
        ({"name": GAME, "players": 2, "seed": "x"}, "seed must be a whole number, not 'x'"),
        ({"name": GAME, "players": 2, "seed": 1.5}, "seed must be a whole number"),
    ],
)
def test_bad_setups_name_the_problem(kwargs: dict[str, Any], message: str) -> None:
    """Issue 17: a bad setup raises SetupError naming it (not UnknownGame, which means no
    such game); it is a RulebookError and a ValueError, so existing catches still work."""
    with pytest.raises(SetupError, match=message) as caught:
        rulebook.new_game(**kwargs)
    assert isinstance(caught.value, RulebookError) and isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, UnknownGame)


def test_counts_read_right() -> None:
    """Issue 17: "1 player", "takes 1 player" (not "1-1 players"), "2-8 players"."""
    from rulebook.core.words import player_count, plural

    assert plural(1, "move") == "1 move" and plural(0, "move") == "0 moves"
    assert plural(2, "Bonus Modifier") == "2 Bonus Modifiers"
    assert player_count(1, 1) == "1 player" and player_count(2, 8) == "2-8 players"
    game = rulebook.get_game(GAME)
    assert game.player_counts() == "1 player (solo) or 2-8 players (standard)"


def test_no_such_game_is_unknown_game() -> None:
    with pytest.raises(UnknownGame, match="no game called 'chess'"):
        rulebook.new_game("chess", players=2)


def test_a_bad_seat_is_an_error_not_no_moves() -> None:
    """Issue 17: legal_actions(9) on a 2-player game raises IllegalAction naming the seat, in
    every game (it returned [], as for a seat not to act now); a seat not to act gets []."""
    for name in rulebook.games():
        state = rulebook.new_game(name, players=2, seed=1)
        for bad in (9, 2, -1, "0"):
            with pytest.raises(IllegalAction, match=f"no seat {bad}|seat number, not '0'"):
                state.legal_actions(bad)  # type: ignore[arg-type]
            with pytest.raises(IllegalAction, match=f"no seat {bad}|seat number"):
                state.apply(bad, "pass")  # type: ignore[arg-type]
        waiting = [p for p in (0, 1) if p not in state.current_players()]
        for p in waiting:
            assert state.legal_actions(p) == []
        assert state.legal_actions(state.current_players()[0])


def test_python_dash_m_runs_the_cli() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "rulebook", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == f"rulebook {rulebook.__version__}"


def test_one_player_is_the_solo_variant() -> None:
    assert rulebook.new_game(GAME, players=1).setup.variant == "solo"
    assert rulebook.new_game(GAME, players=2).setup.variant == "standard"


# -- chance ---------------------------------------------------------------------------------
def test_chance_is_seeded_and_cheap_to_copy() -> None:
    a, b = Chance(42), Chance(42)
    assert [a.roll((6, 8, 10, 12)) for _ in range(20)] == [
        b.roll((6, 8, 10, 12)) for _ in range(20)
    ]
    c = a.copy()
    assert a.roll((100,)) == c.roll((100,))
    assert Chance(1).roll((10**9,)) != Chance(2).roll((10**9,))


def test_chance_rolls_are_fair_enough() -> None:
    chance = Chance(7)
    counts = [0] * 6
    for _ in range(6000):
        counts[chance.roll((6,))[0] - 1] += 1
    assert all(850 < n < 1150 for n in counts)


def test_same_seed_same_game() -> None:
    assert played(seed=9).snapshot() == played(seed=9).snapshot()
    assert played(seed=9).snapshot() != played(seed=10).snapshot()


# -- save files ----------------------------------------------------------------------------
def test_save_and_load_round_trip(tmp_path: Path) -> None:
    state = played()
    path = tmp_path / "game.json"
    rulebook.save(state, path)
    assert rulebook.load(path).snapshot() == state.snapshot()
    assert rulebook.replay(path).to_json() == state.to_json()


def test_save_files_record_who_sat_where(tmp_path: Path) -> None:
    state = played()
    path = tmp_path / "game.json"
    rulebook.save(state, path, seats=["human", "greedy", "random"])
    assert rulebook.saved_seats(path) == ["human", "greedy", "random"]
    assert rulebook.load(path).snapshot() == state.snapshot()
    rulebook.save(state, path)
    assert rulebook.saved_seats(path) is None
    with pytest.raises(RulebookError, match="2 seat names for 3 players"):
        rulebook.save_text(state, ["human", "greedy"])


def test_replay_steps_yield_every_position() -> None:
    state = played(moves=10)
    steps = [s.snapshot()["history"] for s in rulebook.replay_steps(state.log())]
    assert len(steps) == 11


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: "not json{", "it is not JSON text"),
        (lambda d: "[1, 2]", "expected a JSON object"),
        (lambda d: {k: v for k, v in d.items() if k != "seed"}, "missing seed"),
        (lambda d: {**d, "extra": 1}, "unknown field"),
        (lambda d: {**d, "format": "rulebook/99"}, "unsupported save format"),
        (lambda d: {**d, "game": "chess"}, "no game called"),
        (lambda d: {**d, "players": 42}, "not 42"),
        (lambda d: {**d, "log": "d6"}, "log must be a list"),
        (lambda d: {**d, "log": [*d["log"], [0]]}, "not a \\[seat, move\\] pair"),
        (lambda d: {**d, "log": [*d["log"], [0, "fly away"]]}, "does not replay"),
        (lambda d: {**d, "log": [*d["log"], [7, "done"]]}, "does not replay"),
        (lambda d: {**d, "log": [[True, "done"]]}, "not a \\[seat, move\\] pair"),
        (lambda d: {**d, "options": []}, "options must be an object"),
        (lambda d: {**d, "seats": ["human"]}, "one name per player"),
        (lambda d: {**d, "seats": ["human", 3, "x"]}, "one name per player"),
        # odd JSON (issue 22): one line each, never a RecursionError or a bare ValueError
        (lambda d: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (lambda d: {**d, "log": json.loads("[" * 400 + "]" * 400)}, "not a \\[seat, move\\] pair"),
        (lambda d: json.dumps(d).replace('"log": [', '"log": [NaN, '), "NaN is not JSON"),
        (lambda d: json.dumps(d).replace('"log": [', '"log": [-Infinity, '), "Infinity is not"),
        (
            lambda d: json.dumps({**d, "seed": 0}).replace('"seed": 0', '"seed": 1' + "0" * 5000),
            "digits",
        ),
        (lambda d: json.dumps({**d, "game": "@"}).replace('"@"', '"\\ud800"'), "lone surrogate"),
        (lambda d: {**d, "variant": 3}, "variant must be"),
        (lambda d: {**d, "options": {"magi": [1]}}, "option 'magi' must be text"),
    ],
)
def test_malformed_save_files_are_refused(mutate: Any, message: str) -> None:
    data = played().log()
    bad = mutate(json.loads(json.dumps(data)))
    with pytest.raises(SaveFileError, match=message) as refused:
        rulebook.replay(bad if isinstance(bad, str) else json.dumps(bad))
    reason = str(refused.value)
    assert "\n" not in reason and len(reason) < 300, reason


def test_missing_save_file(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="cannot read"):
        rulebook.load(tmp_path / "nope.json")


def test_determinized_states_are_not_saved() -> None:
    sample = played().determinize(0, random.Random(1))
    with pytest.raises(RulebookError, match="determinized"):
        sample.to_json()


def test_determinize_keeps_public_information_and_changes_hidden() -> None:
    state = played(moves=0)
    decks = {tuple(state.determinize(1, random.Random(i)).snapshot()["deck"]) for i in range(5)}
    assert len(decks) > 1
    assert state.determinize(1, random.Random(3)).observation(1) == state.observation(1)


def test_full_game_between_agents_ends() -> None:
    state = rulebook.new_game(GAME, players=4, seed=3)
    play(state, [RandomAgent(p) for p in range(4)])
    assert state.is_terminal() and state.winners()
    assert state.returns() == [
        1 / len(state.winners()) if p in state.winners() else 0.0 for p in range(4)
    ]


# -- data files ------------------------------------------------------------------------------
class Card(Sourced):
    name: str
    cost: int


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"name": "x", "cost": 1, "source": "authored"}, "needs a one-line 'why'"),
        ({"name": "x", "cost": 1, "source": "public", "why": " "}, "needs a one-line 'why'"),
        ({"name": "x", "cost": 1, "source": "guess", "why": "?"}, "source"),
        ({"name": "x", "cost": 1, "source": "rulebook", "authored": {"price": "r"}}, "not a field"),
        (
            {"name": "x", "cost": 1, "source": "rulebook", "authored": {"cost": ""}},
            "needs a reason",
        ),
        ({"name": "x", "cost": "lots", "source": "rulebook"}, "cost"),
        ({"name": "x", "cost": 1, "source": "rulebook", "colour": "red"}, "colour"),
    ],
)
def test_data_entries_must_say_where_values_come_from(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(DataError, match=message):
        validate(Card, raw, "cards.toml")


def test_data_entry_with_provenance_loads() -> None:
    card = validate(
        Card, {"name": "x", "cost": 1, "source": "rulebook", "authored": {"cost": "why not"}}, "f"
    )
    assert card.cost == 1


def test_content_from_files_reads_each_parameter_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the registry of the games' data files, left as it was for the tests after this one
    monkeypatch.setattr(data, "_SCHEMAS", dict(data._SCHEMAS))
    calls: list[tuple[MagiFile, GameFile]] = []

    def compile_content(magi: MagiFile, game: GameFile) -> int:
        calls.append((magi, game))
        return len(calls)

    content = content_from_files(ARCHMAGI_DATA, compile_content)
    assert data.schemas(ARCHMAGI_DATA) == (("magi.toml", MagiFile), ("game.toml", GameFile))
    assert content() == 1 and content() == 1
    magi, game = calls[0]
    assert magi == load(MagiFile, ARCHMAGI_DATA, "magi.toml")
    assert game == load(GameFile, ARCHMAGI_DATA, "game.toml")
    clear_caches()
    assert content() == 2


def test_content_from_files_needs_a_schema_per_parameter() -> None:
    def compile_content(magi: dict[str, Any]) -> int:
        return 0

    with pytest.raises(TypeError, match="parameter 'magi' names no data schema"):
        content_from_files(ARCHMAGI_DATA, compile_content)


# -- the sheet engine ----------------------------------------------------------------------
def test_layout_indexes_circles_by_die() -> None:
    layout = Layout(
        [("steel", ["d6"], True), ("wild", ["d12"], False)],
        [
            RowSpec("sword", "Sword", "crafting", "weapon", 2, {"steel": 4}),
            RowSpec("fiery", "Fiery", "research", "prefix", 1, {"steel": 6, "wild": 1}),
        ],
    )
    assert [c.id for c in layout.by_die["d6"]] == ["sword/steel", "fiery/steel"]
    assert [c.id for c in layout.by_die["d12"]] == ["fiery/wild"]
    sword = layout.circle_by_id["sword/steel"]
    wild = layout.circle_by_id["fiery/wild"]
    assert (sword.change_needed(2), sword.change_needed(5)) == (2, 0)
    assert (wild.change_needed(3), wild.change_needed(1)) == (-2, 0)
    marks = sword.bit
    assert [r.id for r in layout.completed_rows(marks)] == ["sword"]
    assert layout.column_count(marks, layout.column_by_id["steel"]) == 1
    with pytest.raises(ValueError, match="no column"):
        Layout([("steel", ["d6"], True)], [RowSpec("x", "X", "c", "c", 1, {"wood": 1})])


def test_customer_lines_rotate_to_the_left_neighbour() -> None:
    lines = [["a1", "a2"], ["b1", "b2"], ["c1"]]
    assert rotate_clockwise(lines) == [["a2", "c1"], ["b2", "a1"], ["b1"]]
    assert rotate_clockwise([[], ["b1"]]) == [["b1"], []]
    assert shift_left(["a", "b", "c"], "d") == (["b", "c", "d"], "a")
    assert shift_left([], None) == ([], None)


def test_find_move_ignores_case_and_spacing_and_says_what_moves_look_like() -> None:
    from rulebook.core import find_move

    class Move(rulebook.Action):
        __slots__ = ()

        def __str__(self) -> str:
            return "forge vorpal mace"

    move = Move()
    table = {str(move): move}
    assert find_move(table, "  Forge   VORPAL mace ", "'forge axe'") is move
    with pytest.raises(rulebook.IllegalAction, match="moves look like 'forge axe'"):
        find_move(table, "forge mace", "'forge axe'")
    with pytest.raises(rulebook.IllegalAction, match="is not a move"):
        find_move(table, 7, "'forge axe'")


# -- words a person reads (issue 23) ---------------------------------------------------------------
def test_seats_are_named_from_one() -> None:
    from rulebook.core.words import seat

    assert [seat(p) for p in range(3)] == ["seat 1", "seat 2", "seat 3"]


@pytest.mark.parametrize(
    ("phrase", "told"),
    [
        ("Decline to answer the Flow of Magic", "declines to answer the Flow of Magic"),
        ("Pass", "passes"),
        ("Carry 2 Resources", "carries 2 Resources"),
        ("Pay 2 gold", "pays 2 gold"),
        ("Do nothing", "does nothing"),
        ("Have a look", "has a look"),
        ("Finish the turn", "finishes the turn"),
        (
            "Use the d8 (2) and 1 Potion to mark Backpack in Leather",
            "uses the d8 (2) and 1 Potion to mark Backpack in Leather",
        ),
    ],
)
def test_a_move_in_plain_words_is_told_of_another_seat(phrase: str, told: str) -> None:
    from rulebook.core.words import third_person

    assert third_person(phrase) == told


def test_plain_words_told_to_others_never_say_more_than_announce() -> None:
    """The default ``describe_public`` falls back to ``announce`` wherever a game tells the
    others less than the mover (Archmagi's Search names face-down Spells to its mover only)."""
    from types import SimpleNamespace

    from rulebook.core.state import State, Texts

    def explain(player: int, action: str) -> str:
        return f"take {action}"

    game = SimpleNamespace(
        texts=Texts(),
        explain=explain,
        announce=lambda p, a: "take a card" if a == "secret" else explain(p, a),
        describe=lambda p, a: f"Take {a} from the pile",
    )
    assert State.describe_public(game, 0, "open") == "Take open from the pile"  # type: ignore[arg-type]
    assert State.describe_public(game, 0, "secret") == "take a card"  # type: ignore[arg-type]


def test_a_game_package_says_what_it_is_in_its_about_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``register_package`` reads the package's ``about.toml``; a bad one is refused, saying
    which file and field, before anything is registered."""
    from rulebook.core import registry
    from rulebook.merchants_of_magick.rules import MerchantsState

    package = tmp_path / "toy_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    about = package / "about.toml"
    about.write_text('title = "Toy"\nrulebook = "toy.txt"\ndescription = "a toy"\nvariants = []\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_GAMES", {})
    with pytest.raises(DataError, match=r"toy_game/about.toml: invalid data\n  variants"):
        registry.register_package("toy_game", MerchantsState)
    assert registry.games() == []
    about.write_text(
        'title = "Toy"\nrulebook = "toy.txt"\ndescription = "a toy"\ncommon_players = 2\n'
        '[[variants]]\nname = "duo"\nmin_players = 2\nmax_players = 2\n'
    )
    game = registry.register_package("toy_game", MerchantsState)
    assert registry.games() == ["toy-game"]
    assert (game.title, game.rulebook, game.common_players) == ("Toy", "toy.txt", 2)
    assert [(v.name, v.min_players, v.max_players) for v in game.variants] == [("duo", 2, 2)]


def test_each_game_names_its_texts_from_its_own_view_and_words_modules() -> None:
    """``Texts.of`` takes the functions the modules define (not those they import), the same
    wiring the games once wrote out method by method."""
    import importlib

    import pytest

    from rulebook.archmagi.rules import ArchmagiState
    from rulebook.battle_merchants.rules import BattleState
    from rulebook.core.rollwrite.engine import SheetState
    from rulebook.core.state import Texts
    from rulebook.pandoria_merchants.rules import PandoriaState

    def wiring(texts: Texts) -> dict[str, str]:
        return {
            k: f"{v.__module__}.{v.__name__}" for k, v in vars(texts).items() if v and k != "aloud"
        }

    # the words of the steps the rules tell: each game's aloud module
    assert ArchmagiState.texts.aloud is importlib.import_module("rulebook.archmagi.aloud")
    assert BattleState.texts.aloud is importlib.import_module("rulebook.battle_merchants.aloud")
    assert PandoriaState.texts.aloud is importlib.import_module("rulebook.pandoria_merchants.aloud")
    assert SheetState.texts.aloud is importlib.import_module("rulebook.core.rollwrite.aloud")

    am, bm, pm = (
        "rulebook.archmagi.view",
        "rulebook.battle_merchants",
        "rulebook.pandoria_merchants",
    )
    names = ("view", "explain", "announce", "describe", "describe_public")
    assert wiring(ArchmagiState.texts) == {n: f"{am}.{n}" for n in names}
    assert wiring(BattleState.texts) == {
        "view": f"{bm}.view.view",
        "explain": f"{bm}.view.explain",
        "describe": f"{bm}.words.describe",
    }
    assert wiring(PandoriaState.texts) == {
        "view": f"{pm}.view.view",
        "explain": f"{pm}.view.explain",
        "describe": f"{pm}.words.describe",
        "describe_public": f"{pm}.words.describe_public",
    }
    rw = "rulebook.core.rollwrite"
    assert wiring(SheetState.texts) == {
        "view": f"{rw}.view.view",
        "explain": f"{rw}.describe.explain",
        "describe": f"{rw}.describe.describe",
    }
    from types import ModuleType

    one, two = ModuleType("one"), ModuleType("two")
    for module in (one, two):
        exec("def explain(state, player, action):\n    return ''", module.__dict__)
        module.explain.__module__ = module.__name__
    with pytest.raises(TypeError, match="explain is in more than one"):
        Texts.of(one, two)
