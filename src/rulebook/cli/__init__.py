"""The ``rulebook`` command line: list the games, play one in the terminal, simulate, replay,
record games for learning, and the balance lab (report, compare, strength, tune).

``app`` (commands) is in :mod:`rulebook.cli.app`, the lab's commands in
:mod:`rulebook.cli.lab`, the interactive game in :mod:`rulebook.cli.session`, shared helpers in
:mod:`rulebook.cli.common`.
"""

import inspect

from rulebook.cli import arena as _arena  # noqa: F401  (registers rulebook arena)
from rulebook.cli import lab as _lab  # noqa: F401  (registers the lab's commands)
from rulebook.cli import record as _record  # noqa: F401  (registers rulebook record)
from rulebook.cli import serve as _serve  # noqa: F401  (registers the web app's command)
from rulebook.cli import train as _train  # noqa: F401  (registers rulebook train)
from rulebook.cli import tune as _tune  # noqa: F401  (registers rulebook tune)
from rulebook.cli.app import app

__all__ = ["app"]


def _one_paragraph_each() -> None:
    """Each command's line of ``rulebook --help``: its docstring's first paragraph as one
    paragraph, for the terminal to wrap (Typer keeps the docstring's own line breaks there)."""
    for command in app.registered_commands:
        if command.short_help is None and command.callback is not None:
            first = (inspect.getdoc(command.callback) or "").split("\n\n")[0]
            command.short_help = " ".join(first.split())


_one_paragraph_each()
