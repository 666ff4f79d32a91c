"""The game boards' files and static data (the contract in ``docs/web-api.md``): each game may
name a package (``Game.web_view``) holding ``board.js``, ``board.css`` and ``static(setup)``."""

from __future__ import annotations

import importlib
import json
from functools import lru_cache
from typing import Any

from rulebook.core import Setup, UnknownGame, boardkit, get_game


def board_file(game_name: str, name: str) -> tuple[bytes, str] | None:
    """A board's file and its media type, or None when the game or the file does not exist.

    ``board.js``, ``board.css`` and the modules they import (``./sheet.js``, ``./kit.js``):
    :func:`rulebook.core.boardkit.board_file` looks in the game's board package, then in the
    packages it shares code with."""
    try:
        game = get_game(game_name)
    except UnknownGame:
        return None
    found = boardkit.board_file(game, name)
    return None if found is None else (found[0].encode("utf-8"), found[1])


def has_board(game_name: str) -> bool:
    return board_file(game_name, "board.js") is not None


@lru_cache(maxsize=256)
def _static(game: str, variant: str, players: int, options: str) -> dict[str, Any] | None:
    package = get_game(game).web_view
    if package is None:
        return None
    module = importlib.import_module(package)
    make = getattr(module, "static", None)
    if make is None:
        return None
    setup = Setup(game, players, 0, variant, json.loads(options))  # never the game's seed
    data: dict[str, Any] = make(setup)
    return data


def board_static(setup: Setup) -> dict[str, Any] | None:
    """The board package's ``static(setup)``: the public facts of this configuration. It is
    given a setup with seed 0, so it cannot depend on (or reveal) the game's seed."""
    options = json.dumps(dict(setup.options), sort_keys=True)
    return _static(setup.game, setup.variant, setup.players, options)
