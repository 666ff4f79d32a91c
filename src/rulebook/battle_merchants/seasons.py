"""Season’s End: Time For War! (Battles; Repairs; End of Season Cleanup; with 2 players, End of
a Season).

"The end of the Season occurs when the third Demand Token is moved to the Season Area. At this
point, each of the other players gets to take one final turn before the end of the Season."
Then every Battlefield with two facing Weapons fights (Battles), each Weapon on the board earns
its owner two gold (Repairs), and the table is made ready for the next Season (End of Season
Cleanup), or, after Winter, the Year's End scoring follows
(:mod:`rulebook.battle_merchants.year_end`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants.content import Space
from rulebook.battle_merchants.kingdom import effects
from rulebook.battle_merchants.setup import EMPTY, FIRE, GONE, LOCK
from rulebook.battle_merchants.year_end import year_end

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def check_token(s: Table, space: Space) -> None:
    """Selling Weapons, step 4, and Season's End: a face-up Demand Token with Weapons on both
    sides goes to the Season Area, and the next Battlefield's token flips face-up. The third
    token there triggers the Season's end: every other player takes one final turn (the
    Season ends after the player to the right of the seller); a token that would follow it is
    discarded.

    Decision: a token flipped face-up between two Weapons already placed (by Steve, who
    ignores locks) leaves at once in the same way.
    """
    bf = space.index >> 1
    if s.tokens[bf] != FIRE or EMPTY in (s.spaces[2 * bf], s.spaces[2 * bf + 1]):
        return
    s.tokens[bf] = GONE
    if s.ending_after == EMPTY:
        s.season_area += 1
        if s.season_area >= s.content.rules.season_tokens:
            s.ending_after = (s.current - 1) % s.seats
    else:
        s.tokens_discarded += 1  # the Season is ending: "no further effect"
    if space.battlefield + 1 < s.board.battlefields and s.tokens[bf + 1] == LOCK:
        s.tokens[bf + 1] = FIRE
        check_token(s, s.board.spaces[2 * (bf + 1)])


def end_season(s: Table, last: int) -> None:
    """Season's End: battles, repairs, then the cleanup (or the Year's End after Winter); the
    player who triggered the end (to the left of ``last``, the last player) starts the next
    Season."""
    s.tell("season_over")
    battles(s)
    repairs(s)
    rules = s.content.rules
    if s.season == len(rules.seasons) - 1:
        year_end(s)
        return
    cleanup(s)
    s.season += 1
    s.season_area = 0
    s.ending_after = EMPTY
    s.passes = 0
    s.current = (last + 1) % s.seats
    s.tell("season_begins")


def battle_level(s: Table, owner: int, weapon: int) -> int:
    """Battles: the seller's current Craft Level in the Weapon (with Kingdom bonuses)."""
    return s.levels[owner][weapon] + sum(k.amount for k in effects(s, owner, "battle_level"))


def battles(s: Table) -> None:
    """Battles: every Battlefield with two facing Weapons fights: Vorpal beats Standard, else
    the higher Craft Level of the sellers in their Weapon wins, else a tie (both removed, 1 gold
    to each owner). The winner's owner keeps the loser as a Defeated Weapon. With 2 players
    (End of a Season), Steve's Weapons lose to any player's Weapon.

    Decision: two of Steve's Weapons facing each other tie (both go to the supply, no gold).
    """
    rules = s.content.rules
    steve = s.steve
    for a in range(0, len(s.spaces), 2):
        x, y = s.spaces[a], s.spaces[a + 1]
        if x == EMPTY or y == EMPTY:
            continue
        ox, oy = x >> 1, y >> 1
        levels = None
        if ox == steve and oy == steve:
            winner = 0
        elif ox == steve:
            winner = -1
        elif oy == steve:
            winner = 1
        elif (x & 1) != (y & 1):
            winner = 1 if x & 1 else -1
        else:
            lx = battle_level(s, ox, s.board.spaces[a].weapon)
            ly = battle_level(s, oy, s.board.spaces[a + 1].weapon)
            winner = (lx > ly) - (lx < ly)
            levels = (lx, ly)
        s.tell("battle", a, winner, levels)
        if winner == 0:
            for owner in (ox, oy):
                if owner != steve:
                    s.gold[owner] += rules.tie_gold
                    s.tally_one(owner, "battles_tied")
            s.spaces[a] = s.spaces[a + 1] = EMPTY
        else:
            win, lose = (a, a + 1) if winner > 0 else (a + 1, a)
            for space, outcome in ((win, "battles_won"), (lose, "battles_lost")):
                if s.spaces[space] >> 1 != steve:
                    s.tally_one(s.spaces[space] >> 1, outcome)
            owner = s.spaces[win] >> 1
            defeated = s.defeated[owner] = s.defeated[owner].copy()
            defeated[s.spaces[lose] & 1] += 1
            s.spaces[lose] = EMPTY


def repairs(s: Table) -> None:
    """Repairs: two gold per Weapon a player owns on the board, plus Kingdom bonuses."""
    rules = s.content.rules
    n = s.seats
    owned = [0] * (n + 1)
    for code in s.spaces:
        if code != EMPTY:
            owned[code >> 1] += 1
    pays = []
    for p in range(n):
        per = rules.repair_gold + sum(k.amount for k in effects(s, p, "repair_bonus"))
        s.gold[p] += per * owned[p]
        pays.append(per)
    s.tell("repairs", owned, pays)


def cleanup(s: Table) -> None:
    """End of Season Cleanup. 3-4 players: the face-up Kingdom Cards are discarded (Final
    cards stay) and the face-up Craft Cards too. 2 players (End of a Season): nothing is
    discarded, unless the last action was neither Learn Craft nor Take Kingdom Card: then the
    cards in Kingdom space 1 and Craft space 1 go (Slush Fund never). After Summer the rest of
    the Spring/Summer deck leaves the game. Craft Bonus cards flip up; Reward spaces refill.

    Decision: in the 2-player game the side board's Spring/Summer cards stay on it into
    Autumn (only the refills come from the Autumn/Winter deck).
    """
    c = s.content
    s.craft_pool = [x for x in s.craft_pool if x != EMPTY]
    s.kingdom_pool = [x for x in s.kingdom_pool if x != EMPTY]
    kingdom_out = len(s.kingdom_discard)
    craft_out = len(s.craft_discard)
    if not s.two:
        final = [k for k in s.kingdom_pool if c.kingdom[k].duration == "final"]
        s.kingdom_discard += [k for k in s.kingdom_pool if k not in final]
        s.kingdom_pool = final
        s.craft_discard += s.craft_pool
        s.craft_pool = []
    elif s.last_kind not in ("learn", "kingdom"):
        if s.kingdom_pool and c.kingdom[s.kingdom_pool[0]].duration != "final":
            s.kingdom_discard.append(s.kingdom_pool.pop(0))
        if s.craft_pool:
            s.craft_discard.append(s.craft_pool.pop(0))
    boxed = 0
    if s.season == 1:  # end of Summer
        boxed = len(s.spring_deck)
        s.boxed += boxed
        s.spring_deck = []
    s.tell("cleanup", kingdom_out, craft_out, boxed)
    s.bonus_up = [owner != EMPTY for owner in s.bonus_owner]
    for race in s.board.races:
        s.reward_spaces[race] = [True] * s.seats
