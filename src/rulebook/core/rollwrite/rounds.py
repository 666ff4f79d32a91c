"""The round: its dice, its simultaneous phase, and what follows it, to the game's end.

Merchants of Magick, GAMEPLAY: "played over 10 rounds. Each round is divided into four phases:
the Resource Phase, the Crafting and Research Phase, the Mastery Phase, and the Customer Phase.
... All players act simultaneously in each phase"; THE RESOURCE PHASE: "Roll all 4 dice";
END OF GAME: "After the Mastery Phase of the tenth round, the game is over" (THE CUSTOMER
PHASE: "No Customer Phase is resolved in the final round"). Ye Olde Magick Shoppe, Round Flow:
"The game takes place over 10 rounds ... rolls all 4 dice ... All players simultaneously spend
2 dice"; End of the Game and Scoring: "The game ends after the 10th round".

Functions over a :class:`~rulebook.core.rollwrite.state.SheetTable`; the protocol methods of
:class:`~rulebook.core.rollwrite.engine.SheetState` (``current_players``, ``pending_moves``...)
call them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.core.rollwrite.customer_phase import customer_phase
from rulebook.core.rollwrite.mastery import mastery_phase
from rulebook.core.rollwrite.moves import CRAFTING, OVER

if TYPE_CHECKING:
    from rulebook.core.rollwrite.state import C, SheetTable


def start_round(s: SheetTable[C]) -> None:
    """THE RESOURCE PHASE (Round Flow 1): roll all four dice; then everyone crafts and
    researches at once.

    The roll is the next chance event, drawn when the dice are first read (``SheetTable.dice``):
    the same numbers as rolled at once (a scripted source rolls at once)."""
    event = s.chance.reserve()
    s._dice_event = event
    s._dice = s.chance.roll(s.content.sides) if event is None else None
    n = s.num_players
    s.spent = [0] * n
    s.results = [0] * n
    s.done = [False] * n
    s._current = None
    s._origin = None
    s._phase_draws = [0] * n
    s.phase = CRAFTING
    s.tell("round_begins")


def current_players(s: SheetTable[C]) -> tuple[int, ...]:
    """GAMEPLAY / Round Flow: every seat not done with this round's crafting acts at once."""
    if s._current is None:
        s._current = (
            tuple(p for p in range(s.num_players) if not s.done[p]) if s.phase == CRAFTING else ()
        )
    return s._current


def pending_moves(s: SheetTable[C]) -> int:
    """GAMEPLAY (simultaneous phases): the moves made since this round's crafting began: a seat
    learns of the others' ones when the phase ends (until then its observation shows the other seats
    as they were when it began)."""
    if s._origin is None or s.phase != CRAFTING:
        return 0
    return len(s.history) - s._origin_len


def finish(s: SheetTable[C], p: int) -> None:
    """THE CRAFTING AND RESEARCH PHASE (Round Flow 5): seat ``p`` is done with this round ("put down
    their pencils"); when every seat is, the round ends (:func:`end_crafting`)."""
    s.done[p] = True
    s._current = None
    if all(s.done):
        end_crafting(s)


def end_crafting(s: SheetTable[C]) -> None:
    """THE MASTERY PHASE follows every round; THE CUSTOMER PHASE every round but the last
    ("No Customer Phase is resolved in the final round"), which ends the game (END OF GAME,
    End of the Game and Scoring)."""
    s.tell("round_over")
    mastery_phase(s)
    if s.round >= s.content.rounds:
        s.phase = OVER
        s._current = None
        s.tell("game_over")
        return
    customer_phase(s)
    s.round += 1
    start_round(s)
