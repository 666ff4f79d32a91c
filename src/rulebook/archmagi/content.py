"""Archmagi content, read from ``data/*.toml`` and validated on load.

The rulebook (``004_df6d88d5c0362155.txt``) gives the contents list, the symbol vocabulary and
two Magi abilities but no card texts; every Spell, Monster and the Water and Lightning abilities
are authored in the data files from the symbol vocabulary only (SYMBOLS GUIDE): Draw, Draft,
Discard, Search, Plant, Uproot, Gain Crystals, Spend Crystals, plus the Plays the PLAY PHASE
mentions and "you may" (ADDITIONAL RULES CLARIFICATIONS). :func:`content` checks the counts the
contents list states and compiles every Action into a tuple of :class:`Effect`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from rulebook.archmagi.symbols import COMMON, Effect, Monster, Spell
from rulebook.core.data import DataError, Sourced, Strict, cached, content_from_files, load

__all__ = [
    "COMMON",
    "ELEMENTS",
    "Content",
    "Effect",
    "Glossary",
    "Monster",
    "Spell",
    "content",
    "glossary",
]

PACKAGE = "rulebook.archmagi.data"
ELEMENTS = ("fire", "water", "flora", "lightning")
#: the primitive effects, named after the symbols (and "plays", "look_draft", "may")
KINDS = (
    "draw",
    "draft",
    "discard",
    "search",
    "plant",
    "uproot",
    "gain",
    "spend",
    "plays",
    "look_draft",
    "may",
)


# -- schemas of the files --------------------------------------------------------------------
class EffectSpec(Strict):
    """One symbol of an Action: exactly one key, e.g. ``{ draw = 2 }`` or ``{ may = [...] }``."""

    draw: int | None = Field(default=None, ge=1)
    draft: int | None = Field(default=None, ge=1)
    discard: int | None = Field(default=None, ge=1)
    search: int | None = Field(default=None, ge=1)
    plant: int | None = Field(default=None, ge=1)
    uproot: int | None = Field(default=None, ge=1)
    gain: int | None = Field(default=None, ge=1)
    spend: int | None = Field(default=None, ge=1)
    plays: int | None = Field(default=None, ge=1)
    look_draft: int | None = Field(default=None, ge=1)
    may: list[EffectSpec] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _one(self) -> EffectSpec:
        set_keys = [k for k in KINDS if getattr(self, k) is not None]
        if len(set_keys) != 1:
            raise ValueError(f"an effect has exactly one symbol, not {set_keys or 'none'}")
        return self


class SpellSpec(Sourced):
    name: str
    element: Literal["fire", "water", "flora", "lightning", "common"]
    #: starting: a Magi's Starting Spells (Magic Pool at setup); book: the 20 of a Spell Book;
    #: starting_common: the 12 Starting Common Spells; round: a Round's Common Spells
    set: Literal["starting", "book", "starting_common", "round"]
    round: int = Field(default=0, ge=0, le=4)
    #: the player-count mark of a Round Common Spell: added with at least this many players
    players: int = Field(default=2, ge=2, le=4)
    copies: int = Field(default=1, ge=1)
    top: list[EffectSpec] = Field(min_length=1)
    bottom: list[EffectSpec] = Field(default_factory=list)


class SpellsFile(Strict):
    spells: list[SpellSpec] = Field(min_length=1)


class MonsterSpec(Sourced):
    name: str
    tier: int = Field(ge=1, le=3)
    crystals: NonNegativeInt
    spells: int = Field(default=0, ge=0)
    reward: list[EffectSpec] = Field(default_factory=list)
    favor: NonNegativeInt


class MonstersFile(Strict):
    monsters: list[MonsterSpec] = Field(min_length=1)


class MagiSpec(Sourced):
    element: Literal["fire", "water", "flora", "lightning"]
    name: str
    ability: str
    #: Plays gained in the Play Phase
    plays: NonNegativeInt
    #: Spells drawn in the Draw Phase
    draws: int = Field(default=1, ge=0)
    #: symbols the Magi performs at the start of each of their Play Phases
    turn_start: list[EffectSpec] = Field(default_factory=list)
    #: Fire: playing an own Spell may perform the Top Action followed by the Bottom Action
    top_then_bottom: bool = False
    #: Flora: a Play may Plant an own Spell; no Play performs an own Bottom Action
    plant_as_play: bool = False
    #: Flora (authored): planted own Spells perform their Bottom Action each Play Phase
    planted_bottoms: bool = False
    #: Water (authored): takes Spells in the Flow of Magic without discarding one
    free_flow: bool = False


class MagiFile(Strict):
    magi: list[MagiSpec] = Field(min_length=4, max_length=4)


class RulesSpec(Sourced):
    rounds: PositiveInt
    plays: NonNegativeInt
    hand_limit: NonNegativeInt
    crystals: NonNegativeInt
    path_size: PositiveInt
    starting_hand: NonNegativeInt
    book_size: NonNegativeInt
    starting_spells: NonNegativeInt
    #: the contents list: Starting Common Spells, and Round 1-4 Common Spells (at 4 players)
    starting_commons: NonNegativeInt
    round_commons: list[int] = Field(min_length=4, max_length=4)
    monsters_per_tier: PositiveInt
    #: from this round on, every Draft may be used as a Draw (END OF ROUND, round 3)
    drafts_as_draws_round: PositiveInt


class GameFile(Strict):
    rules: RulesSpec


class SymbolSpec(Sourced):
    """A symbol of the SYMBOLS GUIDE (an :class:`EffectSpec` key) in the project's words."""

    kind: str
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class TermSpec(Sourced):
    """A part of the table (a pile, a token, a phase) in the project's words."""

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class GlossaryFile(Strict):
    symbols: list[SymbolSpec] = Field(min_length=1)
    terms: list[TermSpec] = Field(min_length=1)


