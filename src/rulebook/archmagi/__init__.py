"""Archmagi (rulebook ``004_df6d88d5c0362155.txt``): 2-4 players around one Magic Pool."""

from rulebook.archmagi.moves import Move
from rulebook.archmagi.options import MAGI
from rulebook.archmagi.rules import ArchmagiState
from rulebook.core.registry import register_package

GAME = register_package(__name__, ArchmagiState, options=(MAGI,))

__all__ = ["GAME", "ArchmagiState", "Move"]
