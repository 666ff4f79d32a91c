"""Setup (and Setting Up For 2): the table before the first turn.

"Place one circular Demand Token on each Battlefield on the game board. The Demand Tokens placed
closest to the center of the board are placed face-up (showing a fire)": the board, the Reward
Tiles, the Kingdom deck stacked A over B over C over D, the two Craft decks, each player's mat,
cubes and 10 gold. With 2 players, one Reward Tile of each race goes on Salesman Steve's spaces
in random order (Setting Up For 2). The states of the table are named here: a Weapon Space or a
face-up card space holds ``EMPTY`` or a code, a Battlefield's Demand Token is ``FIRE``
(face-up), ``LOCK`` (face down) or ``GONE``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from rulebook.battle_merchants.state import Table

# Demand Token states, per Battlefield (Final: the compiled rules read them as constants)
GONE: Final = 0
FIRE: Final = 1
LOCK: Final = 2
#: an empty Weapon Space or face-up card space, and "nobody" where a seat is expected
EMPTY: Final = -1


def set_up(s: Table) -> None:
    """Setup, steps 1-12 (and Setting Up For 2): every player's mat (its starting Craft Levels
    and printed Reward Tile), 10 gold, the Demand Tokens (the first Battlefield of each Region
    face-up, the others locked), the Reward spaces filled, then :func:`deal`."""
    c, n = s.content, s.seats
    w = len(c.weapons)
    s.gold = [c.rules.start_gold] * n
    s.supply = [[0] * (2 * w) for _ in range(n)]
    s.crafts = [[] for _ in range(n)]
    s.levels = [[0] * w for _ in range(n)]
    s.coins = [[0] * w for _ in range(n)]
    s.race_tiles = [[0] * len(c.races) for _ in range(n)]
    s.region_tiles = [[0] * len(s.board.regions) for _ in range(n)]
    for p in range(n):
        for weapon in c.mat_crafts[p]:
            s.levels[p][weapon] += 1
        s.race_tiles[p][c.mat_reward[n][p]] += 1
    s.kingdom_cards = [[] for _ in range(n)]
    s.defeated = [[0, 0] for _ in range(n)]
    s.reward_spaces = [[r in s.board.races] * n for r in range(len(c.races))]
    s.region_on_board = [True] * len(s.board.regions)
    s.bonus_owner = [EMPTY] * w
    s.bonus_up = [False] * w
    s.spaces = [EMPTY] * len(s.board.spaces)
    fields = s.board.battlefields
    s.tokens = [FIRE if i % fields == 0 else LOCK for i in range(len(s.spaces) // 2)]
    s.season_area = 0
    s.tokens_discarded = 0
    s.ending_after = EMPTY
    s.passes = 0
    s.craft_discard = []
    s.kingdom_discard = []
    s.boxed = 0
    s.year_end = []
    deal(s)


def deal(s: Table) -> None:
    """Setup, steps 6-9: the Kingdom deck from piles A-D filtered by player count (A on top,
    the single D at the bottom), the Craft decks shuffled; Steve's tiles placed (Setting Up For
    2); the start player.

    Decision: nobody has sold a Weapon to an Orc before the game, so the start player is
    random ("determine the start player randomly").
    """
    c, n = s.content, s.seats
    rng = s.chance.rng()
    deck: list[int] = []
    for pile in "DCBA":  # the deck's last card is its top
        cards = [k.index for k in c.kingdom if k.pile == pile and n in k.players]
        rng.shuffle(cards)
        deck += cards
    s.kingdom_deck = deck
    s.spring_deck = [k.index for k in c.crafts if k.deck == "spring_summer"]
    s.autumn_deck = [k.index for k in c.crafts if k.deck == "autumn_winter"]
    rng.shuffle(s.spring_deck)
    rng.shuffle(s.autumn_deck)
    s.craft_pool = []
    s.kingdom_pool = []
    s.steve_races = list(s.board.races) if s.two else []
    rng.shuffle(s.steve_races)
    s.steve_cube = 0
    s.current = rng.randrange(n)
