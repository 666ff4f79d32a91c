"""Archmagi's End of Round: the Magic Pool drawn from, and what each Round's end sets up.

END OF ROUND: "The moment that the Magic Pool has run out of Spells, the Round ends. There are
4 Rounds in the game before it is over." The ends of Rounds 1-3 each bring out a Tier of
Monsters and the next Round's Common Spells; from the end of Round 3 "All Drafts may be used as
Draws instead this Round"; at the end of Round 4 "The player whose Turn it is gets to finish
their Turn, then the game is over." A Draw that empties the Pool pauses for the next Round's
setup and then goes on (ADDITIONAL RULES CLARIFICATIONS, End of Round).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.archmagi.moves import BY_MOVE

if TYPE_CHECKING:
    from rulebook.archmagi.state import Table


def end_round(s: Table) -> None:
    """END OF ROUND: the Magic Pool has run out: set up the next Round (or mark the last turn).

    Decision: the discard pile of the Magic Pool is shuffled with the next Round's Common
    Spells into the new Magic Pool (the Exhausted pile stays out), since Drafts feed the
    discard pile "of the Magic Pool" and the Magic Pool is the deck all players build.
    """
    c = s.content
    if s.round >= c.rules.rounds:
        s.final = True
        s.tell("last_round_over")
        return
    tier = s.round - 1
    deck = s.monster_decks[tier]
    for _ in range(c.rules.path_size):
        if deck:
            s.paths[tier].append(deck.pop())
    s.round += 1
    n = s.num_players
    new = [
        i
        for i, spell in enumerate(c.cards)
        if spell.set == "round" and spell.round == s.round and spell.players <= n
    ]
    discarded = len(s.discard)
    s.pool = s.discard + new
    s.discard = []
    s.chance.shuffle(s.pool)
    s.tell("round_over", discarded)


def draw(s: Table, p: int, n: int, why: int = BY_MOVE) -> None:
    """Draw ``n`` Spells from the Magic Pool, one at a time (SYMBOLS GUIDE, Draw); the Round
    ends the moment the Pool runs out, even mid-Draw, and the Draw resumes from the next
    Round's Pool (END OF ROUND clarification). ``why``: what the Draw is, for the telling
    (:data:`~rulebook.archmagi.moves.BY_MOVE` and the others)."""
    if not s.pool:
        if n:  # only after the last Round ended: nothing left to draw
            s.tell("drew_nothing", p)
        return
    hand = s.hands[p]
    start = len(hand)
    for _ in range(n):
        hand.append(s.pool.pop())
        if not s.pool:
            s.tell("drew", p, start, why)
            end_round(s)
            if not s.pool:
                return  # the last Round is over: nothing left to draw
            start = len(hand)
    s.tell("drew", p, start, why)


def drafts_as_draws(s: Table) -> bool:
    """END OF ROUND 3: "All Drafts may be used as Draws instead this Round" (Round 4 on)."""
    return s.round >= s.content.rules.drafts_as_draws_round
