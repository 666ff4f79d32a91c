"""The engine core: knows no game. State protocol, actions, seeded chance, save files."""

from rulebook.core.chance import Chance
from rulebook.core.errors import (
    IllegalAction,
    RulebookError,
    SaveFileError,
    SetupError,
    UnknownGame,
)
from rulebook.core.events import Event
from rulebook.core.game import Option, Setup, Variant
from rulebook.core.registry import games, get_game, new_game, register
from rulebook.core.replay import (
    from_json,
    load,
    replay,
    replay_steps,
    save,
    save_contents,
    save_text,
    saved_seats,
)
from rulebook.core.state import Action, Game, State, View, apply_heard, find_move

__all__ = [
    "Action",
    "Chance",
    "Event",
    "Game",
    "IllegalAction",
    "Option",
    "RulebookError",
    "SaveFileError",
    "Setup",
    "SetupError",
    "State",
    "UnknownGame",
    "Variant",
    "View",
    "apply_heard",
    "find_move",
    "from_json",
    "games",
    "get_game",
    "load",
    "new_game",
    "register",
    "replay",
    "replay_steps",
    "save",
    "save_contents",
    "save_text",
    "saved_seats",
]