# -- compiled content ------------------------------------------------------------------------
@dataclass(frozen=True)
class Content:
    #: one entry per physical card (copies repeated); a card is its index here
    cards: tuple[Spell, ...]
    names: tuple[str, ...]  # distinct Spell names, sorted
    spell_by_name: Mapping[str, Spell]
    monsters: tuple[Monster, ...]
    magi: tuple[MagiSpec, ...]  # in ELEMENTS order
    turn_start: tuple[tuple[Effect, ...], ...]  # per Magi, in ELEMENTS order
    rules: RulesSpec
    #: the Spells and Monsters the rulebook does not print, authored for the project
    authored: frozenset[str]


def _effects(specs: list[EffectSpec]) -> tuple[Effect, ...]:
    out = []
    for s in specs:
        if s.may is not None:
            out.append(Effect("may", 0, _effects(s.may)))
        else:
            kind = next(k for k in KINDS if getattr(s, k) is not None)
            out.append(Effect(kind, getattr(s, kind)))
    return tuple(out)


def compile_content(
    spells: SpellsFile, monsters: MonstersFile, magi: MagiFile, game: GameFile
) -> Content:
    """Check the contents list's counts and build the runtime tables."""
    rules = game.rules
    names = [s.name for s in spells.spells]
    if len(set(names)) != len(names):
        raise DataError("spells: duplicate names")
    cards: list[Spell] = []
    for s in spells.spells:
        elemental = s.element != COMMON
        if elemental != (s.set in ("starting", "book")):
            raise DataError(f"spells: {s.name}: only Elemental Spells are starting/book Spells")
        if elemental and not s.bottom:
            raise DataError(f"spells: {s.name}: an Elemental Spell needs a Bottom Action")
        if not elemental and s.bottom:
            raise DataError(f"spells: {s.name}: a Common Spell has a single Action")
        if (s.set == "round") != (s.round > 0):
            raise DataError(f"spells: {s.name}: a round is given for Round Commons only")
        spell = Spell(
            s.name, s.element, s.set, s.round, s.players, _effects(s.top), _effects(s.bottom)
        )
        cards.extend([spell] * s.copies)

    counts = Counter(
        (c.element if c.set in ("starting", "book") else "", c.set, c.round) for c in cards
    )
    for e in ELEMENTS:
        if counts[(e, "book", 0)] != rules.book_size:
            raise DataError(f"spells: the {e} Spell Book needs {rules.book_size} Spells")
        if counts[(e, "starting", 0)] != rules.starting_spells:
            raise DataError(f"spells: {e} needs {rules.starting_spells} Starting Spells")
    if counts[("", "starting_common", 0)] != rules.starting_commons:
        raise DataError(f"spells: {rules.starting_commons} Starting Common Spells are needed")
    for r, want in enumerate(rules.round_commons, start=1):
        if counts[("", "round", r)] != want:
            raise DataError(f"spells: Round {r} needs {want} Common Spells")
    tiers = {t: 0 for t in (1, 2, 3)}
    built = []
    mnames = [m.name for m in monsters.monsters]
    if len(set(mnames)) != len(mnames):
        raise DataError("monsters: duplicate names")
    for m in monsters.monsters:
        tiers[m.tier] += 1
        built.append(Monster(m.name, m.tier, m.crystals, m.spells, _effects(m.reward), m.favor))
    if any(v != rules.monsters_per_tier for v in tiers.values()):
        raise DataError(f"monsters: each tier needs {rules.monsters_per_tier} Monsters")
    by_element: dict[str, MagiSpec] = {m.element: m for m in magi.magi}
    if sorted(by_element) != sorted(ELEMENTS):
        raise DataError("magi: one Magi per element")
    return Content(
        cards=tuple(cards),
        names=tuple(sorted(set(names))),
        spell_by_name={c.name: c for c in cards},
        monsters=tuple(built),
        magi=tuple(by_element[e] for e in ELEMENTS),
        turn_start=tuple(_effects(by_element[e].turn_start) for e in ELEMENTS),
        rules=rules,
        authored=frozenset(
            [s.name for s in spells.spells if s.source != "rulebook"]
            + [m.name for m in monsters.monsters if m.source != "rulebook"]
        ),
    )


