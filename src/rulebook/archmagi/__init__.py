"""Archmagi (rulebook ``004_df6d88d5c0362155.txt``): 2-4 players around one Magic Pool."""

from itertools import permutations

from rulebook.archmagi.bots import evaluate
from rulebook.archmagi.cards import cards
from rulebook.archmagi.content import ELEMENTS
from rulebook.archmagi.render import VIEWS, menu_entry, render, turn
from rulebook.archmagi.rules import ArchmagiState, Move
from rulebook.archmagi.stats import counters, faction
from rulebook.core import Game, Option, Setup, Variant, register


def _create(setup: Setup) -> ArchmagiState:
    return ArchmagiState(GAME, setup)


GAME = register(
    Game(
        name="archmagi",
        title="Archmagi",
        rulebook="004_df6d88d5c0362155.txt",
        variants=(Variant("standard", 2, 4, "2-4 Magi, each dealt at random from the seed"),),
        create=_create,
        options=(
            Option(
                "magi",
                (
                    "random",
                    *(",".join(o) for k in (1, 2, 3, 4) for o in permutations(ELEMENTS, k)),
                ),
                "random",
                description="the Magi of the first seats, e.g. fire,flora (seats not named are "
                "dealt at random from the other Magi); random: all dealt from the seed",
            ),
        ),
        evaluate=evaluate,
        render=render,
        turn_view=turn,
        views=VIEWS,
        menu_entry=menu_entry,
        cards=cards,
        data_package="rulebook.archmagi.data",
        description="Asymmetric deck-builder: build the shared Magic Pool, defeat Monsters.",
        counters=counters,
        faction=faction,
        common_players=4,
        web_view="rulebook.archmagi.web",
    )
)

__all__ = ["GAME", "ArchmagiState", "Move"]
