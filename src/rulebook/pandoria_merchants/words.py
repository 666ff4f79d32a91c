"""Player turn, in plain words: each step's moves told as instructions, with what they cost.

The rulebook's Player turn (1. Roll, 2. Draw, 3. Spell, Building, Relic or Monument, 4. Score,
5. Buy a Card; the family version's Spell Archive, the solo version's Trolls and Bridges) told
move by move in the sheets' names: ``Buy the Rage 2 / Tower card for 3 Gold: ...``. Worked out
from the position before the move; nothing here changes the state.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from rulebook.core import Action
from rulebook.pandoria_merchants import actions, buildings, buying, family, view
from rulebook.pandoria_merchants.board import CITY, KINDS
from rulebook.pandoria_merchants.cards import amount, card_title, index, spell_title, title
from rulebook.pandoria_merchants.content import Card
from rulebook.pandoria_merchants.moves import Move
from rulebook.pandoria_merchants.terms import (
    ACTION,
    BRIDGE,
    BUY,
    CLAIM,
    CRAFT,
    CROSSED,
    CRYSTAL,
    DRAW,
    GOLD,
    NONE,
    RESOURCES,
    SETUP,
    SPELL,
    TROLL_COLUMN,
    TROLL_ELEMENT,
    WOOD,
)

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets

#: a move told to its mover, told of them: ``your`` -> ``their``, ``you`` -> ``they``
_SECOND_PERSON: Final = re.compile(r"\b([Yy])ou(r|rs)?\b")
_THIRD_PERSON: Final = {"": "hey", "r": "heir", "rs": "heirs"}


def _them(found: re.Match[str]) -> str:
    return ("T" if found[1] == "Y" else "t") + _THIRD_PERSON[found[2] or ""]


def _told_of_them(text: str) -> str:
    """A phrase in the second person told of the seat that moves: ``your Worker`` becomes
    ``their Worker``, ``you lack`` becomes ``they lack``."""
    return _SECOND_PERSON.sub(_them, text)


def describe(s: PandoriaSheets, player: int, action: Action) -> str:
    """The move in plain words, as an instruction with what it costs and gives, in the
    sheets' names: ``Buy the Rage 2 / Tower card for 3 Gold: ...``. Worked out from the
    position before the move (the costs ``player`` pays now, the VP still to be had). A move
    that is not legal now (the web app tells a move before it is checked) keeps its short
    form: it is refused, never told."""
    legal = s._legal_moves() if player in s.current_players() else []
    if type(action) is not Move or action not in legal:
        return view.explain(s, player, action)
    return plain(s, player, action)


def describe_public(s: PandoriaSheets, player: int, action: Action) -> str:
    """:meth:`describe` told of the seat that moves (nothing in a move is hidden): its
    Worker, Resources and cards are "their" Worker, Resources and cards."""
    return _told_of_them(describe(s, player, action))


def plain(s: PandoriaSheets, p: int, a: Move) -> str:
    """:meth:`describe` of a move of this phase (its verb names what it does)."""
    phase = s.phase
    verb = a.verb
    if verb == "choose":
        return plain_choice(s, a.arg)
    if phase == DRAW:
        return plain_draw(s, a)
    if phase == ACTION:
        return plain_action(s, p, a)
    if phase == SPELL:
        return plain_spell(s, p, a)
    if phase == SETUP:
        card = s.c.card_by_id[a.arg]
        use = card_use(s, p, card)
        return f"Take the {card_title(card)} card free as your starting card: {use}"
    if phase == BUY:
        if verb == "pass":
            return "Buy no card this turn"
        card = s.c.card_by_id[a.arg]
        cost = paying(s, p, buying.cost_in(GOLD, buying.gold_cost(s, p, card)))
        return (
            f"Buy the {card_title(card)} card for {cost}: {card_use(s, p, card)}"
            f"{blocking(s, p, card)}"
        )
    if phase == CLAIM:
        room = next(r for r in s.c.rooms if r.id == a.arg)
        fs = room.spells[s.taken[room.index]]
        return (
            f"Claim {spell_title(fs.spell, fs.power)} from room {room.id} of the Spell "
            f"Archive, to cast on a later turn"
        )
    if phase == TROLL_COLUMN:
        col = int(a.arg.split("-")[1]) - 1
        crossed = sum(1 for c in s.c.cards if c.column == col and s.cards[0][c.index] == NONE)
        if not crossed:
            return f"Give column {col + 1} to the Trolls for 0 VP: it closes (you own its cards)"
        return (
            f"Give column {col + 1} to the Trolls for {crossed} VP: it closes, and its cards "
            f"you have not bought ({crossed}) are crossed out, 1 VP each"
        )
    if phase == TROLL_ELEMENT:
        if a.arg == "monument":
            return f"Give the Trolls the best Monument left, worth {buildings.monument_value(s)} VP"
        kind = next(i for i, (n, _) in enumerate(s.c.relics) if f"relic-{n}" == a.arg)
        artifacts = s.c.relics[kind][0]
        return (
            f"Give the Trolls the best Relic of {artifacts} Artifacts left, worth "
            f"{actions.relic_value(s, kind)} VP"
        )
    if phase == BRIDGE:
        t = s.board.territory[s._hex(a)]
        return (
            f"Cross the Bridge to {a.arg} into the map's Territory {t} (your Territory "
            f"{len(s.finished) + 1} of {s.c.solo.territories})"
        )
    return str(a)  # pragma: no cover - every phase's moves are told above


def plain_choice(s: PandoriaSheets, kind: str) -> str:
    """A "?" die read as ``kind`` (the turn's roll, or the Terrain Spell's)."""
    which = "the first ? die" if s.dice.count(-1) > 1 else "the ? die"
    spell = " of the Terrain Spell" if s.phase == SPELL else ""
    return f"Choose {title(kind)} for {which}{spell}"


def plain_draw(s: PandoriaSheets, a: Move) -> str:
    """2.1 and 2.2: a Resource (first or second), the Worker, or a forfeit."""
    which = "first" if s.item == 0 else "second"
    if a.verb == "skip":
        if s.item == 0:
            return "Forfeit your first Resource: 2 Resources and a Worker no longer fit here"
        return "Forfeit your second Resource: no hex is left for it with room for a Worker"
    if a.verb == "worker":
        drawn = "Resources" if s.r1 >= 0 and s.r2 >= 0 else "Resource"
        return f"Draw your Worker on {a.arg}, next to the {drawn} you just drew"
    kind = KINDS.index(a.verb)
    what = f"{'a ' if kind == CITY else ''}{title(a.verb)}"
    text = f"Draw {what} on {a.arg} as your {which} Resource"
    if s.item == 0 and s.dice[0] != s.dice[1]:
        other = s.dice[1] if s.dice[0] == kind else s.dice[0]
        return f"{text} (the {title(KINDS[other])} goes next to it)"
    if s.item == 0:
        artifact = "" if s.family else ", with an Artifact between them: doubles"
        return f"{text} (the other {title(a.verb)} goes next to it{artifact})"
    if s.item == 1 and s.r1 >= 0 and s.dice[0] == s.dice[1] and not s.family:
        return f"{text}, with an Artifact between the two (doubles)"
    return text


def plain_action(s: PandoriaSheets, p: int, a: Move) -> str:
    """3. a Spell, a Building, a Relic or a Monument (family: a Spell of the Archive)."""
    verb = a.verb
    if verb == "pass":
        if s.family:
            return "Go on without casting a Spell this turn"
        return "Go on without a Spell, Building, Relic or Monument this turn"
    if verb == "relic":
        n = int(a.arg)
        kind = next(i for i, (k, _) in enumerate(s.c.relics) if k == n)
        craft = amount(s.c.tracks.relic_craft, "craft")
        return (
            f"Make a Relic worth {actions.relic_value(s, kind)} VP from {n} of your Artifacts "
            f"for {craft}{academy_words(s, p)}"
        )
    if s.family:
        fs = family.family_spell(s, a.arg)
        spells, _ = index()
        effect = spells[fs.spell].format(power=fs.power)
        name = spell_title(fs.spell, fs.power)
        return f"Cast your {name} Spell; it is used up. {name}: {effect}"
    card = s.c.card_by_id[a.arg]
    if verb == "cast":
        spells, _ = index()
        cost = paying(s, p, buying.cost_in(CRYSTAL, buildings.spell_cost(s, p, card)))
        shrine = s.c.tracks.shrine_vp * s.built(p, "shrine")
        gain = f"; your Shrine scores {shrine} VP" if shrine else ""
        name = spell_title(card.spell, card.power)
        effect = spells[card.spell].format(power=card.power)
        return (
            f"Cast {name} from your {card_title(card)} card for {cost}; the card is used "
            f"up{gain}. {name}: {effect}"
        )
    if verb == "build":
        return plain_build(s, p, card)
    return plain_monument(s, p, card)


def plain_build(s: PandoriaSheets, p: int, card: Card) -> str:
    """3.2 (or the Construct Spell): a Building, its cost and what it does."""
    _, effects = index()
    building = title(card.building)
    cost = (
        "without paying Wood (Construct)"
        if s.free_wood
        else f"for {paying(s, p, buying.cost_in(WOOD, buildings.build_cost(s, p, card)))}"
    )
    return (
        f"Build the {building} of your {card_title(card)} card {cost}; its Spell is lost"
        f"{academy_words(s, p)}. {building}: {effects[card.building]}"
    )


def plain_monument(s: PandoriaSheets, p: int, card: Card) -> str:
    """3.4 (or the Construct Spell): a Monument over a Building, its cost and its VP."""
    building = title(card.building)
    cost = paying(s, p, buildings.monument_cost(s, p, card))
    free = " and no Wood (Construct)" if s.free_wood else ""
    recycled = int(card.building == "academy")  # crossed out before it would score
    return (
        f"Build a Monument worth {buildings.monument_value(s)} VP over your {building} "
        f"({card_title(card)} card) for {cost}{free}: the {building} stops working"
        f"{academy_words(s, p, recycled)}"
    )


def plain_spell(s: PandoriaSheets, p: int, a: Move) -> str:
    """A target of the Spell being cast (Spell Index)."""
    spell = s.spell
    verb = a.verb
    if spell == "acquire":
        card = s.c.card_by_id[a.arg]
        return (
            f"Take the {card_title(card)} card without paying its "
            f"{amount(card.gold, 'gold')} (Acquire): {card_use(s, p, card)}"
            f"{blocking(s, p, card)}"
        )
    if spell == "clone":
        return f"Draw an extra Worker on {a.arg}, next to one of your Workers (Clone)"
    if spell == "muster":
        return f"Draw an extra Worker on {a.arg} (Muster)"
    if spell == "conjure":
        level = s.tracks[p][RESOURCES.index(a.arg)]
        top = s.c.tracks.maximum
        return f"Move your {title(a.arg)} marker from {level} to {top} (Conjure)"
    if spell == "construct":
        card = s.c.card_by_id[a.arg]
        if verb == "build":
            return plain_build(s, p, card)
        return plain_monument(s, p, card)
    if spell == "rage":
        return (
            f"Make your Worker on {a.arg} count as {s.power} Workers when scoring this turn (Rage)"
        )
    if spell == "ship":
        return (
            f"Put a Worker on the Ship space {a.arg}: it scores every area next to its lake "
            f"enclosed from now on (Ship)"
        )
    if spell == "swamp":
        if verb == "skip":
            return "Stop at one Swamp hex"
        if s.spell_hex >= 0:
            return f"Blacken {a.arg} too, next to {s.hex_name(s.spell_hex)} (Swamp)"
        more = " (you may blacken a hex next to it too)" if s.spell_left > 1 else ""
        return f"Blacken {a.arg} as a Swamp: nothing goes there and it closes areas{more}"
    # terrain: a Resource of its dice
    what = f"{'a ' if KINDS.index(verb) == CITY else ''}{title(verb)}"
    return f"Draw {what} on {a.arg} from the Terrain dice (no Worker comes with it)"


def card_use(s: PandoriaSheets, p: int, card: Card) -> str:
    """What a card is for, at ``p``'s costs: its Spell to cast or its Building to build."""
    crystals = amount(buildings.spell_cost(s, p, card), "crystal")
    wood = amount(buildings.build_cost(s, p, card), "wood")
    return (
        f"its Spell {spell_title(card.spell, card.power)} costs {crystals} to cast, its "
        f"Building {title(card.building)} {wood} to build"
    )


