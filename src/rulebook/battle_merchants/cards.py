"""The texts of Battle Merchants' cards and components, for looking one up (the terminal's
``card NAME``) and for the board's tips (:mod:`rulebook.battle_merchants.web`): the Kingdom
Cards of the player count, the Craft Cards, the Craft Bonus cards, and every other piece a
newcomer meets on the table (Weapon tiles, Weapon Spaces, Demand Tokens, races, Regions, Reward
Tiles, the Season Area and the Seasons, the mats, gold, Defeated Weapons, Salesman Steve and
the side board). Every number comes from the game's data files; what the project authored
(the rulebook does not print it) says so."""

from __future__ import annotations

from rulebook.battle_merchants.content import (
    Content,
    CraftCard,
    KingdomCard,
    card_text,
    content,
    deck_name,
    ordinal,
    title,
)
from rulebook.battle_merchants.content import race_plural as plural
from rulebook.core import Setup
from rulebook.core.data import authored_reasons
from rulebook.core.words import plural as counted

AUTHORED_CARDS = "Authored for this project: the published card list is not in the rulebook."
AUTHORED_TEXTS = "Authored for this project: the published card texts are not in the rulebook."
AUTHORED_BOARD = (
    "Which Weapon each space wants is authored for this project: the rulebook does not print "
    "the board."
)
AUTHORED_MAT = (
    "Its starting Crafts and printed Reward Tile are authored for this project: the rulebook "
    "does not print the mats."
)
AUTHORED_LINES = (
    "Which spaces the lines join is authored for this project: the rulebook does not print the "
    "side board."
)

#: how long a Kingdom Card lasts (its duration), in words
DURATIONS = {
    "permanent": "Permanent Kingdom Card: stays in front of its owner for the rest of the game "
    "and counts toward the Season's Kingdom Card limit",
    "immediate": "Immediate Kingdom Card: acts once when taken, then goes to the discard pile; "
    "it may be taken even at the Kingdom Card limit",
    "end": "End Kingdom Card: stays in front of its owner, pays at the Year's End, and counts "
    "toward the Season's Kingdom Card limit",
    "final": "Final Kingdom Card: never leaves the face-up Kingdom Cards; anyone may use it as "
    "an action, even at the Kingdom Card limit",
}


def craft_name(card: CraftCard, c: Content) -> str:
    """A Craft Card's name: its label (as the observation gives it) with a capital letter,
    ``Axe +2 (x2, 1 coin)``."""
    return title(card.label(c.weapons))


def kingdom_text(k: KingdomCard, c: Content) -> str:
    """A Kingdom Card: what it does, its gold, how long it lasts."""
    if k.effect == "gold":
        does = (
            f"Gives {k.gold} gold each time a merchant uses it as an action"
            if k.duration == "final"
            else f"Gives {k.gold} gold when taken"
        )
    else:
        does = title(card_text(k, c).removeprefix("then "))
        if k.gold:
            does += (
                f"; {k.gold:+d} gold when taken"
                if k.gold > 0
                else f"; costs {-k.gold} gold to take"
            )
    text = f"{does}. {DURATIONS[k.duration]}."
    return f"{text} {AUTHORED_TEXTS}" if k.authored else text


def craft_cost_words(multiplier: int, weapon: str) -> str:
    """What a Craft Card's cost (free, x1, x2) asks, in words."""
    if multiplier == 0:
        return "Cost: free"
    return f"Cost x{multiplier}: {multiplier} gold per {weapon} Level already held (free with none)"


def craft_text(card: CraftCard, c: Content, copies: dict[str, int]) -> str:
    """A Craft Card: the Levels it gives, its cost, its coins, the decks holding copies."""
    weapon = title(c.weapons[card.weapon])
    levels = counted(card.levels, "Level")
    text = (
        f"Craft Card: {levels} of {weapon} Craft, kept for the game. "
        f"{craft_cost_words(card.multiplier, weapon)}."
    )
    if card.coins:
        text += (
            f" Its {counted(card.coins, 'coin')}: every {weapon} forged costs "
            f"{card.coins} gold less, for good."
        )
    decks = ", ".join(
        f"{deck_name(d)} deck: {counted(n, 'copy', 'copies')}" for d, n in copies.items()
    )
    text += f" {decks}."
    return f"{text} {AUTHORED_CARDS}" if card.authored else text


def bonus_text(weapon: str, c: Content) -> str:
    """A Craft Bonus card (Mastering a Craft; Forge and Sell One Weapon)."""
    rules = c.rules
    return (
        f"Craft Bonus card: goes to the first merchant to reach Level {rules.bonus_level} of "
        f"{weapon} Craft. Once a Season its owner may turn it face down to forge one {weapon} "
        f"(Vorpal from Level {rules.vorpal_level}) at the usual cost and sell it at once, as a "
        "single action; it turns face up at the Season's end."
    )


