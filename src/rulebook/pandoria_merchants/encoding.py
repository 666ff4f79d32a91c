"""Pandoria Merchants' observation tensor, built from ``observation(p)`` alone (see
:mod:`rulebook.core.spaces`; slices: ``docs/research.md``).

The map first, as planes (channel, row, column) over the configuration's hex grid: each symbol,
the Workers and Ships of every seat (relative: the viewer's first), Swamps, lakes, Starting and
pre-printed spaces, enclosed and scored areas, Artifacts, this turn's Resources and Spell target
and, solo, the Territory being played and those finished. Then the turn (whose, the round, the
phase, the Resource Dice, the Spell being cast and the symbol to draw next), the end condition,
the Realm sheet's shared parts (blocked columns, Relics and Monuments left), the Spell Archive
(family) or the Trolls' scores and claims (solo), and one block per seat, the viewer first:
score, Resource tracks, the state of every card of its Realm sheet, Artifacts, Relics and
Monuments (standard, solo); Guild and Spells (family). Nothing in this game is hidden.

The adapters' fast path reads the same values from the state itself, in every version
(:mod:`rulebook.pandoria_merchants.tensor`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rulebook.core import RulebookError, Setup
from rulebook.core.spaces import (
    DirectEncoder,
    Vector,
    hot,
    index_of,
    lookup,
    positions,
    relative,
)
from rulebook.core.writes import Writes
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.content import content
from rulebook.pandoria_merchants.rules import PandoriaState
from rulebook.pandoria_merchants.scales import (
    ARTIFACT_SCALE,
    FACES,
    MARKS,
    ROUND_SCALE,
    SPELLS_SCALE,
    SYMBOLS,
)
from rulebook.pandoria_merchants.tensor import StateTensor
from rulebook.pandoria_merchants.terms import (
    ACTION,
    BRIDGE,
    BUY,
    CARD_STATES,
    CLAIM,
    DRAW,
    DRAWING,
    OVER,
    RESOURCES,
    SETUP,
    SPELL,
    TROLL_COLUMN,
    TROLL_ELEMENT,
    WILD,
)

PHASES = (SETUP, WILD, DRAW, ACTION, SPELL, BUY, CLAIM, TROLL_COLUMN, TROLL_ELEMENT, BRIDGE, OVER)
#: scores: about the best seat's final score (solo adds up 8 Territories against the Trolls)
SCORE_SCALE = {"standard": 60.0, "family": 60.0, "solo": 200.0}
#: caps (times the scale) of the amounts the rules leave open, at least twice the largest seen
#: in simulated games: Artifacts on a hex (the map's planes are otherwise 0 or 1), rounds,
#: scores (1.5), solo Territory scores (-0.15 to 0.6) and totals (-0.3 to 1.4), Artifacts held,
#: Relics' and Monuments' values (1.3) and Spells cast
MAP_CAP, ROUND_CAP, SCORE_LOW, SCORE_CAP, TERRITORY_LOW, TERRITORY_CAP = (
    2.0,
    3.0,
    -1.0,
    4.0,
    -1.0,
    2.0,
)
TOTAL_LOW, TOTAL_CAP, ARTIFACT_CAP, RELIC_CAP, MONUMENT_CAP, SPELLS_CAP = (
    -1,
    4.0,
    3.0,
    3.0,
    3.0,
    3.0,
)


class PandoriaEncoder(DirectEncoder):
    STATE = PandoriaState
    IGNORED: Mapping[str, str] = {
        "variant": "fixed by the configuration",
        "columns": "fixed by the Realm sheet",
        "map.columns": "fixed by the map",
        "map.columns[*]": "fixed by the map",
        "realm": "fixed by the Realm sheet",
        "end_needed": "fixed by the player count",
        "archive[*].room": "fixed by the player count: the rooms in order",
        "archive[*].level": "fixed by the player count",
        "archive[*].spells": "fixed by the player count",
        "archive[*].spells[*]": "fixed by the player count",
        "seats[*].ships": "shown on the map",
        "seats[*].ships[*]": "shown on the map",
        "seats[*].guild_resource": "follows from the Guild",
        "solo.table": "follows from the level",
        "solo.table[*]": "follows from the level",
        "solo.bridges": "fixed by the solo map",
        "solo.bridges[*]": "fixed by the solo map",
        "solo.won": "at the end: follows from the scores",
        "solo.final": "at the end: follows from the scores",
        "rating": "solo, at the end: follows from the scores",
        "rage": "for people: the Rage has scored by the time it is seen (this turn or the last)",
        "solo.territories": "fixed by the solo map",
        "solo.playing": "follows from the Territories finished and the one played",
        "solo.progress": "words for people: follows from the Territories finished",
        "solo.troll_points": "words for people: follows from the table, yours and the Trolls'",
        "solo.trolls_explained": "words for people: follows from the Trolls' points",
    }

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        c = self.content = content()
        n = self.players
        self.mode = setup.variant
        self.solo = self.mode == "solo"
        self.family = self.mode == "family"
        board = c.boards[0 if self.solo else n]
        self.width, self.height = board.width, board.height
        self.hexes = self.width * self.height
        self.hex_index = {board.names[h]: h for h in range(self.hexes)}
        self.phases = index_of(PHASES)
        self.faces = index_of(FACES)
        self.kinds = index_of(KINDS)
        self.drawing = index_of(DRAWING)
        spells = [(card.spell, card.power) for card in c.cards]
        spells += [(fs.spell, fs.power) for r in c.rooms for fs in r.spells]
        spells += list(c.default_power.items())
        self.max_power = float(max(power for _, power in spells) or 1)
        #: two Resource Dice, or as many as a Terrain Spell rolls
        self.dice = max(2, *(power for spell, power in spells if spell == "terrain"))
        rooms = [r for r in c.rooms if r.min_players <= n] if self.family else []
        self.rooms = index_of(r.id for r in rooms)
        self.room_sizes = [len(r.spells) for r in rooms]
        self.spells = index_of(
            sorted(
                {card.spell for card in c.cards} | {fs.spell for r in c.rooms for fs in r.spells}
            )
        )
        self.family_spells = index_of(sorted({fs.name for r in rooms for fs in r.spells}))
        #: the most copies of one Spell name in the Archive's rooms (held Spells are divided by it)
        self.spell_copies = max(
            Counter(fs.name for r in rooms for fs in r.spells).values(), default=1
        )
        self.guilds = index_of(name for name, _ in c.guilds)
        self.cards = index_of(card.id for card in c.cards)
        self.states = index_of(CARD_STATES[1:])
        self.columns = c.columns
        self.relics = index_of(f"relic-{artifacts}" for artifacts, _ in c.relics)
        #: per Relic, its table's values (highest first) -> place; the same for the Monuments
        self.relic_table = [index_of(str(v) for v, _ in row) for _, row in c.relics]
        self.monument_table = index_of(str(v) for v, _ in c.monuments)
        self.top_value = float(max(v for _, row in c.relics for v, _ in row) or 1)
        self.top_monument = float(max(v for v, _ in c.monuments) or 1)
        self.maximum = float(c.tracks.maximum)
        self.preprinted = float(len(board.preprinted) or 1)
        self.territories = c.solo.territories
        self.claims = index_of([*self.relics, "monument"])
        self.levels = index_of(("beginner", "intermediate", "expert"))
        self.score_scale = SCORE_SCALE[self.mode]
        #: map planes: symbols, marks, a Worker and a Ship per seat, then the rest
        self.plane = {
            **{s: i for i, s in enumerate(SYMBOLS)},
            **{m: len(SYMBOLS) + i for i, m in enumerate(MARKS)},
        }
        self.worker_plane = len(SYMBOLS) + len(MARKS)
        self.ship_plane = self.worker_plane + n
        self.space_plane = self.ship_plane + n  # an empty Ship space
        self.artifact_plane = self.space_plane + 1
        self.drawn_plane = self.artifact_plane + 1
        self.target_plane = self.drawn_plane + 1
        self.zone_plane = self.target_plane + 1  # solo
        self.planes = self.zone_plane + (2 if self.solo else 0)
        self._tokens()
        self._declare()
        self._prepare_fast()

    def _tokens(self) -> None:
        """Every hex a map can show (symbol and mark, ``view.row_text``) numbered
        (``token_id``, by the two characters' codes), and per viewer the map planes each sets:
        symbol, mark, a seat's Worker or Ship (relative to the viewer), an empty Ship space."""
        n = self.players
        digits = [str(p) for p in range(n)]
        tokens = [s + m for s in SYMBOLS for m in " " + MARKS]
        tokens += [d + " " for d in digits] + ["S "] + ["S" + d for d in digits]
        self.token_id = np.full(1 << 16, -1, dtype=np.int16)
        #: the same numbers by the hex's text
        self.token_at = {token: i for i, token in enumerate(tokens)}
        table = np.zeros((n, len(tokens), self.space_plane + 1), dtype=np.float32)
        for i, token in enumerate(tokens):
            self.token_id[ord(token[0]) | ord(token[1]) << 8] = i
            sym, mark = token[0], token[1]
            for you in range(n):
                row = table[you, i]
                if sym in SYMBOLS:
                    row[SYMBOLS.index(sym)] = 1.0
                    if mark != " ":
                        row[len(SYMBOLS) + MARKS.index(mark)] = 1.0
                elif sym.isdigit():
                    row[self.worker_plane + relative(int(sym), you, n)] = 1.0
                elif mark == " ":
                    row[self.space_plane] = 1.0
                else:
                    row[self.ship_plane + relative(int(mark), you, n)] = 1.0
        self.token_planes = table
        #: per viewer and token, the planes it sets (a changed hex is written one at a time)
        self.token_sets = [
            [[int(k) for k in np.flatnonzero(table[you, i])] for i in range(len(tokens))]
            for you in range(n)
        ]

    # -- layout ------------------------------------------------------------------------------
    def _declare(self) -> None:
        n, add = self.players, self.parts.add
        planes = [
            *(
                f"{s} ({name})"
                for s, name in zip(SYMBOLS, (*KINDS, "swamp", "empty land", "lake"), strict=True)
            ),
            *(
                f"mark {m} ({name})"
                for m, name in zip(
                    MARKS,
                    ("Starting space", "pre-printed", "enclosed and scored", "Artifact"),
                    strict=True,
                )
            ),
            *(f"Worker of seat {k}" for k in range(n)),
            *(f"Ship of seat {k}" for k in range(n)),
            "empty Ship space",
            f"Artifacts on the hex / {ARTIFACT_SCALE:g}",
            "a Resource drawn this turn",
            "the Spell's last target (Swamp)",
            *(("in the Territory being played", "in a finished Territory") if self.solo else ()),
        ]
        self.at_map = add(
            "map",
            self.planes * self.hexes,
            f"planes of {self.height} rows x {self.width} columns (row-major, A1 first; seats "
            f"relative): {'; '.join(f'{i}: {p}' for i, p in enumerate(planes))}",
            high=MAP_CAP,
            capped=True,
        )
        self.at_you = add("you", n, "one-hot: the viewer's seat number (0 = first player)")
        self.at_turn = add("turn", n, "one-hot: whose turn it is (relative: 0 = the viewer)")
        self.at_round = add("round", 1, f"the round / {ROUND_SCALE:g}", high=ROUND_CAP, capped=True)
        self.at_phase = add("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.at_dice = add(
            "dice",
            self.dice * len(FACES),
            f"per Resource Die ({self.dice}: two, or as many as a Terrain Spell rolls): one-hot "
            f"its face ({', '.join(FACES)}), all 0 when not rolled",
        )
        self.at_spell = add(
            "spell", len(self.spells), f"one-hot: the Spell being cast ({', '.join(self.spells)})"
        )
        self.at_drawing = add(
            "drawing", len(DRAWING), f"one-hot: the symbol to draw next ({', '.join(DRAWING)})"
        )
        self.at_targets = add(
            "spell_targets", 2, f"the Spell's power and targets left / {self.max_power:g}"
        )
        self.at_end = add(
            "end",
            2,
            f"pre-printed spaces enclosed / {self.preprinted:g}; 1 once the end is triggered",
        )
        sheet = 0 if self.family else 1
        self.at_blocked = add(
            "blocked_columns", sheet * self.columns, "per Realm column: 1 if blocked"
        )
        self.at_relics = [
            add(
                f"relics_left.{name}",
                sheet * len(table),
                f"per value of the {name} table ({', '.join(table)}): 1 if still to be made",
            )
            for name, table in zip(self.relics, self.relic_table, strict=True)
        ]
        self.at_monuments = add(
            "monuments_left",
            sheet * len(self.monument_table),
            f"per value of the Monument table ({', '.join(self.monument_table)}): 1 if still "
            "to be built",
        )
        self.at_archive = add(
            "archive",
            2 * len(self.rooms),
            f"per Archive room ({', '.join(self.rooms)}): Spells taken / its Spells; 1 if "
            "being filled",
        )
        solo = 1 if self.solo else 0
        t = self.territories
        self.at_level = add(
            "solo.level", solo * len(self.levels), "one-hot: beginner, intermediate, expert"
        )
        self.at_territory = add(
            "solo.territory", solo * t, "one-hot: the Territory being played (1 first)"
        )
        self.at_finished = add("solo.finished", solo * t, "per Territory: 1 if finished")
        self.at_scores = add(
            "solo.scores",
            solo * 2 * t,
            f"per Territory finished, in order: your points there, then the Trolls' / "
            f"{self.score_scale:g}",
            low=TERRITORY_LOW,
            high=TERRITORY_CAP,
            capped=True,
        )
        self.at_troll_columns = add(
            "solo.troll_columns",
            solo * self.columns,
            "per Realm column: 1 if the Trolls claimed it",
        )
        self.at_troll_claims = add(
            "solo.troll_claims",
            solo * len(self.claims),
            f"Relics and Monuments the Trolls claimed ({', '.join(self.claims)}) / 3",
        )
        self.at_totals = add(
            "solo.totals",
            solo * 2,
            f"the Trolls' total, your points in this Territory so far / {self.score_scale:g}",
            low=TOTAL_LOW,
            high=TOTAL_CAP,
            capped=True,
        )
        self.declare_seats(self._declare_seat)

    def _declare_seat(self, p: str) -> dict[str, int]:
        add = self.parts.add
        sheet = 0 if self.family else 1
        family = 1 if self.family else 0
        states = ", ".join(self.states)
        return {
            "score": add(
                p + "score",
                1,
                f"score / {self.score_scale:g}",
                low=SCORE_LOW,
                high=SCORE_CAP,
                capped=True,
            ),
            "tracks": add(
                p + "tracks",
                sheet * len(RESOURCES),
                f"Resource tracks ({', '.join(RESOURCES)}) / {self.maximum:g}",
            ),
            "cards": add(
                p + "cards",
                sheet * len(self.cards) * len(self.states),
                f"per Realm card (data file order): one-hot {states}, all 0 when not circled",
            ),
            "artifacts": add(
                p + "artifacts",
                sheet,
                f"Artifacts held / {ARTIFACT_SCALE:g}",
                high=ARTIFACT_CAP,
                capped=True,
            ),
            "relics": add(
                p + "relics",
                sheet * 2,
                f"Relics made / 4, their value / {self.top_value * 2:g}",
                high=RELIC_CAP,
                capped=True,
            ),
            "monuments": add(
                p + "monuments",
                sheet * 2,
                f"Monuments built / 3, their value / {self.top_monument * 2:g}",
                high=MONUMENT_CAP,
                capped=True,
            ),
            "guild": add(p + "guild", family * len(self.guilds), "one-hot: the Guild (family)"),
            "spells": add(
                p + "spells",
                family * len(self.family_spells),
                f"Spells held per Archive name ({', '.join(self.family_spells)}) / "
                f"{self.spell_copies} (the most copies of a name in the Archive)",
            ),
            "used": add(
                p + "used_spells",
                family,
                f"Spells cast / {SPELLS_SCALE:g}",
                high=SPELLS_CAP,
                capped=True,
            ),
        }

    # -- encoding ----------------------------------------------------------------------------
    def _hex(self, name: object) -> int:
        return lookup(self.hex_index, name, "hex")

    def fill(self, observation: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        obs, n = observation, self.players
        you = obs["you"]
        self._fill_map(obs, you, out, ones)
        hot(ones, self.at_you, n, you)
        hot(ones, self.at_turn, n, relative(obs["turn"], you, n))
        out[self.at_round] = obs["round"] / ROUND_SCALE
        hot(ones, self.at_phase, len(PHASES), lookup(self.phases, obs["phase"], "phase"))
        dice = obs["dice"]
        if len(dice) > self.dice:
            raise RulebookError(f"{len(dice)} dice, more than the {self.dice} there is room for")
        for d, face in enumerate(dice):
            hot(
                ones,
                self.at_dice + d * len(FACES),
                len(FACES),
                lookup(self.faces, face, "die face"),
            )
        if obs["spell"]:
            hot(ones, self.at_spell, len(self.spells), lookup(self.spells, obs["spell"], "Spell"))
        turn = obs["this_turn"]
        if turn["drawing"]:
            hot(
                ones, self.at_drawing, len(DRAWING), lookup(self.drawing, turn["drawing"], "symbol")
            )
        out[self.at_targets] = turn["spell_power"] / self.max_power
        out[self.at_targets + 1] = turn["spell_targets_left"] / self.max_power
        out[self.at_end] = obs["pre_printed_enclosed"] / self.preprinted
        out[self.at_end + 1] = obs["end_triggered"]
        if self.family:
            self._fill_archive(obs["archive"], out, ones)
        else:
            self._fill_sheet_shared(obs, out, ones)
        if self.solo:
            self._fill_solo(obs["solo"], out, ones)
        seats = obs["seats"]
        for p, at in self.seats(obs, ones):
            self._fill_seat(seats[p], at, out, ones)

    def _fill_map(self, obs: Mapping[str, Any], you: int, out: Vector, ones: list[int]) -> None:
        """The map's planes. A hex of ``map.rows`` is two characters, a symbol and a mark; each
        possible pair has its row of planes, so all hexes take one table lookup."""
        hexes, base = self.hexes, self.at_map
        m = obs["map"]
        tokens = np.frombuffer(
            map_text(m["rows"], self.height, self.width, 2 * self.width, "map"), dtype="<u2"
        )
        ids = self.token_id[tokens]
        if (ids < 0).any():
            raise RulebookError("the map shows a symbol or mark no hex can hold")
        planes = self.token_planes[you][ids]
        out[base : base + planes.size] = planes.T.ravel()
        artifacts = base + self.artifact_plane * hexes
        for name, count in obs["artifacts_on_map"].items():
            out[artifacts + self._hex(name)] = count / ARTIFACT_SCALE
        turn = obs["this_turn"]
        ones += [base + self.drawn_plane * hexes + self._hex(name) for name in turn["drawn"]]
        if turn["spell_hex"]:
            ones.append(base + self.target_plane * hexes + self._hex(turn["spell_hex"]))
        if self.solo:
            solo = obs["solo"]
            text = map_text(m["territories"], self.height, self.width, self.width, "Territory map")
            territory = np.frombuffer(text, dtype=np.uint8) - ord("0")  # non-digits wrap
            finished = np.zeros(self.territories + 1, dtype=bool)
            for t in solo["finished"]:
                hot(ones, self.at_finished, self.territories, t - 1)  # also checks t
                finished[t] = True
            if territory.max() > self.territories:
                raise RulebookError("the Territory map names no Territory of the solo map")
            here = territory == solo["territory"]
            zone = base + self.zone_plane * hexes
            out[zone : zone + hexes] = here
            out[zone + hexes : zone + 2 * hexes] = finished[territory] & ~here

    def _fill_sheet_shared(self, obs: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        for col in obs["blocked_columns"]:
            hot(ones, self.at_blocked, self.columns, col - 1)
        for name, values in obs["relics_left"].items():
            k = lookup(self.relics, name, "Relic")
            ones += positions(self.relic_table[k], map(str, values), self.at_relics[k], "value")
        ones += positions(
            self.monument_table, map(str, obs["monuments_left"]), self.at_monuments, "value"
        )

    def _fill_archive(self, archive: list[Mapping[str, Any]], out: Vector, ones: list[int]) -> None:
        if len(archive) != len(self.rooms):
            raise RulebookError(f"{len(archive)} Archive rooms, not {len(self.rooms)}")
        for r, room in enumerate(archive):
            out[self.at_archive + 2 * r] = room["taken"] / self.room_sizes[r]
            if room["filling"]:
                ones.append(self.at_archive + 2 * r + 1)

    def _fill_solo(self, solo: Mapping[str, Any], out: Vector, ones: list[int]) -> None:
        t, scale = self.territories, self.score_scale
        hot(ones, self.at_level, len(self.levels), lookup(self.levels, solo["level"], "level"))
        hot(ones, self.at_territory, t, solo["territory"] - 1)
        for i, points in enumerate(solo["your_territory_scores"]):
            out[self.at_scores + 2 * i] = points / scale
        for i, points in enumerate(solo["troll_scores"]):
            out[self.at_scores + 2 * i + 1] = points / scale
        for col in solo["troll_columns"]:
            hot(ones, self.at_troll_columns, self.columns, col - 1)
        for name in solo["troll_claims"]:
            out[self.at_troll_claims + lookup(self.claims, name, "Trolls' claim")] += 1 / 3
        out[self.at_totals] = solo["trolls_total"] / scale
        out[self.at_totals + 1] = solo["territory_points_now"] / scale

    def _fill_seat(
        self, seat: Mapping[str, Any], at: Mapping[str, int], out: Vector, ones: list[int]
    ) -> None:
        out[at["score"]] = seat["score"] / self.score_scale
        if self.family:
            hot(ones, at["guild"], len(self.guilds), lookup(self.guilds, seat["guild"], "Guild"))
            for i in positions(self.family_spells, seat["spells"], at["spells"], "Spell"):
                out[i] += 1 / self.spell_copies
            out[at["used"]] = seat["used_spells"] / SPELLS_SCALE
            return
        for r, name in enumerate(RESOURCES):
            out[at["tracks"] + r] = seat["tracks"][name] / self.maximum
        width = len(self.states)
        for state, ids in seat["cards"].items():
            s = lookup(self.states, state, "card state")
            ones += [at["cards"] + i * width + s for i in positions(self.cards, ids, 0, "card")]
        out[at["artifacts"]] = seat["artifacts"] / ARTIFACT_SCALE
        out[at["relics"]] = len(seat["relics"]) / 4
        out[at["relics"] + 1] = sum(seat["relics"]) / (self.top_value * 2)
        out[at["monuments"]] = len(seat["monuments"]) / 3
        out[at["monuments"] + 1] = sum(seat["monuments"]) / (self.top_monument * 2)

    # -- from the state itself (the fast path, every version: rulebook.pandoria_merchants.tensor)
    #: the fast path (:meth:`_prepare_fast`)
    fast: StateTensor

    def _prepare_fast(self) -> None:
        """The fast path's positions and tables (:class:`~rulebook.pandoria_merchants.tensor.
        StateTensor`)."""
        self.fast = StateTensor(self)

    keeps_seats = True

    def fill_table_state(self, state: Any, player: int, base: int, out: Writes) -> None:
        """:meth:`fill` of :func:`rulebook.pandoria_merchants.view.view` of ``player`` up to
        the seat blocks (the Spell Archive included), read from the state, but the kept runs
        (:meth:`kept_runs`)."""
        self.fast.fill_table(state, player, base, out)

    def kept_runs(self) -> list[tuple[int, int, bool, bool]]:
        """The map's planes of the hexes and the Artifacts on them, per game and viewer
        (Workers and Ships are relative), patched hex by hex; the blocked columns and the
        Relics and Monuments left, per game, listed whole when a column is blocked or a Relic
        or Monument made (standard, solo); solo, per game, the map's two Territory planes,
        listed whole when a Territory is finished or another played, and the solo part, listed
        whole when a score, a claim or the points of this Territory changed (the fast path's
        runs: :meth:`~rulebook.pandoria_merchants.tensor.StateTensor.kept_runs`)."""
        return self.fast.kept_runs()

    def seat_flags(self, state: Any) -> tuple[Sequence[int], Sequence[int]]:
        s: PandoriaState = state
        return s.current_players(), s.winners() if s.phase == OVER else ()

    def seat_key(self, state: Any, p: int, facts: Any) -> object:
        """What the block shows: the score (from the seat's VP, Resources, cards and
        Artifacts: :func:`~rulebook.pandoria_merchants.final_score.score`), Resources, cards,
        Artifacts, Relics and Monuments; family, the score (the VP), the Spells held and
        those cast (the Guild is the seat's)."""
        s: PandoriaState = state
        if self.family:
            return (s.vp[p], s.held[p], s.used_spells[p])
        return (
            tuple(s.vp[p]),
            tuple(s.tracks[p]),
            tuple(s.cards[p]),
            s.held_artifacts[p],
            tuple(s.relics_won[p]),
            tuple(s.monuments_won[p]),
        )

    def fill_seat_state(
        self, state: Any, p: int, facts: Any, base: int, at: Mapping[str, int], out: Writes
    ) -> None:
        self.fast.fill_seat(state, p, base, at, out)


def map_text(rows: object, height: int, columns: int, width: int, what: str) -> bytes:
    """A map's ``height`` rows of ``columns`` hexes as text (``width`` characters each) as one
    ASCII string."""
    if (
        not isinstance(rows, list)
        or len(rows) != height
        or any(not isinstance(row, str) or len(row) != width for row in rows)
    ):
        raise RulebookError(f"not a {what} of {height} rows of {columns} hexes")
    try:
        return "".join(rows).encode("ascii")
    except UnicodeEncodeError:
        raise RulebookError(f"the {what} holds a character no hex shows") from None


def encoder(setup: Setup) -> PandoriaEncoder:
    """The observation encoder of a Pandoria Merchants configuration (``Game.encoder``)."""
    return PandoriaEncoder(setup)
