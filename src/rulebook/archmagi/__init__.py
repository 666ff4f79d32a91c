"""Archmagi (rulebook ``004_df6d88d5c0362155.txt``): 2-4 players around one Magic Pool."""

from rulebook.archmagi.bots import evaluate
from rulebook.archmagi.cards import authored_cards, cards
from rulebook.archmagi.content import ELEMENTS
from rulebook.archmagi.encoding import encoder
from rulebook.archmagi.render import VIEWS, menu_entry, render, turn
from rulebook.archmagi.rules import ArchmagiState, Move
from rulebook.archmagi.stats import counters, faction
from rulebook.core import Game, Option, Setup, Variant, register

MAGI_RULE = (
    f"comma-separated distinct Magi from {', '.join(ELEMENTS)}, or random; the first N are "
    "dealt to the seats"
)


def magi_option(value: str) -> str:
    """The ``magi`` option in its canonical form (lower case, no spaces): ``random`` or the
    Magi of the first seats in order (SETUP 5: "their chosen color"); ``ValueError`` saying
    what is wrong."""
    names = [name.strip().lower() for name in value.split(",")]
    if names == ["random"]:
        return "random"
    if "" in names:
        raise ValueError("an empty name between commas" if len(names) > 1 else "no Magi named")
    if "random" in names:
        raise ValueError("random stands alone (it deals every Magi)")
    unknown = list(dict.fromkeys(name for name in names if name not in ELEMENTS))
    if unknown:
        raise ValueError(f"no Magi called {', '.join(unknown)}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} named twice (one seat each)")
    return ",".join(names)


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
                (),
                "random",
                description="the Magi of the first seats, e.g. fire,flora (seats not named are "
                "dealt at random from the other Magi); random: all dealt from the seed",
                rule=MAGI_RULE,
                check=magi_option,
            ),
        ),
        evaluate=evaluate,
        render=render,
        turn_view=turn,
        views=VIEWS,
        menu_entry=menu_entry,
        cards=cards,
        authored_cards=authored_cards,
        data_package="rulebook.archmagi.data",
        description="Asymmetric deck-builder: build the shared Magic Pool, defeat Monsters.",
        counters=counters,
        faction=faction,
        common_players=4,
        encoder=encoder,
        web_view="rulebook.archmagi.web",
    )
)

__all__ = ["GAME", "ArchmagiState", "Move"]
