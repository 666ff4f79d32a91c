"""What the table says aloud in Archmagi: the steps the rules take on their own
(:mod:`rulebook.core.events`).

The Draw Phase's Spell, the start of a Play Phase (the Lightning Magi's charge, the Planted
Flora Spells' Bottom Actions), the Play Area discarded in the Discard Phase, a Monster Path
refilled, a Draft made without a choice (which Spell went onto the discard pile), a Crystal
gain cut short by the main pile, the end of each Round (the Magic Pool run out, the new
Monsters on their Path, the new Magic Pool shuffled), the game's end with each Magi's Favor
Points. The rules tell of each step where they take it (``s.tell("round_over", ...)``);
each function here puts one in plain words, in the project's own, from the state at that
moment.

Hidden information (PLAYER TURN: every Hand is its owner's alone, the Magic Pool and the Spell
Books lie face down): the Spells a seat draws are named to that seat only (``own``); the others
learn how many. A Spell drafted or discarded lies face up on the discard pile, a Monster on its
Path: those are named to all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.archmagi.content import ELEMENTS
from rulebook.archmagi.monsters import favor
from rulebook.archmagi.moves import DRAW_PHASE, FOR_DRAFT
from rulebook.archmagi.symbols import COMMON, effects_words
from rulebook.core import Event
from rulebook.core.words import plural

if TYPE_CHECKING:
    from rulebook.archmagi.state import Table


def _listed(names: list[str]) -> str:
    """``Ember``, ``Ember and Frost``, ``Ember, Frost and Spark``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _spells(s: Table, cards: list[int]) -> str:
    """The names of ``cards`` in a list of words."""
    name_of = s.moves.name_of
    return _listed([name_of[c] for c in cards])


def _monster(s: Table, m: int) -> str:
    """A Monster as it lies on its Path: ``the Goblin (3 Crystals, 1 Favor Point)``."""
    monster = s.content.monsters[m]
    cost = plural(monster.crystals, "Crystal")
    if monster.spells:
        cost += f" and {plural(monster.spells, 'Spell')}"
    return f"the {monster.name} ({cost}, {plural(monster.favor, 'Favor Point')})"


# -- drawing and drafting --------------------------------------------------------------------
def drew(s: Table, p: int, start: int, why: int) -> Event | None:
    """SYMBOLS GUIDE, Draw: the Spells ``p`` drew into its Hand (from ``start`` on), named to
    ``p`` alone. A Draw of a move's own was told by the move's line, so the others hear nothing
    more; the Draw Phase's and a Draft made a Draw (an empty Spell Book) are told to all, by
    count."""
    cards = s.hands[p][start:]
    if not cards:
        return None
    names = _spells(s, cards)
    if why == DRAW_PHASE:
        return Event(
            p,
            f"Draw {plural(len(cards), 'Spell')} from the Magic Pool (Draw Phase)",
            own=f"Draw {names} from the Magic Pool (Draw Phase)",
        )
    if why == FOR_DRAFT:
        why_not = "instead of drafting: {} Spell Book is empty"
        return Event(
            p,
            f"Draw {plural(len(cards), 'Spell')} from the Magic Pool {why_not.format('their')}",
            own=f"Draw {names} from the Magic Pool {why_not.format('your')}",
        )
    return Event(p, "", own=f"Draw {names}")


def drew_nothing(s: Table, p: int) -> Event:
    """SYMBOLS GUIDE, Draw, after the last Round ended: the Magic Pool is empty."""
    return Event(p, "Draw nothing: the Magic Pool is empty (the last Round is over)")


def drafted(s: Table, p: int) -> Event:
    """SYMBOLS GUIDE, Draft: the top Spell of ``p``'s Spell Book went onto the discard pile
    (the last Spell there), face up for all."""
    name = s.moves.name_of[s.discard[-1]]
    drafted = "Draft {} from {} Spell Book onto the discard pile of the Magic Pool"
    return Event(p, drafted.format(name, "their"), own=drafted.format(name, "your"))


def pile_short(s: Table, p: int, wanted: int, got: int) -> Event:
    """SYMBOLS GUIDE, Gain Crystals: the main pile held fewer than ``wanted``."""
    total = s.content.rules.crystals
    if not got:
        return Event(
            p,
            f"Gain no Crystal instead of {wanted}: all {total} Crystals of the main pile are taken",
        )
    return Event(
        p,
        f"Gain only {got} of {plural(wanted, 'Crystal')}: the main pile of {total} has no more",
    )


# -- the phases of a turn --------------------------------------------------------------------
def play_phase_begins(s: Table, p: int) -> Event | None:
    """PLAY PHASE, as it begins: the Planted Flora Spells' Bottom Actions (the Flora Magi,
    authored) and a Magi's own start-of-turn symbols (the Lightning Magi's charge, authored),
    in the order they are performed; None when there are none."""
    cards = s.content.cards
    magi = s.magi_specs[p]
    mine, theirs = [], []
    if magi.planted_bottoms:
        grown = [c for c in s.planted[p] if cards[c].element == s.magi[p]]
        for c in grown:
            mine.append(f"{cards[c].name} ({effects_words(cards[c].bottom)})")
            theirs.append(f"{cards[c].name} ({effects_words(cards[c].bottom, own=False)})")
        if grown:
            head = f"the Bottom Actions of the Planted {s.magi[p].capitalize()} Spells: "
            mine = [head + ", then ".join(mine)]
            theirs = [head + ", then ".join(theirs)]
    start = s.content.turn_start[ELEMENTS.index(s.magi[p])]
    if start:
        mine.append(f"the {magi.name}'s ability: {effects_words(start)}")
        theirs.append(f"the {magi.name}'s ability: {effects_words(start, own=False)}")
    if not mine:
        return None
    return Event(
        p,
        f"Start the Play Phase with {'; then '.join(theirs)}",
        own=f"Start the Play Phase with {'; then '.join(mine)}",
    )


