"""The list of registered games, the one entry point that starts any of them, and the
registration of a game package from what its modules provide."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from typing import Any

from pydantic import Field

from rulebook.core.data import Strict, load
from rulebook.core.errors import UnknownGame
from rulebook.core.game import Option, Setup, Variant
from rulebook.core.state import Game, State

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


#: where a game package's hooks are found: its module, then ``Game`` field -> the name in that
#: module (a module or a name a game does not have leaves the field unset)
HOOKS: dict[str, dict[str, str]] = {
    "bots": {"evaluate": "evaluate", "evaluate_moves": "evaluate_moves"},
    "lookahead": {"lookahead": "lookahead"},
    "render": {
        "render": "render",
        "turn_view": "turn",
        "views": "VIEWS",
        "menu_entry": "menu_entry",
    },
    "cards": {"cards": "cards", "authored_cards": "authored_cards"},
    "encoding": {"encoder": "encoder"},
    "stats": {"counters": "counters", "faction": "faction"},
}


@dataclass(frozen=True)
class _Create:
    """A registered game's factory of initial states (picklable, unlike a closure)."""

    name: str
    state: type[State]

    def __call__(self, setup: Setup) -> State:
        return self.state(get_game(self.name), setup)


class VariantSpec(Strict):
    """A variant of ``about.toml`` (:class:`~rulebook.core.game.Variant`)."""

    name: str
    min_players: int = Field(ge=1)
    max_players: int = Field(ge=1)
    description: str = ""
    opponent: str = ""


class OptionSpec(Strict):
    """An option of ``about.toml`` whose values are listed (:class:`~rulebook.core.game.Option`)."""

    name: str
    choices: tuple[str, ...] = Field(min_length=1)
    default: str
    variants: tuple[str, ...] = ()
    description: str = ""


class AboutFile(Strict):
    """A game package's ``about.toml``: what the game is, as the list of games shows it."""

    title: str
    #: the rulebook's file in ``/work/shared/rulebooks``
    rulebook: str
    description: str
    variants: tuple[VariantSpec, ...] = Field(min_length=1)
    options: tuple[OptionSpec, ...] = ()
    #: the usual player count (the lab's and the tuner's default)
    common_players: int | None = Field(default=None, ge=1)


def register_package(package: str, state: type[State], *, options: tuple[Option, ...] = ()) -> Game:
    """Register the game of ``package`` (a game package's ``__name__``): what the game is
    (its ``about.toml``: title, rulebook, variants, listed options), played with ``state``,
    with ``options`` that a rule checks (Archmagi's Magi) after the listed ones, its name the
    package's (``pandoria_merchants`` -> ``pandoria-merchants``), and its hooks found in the
    package's modules by :data:`HOOKS` (``bots.evaluate``, ``lookahead.lookahead``,
    ``render.turn``...), its data files in ``<package>.data`` (``rules.md``: how to play) and
    its board view in ``<package>.web``."""
    about = load(AboutFile, package, "about.toml")
    hooks: dict[str, Any] = {}
    for module_name, fields in HOOKS.items():
        if find_spec(f"{package}.{module_name}") is None:
            continue
        module = import_module(f"{package}.{module_name}")
        for field_name, attribute in fields.items():
            if hasattr(module, attribute):
                hooks[field_name] = getattr(module, attribute)
    name = package.rsplit(".", 1)[-1].replace("_", "-")
    listed = tuple(Option(**spec.model_dump()) for spec in about.options)
    return register(
        Game(
            name=name,
            title=about.title,
            rulebook=about.rulebook,
            variants=tuple(Variant(**spec.model_dump()) for spec in about.variants),
            create=_Create(name, state),
            options=listed + options,
            description=about.description,
            common_players=about.common_players,
            data_package=f"{package}.data" if find_spec(f"{package}.data") else None,
            web_view=f"{package}.web" if find_spec(f"{package}.web") else None,
            **hooks,
        )
    )
