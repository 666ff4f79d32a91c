"""The scales and channel orders of Pandoria Merchants' observation tensor, shared by the
encoder (:mod:`rulebook.pandoria_merchants.encoding`, from the observation) and its fast path
(:mod:`rulebook.pandoria_merchants.tensor`, from the state)."""

from __future__ import annotations

from rulebook.pandoria_merchants.board import KINDS

#: what a die shows: a symbol, or "?" (any Resource but the other die's)
FACES = (*KINDS, "?")
#: the map's symbols (``map.rows``: a symbol then a mark per hex), in channel order
SYMBOLS = "WCKGT#.~"
MARKS = "@*xa"
#: rounds are divided by this (a 2-player game lasts about 15 rounds, a 4-player one about 10)
ROUND_SCALE = 20.0
#: Artifacts held, or waiting on a hex, are divided by this
ARTIFACT_SCALE = 5.0
#: Spells used (family) are divided by this
SPELLS_SCALE = 10.0