def play_area_discarded(s: Table, p: int) -> Event | None:
    """DISCARD PHASE: the Spells of the Play Area go to the discard pile, Common Spells to
    the Exhausted pile (COMMON SPELLS); told before they go. None when nothing was played."""
    cards = s.content.cards
    area = s.play_area
    if not area:
        return None
    kept = [c for c in area if cards[c].element != COMMON]
    spent = [c for c in area if cards[c].element == COMMON]
    parts = []
    if kept:
        parts.append(f"{_spells(s, kept)} to the discard pile")
    if spent:
        parts.append(f"{_spells(s, spent)} to the Exhausted pile")
    return Event(p, f"Discard the Spells of the Play Area (Discard Phase): {', '.join(parts)}")


def path_refilled(s: Table, tier: int, m: int) -> Event:
    """MONSTERS: the spot of the Monster just defeated refilled from its Tier's Monster Deck
    (``m``), or left empty (``m`` -1) when that deck is empty."""
    if m < 0:
        return Event(
            None,
            f"The Tier {tier + 1} Monster Deck is empty: the spot on its Path stays empty.",
        )
    left = len(s.monster_decks[tier])
    rest = f"{plural(left, 'Monster')} left there" if left else "its last Monster"
    return Event(
        None,
        f"In its place, {_monster(s, m)} comes onto the Tier {tier + 1} Path from its "
        f"Monster Deck ({rest}).",
    )


# -- End of Round and the game's end ----------------------------------------------------------
def round_over(s: Table, discarded: int) -> list[Event]:
    """END OF ROUND 1-3: the Magic Pool ran out; the Tier's Monsters come onto their Path; the
    ``discarded`` Spells of the discard pile and the next Round's Common Spells are shuffled
    into the new Magic Pool (the Exhausted pile stays out: a decision, docs/archmagi.md); from
    the Round named in the rules, Drafts may be Draws."""
    rules = s.content.rules
    ended = s.round - 1
    tier = ended - 1
    said = [Event(None, f"The Magic Pool has run out: Round {ended} is over.")]
    path = s.paths[tier]
    if path:
        monsters = _listed([_monster(s, m) for m in path])
        said.append(Event(None, f"Tier {tier + 1} Monsters come onto their Path: {monsters}."))
    added = len(s.pool) - discarded
    parts = []
    if discarded:
        parts.append(f"the {plural(discarded, 'Spell')} of the discard pile")
    if added:
        parts.append(f"the {plural(added, f'Round {s.round} Common Spell')}")
    if parts:
        begins = (
            f"Round {s.round} begins: {' and '.join(parts)} "
            f"{'is' if len(s.pool) == 1 else 'are'} shuffled into a new Magic Pool "
            f"of {plural(len(s.pool), 'Spell')}"
        )
    else:
        begins = f"Round {s.round} begins with an empty Magic Pool"
    if s.exhausted:
        begins += f"; the {plural(len(s.exhausted), 'Exhausted Spell')} stay out"
    if s.round == rules.drafts_as_draws_round:
        begins += ". From now on, any Draft may be a Draw instead"
    said.append(Event(None, begins + "."))
    return said


def last_round_over(s: Table) -> list[Event]:
    """END OF ROUND 4: the Magic Pool ran out; the player whose turn it is finishes it."""
    return [
        Event(None, f"The Magic Pool has run out: Round {s.round}, the last Round, is over."),
        Event(s.turn, "Finish this turn, the last of the game"),
    ]


def game_over(s: Table) -> list[Event]:
    """END OF ROUND 4: the game is over; each Magi's Favor Points, Monster by Monster (the only
    scoring, MONSTERS), and who wins ("The player with the most Favor Points wins!")."""
    monsters = s.content.monsters
    said = [Event(None, "The last turn is over: the game ends. Favor Points decide.")]
    for p in range(s.num_players):
        won = s.trophies[p]
        if not won:
            said.append(Event(p, "Score no Favor Points: no Monster defeated"))
            continue
        each = ", ".join(f"{monsters[m].name} {monsters[m].favor}" for m in won)
        said.append(
            Event(
                p,
                f"Score {plural(favor(s, p), 'Favor Point')} for "
                f"{plural(len(won), 'Monster')} defeated ({each})",
            )
        )
    winners = s.winners()
    for p in winners:
        points = plural(favor(s, p), "Favor Point")
        if len(winners) == 1:
            said.append(Event(p, f"Win the game with {points}, the most"))
        else:
            said.append(Event(p, f"Share the victory with {points}, tied for the most"))
    return said
