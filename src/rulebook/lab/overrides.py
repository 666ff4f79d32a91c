"""Designers' data overrides: ``--data-override FILE.toml`` changes a game's data for one run.

The override file has one table per game and data file, holding the values to replace::

    # a row's, a card's or a rule's numbers; nothing else changes
    ["merchants-of-magick"."game.toml".rules]
    rounds = 9

    ["merchants-of-magick"."orders.toml".orders."Fiery Backpack"]
    coins = 5

Tables merge into tables key by key; a table given for an array of tables (``orders``) names
its entries by their ``id`` or ``name`` (or position ``"0"``, ``"1"``, ...); any other value
replaces the file's. The merged file is validated like the original: an unknown field, a bad
value or a broken cross-reference is refused with the file and the field named.
The overrides are installed in :mod:`rulebook.core.data` (in every worker process) and the
compiled-content caches dropped, so every game of the run reads the changed data.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulebook.core import Game, get_game
from rulebook.core.data import DataError, data_file_exists, set_overrides

#: the override installed in this process (canonical JSON), to install each one only once
_INSTALLED: str | None = None
#: the override ``_INSTALLED`` stands for, as given
_INSTALLED_RAW: dict[str, Any] | None = None


def data_package(game: Game) -> str:
    """The package holding ``game``'s data files: ``Game.data_package``
    (``rulebook.<game package>.data``), or for a game registered without one, the ``data``
    package beside the module of its factory."""
    if game.data_package is not None:
        return game.data_package
    module = game.create.__module__.split(".")
    return ".".join([*module[:2], "data"])


def read_override(path: Path) -> dict[str, Any]:
    """The override file at ``path``, parsed and checked (games and data files exist)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"cannot read data override {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"data override {path}: not valid TOML: {exc}") from None
    resolve(raw, str(path))
    return raw


def resolve(raw: dict[str, Any], where: str = "data override") -> dict[tuple[str, str], Any]:
    """``{game: {file: patch}}`` as ``{(package, file): patch}``; :class:`DataError` if it names
    no game or no data file of the game."""
    out: dict[tuple[str, str], Any] = {}
    for name, files in raw.items():
        try:
            game = get_game(name)
        except Exception as exc:
            raise DataError(f"{where}: {exc}") from None
        if not isinstance(files, dict):
            raise DataError(f"{where}: [{name!r}] must be a table of data files")
        package = data_package(game)
        for filename, patch in files.items():
            if not isinstance(patch, dict):
                raise DataError(f'{where}: ["{name}"."{filename}"] must be a table')
            if not data_file_exists(package, filename):
                raise DataError(f"{where}: {game.title} has no data file {filename!r}")
            out[(package, filename)] = patch
    return out


def canonical(raw: dict[str, Any] | None) -> str:
    """The override as canonical JSON ("" for none): what results record."""
    return json.dumps(raw, sort_keys=True, separators=(",", ":")) if raw else ""


def install(raw: dict[str, Any] | None) -> None:
    """Make ``raw`` the override in force in this process (nothing if it already is)."""
    global _INSTALLED, _INSTALLED_RAW
    key = canonical(raw)
    if key == _INSTALLED:
        return
    set_overrides(resolve(raw) if raw else {})
    _INSTALLED, _INSTALLED_RAW = key, raw


@contextmanager
def installed(raw: dict[str, Any] | None) -> Iterator[None]:
    """``raw`` in force in this process for the block, then the override in force before it
    (none, most often): a job played in the caller's process leaves its data as it was."""
    before = _INSTALLED_RAW
    install(raw)
    try:
        yield
    finally:
        install(before)


def check_addresses(raw: dict[str, Any], game: str, where: str = "the data override") -> None:
    """Refuse an override that would change nothing in a run of ``game``, or change another
    game's data (a typo in the game's name would otherwise give an unchanged experiment)."""
    named = sorted(raw)
    title = get_game(game).title
    if game not in raw:
        what = f"addresses {', '.join(named)}, not" if named else "has no table for"
        raise DataError(f'{where} {what} {game} ({title}): its tables must start with ["{game}".')
    others = [name for name in named if name != game]
    if others:
        raise DataError(
            f"{where} also addresses {', '.join(others)}; a run of {game} uses only the "
            f"tables of {game}: remove the others"
        )


def check(raw: dict[str, Any] | None, game: str, players: int, variant: str | None) -> None:
    """Check that ``raw`` addresses ``game`` alone and set up one game with it, so that
    invalid data fails before a run starts; the override in force before is put back."""
    if raw is not None:
        resolve(raw)  # every game and data file it names exists
        check_addresses(raw, game)
    with installed(raw):
        get_game(game).new_game(players, 0, variant)
