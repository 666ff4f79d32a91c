"""The Actions in plain words: each move told to a newcomer as an instruction.

"On your turn, you get to take one action of your choice": Learn One Craft, Forge Up to Three
Weapons, Sell One Weapon, Take One Kingdom Card or Forge and Sell One Weapon, and the steps the
Kingdom Cards add. :func:`describe` says what a move costs, what it gives and what comes with it
(a Reward Tile, a Demand Token to the Season Area, Salesman Steve's sale, the card a black line
discards, the end of the Season), in the project's own words, from the same rules functions the
moves are made with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.battle_merchants import actions
from rulebook.battle_merchants.actions import Bonus, Done, Forge, Learn, Pass, Sell, TakeKingdom
from rulebook.battle_merchants.content import Space, card_text, race_plural, title
from rulebook.battle_merchants.craft import learn_cost
from rulebook.battle_merchants.forge import forge_cost, forge_limit, last_forge
from rulebook.battle_merchants.kingdom import effects, kingdom_limit
from rulebook.battle_merchants.sell import last_sale, sale_sends_token, sale_value
from rulebook.battle_merchants.setup import EMPTY, LOCK
from rulebook.battle_merchants.two_players import linked_card, steve_target
from rulebook.battle_merchants.view import explain
from rulebook.core import Action

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table


def describe(s: Table, player: int, action: Action) -> str:
    """The Actions: the move in plain words for a newcomer, as an instruction beginning with
    its verb: what it costs, what it gives and what comes with it (a Reward Tile, a Demand Token to
    the Season Area, Salesman Steve's sale, the card its black line discards, the end of
    the Season). Card texts are quoted, so that the words read right told of another seat
    (:func:`rulebook.core.words.third_person`). Everything it names is public."""
    try:
        if type(action) is Learn:
            text = _describe_learn(s, player, action.slot - 1)
        elif type(action) is TakeKingdom:
            text = _describe_kingdom(s, player, action.slot - 1)
        elif type(action) is Forge:
            text = _describe_forge(s, player, action)
        elif type(action) is Sell:
            text = _describe_sale(s, player, action)
        elif type(action) is Bonus:
            text = _describe_bonus(s, player, action)
        elif type(action) is Done:
            text = _describe_done(s)
        elif type(action) is Pass:
            text = "Pass the turn: no action is possible"
            if not s.war_after_turn("pass"):
                text += " (when every merchant passes in a row, the Season ends)"
        else:
            return explain(s, player, action)
    except (IndexError, ValueError, KeyError):
        return explain(s, player, action)
    return text + _season_end_words(s, player, action)


def _card_names(s: Table, effect: str) -> str:
    """Take Kingdom Card: the cards of this game with ``effect`` (what a free step comes
    from)."""
    n = s.seats
    return " or ".join(k.name for k in s.content.kingdom if k.effect == effect and n in k.players)


def _craft_words(s: Table, slot: int) -> str:
    """Learn Craft: ``the Axe +2 Craft Card (Craft space 3)``."""
    c = s.content
    card = s.craft_pool[slot]
    if card == EMPTY:
        raise IndexError(slot)
    k = c.crafts[card]
    return f"the {title(c.weapons[k.weapon])} +{k.levels} Craft Card (Craft space {slot + 1})"


def _kingdom_words(s: Table, slot: int) -> str:
    """Take Kingdom Card: ``the Kingdom Card Night Shift (Kingdom space 2)``."""
    card = s.kingdom_pool[slot]
    if card == EMPTY:
        raise IndexError(slot)
    return f"the Kingdom Card {s.content.kingdom[card].name} (Kingdom space {slot + 1})"


def _discards_words(s: Table, where: tuple[str, int]) -> str:
    """Kingdom and Craft Cards in the 2-player Game: what the side board's black line
    discards with a card."""
    link = linked_card(s, where)
    if link is None:
        return ""
    kind, slot, _ = link
    card = _kingdom_words(s, slot) if kind == "kingdom" else _craft_words(s, slot)
    return f"; its black line discards {card}"


def _describe_learn(s: Table, p: int, slot: int) -> str:
    """Learn One Craft (or ExtraCrafty's free Craft Card): cost, Levels, coins, Vorpal,
    the Craft Bonus card."""
    c = s.content
    rules = c.rules
    card = s.craft_pool[slot]
    name = _craft_words(s, slot)
    k = c.crafts[card]
    weapon = title(c.weapons[k.weapon])
    if s.step == actions.FREE_CRAFT:
        head = f"Take {name} for free ({_card_names(s, 'free_craft')})"
    else:
        cost = learn_cost(s, p, card)
        if cost:
            head = f"Pay {cost} gold ({k.multiplier} per {weapon} Level held) to learn {name}"
        elif k.multiplier:
            head = f"Learn {name} for free (x{k.multiplier}, no {weapon} Level yet)"
        else:
            head = f"Learn {name}, a free card"
    have = s.levels[p][k.weapon]
    after = have + k.levels
    gains = [f"{weapon} Craft from Level {have} to {after}"]
    if k.coins:
        gains.append(f"every {weapon} forged costs {k.coins} gold less")
    if have < rules.vorpal_level <= after:
        gains.append(f"Vorpal {weapon}s can be forged")
    if after >= rules.bonus_level and s.bonus_owner[k.weapon] == EMPTY:
        gains.append(f"the {weapon} Craft Bonus card comes with it")
    return f"{head}: {'; '.join(gains)}" + _discards_words(s, ("craft", slot))


def _describe_kingdom(s: Table, p: int, slot: int) -> str:
    """Take One Kingdom Card: its gold, where it goes (and the Season's limit), what it
    does, in the card's words."""
    c = s.content
    k = c.kingdom[s.kingdom_pool[slot]]
    name = _kingdom_words(s, slot)
    if k.effect == "gold":
        if k.duration == "final":
            head = f"Use {name} to take {k.gold} gold (the card stays)"
        else:
            head = f"Take {name} and its {k.gold} gold"
        return head + _discards_words(s, ("kingdom", slot))
    if k.gold > 0:
        head = f"Take {name} and {k.gold} gold"
    elif k.gold < 0:
        head = f"Pay {-k.gold} gold to take {name}"
    else:
        head = f"Take {name}"
    if k.duration in ("permanent", "end"):
        kept = len(s.kingdom_cards[p]) + 1
        season = title(c.rules.seasons[s.season])
        head += f", kept ({kept} of {kingdom_limit(s)} Kingdom Cards this {season})"
    if k.effect == "region_tile" and k.region is not None:
        region = title(k.region)
        r = s.board.regions.index(k.region) if k.region in s.board.regions else -1
        if r >= 0 and s.region_on_board[r]:
            does = (
                f"the {region} Reward Tile comes with it (1 more gold on every sale in the "
                f"{region})"
            )
        else:
            does = f"the {region} Reward Tile is taken already: only the gold"
    elif k.effect == "sell_twice":
        does = "then sell up to two Weapons" + (
            f", each for {k.amount} gold less" if k.amount else ""
        )
        if s.two:
            does += ", Salesman Steve selling after each"
    else:
        text = card_text(k, c).removeprefix("then ")
        does = (
            f'then "{text[:1].upper()}{text[1:]}"'
            if k.duration == "immediate"
            else f'"{title(text)}"'
        )
    return f"{head}: {does}" + _discards_words(s, ("kingdom", slot))


def _forge_cost_words(s: Table, p: int, weapon: int, vorpal: bool) -> str:
    """Forge Weapons: how a forge cost comes about: `` (5 less 1 for Craft Card coins)``;
    empty when it is the chart's price."""
    c = s.content
    chart = c.chart
    base = chart.forge_vorpal if vorpal else chart.forge_standard
    less = []
    if s.coins[p][weapon]:
        less.append(f"{s.coins[p][weapon]} for Craft Card coins")
    for k in effects(s, p, "forge_discount"):
        if k.quality is None or k.quality == int(vorpal):
            less.append(f"{k.amount} for {k.name}")
    return f" ({base} less {', '.join(less)})" if less else ""


def _describe_forge(s: Table, p: int, action: Forge) -> str:
    """Forge Up to Three Weapons, one Weapon (or Free Samples' free Standard Weapon)."""
    c = s.content
    w = c.weapons.index(action.weapon)
    weapon = title(action.weapon)
    if s.step == actions.FREE_FORGE:
        return f"Forge a Standard {weapon} for free ({_card_names(s, 'free_forge')})"
    quality = "Vorpal" if action.vorpal else "Standard"
    cost = forge_cost(s, p, w, action.vorpal)
    why = _forge_cost_words(s, p, w, action.vorpal)
    which = f"Weapon {s.count + 1} of up to {forge_limit(s, p)} this turn"
    if cost:
        return f"Pay {cost} gold{why} to forge a {quality} {weapon}, {which}"
    return f"Forge a {quality} {weapon} for free{why}, {which}"


def _space_words(s: Table, space: Space) -> str:
    """Regions and Battlefields: ``the Orcs at Desert Battlefield 2``."""
    c = s.content
    region = title(s.board.regions[space.region])
    race = race_plural(c.races[space.race])
    return f"the {race} at {region} Battlefield {space.battlefield + 1}"


def _sale_words(s: Table, p: int, space: Space, vorpal: bool) -> str:
    """Selling Weapons: a sale's gold and how it comes about: ``8 gold (6 + 2 for Dwarf
    Reward Tiles)``; then the Reward Tile it takes, the Demand Token it sends and Steve's sale
    after it."""
    c = s.content
    chart = c.chart
    race = c.races[space.race]
    parts = []
    tiles = s.race_tiles[p][space.race]
    if tiles:
        parts.append(f" + {tiles} for {title(race)} Reward Tile{'s' if tiles > 1 else ''}")
    if s.region_tiles[p][space.region]:
        region = title(s.board.regions[space.region])
        parts.append(f" + {s.region_tiles[p][space.region]} for the {region} Reward Tile")
    for k in effects(s, p, "sale_bonus"):
        if (k.race is None or k.race == space.race) and (
            k.quality is None or k.quality == int(vorpal)
        ):
            parts.append(f" + {k.amount} for {k.name}")
    if s.penalty:
        names = " or ".join(
            k.name for k in c.kingdom if k.effect == "sell_twice" and k.amount == s.penalty
        )
        parts.append(f" - {s.penalty} for {names}")
    base = chart.sell_vorpal if vorpal else chart.sell_standard
    value = sale_value(s, p, space, vorpal)
    text = f"{value} gold" + (f" ({base}{''.join(parts)})" if parts else "")
    if s.reward_spaces[space.race][p]:
        article = "an" if race[:1] in "aeiou" else "a"
        text += f"; take {article} {title(race)} Reward Tile"
    text += _token_words(s, space)
    if s.two:
        text += _steve_words(s, space)
    return text


def _token_words(s: Table, space: Space) -> str:
    """What a sale to ``space`` does to its Battlefield's Demand Token (Selling Weapons,
    step 4; Season's End)."""
    if not sale_sends_token(s, space.index):
        return ""
    rules = s.content.rules
    field = f"Battlefield {space.battlefield + 1}"
    tokens = s.season_area + 1
    if s.ending_after != EMPTY:
        text = f"; {field}'s Demand Token goes back to the box (the Season is ending)"
    else:
        text = (
            f"; {field}'s Demand Token goes to the Season Area ({tokens} of {rules.season_tokens})"
        )
    if space.battlefield + 1 < s.board.battlefields and s.tokens[(space.index >> 1) + 1] == LOCK:
        text += f" and Battlefield {space.battlefield + 2} opens"
    if s.ending_after == EMPTY and tokens >= rules.season_tokens:
        text += ": every other merchant takes one last turn, then war"
    return text


def _steve_words(s: Table, space: Space) -> str:
    """Salesman Steve: his sale after a sale to ``space`` (2 players)."""
    c = s.content
    target = steve_target(s, space, before_sale=True)
    race = race_plural(c.races[s.steve_races[s.steve_cube]])
    if target is None:
        return f"; Salesman Steve finds no open space among the {race}"
    weapon = title(c.weapons[target.weapon])
    return f"; then Salesman Steve sells a Standard {weapon} to {_space_words(s, target)}"


def _describe_sale(s: Table, p: int, action: Sell) -> str:
    """Sell One Weapon (or one of the two sales of Drive the Workers, Desperate Times)."""
    space = s.board.spaces[s.moves.index[action] >> 1]
    quality = "Vorpal" if action.vorpal else "Standard"
    weapon = title(s.content.weapons[space.weapon])
    which = (
        f" (sale {s.count + 1} of up to {actions.SALES_TWICE})" if s.step == actions.SELLING else ""
    )
    return f"Sell a {quality} {weapon} to {_space_words(s, space)}{which} for " + _sale_words(
        s, p, space, action.vorpal
    )


def _describe_bonus(s: Table, p: int, action: Bonus) -> str:
    """Forge and Sell One Weapon, the Craft Bonus action."""
    space = s.board.spaces[s.moves.index[action] >> 1]
    quality = "Vorpal" if action.vorpal else "Standard"
    weapon = title(s.content.weapons[space.weapon])
    cost = forge_cost(s, p, space.weapon, action.vorpal)
    return (
        f"Use the {weapon} Craft Bonus card (once a Season) to forge a "
        f"{quality} {weapon} for {cost} gold and sell it at once to "
        f"{_space_words(s, space)} for " + _sale_words(s, p, space, action.vorpal)
    )


def _describe_done(s: Table) -> str:
    """Player Turns: stop: forge no more, sell no more, or decline a free card or Weapon."""
    if s.step == actions.FORGING:
        return f"Stop forging after {s.count} Weapon{'s' if s.count > 1 else ''}"
    if s.step == actions.SELLING:
        if not s.count:
            return "Make no sale after all"
        return f"Stop selling after {s.count} sale{'s' if s.count > 1 else ''}"
    if s.step == actions.FREE_CRAFT:
        return f"Decline the free Craft Card ({_card_names(s, 'free_craft')})"
    if s.step == actions.FREE_FORGE:
        return f"Decline the free Standard Weapon ({_card_names(s, 'free_forge')})"
    return "End the turn"


def _season_end_words(s: Table, p: int, action: Action) -> str:
    """``; this ends the Spring: war follows`` when the move ends the turn that ends the
    Season (Season's End: Time For War!)."""
    if type(action) is Forge:
        ends = s.step == actions.FREE_FORGE or last_forge(s, p)
    elif type(action) is Sell:
        ends = last_sale(s)
    elif type(action) is TakeKingdom:
        k = s.content.kingdom[s.kingdom_pool[action.slot - 1]]
        if k.effect == "free_craft":  # no Craft Card left to take for free: over
            left = {i for i, x in enumerate(s.craft_pool) if x != EMPTY}
            link = linked_card(s, ("kingdom", action.slot - 1))
            if link is not None and link[0] == "craft":
                left.discard(link[1])
            ends = not left
        else:
            ends = k.effect not in ("free_forge", "sell_twice")
    else:
        ends = True
    if not ends or not s.war_after_turn("pass" if type(action) is Pass else "other"):
        return ""
    seasons = s.content.rules.seasons
    if s.season == len(seasons) - 1:
        return f"; this ends {title(seasons[s.season])} and the year: war, then the Year's End"
    return f"; this ends {title(seasons[s.season])}: war follows"
