"""Year’s End (Winning the Game), with the 2-player Game End.

"Once all of the Winter battles have been fought (and repair monies paid), there is a little
end game scoring": unsold Weapons sell for their End Value; the highest Defeated Weapons total
(Vorpal 2, Standard 1) gets 15 gold and the second 7 (with 2 players, the highest 7 only); End
Kingdom Cards pay. The most gold wins; a tie goes to the Weapons owned on the board (2 gold a
Standard, 3 a Vorpal), then stands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants.actions import OVER
from rulebook.battle_merchants.content import KingdomCard
from rulebook.battle_merchants.setup import EMPTY

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def year_end(s: Table) -> None:
    """Year's End: unsold Weapons at End Value; Defeated Weapons bonus (Vorpal 2, Standard
    1; 15 and 7 gold, 2 players 7 only); End Kingdom Cards. The game is over.

    Decision: players tied for a place each get that place's gold and the next place is
    skipped; a Defeated total of 0 earns nothing.
    """
    c = s.content
    rules, chart = c.rules, c.chart
    n = s.seats
    parts: list[dict[str, int]] = [{} for _ in range(n)]
    for p in range(n):
        std = sum(s.supply[p][0::2])
        vor = sum(s.supply[p][1::2])
        parts[p]["unsold_weapons"] = std * chart.end_standard + vor * chart.end_vorpal
    totals = [defeated_total(s, p) for p in range(n)]
    prizes = rules.defeated_bonus_2p if s.two else rules.defeated_bonus
    bonus = [0] * n
    place = 0
    for value in sorted(set(totals), reverse=True):
        if value <= 0 or place >= len(prizes):
            break
        tied = [p for p in range(n) if totals[p] == value]
        for p in tied:
            bonus[p] = prizes[place]
        place += len(tied)
    board = on_board(s)
    for p in range(n):
        parts[p]["defeated_weapons"] = bonus[p]
        end = 0
        for k in _end_cards(s, p):
            end += end_card_gold(s, p, k, board)
        parts[p]["end_cards"] = end
        s.gold[p] += sum(parts[p].values())
    s.year_end = parts
    s.step = OVER
    s.tell("year_end", parts, totals)


def _end_cards(s: Table, p: int) -> list[KingdomCard]:
    """Year's End: the End Kingdom Cards in front of seat ``p``."""
    k = s.content.kingdom
    return [k[i] for i in s.kingdom_cards[p] if k[i].duration == "end"]


def end_card_gold(s: Table, p: int, k: KingdomCard, board: list[list[int]]) -> int:
    """Year's End: what an End Kingdom Card pays (``board``: :func:`on_board`)."""
    if k.effect == "end_flat":
        return k.amount
    if k.effect == "end_per_defeated":
        count = defeated_total(s, p)
    elif k.effect == "end_per_reward":
        count = sum(s.race_tiles[p]) + sum(s.region_tiles[p])
    elif k.effect == "end_per_craft_card":
        count = len(s.crafts[p])
    elif k.effect == "end_per_unsold":
        count = sum(s.supply[p])
    else:  # end_per_board_weapon
        count = sum(board[p])
    return k.amount * (count // k.per)


def defeated_total(s: Table, p: int) -> int:
    """Year's End: the value of seat ``p``'s Defeated Weapons pile (Vorpal 2, Standard 1)."""
    rules = s.content.rules
    std, vor = s.defeated[p]
    return std * rules.defeated_standard + vor * rules.defeated_vorpal


def on_board(s: Table) -> list[list[int]]:
    """Year's End (ties): per seat, the [Standard, Vorpal] Weapons it owns on the board."""
    n = s.seats
    counts = [[0, 0] for _ in range(n)]
    for code in s.spaces:
        if code != EMPTY and code >> 1 < n:
            counts[code >> 1][code & 1] += 1
    return counts


def score_breakdown(s: Table, player: int) -> dict[str, int]:
    """Year's End: the gold earned during the Seasons, then the three Year's End parts."""
    parts = (
        s.year_end[player]
        if s.year_end
        else {"unsold_weapons": 0, "defeated_weapons": 0, "end_cards": 0}
    )
    return {"seasons": s.gold[player] - sum(parts.values()), **parts}


def score_notes(s: Table) -> dict[str, str]:
    """Year's End: what each part of a merchant's gold counts, in plain words."""
    rules, chart = s.content.rules, s.content.chart
    prizes = rules.defeated_bonus_2p if s.two else rules.defeated_bonus
    places = " and ".join(f"{gold} gold" for gold in prizes)
    return {
        "seasons": "the gold held when Winter's battles were over: the starting gold, plus "
        "sales, repairs, tied battles and Kingdom Cards, less what forging and learning cost",
        "unsold_weapons": f"the Weapons never sold, at their End Value ({chart.end_standard} "
        f"gold a Standard, {chart.end_vorpal} a Vorpal)",
        "defeated_weapons": f"the most Defeated points (Standard {rules.defeated_standard}, "
        f"Vorpal {rules.defeated_vorpal}) earn {places}, by place",
        "end_cards": "the Kingdom Cards that pay at the Year's End",
    }


def tiebreak(s: Table, player: int) -> tuple[int, ...]:
    """Year's End: ties go to 2 gold per Standard and 3 per Vorpal Weapon owned on the board;
    then they stand (shared)."""
    rules = s.content.rules
    std, vor = on_board(s)[player]
    return (std * rules.tiebreak_standard + vor * rules.tiebreak_vorpal,)


def tiebreak_labels(s: Table) -> tuple[str, ...]:
    """Year's End: the tie-breaker in words."""
    rules = s.content.rules
    return (
        f"Weapons on the board ({rules.tiebreak_standard} gold a Standard, "
        f"{rules.tiebreak_vorpal} a Vorpal)",
    )