#: the game's content from its data files, each a parameter of :func:`compile_content`
#: (read and checked once per process)
content = content_from_files(PACKAGE, compile_content)


@dataclass(frozen=True)
class Glossary:
    """What each symbol and each part of the table means (``data/glossary.toml``), the
    numbers of the rules filled in: ``symbols`` by kind (:data:`KINDS`) as (name, text),
    ``terms`` by name; ``authored``: the entries that hold a ruling of the project where the
    rulebook is silent, by name, with the ruling."""

    symbols: Mapping[str, tuple[str, str]]
    terms: Mapping[str, str]
    authored: Mapping[str, str]


def compile_glossary(raw: GlossaryFile, rules: RulesSpec) -> Glossary:
    """Check that every symbol kind is explained once and fill in the rules' numbers."""
    numbers = rules.model_dump()

    def filled(where: str, text: str) -> str:
        try:
            return text.format(**numbers)
        except (KeyError, IndexError, ValueError) as exc:
            raise DataError(f"glossary: {where}: no rules number {exc} to fill in") from None

    kinds = [s.kind for s in raw.symbols]
    if sorted(kinds) != sorted(KINDS):
        raise DataError(f"glossary: one symbol per kind is needed: {', '.join(KINDS)}")
    names = [s.name for s in raw.symbols] + [t.name for t in raw.terms]
    if len(set(names)) != len(names):
        raise DataError("glossary: duplicate names")
    return Glossary(
        symbols={s.kind: (s.name, filled(s.name, s.text)) for s in raw.symbols},
        terms={t.name: filled(t.name, t.text) for t in raw.terms},
        authored={
            **{s.name: s.why for s in raw.symbols if s.source != "rulebook"},
            **{t.name: t.why for t in raw.terms if t.source != "rulebook"},
        },
    )


@cached
def glossary() -> Glossary:
    """The symbols and parts of the table explained (read and checked once per process)."""
    return compile_glossary(load(GlossaryFile, PACKAGE, "glossary.toml"), content().rules)
