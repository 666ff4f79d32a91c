"""The texts of Archmagi's named cards, for looking one up in the terminal: the Spells with
their Top and Bottom Actions, the Magi Ability Cards and the Monsters, from the game's data
files (the SYMBOLS GUIDE's words)."""

from __future__ import annotations

from rulebook.archmagi.content import content
from rulebook.archmagi.rules import spell_text
from rulebook.core import Setup
from rulebook.core.data import authored_reasons


def cards(setup: Setup) -> dict[str, str]:
    """Every named card of the game (the same in every setup: all are public)."""
    c = content()
    texts = {name: f"Spell, {spell_text(spell)}" for name, spell in c.spell_by_name.items()}
    for magi in c.magi:
        texts[magi.name] = f"Magi Ability Card ({magi.element}): {magi.ability}"
    for m in c.monsters:
        spells = f" and {m.spells} Spell(s)" if m.spells else ""
        reward = ", ".join(e.text() for e in m.reward) or "none"
        texts[m.name] = (
            f"Monster, tier {m.tier}: defeat it with {m.crystals} Crystals{spells}; reward "
            f"{reward}; {m.favor} Favor"
        )
    return texts


def authored_cards(setup: Setup) -> dict[str, str]:
    """The Spells, Magi Ability Cards and Monsters the project authored (the rulebook prints
    few card texts), each with its data file's reason."""
    package = "rulebook.archmagi.data"
    return {
        **authored_reasons(package, "spells.toml", "spells"),
        **authored_reasons(package, "magi.toml", "magi"),
        **authored_reasons(package, "monsters.toml", "monsters"),
    }
