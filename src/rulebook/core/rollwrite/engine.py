"""The roll-and-write sheet engine, by the sections of the two rulebooks that share it.

Merchants of Magick (``000_ab43b6b995c67bb5.txt``) and its prototype Ye Olde Magick Shoppe
v0.7.2 (``002_b27f334b14e381b8.txt``) play the same round (GAMEPLAY; Round Flow): four dice
rolled; every seat at once spends results on circles of its sheet; the customers claimed when
their rows are complete; the two mastery cards scored; the customers moved on; the game over
after the last round. Each part of the round is a module of functions over the state:

=====================================================  =====================================
Merchants of Magick / Ye Olde Magick Shoppe             module
=====================================================  =====================================
GAMEPLAY / GAME OVERVIEW (the table, the protocol)      :mod:`.state`
THE RESOURCE PHASE, END OF GAME / Round Flow            :mod:`.rounds`
THE CRAFTING AND RESEARCH PHASE / HOW TO PLAY (moves)   :mod:`.moves`
CRAFTING, SPELL RESEARCH / Crafting, Spell Research     :mod:`.crafting`
EXTRA DICE / Extra Dice                                 :mod:`.extra_dice`
ORDERS / Customers (claiming)                           :mod:`.customers`
THE MASTERY PHASE / Certifications                      :mod:`.mastery`
THE CUSTOMER PHASE, SOLO VARIANT / Round Flow, Solo     :mod:`.customer_phase`
GAMEPLAY / Round Flow (what each seat sees)             :mod:`.view`
the moves in plain words                                :mod:`.describe`, :mod:`.words`
the steps the rules take on their own, told aloud       :mod:`.aloud`
=====================================================  =====================================

Each game's own rules (GAME SETUP and SETUP, POTIONS and Bonus Modifiers, SPONSORED
ADVENTURERS, END OF GAME and End of the Game and Scoring) are in its package; the bots' fast
lookahead is :mod:`.lookahead`, registered by the games, never imported by the rules. This
module names the engine's parts for code that imports them from here.
"""

from __future__ import annotations

from rulebook.core.rollwrite.customers import EMPTY
from rulebook.core.rollwrite.moves import (
    CRAFTING,
    DONE,
    KNOWN_MOVES,
    OVER,
    Done,
    FreeMark,
    Moves,
    Spend,
)
from rulebook.core.rollwrite.state import C, SheetContent, SheetState

__all__ = [
    "CRAFTING",
    "DONE",
    "EMPTY",
    "KNOWN_MOVES",
    "OVER",
    "C",
    "Done",
    "FreeMark",
    "Moves",
    "SheetContent",
    "SheetState",
    "Spend",
]
