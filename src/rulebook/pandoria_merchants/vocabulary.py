"""Player turn, every step's moves: those of a configuration, legal now or not (its action
vocabulary).

A move is a verb and at most one argument (:class:`~rulebook.pandoria_merchants.moves.Move`);
the vocabulary holds each verb with every argument the map, the Realm sheet, the Spell Archive
and the variant allow, whatever the position: a symbol on every land hex (2.1 Resources, 2.2
Worker), every card of the Realm sheet for the starting card, Spells, Buildings, Monuments and
purchases (3., 5.), the Relics (3.3), the Spells' targets (Spell Index), the Archive's rooms
(family 5.), the Trolls' claims and the Bridges (solo).
"""

from __future__ import annotations

from rulebook.core.data import cached
from rulebook.pandoria_merchants.board import KINDS, Board, bits
from rulebook.pandoria_merchants.content import Content, content
from rulebook.pandoria_merchants.moves import PASS, SKIP, Move
from rulebook.pandoria_merchants.terms import RESOURCES


def vocabulary(c: Content, board: Board, variant: str, players: int) -> tuple[Move, ...]:
    """The moves of ``variant`` for ``players`` on ``board``, in a fixed order."""
    land = [board.names[h] for h in bits(board.land)]
    family = variant == "family"
    moves: list[Move] = [PASS, SKIP]
    moves += [Move("choose", kind) for kind in KINDS]
    moves += [Move(kind, h) for h in land for kind in KINDS]
    moves += [Move("worker", h) for h in land]
    if family:
        rooms = [r for r in c.rooms if r.min_players <= players]
        spells = {fs.spell for r in rooms for fs in r.spells}
        names = dict.fromkeys(fs.name for r in rooms for fs in r.spells)
        moves += [Move("cast", name) for name in names]
        moves += [Move("claim", r.id) for r in rooms]
    else:
        spells = {card.spell for card in c.cards}
        moves += [Move("start", c.cards[i].id) for i in c.starting]
        for verb in ("cast", "build", "monument", "buy"):
            moves += [Move(verb, card.id) for card in c.cards]
        moves += [Move("relic", str(artifacts)) for artifacts, _ in c.relics]
    if "acquire" in spells:
        moves += [Move("take", card.id) for card in c.cards]
    if "conjure" in spells:
        moves += [Move("conjure", r) for r in RESOURCES]
    if "rage" in spells:
        moves += [Move("rage", h) for h in land]
    if "ship" in spells:
        moves += [Move("ship", board.names[s]) for s in board.ships]
    if "swamp" in spells:
        moves += [Move("swamp", h) for h in land]
    if variant == "solo":
        moves += [Move("trolls", f"column-{col + 1}") for col in range(c.columns)]
        moves += [Move("trolls", f"relic-{artifacts}") for artifacts, _ in c.relics]
        moves.append(Move("trolls", "monument"))
        ends = dict.fromkeys(board.names[h] for pair in board.bridges for h in pair)
        moves += [Move("bridge", h) for h in ends]
    return tuple(moves)


@cached
def _built() -> dict[tuple[int, str, int], tuple[Board, tuple[Move, ...]]]:
    """Vocabularies built so far, by board (kept, so that its id stays its own), variant and
    player count; dropped with the compiled content."""
    return {}


def vocabulary_of(board: Board, variant: str, players: int) -> tuple[Move, ...]:
    """The vocabulary of a configuration, built once and shared by all its states."""
    key = (id(board), variant, players)
    built = _built()
    known = built.get(key)
    if known is None or known[0] is not board:
        known = built[key] = (board, vocabulary(content(), board, variant, players))
    return known[1]
