"""The texts of Ye Olde Magick Shoppe's named cards, for looking one up in the terminal and for
the board's tips: the Customers and Connoisseurs (Customer Circle) and the Certifications
(Certifications), from the game's data files."""

from __future__ import annotations

from rulebook.core import Setup
from rulebook.core.data import authored_reasons
from rulebook.core.rollwrite.render import card_texts
from rulebook.ye_olde_magick_shoppe.content import content


def cards(setup: Setup) -> dict[str, str]:
    """Every named card of the game (the same in every setup: all are public)."""
    c = content()
    return card_texts(c, c.cards)


def authored_cards(setup: Setup) -> dict[str, str]:
    """The cards the project authored, each with its data file's reason (the prototype's
    rulebook lists its Customers and Certifications: few or none are)."""
    package = "rulebook.ye_olde_magick_shoppe.data"
    return {
        **authored_reasons(package, "customers.toml", "customers"),
        **authored_reasons(package, "customers.toml", "connoisseurs"),
        **authored_reasons(package, "certifications.toml", "material"),
        **authored_reasons(package, "certifications.toml", "energy"),
    }
