"""Components needed: the Map sheet, its hexes as bit masks; and the areas of 4. Score any
Enclosed Areas ("surrounded by natural boundaries (such as the edge of the Map, lakes, a river
in the 2 and 3-player game), other Resources or Workers").

A :class:`Board` is one map compiled for one setting (a player count, or the solo map): hex
``i`` is bit ``i`` of every mask; ``nbr[i]`` holds the hexes adjacent to ``i`` for drawing and
enclosing (none across a boundary river, none across a Territory border in solo), ``geo[i]``
the hexes that touch ``i`` on the sheet (for Ships: "areas adjacent to that lake").

Rows are "odd-r" offset: even-numbered rows (2, 4, ...) sit half a hex to the right.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

#: the symbols drawn on the map, in the order of their indices
KINDS: Final = ("wood", "crystal", "craft", "gold", "city")
CITY: Final = 4

HEX_NAME = re.compile(r"^([A-Z])(\d{1,2})$")
#: how many masks' surroundings a :class:`Board` remembers (:meth:`Board.around`) before
#: starting afresh
KNOWN_AREAS: Final = 100_000
#: how many areas found through each hex a :class:`Board` remembers
#: (:meth:`Board.area_and_border`): search and lookahead come back to the same few
AREAS_PER_HEX: Final = 8


def bits(mask: int) -> Iterator[int]:
    """The hex indices set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def hexes(mask: int) -> list[int]:
    """:func:`bits` as a list (made at once: cheaper than a generator compiled)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def around(nbr: Sequence[int], mask: int) -> int:
    """The union of ``nbr[i]`` over the hexes ``i`` of ``mask``: the hexes next to any of them
    (``mask``'s own included where they neighbour each other)."""
    out = 0
    while mask:  # bits(mask), inlined: this is the innermost loop of enclosure detection
        low = mask & -mask
        out |= nbr[low.bit_length() - 1]
        mask ^= low
    return out


def column_letter(c: int) -> str:
    return chr(ord("A") + c)


@dataclass(frozen=True)
class Board:
    """One map, compiled for one setting. Masks are ints; lists are indexed by hex."""

    width: int
    height: int
    names: tuple[str, ...]
    index: dict[str, int]
    #: hexes that exist in this setting (rows past a boundary river do not)
    exists: int
    #: hexes on which symbols can be drawn (not lakes)
    land: int
    lakes: tuple[int, ...]  # each lake's hexes (Ship spaces included)
    ships: tuple[int, ...]  # hex of each Ship space
    lake_of: dict[int, int]  # Ship hex -> its lake's mask
    nbr: tuple[int, ...]
    geo: tuple[int, ...]
    #: pre-printed Resource spaces and Starting Resource spaces: hex -> kind index
    preprinted: dict[int, int]
    starts: dict[int, int]
    preprinted_mask: int
    starts_mask: int
    territory: tuple[int, ...]  # per hex: its Territory (solo) or 0
    territories: dict[int, int]  # Territory -> its hexes
    bridges: tuple[tuple[int, int], ...]
    rows_used: int
    #: per hex, the areas found through it lately: (area and border, area, border), newest
    #: last (:meth:`area_and_border`); bots look at the same areas position after position
    _areas: dict[int, list[tuple[int, int, int]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    #: mask -> :func:`around` it (``nbr``), for the large masks asked for again and again
    _around: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def around(self, mask: int) -> int:
        """:func:`around` ``mask`` with this map's ``nbr``, remembered (at most
        :data:`KNOWN_AREAS` masks): search and lookahead reach the same hexes drawn next to
        (the first Resource's candidates, the Workers' surroundings) position after
        position."""
        known = self._around
        found = known.get(mask)
        if found is None:
            found = around(self.nbr, mask)
            if len(known) >= KNOWN_AREAS:
                known.clear()
            known[mask] = found
        return found

    def name(self, h: int) -> str:
        return self.names[h]

    def border(self, area: int) -> int:
        """Every hex adjacent to ``area`` and not in it."""
        return around(self.nbr, area) & ~area

    def geo_border(self, area: int) -> int:
        """Every hex touching ``area`` on the sheet and not in it."""
        return around(self.geo, area) & ~area

    def area_and_border(self, same: int, h: int) -> tuple[int, int]:
        """:meth:`area` of ``h`` and its :meth:`border`, remembered (the last
        :data:`AREAS_PER_HEX` found through each hex). A remembered area of ``h`` is still its
        area in ``same`` when ``same`` holds all of it and none of its border: then nothing
        joins it (checked with one mask, where a table keyed by ``same`` would hash it)."""
        known = self._areas.get(h)
        if known is None:
            known = self._areas[h] = []
        for hull, area, border in known:
            if same & hull == area:
                return area, border
        area = self.area(same, h)
        border = self.border(area)
        if len(known) >= AREAS_PER_HEX:
            del known[0]
        known.append((area | border, area, border))
        return area, border

    def area(self, same: int, h: int) -> int:
        """The area of ``h``: it and every hex joined to it through hexes of ``same``."""
        area = frontier = 1 << h
        nbr = self.nbr
        while frontier:
            frontier = around(nbr, frontier) & same & ~area
            area |= frontier
        return area


def enclosed(board: Board, area: int, empty: int) -> bool:
    """Rule 4: an area "cannot be expanded anymore" when no hex adjacent to it is empty.

    Everything else around it is a wall: the map's edge and a boundary river (no hex there),
    lakes, Swamp spaces, Workers and other Resources (none of them is in ``empty``); in solo,
    hexes across a river are not adjacent at all.
    """
    return not board.border(area) & empty


def _neighbours(c: int, r: int) -> Sequence[tuple[int, int]]:
    """Offset coordinates next to column ``c`` of row ``r`` (0-based; odd ``r`` shifted)."""
    if r % 2 == 0:
        return ((c - 1, r), (c + 1, r), (c - 1, r - 1), (c, r - 1), (c - 1, r + 1), (c, r + 1))
    return ((c - 1, r), (c + 1, r), (c, r - 1), (c + 1, r - 1), (c, r + 1), (c + 1, r + 1))


def build_board(
    grid: Sequence[Sequence[str]],
    letters: dict[str, str],
    starts: dict[str, str],
    rows_used: int | None = None,
    bridges: Sequence[tuple[str, str]] = (),
) -> Board:
    """Compile a grid of tokens (one list per row; see ``data/maps.toml``) into a Board.

    ``rows_used`` drops every row below it (a boundary river: "nothing can be drawn on the
    other side of that river"). Raises ``ValueError`` on a malformed grid.
    """
    height = len(grid) if rows_used is None else rows_used
    width = len(grid[0])
    if any(len(row) != width for row in grid):
        raise ValueError("every row of the map needs the same number of hexes")
    if width > 26:
        raise ValueError("at most 26 columns (A-Z)")
    names = tuple(f"{column_letter(i % width)}{i // width + 1}" for i in range(width * height))
    index = {n: i for i, n in enumerate(names)}
    land = exists = 0
    lake_hexes = 0
    ships: list[int] = []
    preprinted: dict[int, int] = {}
    start_map: dict[int, int] = {}
    territory = [0] * (width * height)
    for r in range(height):
        for c, token in enumerate(grid[r]):
            i = r * width + c
            exists |= 1 << i
            terr, sym = (0, token) if len(token) == 1 else (token[0], token[1])
            if sym == "~" or sym == "S":
                lake_hexes |= 1 << i
                if sym == "S":
                    ships.append(i)
                continue
            if terr:
                if not str(terr).isdigit():
                    raise ValueError(f"{names[i]}: bad Territory {terr!r}")
                territory[i] = int(terr)
            land |= 1 << i
            if sym == "@":
                if names[i] not in starts:
                    raise ValueError(f"{names[i]}: Starting space without a symbol")
                start_map[i] = KINDS.index(starts[names[i]])
            elif sym in letters:
                preprinted[i] = KINDS.index(letters[sym])
            elif sym != ".":
                raise ValueError(f"{names[i]}: unknown token {token!r}")
    for name in starts:
        if name in index and index[name] not in start_map:
            raise ValueError(f"{name}: a Starting symbol on a hex that is not '@'")
    geo: list[int] = []
    nbr: list[int] = []
    for i in range(width * height):
        r, c = divmod(i, width)
        g = n = 0
        for cc, rr in _neighbours(c, r):
            if 0 <= cc < width and 0 <= rr < height:
                j = rr * width + cc
                g |= 1 << j
                if land >> i & 1 and land >> j & 1 and territory[i] == territory[j]:
                    n |= 1 << j
        geo.append(g)
        nbr.append(n)
    lakes: list[int] = []
    rest = lake_hexes
    while rest:
        seed = (rest & -rest).bit_length() - 1
        lake = frontier = 1 << seed
        while frontier:
            grown = 0
            for j in bits(frontier):
                grown |= geo[j]
            frontier = grown & lake_hexes & ~lake
            lake |= frontier
        lakes.append(lake)
        rest &= ~lake
    lake_of = {s: next(lk for lk in lakes if lk >> s & 1) for s in ships}
    territories: dict[int, int] = {}
    for i in bits(land):
        territories[territory[i]] = territories.get(territory[i], 0) | 1 << i
    bridge_hexes = []
    for a, b in bridges:
        if a not in index or b not in index:
            raise ValueError(f"bridge {a}-{b} names a hex that is not on the map")
        ia, ib = index[a], index[b]
        if not land >> ia & 1 or not land >> ib & 1 or territory[ia] == territory[ib]:
            raise ValueError(f"bridge {a}-{b} must join land hexes of two Territories")
        bridge_hexes.append((ia, ib))
    return Board(
        width=width,
        height=height,
        names=names,
        index=index,
        exists=exists,
        land=land,
        lakes=tuple(lakes),
        ships=tuple(ships),
        lake_of=lake_of,
        nbr=tuple(nbr),
        geo=tuple(geo),
        preprinted=preprinted,
        starts=start_map,
        preprinted_mask=sum(1 << i for i in preprinted),
        starts_mask=sum(1 << i for i in start_map),
        territory=tuple(territory),
        territories=territories,
        bridges=tuple(bridge_hexes),
        rows_used=height,
    )


def tokens(row: str, solo: bool) -> list[str]:
    """Split one text row of the map into its tokens."""
    parts = row.split()
    if solo:
        return [p if p not in ("~~", "~S") else p[1] for p in parts]
    return parts
