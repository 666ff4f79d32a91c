"""Merchants of Magick (rulebook ``000_ab43b6b995c67bb5.txt``): 1-8 players, solo variant."""

from rulebook.core.registry import register_package
from rulebook.merchants_of_magick.rules import Done, FreeMark, MerchantsState, Spend

GAME = register_package(__name__, MerchantsState)

__all__ = ["GAME", "Done", "FreeMark", "MerchantsState", "Spend"]
