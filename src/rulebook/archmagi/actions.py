"""Archmagi's Actions symbol by symbol (SYMBOLS GUIDE) as the Additional Rules Clarifications
order them.

ADDITIONAL RULES CLARIFICATIONS, Spells: "Whenever you Play an Action of a Spell, you must
follow all of it left to right, top to bottom." An Action, a Monster's Reward or a Magi's
start-of-turn symbols run as a ``seq`` task of the stack
(:meth:`~rulebook.archmagi.rules.ArchmagiState._run`); each symbol is performed by
:func:`effect`, and one that needs a decision (Discard, Plant, Uproot, Search, Draft, "you may")
pushes an input task that either waits for its seat (:func:`waits`, answered by :func:`decide`
among :func:`choices`) or resolves alone (:func:`settle`). SYMBOLS GUIDE, Draft: "During Round 4
or if you have no Spells left in your Spell Book, you may use this as Draw instead." Spell Book:
"If your Spell Book runs out of Spells, any excess Drafts are Draws instead."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebook.archmagi.flow import discard_card
from rulebook.archmagi.moves import FOR_DRAFT
from rulebook.archmagi.rounds import drafts_as_draws, draw, end_round
from rulebook.archmagi.symbols import Effect

if TYPE_CHECKING:
    from rulebook.archmagi.moves import Move, Task
    from rulebook.archmagi.state import Table
    from rulebook.core import Action


def affordable(crystals: int, effects: tuple[Effect, ...]) -> bool:
    """Whether ``crystals`` Crystals pay every Spend Crystals of ``effects`` when it comes
    (gains before it count). Decision: an Action whose Spend cannot be paid cannot be played;
    other symbols do as much as they can (Discard 2 with one Spell in Hand discards it)."""
    have = crystals
    for e in effects:
        if e.kind == "gain":
            have += e.n
        elif e.kind == "spend":
            have -= e.n
            if have < 0:
                return False
    return True


def may_possible(crystals: int, hand: int, planted: int, effects: tuple[Effect, ...]) -> bool:
    """Decision: a "you may" part (ADDITIONAL RULES CLARIFICATIONS) can be used only if its
    costs can be paid in full (Spend, Discard, Uproot), so that it is never a free gain; for a
    seat holding ``crystals`` Crystals, ``hand`` Spells in Hand and ``planted`` Planted Spells."""
    if not affordable(crystals, effects):
        return False
    for e in effects:
        if e.kind == "discard":
            hand -= e.n
            if hand < 0:
                return False
        elif e.kind == "uproot":
            planted -= e.n
            if planted < 0:
                return False
        elif e.kind in ("draw",):
            hand += e.n
        elif e.kind == "plant":
            hand -= e.n
            planted += e.n
    return True


def waits(
    kind: str,
    n: int,
    data: Any,
    crystals: int,
    hand: int,
    planted: int,
    book: int,
    looking: int,
    free_flow: bool,
    drafts_as_draws: bool,
    hand_limit: int,
) -> bool:
    """Whether the input task ``(kind, p, n, data)`` waits for a decision of its seat, holding
    ``crystals`` Crystals, ``hand`` Spells in Hand, ``planted`` Planted Spells and ``book`` in
    its Spell Book, with ``looking`` Spells looked at; ``free_flow``: its Magi takes Spells by
    the Flow of Magic for free; ``drafts_as_draws``: from Round 4 (END OF ROUND 3). Else
    :func:`settle` resolves it. :meth:`~rulebook.archmagi.rules.ArchmagiState._ready` asks it
    of the position, the greedy lookahead of positions it works out."""
    if kind == "limit":
        return hand > hand_limit
    if kind == "pay":
        return hand > 0
    if kind in ("discard", "plant"):
        return hand > 0 and n > 0
    if kind == "uproot":
        return planted > 0 and n > 0
    if kind == "flow":
        return hand > 0 or free_flow
    if kind == "return":
        return looking > 1
    if kind == "search":
        return looking > 0
    if kind == "draft":
        return n > 0 and book > 0 and drafts_as_draws
    if kind == "look":
        return book > 0
    if kind == "may":
        return may_possible(crystals, hand, planted, data)
    return True


def gainable(n: int, held: int, crystals: int) -> int:
    """How many of ``n`` Crystals are gained when the players hold ``held`` of the main pile's
    ``crystals``: no more than are left (SYMBOLS GUIDE, Gain Crystals)."""
    return max(0, min(n, crystals - held))


def gain(s: Table, p: int, n: int) -> None:
    """SYMBOLS GUIDE, Gain Crystals: from the main pile (80 tokens; no more than are left)."""
    got = gainable(n, sum(s.crystals), s.content.rules.crystals)
    s.crystals[p] += got
    s.count(p, "crystals_gained", got)
    if got < n:
        s.tell("pile_short", p, n, got)


def effect(s: Table, p: int, e: Effect) -> None:
    """Perform one symbol (SYMBOLS GUIDE); symbols that need a decision push a task."""
    kind = e.kind
    if kind == "gain":
        gain(s, p, e.n)
    elif kind == "spend":
        s.crystals[p] -= min(e.n, s.crystals[p])
    elif kind == "draw":
        draw(s, p, e.n)
    elif kind == "plays":
        s.plays += e.n
    elif kind == "draft":
        s.stack.append(("draft", p, e.n, None))
    elif kind == "look_draft":
        s.stack.append(("look", p, e.n, None))
    elif kind == "search":
        k = min(e.n, len(s.pool))
        if k:
            s.looking = s.pool[-k:]
            del s.pool[-k:]
            s.stack.append(("search", p, 0, None))
    elif kind in ("discard", "plant", "uproot"):
        s.stack.append((kind, p, e.n, None))
    elif kind == "may":
        s.stack.append(("may", p, 0, e.then))
    else:  # pragma: no cover - content validation allows no other kind
        raise ValueError(f"unknown effect {kind}")


def settle(s: Table, task: Task) -> None:
    """Resolve an input task that needs no decision: a Draft before Round 4 (or a Draw with an
    empty Spell Book: SPELL BOOK clarification), the last Spell of a Search put back; a
    discard, plant, uproot or Flow of Magic that cannot happen is skipped."""
    kind, p, n, _ = task
    if kind == "return":
        s.pool.extend(s.looking)
        s.looking = []
    elif kind == "draft" and n > 0:
        if n > 1:
            s.stack.append(("draft", p, n - 1, None))
        if s.books[p]:
            s.count(p, "spells_drafted")
            s.discard.append(s.books[p].pop())
            s.tell("drafted", p)
        else:
            draw(s, p, 1, FOR_DRAFT)
    elif kind == "look":
        draw(s, p, 1, FOR_DRAFT)  # nothing to look at: the Draft is a Draw


def choices(s: Table, task: Task) -> list[Action]:
    """The moves answering the decision ``task`` waits for (SYMBOLS GUIDE; the DISCARD PHASE's
    hand limit; the FLOW OF MAGIC): the Spells to discard (a symbol, a Monster's cost, the hand
    limit, the Flow of Magic's price), plant, uproot, take or put back (Search), draft (or draw
    instead), "you may" or not, the Flow of Magic's offer."""
    kind, p, n, data = task
    named = s.moves.named
    plain = s.moves.plain
    if kind in ("discard", "limit", "pay"):
        return [named["discard"][x] for x in s.names(s.hands[p])]
    if kind == "plant":
        return [named["plant"][x] for x in s.names(s.hands[p])]
    if kind == "uproot":
        return [named["uproot"][x] for x in s.names(s.planted[p])]
    if kind == "search":
        return [named["take"][x] for x in s.names(s.looking)]
    if kind == "return":
        return [named["return"][x] for x in s.names(s.looking)]
    if kind == "look":
        out: list[Action] = [named["draft"][x] for x in s.names(s.books[p][-n:])]
        if drafts_as_draws(s):
            out.append(plain["draw"])
        return out
    if kind == "draft":
        return [plain["draft"], plain["draw"]]
    if kind == "may":
        return [plain["use"], plain["skip"]]
    if kind == "flow":
        return [named["take"][s.moves.name_of[data]], plain["pass"]]
    raise RuntimeError(f"no moves for task {kind}")  # pragma: no cover


