"""Archmagi's Setup: the Magic Pool, the Monster Decks, the Crystals, hands and Spell Books.

SETUP 1: "Shuffle and place the Round 1 Common cards (player count specific ...) and the
Starting Spells matching the color of each Magi to form the Magic Pool deck"; 2: the 3 Monster
Decks shuffled; 3: the Crystals in a pile; 4: "Give each player a starting hand of exactly 3 of
the Starting Common Spells"; 5: each player's 20 Spells of their color shuffled into their
Spell Book.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.archmagi.content import ELEMENTS
from rulebook.archmagi.moves import PLAY

if TYPE_CHECKING:
    from rulebook.archmagi.state import Table


def set_up(s: Table) -> None:
    """SETUP 1-5, with the Magi dealt at random from the seed.

    The ``magi`` option chooses the first seats' Magi (SETUP 5: "their chosen color"); the
    other seats are dealt at random from the seed, so simulations rotate the Magi over the
    seats. With 2-3 players the unused Magi's Spells stay in the box.
    """
    c, n = s.content, s.num_players
    rng = s.chance.rng()
    order = list(ELEMENTS)
    rng.shuffle(order)
    chosen = s.setup.options.get("magi", "random")
    if chosen != "random":
        named = chosen.split(",")
        order = named + [e for e in order if e not in named]
    s.magi = order[:n]
    s.magi_specs = [c.magi[ELEMENTS.index(e)] for e in s.magi]
    s.seat_of = {e: p for p, e in enumerate(s.magi)}
    cards = c.cards
    s.pool = [
        i
        for i, spell in enumerate(cards)
        if (spell.set == "round" and spell.round == 1 and spell.players <= n)
        or (spell.set == "starting" and spell.element in s.seat_of)
    ]
    rng.shuffle(s.pool)
    s.monster_decks = []
    for tier in (1, 2, 3):
        deck = [i for i, m in enumerate(c.monsters) if m.tier == tier]
        rng.shuffle(deck)
        s.monster_decks.append(deck)
    s.paths = [[], [], []]
    starting = [i for i, spell in enumerate(cards) if spell.set == "starting_common"]
    k = c.rules.starting_hand
    s.hands = [starting[p * k : (p + 1) * k] for p in range(n)]
    s.books = []
    for e in s.magi:
        book = [i for i, spell in enumerate(cards) if spell.set == "book" and spell.element == e]
        rng.shuffle(book)
        s.books.append(book)
    s.planted = [[] for _ in range(n)]
    s.crystals = [0] * n
    s.tally = [{} for _ in range(n)]
    s.trophies = [[] for _ in range(n)]
    s.discard = []
    s.exhausted = []
    s.play_area = []
    s.looking = []
    s.stack = []
    s.round = 1
    s.final = False
    s.phase = PLAY
    s.turn = 0
    s.plays = 0