def cards(setup: Setup) -> dict[str, str]:
    """The cards and components of a game with ``setup.players`` players (all public), by
    name."""
    c = content()
    n = setup.players
    texts = {k.name: kingdom_text(k, c) for k in c.kingdom if n in k.players}
    copies: dict[str, dict[str, int]] = {}
    first: dict[str, CraftCard] = {}
    for card in c.crafts:
        name = craft_name(card, c)
        first.setdefault(name, card)
        decks = copies.setdefault(name, {})
        decks[card.deck] = decks.get(card.deck, 0) + 1
    for name, card in first.items():
        texts[name] = craft_text(card, c, copies[name])
    for weapon in c.weapons:
        texts[f"{title(weapon)} Craft Bonus"] = bonus_text(title(weapon), c)
    texts.update(components(setup))
    return texts


def components(setup: Setup) -> dict[str, str]:
    """Every other piece of the table with ``setup.players`` players, by name."""
    c = content()
    rules, chart = c.rules, c.chart
    n = setup.players
    board = c.boards[n]
    two = n == 2
    seasons = [title(s) for s in rules.seasons]
    limits = ", ".join(f"{s} {x}" for s, x in zip(seasons, rules.kingdom_limit, strict=True))
    chart_authored = (
        " The Vorpal sale price and the End Values are authored for this project: the rulebook "
        "does not print the whole chart."
        if chart.authored
        else ""
    )
    texts: dict[str, str] = {
        "Standard Weapon": (
            f"A Standard Weapon tile: forged for {chart.forge_standard} gold (less its Craft "
            f"Cards' coins) with Level 1 or more in its Craft; sold for {chart.sell_standard} "
            f"gold plus 1 per matching Reward Tile; worth {chart.end_standard} gold if still "
            f"unsold at the Year's End. Any Vorpal Weapon beats it in battle; it counts "
            f"{rules.defeated_standard} in a Defeated Weapons pile.{chart_authored}"
        ),
        "Vorpal Weapon": (
            f"A Vorpal Weapon tile (marked V): forged for {chart.forge_vorpal} gold (less its "
            f"Craft Cards' coins) from Level {rules.vorpal_level} in its Craft; sold for "
            f"{chart.sell_vorpal} gold plus 1 per matching Reward Tile; worth "
            f"{chart.end_vorpal} gold if still unsold at the Year's End. It beats any Standard "
            f"Weapon in battle and counts {rules.defeated_vorpal} in a Defeated Weapons "
            f"pile.{chart_authored}"
        ),
        "Weapon Space": (
            "A Weapon Space: it takes only the Weapon drawn on it, sold to the race on its side "
            "of the road, while its Battlefield's Demand Token is face up (fire) or gone. The "
            "sale pays the Weapon's price plus 1 gold per Reward Tile of that race and of that "
            "Region held. At each Season's end the two facing Weapons of a Battlefield fight."
            + (f" {AUTHORED_BOARD}" if c.board_authored[n] else "")
        ),
        "Demand Token (fire)": (
            "A face-up Demand Token (fire): both Weapon Spaces of this Battlefield are open. "
            "When both hold a Weapon, the token moves to the Season Area and the next "
            "Battlefield of the Region turns its token face up."
        ),
        "Demand Token (lock)": (
            "A face-down Demand Token (lock): this Battlefield is closed to sales until the "
            "token before it leaves." + (" Salesman Steve ignores locks." if two else "")
        ),
        "Open Battlefield": (
            "No Demand Token: it went to the Season Area. Both Weapon Spaces stay open for "
            "sales, in any Season (a battle may empty them again)."
        ),
        "Season Area": (
            f"The Demand Tokens that leave the Battlefields land here. The "
            f"{ordinal(rules.season_tokens)} ends the Season: every other merchant takes one "
            "last turn (later tokens go back to the box), then war breaks out."
        ),
        "Seasons": (
            f"The game lasts {len(seasons)} Seasons: {', '.join(seasons)}. Each ends in war: on "
            "every Battlefield with two facing Weapons, Vorpal beats Standard, else the higher "
            f"Craft Level wins, else both are destroyed and each owner gets {rules.tie_gold} "
            "gold; the winner's owner keeps the loser in a Defeated Weapons pile. Then repairs "
            f"pay {rules.repair_gold} gold per Weapon owned on the board. After "
            f"{seasons[-1]} comes the Year's End."
        ),
        "Kingdom Card limit": (
            "How many Permanent and End Kingdom Cards a merchant may keep this Season: "
            f"{limits}. Immediate and Final cards may always be taken."
        ),
        "Gold": (
            f"Gold is the score: the most gold after the Year's End wins. Each merchant starts "
            f"with {rules.start_gold}. Ties go to the most Weapons owned on the board "
            f"({rules.tiebreak_standard} gold a Standard, {rules.tiebreak_vorpal} a Vorpal)."
        ),
        "Defeated Weapons": _defeated_text(c, two),
        "Craft Level track": (
            f"A merchant's Craft in one Weapon, in Levels (the filled squares). Level 1 forges "
            f"Standard Weapons, Level {rules.vorpal_level} (the gold-edged square) Vorpal ones, "
            f"and the first to Level {rules.bonus_level} (the round square) takes that Weapon's "
            "Craft Bonus card. In battle, between Weapons of the same quality, the higher Level "
            "wins. The number after a minus sign is the discount on forging it; Weapons forged "
            "and not yet sold are counted at the end of the row (V: Vorpal)."
        ),
        "Craft deck": (
            f"The face-down Craft Cards; {rules.face_up_crafts} lie face up. The "
            f"{deck_name('spring_summer')} deck serves until {seasons[1]}'s end, then the rest "
            f"leaves the game and the {deck_name('autumn_winter')} deck takes over. No deck is "
            "ever reshuffled."
        ),
        "Kingdom deck": (
            f"The face-down Kingdom Cards for {n} players, stacked pile A on top down to the "
            f"single D card; {rules.face_up_kingdom} lie face up. It is never reshuffled."
        ),
    }
    for r in board.races:
        race = c.races[r]
        regions = [
            title(board.regions[i]) for i, pair in enumerate(board.region_races) if r in pair
        ]
        texts[plural(race)] = (
            f"One of the warring races, fighting in the {' and the '.join(regions)}: the "
            f"Weapon Spaces on its side of those roads are sales to the {plural(race)}."
        )
        texts[f"{title(race)} Reward Tile"] = (
            f"Each {title(race)} Reward Tile on a mat earns 1 more gold on every later sale to "
            f"the {plural(race)}. After a sale to them a merchant takes the tile waiting on "
            "the space of its colour, if any: one a Season, as the spaces refill at each "
            "Season's end."
        )
    charters = {k.region: k.name for k in c.kingdom if k.effect == "region_tile" and n in k.players}
    for r, region in enumerate(board.regions):
        a, b = (plural(c.races[x]) for x in board.region_races[r])
        texts[title(region)] = (
            f"A Region where the {a} fight the {b}: a road of {board.battlefields} "
            f"Battlefields from the centre outwards, each with a Weapon Space on either side. "
            "Only the Battlefield nearest the centre starts open."
        )
        charter = charters.get(region)
        texts[f"{title(region)} Reward Tile"] = (
            f"The only {title(region)} Reward Tile: on a mat it earns 1 more gold on every sale "
            f"in the {title(region)}."
            + (
                f" The rulebook does not say how it is won: here the {charter} Kingdom Card "
                "takes it (authored for this project)."
                if charter
                else ""
            )
        )
    for p in range(n):
        colour = c.colours[p]
        crafts = " and ".join(title(c.weapons[w]) for w in c.mat_crafts[p])
        reward = title(c.races[c.mat_reward[n][p]])
        texts[f"{title(colour)} mat"] = (
            f"The {colour} merchant's mat: gold, Craft Levels, Weapons forged and not yet "
            f"sold, Reward Tiles, Craft Bonus and Kingdom Cards, all public. It starts with "
            f"Level 1 in {crafts} Craft and a printed {reward} Reward Tile."
            + (f" {AUTHORED_MAT}" if c.mats_authored[p] else "")
        )
    if two:
        order = ", ".join(plural(c.races[r]) for r in board.races)
        texts["Salesman Steve"] = (
            "With 2 players, after every sale Steve sells a Standard Weapon (no owner, no "
            "gold) to the race his cube marks, on its empty Weapon Space nearest the centre "
            "(locks ignored; between equals, the first such row clockwise from the one just "
            "sold to), then his cube moves on; a full race gets nothing. His race order is "
            f"dealt at random from the {order}. His Weapons lose every battle against a "
            "merchant's."
        )
        texts["Side board"] = (
            "With 2 players the face-up cards lie on a side board: taking a card (or using the "
            "Final Kingdom Card) also discards the card joined to it by a black line; a Final "
            "card is never discarded. At each turn's start the cards slide down to fill gaps. "
            "At a Season's end the cards stay, unless the last action was neither Learn nor "
            "Take Kingdom Card: then Kingdom and Craft space 1 are discarded."
            + (f" {AUTHORED_LINES}" if c.links_authored else "")
        )
    return texts


def _defeated_text(c: Content, two: bool) -> str:
    rules = c.rules
    prizes = rules.defeated_bonus_2p if two else rules.defeated_bonus
    places = ", ".join(
        f"the {'highest' if i == 0 else ordinal(i + 1) + '-highest'} total earns {gold} gold"
        for i, gold in enumerate(prizes)
    )
    return (
        "The Weapons this merchant's Weapons beat in battle (a Weapon beaten by its owner's "
        f"own goes there too). A Standard counts {rules.defeated_standard}, a Vorpal "
        f"{rules.defeated_vorpal}. At the Year's End {places}"
        + (", the other nothing." if two else ".")
    )


def authored_cards(setup: Setup) -> dict[str, str]:
    """The Kingdom Cards the project authored (the rulebook lacks their list), each with its
    data file's reason; the Craft Bonus cards are the rulebook's."""
    return authored_reasons("rulebook.battle_merchants.data", "kingdom.toml", "cards")
