"""Pandoria Merchants' observation tensor read from the state itself (the adapters' fast path
of :class:`~rulebook.pandoria_merchants.encoding.PandoriaEncoder`, every version): the very
values ``fill`` writes for ``observation(p)``, read from the fields the view
(:mod:`rulebook.pandoria_merchants.view`) reads for them, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from rulebook.core import RulebookError
from rulebook.core.spaces import lookup
from rulebook.core.writes import Writes, sums
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.rules import PandoriaState
from rulebook.pandoria_merchants.scales import (
    ARTIFACT_SCALE,
    FACES,
    MARKS,
    ROUND_SCALE,
    SPELLS_SCALE,
    SYMBOLS,
)
from rulebook.pandoria_merchants.terms import CARD_STATES, DRAW, DRAWING, NONE, SPELL

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rulebook.pandoria_merchants.content import Content

#: the table's kept runs (:meth:`StateTensor.write_run`): the map's hexes and the Artifacts on
#: them; the Realm sheet's shared parts (standard, solo); the solo map's Territory planes; the
#: solo part (the Trolls' table and claims)
MAP_RUN, SHEET_RUN, ZONES_RUN, SOLO_RUN = range(4)


class Layout(Protocol):
    """What the fast path reads of the encoder
    (:class:`~rulebook.pandoria_merchants.encoding.PandoriaEncoder`, which declares the tensor's
    parts) when it is made: the configuration, the parts' positions (``at_*``, ``*_plane``) and
    the encoder's tables of names (name -> place)."""

    content: Content
    players: int
    family: bool
    solo: bool
    # the map: its size, planes and tokens (a hex's two characters, ``view.row_text``)
    width: int
    height: int
    hexes: int
    artifact_plane: int
    drawn_plane: int
    target_plane: int
    zone_plane: int
    token_at: dict[str, int]
    token_planes: npt.NDArray[np.float32]
    token_sets: list[list[list[int]]]
    # the table part's positions
    at_map: int
    at_you: int
    at_turn: int
    at_round: int
    at_phase: int
    at_dice: int
    at_spell: int
    at_drawing: int
    at_targets: int
    at_end: int
    at_blocked: int
    at_relics: list[int]
    at_monuments: int
    at_archive: int
    at_level: int
    at_territory: int
    at_finished: int
    at_scores: int
    at_troll_columns: int
    at_troll_claims: int
    at_totals: int
    # names by place, and the sizes and scales the values are divided by
    phases: dict[str, int]
    spells: dict[str, int]
    drawing: dict[str, int]
    cards: dict[str, int]
    states: dict[str, int]
    relics: dict[str, int]
    relic_table: list[dict[str, int]]
    monument_table: dict[str, int]
    guilds: dict[str, int]
    family_spells: dict[str, int]
    claims: dict[str, int]
    levels: dict[str, int]
    room_sizes: list[int]
    dice: int
    columns: int
    territories: int
    spell_copies: int
    max_power: float
    maximum: float
    preprinted: float
    score_scale: float
    top_value: float
    top_monument: float


