"""The rules know no bots (issue 27): no game's rules module, nor any module it imports, imports
the game's evaluation (``bots``), its fast lookahead (``lookahead``) or the agents, not even
inside a function. The game package registers those with :mod:`rulebook.core` instead
(``Game.evaluate``, ``Game.lookahead``), so the imports point one way: rules -> bots.

Read from the sources with :mod:`ast` (every ``import`` statement, wherever it stands), so an
import the tests never run is found too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rulebook

SRC = Path(rulebook.__file__).resolve().parent.parent
#: the game packages' rules modules: the sheet games' rules and the engine they share
RULES = (
    *(f"{package}.rules" for package in rulebook.GAME_PACKAGES),
    "rulebook.core.rollwrite.engine",
)


def forbidden(module: str) -> bool:
    """A module of the bots' side: a game's (or the sheet engine's) ``bots`` or ``lookahead``,
    the agents, the policies."""
    parts = module.split(".")
    return (
        parts[-1] in ("bots", "lookahead")
        or module.startswith("rulebook.agents")
        or module == "rulebook.core.policy"
    )


def source(src: Path, module: str) -> Path | None:
    """The source of ``module`` under ``src`` (a package's ``__init__.py``), if it is one."""
    path = src.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported(src: Path, module: str) -> set[str]:
    """The ``rulebook`` modules named by the import statements of ``module``'s source, at any
    depth of it (functions, ``if TYPE_CHECKING``...): ``from a import b`` names ``a.b`` when
    that is a module, ``a`` otherwise."""
    path = source(src, module)
    assert path is not None, module
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if source(src, sub) is not None else base)
    return {m for m in found if m == "rulebook" or m.startswith("rulebook.")}


def bot_imports(src: Path, start: str) -> list[tuple[str, str]]:
    """Every (importer, imported) pair on the way from ``start`` to a module of the bots'
    side, following the imports of ``rulebook`` modules transitively."""
    seen = {start}
    todo = [start]
    bad: list[tuple[str, str]] = []
    while todo:
        module = todo.pop()
        for name in sorted(imported(src, module)):
            if forbidden(name):
                bad.append((module, name))
            elif name not in seen and source(src, name) is not None:
                seen.add(name)
                todo.append(name)
    return bad


@pytest.mark.parametrize("rules", RULES)
def test_rules_import_no_bots(rules: str) -> None:
    assert bot_imports(SRC, rules) == [], f"{rules} reaches the bots' modules"


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The check itself: an import of the bots inside a method of a module the rules import
    (as the rules' ``lookahead`` overrides had) is found, two modules away."""
    game = tmp_path / "rulebook" / "toy"
    game.mkdir(parents=True)
    (tmp_path / "rulebook" / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (game / "rules.py").write_text("from rulebook.toy.moves import Move\n")
    (game / "moves.py").write_text(
        "class Move:\n    def value(self):\n        from rulebook.toy import bots\n"
    )
    (game / "bots.py").write_text("from rulebook.toy.rules import Move\n")
    assert bot_imports(tmp_path, "rulebook.toy.rules") == [
        ("rulebook.toy.moves", "rulebook.toy.bots")
    ]


def test_game_packages_register_their_hooks() -> None:
    """Registration by name (:func:`rulebook.core.registry.register_package`) finds every hook
    each game has: a misnamed module or function would leave it out silently."""
    for name in rulebook.games():
        game = rulebook.get_game(name)
        for hook in ("evaluate", "render", "turn_view", "menu_entry", "cards", "encoder"):
            assert getattr(game, hook) is not None, (name, hook)
        assert game.views and game.counters and game.data_package and game.web_view, name
        assert game.how_to_play()
        sheet = name in ("merchants-of-magick", "ye-olde-magick-shoppe")
        assert (game.evaluate_moves is not None) == sheet, name
        assert game.lookahead is not None, name
        assert (game.faction is not None) == (name != "ye-olde-magick-shoppe"), name
        assert game.create(game.setup(game.variants[0].min_players, 1)).game is game
