"""What the table says aloud in a roll-and-write sheet game: the steps the rules take on their own
(:mod:`rulebook.core.events`), in each game's own words (:class:`~.words.SheetWords`: Orders or
Customers, Coins or stars, circles or boxes, Masteries or Certifications).

The rules tell of each step where they take it (``s.tell("mastered", k, seats)``): a seat's
crafting ended because it has no result left to spend; the round's end; each mastery card the
seats score, and the card then paying its lower value; the customers moving on (solo: shifting left,
the leftmost leaving, one joining from the deck) and the face-down ones turned up; a card claimed
as it comes into a shoppe whose sheet already completes it; the next round's dice; the final
score of each seat by category, and the solo title. Each function here puts one in plain words
from the state at that moment. What a move itself does (the circle it marks, the row it completes,
the cards it claims, what a completed row or a Sponsored Adventurer's Order gives) is the move's
own line (:mod:`.describe`), not repeated here.

Nothing hidden is told: a card is named only once it is face-up (a face-down replacement is "a
face-down card from the deck"), and a step inside the simultaneous crafting phase is withheld from
the others with the move that set it off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulebook.core.events import Event
from rulebook.core.rollwrite.customers import EMPTY
from rulebook.core.rollwrite.extra_dice import extra_cost
from rulebook.core.rollwrite.mastery import mastery_card
from rulebook.core.rollwrite.words import listed, titled
from rulebook.core.words import plural, seat

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import SheetTable


def _card(s: SheetTable[Any], card: int) -> str:
    """A face-up customer card with its kind and value: ``the Order Fiery Ring (3 Coins)``."""
    c = s.content
    o = c.cards[card]
    return f"the {c.words.cards[o.kind]} {o.name} ({plural(o.value, c.words.value)})"


def _line(s: SheetTable[Any]) -> str:
    """The customer cards together, as the game calls them: ``Orders``, ``Customers``."""
    return titled(s.LINE)


def out_of_results(s: SheetTable[Any], p: int) -> Event:
    """EXTRA DICE: seat ``p``'s crafting and research ends with its move, as it has no result
    left it may spend this round (every die spent, no Extra Dice box left, or none it can pay
    for). Told to the seat alone: the others see who is done, and need no line each round."""
    words = s.content.words
    if s.results[p] >= s.dice_count:
        why = "every die is spent"
    elif extra_cost(s, p) is None:
        why = f"no {words.extras} left"
    elif words.extra_unit:
        why = f"too few {words.extra_unit}s left for the next {words.extra}"
    else:
        why = f"the next {words.extra} cannot be paid for"
    return Event(p, "", own=f"Finish {words.phase} for this round: {why}")


def round_over(s: SheetTable[Any]) -> Event:
    """GAMEPLAY, Round Flow: every seat is done; the round ends (the last round ends the game)."""
    rounds = s.content.rounds
    if s.round >= rounds:
        return Event(None, f"Round {s.round} of {rounds} is over: the game ends.")
    return Event(None, f"Round {s.round} of {rounds} is over.")


def _mastery_said(s: SheetTable[Any], k: int) -> str:
    """A mastery card and what it asks: ``Master Blacksmith (Material Mastery: 4 circles
    marked in the Steel column)``."""
    c = s.content
    card = mastery_card(s, k)
    column = titled(c.layout.columns[card.column].id)
    asks = plural(card.circles, c.words.circle, c.words.circles)
    return f"{card.name} ({c.words.mastery[card.kind]}: {asks} marked in the {column} column)"


def mastered(s: SheetTable[Any], k: int, seats: int) -> Event:
    """THE MASTERY PHASE, Certifications: the seats of the bits of ``seats`` score mastery card
    ``k`` this round, told before the card turns to its lower value: the higher value to the
    first seat(s) to meet it, the lower one later, and only the lower one solo. One line for
    them all: the seat's own when it is alone."""
    words = s.content.words
    card = mastery_card(s, k)
    higher, lower = words.sides
    scorers = [p for p in range(s.num_players) if seats >> p & 1]
    value = plural(s.mastery_scored[scorers[0]][k], words.value)
    if s.solo:
        side = f"its {lower}, the only one a solo game scores"
    elif s.mastery_master[k]:
        after = plural(card.apprentice, words.value)
        side = f"its {higher}, as the first to meet it; from now on it pays its {lower}, {after}"
    else:
        side = f"its {lower}, as it was first scored in an earlier round"
    if len(scorers) == 1:
        return Event(scorers[0], f"Score {value} for {_mastery_said(s, k)}: {side}")
    who = listed([str(p + 1) for p in scorers])
    return Event(None, f"Seats {who} score {value} each for {_mastery_said(s, k)}: {side}.")


