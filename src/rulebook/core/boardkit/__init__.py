"""Board views for the web app: where a game's board files are found, and what they share.

A game's :attr:`~rulebook.core.Game.web_view` names a package holding ``board.js`` (an ES
module exporting ``render(root, view, ctx)``), optionally ``board.css`` and a
``static(setup)`` function giving the public, unchanging facts the board draws. A board module
may import sibling modules (``import ... from "./sheet.js"``): :func:`board_file` finds a file
in the game's package first, then in the packages its ``SHARED`` tuple names (code shared by
several games, such as the roll-and-write sheet), then here (``kit.js``: places, SVG helpers).
The web app serves every such file at ``/boards/{game}/{name}``.
"""

from __future__ import annotations

import importlib
import re
from importlib import resources
from typing import Any

from rulebook.core.game import Setup
from rulebook.core.state import Game

#: the names a board file may have: one level, lower case, .js or .css
BOARD_FILE = re.compile(r"^[a-z][a-z0-9_-]{0,63}\.(js|css)$")
MEDIA_TYPES = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}


def board_packages(game: Game) -> list[str]:
    """The packages searched for a game's board files, in order (empty: no board view)."""
    if game.web_view is None:
        return []
    module = importlib.import_module(game.web_view)
    shared = [str(p) for p in getattr(module, "SHARED", ())]
    return [game.web_view, *shared, __name__]


def board_file(game: Game, name: str) -> tuple[str, str] | None:
    """The text and media type of the board file ``name`` of ``game``, or None if there is no
    such file (or the name is not a board file's: no paths, only ``.js`` and ``.css``)."""
    if not isinstance(name, str) or not BOARD_FILE.match(name):
        return None
    for package in board_packages(game):
        path = resources.files(package) / name
        if path.is_file():
            return path.read_text(encoding="utf-8"), MEDIA_TYPES[name.rsplit(".", 1)[1]]
    return None


def board_static(game: Game, setup: Setup) -> dict[str, Any] | None:
    """The board's public, unchanging data for this setup (``view.static``), or None."""
    if game.web_view is None:
        return None
    static = getattr(importlib.import_module(game.web_view), "static", None)
    return None if static is None else dict(static(setup))