def decide(s: Table, p: int, move: Move, task: Task) -> None:
    """A decision inside an Action or a Reward (SYMBOLS GUIDE: Discard, Plant, Uproot, Search
    and its Spells put back, Draft or Draw instead, "you may"), or the Discard Phase's hand
    limit (``limit``, one Spell at a time)."""
    kind, _, n, data = task
    verb = move.verb
    hand = s.hands[p]
    if kind in ("discard", "limit"):
        card = s.take(hand, move.card)
        if kind == "discard" and n > 1:
            s.stack.append(("discard", p, n - 1, None))
        elif kind == "limit":
            s.stack.append(("limit", p, 0, None))
        discard_card(s, p, card)
    elif kind == "plant":
        s.count(p, "spells_planted")
        s.planted[p].append(s.take(hand, move.card))
        if n > 1:
            s.stack.append(("plant", p, n - 1, None))
    elif kind == "uproot":
        card = s.take(s.planted[p], move.card)
        if n > 1:
            s.stack.append(("uproot", p, n - 1, None))
        discard_card(s, p, card)
    elif kind == "search":
        hand.append(s.take(s.looking, move.card))
        if s.looking:
            s.stack.append(("return", p, 0, None))
        elif not s.pool:
            end_round(s)  # Search took the last Spell of the Magic Pool
    elif kind == "return":
        s.pool.append(s.take(s.looking, move.card))
        s.stack.append(("return", p, 0, None))
    elif kind == "look":
        book = s.books[p]
        if verb == "draw":
            draw(s, p, 1)
        else:
            top = book[-n:]
            card = s.take(top, move.card)
            book.remove(card)
            s.count(p, "spells_drafted")
            s.discard.append(card)
        s.chance.shuffle(book)
    elif kind == "draft":
        if n > 1:
            s.stack.append(("draft", p, n - 1, None))
        if verb == "draw":
            draw(s, p, 1)
        else:
            s.count(p, "spells_drafted")
            s.discard.append(s.books[p].pop())
            s.tell("drafted", p)
    elif kind == "may" and verb == "use":
        s.stack.append(("seq", p, 0, data))
