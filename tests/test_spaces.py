"""Fixed action and observation spaces (issue 14), for every game, variant, player count and
options the registry allows (the cases come from ``tests/properties.py``).

Action spaces: the vocabulary is the same for every seed and every position of a
configuration, every legal move of every step is in it, index <-> action round-trips, the mask is
the legal moves, and every entry's text parses back to it.

Observation tensors: at every step of random games the tensor has the encoder's shape and dtype
and finite, normalised values; it is a function of the seat's observation only (the same after
re-sampling what the seat cannot see, and from the observation's JSON text); it changes whenever
the seat's observation changes after its own move; the slices name all of it.

One random game per configuration and test (``HYPOTHESIS_PROFILE=thorough``: 20).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import properties as props
import rulebook
from rulebook import IllegalAction, RulebookError, State
from rulebook.archmagi import ArchmagiState
from rulebook.archmagi.encoding import ArchmagiEncoder
from rulebook.battle_merchants import BattleState
from rulebook.battle_merchants.encoding import BattleEncoder
from rulebook.core.game import Setup
from rulebook.core.spaces import (
    ActionSpace,
    FlatEncoder,
    ObservationEncoder,
    Parts,
    action_space,
    encoder,
    hot,
    observation_tensor,
    positions,
    relative,
    seat_order,
)
from rulebook.merchants_of_magick import MerchantsState
from rulebook.pandoria_merchants import PandoriaState
from rulebook.pandoria_merchants.board import bits
from rulebook.pandoria_merchants.encoding import PandoriaEncoder

GAMES_PER_CASE = 20 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1
#: a value beyond this means a count or amount was left without its scale
LOOSE_BOUND = 8.0
DOCS = Path(__file__).resolve().parents[1] / "docs" / "research.md"

CASES = props.cases()
ENCODED = [c for c in CASES if rulebook.get_game(c.game).encoder is not None]

for_every_case = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
for_every_encoded_case = pytest.mark.parametrize("case", ENCODED, ids=[c.id for c in ENCODED])
#: whole games per example: a failure is reported as drawn (shrinking replays whole games)
few_games = settings(
    max_examples=GAMES_PER_CASE, phases=[Phase.explicit, Phase.reuse, Phase.generate]
)


def _same_options(setup: Setup, seed: int) -> Setup:
    game = rulebook.get_game(setup.game)
    return game.setup(setup.players, seed, setup.variant, setup.options)


def _text(obs: dict[str, Any]) -> str:
    return json.dumps(obs, sort_keys=True)


def test_every_game_has_fixed_spaces() -> None:
    assert ENCODED == CASES, "a game has no observation encoder"
    for case in CASES:
        state = rulebook.get_game(case.game).new_game(case.players, 0, case.variant)
        assert state.action_vocabulary(), f"{case} has no action vocabulary"


# -- action spaces -----------------------------------------------------------------------------
@for_every_case
@few_games
@given(data=st.data())
def test_vocabulary_is_fixed_and_complete(case: props.Case, data: st.DataObject) -> None:
    setup = data.draw(props.setups(case), label="setup")
    other = _same_options(setup, data.draw(props.SEEDS, label="other seed"))
    state = props.new_state(setup)
    vocabulary = tuple(state.action_vocabulary())
    texts = [str(a) for a in vocabulary]
    assert vocabulary, f"{case}: no action vocabulary"
    assert len(set(texts)) == len(texts), "two vocabulary entries share a text"
    assert [str(a) for a in props.new_state(other).action_vocabulary()] == texts, (
        "the vocabulary depends on the seed"
    )
    space = action_space(state)
    assert space.size == len(vocabulary)
    for i, action in enumerate(vocabulary):
        assert space.index(action) == i and space.action(i) == action
        for p in range(case.players):
            assert state.parse_action(p, str(action)) == action, f"{action} does not parse back"
    rng = random.Random(data.draw(props.MOVE_SEEDS, label="move seed"))
    steps = 0

    def check(s: State) -> None:
        nonlocal steps
        steps += 1
        if steps % 50 == 0 or s.is_terminal():
            assert tuple(s.action_vocabulary()) == vocabulary, "the vocabulary changed in play"
        for p in s.current_players():
            legal = s.legal_actions(p)
            indices = space.legal_indices(s, p)  # IllegalAction if a move is not in it
            assert [space.action(i) for i in indices] == legal
            mask = space.mask(s, p)
            assert mask.dtype == np.int8 and mask.shape == (space.size,)
            assert int(mask.sum()) == len(legal) and all(mask[indices] == 1)

    check(state)
    props.play_random(state, rng, on_step=check)


def test_moves_are_numbered_alike_whether_or_not_they_are_the_vocabularys_objects() -> None:
    # Battle Merchants hands out its vocabulary's own objects as legal moves; a space over
    # equal copies of them numbers the same moves alike (moves are found by equality)
    state = rulebook.new_game("battle-merchants", players=2, seed=3)
    space = action_space(state)
    copies = ActionSpace([copy.copy(a) for a in space.vocabulary])
    rng = random.Random(3)
    for _ in range(40):
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        assert all(any(a is v for v in space.vocabulary) for a in legal)
        assert not any(any(a is v for v in copies.vocabulary) for a in legal)
        indices = space.legal_indices(state, p)
        assert copies.legal_indices(state, p) == indices
        assert [space.action(i) for i in indices] == legal
        masks = np.zeros((2, space.size), np.int8)
        copied = np.zeros((2, space.size), np.int8)
        space.masks_into([state, state], [p, p], masks)
        copies.masks_into([state, state], [p, p], copied)
        assert (masks == copied).all() and int(masks[1].sum()) == len(legal)
        state.apply(p, rng.choice(legal))


def test_action_space_refuses_what_it_does_not_number() -> None:
    state = rulebook.new_game("merchants-of-magick", players=2, seed=1)
    space = action_space(state)
    assert action_space(state) is space, "a configuration's action space is built once"
    for bad in (-1, space.size, 1.0, True, "0", None):
        with pytest.raises(IllegalAction):
            space.action(bad)  # type: ignore[arg-type]
    other = rulebook.new_game("archmagi", players=2, seed=1)
    for bad_action in (other.action_vocabulary()[-1], None, ["done"]):
        with pytest.raises(IllegalAction):
            space.index(bad_action)  # type: ignore[arg-type]
    with pytest.raises(rulebook.UnknownGame):
        ActionSpace(())
    with pytest.raises(ValueError, match="twice"):
        ActionSpace([state.action_vocabulary()[0]] * 2)


# -- observation tensors -----------------------------------------------------------------------
def check_tensor(enc: ObservationEncoder, tensor: np.ndarray[Any, Any]) -> None:
    assert tensor.shape == enc.shape, f"shape {tensor.shape}, not {enc.shape}"
    assert tensor.dtype == np.float32
    assert np.isfinite(tensor).all(), "a value is not finite"
    worst = float(np.abs(tensor).max(initial=0.0))
    assert worst <= LOOSE_BOUND, f"a value of {worst}: not normalised"
    low, high = enc.bounds()
    assert (low <= tensor).all() and (tensor <= high).all(), "a value is outside its bounds"


def check_uncapped(enc: ObservationEncoder, obs: dict[str, Any]) -> None:
    """Before the capped parts are clipped, every other part is within its bounds already:
    the bounds the rules or the content give are the real ones (a part that goes past them
    is a part to cap, or a wrong scale)."""
    assert isinstance(enc, FlatEncoder)
    raw = enc.encode_uncapped(obs)
    for part in enc.slices():
        if part.capped:
            continue
        values = raw[part.start : part.stop]
        assert part.low <= values.min() and values.max() <= part.high, (
            f"{part.name}: values {values.min():g} to {values.max():g} outside its bounds "
            f"{part.range}"
        )


def check_seat(state: State, p: int, enc: ObservationEncoder, rng: random.Random) -> None:
    """Seat ``p``'s tensor is that of its observation only: the same from the JSON text, and
    after re-sampling all the seat cannot see."""
    obs = state.observation(p)
    tensor = enc.encode(obs)
    check_tensor(enc, tensor)
    check_uncapped(enc, obs)
    assert np.array_equal(enc.encode(json.loads(json.dumps(obs))), tensor)
    if not state.is_terminal():
        sample = state.determinize(p, random.Random(rng.getrandbits(64)))
        assert np.array_equal(observation_tensor(sample, p), tensor), (
            f"re-sampling what seat {p} cannot see changed its tensor"
        )


Leaf = tuple[str, Any, Any]  # (path pattern, container, key)


def leaves(obs: Any, path: str = "") -> list[Leaf]:
    """Every scalar of an observation, and every list, as (pattern, container, key): the
    pattern names list items ``[*]`` (``seats[*].marked[*]``)."""
    found: list[Leaf] = []
    items: Any = obs.items() if isinstance(obs, dict) else enumerate(obs)
    for key, value in items:
        here = f"{path}.{key}".lstrip(".") if isinstance(obs, dict) else f"{path}[*]"
        if isinstance(value, dict):
            found += leaves(value, here)
        elif isinstance(value, list):
            found.append((here, obs, key))
            found += leaves(value, here)
        else:
            found.append((here, obs, key))
    return found


def ignored(enc: ObservationEncoder, pattern: str) -> bool:
    """Whether the encoder says it leaves ``pattern`` out (or a part holding it)."""
    skipped = getattr(enc, "IGNORED", {})
    return any(pattern == p or pattern.startswith((p + ".", p + "[")) for p in skipped)


def check_every_field_counts(
    enc: ObservationEncoder, views: list[dict[str, Any]], rng: random.Random, k: int = 3
) -> None:
    """Changing any one field of a view to a value it takes elsewhere in the game changes the
    tensor (or is refused), unless the encoder lists the field as left out (``IGNORED``, with
    its reason); and changing a field it leaves out never changes the tensor."""
    pool: dict[str, list[Any]] = {}
    for obs in props.some(views, 40, rng):
        for pattern, container, key in leaves(obs):
            values = pool.setdefault(pattern, [])
            value = container[key]
            if value not in values:
                values.append(value)
    unused: set[str] = set()
    for obs in [views[0], *props.some(views, 3, rng), views[-1]]:
        base = enc.encode(obs)
        for pattern, container, key in leaves(obs):
            if pattern == "game":
                continue
            old = container[key]
            others = [v for v in pool.get(pattern, []) if v != old]
            changed = False
            for value in props.some(others, k, rng):
                container[key] = copy.deepcopy(value)
                try:
                    changed = not np.array_equal(enc.encode(obs), base)
                except Exception:  # the encoder read the field and refused the value
                    changed = True
                finally:
                    container[key] = old
                if changed:
                    break
            if not others:
                continue
            if ignored(enc, pattern):
                assert not changed, f"{pattern} is listed as left out but changes the tensor"
            elif not changed:
                unused.add(pattern)
    assert not unused, f"fields the tensor does not show: {sorted(unused)}"


@for_every_encoded_case
@few_games
@given(data=st.data())
def test_observation_tensor_is_fixed_and_of_the_view_only(
    case: props.Case, data: st.DataObject
) -> None:
    setup = data.draw(props.setups(case), label="setup")
    rng = random.Random(data.draw(props.MOVE_SEEDS, label="move seed"))
    state = props.new_state(setup)
    enc = encoder(setup)
    assert enc is encoder(_same_options(setup, setup.seed + 1)), "encoders are per configuration"
    n = case.players
    views = [state.observation(p) for p in range(n)]
    tensors: dict[bytes, str] = {}
    steps = 0
    deep = set(rng.sample(range(400), 3))
    for p in range(n):
        check_seat(state, p, enc, rng)
    while not state.is_terminal():
        p, action = props.random_move(state, rng)
        state.apply(p, action)
        obs = state.observation(p)
        views.append(obs)
        tensor = enc.encode(obs)
        check_tensor(enc, tensor)
        text = _text(obs)
        assert tensors.setdefault(tensor.tobytes(), text) == text, (
            "two different views of the game have the same tensor"
        )
        steps += 1
        if steps in deep:
            for q in range(n):
                check_seat(state, q, enc, rng)
    for q in range(n):
        check_seat(state, q, enc, rng)
    check_every_field_counts(enc, views, rng)


@for_every_encoded_case
def test_slices_name_the_whole_tensor(case: props.Case) -> None:
    setup = rulebook.get_game(case.game).setup(case.players, 0, case.variant)
    enc = encoder(setup)
    assert len(enc.shape) == 1 and enc.shape[0] > 0
    assert np.dtype(enc.dtype) == np.float32
    position = 0
    names = set()
    for part in enc.slices():
        assert part.start == position and part.stop > part.start, f"{part.name} is misplaced"
        assert part.meaning.strip(), f"{part.name} says nothing of its meaning"
        assert part.name not in names
        names.add(part.name)
        position = part.stop
    assert position == enc.shape[0], "the slices do not cover the tensor"


@for_every_encoded_case
def test_the_viewer_comes_first(case: props.Case) -> None:
    """Each seat finds itself in the ``seat0`` block: the same position read from two seats'
    tensors puts the seat's own score part in the same place."""
    state = rulebook.get_game(case.game).new_game(case.players, 3, case.variant)
    enc = encoder(state.setup)
    assert isinstance(enc, FlatEncoder)
    you = next(s for s in enc.slices() if s.name == "you")
    for p in range(case.players):
        tensor = observation_tensor(state, p)
        assert tensor[you.start + p] == 1.0 and tensor[you.start : you.stop].sum() == 1.0


