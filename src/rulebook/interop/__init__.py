"""Research interfaces: every game as a PettingZoo, Gymnasium and OpenSpiel environment.

Each adapter is an optional extra (``pip install 'rulebook[rl]'`` installs all three) and is
imported on its own: :mod:`rulebook.interop.pettingzoo`, :mod:`rulebook.interop.gymnasium`,
:mod:`rulebook.interop.openspiel`. They see the games only through :mod:`rulebook.core`: the
fixed action space (:class:`rulebook.core.spaces.ActionSpace`), each game's observation
encoder (``Game.encoder``) and the state protocol. The core imports nothing from here.
"""

from rulebook.interop.common import REWARDS, Config, Table, configurations

__all__ = ["REWARDS", "Config", "Table", "configurations"]
