"""The texts of Merchants of Magick's named cards, for looking one up in the terminal: the
Orders (ORDERS), the Sponsored Adventurers (SPONSORED ADVENTURERS) and the Mastery cards
(THE MASTERY PHASE), from the game's data files."""

from __future__ import annotations

from rulebook.core import Setup
from rulebook.core.data import authored_reasons
from rulebook.core.rollwrite.render import customer_texts, mastery_texts
from rulebook.merchants_of_magick.content import content


def cards(setup: Setup) -> dict[str, str]:
    """Every named card of the game (the same in every setup: all are public)."""
    c = content()
    texts = customer_texts(c.orders, "coins", "Order")
    for adv in c.adventurers:
        texts[adv.name] = (
            f"Sponsored Adventurer: wants a {', a '.join(adv.items)}, each {adv.enchantment}, "
            f"in any order. 1st fulfilled: {c.rewards.first_potions} Potions; 2nd: "
            f"{c.rewards.second_free_marks} free mark; 3rd: {c.rewards.third_free_marks} free "
            f"mark and {adv.coins} coins at the end"
        )
    sides = ("Master", "Apprentice")
    texts.update(mastery_texts((*c.material, *c.energy), c.layout, "coins", sides))
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
