"""What a move is, for every game (re-exported by :mod:`rulebook.core.state`).

Its own module so that the sheet games' compiled modules (``rulebook.compiled``) can derive
their moves from it compiled, while every other game's moves derive from it as they are.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)
class Action:
    """A move: a small immutable value whose ``str`` is its stable text form.

    Games define actions as frozen dataclasses deriving from this class; ``str(action)`` is
    what logs, save files, the terminal and the web API use, and
    ``state.parse_action(player, str(action)) == action`` always holds.
    """

    __slots__ = ()
