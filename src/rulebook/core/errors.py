"""Errors raised by the engine. Every one leaves the state it was raised on untouched."""


class RulebookError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(RulebookError, ValueError):
    """A move that is malformed, not a move of this game, or not legal right now."""


class SaveFileError(RulebookError, ValueError):
    """A save file or action log that cannot be read or does not replay."""


class UnknownGame(RulebookError, KeyError):
    """A game name, variant or option that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; we want plain text
        return str(self.args[0]) if self.args else ""
