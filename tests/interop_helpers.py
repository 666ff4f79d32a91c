"""What the interop conformance tests share: the configurations and how many games each plays.

``HYPOTHESIS_PROFILE=thorough`` (the suite's long profile) plays many more games per
configuration than the default run of ``make test``.
"""

from __future__ import annotations

import os

import pytest

from rulebook.interop.common import Config, configurations

#: games (or seeds) per configuration: a few in make test, many in the thorough profile
GAMES = 20 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1

CONFIGS = list(configurations())


def params(configs: list[Config]) -> list[object]:
    return [pytest.param(c, id=c.name) for c in configs]