class StateTensor:
    """The tensor of every version read from its state (:class:`PandoriaEncoder`'s fast path):
    its positions and tables, and what lists each part into a :class:`Writes`. A class of its
    own so that, compiled, its attributes sit at fixed places and its methods are called
    directly (the encoder derives from a Python class, so it looks up each by name). Amounts
    that are 0 are not listed: the rows they go into are zeros."""

    def __init__(self, enc: Layout) -> None:
        c = enc.content
        self.players, self.hexes, self.height = enc.players, enc.hexes, enc.height
        self.width = enc.width
        self.at_map, self.at_you, self.at_turn = enc.at_map, enc.at_you, enc.at_turn
        self.at_round, self.at_phase, self.at_dice = enc.at_round, enc.at_phase, enc.at_dice
        self.at_spell, self.at_drawing = enc.at_spell, enc.at_drawing
        self.at_targets, self.at_end, self.at_blocked = enc.at_targets, enc.at_end, enc.at_blocked
        self.artifact_plane = enc.artifact_plane
        self.drawn_plane, self.target_plane = enc.drawn_plane, enc.target_plane
        self.phases, self.spells, self.drawing = enc.phases, enc.spells, enc.drawing
        self.dice, self.max_power, self.preprinted = enc.dice, enc.max_power, enc.preprinted
        self.columns, self.score_scale, self.maximum = enc.columns, enc.score_scale, enc.maximum
        self.top_value, self.top_monument = enc.top_value, enc.top_monument
        self.family, self.solo = enc.family, enc.solo
        #: per viewer and token, its map planes (a map of zeros is written whole from it)
        self.token_planes = enc.token_planes
        #: every hex's bit, and the bytes of a mask of hexes (:meth:`mask_bytes`)
        self.all_hexes, self.mask_size = (1 << self.hexes) - 1, (self.hexes + 7) // 8
        #: this version's kept runs (:meth:`kept_runs`, :meth:`write_run`): no Realm sheet in
        #: the family version, the Territories' and the solo part solo
        self.runs = [MAP_RUN]
        if not self.family:
            self.runs.append(SHEET_RUN)
        if self.solo:
            self.runs += [ZONES_RUN, SOLO_RUN]
        #: per kept run, its span of the table part: the map's planes of the hexes and the
        #: Artifacts on them (per viewer, patched); the blocked columns up to the Monuments
        #: left; the solo map's two Territory planes; the solo part
        zones = enc.at_map + enc.zone_plane * enc.hexes
        self.spans = {
            MAP_RUN: (enc.at_map, enc.at_map + (enc.artifact_plane + 1) * enc.hexes, True, True),
            SHEET_RUN: (enc.at_blocked, enc.at_monuments + len(enc.monument_table), False, False),
            ZONES_RUN: (zones, zones + 2 * enc.hexes, False, False),
            SOLO_RUN: (enc.at_level, enc.at_totals + 2, False, False),
        }
        # family: the Spell Archive's rooms, each seat's Guild (the content's, seat by seat, as
        # the view shows it) and the Spells held, counted per Archive name
        self.at_archive, self.room_sizes = enc.at_archive, enc.room_sizes
        self.guild_of = (
            [lookup(enc.guilds, c.guilds[p][0], "Guild") for p in range(self.players)]
            if self.family
            else []
        )
        self.family_spells = enc.family_spells
        self.spell_places = list(range(len(enc.family_spells)))
        self.spell_step = 1 / enc.spell_copies
        self.held_sums = sums(self.spell_step, sum(enc.room_sizes))
        # solo: the Territories, the Trolls' table and claims
        self.zone_plane, self.territories = enc.zone_plane, enc.territories
        self.levels, self.claims = enc.levels, enc.claims
        self.at_level, self.at_territory = enc.at_level, enc.at_territory
        self.at_finished, self.at_scores = enc.at_finished, enc.at_scores
        self.at_troll_columns, self.at_troll_claims = enc.at_troll_columns, enc.at_troll_claims
        self.at_totals = enc.at_totals
        self.claim_places = list(range(len(enc.claims)))
        self.claim_sums = sums(1 / 3, 2 * len(enc.claims))
        #: the last map read and the hexes of each of its Territories (:meth:`territory_hexes`)
        self.zones: tuple[object, list[list[int]]] = (None, [])
        at = enc.token_at
        #: the tokens :meth:`hex_token` tells apart: per Resource kind its symbol with each
        #: mark (none, then ``MARKS``), a Swamp, empty land, a Worker of each seat, a lake's
        #: Ship space, a Ship of each seat on one, water
        self.kind_tokens = [[at[k + m] for m in " " + MARKS] for k in SYMBOLS[: len(KINDS)]]
        self.swamp_token, self.empty_token = at["# "], at[". "]
        self.worker_tokens = [at[f"{p} "] for p in range(self.players)]
        self.space_token, self.water_token = at["S "], at["~ "]
        self.ship_tokens = [at[f"S{p}"] for p in range(self.players)]
        width = len(enc.states)
        #: per Realm card: where it sits in the state's row, and its first slot in a block
        self.card_slots = [(card.index, enc.cards[card.id] * width) for card in c.cards]
        self.state_at = [
            -1 if code == NONE else enc.states[name] for code, name in enumerate(CARD_STATES)
        ]
        #: per Relic, its table's places (in the row); the same for the Monuments
        self.relic_at: list[list[int]] = []
        for n, row in c.relics:
            k = enc.relics[f"relic-{n}"]
            self.relic_at.append([enc.at_relics[k] + enc.relic_table[k][str(v)] for v, _ in row])
        self.monument_at = [enc.at_monuments + enc.monument_table[str(v)] for v, _ in c.monuments]
        #: per viewer, token shown before (+1: 0 for none, the planes are zeros) and token
        #: shown now: the planes (times the hexes) that go to 0 and those that go to 1
        hexes = self.hexes
        self.retokens: list[list[list[tuple[list[int], list[int]]]]] = []
        for sets in enc.token_sets:
            by_was: list[list[tuple[list[int], list[int]]]] = [
                [([], [plane * hexes for plane in now]) for now in sets]
            ]
            for was in sets:
                by_was.append(
                    [
                        (
                            [plane * hexes for plane in was if plane not in now],
                            [plane * hexes for plane in now if plane not in was],
                        )
                        for now in sets
                    ]
                )
            self.retokens.append(by_was)

    def fill_table(self, s: PandoriaState, you: int, base: int, out: Writes) -> None:
        """:meth:`PandoriaEncoder.fill_table_state`."""
        n = self.players
        ones = out.ones
        hexes, at_map = self.hexes, base + self.at_map
        drawn = at_map + self.drawn_plane * hexes
        if s.r1 >= 0:
            ones.append(drawn + s.r1)
        if s.r2 >= 0:
            ones.append(drawn + s.r2)
        spelling = s.phase == SPELL
        if spelling and s.spell_hex >= 0:
            ones.append(at_map + self.target_plane * hexes + s.spell_hex)
        ones.append(base + self.at_you + you)
        ones.append(base + self.at_turn + (s.turn - you) % n)
        if s.round:
            out.amount(base + self.at_round, s.round / ROUND_SCALE)
        ones.append(base + self.at_phase + self.phases[s.phase])
        if len(s.dice) > self.dice:
            raise RulebookError(f"{len(s.dice)} dice, more than the {self.dice} there is room for")
        faces = len(FACES)
        at = base + self.at_dice
        for face in s.dice:
            ones.append(at + (face if face >= 0 else faces - 1))
            at += faces
        if spelling:
            if s.spell:
                ones.append(base + self.at_spell + lookup(self.spells, s.spell, "Spell"))
            if s.power:
                out.amount(base + self.at_targets, s.power / self.max_power)
            if s.spell_left:
                out.amount(base + self.at_targets + 1, s.spell_left / self.max_power)
        if s.phase == DRAW:
            ones.append(base + self.at_drawing + lookup(self.drawing, DRAWING[s.item], "symbol"))
        if s.pre_enclosed:
            out.amount(base + self.at_end, s.pre_enclosed / self.preprinted)
        if s.end_triggered:
            ones.append(base + self.at_end + 1)
        if self.family:
            self.write_archive(s, base, out)

    def write_archive(self, s: PandoriaState, base: int, out: Writes) -> None:
        """The Spell Archive (family, :meth:`PandoriaEncoder._fill_archive`): per room of the
        player count, its Spells taken / its Spells, and 1 if it is the room being filled."""
        rooms, taken, sizes = s.rooms, s.taken, self.room_sizes
        if len(rooms) != len(sizes):
            raise RulebookError(f"{len(rooms)} Archive rooms, not {len(sizes)}")
        at = base + self.at_archive
        for k in range(len(rooms)):
            r = rooms[k]
            if taken[r]:
                out.amount(at, taken[r] / sizes[k])
            if r == s.open_room:
                out.ones.append(at + 1)
            at += 2

    def kept_runs(self) -> list[tuple[int, int, bool, bool]]:
        """:meth:`PandoriaEncoder.kept_runs`: this version's runs' spans, in order."""
        return [self.spans[part] for part in self.runs]

    def write_run(
        self, s: PandoriaState, you: int, run: int, last: object, base: int, out: Writes
    ) -> object:
        """Kept run ``run`` (:meth:`PandoriaEncoder.kept_runs`) from the record ``last``."""
        part = self.runs[run]
        if part == MAP_RUN:
            return self.write_map(s, you, last, base, out)
        if part == SHEET_RUN:
            return self.write_sheet(s, last, base, out)
        if part == ZONES_RUN:
            return self.write_zones(s, last, base, out)
        return self.write_solo(s, last, base, out)

    def write_map(self, s: PandoriaState, you: int, last: object, base: int, out: Writes) -> object:
        """The map's planes of :meth:`PandoriaEncoder._fill_map` but the drawn and target ones
        (the hexes of ``view.hex_text`` and the Artifacts on them) as ``you`` sees them, kept
        per row and viewer (:class:`MapShown`): only the hexes whose fields changed since are
        read again, only the planes of those that show another token written, and only the
        Artifacts that changed."""
        artifacts = base + self.at_map + self.artifact_plane * self.hexes
        if not isinstance(last, MapShown):
            # a map of zeros: every hex's planes in one run, by the tokens' table
            ids = self.map_tokens(s)
            out.chunk(base + self.at_map, self.token_planes[you][ids].T.ravel())
            shown = MapShown(s, ids)
            self.write_artifacts(shown.artifacts, {}, artifacts, out)
            return shown
        if last.board is not s.board:
            # another game's map: each hex that shows another token
            ids = self.map_tokens(s)
            was = last.tokens
            for h in range(self.hexes):
                if was[h] != ids[h]:
                    self.retoken(you, h, was[h], ids[h], base, out)
            shown = MapShown(s, ids)
            self.write_artifacts(shown.artifacts, last.artifacts, artifacts, out)
            return shown
        changed = last.changed(s)
        if not changed:
            return last
        # the tokens' list passes to the new record (the row's last one is dropped)
        shown = MapShown(s, last.tokens)
        tokens = shown.tokens
        for h in changed:
            i = self.hex_token(s, h)
            if i != tokens[h]:
                self.retoken(you, h, tokens[h], i, base, out)
                tokens[h] = i
        if shown.artifacts != last.artifacts:
            self.write_artifacts(shown.artifacts, last.artifacts, artifacts, out)
        return shown

    def hex_token(self, s: PandoriaState, h: int) -> int:
        """Hex ``h``'s token (:meth:`PandoriaEncoder._tokens`): ``view.hex_text(s, h)``'s
        branches, read into the token's number instead of its two characters (which cost
        more to make and look up than the rest; ``tests/test_fast_encoding.py`` holds the
        two equal at every step)."""
        b = s.board
        bit = 1 << h
        if not b.land & bit:
            if h in s.ships:
                p = s.ships[h]
                if not 0 <= p < self.players:
                    raise RulebookError("the map shows a symbol or mark no hex can hold")
                return self.ship_tokens[p]
            return self.space_token if h in b.lake_of else self.water_token
        if s.swamp & bit:
            return self.swamp_token
        kind = s.kind_at(h)
        if kind >= 0:
            mark = 0  # none, then the marks of MARKS: @ * x a
            if b.starts_mask & bit:
                mark = 1
            elif b.preprinted_mask & bit:
                mark = 2
            if s.scored & bit:
                mark = 3
            if h in s.artifacts:
                mark = 4
            return self.kind_tokens[kind][mark]
        token = self.empty_token
        for p, w in enumerate(s.workers):
            if w & bit:
                token = self.worker_tokens[p]
        return token

    def retoken(self, you: int, h: int, was: int, token: int, base: int, out: Writes) -> None:
        """Hex ``h``'s planes from token ``was`` (-1: none, the planes are zeros) to ``token``:
        a 0 at each plane ``was`` set and ``token`` does not, a 1 at each plane ``token`` sets
        and ``was`` did not."""
        zeros, ones = self.retokens[you][was + 1][token]
        at = base + self.at_map + h
        for plane in zeros:
            out.amount(at + plane, 0.0)
        listed = out.ones
        for plane in ones:
            listed.append(at + plane)

    @staticmethod
    def write_artifacts(now: dict[int, int], before: dict[int, int], at: int, out: Writes) -> None:
        """The Artifacts plane (at ``at``) where the Artifacts on a hex changed."""
        for h, count in now.items():
            if before.get(h, 0) != count:
                out.amount(at + h, count / ARTIFACT_SCALE)
        for h in before:
            if h not in now:
                out.amount(at + h, 0.0)

    def map_tokens(self, s: PandoriaState) -> list[int]:
        """Every hex's token (:meth:`PandoriaEncoder._tokens`): ``view.row_text``'s hexes,
        read as :meth:`hex_token` reads one, but with the map's masks (a bit per hex) as
        bytes first (the solo map's 216 hexes make them large integers, each test of a bit
        then a new integer)."""
        b = s.board
        if b.width != self.width or b.height != self.height:
            raise RulebookError(f"not a map of {self.height} rows of {self.width} hexes")
        if len(s.workers) != self.players:
            raise RulebookError("the map is another player count's")
        land, swamp, scored = (
            self.mask_bytes(b.land),
            self.mask_bytes(s.swamp),
            self.mask_bytes(s.scored),
        )
        starts, preprinted = self.mask_bytes(b.starts_mask), self.mask_bytes(b.preprinted_mask)
        workers = [self.mask_bytes(w) for w in s.workers]
        res, ships, artifacts = s.res, s.ships, s.artifacts
        ids: list[int] = []
        for h in range(self.hexes):
            i, bit = h >> 3, 1 << (h & 7)
            if not land[i] & bit:
                if h in ships:
                    p = ships[h]
                    if not 0 <= p < self.players:
                        raise RulebookError("the map shows a symbol or mark no hex can hold")
                    ids.append(self.ship_tokens[p])
                else:
                    ids.append(self.space_token if h in b.lake_of else self.water_token)
            elif swamp[i] & bit:
                ids.append(self.swamp_token)
            elif res[h]:
                mark = 0  # none, then the marks of MARKS: @ * x a
                if starts[i] & bit:
                    mark = 1
                elif preprinted[i] & bit:
                    mark = 2
                if scored[i] & bit:
                    mark = 3
                if h in artifacts:
                    mark = 4
                ids.append(self.kind_tokens[res[h] - 1][mark])
            else:
                token = self.empty_token
                for p in range(len(workers)):
                    if workers[p][i] & bit:
                        token = self.worker_tokens[p]
                ids.append(token)
        return ids

    def mask_bytes(self, mask: int) -> bytes:
        """A mask of hexes (bit ``h``: hex ``h``) as bytes, hex ``h`` at bit ``h % 8`` of
        byte ``h // 8`` (the bits past the map's hexes left out)."""
        return (mask & self.all_hexes).to_bytes(self.mask_size, "little")

    def write_sheet(self, s: PandoriaState, last: object, base: int, out: Writes) -> object:
        """The blocked columns and the Relics and Monuments left (:class:`SheetShown`)."""
        if isinstance(last, SheetShown) and last.shows(s):
            return last
        ones = out.ones
        blocked = s.blocked
        if blocked:
            for col in range(self.columns):
                if blocked >> col & 1:
                    ones.append(base + self.at_blocked + col)
        for relic_at, left in zip(self.relic_at, s.relic_left, strict=True):
            for a, here in zip(relic_at, left, strict=True):
                if here:
                    ones.append(base + a)
        for a, here in zip(self.monument_at, s.monument_left, strict=True):
            if here:
                ones.append(base + a)
        return SheetShown(s)

    def write_zones(self, s: PandoriaState, last: object, base: int, out: Writes) -> object:
        """The solo map's two Territory planes (:meth:`PandoriaEncoder._fill_map`, from the
        view's ``map.territories``): the hexes of the Territory being played, and those of
        the Territories finished but that one (:class:`ZonesShown`)."""
        if isinstance(last, ZonesShown) and last.shows(s):
            return last
        b, hexes = s.board, self.hexes
        board, zone_hexes = self.zones
        if b is not board:
            zone_hexes = self.territory_hexes(b.territory)
            self.zones = (b, zone_hexes)  # one value: a batch in another thread reads a pair
        here = base + self.at_map + self.zone_plane * hexes
        done = here + hexes
        playing, ones = s.territory, out.ones
        for t in (playing, *s.finished):
            if not 0 <= t < len(zone_hexes):
                raise RulebookError(f"no Territory {t} on the solo map")
            at = here if t == playing else done
            for h in zone_hexes[t]:
                ones.append(at + h)
        return ZonesShown(s)

    def territory_hexes(self, territory: Sequence[int]) -> list[list[int]]:
        """Per Territory (0: none, water), its hexes: ``map.territories`` of the view, a
        Territory's number per hex."""
        if len(territory) != self.hexes:
            raise RulebookError(f"not a Territory map of {self.height} rows of {self.width} hexes")
        hexes: list[list[int]] = [[] for _ in range(self.territories + 1)]
        for h in range(self.hexes):
            t = territory[h]
            if not 0 <= t <= self.territories:
                raise RulebookError("the Territory map names no Territory of the solo map")
            hexes[t].append(h)
        return hexes

    def write_solo(self, s: PandoriaState, last: object, base: int, out: Writes) -> object:
        """The solo part (:meth:`PandoriaEncoder._fill_solo`, and the Territories finished):
        the level, the Territory being played and those finished, your points and the Trolls'
        in each finished Territory, the columns and the Relics and Monuments the Trolls
        claimed, the Trolls' total and your points in this Territory so far
        (:class:`SoloShown`: the totals are worked out again only when those changed)."""
        if isinstance(last, SoloShown) and last.shows(s):
            return last
        shown = SoloShown(s)
        t, scale = self.territories, self.score_scale
        out.ones.append(base + self.at_level + lookup(self.levels, s.level, "level"))
        out.hot(base + self.at_territory, t, s.territory - 1)
        for done in s.finished:
            out.hot(base + self.at_finished, t, done - 1)
        yours, trolls = s.my_territory, s.trolls
        if len(yours) > t or len(trolls) > t:
            raise RulebookError(f"scores of more Territories than the {t} of the solo map")
        at = base + self.at_scores
        for i in range(len(yours)):
            if yours[i]:
                out.amount(at + 2 * i, yours[i] / scale)
        for i in range(len(trolls)):
            if trolls[i]:
                out.amount(at + 2 * i + 1, trolls[i] / scale)
        for col in s.troll_columns:
            out.hot(base + self.at_troll_columns, self.columns, col)
        if s.troll_claims:
            claimed = [lookup(self.claims, name, "Trolls' claim") for name in s.troll_claims]
            claim_sums = self.claim_sums
            if len(claimed) >= len(claim_sums):
                claim_sums = sums(1 / 3, len(claimed))
            out.count(self.claim_places, claimed, base + self.at_troll_claims, claim_sums)
        if shown.trolls_total:
            out.amount(base + self.at_totals, shown.trolls_total / scale)
        if shown.points_now:
            out.amount(base + self.at_totals + 1, shown.points_now / scale)
        return shown

    def fill_seat(
        self, s: PandoriaState, p: int, base: int, at: Mapping[str, int], out: Writes
    ) -> None:
        """:meth:`PandoriaEncoder.fill_seat_state`."""
        if self.family:
            self.fill_family_seat(s, p, base, at, out)
            return
        ones = out.ones
        state_at = self.state_at
        score = s.score(p)
        if score:
            out.amount(base + at["score"], score / self.score_scale)
        start = base + at["tracks"]
        for level in s.tracks[p]:
            if level:
                out.amount(start, level / self.maximum)
            start += 1
        states = s.cards[p]
        start = base + at["cards"]
        for i, slot in self.card_slots:
            code = states[i]
            if code != NONE:
                ones.append(start + slot + state_at[code])
        relics, monuments = s.relics_won[p], s.monuments_won[p]
        if s.held_artifacts[p]:
            out.amount(base + at["artifacts"], s.held_artifacts[p] / ARTIFACT_SCALE)
        if relics:
            out.amount(base + at["relics"], len(relics) / 4)
            out.amount(base + at["relics"] + 1, sum(relics) / (self.top_value * 2))
        if monuments:
            out.amount(base + at["monuments"], len(monuments) / 3)
            out.amount(base + at["monuments"] + 1, sum(monuments) / (self.top_monument * 2))

    def fill_family_seat(
        self, s: PandoriaState, p: int, base: int, at: Mapping[str, int], out: Writes
    ) -> None:
        """A seat's block in the family version: its score (the VP), its Guild, the Spells it
        holds per Archive name and the Spells it cast."""
        score = s.score(p)
        if score:
            out.amount(base + at["score"], score / self.score_scale)
        if not 0 <= p < len(self.guild_of):
            raise RulebookError(f"no Guild for seat {p}")
        out.ones.append(base + at["guild"] + self.guild_of[p])
        held = s.held[p]
        if held:
            names = [lookup(self.family_spells, name, "Spell") for name in held]
            held_sums = self.held_sums
            if len(names) >= len(held_sums):
                held_sums = sums(self.spell_step, len(names))
            out.count(self.spell_places, names, base + at["spells"], held_sums)
        if s.used_spells[p]:
            out.amount(base + at["used"], s.used_spells[p] / SPELLS_SCALE)