def customers_moved(s: SheetTable[Any], moved: Sequence[list[int]]) -> Event:
    """THE CUSTOMER PHASE, SOLO VARIANT, Round Flow 6-7: the lines before (``s.lines``) and
    after they moved (``moved``, face-down cards not yet turned up): every card moves one seat
    clockwise (solo: one space left, the leftmost leaving, a card joining from the deck at the
    right), then the face-down cards are turned face-up, named where they now are."""
    name = _line(s)
    up = [(p, ~card) for p, line in enumerate(moved) for card in line if card < 0 and card != EMPTY]
    if s.solo:
        before, after = s.lines[0], moved[0]
        head = f"The {name} shift one space left"
        parts = []
        if before and before[0] != EMPTY:
            left = before[0] if before[0] >= 0 else ~before[0]
            parts.append(f"{_card(s, left)} is discarded")
        shop = s.shop_size
        if len(before) > shop and 0 < shop <= len(after) and after[shop - 1] >= 0:
            parts.append(f"{_card(s, after[shop - 1])} enters the shoppe")
        if len(after) >= len(before) and after:
            parts.append(f"{_card(s, after[-1])} joins the line from the deck")
        else:
            parts.append(f"the {_deck(s)} is out: no card joins the line")
        if up:
            parts.append(f"turned face up: {listed([_card(s, card) for _, card in up])}")
        return Event(None, f"{head}: {'; '.join(parts)}.")
    text = f"The {name} move one space clockwise, each seat's leftmost to the seat on its left"
    if up:
        shown = [f"{_card(s, card)} in {seat(p)}'s shoppe" for p, card in up]
        text += f"; turned face up: {listed(shown)}"
    return Event(None, text + ".")


def _deck(s: SheetTable[Any]) -> str:
    """The deck the lines are drawn from: ``Order deck``, ``Customer deck``."""
    return f"{next(iter(s.content.words.cards.values()))} deck"


def claimed(s: SheetTable[Any], p: int, card: int) -> Event | None:
    """ORDERS, Customers: seat ``p`` claims ``card`` from its shoppe, told before a card takes its
    place. In its own crafting move the move's line says so, and only an empty deck is told
    here; at the round's end (THE CUSTOMER PHASE: a card coming face-up into a shoppe whose sheet
    already completes it) the claim is told whole."""
    space = "its space stays empty" if s.KEEP_EMPTY_SPACES else "the shoppe holds one card fewer"
    if not s.done[p]:  # the seat's own move claims it, and its line says so
        if s.deck:
            return None
        return Event(
            None,
            f"The {_deck(s)} is out: nothing replaces {_card(s, card)} in "
            f"{seat(p)}'s shoppe; {space}.",
        )
    then = (
        "a face-down card from the deck takes its place"
        if s.deck
        else f"the {_deck(s)} is out: {space}"
    )
    return Event(
        p,
        f"Claim {_card(s, card)} as it comes face-up into the shoppe (the sheet already "
        f"completes it); {then}",
    )


def round_begins(s: SheetTable[Any]) -> Event:
    """THE RESOURCE PHASE, Round Flow 1: the next round's four dice are rolled."""
    dice = [f"{v} on the {d}" for d, v in zip(s.content.dice, s.dice, strict=True)]
    return Event(
        None, f"Round {s.round} of {s.content.rounds} begins: the dice show {listed(dice)}."
    )


def game_over(s: SheetTable[Any]) -> list[Event]:
    """END OF GAME, End of the Game and Scoring: each seat's final score by category (those
    that scored), and the solo title where the game has a rating table."""
    words = s.content.words
    said = []
    for p in range(s.num_players):
        parts = s.score_breakdown(p)
        named = [
            f"{v} for {words.scoring[k][0] if k in words.scoring else titled(k)}"
            for k, v in parts.items()
            if v
        ]
        total = plural(sum(parts.values()), words.value)
        said.append(Event(p, f"Finish with {total}" + (f": {listed(named)}" if named else "")))
    scale = s.rating_scale()  # solo: the titles, the first one below every threshold
    if s.solo and scale:
        score = s.score(0)
        least, title = [(least, name) for least, name in scale if score >= least][-1]
        higher = [(least, name) for least, name in scale if score < least]
        nxt = f"; {higher[0][1]} needs {plural(higher[0][0], words.value)}" if higher else ""
        if title == scale[0][1]:
            said.append(Event(0, f"Earn no title{nxt}"))
        else:
            said.append(
                Event(0, f"Earn the title {title} ({plural(least, words.value)} or more{nxt})")
            )
    return said
