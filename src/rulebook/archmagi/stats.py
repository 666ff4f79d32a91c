"""Archmagi statistics for the balance lab (``Game.counters`` and ``Game.faction``).

Per seat at the end of a game: Favor (the score), Monsters defeated (all, per tier
``tier<t>_monsters``, and one ``monster:<name>`` each), Crystals gained and left, Spells played
(all, and one ``spell:<name>`` per Spell played, counted per play), planted and drafted from the
Spell Book, Flow of Magic offers taken and left, and the Spells in hand, planted and in the
Spell Book at the end. The ``monster:`` and ``spell:`` counters are the items the report ranks
by how often they are taken and how often their owner wins. The "faction" of a seat is its Magi
("Fire Magi", ...): the report's per-faction table is the win rate per Magi.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State
from rulebook.core.game import tallied

if TYPE_CHECKING:
    from rulebook.archmagi.rules import ArchmagiState


def counters(state: State, player: int) -> dict[str, float]:
    """Game-specific counters of one seat (see the module docstring)."""
    s = cast("ArchmagiState", state)
    monsters = s.content.monsters
    tally = s.tally[player]
    trophies = [monsters[m] for m in s.trophies[player]]
    out: dict[str, float] = {
        "favor": float(s.favor(player)),
        "monsters_defeated": float(len(trophies)),
    }
    tiers = sorted({m.tier for m in monsters})
    for t in tiers:
        out[f"tier{t}_monsters"] = float(sum(m.tier == t for m in trophies))
    out.update(
        tallied(
            tally,
            "crystals_gained",
            "spells_played",
            "spells_planted",
            "spells_drafted",
            "flow_taken",
            "flow_left",
        )
    )
    out["crystals_left"] = float(s.crystals[player])
    out["hand"] = float(len(s.hands[player]))
    out["planted"] = float(len(s.planted[player]))
    out["spell_book"] = float(len(s.books[player]))
    for m in trophies:
        key = f"monster:{m.name}"
        out[key] = out.get(key, 0.0) + 1.0
    for key, value in tally.items():
        if key.startswith("spell:"):
            out[key] = float(value)
    return out


def faction(state: State, player: int) -> str:
    """The seat's Magi."""
    s = cast("ArchmagiState", state)
    return s.magi_of(player).name
