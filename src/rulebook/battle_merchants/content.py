"""Battle Merchants content, read from ``data/*.toml`` and validated on load.

The files hold the board (both sides), the player mats, the 56 Craft Cards, the 28 Kingdom Cards
and the rules' numbers; :func:`content` checks every cross-reference and compiles them into the
indexed form the rules use.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from rulebook.core.data import DataError, Sourced, Strict, content_from_files

PACKAGE = "rulebook.battle_merchants.data"

Duration = Literal["permanent", "immediate", "end", "final"]
Effect = Literal[
    "gold",
    "sale_bonus",
    "forge_discount",
    "battle_level",
    "repair_bonus",
    "forge_limit",
    "free_craft",
    "sell_twice",
    "free_forge",
    "region_tile",
    "end_flat",
    "end_per_defeated",
    "end_per_reward",
    "end_per_craft_card",
    "end_per_unsold",
    "end_per_board_weapon",
]
#: which durations each effect may have (Permanent effects act while the card is in front of
#: you, Immediate ones when taken, End ones at the Year's End, Final ones as your action)
EFFECT_DURATIONS: dict[str, tuple[str, ...]] = {
    "gold": ("immediate", "final"),
    "sale_bonus": ("permanent",),
    "forge_discount": ("permanent",),
    "battle_level": ("permanent",),
    "repair_bonus": ("permanent",),
    "forge_limit": ("permanent",),
    "free_craft": ("immediate",),
    "sell_twice": ("immediate",),
    "free_forge": ("immediate",),
    "region_tile": ("immediate",),
    "end_flat": ("end",),
    "end_per_defeated": ("end",),
    "end_per_reward": ("end",),
    "end_per_craft_card": ("end",),
    "end_per_unsold": ("end",),
    "end_per_board_weapon": ("end",),
}


# -- schemas of the files --------------------------------------------------------------------
class RegionSpec(Strict):
    name: str
    races: tuple[str, str]
    battlefields: list[tuple[str, str]] = Field(min_length=1)


class SideSpec(Sourced):
    players: list[int] = Field(min_length=1)
    regions: list[RegionSpec] = Field(min_length=2)


class BoardFile(Strict):
    races: list[str] = Field(min_length=2)
    weapons: list[str] = Field(min_length=1)
    sides: list[SideSpec] = Field(min_length=1)


class ChartSpec(Sourced):
    forge_standard: NonNegativeInt
    forge_vorpal: NonNegativeInt
    sell_standard: NonNegativeInt
    sell_vorpal: NonNegativeInt
    end_standard: NonNegativeInt
    end_vorpal: NonNegativeInt


class MatSpec(Sourced):
    colour: str
    crafts: list[str] = Field(min_length=1)
    reward: str
    reward_3p: str


class MatsFile(Strict):
    chart: ChartSpec
    mats: list[MatSpec] = Field(min_length=4)


class CraftSpec(Sourced):
    weapon: str
    cost: Literal["free", "x1", "x2"]
    levels: PositiveInt
    coins: NonNegativeInt
    copies: PositiveInt


class CraftsFile(Strict):
    spring_summer: list[CraftSpec] = Field(min_length=1)
    autumn_winter: list[CraftSpec] = Field(min_length=1)


class KingdomSpec(Sourced):
    name: str
    pile: Literal["A", "B", "C", "D"]
    players: list[int] = Field(min_length=1)
    duration: Duration
    gold: int
    effect: Effect
    amount: int
    race: str | None = None
    region: str | None = None
    quality: Literal["standard", "vorpal"] | None = None
    per: int = Field(default=1, ge=1)


class KingdomFile(Strict):
    cards: list[KingdomSpec] = Field(min_length=1)


class RulesSpec(Sourced):
    seasons: list[str] = Field(min_length=1)
    kingdom_limit: list[int]
    start_gold: NonNegativeInt
    face_up_crafts: PositiveInt
    face_up_kingdom: PositiveInt
    forge_limit: PositiveInt
    vorpal_level: PositiveInt
    bonus_level: PositiveInt
    season_tokens: PositiveInt
    tie_gold: NonNegativeInt
    repair_gold: NonNegativeInt
    defeated_standard: NonNegativeInt
    defeated_vorpal: NonNegativeInt
    defeated_bonus: list[int]
    defeated_bonus_2p: list[int]
    tiebreak_standard: NonNegativeInt
    tiebreak_vorpal: NonNegativeInt

    @model_validator(mode="after")
    def _limits(self) -> RulesSpec:
        if len(self.kingdom_limit) != len(self.seasons):
            raise ValueError("kingdom_limit needs one limit per Season")
        return self


class SideBoardSpec(Sourced):
    links: list[tuple[Literal["kingdom", "craft"], int, Literal["kingdom", "craft"], int]]


class GameFile(Strict):
    rules: RulesSpec
    side_board: SideBoardSpec


# -- compiled content ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Space:
    """One Weapon Space: the race side of a Battlefield of a Region, demanding one Weapon."""

    index: int
    id: str  # "region/race/battlefield", battlefield counted from 1 at the centre
    region: int
    side: int  # 0 or 1: which of the Region's two races
    battlefield: int  # 0 = nearest the centre
    race: int
    weapon: int
    row: int  # the row of spaces (Region side), numbered clockwise
    other: int  # the facing space of the same Battlefield


@dataclass(frozen=True)
class Board:
    """One side of the game board, compiled: spaces, rows clockwise, races in play."""

    regions: tuple[str, ...]
    region_races: tuple[tuple[int, int], ...]
    battlefields: int
    spaces: tuple[Space, ...]
    space_by_id: dict[str, int]
    rows: tuple[tuple[int, ...], ...]  # per row (clockwise): its spaces from the centre out
    row_race: tuple[int, ...]
    races: tuple[int, ...]  # the races on this side, in the data's order

    def space_at(self, region: int, battlefield: int, side: int) -> Space:
        return self.spaces[(region * self.battlefields + battlefield) * 2 + side]


@dataclass(frozen=True, slots=True)
class CraftCard:
    index: int
    deck: str  # spring_summer or autumn_winter
    weapon: int
    multiplier: int  # 0 free, 1 for x1, 2 for x2
    levels: int
    coins: int
    #: authored by the project (the rulebook prints no card list)
    authored: bool

    def face(self, weapons: tuple[str, ...]) -> dict[str, Any]:
        """What the card shows, for boards: Weapon, Levels, Cost, discount coins."""
        cost = "free" if self.multiplier == 0 else f"x{self.multiplier}"
        return {
            "weapon": weapons[self.weapon],
            "levels": self.levels,
            "cost": cost,
            "coins": self.coins,
        }

    def label(self, weapons: tuple[str, ...]) -> str:
        cost = "free" if self.multiplier == 0 else f"x{self.multiplier}"
        coins = f", {self.coins} coin{'s' if self.coins > 1 else ''}" if self.coins else ""
        return f"{weapons[self.weapon]} +{self.levels} ({cost}{coins})"


@dataclass(frozen=True, slots=True)
class KingdomCard:
    index: int
    name: str
    pile: str
    players: frozenset[int]
    duration: str
    gold: int
    effect: str
    amount: int
    race: int | None
    region: str | None
    quality: int | None  # 0 standard, 1 vorpal
    per: int
    text: str
    #: authored by the project (the rulebook prints no card texts)
    authored: bool


@dataclass(frozen=True)
class Content:
    races: tuple[str, ...]
    weapons: tuple[str, ...]
    boards: dict[int, Board]  # per player count
    chart: ChartSpec
    colours: tuple[str, ...]
    mat_crafts: tuple[tuple[int, ...], ...]
    mat_reward: dict[int, tuple[int, ...]]  # per player count: printed race of each mat
    crafts: tuple[CraftCard, ...]
    kingdom: tuple[KingdomCard, ...]
    rules: RulesSpec
    links: dict[tuple[str, int], tuple[str, int]]  # side-board space -> linked space (0-based)
    #: what is authored by the project, not printed in the rulebook: the board side of each
    #: player count (which Weapon each space wants), each mat, the side board's lines
    board_authored: dict[int, bool]
    mats_authored: tuple[bool, ...]
    links_authored: bool

    # Each card's words, worked out once per set of cards: every seat's view names the Craft
    # Cards in hand, on offer and discarded, and the Kingdom Cards on offer, at every move.
    @functools.cached_property
    def craft_labels(self) -> tuple[str, ...]:
        """Each Craft Card's label (:meth:`CraftCard.label`), by its index."""
        return tuple(k.label(self.weapons) for k in self.crafts)

    @functools.cached_property
    def kingdom_texts(self) -> tuple[str, ...]:
        """What each Kingdom Card does, in words (:func:`card_text`), by its index."""
        return tuple(card_text(k, self) for k in self.kingdom)


