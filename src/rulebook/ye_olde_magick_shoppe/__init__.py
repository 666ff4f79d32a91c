"""Ye Olde Magick Shoppe v0.7.2 (rulebook ``002_b27f334b14e381b8.txt``): 1-8 players, solo."""

from rulebook.core import Variant
from rulebook.core.registry import register_package
from rulebook.ye_olde_magick_shoppe.rules import Done, ShoppeState, Spend

GAME = register_package(
    __name__,
    ShoppeState,
    title="Ye Olde Magick Shoppe",
    rulebook="002_b27f334b14e381b8.txt",
    description="The prototype of Merchants of Magick: craft, research, claim customers.",
    variants=(
        Variant("solo", 1, 1, "Solo variant: 4 customers and 2 waiting, lower certification"),
        Variant("standard", 2, 8, "2-8 players, the Customer Circle rotates clockwise"),
    ),
    common_players=4,
)

__all__ = ["GAME", "Done", "ShoppeState", "Spend"]
