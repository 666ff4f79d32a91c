"""What the interop conformance tests share: the configurations and how many games each plays.

``HYPOTHESIS_PROFILE=thorough`` (the suite's long profile) plays many more games per
configuration than the default run of ``make test``.
"""

from __future__ import annotations

import os

import pytest

import rulebook
from rulebook.interop.common import Config, configurations

#: games (or seeds) per configuration: a few in make test, many in the thorough profile
GAMES = 20 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1

CONFIGS = list(configurations())


def missing(game: str) -> str | None:
    """What a game still lacks for the adapters (its action vocabulary or observation encoder,
    both built on branch ``spaces``), or None when it has both."""
    g = rulebook.get_game(game)
    if not rulebook.new_game(game, g.common_players or 2).action_vocabulary():
        return f"{g.title} has no action vocabulary yet"
    if g.encoder is None:
        return f"{g.title} has no observation encoder yet"
    return None


def needs_spaces(game: str) -> pytest.MarkDecorator:
    """Skip (saying why) while ``game`` lacks its fixed spaces; runs as soon as it has them."""
    why = missing(game)
    return pytest.mark.skipif(why is not None, reason=why or "")


def params(configs: list[Config]) -> list[object]:
    return [pytest.param(c, id=c.name, marks=needs_spaces(c.game)) for c in configs]
