"""The texts of Merchants of Magick's named cards, for looking one up in the terminal and for
the board's tips: the Orders (ORDERS), the Sponsored Adventurers (SPONSORED ADVENTURERS) and
the Mastery cards (THE MASTERY PHASE), from the game's data files."""

from __future__ import annotations

from rulebook.core import Setup
from rulebook.core.data import authored_reasons
from rulebook.core.rollwrite.render import card_texts
from rulebook.core.rollwrite.words import item_said, listed, with_note
from rulebook.core.words import plural
from rulebook.merchants_of_magick.content import Adventurer, Content, content


def adventurer_text(c: Content, adv: Adventurer) -> str:
    """A Sponsored Adventurer: the three items it wants, how they are fulfilled, the rewards."""
    layout, r = c.layout, c.rewards
    wants = listed([item_said(layout, item, (adv.enchantment,)) for item in adv.items])
    return (
        f"Sponsored Adventurer: wants {wants}. These 3 Orders stay in your shoppe all game; "
        f"fulfil them in any order by completing their rows. 1st fulfilled: "
        f"{plural(r.first_potions, 'Potion')}; 2nd: mark {plural(r.second_free_marks, 'circle')} "
        f"of your choice for free; 3rd: mark {plural(r.third_free_marks, 'circle')} for free "
        f"and score {plural(adv.coins, 'Coin')} at the end."
    )


def cards(setup: Setup) -> dict[str, str]:
    """Every named card of the game (the same in every setup: all are public)."""
    c = content()
    texts = card_texts(c, c.orders)
    for adv in c.adventurers:
        texts[adv.name] = with_note(adventurer_text(c, adv), adv.note)
    return texts


def authored_cards(setup: Setup) -> dict[str, str]:
    """The cards the project authored (the rulebook prints no Order, Adventurer or Mastery
    list), each with its data file's reason."""
    package = "rulebook.merchants_of_magick.data"
    return {
        **authored_reasons(package, "orders.toml", "orders"),
        **authored_reasons(package, "adventurers.toml", "adventurers"),
        **authored_reasons(package, "masteries.toml", "material"),
        **authored_reasons(package, "masteries.toml", "energy"),
    }
