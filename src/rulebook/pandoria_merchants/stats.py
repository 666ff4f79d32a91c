"""Pandoria Merchants statistics for the balance lab (``Game.counters`` and ``Game.faction``).

Per seat at the end of a game: Resources drawn (per kind, ``drawn_<kind>``), Workers on the map,
areas enclosed on the seat's turns and areas the seat scored from, Artifacts collected and
still held, the four Realm tracks (``<resource>_track``), Crown VP; standard and solo: cards
owned, Spells cast, Buildings built, Relics and Monuments made, and one counter per card owned
(``card:<spell>/<building>``), per Spell cast (``spell:<spell>``) and per Building built
(``building:<building>``, Monuments included), which the report ranks by how often they are
taken and how often their owner wins; family: Archive Spells claimed and used, the Guild VP.
The "faction" of a seat is its Guild in the family version (none otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulebook.core import State
from rulebook.core.game import tallied
from rulebook.pandoria_merchants.board import KINDS

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.rules import PandoriaState


def counters(state: State, player: int) -> dict[str, float]:
    """Game-specific counters of one seat (see the module docstring)."""
    from rulebook.pandoria_merchants.terms import (
        BUILT,
        CAST,
        GUILD,
        MONUMENT,
        OWNED,
        RESOURCES,
    )

    s = cast("PandoriaState", state)
    tally = s.counts(player)
    out = tallied(tally, *(f"drawn_{k}" for k in KINDS))
    out["resources_drawn"] = sum(out.values())
    out["workers"] = float(s.workers[player].bit_count())
    out.update(tallied(tally, "areas_enclosed", "areas_scored", "artifacts_collected"))
    out["artifacts_held"] = float(s.held_artifacts[player])
    for k, level in zip(RESOURCES, s.tracks[player], strict=True):
        out[f"{k}_track"] = float(level)
    out["crown_vp"] = float(sum(s.vp[player]))
    if s.family:
        out["spells_claimed"] = float(len(s.held[player]) + s.used_spells[player])
        out["spells_used"] = float(s.used_spells[player])
        out["guild_vp"] = float(s.vp[player][GUILD])
        return out
    owned = cast_ = built = 0
    for card, mark in zip(s.c.cards, s.cards[player], strict=True):
        if mark not in (OWNED, CAST, BUILT, MONUMENT):
            continue
        owned += 1
        out[f"card:{card.id}"] = 1.0
        if mark == CAST:
            cast_ += 1
            out[f"spell:{card.spell}"] = out.get(f"spell:{card.spell}", 0.0) + 1.0
        elif mark in (BUILT, MONUMENT):
            built += 1
            key = f"building:{card.building}"
            out[key] = out.get(key, 0.0) + 1.0
    out["cards_owned"] = float(owned)
    out["spells_cast"] = float(cast_)
    out["buildings_built"] = float(built)
    out["relics"] = float(len(s.relics_won[player]))
    out["monuments"] = float(len(s.monuments_won[player]))
    return out


def faction(state: State, player: int) -> str:
    """Family: the seat's Guild; otherwise no faction (empty)."""
    s = cast("PandoriaState", state)
    return s.c.guilds[player][0] if s.family else ""
