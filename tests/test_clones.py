"""Every field of every game's State reaches its clones, and a clone shares nothing that a move
changes in place: a field added later and forgotten in ``clone`` (or shared by mistake) fails
here, compiled or not.

A state's fields are what its classes declare (their annotations; compiled, the native
attributes, ``__mypyc_attrs__``) and set, and what its instance holds (pure Python). At
positions along a random game of every game, variant and player count, a clone must have the
very same fields set, each equal to the original's, and every list, dict or set among them must
be a copy, except those the game's clone shares by design (:data:`SHARED`, each with the reason
its class gives); a list whose rows are lists or dicts must have its rows copied too, except
where :data:`ROWS_SHARED` says the game replaces a row rather than changing it. The same for
Archmagi's greedy lookahead (:class:`rulebook.archmagi.lookahead.Counts`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import pytest

import properties as props
import rulebook
from rulebook.archmagi.lookahead import Counts
from rulebook.archmagi.rules import ArchmagiState
from rulebook.core import State

CASES = props.cases()

#: the lists, dicts and sets a class's copies share: never changed in place
SHARED: dict[str, set[str]] = {
    # the Magi in play, their Ability Cards, the seat of each: set up once
    "ArchmagiState": {"magi", "magi_specs", "seat_of"},
    # forge costs by coins and Kingdom Cards: a memo that only grows, true for every copy
    "BattleState": {"costs_known"},
    # the content's memo of what sheets score; the Sponsored Adventurers dealt at setup
    "MerchantsState": {"_sheet_scores", "adventurer", "adventurer_coins", "adventurer_masks"},
    "ShoppeState": {"_sheet_scores"},
    # the content's cards by Building; Ships and Artifacts on the map (replaced whole when one
    # is added or removed); the legal moves listed for this very position (replaced after it)
    "PandoriaState": {"_legal", "artifacts", "building_cards", "ships"},
    # the state's Magi Ability Cards and seats; the Play Area's Spells (replaced, never changed)
    "Counts": {"magi", "seat_of", "area"},
}

#: the lists whose rows a class's copies share: a move replaces the row it changes
ROWS_SHARED: dict[str, set[str]] = {
    "ArchmagiState": {"tally"},
    "BattleState": {
        *("supply", "crafts", "levels", "coins", "race_tiles", "region_tiles"),
        *("kingdom_cards", "defeated", "reward_spaces", "year_end", "tally"),
    },
}

CONTAINERS = (list, dict, set)


def fields(obj: object) -> set[str]:
    """The fields ``obj`` has set: those its classes declare, and its instance's own."""
    names = set(vars(obj)) if hasattr(obj, "__dict__") else set()
    for klass in type(obj).__mro__:
        own = vars(klass)
        names.update(a for a in own.get("__mypyc_attrs__", ()) if a != "__dict__")
        names.update(
            name
            for name, kind in own.get("__annotations__", {}).items()
            if "ClassVar" not in str(kind)
        )
    return {name for name in names if hasattr(obj, name)}


def check_copy(original: object, copy: object) -> None:
    """``copy`` has every field ``original`` has, equal, its containers copied (but for the
    class's :data:`SHARED` ones), and their rows too (but for :data:`ROWS_SHARED`)."""
    kind = type(original).__name__
    missing = fields(original) ^ fields(copy)
    assert not missing, f"{kind}: {', '.join(sorted(missing))} not copied"
    shared, rows_shared = SHARED.get(kind, set()), ROWS_SHARED.get(kind, set())
    for name in sorted(fields(original)):
        was, now = getattr(original, name), getattr(copy, name)
        if not isinstance(was, CONTAINERS):
            continue
        assert now == was, f"{kind}.{name} differs in the copy"
        if name in shared:
            assert now is was, f"{kind}.{name} is declared shared here but copied"
            continue
        assert now is not was, f"{kind}.{name} (a {type(was).__name__}) is shared by the copy"
        if isinstance(was, list):
            same_rows = [r is s for r, s in zip(was, now, strict=True) if isinstance(r, CONTAINERS)]
            if name in rows_shared:
                assert all(same_rows), f"{kind}.{name}: rows copied, declared shared here"
            else:
                assert not any(same_rows), f"{kind}.{name}: rows shared by the copy"


def check_along(case: props.Case, seed: int, every: int, check: Callable[[State], None]) -> None:
    """``check`` the positions of a seeded random game of ``case``: its start, every
    ``every``-th move, its end."""
    state = rulebook.new_game(case.game, players=case.players, seed=seed, variant=case.variant)
    check(state)

    def each(now: State) -> None:
        if len(now.history) % every == 0 or now.is_terminal():
            check(now)

    props.play_random(state, random.Random(seed), on_step=each)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_clone_copies_every_field(case: props.Case) -> None:
    check_along(case, seed=3, every=5, check=lambda state: check_copy(state, state.clone()))


def counts_copied(state: State) -> None:
    """Every seat's :class:`Counts` of ``state`` (an Archmagi game) against their copy."""
    for p in range(state.num_players):
        counts = Counts(cast(ArchmagiState, state), p)
        check_copy(counts, counts.copy())


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_lookahead_counts_copy_every_field(players: int) -> None:
    check_along(props.Case("archmagi", "standard", players), seed=5, every=3, check=counts_copied)


def test_the_check_finds_a_field_forgotten_or_shared() -> None:
    """The check fails on a copy that lacks a field, or shares a list a move changes."""
    state = rulebook.new_game("battle-merchants", players=2, seed=1)
    rng = random.Random(1)
    for _ in range(40):
        state.apply(*props.random_move(state, rng))

    class Lacking:
        """A copy of ``original`` with every field but ``missing``."""

        def __init__(self, original: object, missing: str) -> None:
            for name in fields(original) - {missing}:
                setattr(self, name, getattr(original, name))

    with pytest.raises(AssertionError, match="BattleState: gold not copied"):
        check_copy(state, Lacking(state.clone(), "gold"))
    sharing = state.clone()
    sharing.gold = state.gold
    with pytest.raises(AssertionError, match=r"BattleState.gold \(a list\) is shared"):
        check_copy(state, sharing)
