"""What the table says aloud at Season’s End: Time For War! (every battle, the repairs, the
cleanup, who starts the next Season) and at Year’s End (Winning the Game) (each merchant's
scoring); and the cards turned face up at a turn's start (:mod:`rulebook.core.events`).

The rules tell of each step where they take it (``s.tell("battle", ...)``); each function
here puts one in plain words, in the project's own, from the state at that moment. Battle
Merchants hides nothing but the decks' order (Extra Notes), so every line is told to all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants.content import Space, race_plural, title
from rulebook.battle_merchants.setup import EMPTY
from rulebook.core import Event
from rulebook.core.words import plural, seat

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def _where(s: Table, space: Space) -> str:
    """Regions and Battlefields: ``Desert Battlefield 2``."""
    return f"{title(s.board.regions[space.region])} Battlefield {space.battlefield + 1}"


def _weapon(s: Table, code: int, space: Space) -> str:
    """A Weapon on the board with its owner: ``seat 1's Vorpal Sword``, ``Salesman Steve's
    Axe``."""
    owner = code >> 1
    whose = "Salesman Steve's" if owner == s.steve else f"{seat(owner)}'s"
    quality = "Vorpal" if code & 1 else "Standard"
    return f"{whose} {quality} {title(s.content.weapons[space.weapon])}"


def season_over(s: Table) -> Event:
    """Season's End: Time For War! The last turn is taken; the battles follow."""
    season = title(s.content.rules.seasons[s.season])
    fights = sum(
        1 for a in range(0, len(s.spaces), 2) if s.spaces[a] != EMPTY and s.spaces[a + 1] != EMPTY
    )
    if not fights:
        return Event(None, f"{season} is over: no Battlefield holds two facing Weapons, no battle.")
    return Event(None, f"{season} is over: war! {plural(fights, 'battle')} to fight.")


def _why(s: Table, x: int, y: int, levels: tuple[int, int] | None) -> str:
    """Battles: what decided (``levels``: the Craft Levels compared, if they were)."""
    steve = s.steve
    if x >> 1 == steve and y >> 1 == steve:
        return "both Salesman Steve's"
    if steve in (x >> 1, y >> 1):
        return "Salesman Steve's Weapons lose to any merchant's"
    if levels is None:
        return "Vorpal beats Standard"
    return f"Craft Level {levels[0]} against {levels[1]}"


def battle(s: Table, a: int, winner: int, levels: tuple[int, int] | None) -> Event:
    """Battles: the Battlefield of spaces ``a`` and ``a + 1``, told before it is cleared:
    ``winner`` 1 (the first space's Weapon), -1 (the second's) or 0 (a tie); ``levels``: the
    sellers' Craft Levels where they decided."""
    first, second = s.board.spaces[a], s.board.spaces[a + 1]
    x, y = s.spaces[a], s.spaces[a + 1]
    why = _why(s, x, y, levels)
    races = f"{race_plural(s.content.races[first.race])} against "
    races += race_plural(s.content.races[second.race])
    head = f"Battle at {_where(s, first)} ({races}): "
    wx, wy = _weapon(s, x, first), _weapon(s, y, second)
    if winner == 0:
        gold = s.content.rules.tie_gold
        owners = [o for o in (x >> 1, y >> 1) if o != s.steve]
        if len(owners) == 2 and owners[0] == owners[1]:
            pays = f", {2 * gold} gold to {seat(owners[0])} (both its own)"
        else:
            pays = f", {gold} gold each to {' and '.join(map(seat, owners))}" if owners else ""
        return Event(None, f"{head}{wx} and {wy} tie ({why}): both are destroyed{pays}.")
    won, lost = (wx, wy) if winner > 0 else (wy, wx)
    keeper = (x if winner > 0 else y) >> 1
    keeps = f"{seat(keeper)} keeps it as a Defeated Weapon"
    if keeper == s.steve:
        keeps = "it goes back to the supply"
    return Event(None, f"{head}{won} beats {lost} ({why}); {keeps}.")


def repairs(s: Table, owned: list[int], per: list[int]) -> list[Event]:
    """Repairs: each merchant's gold for the Weapons it still has on the board."""
    return [
        Event(
            p,
            f"Earn {owned[p] * per[p]} gold for repairs "
            f"({plural(owned[p], 'Weapon')} on the board, {per[p]} gold each)",
        )
        for p in range(s.seats)
        if owned[p]
    ]


def cleanup(s: Table, kingdom_from: int, crafts_from: int, boxed: int) -> Event:
    """End of Season Cleanup: the cards discarded (those of the discard piles from
    ``kingdom_from`` and ``crafts_from`` on) and, after Summer, the rest of the Spring/Summer
    deck boxed; the Craft Bonus cards turn up again and the Reward Tiles wait for every
    merchant anew."""
    c = s.content
    kingdom = s.kingdom_discard[kingdom_from:]
    crafts = s.craft_discard[crafts_from:]
    parts = []
    if kingdom:
        names = ", ".join(c.kingdom[k].name for k in kingdom)
        parts.append(f"Kingdom {'Card' if len(kingdom) == 1 else 'Cards'} {names} discarded")
    if crafts:
        names = ", ".join(
            f"{title(c.weapons[c.crafts[k].weapon])} +{c.crafts[k].levels}" for k in crafts
        )
        parts.append(f"Craft {'Card' if len(crafts) == 1 else 'Cards'} {names} discarded")
    if boxed:
        parts.append(
            f"the {plural(boxed, 'Craft Card')} left of the Spring/Summer deck leave the game"
        )
    parts.append("Craft Bonus cards turn face up again; every race offers its Reward Tiles anew")
    return Event(None, f"Cleanup: {'; '.join(parts)}.")


def season_begins(s: Table) -> Event:
    """Season's End: the next Season begins with the merchant who triggered the end."""
    season = title(s.content.rules.seasons[s.season])
    limit = s.content.rules.kingdom_limit[s.season]
    return Event(
        s.current,
        f"Start {season} (the merchant who ended the last Season starts; "
        f"up to {limit} Kingdom Cards may be kept now)",
    )


def year_end(s: Table, parts: list[dict[str, int]], totals: list[int]) -> list[Event]:
    """Year's End: what each merchant's unsold Weapons, Defeated Weapons and End Kingdom
    Cards earn, and its gold at the end."""
    said = [Event(None, "Winter's battles are over: the Year's End scoring.")]
    for p in range(s.seats):
        got = parts[p]
        bits = [f"{got['unsold_weapons']} for unsold Weapons"]
        bits.append(f"{got['defeated_weapons']} for {plural(totals[p], 'Defeated point')}")
        if got["end_cards"]:
            bits.append(f"{got['end_cards']} for End Kingdom Cards")
        earned = sum(got.values())
        said.append(
            Event(
                p,
                f"Earn {earned} gold at the Year's End ({', '.join(bits)}): "
                f"{s.gold[p]} gold in all",
            )
        )
    return said


def turned_up(s: Table, crafts_from: int, kingdom_from: int) -> Event | None:
    """Player Turns: the Craft and Kingdom Cards turned face up to refill the rows (those
    from ``crafts_from`` and ``kingdom_from`` on)."""
    c = s.content
    crafts = s.craft_pool[crafts_from:]
    kingdom = s.kingdom_pool[kingdom_from:]
    named = [
        f"the {title(c.weapons[c.crafts[k].weapon])} +{c.crafts[k].levels} Craft Card"
        for k in crafts
    ]
    named += [f"the Kingdom Card {c.kingdom[k].name}" for k in kingdom]
    if not named:
        return None
    return Event(None, f"Turned face up: {', '.join(named)}.")
