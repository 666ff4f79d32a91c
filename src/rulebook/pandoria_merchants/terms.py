"""Components needed, in the code's terms: what the Realm sheet and the Map sheet hold.

The rulebook's "Components needed" are a Map sheet, a Realm sheet per player, 2 Resource Dice
and "4 Resource markers per player for the resource tracks". This module names the Realm sheet's
parts (the 4 tracks, a card's states, the Crown's Victory Points by source), the steps of a
Player turn (the phases) and the lab's counters, and the small tuple helpers every section
uses: the fields that change rarely are tuples that clones share, replaced on change.
"""

from __future__ import annotations

from typing import Final, TypeVar

from rulebook.pandoria_merchants.board import KINDS

# tracks (Realm sheet): indices into KINDS
WOOD: Final = 0
CRYSTAL: Final = 1
CRAFT: Final = 2
GOLD: Final = 3
RESOURCES: Final = KINDS[:4]
BONUS_BUILDING: Final = ("saw-mill", "tower", "workshop", "treasury")

# card states on a Realm sheet
NONE: Final = 0
OWNED: Final = 1
CAST: Final = 2
BUILT: Final = 3
MONUMENT: Final = 4
CROSSED: Final = 5

CARD_STATES = ("none", "owned", "cast", "built", "monument", "crossed")

#: the symbol 2.1-2.2 draws next, by ``PandoriaState.item``
DRAWING = ("first resource", "second resource", "worker")

# phases
SETUP: Final = "setup"  # choose the starting card
WILD: Final = "wild"  # choose what a "?" die shows
DRAW: Final = "draw"  # 2.1 Resources, 2.2 Worker
ACTION: Final = "action"  # 3. Spell, Building, Relic or Monument
SPELL: Final = "spell"  # the targets of the Spell being cast
BUY: Final = "buy"  # 5. Buy a Card
CLAIM: Final = "claim"  # family 5. Spell Archive
TROLL_COLUMN: Final = "trolls-column"
TROLL_ELEMENT: Final = "trolls-element"
BRIDGE: Final = "bridge"
OVER: Final = "over"

STANDARD_VP = ("cities", "overflow", "store", "shrine", "academy", "relics", "monuments")
CITIES: Final = 0
OVERFLOW: Final = 1
STORE: Final = 2
SHRINE: Final = 3
ACADEMY: Final = 4
RELICS: Final = 5
MONUMENTS: Final = 6
FAMILY_VP = ("areas", "guild")
AREAS: Final = 0
GUILD: Final = 1

#: the lab's counters of a seat (:mod:`rulebook.pandoria_merchants.stats`), in their order in
#: :attr:`PandoriaState.tally`: Resources drawn per kind, areas enclosed and scored, Artifacts
#: collected
TALLY: Final = (
    *[f"drawn_{k}" for k in KINDS],
    "areas_enclosed",
    "areas_scored",
    "artifacts_collected",
)
DRAWN: Final = 0  # + the kind
AREAS_ENCLOSED: Final = len(KINDS)
AREAS_SCORED: Final = len(KINDS) + 1
ARTIFACTS_COLLECTED: Final = len(KINDS) + 2

T = TypeVar("T")

#: what :attr:`PandoriaState.res` holds for a hex with a Resource of each kind
KIND_BYTES: Final = tuple(bytes((k + 1,)) for k in range(len(KINDS)))

#: a seat's row of numbers (a track per Resource, VP per source, a state per card...)
Row = tuple[int, ...]


def replaced(row: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``row`` with item ``i`` set to ``value``: a new tuple (the fields that change rarely are
    tuples that clones share, replaced on change)."""
    changed = list(row)
    changed[i] = value
    return tuple(changed)


def without(row: tuple[T, ...], value: T) -> tuple[T, ...]:
    """``row`` without the first item equal to ``value`` (which it holds)."""
    i = row.index(value)
    return (*row[:i], *row[i + 1 :])


def sum_of(values: tuple[int, ...]) -> int:
    """``sum(values)`` as a loop (compiled, it runs natively; the builtin is a Python call)."""
    out = 0
    for v in values:
        out += v
    return out


def count_of(values: tuple[int, ...], wanted: int) -> int:
    """``values.count(wanted)`` as a loop (compiled: no comparison through Python objects)."""
    out = 0
    for v in values:
        if v == wanted:
            out += 1
    return out