class SoloShown:
    """What a game's solo part showed (:meth:`StateTensor.write_solo`): the fields it reads,
    the Trolls' total and your points in this Territory so far."""

    def __init__(self, s: PandoriaState) -> None:
        self.level = s.level
        self.territory = s.territory
        self.finished = s.finished
        self.yours = s.my_territory
        self.trolls = s.trolls
        self.columns = s.troll_columns
        self.claims = s.troll_claims
        self.trolls_total = sum(s.trolls)
        self.points_now = s.vp_total(0) - s.vp_start

    def shows(self, s: PandoriaState) -> bool:
        return (
            self.points_now == s.vp_total(0) - s.vp_start
            and self.trolls == s.trolls
            and self.territory == s.territory
            and self.finished == s.finished
            and self.yours == s.my_territory
            and self.columns == s.troll_columns
            and self.claims == s.troll_claims
            and self.level == s.level
        )


class ZonesShown:
    """What a game's Territory planes showed (:meth:`StateTensor.write_zones`)."""

    def __init__(self, s: PandoriaState) -> None:
        self.board = s.board
        self.territory = s.territory
        self.finished = s.finished

    def shows(self, s: PandoriaState) -> bool:
        return (
            self.board is s.board and self.territory == s.territory and self.finished == s.finished
        )


