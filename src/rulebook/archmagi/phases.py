"""Archmagi's Draw Phase, Play Phase (with its Special Circumstances) and Discard Phase.

DRAW PHASE: "Draw the Spell from the top of the Magic Pool into your Hand." PLAY PHASE: "Gain 2
Plays (unless otherwise indicated)"; a Play draws the top Spell of the Magic Pool or activates
"the Top or Bottom Action of a Spell of your color or the Top Action of a Spell of any color,
laying it down faceup in a Play Area"; "You may end your Play Phase at any time." Special
Circumstances: the Fire Magi may perform a Fire Spell's Top Action followed by its Bottom
Action; the Flora Magi may Plant a Flora Spell as a Play, and cannot use a Play for a Bottom
Action. DISCARD PHASE: "Discard all Played Spells from the Play Area to the discard pile of the
Magic Pool", then "If you have more than 10 Spells in your Hand, you must discard Spells from
your Hand until you have 10 cards left." The Monster Phase between them is in
:mod:`rulebook.archmagi.monsters`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.archmagi.actions import affordable
from rulebook.archmagi.content import ELEMENTS
from rulebook.archmagi.flow import to_discard
from rulebook.archmagi.moves import DISCARD, DRAW_PHASE, OVER, PLAY
from rulebook.archmagi.rounds import draw

if TYPE_CHECKING:
    from rulebook.archmagi.moves import Move, Task
    from rulebook.archmagi.state import Table
    from rulebook.core import Action


def start_turn(s: Table, p: int) -> None:
    """DRAW PHASE: draw the top Spell; then the PLAY PHASE's Plays (2 unless the Magi says
    otherwise). The Flora Magi's Planted Flora Spells perform their Bottom Actions first, and a
    Magi's start-of-turn symbols (authored Lightning ability) come before them."""
    s.turn = p
    s.phase = PLAY
    s.play_area = []
    magi = s.magi_specs[p]
    draw(s, p, magi.draws, DRAW_PHASE)
    s.plays = magi.plays
    s.stack.extend(turn_start_tasks(s, p))
    s.tell("play_phase_begins", p)


def turn_start_tasks(s: Table, p: int) -> list[Task]:
    """The symbols ``p`` performs as the Play Phase begins, as tasks of the stack (the last
    runs first): the Planted Flora Spells' Bottom Actions, then the Magi's own."""
    tasks: list[Task] = []
    start = s.content.turn_start[ELEMENTS.index(s.magi[p])]
    if start:
        tasks.append(("seq", p, 0, start))
    if s.magi_specs[p].planted_bottoms:
        cards = s.content.cards
        for card in reversed(s.planted[p]):
            if cards[card].element == s.magi[p]:
                tasks.append(("seq", p, 0, cards[card].bottom))
    return tasks


def plays(s: Table) -> list[Action]:
    """PLAY PHASE: the Plays of the turn's seat: draw (while the Magic Pool has Spells), the
    Top Action of any Spell in Hand, the Bottom Action of one of its color, the Special
    Circumstances (the Fire Magi's both Actions, the Flora Magi's Plant instead of a Bottom
    Action), and ``end``. An Action whose Spend Crystals cannot be paid is not offered."""
    p = s.turn
    named = s.moves.named
    plain = s.moves.plain
    magi = s.magi_specs[p]
    element = s.magi[p]
    crystals = s.crystals[p]
    actions: list[Action] = []
    if s.pool:
        actions.append(plain["draw"])
    cards = s.content.cards
    seen: set[str] = set()
    for card in s.hands[p]:
        spell = cards[card]
        if spell.name in seen:
            continue
        seen.add(spell.name)
        if affordable(crystals, spell.top):
            actions.append(named["top"][spell.name])
        if spell.element != element:
            continue
        if magi.plant_as_play:
            actions.append(named["plant"][spell.name])
            continue
        if affordable(crystals, spell.bottom):
            actions.append(named["bottom"][spell.name])
        if magi.top_then_bottom and affordable(crystals, spell.top + spell.bottom):
            actions.append(named["both"][spell.name])
    actions.append(plain["end"])
    return actions


def play(s: Table, p: int, move: Move) -> None:
    """Spend a Play (PLAY PHASE), or end the Play Phase (its unspent Plays are lost)."""
    verb = move.verb
    if verb == "end":
        s.plays = 0
        return
    s.plays -= 1
    if verb == "draw":
        draw(s, p, 1)
        return
    card = s.take(s.hands[p], move.card)
    spell = s.content.cards[card]
    if verb == "plant":
        s.count(p, "spells_planted")
        s.planted[p].append(card)
        return
    s.count(p, "spells_played")
    s.count(p, f"spell:{spell.name}")
    s.play_area.append(card)
    if verb in ("bottom", "both"):
        s.stack.append(("seq", p, 0, spell.bottom))
    if verb in ("top", "both"):
        s.stack.append(("seq", p, 0, spell.top))


def discard_phase(s: Table, p: int) -> None:
    """DISCARD PHASE: the Play Area goes to the discard pile (Commons: Exhausted pile), then the
    hand limit (a ``limit`` task), then the turn ends. Decision: Spells discarded from the Play
    Area are "discarded" for the Flow of Magic."""
    s.phase = DISCARD
    s.stack.append(("end", p, 0, None))
    s.stack.append(("limit", p, 0, None))
    s.tell("play_area_discarded", p)
    area, s.play_area = s.play_area, []
    offers: list[Task] = []
    for card in area:
        offer = to_discard(s, p, card)
        if offer is not None:
            offers.append(offer)
    s.stack.extend(reversed(offers))


def end_turn(s: Table, p: int) -> None:
    """PLAYER TURN: the player to the left starts their Turn; END OF ROUND 4: the player whose
    turn it is finishes it, then the game is over."""
    if s.final:
        s.phase = OVER
        s.tell("game_over")
        return
    start_turn(s, (p + 1) % s.num_players)
