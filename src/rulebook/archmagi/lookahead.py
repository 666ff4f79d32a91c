"""Greedy's one-step lookahead in Archmagi: simple Plays made on the state and taken back.

Most of greedy's choices are Plays (PLAY PHASE): draw a Spell, play a Spell's Top or Bottom
Action (the Fire Magi's both, the Flora Magi's plant) or end the Play Phase. When the Action's
symbols are only Gain and Spend Crystals, Draw and Plays (SYMBOLS GUIDE), and its Draws leave the
Magic Pool some Spells (so no Round ends), such a Play changes only the seat's Hand, Planted
Spells, Crystals, Plays and the Play Area, the Magic Pool and the phase. :func:`lookahead` makes
it on the state itself with the rules' own code, on copies of just these parts, evaluates, and
puts the originals back: no clone of the whole game (the other Hands, the Spell Books, the
Monster decks, the log).

It is taken back before the phases go on if no Play is left and no Monster can be defeated (the
Discard Phase would follow, with the Flow of Magic and the next turn); that Play, and every
other move, is made on a clone and evaluated, as the generic
:meth:`rulebook.core.State.lookahead` does. ``tests/test_speed.py`` holds this to the generic
lookahead on many positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulebook.archmagi.rules import PLAY, ArchmagiState, Move
from rulebook.core import Action, State

#: the symbols a Play made on the state may have: none of them waits for a decision
SIMPLE = frozenset(("gain", "spend", "draw", "plays"))


def lookahead(
    s: ArchmagiState,
    player: int,
    actions: Sequence[Action],
    evaluate: Callable[[State, int], float],
) -> list[float]:
    """``evaluate`` after each of ``actions`` (legal moves of ``player`` now)."""
    values = []
    for action in actions:
        value = _played_here(s, player, action, evaluate) if _simple(s, action) else None
        if value is None:
            after = s.clone()
            after.apply_legal(player, action)
            value = evaluate(after, player)
        values.append(value)
    return values


def _simple(s: ArchmagiState, action: Action) -> bool:
    """Whether ``action`` is a Play whose symbols are all :data:`SIMPLE` and whose Draws leave
    Spells in the Magic Pool."""
    if s.stack or s.phase != PLAY or type(action) is not Move:
        return False
    verb = action.verb
    draws = 0
    if verb == "draw":
        draws = 1
    elif verb in ("top", "bottom", "both"):
        spell = s.content.spell_by_name[action.card]
        effects = spell.bottom if verb == "bottom" else spell.top
        if verb == "both":
            effects = spell.top + spell.bottom
        for e in effects:
            if e.kind not in SIMPLE:
                return False
            if e.kind == "draw":
                draws += e.n
    elif verb not in ("plant", "end"):
        return False
    return draws < len(s.pool)


def _played_here(
    s: ArchmagiState, p: int, action: Action, evaluate: Callable[[State, int], float]
) -> float | None:
    """``evaluate`` after the simple Play ``action`` made on ``s`` and taken back (``s`` is left
    as it was); None if the Play would lead to the Discard Phase."""
    hands, planted, pool, crystals = s.hands, s.planted, s.pool, s.crystals
    area, stack, tally, plays, phase = s.play_area, s.stack, s.tally, s.plays, s.phase
    s.hands = hands.copy()
    s.hands[p] = hands[p].copy()
    s.planted = planted.copy()
    s.planted[p] = planted[p].copy()
    s.pool = pool.copy()
    s.crystals = crystals.copy()
    s.play_area = area.copy()
    s.stack = stack.copy()
    s.tally = tally.copy()  # the seat's tally is replaced, never changed (_count)
    value = None
    try:
        assert isinstance(action, Move)
        s._play(p, action)
        waits = False
        while s.stack and not waits:
            waits = s._resolve_top()
        if not waits and (s.plays > 0 or s._monster_options(s.turn)):
            s._run()  # returns at once, or after entering the Monster Phase
            value = evaluate(s, p)
    finally:
        s.hands, s.planted, s.pool, s.crystals = hands, planted, pool, crystals
        s.play_area, s.stack, s.tally, s.plays, s.phase = area, stack, tally, plays, phase
    return value
