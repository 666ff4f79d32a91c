"""Archmagi (rulebook ``004_df6d88d5c0362155.txt``): 2-4 players around one Magic Pool."""

from rulebook.archmagi.moves import Move
from rulebook.archmagi.options import MAGI
from rulebook.archmagi.rules import ArchmagiState
from rulebook.core import Variant
from rulebook.core.registry import register_package

GAME = register_package(
    __name__,
    ArchmagiState,
    title="Archmagi",
    rulebook="004_df6d88d5c0362155.txt",
    description="Asymmetric deck-builder: build the shared Magic Pool, defeat Monsters.",
    variants=(Variant("standard", 2, 4, "2-4 Magi, each dealt at random from the seed"),),
    options=(MAGI,),
    common_players=4,
)

__all__ = ["GAME", "ArchmagiState", "Move"]
