"""Archmagi's Flow of Magic and Common Spells: where a discarded Spell goes, and who may take it.

FLOW OF MAGIC: "At any time during the game, when a Spell of your element is discarded by
another player, you may discard a Spell to put the Spell of your element into your Hand."
COMMON SPELLS: "Whenever a Common Spell would be Discarded it goes to a separate pile called
the Exhausted Pile." The offer is a decision of the element's Magi at that moment (``take X`` /
``pass``, a ``flow`` task), and taking it asks for the Spell discarded in exchange (a ``pay``
task) unless that Magi's ability makes it free; play resumes afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.archmagi.symbols import COMMON, Spell

if TYPE_CHECKING:
    from rulebook.archmagi.moves import Move, Task
    from rulebook.archmagi.state import Table


def flows_to(p: int, spell: Spell, seat_of: dict[str, int]) -> int | None:
    """The seat whose Magi is offered ``spell`` by the Flow of Magic when ``p`` discards it:
    its element's Magi (``seat_of``), if in play and not ``p``'s (FLOW OF MAGIC)."""
    if spell.element == COMMON:
        return None
    q = seat_of.get(spell.element)
    return None if q is None or q == p else q


def to_discard(s: Table, p: int, card: int) -> Task | None:
    """``p`` discards ``card``: Commons are Exhausted (COMMON SPELLS); an Elemental Spell goes
    to the discard pile of the Magic Pool and may Flow to its Magi (returned as a task)."""
    spell = s.content.cards[card]
    if spell.element == COMMON:
        s.exhausted.append(card)
        return None
    s.discard.append(card)
    q = flows_to(p, spell, s.seat_of)
    return None if q is None else ("flow", q, 0, card)


def discard_card(s: Table, p: int, card: int) -> None:
    """``p`` discards ``card`` now (:func:`to_discard`), its FLOW OF MAGIC offer made next."""
    offer = to_discard(s, p, card)
    if offer is not None:
        s.stack.append(offer)


def decide(s: Table, p: int, move: Move, kind: str, data: int) -> None:
    """FLOW OF MAGIC: ``p`` takes the offered Spell ``data`` (``flow``: paid with a Spell of
    the Hand next, or free by the Magi's ability) or leaves it; ``pay``: the Spell discarded
    for it."""
    hand = s.hands[p]
    if kind == "flow":
        verb = move.verb
        s.count(p, "flow_taken" if verb == "take" else "flow_left")
        if verb == "take":
            if s.magi_specs[p].free_flow:
                s.discard.remove(data)
                hand.append(data)
            else:
                s.stack.append(("pay", p, 0, data))
    else:
        card = s.take(hand, move.card)
        s.discard.remove(data)
        hand.append(data)
        discard_card(s, p, card)
