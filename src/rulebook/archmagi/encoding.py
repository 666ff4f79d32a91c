"""Archmagi's observation tensor, built from ``observation(p)`` alone (see
:mod:`rulebook.core.spaces`; slices: ``docs/research.md``).

The table: the round and the last turn, the phase, whose turn, the Plays left, the Magic Pool's
size, the Spells in the discard pile, exhausted and in the play area (counted per Spell name),
the Monsters on the Paths and the Monster decks' sizes, the viewer's own hand, and the decision
waited for (its kind, the deciding seat, how many, the Spell a Flow of Magic offers; the Spells
looked at and the effects a "you may" offers, to the deciding seat only). Then one block per
seat, the viewer first: its Magi, Crystals, Favor, Monsters defeated, the sizes of its hand and
Spell Book, and its planted Spells. Other seats' hands are never in the observation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from rulebook.archmagi.content import ELEMENTS, Effect, content
from rulebook.archmagi.monsters import favor
from rulebook.archmagi.moves import DISCARD, INPUT, MONSTER, OVER, PLAY
from rulebook.archmagi.rules import ArchmagiState
from rulebook.core import RulebookError, Setup, State
from rulebook.core.spaces import (
    DirectEncoder,
    Pile,
    Vector,
    hot,
    index_of,
    lookup,
    positions,
    relative,
)
from rulebook.core.writes import Writes, sums

PHASES = (PLAY, MONSTER, DISCARD, OVER)
DECISIONS = tuple(sorted(INPUT))
#: Plays left are divided by this (two a turn, more from Spells)
PLAYS_SCALE = 5.0
#: Crystals are divided by this
CRYSTAL_SCALE = 20.0
#: Favor (the score) is divided by this: a strong seat ends with about 15-20
FAVOR_SCALE = 20.0
#: the number a decision is about (Spells to discard, to look at...) is divided by this
COUNT_SCALE = 5.0
#: caps (times the scale) of the amounts the rules leave open, at least twice the largest seen
#: in simulated games: Plays and the decision's count (up to 1), Crystals (2.7), Favor (1.7),
#: Spells in hand (1.4) and in the Spell Book (1)
PLAYS_CAP, COUNT_CAP, CRYSTAL_CAP, FAVOR_CAP, HAND_CAP, BOOK_CAP = 3.0, 3.0, 6.0, 4.0, 3.0, 3.0


def _texts(effects: Iterable[Effect]) -> Iterable[str]:
    for e in effects:
        yield e.text()
        yield from _texts(e.then)


class ArchmagiEncoder(DirectEncoder):
    STATE = ArchmagiState

    IGNORED: Mapping[str, str] = {
        "rounds": "fixed by the game's data",
        "seats[*].magi": "follows from the element",
        "paths[*][*].tier": "follows from the Monster",
        "paths[*][*].crystals": "follows from the Monster",
        "paths[*][*].spells": "follows from the Monster",
        "paths[*][*].reward": "follows from the Monster",
        "paths[*][*].reward[*]": "follows from the Monster",
        "paths[*][*].favor": "follows from the Monster",
    }

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        c = self.content = content()
        rules = c.rules
        self.names = index_of(c.names)
        self.monsters = index_of(m.name for m in c.monsters)
        self.elements = index_of(ELEMENTS)
        self.phases = index_of(PHASES)
        self.decisions = index_of(DECISIONS)
        effects = [e for s in c.cards for e in (*s.top, *s.bottom)]
        effects += [e for m in c.monsters for e in m.reward]
        effects += [e for group in c.turn_start for e in group]
        self.effects = index_of(sorted(set(_texts(effects))))
        self.copies = float(max(Counter(card.name for card in c.cards).values()))
        self.cards = float(len(c.cards))
        self.rounds = rules.rounds
        self.tiers = len({m.tier for m in c.monsters})
        self.tier_size = float(rules.monsters_per_tier)
        self.book_size = float(rules.book_size)
        self.hand_limit = float(rules.hand_limit)
        self._declare()
        self._prepare_fast()

    def _declare(self) -> None:
        n, add = self.players, self.parts.add
        spells = len(self.names)
        per_spell = f"per Spell name (sorted), copies / {self.copies:g}"
        self.at_you = add("you", n, "one-hot: the viewer's seat number (0 = first player)")
        self.at_round = add("round", self.rounds, "one-hot: the round (1 first)")
        self.at_last = add(
            "last_turn", 1, "1 in the last turns (the Magic Pool of the last round ran out)"
        )
        self.at_phase = add("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.at_turn = add("turn", n, "one-hot: whose turn it is (relative: 0 = the viewer)")
        self.at_plays = add(
            "plays", 1, f"Plays left this turn / {PLAYS_SCALE:g}", high=PLAYS_CAP, capped=True
        )
        self.at_pool = add("magic_pool", 1, f"Spells in the Magic Pool / {self.cards:g}")
        self.at_discard = add("discard_pile", spells, f"the discard pile, {per_spell}")
        self.at_exhausted = add("exhausted", spells, f"exhausted Spells, {per_spell}")
        self.at_play_area = add("play_area", spells, f"the play area, {per_spell}")
        self.at_paths = add(
            "paths", len(self.monsters), "per Monster (data file order): 1 if on a Path"
        )
        self.at_decks = add(
            "monster_decks", self.tiers, f"Monsters left per tier's deck / {self.tier_size:g}"
        )
        self.at_hand = add("hand", spells, f"the viewer's hand, {per_spell}")
        self.at_choice = add(
            "choice.kind",
            len(DECISIONS),
            f"one-hot: the decision waited for ({', '.join(DECISIONS)}); all 0 for none",
        )
        self.at_chooser = add("choice.seat", n, "one-hot: the seat deciding (relative)")
        self.at_count = add(
            "choice.count",
            1,
            f"how many the decision is about / {COUNT_SCALE:g}",
            high=COUNT_CAP,
            capped=True,
        )
        self.at_offer = add(
            "choice.spell", spells, "one-hot: the Spell a Flow of Magic offers (or pays for)"
        )
        self.at_looking = add(
            "choice.looking", spells, f"the Spells the deciding viewer looks at, {per_spell}"
        )
        self.at_effects = add(
            "choice.effects",
            len(self.effects),
            "per effect text of the content (sorted): 1 if a 'you may' offers it to the viewer",
        )
        self.declare_seats(self._declare_seat, "1 if this seat is to act now")

    def _declare_seat(self, p: str) -> dict[str, int]:
        add = self.parts.add
        return {
            "element": add(
                p + "element", len(ELEMENTS), f"one-hot: the Magi ({', '.join(ELEMENTS)})"
            ),
            "crystals": add(
                p + "crystals", 1, f"Crystals / {CRYSTAL_SCALE:g}", high=CRYSTAL_CAP, capped=True
            ),
            "favor": add(
                p + "favor", 1, f"Favor (the score) / {FAVOR_SCALE:g}", high=FAVOR_CAP, capped=True
            ),
            "monsters": add(
                p + "monsters", len(self.monsters), "per Monster: 1 if this seat defeated it"
            ),
            "hand": add(
                p + "hand", 1, f"Spells in hand / {self.hand_limit:g}", high=HAND_CAP, capped=True
            ),
            "book": add(
                p + "spell_book",
                1,
                f"Spells in the Spell Book / {self.book_size:g}",
                high=BOOK_CAP,
                capped=True,
            ),
            "planted": add(
                p + "planted", len(self.names), f"planted Spells per name / {self.copies:g}"
            ),
        }

    def _count(self, names: Iterable[object], start: int, out: Vector) -> None:
        for i in positions(self.names, names, start, "Spell"):
            out[i] += 1 / self.copies

    def fill(self, observation: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        obs, n = observation, self.players
        you = obs["you"]
        hot(ones, self.at_you, n, you)
        hot(ones, self.at_round, self.rounds, obs["round"] - 1)
        out[self.at_last] = obs["last_turn"]
        hot(ones, self.at_phase, len(PHASES), lookup(self.phases, obs["phase"], "phase"))
        hot(ones, self.at_turn, n, relative(obs["turn"], you, n))
        out[self.at_plays] = obs["plays"] / PLAYS_SCALE
        out[self.at_pool] = obs["magic_pool"] / self.cards
        self._count(obs["discard_pile"], self.at_discard, out)
        self._count(obs["exhausted"], self.at_exhausted, out)
        self._count(obs["play_area"], self.at_play_area, out)
        for path in obs["paths"]:
            ones += positions(self.monsters, (m["name"] for m in path), self.at_paths, "Monster")
        decks = obs["monster_decks"]
        if len(decks) != self.tiers:
            raise RulebookError(f"{len(decks)} Monster decks, not {self.tiers}")
        for tier, left in enumerate(decks):
            out[self.at_decks + tier] = left / self.tier_size
        self._count(obs["hand"], self.at_hand, out)
        choice = obs["choice"]
        if choice is not None:
            hot(
                ones,
                self.at_choice,
                len(DECISIONS),
                lookup(self.decisions, choice["kind"], "decision"),
            )
            hot(ones, self.at_chooser, n, relative(choice["seat"], you, n))
            out[self.at_count] = choice["count"] / COUNT_SCALE
            if "spell" in choice:
                ones.append(self.at_offer + lookup(self.names, choice["spell"], "Spell"))
            self._count(choice.get("looking", ()), self.at_looking, out)
            ones += positions(self.effects, choice.get("effects", ()), self.at_effects, "effect")
        seats = obs["seats"]
        for p, at in self.seats(obs, ones):
            seat = seats[p]
            hot(ones, at["element"], len(ELEMENTS), lookup(self.elements, seat["element"], "Magi"))
            out[at["crystals"]] = seat["crystals"] / CRYSTAL_SCALE
            out[at["favor"]] = seat["favor"] / FAVOR_SCALE
            ones += positions(self.monsters, seat["monsters"], at["monsters"], "Monster")
            out[at["hand"]] = seat["hand"] / self.hand_limit
            out[at["book"]] = seat["spell_book"] / self.book_size
            self._count(seat["planted"], at["planted"], out)

    # -- from the state itself (the fast path) -------------------------------------------------
    def _prepare_fast(self) -> None:
        """The tables of :meth:`fill_state`: each card's and Monster's place, a count's value."""
        c = self.content
        self._spell_at = [self.names[card.name] for card in c.cards]
        self._monster_at = [self.monsters[m.name] for m in c.monsters]
        self._sums = sums(1 / self.copies, len(c.cards))

    def fill_state(self, state: Any, player: int, base: int, out: Writes) -> None:
        """:meth:`fill` of :func:`rulebook.archmagi.view.view` of ``player``, read from the
        state."""
        s: ArchmagiState = state
        n = self.players
        over = s.phase == OVER
        ones, spell_at, counts = out.ones, self._spell_at, self._sums
        ones.append(base + self.at_you + player)
        ones.append(base + self.at_round + s.round - 1)
        out.amount(base + self.at_last, s.final)
        ones.append(base + self.at_phase + self.phases[s.phase])
        ones.append(base + self.at_turn + (s.turn - player) % n)
        out.amount(base + self.at_plays, (s.plays if s.phase == PLAY else 0) / PLAYS_SCALE)
        out.amount(base + self.at_pool, (len(s.pool) + len(s.looking)) / self.cards)
        out.count(spell_at, s.discard, base + self.at_discard, counts)
        out.count(spell_at, s.exhausted, base + self.at_exhausted, counts)
        out.count(spell_at, s.play_area, base + self.at_play_area, counts)
        monster_at = self._monster_at
        paths = base + self.at_paths
        for path in s.paths:
            for m in path:
                ones.append(paths + monster_at[m])
        decks = s.monster_decks
        if len(decks) != self.tiers:
            raise RulebookError(f"{len(decks)} Monster decks, not {self.tiers}")
        for tier, deck in enumerate(decks):
            out.amount(base + self.at_decks + tier, len(deck) / self.tier_size)
        out.count(spell_at, s.hands[player], base + self.at_hand, counts)
        if s.stack and not over:
            kind, p, count, data = s.stack[-1]
            ones.append(base + self.at_choice + self.decisions[kind])
            ones.append(base + self.at_chooser + (p - player) % n)
            out.amount(base + self.at_count, count / COUNT_SCALE)
            if kind in ("flow", "pay"):
                ones.append(base + self.at_offer + spell_at[data])
            if p == player:
                if kind in ("search", "return"):
                    out.count(spell_at, s.looking, base + self.at_looking, counts)
                elif kind == "look":
                    out.count(spell_at, s.books[p][-count:], base + self.at_looking, counts)
                elif kind == "may":
                    start = base + self.at_effects
                    for e in data:
                        ones.append(start + lookup(self.effects, e.text(), "effect"))
        winners = s.winners() if over else ()
        for p, at in out.seats(self.at_seat, player, base, s.current_players(), winners):
            ones.append(base + at["element"] + self.elements[s.magi_of(p).element])
            out.amount(base + at["crystals"], s.crystals[p] / CRYSTAL_SCALE)
            out.amount(base + at["favor"], favor(s, p) / FAVOR_SCALE)
            start = base + at["monsters"]
            for m in s.trophies[p]:
                ones.append(start + monster_at[m])
            out.amount(base + at["hand"], len(s.hands[p]) / self.hand_limit)
            out.amount(base + at["book"], len(s.books[p]) / self.book_size)
            out.count(spell_at, s.planted[p], base + at["planted"], counts)

    # -- what no seat sees (the privileged global state) --------------------------------------
    def piles(self) -> tuple[Pile, ...]:
        """The Magic Pool, the three Monster decks and each seat's Spell Book, in order (the
        other seats' hands are in their own observations)."""
        c = self.content
        cards, monsters = len(c.cards), len(c.monsters)
        return (
            Pile("magic_pool", cards, "the Magic Pool's order (per Spell card)"),
            *(
                Pile(f"monster_deck{t + 1}", monsters, f"the tier {t + 1} Monster deck's order")
                for t in range(self.tiers)
            ),
            *(
                Pile(f"seat{p}.spell_book", cards, f"seat {p}'s Spell Book's order")
                for p in range(self.players)
            ),
        )

    def hidden(self, state: State) -> list[list[int]]:
        assert isinstance(state, ArchmagiState)
        return [state.pool, *state.monster_decks, *state.books]


def encoder(setup: Setup) -> ArchmagiEncoder:
    """The observation encoder of an Archmagi configuration (``Game.encoder``)."""
    return ArchmagiEncoder(setup)
