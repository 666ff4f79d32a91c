"""rulebook: five tabletop games on one engine, with bots, simulation and a balance lab.

>>> import rulebook
>>> state = rulebook.new_game("merchants-of-magick", players=3, seed=7)
>>> state.apply(0, state.legal_actions(0)[-1])
"""

from importlib import import_module

from rulebook.compiled import install

install()  # RULEBOOK_COMPILED=1: the compiled hot modules, if current (before any is imported)

from rulebook.core import (  # noqa: E402
    Action,
    Game,
    IllegalAction,
    RulebookError,
    SaveFileError,
    SetupError,
    State,
    UnknownGame,
    from_json,
    games,
    get_game,
    load,
    new_game,
    replay,
    replay_steps,
    save,
    save_text,
    saved_seats,
)

#: the game packages; importing one registers its game
GAME_PACKAGES = (
    "rulebook.merchants_of_magick",
    "rulebook.ye_olde_magick_shoppe",
    "rulebook.archmagi",
    "rulebook.battle_merchants",
    "rulebook.pandoria_merchants",
)
for _package in GAME_PACKAGES:
    import_module(_package)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "RulebookError",
    "SaveFileError",
    "SetupError",
    "State",
    "UnknownGame",
    "from_json",
    "games",
    "get_game",
    "load",
    "new_game",
    "replay",
    "replay_steps",
    "save",
    "save_text",
    "saved_seats",
]