_PLURAL = {"dwarf": "Dwarves", "elf": "Elves"}


def race_plural(race: str) -> str:
    """``Dwarves``, ``Orcs``: a race as the texts name its people."""
    return _PLURAL.get(race, race.title() + "s")


def title(name: str) -> str:
    """``axe`` -> ``Axe``, ``grasslands`` -> ``Grasslands``: a data id as the texts name it."""
    return name[:1].upper() + name[1:]


def deck_name(deck: str) -> str:
    """``spring_summer`` -> ``Spring/Summer``: a Craft deck as the texts name it."""
    return "/".join(title(s) for s in deck.split("_"))


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def ordinal(n: int) -> str:
    """``3`` -> ``third``."""
    return _ORDINALS[n - 1] if 0 < n <= len(_ORDINALS) else f"{n}th"


def card_text(k: KingdomCard, c: Content) -> str:
    """What a Kingdom Card does, in words (its gold, shown apart, is paid when it is taken)."""
    amount, per = k.amount, k.per
    quality = {None: "", 0: "Standard ", 1: "Vorpal "}[k.quality]
    race = "" if k.race is None else race_plural(c.races[k.race])
    each = f"{amount} gold per" if per == 1 else f"{amount} gold per {per}"
    texts = {
        "gold": "take the gold"
        + (" as your action; stays in the pool for good" if k.duration == "final" else ""),
        "sale_bonus": f"+{amount} gold on every {quality}sale" + (f" to {race}" if race else ""),
        "forge_discount": f"{quality}Weapons cost {amount} gold less to Forge",
        "battle_level": f"your Weapons fight as if your Craft Level were {amount} higher",
        "repair_bonus": f"+{amount} gold per Weapon of yours on the board at every Repairs",
        "forge_limit": f"Forge up to {c.rules.forge_limit + amount} Weapons per Forge action",
        "free_craft": "then take a face-up Craft Card for free",
        "sell_twice": "then make up to two sales"
        + (f", each {amount} gold less" if amount else "")
        + " (with 2 players Steve sells after each)",
        "free_forge": "then Forge one Standard Weapon of a Craft you have, for free",
        "region_tile": f"take the {(k.region or '').title()} Reward Tile if it is on the board",
        "end_flat": f"at the Year's End: {amount:+d} gold",
        "end_per_defeated": f"at the Year's End: {each} point of your Defeated Weapons",
        "end_per_reward": f"at the Year's End: {each} Reward Tile on your mat",
        "end_per_craft_card": f"at the Year's End: {each} Craft Cards you hold",
        "end_per_unsold": f"at the Year's End: {each} unsold Weapon",
        "end_per_board_weapon": f"at the Year's End: {each} Weapon of yours on the board",
    }
    return texts[k.effect]


