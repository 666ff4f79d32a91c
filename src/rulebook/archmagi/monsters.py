"""Archmagi's Monster Phase and Monsters: the Paths, defeating a Monster, its Favor Points.

MONSTER PHASE: "You may Defeat 1 Monster in only 1 of the 3 Monster Paths if you can pay its
cost, taking the Monster card for its rewards. Then refill the Monster Path with the next
Monster from the top of that Tier's Monster Deck." MONSTERS: the defeating player "gains the
Monster's Rewards immediately and then takes the Monster card and keeps it for the rest of the
game for its Favor Points"; "If there are no more Monsters in that Tier of Monster Deck, then
do not Refill the empty spot." The Favor Points of the Monsters taken are the game's only score
(END OF ROUND 4: "The player with the most Favor Points wins!").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.archmagi.moves import distinct
from rulebook.archmagi.symbols import Monster

if TYPE_CHECKING:
    from rulebook.archmagi.moves import Move
    from rulebook.archmagi.state import Table
    from rulebook.core import Action


def pays(monster: Monster, crystals: int, spells: int) -> bool:
    """Whether ``crystals`` Crystals and ``spells`` Spells in Hand pay for ``monster``
    (MONSTERS, Cost to Defeat)."""
    return crystals >= monster.crystals and spells >= monster.spells


def can_defeat(s: Table, crystals: int, spells: int) -> bool:
    """Whether ``crystals`` Crystals and ``spells`` Spells in Hand buy a Monster in the Paths
    (:func:`monsters_for` is not empty): the MONSTER PHASE waits for a decision only then."""
    monsters = s.content.monsters
    return any(pays(monsters[m], crystals, spells) for path in s.paths for m in path)


def monsters_for(s: Table, crystals: int, spells: int) -> list[int]:
    """Monsters in the Paths that ``crystals`` Crystals and ``spells`` Spells in Hand buy
    (MONSTER PHASE)."""
    monsters = s.content.monsters
    return [m for path in s.paths for m in path if pays(monsters[m], crystals, spells)]


def options(s: Table) -> list[Action]:
    """MONSTER PHASE: the Monsters the turn's seat can pay for (Crystals and Spells in Hand),
    each by name, and ``pass``."""
    p = s.turn
    monsters = s.content.monsters
    names = distinct([monsters[m].name for m in monsters_for(s, s.crystals[p], len(s.hands[p]))])
    named = s.moves.named["defeat"]
    return [*(named[x] for x in names), s.moves.plain["pass"]]


def defeat(s: Table, p: int, move: Move) -> None:
    """MONSTER PHASE: defeat one Monster of one Path (pay, Rewards, Favor, refill), or pass;
    then the Discard Phase."""
    s.stack.append(("discard_phase", p, 0, None))
    if move.verb == "pass":
        return
    monsters = s.content.monsters
    for tier, path in enumerate(s.paths):
        for i, m in enumerate(path):
            if monsters[m].name == move.card:
                deck = s.monster_decks[tier]
                if deck:
                    path[i] = deck.pop()
                    s.tell("path_refilled", tier, path[i])
                else:
                    del path[i]
                    s.tell("path_refilled", tier, -1)
                monster = monsters[m]
                s.crystals[p] -= monster.crystals
                s.trophies[p].append(m)
                s.stack.append(("seq", p, 0, monster.reward))
                if monster.spells:
                    s.stack.append(("discard", p, monster.spells, None))
                return


def favor(s: Table, player: int) -> int:
    """MONSTERS, Favor Points: the sum of the Monsters ``player`` has defeated."""
    monsters = s.content.monsters
    return sum(monsters[m].favor for m in s.trophies[player])
