"""The list of registered games and the one entry point that starts any of them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rulebook.core.errors import UnknownGame
from rulebook.core.game import Game

if TYPE_CHECKING:
    from rulebook.core.state import State

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make a game known to :func:`games` and :func:`new_game` (called by each game package)."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    return game


def games() -> list[str]:
    """The names of all registered games, sorted."""
    return sorted(_GAMES)


def get_game(name: str) -> Game:
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(games()) or "none"
        raise UnknownGame(f"no game called {name!r} (games: {known})") from None


def new_game(
    name: str,
    players: int,
    seed: int = 0,
    variant: str | None = None,
    options: Mapping[str, str] | None = None,
) -> State:
    """The initial state of game ``name`` for ``players`` seats, dealt and rolled from ``seed``."""
    return get_game(name).new_game(players, seed=seed, variant=variant, options=options)
