"""Greedy's one-step lookahead in Archmagi: Plays valued without being made (issue 15).

:func:`rulebook.archmagi.bots.evaluate` reads a seat's Favor, Crystals, Hand, Planted Spells,
drafted Spells and Plays, the size of the Magic Pool and whose turn it is. Most of greedy's
choices are Plays in its own Play Phase (PLAY PHASE): draw a Spell, play a Spell's Top or
Bottom Action (the Fire Magi's both), plant a Spell (the Flora Magi) or end the Play Phase. An
Action's symbols run left to right (SYMBOLS GUIDE) until one waits for the seat's decision:
Gain and Spend Crystals, Draw and Plays change only these counts, as the rules' own
:meth:`ArchmagiState.gainable` and :meth:`ArchmagiState.monsters_for` give them; Search, Look
and Draft (a Draft from Round 4, or the Draft's own Spell Book), and Discard stop there while
they have something to choose from (:meth:`ArchmagiState._ready`), and otherwise do what
:meth:`ArchmagiState._settle` does (a Draft before Round 4 drafts the top of the Spell Book, a
Look at an empty Spell Book draws, a Discard with an empty Hand is skipped). When no Draw ends
the Round, :func:`lookahead` works out these counts and values them with
:func:`rulebook.archmagi.bots.prospects`, the evaluation's own sum (the same values, bit for
bit).

When no Play is left, the Monster Phase follows if a Monster can be paid for (nothing else
changes), else the Discard Phase (the Flow of Magic, the next turn): such a Play, Actions with
other symbols (Plant, Uproot, "you may"), and every move outside the seat's Play Phase are made
on a clone and evaluated, as the generic :meth:`rulebook.core.State.lookahead` does.
``tests/test_speed.py`` holds this to the generic lookahead on many positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.archmagi import bots
from rulebook.archmagi.rules import PLAY, ArchmagiState, Move
from rulebook.core import Action

#: what a Play valued without being made looks like after it: Crystals, Hand, Planted Spells,
#: drafted Spells, Plays (0 in the Monster Phase), Spells in the Magic Pool
After = tuple[int, int, int, int, int, int]


def lookahead(s: ArchmagiState, player: int, actions: Sequence[Action]) -> list[float]:
    """``bots.evaluate`` after each of ``actions`` (legal moves of ``player`` now)."""
    if s.stack or s.phase != PLAY or s.turn != player:
        return [_made(s, player, action) for action in actions]
    favor = float(s.favor(player))
    w = bots.WEIGHTS[5 if s.final else s.round]
    book_size = s.content.rules.book_size
    values = []
    for action in actions:
        after = _after(s, player, action) if type(action) is Move else None
        if after is None:
            values.append(_made(s, player, action))
        else:
            crystals, hand, planted, book, plays, pool = after
            values.append(
                favor
                + bots.prospects(w, crystals, hand, planted, book_size - book, plays, pool, True)
            )
    return values


def _made(s: ArchmagiState, player: int, action: Action) -> float:
    """The evaluation after ``action`` made on a clone (the generic lookahead's way)."""
    after = s.clone()
    after.apply_legal(player, action)
    return bots.evaluate(after, player)


def _after(s: ArchmagiState, p: int, move: Move) -> After | None:
    """What the evaluation reads after the Play ``move`` (as ``_play`` and the stack make it),
    or None for one that does more (see the module's docstring). The Spell Book is given by
    its size (the evaluation counts the Spells drafted from it)."""
    verb = move.verb
    crystals = s.crystals[p]
    held = sum(s.crystals)
    hand = len(s.hands[p])
    planted = len(s.planted[p])
    book = len(s.books[p])
    pool = len(s.pool)
    plays = s.plays - 1
    if verb == "end":
        plays = 0
    elif verb == "draw":
        if pool <= 1:
            return None
        hand += 1
        pool -= 1
    elif verb == "plant":
        hand -= 1
        planted += 1
    else:
        spell = s.content.spell_by_name[move.card]
        effects = spell.bottom if verb == "bottom" else spell.top
        if verb == "both":
            effects = spell.top + spell.bottom  # the Top Action first
        hand -= 1
        for e in effects:
            kind = e.kind
            n = e.n
            draws = 0
            if kind == "gain":
                got = s.gainable(n, held)
                crystals += got
                held += got
            elif kind == "spend":
                spent = min(n, crystals)
                crystals -= spent
                held -= spent
            elif kind == "draw":
                draws = n
            elif kind == "plays":
                plays += n
            elif kind == "search":
                taken = min(n, pool)
                if taken:  # the Spells looked at wait for the choice
                    return crystals, hand, planted, book, plays, pool - taken
            elif kind == "look_draft":
                if book:  # the Spells looked at wait for the choice
                    return crystals, hand, planted, book, plays, pool
                draws = 1
            elif kind == "discard":
                if hand:  # the Spell to discard waits for the choice
                    return crystals, hand, planted, book, plays, pool
            elif kind == "draft":
                if book and s.round >= s.content.rules.drafts_as_draws_round:
                    return crystals, hand, planted, book, plays, pool  # draft or draw?
                drafted = min(n, book)
                book -= drafted
                draws = n - drafted  # an empty Spell Book: the Draft is a Draw
            else:
                return None
            if draws:
                if draws >= pool:
                    return None  # the Round would end
                hand += draws
                pool -= draws
    if plays <= 0:
        if not s.monsters_for(crystals, hand):
            return None  # the Discard Phase would follow
        plays = 0  # the Monster Phase
    return crystals, hand, planted, book, plays, pool
