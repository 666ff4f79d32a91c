"""The fast lookahead for this game's own evaluation, registered as ``Game.lookahead``: the
sheet engine's moves made and undone (:mod:`rulebook.core.rollwrite.lookahead`)."""

from rulebook.core.rollwrite.lookahead import lookahead

__all__ = ["lookahead"]
