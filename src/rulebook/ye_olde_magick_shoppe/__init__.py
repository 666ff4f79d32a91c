"""Ye Olde Magick Shoppe v0.7.2 (rulebook ``002_b27f334b14e381b8.txt``): 1-8 players, solo."""

from rulebook.core.registry import register_package
from rulebook.ye_olde_magick_shoppe.rules import Done, ShoppeState, Spend

GAME = register_package(__name__, ShoppeState)

__all__ = ["GAME", "Done", "ShoppeState", "Spend"]
