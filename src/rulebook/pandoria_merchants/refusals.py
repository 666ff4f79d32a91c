"""Player turn, its moves refused: why a move is not legal now, the one-line reason a player
reads.

Only called when a move is not among the legal ones
(:meth:`~rulebook.pandoria_merchants.rules.PandoriaState._apply`), so it costs nothing in
play. It names what the rules require (2.1, 2.2, the Spell Index...) and what is wrong with the
move: no such hex, a hex beyond the river, an occupied hex, a hex that touches nothing drawn, a
die that was not rolled, a card that cannot be bought now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.core.words import seat
from rulebook.pandoria_merchants import drawing
from rulebook.pandoria_merchants.board import HEX_NAME, KINDS, bits
from rulebook.pandoria_merchants.moves import HEX_VERBS, Move

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets

#: what each step asks for, as the refusal says it (an example move from the legal ones follows)
STEPS = {
    "setup": "choose your starting card",
    "wild": "choose what the '?' die shows",
    "action": "cast a Spell, build, make a Relic or Monument, or pass (3.)",
    "buy": "buy a card or pass (5.)",
    "claim": "claim a Spell from the Archive",
    "trolls-column": "choose the column of cards the Trolls claim",
    "trolls-element": "choose the Relic or Monument the Trolls claim",
    "bridge": "choose the Bridge to the next Territory",
    "over": "nothing: the game is over",
}


def why_not(s: PandoriaSheets, move: Move) -> str:
    """The reason ``move`` is not legal now (the caller knows it is not)."""
    legal = s._legal_moves()
    step = _step(s)
    verbs = {m.verb for m in legal}
    if move.verb == "skip" and s.phase == "draw":
        if s.item == 1 and s.r1 >= 0 and not s.r1_anchored:
            first = s.board.names[s.r1]
            return (
                f"'skip': the second Resource must be drawn, since the first ({first}) touches "
                "nothing drawn before this turn nor a Starting space (2.1)"
            )
        return (
            "'skip': you may forfeit only when 2 Resources and a Worker no longer fit "
            '("less than 3 empty hex spaces adjacent to each other")'
        )
    drawing = move.verb in KINDS and any(v in KINDS for v in verbs)  # a die not rolled
    if move.verb not in verbs and not drawing:
        return f"'{move}' is not a move now: {step}"
    if move.verb in HEX_VERBS:
        where = _hex_problem(s, move.arg)
        if where:
            return f"'{move}': {where}"
        return f"'{move}': {_hex_rule(s, move)}"
    if move.verb == "choose":
        return f"'{move}': {_choose_rule(s)}"
    return f"'{move}' is not a legal move now: {step}"


def _step(s: PandoriaSheets) -> str:
    """What the step asks for, with a legal move as the example."""
    if s.phase == "draw":
        if s.item == 2:
            what = "draw your Worker next to a Resource you just drew (2.2)"
        else:
            kinds = " or ".join(sorted({KINDS[d] for d in _dice_left(s)}))
            which = "second" if s.item == 1 else "first"
            what = f"draw your {which} Resource, {kinds} (2.1)"
    elif s.phase == "spell":
        what = f"choose what the {s.spell.capitalize()} Spell does"
    else:
        what = STEPS.get(s.phase, s.phase)
    legal = s._legal_moves()
    return f"{what}, e.g. '{legal[-1]}'" if legal else what


def _dice_left(s: PandoriaSheets) -> list[int]:
    if s.phase == "draw" and s.item == 1 and s.r1 >= 0:
        return [s.dice[1]]
    return [d for d in s.dice if d >= 0]


def _hex_problem(s: PandoriaSheets, name: str) -> str:
    """What is wrong with the hex itself: missing, beyond the river, a lake, taken."""
    b = s.board
    h = b.index.get(name)
    if h is None:
        return _no_hex(s, name)
    bit = 1 << h
    if s.phase == "bridge" or (s.phase == "spell" and s.spell in ("ship", "rage")):
        return ""  # these name a Bridge, a Ship space or a Worker: checked by their rule
    if not b.land & bit:
        return f"{name} is a lake"
    if s.swamp & bit:
        return f"{name} is a Swamp space"
    for p, w in enumerate(s.workers):
        if w & bit:
            whose = "your" if p == s.turn else f"{seat(p)}'s"
            return f"{name} holds {whose} Worker"
    k = s.kind_at(h)
    if k >= 0:
        if b.starts_mask & bit:
            return f"{name} is a Starting space ({KINDS[k]})"
        if b.preprinted_mask & bit:
            return f"{name} is a pre-printed {KINDS[k]} space"
        return f"{name} already holds a {KINDS[k]}"
    if s.solo and not s.zone & bit:
        return (
            f"{name} is in Territory {b.territory[h]}; you are working in Territory "
            f"{s.territory} (only one Territory at a time)"
        )
    return ""


def _no_hex(s: PandoriaSheets, name: str) -> str:
    b = s.board
    found = HEX_NAME.match(name.upper())
    columns = f"A-{chr(ord('A') + b.width - 1)}"
    if found and ord(found[1]) - ord("A") < b.width:
        row = int(found[2])
        full = max(x.height for x in s.c.boards.values() if x.width == b.width)
        if b.height < row <= full:
            return (
                f"{name} is beyond the river: with {s.num_players} players the Map is used "
                f"down to row {b.height}"
            )
    if not name:
        return f"name a hex, as the map shows it (columns {columns}, rows 1-{b.height})"
    return f"there is no hex {name} (columns {columns}, rows 1-{b.height})"


def _names(s: PandoriaSheets, mask: int, limit: int = 8) -> str:
    names = [s.board.names[h] for h in bits(mask)]
    shown = ", ".join(names[:limit])
    return shown + (", ..." if len(names) > limit else "") if names else "none"


def _hex_rule(s: PandoriaSheets, move: Move) -> str:
    """The rule a free hex breaks for this move."""
    b = s.board
    h = b.index[move.arg]
    if s.phase == "draw":
        return _draw_rule(s, move, h)
    if s.phase == "bridge":
        return "a Bridge leads there from no finished Territory"
    spell = s.spell
    if spell == "clone":
        return "Clone draws a Worker next to one of your other Workers"
    if spell == "muster":
        return "Muster draws a Worker next to a drawn Resource or Worker, or a Starting space"
    if spell == "ship":
        return f"{move.arg} is not an unoccupied Ship space"
    if spell == "rage":
        return f"Rage makes one of your Workers count more: you have none on {move.arg}"
    if spell == "swamp" and s.spell_hex >= 0:
        first = b.names[s.spell_hex]
        return f"the second Swamp space must be next to the first ({first})"
    if spell == "terrain" and KINDS.index(move.verb) not in s.dice:
        rolled = " and ".join(KINDS[d] for d in s.dice if d >= 0)
        return f"the Terrain dice show {rolled}, not {move.verb}"
    return f"{move.arg} is not next to a drawn Resource or Worker"


def _draw_rule(s: PandoriaSheets, move: Move, h: int) -> str:
    b = s.board
    name = move.arg
    if move.verb == "worker":
        drawn = [b.names[x] for x in (s.r1, s.r2) if x >= 0]
        return f"the Worker goes next to a Resource you just drew ({', '.join(drawn)}), 2.2"
    kind = KINDS.index(move.verb)
    left = _dice_left(s)
    if kind not in left:
        rolled = " or ".join(sorted({KINDS[d] for d in left}))
        return f"the dice leave you {rolled} to draw, not {move.verb}"
    anchor = drawing.anchor_hexes(s)
    touches = (
        f"{name} is not next to a Resource or Worker drawn before this turn, nor to a "
        "Starting space"
    )
    if s.item == 1 and s.r1 >= 0:
        first = b.names[s.r1]
        if not b.nbr[s.r1] >> h & 1:
            return f"the second Resource goes next to the first ({first}), 2.1"
        if not s.r1_anchored and not anchor >> h & 1:
            return f"{touches}, and neither is {first}: one of the Resources must be (2.1)"
    elif not anchor >> h & 1:
        spread = 0
        for a in bits(anchor):
            spread |= b.nbr[a]
        if s.item == 1:
            return f"{touches} (2.1)"
        if not spread >> h & 1:
            return f"{touches}, nor is any empty hex next to it: one of the Resources must be (2.1)"
    return (
        f"after a Resource on {name} the rest of the turn (2 Resources and a Worker) would "
        "not fit; it must be drawn where it fits"
    )


def _choose_rule(s: PandoriaSheets) -> str:
    others = [KINDS[d] for d in s.dice if d >= 0]
    if others:
        return f"a '?' may show any Resource but the one on the other die ({others[0]})"
    return "choose one of wood, crystal, craft, gold or city"
