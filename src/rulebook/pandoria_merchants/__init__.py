"""Pandoria Merchants (rulebook ``003_85552cb3b950eabe.txt``): standard 2-4, family, solo."""

from rulebook.core import Option, Variant
from rulebook.core.registry import register_package
from rulebook.pandoria_merchants.moves import Move
from rulebook.pandoria_merchants.rules import PandoriaState

GAME = register_package(
    __name__,
    PandoriaState,
    title="Pandoria Merchants",
    rulebook="003_85552cb3b950eabe.txt",
    description="Hex-map roll-and-write: draw Resources and Workers, enclose areas, score.",
    variants=(
        Variant("standard", 2, 4, "2-4 players, Realm sheets: Spells, Buildings, Relics"),
        Variant("family", 2, 4, "streamlined: Guilds, 1 VP per Resource, Spell Archive"),
        Variant(
            "solo", 1, 1, "one player against the Trolls, 8 Territories", opponent="the Trolls"
        ),
    ),
    options=(
        Option(
            "level",
            ("beginner", "intermediate", "expert"),
            "beginner",
            variants=("solo",),
            description="the Trolls' score for Territories 7 and 8: 60/70, 65/80, 70/100",
        ),
    ),
    common_players=4,
)

__all__ = ["GAME", "Move", "PandoriaState"]
