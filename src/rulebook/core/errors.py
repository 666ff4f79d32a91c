"""Errors raised by the engine. Every one leaves the state it was raised on untouched."""


class RulebookError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(RulebookError, ValueError):
    """A move that is malformed, not a move of this game, or not legal right now."""


class SaveFileError(RulebookError, ValueError):
    """A save file or action log that cannot be read or does not replay."""


class SetupError(RulebookError, ValueError):
    """A game that cannot be set up as asked: a bad player count, seed, variant or option."""


class UnknownGame(RulebookError, KeyError):
    """A game name that is not registered (no such game)."""

    def __str__(self) -> str:  # KeyError quotes its message; we want plain text
        return str(self.args[0]) if self.args else ""
