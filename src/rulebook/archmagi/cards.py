"""The texts of Archmagi's named cards, for looking one up (``card NAME`` in the terminal, a
tip on the web board): the Spells with their Top and Bottom Actions, the Magi Ability Cards and
the Monsters, from the game's data files, in plain words (the SYMBOLS GUIDE's names). Cards the
rulebook does not print say that they were authored for the project."""

from __future__ import annotations

from rulebook.archmagi.content import COMMON, Content, MagiSpec, Monster, Spell, content
from rulebook.archmagi.symbols import effects_words
from rulebook.core import Setup
from rulebook.core.data import authored_reasons
from rulebook.core.words import plural

#: what a card authored for the project says about itself, by kind of card
AUTHORED = {
    "spell": "Authored for this project: the rulebook lists the Spells but prints none of "
    "their texts.",
    "monster": "Authored for this project: the rulebook prints no Monster card.",
    "magi": "Authored for this project: the rulebook does not print this ability.",
}


def _marked(lines: list[str], authored: bool, kind: str) -> str:
    """A card's lines as its text, with what an authored card of ``kind`` says of itself."""
    return "\n".join([*lines, AUTHORED[kind]] if authored else lines)


def _where(spell: Spell, c: Content) -> str:
    """Where a Spell starts the game (SETUP, END OF ROUND), with its player-count mark."""
    if spell.set == "starting":
        element = spell.element.capitalize()
        return f"one of the {element} Magi's Starting Spells, in the Magic Pool from the start"
    if spell.set == "book":
        return f"in the {spell.element.capitalize()} Magi's Spell Book"
    if spell.set == "starting_common":
        return f"each Magi starts with {c.rules.starting_hand} in Hand"
    when = (
        "in the Magic Pool from the start"
        if spell.round == 1
        else f"shuffled into the Magic Pool when Round {spell.round - 1} ends"
    )
    if spell.players > min(s.players for s in c.cards):
        when += f", with {spell.players} or more players"
    return f"Round {spell.round}: {when}"


def spell_card(spell: Spell, c: Content) -> str:
    """A Spell's text: what it is, where it starts, its Actions in plain words."""
    if spell.element == COMMON:
        lines = [
            f"Common Spell ({_where(spell, c)}).",
            f"Action (any Magi; Exhausted after use): {effects_words(spell.top)}.",
        ]
    else:
        element = spell.element.capitalize()
        lines = [
            f"{element} Spell ({_where(spell, c)}).",
            f"Top Action (any Magi): {effects_words(spell.top)}.",
            f"Bottom Action ({element} Magi only): {effects_words(spell.bottom)}.",
        ]
    return _marked(lines, spell.name in c.authored, "spell")


def magi_card(magi: MagiSpec) -> str:
    """A Magi Ability Card: the ability, and what was authored."""
    lines = [f"Magi Ability Card ({magi.element.capitalize()}): {magi.ability}"]
    lines += [f"Partly authored for this project: {why}." for why in magi.authored.values()]
    return _marked(lines, magi.source != "rulebook", "magi")


def monster_card(monster: Monster, c: Content) -> str:
    """A Monster card: its Tier, the cost to defeat it, its Reward and its Favor."""
    cost = plural(monster.crystals, "Crystal")
    if monster.spells:
        cost += f" and discard {plural(monster.spells, 'Spell')} from your Hand"
    reward = effects_words(monster.reward) if monster.reward else "none"
    lines = [
        f"Tier {monster.tier} Monster. To defeat it in your Monster Phase: pay {cost}.",
        f"Reward, at once: {reward}.",
        f"Worth {plural(monster.favor, 'Favor Point')} at the end of the game.",
    ]
    return _marked(lines, monster.name in c.authored, "monster")


def cards(setup: Setup) -> dict[str, str]:
    """Every named card of the game (the same in every setup: all are public)."""
    c = content()
    texts = {name: spell_card(spell, c) for name, spell in c.spell_by_name.items()}
    texts.update((magi.name, magi_card(magi)) for magi in c.magi)
    texts.update((m.name, monster_card(m, c)) for m in c.monsters)
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
