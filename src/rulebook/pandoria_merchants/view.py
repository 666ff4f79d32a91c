"""Components needed, as a seat sees them: the Map sheet and every Realm sheet (the views).

"1 Map sheet (per player, if playing online), 1 Realm sheet per player": everything on them is
public, so every seat sees the same table; only future dice are unknown. The family version's
Guild & Archive sheet and the solo version's Solo Map sheet and Trolls' table are shown too.
These are what the game shows, not rules: they read the state and change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from rulebook.core import Action
from rulebook.core.state import log_texts
from rulebook.pandoria_merchants import buildings, buying, final_score, solo
from rulebook.pandoria_merchants.board import KINDS
from rulebook.pandoria_merchants.moves import Move
from rulebook.pandoria_merchants.terms import (
    CARD_STATES,
    DRAW,
    DRAWING,
    NONE,
    OVER,
    RESOURCES,
    SPELL,
)

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def row_text(s: PandoriaSheets, r: int) -> str:
    """One map row as 2 characters a hex: symbol then mark (see render.LEGEND)."""
    width = s.board.width
    return "".join([hex_text(s, h) for h in range(r * width, (r + 1) * width)])


def hex_text(s: PandoriaSheets, h: int) -> str:
    """One hex of the map as 2 characters: symbol then mark (see render.LEGEND)."""
    b = s.board
    bit = 1 << h
    mark = " "
    if not b.land & bit:
        if h in s.ships:
            return f"S{s.ships[h]}"
        return "S " if h in b.lake_of else "~ "
    if s.swamp & bit:
        sym = "#"
    elif s.kind_at(h) >= 0:
        sym = "WCKGT"[s.kind_at(h)]
        if b.starts_mask & bit:
            mark = "@"
        elif b.preprinted_mask & bit:
            mark = "*"
        if s.scored & bit:
            mark = "x"
        if h in s.artifacts:
            mark = "a"
    else:
        sym = "."
        for p, w in enumerate(s.workers):
            if w & bit:
                sym = str(p)
    return sym + mark


def view(s: PandoriaSheets, player: int | None) -> dict[str, Any]:
    """The table as ``player`` sees it (``None``: as every seat sees it). Everything is
    public: the map and every Realm sheet. Only future dice are unknown."""
    b = s.board
    c = s.c
    grid = [row_text(s, r) for r in range(b.height)]
    seats = []
    for p in range(s.num_players):
        seat: dict[str, Any] = {
            "score": final_score.score(s, p),
            "ships": [b.names[h] for h, q in s.ships.items() if q == p],
        }
        if s.family:
            seat["guild"] = c.guilds[p][0]
            seat["guild_resource"] = KINDS[c.guilds[p][1]]
            seat["spells"] = sorted(s.held[p])
            seat["used_spells"] = s.used_spells[p]
        else:
            seat["tracks"] = dict(zip(RESOURCES, s.tracks[p], strict=True))
            states = s.cards[p]
            seat["cards"] = {
                name: ids
                for code, name in enumerate(CARD_STATES)
                if code != NONE
                and (ids := [card.id for card in c.cards if states[card.index] == code])
            }
            seat["artifacts"] = s.held_artifacts[p]
            seat["relics"] = list(s.relics_won[p])
            seat["monuments"] = list(s.monuments_won[p])
        seats.append(seat)
    obs: dict[str, Any] = {
        "game": s.setup.game,
        "variant": s.mode,
        "you": player,
        "turn": s.turn,
        "round": s.round,
        "phase": s.phase,
        "current_players": list(s.current_players()),
        "dice": ["?" if d < 0 else KINDS[d] for d in s.dice],
        "spell": s.spell if s.phase == SPELL else "",
        # what everyone watched happen this turn: the Resources drawn, which symbol of
        # 2.1-2.2 is drawn next, and the Spell's targets so far
        "this_turn": {
            "drawn": [b.names[h] for h in (s.r1, s.r2) if h >= 0],
            "drawing": DRAWING[s.item] if s.phase == DRAW else "",
            "spell_power": s.power if s.phase == SPELL else 0,
            "spell_targets_left": s.spell_left if s.phase == SPELL else 0,
            "spell_hex": b.names[s.spell_hex] if s.phase == SPELL and s.spell_hex >= 0 else "",
        },
        "columns": s.c.columns,
        "map": {
            "columns": [chr(ord("A") + i) for i in range(b.width)],
            "rows": grid,
            "territories": [
                "".join(str(t) for t in b.territory[r * b.width : (r + 1) * b.width])
                for r in range(b.height)
            ]
            if s.solo
            else [],
        },
        "artifacts_on_map": {b.names[h]: n for h, n in s.artifacts.items()},
        # the Worker made to count more by the last Rage: this turn (scored so) or the last
        "rage": {
            "seat": s.raged[0],
            "hex": b.names[s.raged[1]],
            "counts_as": s.raged[2],
            "this_turn": s.raged[3] == 0,
        }
        if s.raged
        else None,
        "pre_printed_enclosed": s.pre_enclosed,
        "end_triggered": s.end_triggered,
        "seats": seats,
    }
    if not s.solo:
        obs["end_needed"] = c.end_needed[s.num_players]
    if not s.family:
        obs["blocked_columns"] = [col + 1 for col in range(c.columns) if s.blocked >> col & 1]
        obs["relics_left"] = {
            f"relic-{n}": [v for (v, _), left in zip(row, s.relic_left[k], strict=True) if left]
            for k, (n, row) in enumerate(c.relics)
        }
        obs["monuments_left"] = [
            v for (v, _), left in zip(c.monuments, s.monument_left, strict=True) if left
        ]
        obs["realm"] = [
            {
                "column": card.column + 1,
                "card": card.id,
                "gold": card.gold,
                "crystals": card.crystals,
                "wood": card.wood,
                "power": card.power if card.spell in c.default_power else 0,
            }
            for card in c.cards
        ]
    else:
        obs["archive"] = [
            {
                "room": c.rooms[r].id,
                "level": c.rooms[r].level,
                "spells": [fs.name for fs in c.rooms[r].spells],
                "taken": s.taken[r],
                "filling": r == s.open_room,
            }
            for r in s.rooms
        ]
    if s.solo:
        obs["solo"] = {
            "level": s.level,
            "territory": s.territory,
            "finished": list(s.finished),
            "your_territory_scores": list(s.my_territory),
            "troll_scores": list(s.trolls),
            "troll_columns": [col + 1 for col in s.troll_columns],
            "troll_claims": list(s.troll_claims),
            "table": solo.troll_table(s),
            "trolls_total": solo.trolls_total(s),
            "territory_points_now": s.vp_total(0) - s.vp_start,
            "bridges": [f"{b.names[x]}-{b.names[y]}" for x, y in b.bridges],
            **solo_words(s),
        }
    if s.phase == OVER:
        obs["winners"] = s.winners()
        if s.solo:
            won = obs["solo"]["won"] = final_score.solo_beats_the_trolls(s)
            me, trolls = s.scores()[0], solo.trolls_total(s)
            # the rating names only the result, so the lab can count it across games
            obs["rating"] = "You beat the Trolls" if won else "The Trolls win"
            obs["solo"]["final"] = f"you {me}, the Trolls {trolls}"
    return obs


def solo_words(s: PandoriaSheets) -> dict[str, Any]:
    """Solo: how far the game is (``Territory 3 of 8``: the Territories in the order they
    are played, which the table counts), and what the Trolls' points are made of, a
    Territory at a time and in all, in words (their points for a Territory fall below zero
    when you beat the table)."""
    total = s.c.solo.territories
    done = len(s.finished)
    if s.phase == OVER:
        progress = f"All {total} Territories finished"
    elif s.territory in s.finished:
        progress = f"Territory {done} of {total} finished"
    else:
        progress = f"Territory {done + 1} of {total}"
    table = solo.troll_table(s)
    points = []
    for k, (cards, elements) in enumerate(s.troll_parts):
        base = table[k] - s.my_territory[k]
        t = s.finished[k]
        where = f"Territory {k + 1}" + (f" (the map's {t})" if t != k + 1 else "")
        words = f"{where}: the table's {table[k]} minus your {s.my_territory[k]} = {base}"
        if base < 0:
            words += f" (you beat the table by {-base})"
        if cards:
            words += f", + {cards} for crossed-out cards"
        if elements:
            words += f", + {elements} for Relics and Monuments"
        points.append(
            {
                "territory": s.finished[k],
                "table": table[k],
                "yours": s.my_territory[k],
                "cards": cards,
                "relics_and_monuments": elements,
                "total": s.trolls[k],
                "words": f"{words}: {s.trolls[k]} for the Trolls",
            }
        )
    parts = solo.opponent_breakdown(s)
    explained = (
        f"The Trolls have {solo.trolls_total(s)} points: {parts['territories']} from the "
        f"Territories (each Territory's table value minus your points there, below zero "
        f"where you scored more than the table), {parts['cards']} for the cards they "
        f"crossed out (1 VP each) and {parts['relics_and_monuments']} for the Relics and "
        f"Monuments they took."
    )
    return {
        "territories": total,
        "playing": done if s.territory in s.finished else done + 1,
        "progress": progress,
        "troll_points": points,
        "trolls_explained": explained,
    }


def explain(s: PandoriaSheets, player: int, action: Action) -> str:
    """The move as menus show it, with what it costs: ``buy ship/statue (3 gold)``."""
    text = str(action)
    if type(action) is not Move or not isinstance(action.arg, str):
        return text
    card = s.c.card_by_id.get(action.arg)
    if card is None or s.family:
        return text
    strength = f" {card.power}" if card.spell in s.c.default_power else ""
    if action.verb == "cast":
        crystals = 0 if s.phase == SPELL else buildings.spell_cost(s, player, card)
        return f"{text} ({card.spell}{strength}: {crystals} crystal)"
    if action.verb == "build":
        wood = 0 if s.free_wood else buildings.build_cost(s, player, card)
        return f"{text} ({card.building}: {wood} wood)"
    if action.verb in ("buy", "take", "start"):
        gold = buying.gold_cost(s, player, card) if action.verb == "buy" else 0
        return f"{text} ({gold} gold; Spell {card.spell}{strength}, Building {card.building})"
    if action.verb == "monument":
        wood, _, craft, _ = buildings.monument_cost(s, player, card)
        return f"{text} ({wood} wood, {craft} craft)"
    return text


def history_texts(s: PandoriaSheets) -> tuple[tuple[int, str], ...]:
    """The action log as text, converted once per move (snapshots are taken often; kept in
    ``s._texts``, which clones share: it is never changed, only replaced)."""
    s._texts = log_texts(s._texts, s.history)
    return s._texts


#: the fields :func:`snapshot` shows as they are (lists and dicts as tuples)
PLAIN: Final = (
    "mode",
    "solo",
    "family",
    "level",
    "empty",
    "swamp",
    "scored",
    "near",
    "anchor_extra",
    "zone",
    "pre_enclosed",
    "blocked",
    "guild",
    "rooms",
    "open_room",
    "territory",
    "vp_start",
    "troll_gain",
    "troll_cards",
    "troll_elements",
    "troll_parts",
    "raged",
    "turn",
    "round",
    "phase",
    "both_wild",
    "item",
    "r1",
    "r2",
    "r1_anchored",
    "touched",
    "spell",
    "power",
    "spell_left",
    "spell_hex",
    "free_wood",
    "rage_hex",
    "rage_extra",
    "enclosed_now",
    "end_triggered",
    "kinds",
    "workers",
    "held_artifacts",
    "monument_left",
    "taken",
    "used_spells",
    "finished",
    "my_territory",
    "trolls",
    "troll_columns",
    "troll_claims",
    "dice",
    "ships",
    "artifacts",
)
#: the fields :func:`snapshot` shows as tuples of tuples
NESTED: Final = ("tracks", "vp", "relic_left", "relics_won", "monuments_won", "held")


def snapshot(s: PandoriaSheets) -> dict[str, Any]:
    """Every field, with the long ones as text (cheap to copy and compare)."""
    n = s.num_players
    out: dict[str, Any] = {
        "setup": s.setup.to_dict(),
        "chance": (s.chance.seed, s.chance.draws),
        "history": "\n".join(f"{p} {t}" for p, t in history_texts(s)),
        "res": s.res,
        "cards": tuple("".join(map(str, cards)) for cards in s.cards),
        "tally": tuple(tuple(sorted(s.counts(p).items())) for p in range(n)),
    }
    for key in PLAIN:
        value = getattr(s, key)
        if type(value) is list:
            value = tuple(value)
        elif type(value) is dict:
            value = tuple(sorted(value.items()))
        out[key] = value
    for key in NESTED:
        out[key] = tuple(tuple(v) for v in getattr(s, key))
    return out
