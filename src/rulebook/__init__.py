"""rulebook: five tabletop games on one engine, with bots, simulation and a balance lab.

>>> import rulebook
>>> state = rulebook.new_game("merchants-of-magick", players=3, seed=7)
>>> state.apply(0, state.legal_actions(0)[-1])
"""

from rulebook.core import (
    Action,
    Game,
    IllegalAction,
    RulebookError,
    SaveFileError,
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
)
from rulebook import games as _games  # noqa: F401  (registers the games)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "RulebookError",
    "SaveFileError",
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
]