@for_every_encoded_case
def test_observations_of_other_configurations_are_refused(case: props.Case) -> None:
    game = rulebook.get_game(case.game)
    enc = encoder(game.setup(case.players, 0, case.variant))
    other_game = next(g for g in rulebook.games() if g != case.game)
    foreign = rulebook.new_game(other_game, players=2).observation(0)
    with pytest.raises(RulebookError, match="not an observation"):
        enc.encode(foreign)
    variant = game.variant(case.variant)
    more = case.players + 1 if case.players < variant.max_players else case.players - 1
    if more >= variant.min_players and more != case.players:
        wrong = game.new_game(more, 0, case.variant).observation(0)
        with pytest.raises(RulebookError, match="not an observation"):
            enc.encode(wrong)
    with pytest.raises(RulebookError):
        enc.encode({"game": case.game, "seats": None})


def test_every_game_documents_its_slices() -> None:
    """docs/research.md names every slice of every game (seat blocks once, as ``seatK.``)."""
    text = DOCS.read_text(encoding="utf-8")
    for case in ENCODED:
        enc = encoder(rulebook.get_game(case.game).setup(case.players, 0, case.variant))
        for part in enc.slices():
            name = re.sub(r"^seat\d+\.", "seatK.", part.name)
            assert f"`{name}`" in text, f"docs/research.md does not list {case.game}'s {name}"


