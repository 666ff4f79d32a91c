"""Pandoria Merchants (rulebook ``003_85552cb3b950eabe.txt``): standard 2-4, family, solo."""

from rulebook.core.registry import register_package
from rulebook.pandoria_merchants.moves import Move
from rulebook.pandoria_merchants.rules import PandoriaState

GAME = register_package(__name__, PandoriaState)

__all__ = ["GAME", "Move", "PandoriaState"]