def blocking(s: PandoriaSheets, p: int, card: Card) -> str:
    """Whether owning ``card`` makes ``p`` the owner of its whole column (Blocking Cards),
    which closes it to everyone else; nothing to say in solo."""
    if s.solo:
        return ""
    others = [c for c in s.c.cards if c.column == card.column and c is not card]
    if all(s.cards[p][c.index] not in (NONE, CROSSED) for c in others):
        return f"; with it you own all of column {card.column + 1}: nobody else may buy there"
    return ""


def academy_words(s: PandoriaSheets, p: int, recycled: int = 0) -> str:
    """The VP ``p``'s Academies score for what is built (less one recycled into it)."""
    vp = s.c.tracks.academy_vp * (s.built(p, "academy") - recycled)
    return f"; your Academy scores {vp} VP" if vp else ""


def paying(s: PandoriaSheets, p: int, need: list[int]) -> str:
    """A cost as ``p`` pays it: ``3 Wood``, ``1 Craft and 2 Wood``, and the Crafts that
    stand in for what ``p`` lacks (2 for 1; 1 for 1 with the Market)."""
    tracks = s.tracks[p]
    rate = s.market_rate if s.built(p, "market") else s.craft_rate
    parts = []
    lacking = []
    crafts = 0
    for r in (WOOD, CRYSTAL, GOLD, CRAFT):
        if need[r] <= 0:
            continue
        parts.append(amount(need[r], RESOURCES[r]))
        if r != CRAFT and need[r] > tracks[r]:
            short = need[r] - tracks[r]
            crafts += short * rate
            lacking.append(amount(short, RESOURCES[r]))
    text = " and ".join(parts)
    if crafts:
        text += f" ({amount(crafts, 'craft')} for the {' and '.join(lacking)} you lack)"
    return text