class SheetShown:
    """What a game's blocked columns and Relics and Monuments left showed
    (:meth:`PandoriaEncoder.write_run`)."""

    def __init__(self, s: PandoriaState) -> None:
        self.blocked = s.blocked
        self.relic_left = s.relic_left
        self.monument_left = s.monument_left

    def shows(self, s: PandoriaState) -> bool:
        return (
            self.blocked == s.blocked
            and self.monument_left == s.monument_left
            and self.relic_left == s.relic_left
        )


class MapShown:
    """What one kept map shows (:meth:`StateTensor.write_map`): the fields ``view.hex_text``
    reads, each hex's token as written, and the Artifacts on the map."""

    def __init__(self, s: PandoriaState, tokens: list[int]) -> None:
        self.board = s.board
        self.tokens = tokens
        self.res = s.res
        self.swamp = s.swamp
        self.scored = s.scored
        self.workers = tuple(s.workers)
        self.ships = dict(s.ships)
        self.artifacts = dict(s.artifacts)

    def changed(self, s: PandoriaState) -> list[int]:
        """The hexes whose fields or Artifacts changed since (some more than once)."""
        changed: list[int] = []
        res, old = s.res, self.res
        if res != old:
            changed += [h for h in range(len(res)) if res[h] != old[h]]
        bits = (s.swamp ^ self.swamp) | (s.scored ^ self.scored)
        workers, was = s.workers, self.workers
        if len(workers) != len(was):
            raise RulebookError("the kept map is another player count's")
        for k in range(len(workers)):
            bits |= workers[k] ^ was[k]
        while bits:
            low = bits & -bits
            changed.append(low.bit_length() - 1)
            bits ^= low
        if s.ships != self.ships:
            changed += [h for h, _ in set(s.ships.items()) ^ set(self.ships.items())]
        if s.artifacts != self.artifacts:
            changed += [h for h, _ in set(s.artifacts.items()) ^ set(self.artifacts.items())]
        return changed