def _index(names: list[str] | tuple[str, ...], name: str, what: str) -> int:
    try:
        return list(names).index(name)
    except ValueError:
        raise DataError(f"unknown {what} {name!r}") from None


def _compile_board(spec: SideSpec, races: list[str], weapons: list[str]) -> Board:
    counts = {len(r.battlefields) for r in spec.regions}
    if len(counts) != 1:
        raise DataError("board: every Region needs the same number of Battlefields")
    fields = counts.pop()
    spaces: list[Space] = []
    rows: list[tuple[int, ...]] = []
    row_race: list[int] = []
    names = [r.name for r in spec.regions]
    if len(set(names)) != len(names):
        raise DataError("board: a Region appears twice on one side")
    for r, region in enumerate(spec.regions):
        race_ids = tuple(_index(races, x, "race") for x in region.races)
        for b, pair in enumerate(region.battlefields):
            for side in (0, 1):
                index = len(spaces)
                spaces.append(
                    Space(
                        index=index,
                        id=f"{region.name}/{region.races[side]}/{b + 1}",
                        region=r,
                        side=side,
                        battlefield=b,
                        race=race_ids[side],
                        weapon=_index(weapons, pair[side], "weapon"),
                        row=r * 2 + side,
                        other=index ^ 1,
                    )
                )
        for side in (0, 1):
            rows.append(tuple((r * fields + b) * 2 + side for b in range(fields)))
            row_race.append(race_ids[side])
    in_play = sorted({s.race for s in spaces})
    return Board(
        regions=tuple(names),
        region_races=tuple(
            (_index(races, r.races[0], "race"), _index(races, r.races[1], "race"))
            for r in spec.regions
        ),
        battlefields=fields,
        spaces=tuple(spaces),
        space_by_id={s.id: s.index for s in spaces},
        rows=tuple(rows),
        row_race=tuple(row_race),
        races=tuple(in_play),
    )


