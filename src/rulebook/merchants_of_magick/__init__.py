"""Merchants of Magick (rulebook ``000_ab43b6b995c67bb5.txt``): 1-8 players, solo variant."""

from rulebook.core import Variant
from rulebook.core.registry import register_package
from rulebook.merchants_of_magick.rules import Done, FreeMark, MerchantsState, Spend

GAME = register_package(
    __name__,
    MerchantsState,
    title="Merchants of Magick",
    rulebook="000_ab43b6b995c67bb5.txt",
    description="Dice roll-and-write: craft items, research spells, fill Orders.",
    variants=(
        Variant("solo", 1, 1, "Solo variant: 4 Orders and 2 waiting, Apprentice side only"),
        Variant("standard", 2, 8, "2-8 players, Orders rotate clockwise"),
    ),
    common_players=4,
)

__all__ = ["GAME", "Done", "FreeMark", "MerchantsState", "Spend"]
