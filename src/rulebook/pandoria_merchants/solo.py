"""SOLO VERSION: one Realm against the Trolls, over 8 Territories joined by Bridges.

"The rivers and lakes are borders, dividing the Map into 8 Territories." Territory is finished
"When there are not enough spaces of a Territory left to fill in 2 Resources + 1 Worker";
Bridges lead into the next one. Cards for the Trolls: "Starting with the end of the 3rd
Territory, the Trolls claim a column of Spell/Building Cards"; Relics and Monuments for the
Trolls from the 4th; Victory Points for the Trolls: "points shown for that Territory in the
table minus your score for that Territory".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants import actions, buildings
from rulebook.pandoria_merchants.moves import Move, move
from rulebook.pandoria_merchants.terms import BRIDGE, CROSSED, NONE, TROLL_COLUMN, replaced, sum_of

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def troll_elements(s: PandoriaSheets) -> list[str]:
    """Relics and Monuments for the Trolls: what they may claim, "the highest remaining Relic
    of one type or Monument"."""
    out = []
    for kind, (artifacts, _) in enumerate(s.c.relics):
        if actions.relic_value(s, kind) is not None:
            out.append(f"relic-{artifacts}")
    if buildings.monument_value(s) is not None:
        out.append("monument")
    return out


def bridges(s: PandoriaSheets) -> list[int]:
    """Bridges: the Bridge ends in undiscovered Territories, from any finished Territory."""
    b = s.board
    ends = set()
    for x, y in b.bridges:
        for here, there in ((x, y), (y, x)):
            if b.territory[here] in s.finished and b.territory[there] not in s.finished:
                ends.add(there)
    return sorted(ends)


def finish_territory(s: PandoriaSheets) -> None:
    """Territory is finished: write its points, then the Trolls claim (from the 3rd: a
    column; from the 4th: a Relic or Monument), then a Bridge leads on."""
    s.my_territory += (s.vp_total(0) - s.vp_start,)
    s.finished += (s.territory,)
    s.troll_gain = 0
    s.tell("territory_finished")
    k = len(s.finished)
    solo = s.c.solo
    if k == solo.territories:  # "After the 8th Territory, there are 3 elements"
        claims = troll_elements(s)[: solo.final_elements]
        s.tell("trolls_take", claims)
        for name in claims:
            troll_claim(s, name)
    if k >= solo.troll_columns_from:
        s._enter(TROLL_COLUMN)
    else:
        close_territory(s)


def troll_column(s: PandoriaSheets, col: int) -> None:
    """Cards for the Trolls: they claim a column: X at its bottom; 1 VP per card crossed out."""
    s.troll_columns += (col,)
    s.blocked |= 1 << col
    for card in s.c.cards:
        if card.column == col and s.cards[0][card.index] == NONE:
            s.mark(0, card.index, CROSSED)
            s.troll_gain += 1
            s.troll_cards += 1


def troll_claim(s: PandoriaSheets, name: str) -> None:
    """Relics and Monuments for the Trolls: they claim the highest remaining Relic of one type, or
    Monument."""
    if name == "monument":
        value = buildings.monument_value(s)
        assert value is not None
        s.monument_left = replaced(s.monument_left, s.monument_left.index(True), False)
    else:
        kind = next(i for i, (n, _) in enumerate(s.c.relics) if f"relic-{n}" == name)
        value = actions.relic_value(s, kind)
        assert value is not None
        actions.relic_taken(s, kind)
    s.troll_claims += (name,)
    s.troll_gain += value
    s.troll_elements += value


def troll_table(s: PandoriaSheets) -> list[int]:
    """Preparation (solo): the scoring table with the chosen level's values for the last 2
    Territories."""
    return list(s.troll_values)


def close_territory(s: PandoriaSheets) -> None:
    """Victory Points for the Trolls: "points shown for that Territory in the table minus
    your score for that Territory" (as written: below 0 when you beat the table), plus the
    cards, Relics and Monument they claimed."""
    k = len(s.finished)
    base = troll_table(s)[k - 1] - s.my_territory[-1]
    cards = s.troll_cards - sum(part[0] for part in s.troll_parts)
    s.troll_parts += ((cards, s.troll_gain - cards),)
    s.trolls += (base + s.troll_gain,)
    s.troll_gain = 0
    s.tell("trolls_scored")
    if k >= s.c.solo.territories:
        s._game_over()
    else:
        s._enter(BRIDGE)


def trolls_total(s: PandoriaSheets) -> int:
    """Victory Points for the Trolls, every finished Territory's summed."""
    return sum_of(s.trolls)


def opponent_breakdown(s: PandoriaSheets) -> dict[str, int]:
    """End of Game and Final Score (solo): the Trolls' points (Victory Points for the Trolls): each
    finished Territory's table value minus your score there, 1 VP per card they crossed out, and the
    Relics and Monuments they claimed. Empty outside solo."""
    if not s.solo:
        return {}
    table = troll_table(s)
    return {
        "territories": sum(table[k] - s.my_territory[k] for k in range(len(s.trolls))),
        "cards": s.troll_cards,
        "relics_and_monuments": s.troll_elements,
    }


def score_notes(s: PandoriaSheets) -> dict[str, str]:
    """Victory Points for the Trolls: what their points count (their Territories can be below 0)."""
    if not s.solo:
        return {}
    return {
        "territories": "for each finished Territory, the table's value minus your score "
        "there: below 0 when you scored more than the table",
        "cards": "1 Victory Point for each card the Trolls crossed out",
        "relics_and_monuments": "the Relics and Monuments the Trolls claimed",
    }


def column_options(s: PandoriaSheets) -> list[Move]:
    """Cards for the Trolls: the columns they may claim ("in the next Territory, you will have
    to choose another column")."""
    return [
        move("trolls", f"column-{col + 1}")
        for col in range(s.c.columns)
        if col not in s.troll_columns
    ]


def element_options(s: PandoriaSheets) -> list[Move]:
    """Relics and Monuments for the Trolls: "Starting with the end of the 4th Territory" (the
    8th's are claimed by themselves: :func:`finish_territory`)."""
    k = len(s.finished)
    if not s.c.solo.troll_relics_from <= k < s.c.solo.territories:
        return []
    return [move("trolls", name) for name in troll_elements(s)]


def bridge_options(s: PandoriaSheets) -> list[Move]:
    """Bridges: one move per Bridge end that leads on (:func:`bridges`)."""
    return [move("bridge", s.hex_name(h)) for h in bridges(s)]


def cross_bridge(s: PandoriaSheets, h: int) -> None:
    """Bridges: "Start on the space in the new Territory that is connected to that bridge";
    the Territory's points count from zero."""
    s.territory = s.board.territory[h]
    s.zone = s.board.territories[s.territory]
    s.anchor_extra = 1 << h  # "Start on the space ... connected to that bridge"
    s.vp_start = s.vp_total(0)
