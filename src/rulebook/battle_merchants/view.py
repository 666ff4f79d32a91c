"""Extra Notes: what every seat sees of the table, and the moves named for menus.

"Everything you have, including the amount of gold you have on hand, is public information and
cannot be hidden": a seat's view is the whole table but the order of the decks and which
Spring/Summer Craft Cards went back to the box (End of Season Cleanup). The Actions are named
for menus with their card, cost or gold (:func:`explain`); in plain words for newcomers in
:mod:`rulebook.battle_merchants.words`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebook.battle_merchants.actions import (
    FREE_CRAFT,
    FREE_FORGE,
    OVER,
    Bonus,
    Forge,
    Learn,
    Sell,
    TakeKingdom,
)
from rulebook.battle_merchants.content import race_plural
from rulebook.battle_merchants.craft import craft_deck, learn_cost
from rulebook.battle_merchants.forge import forge_cost
from rulebook.battle_merchants.kingdom import kingdom_limit
from rulebook.battle_merchants.sell import sale_value
from rulebook.battle_merchants.setup import EMPTY
from rulebook.battle_merchants.two_players import linked_card
from rulebook.battle_merchants.year_end import on_board
from rulebook.core import Action
from rulebook.core.data import fields

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def view(s: Table, player: int | None) -> dict[str, Any]:
    """Extra Notes: the table as ``player`` sees it (``None``: as every seat sees it). Everything is
    public ("Everything you have ... is public") except the order of the decks and which
    Spring/Summer cards went back to the box.

    Besides the table: the seat whose turn ends the Season (after the third Demand
    Token), the Weapons forged or sales made in the action under way (``action_count``)
    and the gold less per sale (``sale_penalty``, Desperate Times), the passes in a row and
    the kind of the last action (the 2-player cleanup depends on it): all of it seen by
    everyone as the moves were made."""
    c = s.content
    board = s.board
    weapons = c.weapons
    crafts = c.crafts
    labels = c.craft_labels
    seats = []
    owned = on_board(s)
    for p in range(s.seats):
        seats.append(
            {
                "colour": c.colours[p],
                "gold": s.gold[p],
                "supply": {
                    f"{'vorpal ' if v else ''}{weapons[w]}": s.supply[p][w * 2 + v]
                    for w in range(len(weapons))
                    for v in (0, 1)
                    if s.supply[p][w * 2 + v]
                },
                "levels": dict(zip(weapons, s.levels[p], strict=True)),
                "discounts": dict(zip(weapons, s.coins[p], strict=True)),
                "craft_cards": [labels[k] for k in s.crafts[p]],
                "reward_tiles": {
                    **{c.races[r]: t for r, t in enumerate(s.race_tiles[p]) if t},
                    **{board.regions[r]: t for r, t in enumerate(s.region_tiles[p]) if t},
                },
                "kingdom_cards": [c.kingdom[k].name for k in s.kingdom_cards[p]],
                "defeated": {"standard": s.defeated[p][0], "vorpal": s.defeated[p][1]},
                "on_board": {"standard": owned[p][0], "vorpal": owned[p][1]},
                "craft_bonus": [
                    {"weapon": weapons[w], "face_up": s.bonus_up[w]}
                    for w, o in enumerate(s.bonus_owner)
                    if o == p
                ],
                "score": s.gold[p],
            }
        )
    names = [c.colours[p] for p in range(s.seats)] + ["steve"]
    regions = []
    fields = board.battlefields
    for r, name in enumerate(board.regions):
        battlefields = []
        for bf in range(r * fields, (r + 1) * fields):
            codes = s.spaces[2 * bf], s.spaces[2 * bf + 1]
            battlefields.append(
                {
                    "token": ("none", "fire", "lock")[s.tokens[bf]],
                    "weapons": [
                        None
                        if code == EMPTY
                        else names[code >> 1] + (" vorpal" if code & 1 else "")
                        for code in codes
                    ],
                }
            )
        regions.append(
            {
                "name": name,
                "races": [c.races[x] for x in board.region_races[r]],
                "demands": list(s.moves.demands[r]),
                "region_tile_on_board": s.region_on_board[r],
                "battlefields": battlefields,
            }
        )
    obs: dict[str, Any] = {
        "game": s.setup.game,
        "you": player,
        "season": c.rules.seasons[s.season],
        "step": s.step,
        "current_players": list(s.current_players()),
        "kingdom_limit": kingdom_limit(s),
        "season_area": s.season_area,
        "season_ending": s.ending_after != EMPTY,
        # what every seat saw happen this turn and Season (the moves are public)
        "season_ends_after": None if s.ending_after == EMPTY else s.ending_after,
        "action_count": s.count,
        "sale_penalty": s.penalty,
        "passes": s.passes,
        "last_action": s.last_kind,
        "tokens_discarded": s.tokens_discarded,
        "reward_spaces": {
            c.races[r]: [names[p] for p in range(s.seats) if s.reward_spaces[r][p]]
            for r in board.races
        },
        "craft_cards": [None if k == EMPTY else labels[k] for k in s.craft_pool],
        "craft_faces": [None if k == EMPTY else crafts[k].face(weapons) for k in s.craft_pool],
        "kingdom_cards": [None if k == EMPTY else _kingdom_view(s, k) for k in s.kingdom_pool],
        "craft_bonus_available": [weapons[w] for w, o in enumerate(s.bonus_owner) if o == EMPTY],
        "decks": {
            "craft": len(craft_deck(s)),
            "autumn_winter": len(s.autumn_deck),
            "kingdom": len(s.kingdom_deck),
            "boxed": s.boxed,
        },
        "kingdom_discard": [c.kingdom[k].name for k in s.kingdom_discard],
        "craft_discard": [labels[k] for k in s.craft_discard],
        "regions": regions,
        "seats": seats,
    }
    if s.two:
        lines: list[str] = []
        for (a, x), (b, y) in c.links.items():  # each line twice, first as written
            if f"{b} {y + 1} - {a} {x + 1}" not in lines:
                lines.append(f"{a} {x + 1} - {b} {y + 1}")
        obs["side_board_links"] = lines
        obs["steve"] = {
            "races": [c.races[r] for r in s.steve_races],
            "next": c.races[s.steve_races[s.steve_cube]],
        }
    if s.step == OVER:
        obs["winners"] = s.winners()
        obs["year_end"] = s.year_end
    return obs


def _kingdom_view(s: Table, card: int) -> dict[str, Any]:
    """Take Kingdom Card: a face-up Kingdom Card as every seat sees it."""
    k = s.content.kingdom[card]
    return {**fields(k, "name", "duration", "gold"), "text": s.content.kingdom_texts[card]}


def explain(s: Table, player: int, action: Action) -> str:
    """The Actions: the move with its card, cost or gold, for menus."""
    c = s.content
    try:
        if type(action) is Learn and s.craft_pool[action.slot - 1] != EMPTY:
            card = s.craft_pool[action.slot - 1]
            cost = 0 if s.step == FREE_CRAFT else learn_cost(s, player, card)
            return f"{action}: {c.craft_labels[card]} for {cost} gold" + _linked(
                s, ("craft", action.slot - 1)
            )
        if type(action) is TakeKingdom and s.kingdom_pool[action.slot - 1] != EMPTY:
            index = s.kingdom_pool[action.slot - 1]
            k = c.kingdom[index]
            return (
                f"{action}: {k.name} ({k.duration}, {k.gold:+d} gold): {c.kingdom_texts[index]}"
                + _linked(s, ("kingdom", action.slot - 1))
            )
        if type(action) is Forge:
            w = c.weapons.index(action.weapon)
            cost = 0 if s.step == FREE_FORGE else forge_cost(s, player, w, action.vorpal)
            return f"{action} ({cost} gold)"
        if type(action) is Sell:
            space = s.board.spaces[s.moves.index[action] >> 1]
            weapon = ("Vorpal " if action.vorpal else "") + c.weapons[space.weapon]
            value = sale_value(s, player, space, action.vorpal)
            return f"{action} ({weapon} to the {race_plural(c.races[space.race])}, {value} gold)"
        if type(action) is Bonus:
            space = s.board.spaces[s.moves.index[action] >> 1]
            weapon = ("Vorpal " if action.vorpal else "") + c.weapons[space.weapon]
            cost = forge_cost(s, player, space.weapon, action.vorpal)
            value = sale_value(s, player, space, action.vorpal)
            race = race_plural(c.races[space.race])
            return f"{action} (forge a {weapon} for {cost}, sell it to the {race} for {value})"
    except (IndexError, ValueError, KeyError):
        pass
    return str(action)


def _linked(s: Table, where: tuple[str, int]) -> str:
    """Kingdom and Craft Cards in the 2-player Game: the card a take discards with it (its
    black line), for menus."""
    link = linked_card(s, where)
    if link is None:
        return ""
    kind, slot, card = link
    c = s.content
    name = c.kingdom[card].name if kind == "kingdom" else c.craft_labels[card]
    return f"; discards {kind} {slot + 1} ({name})"
