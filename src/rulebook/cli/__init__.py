"""The ``rulebook`` command line: list the games, play one in the terminal, simulate, replay.

``app`` (commands) is in :mod:`rulebook.cli.app`, the interactive game in
:mod:`rulebook.cli.session`, shared helpers in :mod:`rulebook.cli.common`.
"""

from rulebook.cli.app import app

__all__ = ["app"]
