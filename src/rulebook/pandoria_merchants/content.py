"""Pandoria Merchants content, read from ``data/*.toml`` and validated on load.

``maps.toml`` holds the Map and Solo Map sheets as text grids, ``realm.toml`` the Realm sheet
(cards, Relics, Monuments), ``game.toml`` the rules' numbers, the dice, the solo table and the
family Guilds and Spell Archive. :func:`content` checks them against each other and against
the rulebook's statements, and compiles the boards for every setting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from pydantic import Field, PositiveInt, model_validator

from rulebook.core.data import DataError, Sourced, Strict, content_from_files
from rulebook.pandoria_merchants.board import KINDS, Board, build_board, tokens

PACKAGE = "rulebook.pandoria_merchants.data"
Spell = Literal[
    "acquire",
    "clone",
    "conjure",
    "construct",
    "muster",
    "rage",
    "ship",
    "swamp",
    "terrain",
]
Building = Literal[
    "academy",
    "bank",
    "carpenter",
    "market",
    "poorhouse",
    "saw-mill",
    "shrine",
    "statue",
    "store",
    "tower",
    "treasury",
    "wizardry",
    "workshop",
]
#: the 9 Spells and 13 Buildings of the Realm sheet, in the schema's order
SPELLS: tuple[str, ...] = get_args(Spell)
BUILDINGS: tuple[str, ...] = get_args(Building)
#: Spells the family version can use (the others need cards and resource tracks)
MAP_SPELLS = ("clone", "muster", "rage", "ship", "swamp", "terrain")
LEVELS = ("beginner", "intermediate", "expert")


# -- schemas -----------------------------------------------------------------------------------
class Letters(Sourced):
    W: str
    C: str
    K: str
    G: str
    T: str


class River(Strict):
    after_row: PositiveInt
    boundary_for: list[int]


class StandardMap(Sourced):
    rows: list[str] = Field(min_length=2)
    rivers: list[River]
    end_needed: dict[int, int]
    starts: dict[str, str]


class SoloMap(Sourced):
    rows: list[str] = Field(min_length=2)
    first_territory: PositiveInt
    bridges: list[tuple[str, str]]
    starts: dict[str, str]


class MapsFile(Strict):
    letters: Letters
    standard: StandardMap
    solo: SoloMap


class CardSpec(Sourced):
    column: PositiveInt
    spell: Spell
    power: int = Field(default=0, ge=0, le=3)
    crystals: PositiveInt
    building: Building
    wood: PositiveInt
    gold: PositiveInt


class RelicSpec(Sourced):
    artifacts: int = Field(ge=2, le=3)
    values: list[int] = Field(min_length=1)
    min_players: list[int]


class MonumentSpec(Sourced):
    values: list[int] = Field(min_length=1)
    min_players: list[int]


class RealmFile(Strict):
    cards: list[CardSpec] = Field(min_length=3)
    relics: list[RelicSpec] = Field(min_length=2, max_length=2)
    monuments: MonumentSpec


class DiceSpec(Sourced):
    faces: list[str] = Field(min_length=2)


class TracksSpec(Sourced):
    resources: list[str]
    start: int
    maximum: int
    overflow_per_vp: PositiveInt
    craft_rate: PositiveInt
    market_rate: PositiveInt
    store_vp: int
    shrine_vp: int
    academy_vp: int
    bonus_per_space: int
    statue_vp: int
    monument_wood: int
    monument_craft: int
    relic_craft: int
    solo_buy_after_areas: int


class SoloSpec(Sourced):
    territories: int
    troll_columns_from: int
    troll_relics_from: int
    final_elements: int
    table: list[int]
    last: dict[str, tuple[int, int]]


class FamilySpec(Sourced):
    guilds: list[tuple[str, str]] = Field(min_length=4, max_length=4)


class RoomSpec(Sourced):
    level: PositiveInt
    room: str
    min_players: int = Field(ge=1, le=4)
    spells: list[str] = Field(min_length=1)


class SpellsSpec(Sourced):
    default_power: dict[str, int]


class GameFile(Strict):
    dice: DiceSpec
    tracks: TracksSpec
    solo: SoloSpec
    family: FamilySpec
    archive: list[RoomSpec] = Field(min_length=1)
    spells: SpellsSpec

    @model_validator(mode="after")
    def _check(self) -> GameFile:
        if self.tracks.resources != ["wood", "crystal", "craft", "gold"]:
            raise ValueError("the four tracks are wood, crystal, craft, gold")
        if sorted(self.solo.last) != sorted(LEVELS):
            raise ValueError(f"solo.last needs the levels {LEVELS}")
        if len(self.solo.table) + 2 != self.solo.territories:
            raise ValueError("solo.table gives every Territory but the last two")
        return self


# -- compiled ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Card:
    index: int
    id: str  # "spell/building"
    column: int  # 0-based
    spell: str
    power: int
    crystals: int
    building: str
    wood: int
    gold: int


@dataclass(frozen=True, slots=True)
class FamilySpell:
    name: str  # as the Archive writes it: "rage3"
    spell: str
    power: int


@dataclass(frozen=True, slots=True)
class Room:
    index: int
    id: str
    level: int
    min_players: int
    spells: tuple[FamilySpell, ...]


@dataclass(frozen=True)
class Content:
    faces: tuple[int, ...]  # kind index of each die face; -1 for "?"
    tracks: TracksSpec
    cards: tuple[Card, ...]
    card_by_id: dict[str, Card]
    columns: int
    starting: tuple[int, ...]  # cards of the brown starting column
    relics: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (artifacts, ((value, min_p)))
    monuments: tuple[tuple[int, int], ...]  # (value, min players)
    boards: dict[int, Board]  # player count -> board (0: the solo map)
    end_needed: dict[int, int]
    solo: SoloSpec
    first_territory: int
    guilds: tuple[tuple[str, int], ...]  # name, kind index
    rooms: tuple[Room, ...]
    default_power: dict[str, int]
    building_cards: dict[str, tuple[int, ...]]  # Building -> the cards carrying it


def _family_spell(name: str, defaults: dict[str, int]) -> FamilySpell:
    base = name.rstrip("0123456789")
    if base not in MAP_SPELLS:
        raise DataError(f"archive: {name!r} is not a Spell the family version can use")
    power = int(name[len(base) :]) if name != base else defaults.get(base, 0)
    if base in defaults and name != base and power == defaults[base]:
        raise DataError(f"archive: write {base!r}, not {name!r}, for the plain strength")
    return FamilySpell(name, base, power)


def compile_content(maps: MapsFile, realm: RealmFile, game: GameFile) -> Content:
    """Check the files against each other and the rulebook; build the boards and tables."""
    letters = maps.letters.model_dump(include={"W", "C", "K", "G", "T"})
    if sorted(letters.values()) != sorted(KINDS):
        raise DataError("maps: the letters must name wood, crystal, craft, gold and city once")
    faces = []
    for f in game.dice.faces:
        if f != "wild" and f not in KINDS:
            raise DataError(f"game: unknown die face {f!r}")
        faces.append(-1 if f == "wild" else KINDS.index(f))
    for kind in [*maps.standard.starts.values(), *maps.solo.starts.values()]:
        if kind not in KINDS[:4]:
            raise DataError(f"maps: a Starting space holds {kind!r}, not a tracked Resource")
    grid = [tokens(r, solo=False) for r in maps.standard.rows]
    boards: dict[int, Board] = {}
    try:
        for players in (2, 3, 4):
            rows_used = None
            for river in maps.standard.rivers:
                if players in river.boundary_for:
                    rows_used = river.after_row
            boards[players] = build_board(grid, letters, maps.standard.starts, rows_used)
        solo_grid = [tokens(r, solo=True) for r in maps.solo.rows]
        boards[0] = build_board(
            solo_grid, letters, maps.solo.starts, None, [(a, b) for a, b in maps.solo.bridges]
        )
    except ValueError as exc:
        raise DataError(f"maps: {exc}") from None
    # "the 4 Starting Resource spaces", "The other 12 pre-printed Resource spaces"
    full = boards[4]
    if len(full.starts) != 4 or len(full.preprinted) != 12:
        raise DataError("maps: the Map has 4 Starting spaces and 12 pre-printed Resource spaces")
    # "3 out of the 4 ... above the river between row 4 + 5", "7 out of 8 ... row 7 + 8"
    for players, (above, needed) in {2: (4, 3), 3: (8, 7), 4: (12, 11)}.items():
        board = boards[players]
        if len(board.preprinted) != above or maps.standard.end_needed.get(players) != needed:
            raise DataError(f"maps: {players} players need {needed} of {above} spaces")
        if not board.starts:
            raise DataError(f"maps: no Starting space with {players} players")
    solo = boards[0]
    terrs = sorted(t for t in solo.territories if t)
    if terrs != list(range(1, game.solo.territories + 1)) or 0 in solo.territories:
        raise DataError("maps: every solo land hex belongs to one of the 8 Territories")
    linked = {maps.solo.first_territory}
    for _ in terrs:
        for a, b in solo.bridges:
            ta, tb = solo.territory[a], solo.territory[b]
            if ta in linked or tb in linked:
                linked |= {ta, tb}
    if linked != set(terrs):
        raise DataError("maps: the Bridges must join every Territory")
    printed = solo.preprinted_mask | solo.starts_mask
    for a, b in solo.bridges:
        if printed >> a & 1 or printed >> b & 1:
            raise DataError(
                f"maps: Bridge {solo.names[a]}-{solo.names[b]} must end on empty hexes "
                "(a new Territory starts on the Bridge's space)"
            )

    cards = []
    for i, spec in enumerate(realm.cards):
        power = spec.power or game.spells.default_power.get(spec.spell, 0)
        cards.append(
            Card(
                i,
                f"{spec.spell}/{spec.building}",
                spec.column - 1,
                spec.spell,
                power,
                spec.crystals,
                spec.building,
                spec.wood,
                spec.gold,
            )
        )
    by_id = {c.id: c for c in cards}
    if len(by_id) != len(cards):
        raise DataError("realm: two cards share a Spell and a Building")
    columns = max(c.column for c in cards) + 1
    for col in range(columns):
        if sum(c.column == col for c in cards) != 3:
            raise DataError(f"realm: column {col + 1} needs 3 cards")
    if {c.spell for c in cards} != set(SPELLS) or {c.building for c in cards} != set(BUILDINGS):
        raise DataError("realm: every Spell and every Building must be on a card")
    relics = []
    for r in realm.relics:
        if len(r.values) != len(r.min_players) or r.values != sorted(r.values, reverse=True):
            raise DataError("realm: Relic values (highest first) need one min_players each")
        relics.append((r.artifacts, tuple(zip(r.values, r.min_players, strict=True))))
    if sorted(a for a, _ in relics) != [2, 3]:
        raise DataError("realm: one Relic row for 2 Artifacts and one for 3")
    m = realm.monuments
    if len(m.values) != len(m.min_players) or m.values != sorted(m.values, reverse=True):
        raise DataError("realm: Monument values (highest first) need one min_players each")
    if game.solo.last != {
        "beginner": (60, 70),
        "intermediate": (65, 80),
        "expert": (70, 100),
    }:
        raise DataError("game: the solo levels are 60/70, 65/80 and 70/100 (rulebook)")
    guilds = []
    for name, kind in game.family.guilds:
        if kind not in KINDS[:4]:
            raise DataError(f"game: Guild {name} needs a tracked Resource, not {kind!r}")
        guilds.append((name, KINDS.index(kind)))
    rooms = []
    for i, room in enumerate(sorted(game.archive, key=lambda r: (r.level, r.room))):
        spells = tuple(_family_spell(s, game.spells.default_power) for s in room.spells)
        rooms.append(Room(i, room.room, room.level, room.min_players, spells))
    if len({r.id for r in rooms}) != len(rooms):
        raise DataError("game: two Archive rooms share a name")
    return Content(
        faces=tuple(faces),
        tracks=game.tracks,
        cards=tuple(cards),
        card_by_id=by_id,
        columns=columns,
        starting=tuple(c.index for c in cards if c.column == 0),
        relics=tuple(sorted(relics)),
        monuments=tuple(zip(m.values, m.min_players, strict=True)),
        boards=boards,
        end_needed=dict(maps.standard.end_needed),
        solo=game.solo,
        first_territory=maps.solo.first_territory,
        guilds=tuple(guilds),
        rooms=tuple(rooms),
        default_power=dict(game.spells.default_power),
        building_cards={b: tuple(c.index for c in cards if c.building == b) for b in BUILDINGS},
    )


#: the game's content from its data files, each a parameter of :func:`compile_content`
#: (read and checked once per process)
content = content_from_files(PACKAGE, compile_content)
