"""A newcomer finds a rule by its rulebook name (issue 27): for each game, the sections of its
rulebook and the module that implements each are listed as data (``tests/sections/GAME.toml``),
and this test holds the code to that map:

- every module listed exists and its docstring names the section it implements;
- every module the game's rules are made of (what its ``rules`` module imports, transitively,
  within the game's package or the sheet engine ``rulebook.core.rollwrite``, data schemas aside)
  is in the map, so a rule cannot hide in an unlisted module;
- no rules module is over 700 lines;
- each section's title is found in the rulebook's text, when the rulebooks are on this machine.

The map, one file per game::

    rulebook = "003_85552cb3b950eabe.txt"
    [[section]]
    title = "Drawing Resources and Workers"   # as the rulebook heads it (case aside)
    module = "rulebook.pandoria_merchants.drawing"
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

import rulebook
from test_rules_apart import imported
from test_rules_apart import source as importgraph_source

SRC = Path(rulebook.__file__).resolve().parent.parent
MAPS = Path(__file__).parent / "sections"
RULEBOOKS = Path(__file__).resolve().parents[2] / "shared" / "rulebooks"
if not RULEBOOKS.is_dir():
    RULEBOOKS = Path("/work/shared/rulebooks")
MAX_LINES = 700
#: modules of a game's package that hold no rule (data schemas, views, bots, words; ``aloud``:
#: the words of the steps the rules take on their own, :mod:`rulebook.core.events`)
NOT_RULES = ("bots", "lookahead", "render", "cards", "encoding", "stats", "web", "data", "aloud")


def source(module: str) -> Path | None:
    return importgraph_source(SRC, module)


def imports(module: str) -> set[str]:
    """The ``rulebook`` modules ``module`` imports, at any depth of its source."""
    return imported(SRC, module)


def rules_modules(package: str) -> set[str]:
    """The modules a game's rules are made of: from ``package.rules``, every module reached
    through imports that stays inside the game's package (or the sheet engine), bots, views and
    data schemas (``content``) aside."""
    homes = (package + ".", "rulebook.core.rollwrite.")
    #: packages followed through (their ``__init__`` re-exports) but not rules of their own
    through = {package, "rulebook.core.rollwrite"}
    start = f"{package}.rules"
    seen = {start}
    todo = [start]
    while todo:
        for name in imports(todo.pop()):
            last = name.rpartition(".")[2]
            inside = name in through or name.startswith(homes)
            if (
                inside
                and name not in seen
                and last not in NOT_RULES
                and last != "content"
                and source(name) is not None
            ):
                seen.add(name)
                todo.append(name)
    return seen - through


def load_map(game: str) -> dict[str, object]:
    path = MAPS / f"{game}.toml"
    assert path.is_file(), f"{path} lists {game}'s rulebook sections and their modules"
    with path.open("rb") as handle:
        return tomllib.load(handle)


def folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


GAMES = rulebook.games()
PACKAGE = {
    rulebook.get_game(g).name: p
    for p in rulebook.GAME_PACKAGES
    for g in GAMES
    if p.rpartition(".")[2].replace("_", "-") == g
}


@pytest.mark.parametrize("game", GAMES)
def test_every_section_names_its_module(game: str) -> None:
    data = load_map(game)
    assert data["rulebook"] == rulebook.get_game(game).rulebook
    sections = data["section"]
    assert isinstance(sections, list) and sections
    for section in sections:
        module, title = section["module"], section["title"]
        path = source(module)
        assert path is not None, f"{game}: {title!r} -> {module}: no such module"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert folded(title) in folded(doc), f"{module}'s docstring does not name {title!r}"


@pytest.mark.parametrize("game", GAMES)
def test_no_rule_outside_the_map(game: str) -> None:
    listed = {section["module"] for section in load_map(game)["section"]}  # type: ignore[union-attr]
    unlisted = rules_modules(PACKAGE[game]) - listed
    assert not unlisted, f"{game}: rules modules in no section of tests/sections/{game}.toml"


@pytest.mark.parametrize("game", GAMES)
def test_rules_modules_are_short(game: str) -> None:
    long = {}
    for module in rules_modules(PACKAGE[game]):
        path = source(module)
        assert path is not None
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long[module] = lines
    assert not long, f"rules modules over {MAX_LINES} lines: {long}"


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not on this machine")
@pytest.mark.parametrize("game", GAMES)
def test_sections_are_the_rulebooks_own(game: str) -> None:
    data = load_map(game)
    text = folded((RULEBOOKS / str(data["rulebook"])).read_text(encoding="utf-8"))
    missing = [s["title"] for s in data["section"] if folded(s["title"]) not in text]  # type: ignore[union-attr]
    assert not missing, f"{game}: sections the rulebook does not head so: {missing}"