def compile_content(
    board: BoardFile, mats: MatsFile, crafts: CraftsFile, kingdom: KingdomFile, game: GameFile
) -> Content:
    """Check cross-references between the files and build the runtime tables."""
    races, weapons = board.races, board.weapons
    boards: dict[int, Board] = {}
    board_authored: dict[int, bool] = {}
    for side in board.sides:
        compiled = _compile_board(side, races, weapons)
        for n in side.players:
            if n in boards:
                raise DataError(f"board: two sides for {n} players")
            boards[n] = compiled
            board_authored[n] = side.source == "authored"
    if sorted(boards) != [2, 3, 4]:
        raise DataError("board: need a side for 2, 3 and 4 players")
    mat_crafts = tuple(tuple(_index(weapons, w, "weapon") for w in m.crafts) for m in mats.mats)
    mat_reward: dict[int, tuple[int, ...]] = {}
    for n, b in boards.items():
        printed = tuple(
            _index(races, m.reward_3p if n == 3 else m.reward, "race") for m in mats.mats
        )
        if any(r not in b.races for r in printed[:n]):
            raise DataError(f"mats: a printed Reward Tile is a race not on the {n}-player board")
        mat_reward[n] = printed
    cards: list[CraftCard] = []
    for deck in ("spring_summer", "autumn_winter"):
        for spec in getattr(crafts, deck):
            w = _index(weapons, spec.weapon, "weapon")
            mult = {"free": 0, "x1": 1, "x2": 2}[spec.cost]
            for _ in range(spec.copies):
                authored = spec.source == "authored"
                cards.append(
                    CraftCard(len(cards), deck, w, mult, spec.levels, spec.coins, authored)
                )
    spring = sum(c.deck == "spring_summer" for c in cards)
    if (spring, len(cards) - spring) != (36, 20):
        raise DataError("crafts: the text has 36 Spring/Summer and 20 Autumn/Winter Craft Cards")
    kcards: list[KingdomCard] = []
    for spec in kingdom.cards:
        if spec.duration not in EFFECT_DURATIONS[spec.effect]:
            raise DataError(f"kingdom: {spec.name}: {spec.effect} cannot be {spec.duration}")
        race = _index(races, spec.race, "race") if spec.race is not None else None
        if spec.region is not None and not any(spec.region in b.regions for b in boards.values()):
            raise DataError(f"kingdom: {spec.name}: unknown region {spec.region}")
        if spec.effect == "region_tile" and spec.region is None:
            raise DataError(f"kingdom: {spec.name} needs a region")
        quality = None if spec.quality is None else int(spec.quality == "vorpal")
        kcards.append(
            KingdomCard(
                len(kcards),
                spec.name,
                spec.pile,
                frozenset(spec.players),
                spec.duration,
                spec.gold,
                spec.effect,
                spec.amount,
                race,
                spec.region,
                quality,
                spec.per,
                spec.why,
                spec.source == "authored",
            )
        )
    if len(kcards) != 28:
        raise DataError("kingdom: the text has 28 Kingdom Cards")
    names = [k.name for k in kcards]
    if len(set(names)) != len(names):
        raise DataError("kingdom: two cards share a name")
    for n in (2, 3, 4):
        if sum(k.pile == "D" and n in k.players for k in kcards) != 1:
            raise DataError(f"kingdom: the deck for {n} players needs a single 'D' card")
    links: dict[tuple[str, int], tuple[str, int]] = {}
    limits = {"craft": game.rules.face_up_crafts, "kingdom": game.rules.face_up_kingdom}
    for k1, s1, k2, s2 in game.side_board.links:
        one: tuple[str, int] = (k1, s1 - 1)
        two: tuple[str, int] = (k2, s2 - 1)
        for kind, slot in (one, two):
            if not 0 <= slot < limits[kind]:
                raise DataError(f"side_board: no {kind} space {slot + 1}")
        if one in links or two in links or one == two:
            raise DataError("side_board: a space is linked twice")
        links[one], links[two] = two, one
    return Content(
        races=tuple(races),
        weapons=tuple(weapons),
        boards=boards,
        chart=mats.chart,
        colours=tuple(m.colour for m in mats.mats),
        mat_crafts=mat_crafts,
        mat_reward=mat_reward,
        crafts=tuple(cards),
        kingdom=tuple(kcards),
        rules=game.rules,
        links=links,
        board_authored=board_authored,
        mats_authored=tuple(m.source == "authored" for m in mats.mats),
        links_authored=game.side_board.source == "authored",
    )


#: the game's content from its data files, each a parameter of :func:`compile_content`
#: (read and checked once per process)
content = content_from_files(PACKAGE, compile_content)