# -- the layout helpers ------------------------------------------------------------------------
def test_parts_lay_out_named_slices() -> None:
    parts = Parts()
    assert parts.add("a", 3, "three") == 0
    assert parts.add("none", 0, "absent here") == 3
    assert parts.add("b", 2, "two") == 3
    assert [(s.name, s.start, s.stop, s.size) for s in parts.slices] == [
        ("a", 0, 3, 3),
        ("b", 3, 5, 2),
    ]
    with pytest.raises(ValueError, match="two parts"):
        parts.add("a", 1, "again")
    with pytest.raises(ValueError, match="negative"):
        parts.add("c", -1, "")
    with pytest.raises(ValueError, match="not below"):
        parts.add("d", 1, "empty range", low=1.0, high=1.0)
    parts.add("gold", 2, "gold / 100", low=-1.0, high=4.0, capped=True)
    assert [(s.low, s.high, s.capped, s.range) for s in parts.slices] == [
        (0.0, 1.0, False, "[0, 1]"),
        (0.0, 1.0, False, "[0, 1]"),
        (-1.0, 4.0, True, "[-1, 4] capped"),
    ]


class _Gold(FlatEncoder):
    """A tiny encoder for the bounds: a one-hot seat part and a capped amount."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.at_you = self.parts.add("you", setup.players, "one-hot: the viewer")
        self.at_gold = self.parts.add("gold", 1, "gold / 10", low=-1.0, high=2.0, capped=True)

    def fill(self, observation: dict[str, Any], out: Any, ones: list[int]) -> None:
        hot(ones, self.at_you, self.players, observation["you"])
        out[self.at_gold] = observation["gold"] / 10


def test_bounds_come_from_the_parts_and_capped_parts_are_clipped() -> None:
    enc = _Gold(Setup("merchants-of-magick", 2, 0, "standard", {}))
    low, high = enc.bounds()
    assert low.dtype == np.float32 and low.shape == high.shape == enc.shape == (3,)
    assert low.tolist() == [0.0, 0.0, -1.0] and high.tolist() == [1.0, 1.0, 2.0]
    seats = [{}, {}]
    for gold, shown in ((5, 0.5), (35, 2.0), (-40, -1.0)):
        view = {"game": "merchants-of-magick", "seats": seats, "you": 1, "gold": gold}
        assert enc.encode(view).tolist() == [0.0, 1.0, shown]
        assert enc.encode_uncapped(view)[2] == pytest.approx(gold / 10)


class _Spans(FlatEncoder):
    """Capped parts on both sides of parts that are not capped (the span :meth:`cap` clips)."""

    def __init__(self, setup: Setup, capped: bool = True, tail: int = 2) -> None:
        super().__init__(setup)
        self.parts.add("free", 2, "not capped, before the span")
        self.parts.add("a", 2, "capped", low=0.0, high=1.0, capped=capped)
        self.parts.add("between", 3, "not capped, inside the span", low=-1.0, high=1.0)
        self.parts.add("b", 1, "capped", low=-2.0, high=3.0, capped=capped)
        self.parts.add("after", tail, "not capped, after the span")

    def fill(self, observation: dict[str, Any], out: Any, ones: list[int]) -> None:
        raise NotImplementedError


def test_cap_clips_the_capped_parts_alone_as_np_clip_does() -> None:
    enc = _Spans(Setup("merchants-of-magick", 2, 0, "standard", {}))
    rng = np.random.default_rng(0)
    rows = (rng.normal(0.0, 5.0, (6, *enc.shape)) * 7).astype(np.float32)
    rows[0, :] = [-0.0, 9.0, -3.0, 0.5, -7.5, 8.0, 0.25, 99.0, -5.0, 6.0]
    low, high = enc.bounds()
    capped = np.zeros(enc.shape, bool)
    capped[[2, 3, 7]] = True
    expected = np.where(capped, np.clip(rows, low, high), rows)
    batch = rows.copy()
    enc.cap(batch)  # rows of the shape, as encode_into clips a batch
    assert batch.tobytes() == expected.tobytes()  # the very same bits (a -0.0 kept)
    assert batch[0].tolist() == [-0.0, 9.0, 0.0, 0.5, -7.5, 8.0, 0.25, 3.0, -5.0, 6.0]
    one = rows[0].copy()
    enc.cap(one)
    assert one.tobytes() == expected[0].tobytes()
    # rows that are not contiguous (clipped span by span) and a span under half a row (the
    # span alone clipped): the same bits
    wider = np.zeros((6, 2 * enc.shape[0]), np.float32)
    spread = wider[:, : enc.shape[0]]
    spread[...] = rows
    enc.cap(spread)
    assert spread.tobytes() == expected.tobytes()
    assert (wider[:, enc.shape[0] :] == 0.0).all()
    long = _Spans(enc.setup, tail=20)
    padded = np.concatenate([rows, np.full((6, 18), 50.0, np.float32)], axis=1)
    long.cap(padded)
    assert padded[:, : enc.shape[0]].tobytes() == expected.tobytes()
    assert (padded[:, enc.shape[0] :] == 50.0).all()
    bare = _Spans(enc.setup, capped=False)
    untouched = np.full((2, *bare.shape), 50.0, np.float32)
    bare.cap(untouched)
    assert (untouched == 50.0).all()


def test_seats_in_relative_order_and_one_hot_bounds() -> None:
    assert seat_order(2, 4) == [2, 3, 0, 1]
    assert [relative(q, 2, 4) for q in seat_order(2, 4)] == [0, 1, 2, 3]
    ones: list[int] = []
    hot(ones, 2, 3, 1)
    assert ones == [3]
    for bad in (-1, 3):
        with pytest.raises(RulebookError, match="outside"):
            hot(ones, 2, 3, bad)
    assert positions({"a": 0, "b": 1}, ["b", "a"], 10, "letter") == [11, 10]
    with pytest.raises(RulebookError, match="unknown letter: 'c'"):
        positions({"a": 0}, ["a", "c"], 0, "letter")


# -- what the parts hold -----------------------------------------------------------------------
def part(tensor: np.ndarray[Any, Any], enc: ObservationEncoder, name: str) -> Any:
    """The values of the part called ``name``."""
    found = next(s for s in enc.slices() if s.name == name)
    return tensor[found.start : found.stop]


def test_sheet_tensor_shows_each_seat_in_its_relative_place() -> None:
    state = rulebook.new_game("merchants-of-magick", players=3, seed=11)
    assert isinstance(state, MerchantsState)
    circle = state.content.layout.circles[5]
    state.marks[1] |= circle.bit  # seat 1 marked the sixth circle
    enc = encoder(state.setup)
    for viewer, block in ((1, "seat0"), (0, "seat1"), (2, "seat2")):
        marked = part(observation_tensor(state, viewer), enc, f"{block}.marked")
        assert marked.tolist() == [1.0 if i == 5 else 0.0 for i in range(len(marked))]
    state.potions[2] = 5
    assert part(observation_tensor(state, 2), enc, "seat0.potions")[0] == pytest.approx(0.5)


def test_pandoria_map_shows_workers_by_relative_seat() -> None:
    state = rulebook.new_game("pandoria-merchants", players=3, seed=2)
    assert isinstance(state, PandoriaState)
    hexes = state.board.width * state.board.height
    h = next(bits(state.empty))
    state.workers = (*state.workers[:2], state.workers[2] | 1 << h)
    state.empty &= ~(1 << h)
    enc = encoder(state.setup)
    assert isinstance(enc, PandoriaEncoder)
    for viewer, seat in ((2, 0), (0, 2), (1, 1)):
        planes = part(observation_tensor(state, viewer), enc, "map").reshape(-1, hexes)
        workers = planes[enc.worker_plane : enc.worker_plane + 3, h]
        assert workers.tolist() == [1.0 if k == seat else 0.0 for k in range(3)]
        assert planes[enc.plane["."], h] == 0.0


def test_battle_merchants_tensor_shows_owners_by_relative_seat() -> None:
    state = rulebook.new_game("battle-merchants", players=2, seed=4)
    assert isinstance(state, BattleState)
    state.spaces[0] = 1 * 2 + 1  # a Vorpal Weapon of seat 1 on the first space
    state.spaces[1] = state.steve * 2  # Salesman Steve's facing it
    enc = encoder(state.setup)
    assert isinstance(enc, BattleEncoder)
    for viewer, owner in ((1, 0), (0, 1)):
        field = part(observation_tensor(state, viewer), enc, "battlefields")[: enc.field_size]
        first = field[3 : 3 + enc.side]
        second = field[3 + enc.side : 3 + 2 * enc.side]
        assert first.tolist() == [1.0 if k in (owner, enc.owners) else 0.0 for k in range(enc.side)]
        assert second.tolist() == [1.0 if k == 2 else 0.0 for k in range(enc.side)]


def test_archmagi_tensor_shows_only_the_viewers_hand() -> None:
    state = rulebook.new_game("archmagi", players=3, seed=5)
    assert isinstance(state, ArchmagiState)
    enc = encoder(state.setup)
    assert isinstance(enc, ArchmagiEncoder)
    names = state.content.names
    for viewer in range(3):
        hand = part(observation_tensor(state, viewer), enc, "hand") * enc.copies
        held = [state.content.cards[c].name for c in state.hands[viewer]]
        assert hand.round().tolist() == [float(held.count(n)) for n in names]
        size = part(observation_tensor(state, (viewer + 1) % 3), enc, "seat2.hand")
        assert size[0] == pytest.approx(len(held) / enc.hand_limit)
