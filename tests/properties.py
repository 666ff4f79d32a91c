"""Generic property checks for any registered game, through the core interface only.

Every check here takes a game name, a :class:`Case` (game, variant, player count), a
:class:`~rulebook.core.game.Setup` or a :class:`~rulebook.State`, and knows nothing of any one
game's rules, so a new game registered in :mod:`rulebook` is checked unchanged. What is specific
to a game (a tighter move bound, its own end condition) lives in :data:`HOOKS`.

The checks raise :class:`AssertionError` with a message naming what broke; an unexpected
exception from the engine propagates unchanged (the traceback points at the bug).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

import rulebook
from rulebook import Action, IllegalAction, RulebookError, State
from rulebook.archmagi import ArchmagiState
from rulebook.archmagi.content import ELEMENTS as ARCHMAGI_ELEMENTS
from rulebook.battle_merchants import BattleState
from rulebook.core import Setup
from rulebook.merchants_of_magick import MerchantsState
from rulebook.pandoria_merchants import PandoriaState
from rulebook.ye_olde_magick_shoppe import ShoppeState

#: used when a game's hooks give no move bound: any real game ends far sooner
DEFAULT_MAX_MOVES_PER_SEAT = 100_000

#: seeds for the games: small and huge, negative included (a seed is any whole number)
SEEDS: st.SearchStrategy[int] = st.integers(min_value=-(2**70), max_value=2**70)
#: seeds large enough that their decimal text cannot appear in a view by accident
LARGE_SEEDS: st.SearchStrategy[int] = st.integers(min_value=10**12, max_value=2**70)
#: seeds of the random move choices (and of the determinization generators)
MOVE_SEEDS: st.SearchStrategy[int] = st.integers(min_value=0, max_value=2**64 - 1)

Snapshot = dict[str, Any]
Move = tuple[int, Action]


# -- what to test: every game, variant and player count ---------------------------------------
@dataclass(frozen=True)
class Case:
    """One way to set up a game: a registered game, one of its variants and a player count."""

    game: str
    variant: str
    players: int

    @property
    def id(self) -> str:
        """The pytest id, e.g. ``merchants-of-magick-standard-4p``."""
        return f"{self.game}-{self.variant}-{self.players}p"

    def __str__(self) -> str:
        return self.id


def cases(names: Iterable[str] | None = None) -> list[Case]:
    """Every (game, variant, player count) the registry allows, for ``names`` or all games."""
    found: list[Case] = []
    for name in rulebook.games() if names is None else names:
        game = rulebook.get_game(name)
        for variant in game.variants:
            for players in range(variant.min_players, variant.max_players + 1):
                found.append(Case(name, variant.name, players))
    return found


#: values of the options given by a rule rather than a list of choices (``Option.rule``)
RULED_OPTIONS: dict[tuple[str, str], st.SearchStrategy[str]] = {
    # every ordering of 1-4 Magi, or random, in any case
    ("archmagi", "magi"): st.one_of(
        st.just("random"),
        st.permutations(ARCHMAGI_ELEMENTS).flatmap(
            lambda order: st.integers(1, len(order)).map(lambda k: ",".join(order[:k]))
        ),
    ).flatmap(lambda value: st.sampled_from([value, value.upper(), value.title()])),
}


def options(case: Case) -> st.SearchStrategy[dict[str, str]]:
    """Any choice of the setup options that ``case``'s variant takes (``{}`` if none)."""
    game = rulebook.get_game(case.game)
    return st.fixed_dictionaries(
        {
            opt.name: st.sampled_from(opt.choices)
            if opt.choices
            else RULED_OPTIONS[(case.game, opt.name)]
            for opt in game.options
            if not opt.variants or case.variant in opt.variants
        }
    )


def setups(case: Case, seeds: st.SearchStrategy[int] = SEEDS) -> st.SearchStrategy[Setup]:
    """Valid setups of ``case``: a seed from ``seeds`` and any choice of options."""
    game = rulebook.get_game(case.game)
    return st.builds(
        lambda seed, chosen: game.setup(case.players, seed, case.variant, chosen),
        seeds,
        options(case),
    )


def new_state(setup: Setup) -> State:
    """A fresh game from ``setup``, through the public entry point."""
    return rulebook.new_game(
        setup.game,
        players=setup.players,
        seed=setup.seed,
        variant=setup.variant,
        options=setup.options,
    )


# -- what is specific to one game --------------------------------------------------------------
def _default_max_moves(setup: Setup) -> int:
    return DEFAULT_MAX_MOVES_PER_SEAT * setup.players


@dataclass(frozen=True)
class GameHooks:
    """What the generic checks need to know about one game (defaults suit any game)."""

    #: a game played with random legal moves must end within this many moves
    max_moves: Callable[[Setup], int] = _default_max_moves
    #: whether ``sum(score_breakdown(p).values()) == scores()[p]`` holds
    breakdown_sums_to_score: bool = True
    #: extra checks on a finished game (raise AssertionError)
    check_final: Callable[[State], None] | None = None


def _mom_max_moves(setup: Setup) -> int:
    # 10 rounds; a seat spends at most 4 results and makes at most 2 free marks per round
    # (3 over the game), then says "done": 7 moves per seat and round is generous.
    return 10 * 7 * setup.players


def _mom_check_final(state: State) -> None:
    assert isinstance(state, MerchantsState | ShoppeState)
    assert state.round == 10, f"the game ended in round {state.round}, not after round 10"
    assert state.phase == "over"


def _archmagi_max_moves(setup: Setup) -> int:
    # every turn draws at least one Spell from a Magic Pool that only Round ends refill, and the
    # 144 Spells pass through it a bounded number of times: 5,000 moves is far beyond any game
    return 5_000


def _archmagi_check_final(state: State) -> None:
    assert isinstance(state, ArchmagiState)
    assert state.round == 4 and state.final, (
        "the game ended before the Magic Pool of Round 4 ran out"
    )
    assert not state.pool and not state.stack


def _bm_max_moves(setup: Setup) -> int:
    # No hard bound exists: a Season ends with its third Demand Token, or when the table is
    # frozen (a full round of passes). Without the Final card every non-sale turn spends gold or
    # a card; random games of 2-4 players measured under 300 moves, so this is a wide margin.
    return 4 * 49 * 10 * setup.players * 6


def _bm_check_final(state: State) -> None:
    assert isinstance(state, BattleState)
    assert state.season == 3, f"the game ended in Season {state.season}, not after Winter"
    assert state.step == "over"


def _pandoria_max_moves(setup: Setup) -> int:
    # every turn draws at least one symbol on the map (else the end is triggered): at most
    # one turn per land hex plus a round; a turn takes at most ~15 moves
    from rulebook.pandoria_merchants.content import content

    board = content().boards[0 if setup.variant == "solo" else setup.players]
    return (board.land.bit_count() + 2 * setup.players) * 15 + 50


def _pandoria_check_final(state: State) -> None:
    assert isinstance(state, PandoriaState)
    assert state.phase == "over"
    if state.solo:
        assert len(state.finished) == 8 and len(state.trolls) == 8, "not all 8 Territories"
        trolls = sum(state.opponent_breakdown().values())
        assert trolls == state.trolls_total(), "the Trolls' breakdown misses points"
        won = state.scores()[0] > trolls  # "If you have more total points than the Trolls"
        assert state.winners() == ([0] if won else []), "winners disagree with the verdict"
        rating = "You beat the Trolls" if won else "The Trolls win"
        assert state.observation(0)["rating"] == rating
    else:
        assert state.end_triggered, "the game ended without its end condition"
        assert state.turn == state.num_players - 1, "the last round was not finished"


#: per-game hooks; a game not listed gets :class:`GameHooks` defaults
HOOKS: dict[str, GameHooks] = {
    "merchants-of-magick": GameHooks(max_moves=_mom_max_moves, check_final=_mom_check_final),
    # the same round flow: at most 4 results and "done" per seat and round, no free marks
    "ye-olde-magick-shoppe": GameHooks(max_moves=_mom_max_moves, check_final=_mom_check_final),
    "archmagi": GameHooks(max_moves=_archmagi_max_moves, check_final=_archmagi_check_final),
    "battle-merchants": GameHooks(max_moves=_bm_max_moves, check_final=_bm_check_final),
    "pandoria-merchants": GameHooks(
        max_moves=_pandoria_max_moves, check_final=_pandoria_check_final
    ),
}


def hooks(game: str) -> GameHooks:
    """The hooks of ``game`` (defaults when it registers none)."""
    return HOOKS.get(game, GameHooks())


# -- playing -----------------------------------------------------------------------------------
def frozen(state: State) -> Snapshot:
    """A deep copy of ``state.snapshot()``: snapshots may share lists with the live state."""
    return copy.deepcopy(state.snapshot())


def check_turn(state: State) -> None:
    """Who may act and what they may do agree with each other and with ``is_terminal``."""
    n = state.num_players
    current = list(state.current_players())
    assert len(set(current)) == len(current), f"current_players repeats a seat: {current}"
    for p in current:
        assert isinstance(p, int) and not isinstance(p, bool), f"seat {p!r} is not an int"
        assert 0 <= p < n, f"current_players names seat {p} of {n}"
    if state.is_terminal():
        assert not current, f"the game is over but seats {current} are to act"
    else:
        assert current, "the game is not over but no seat is to act"
    for p in range(n):
        actions = state.legal_actions(p)
        if p in current:
            assert actions, f"seat {p} is to act but has no legal move"
            assert all(isinstance(a, Action) for a in actions), f"seat {p}: non-Action moves"
            texts = [str(a) for a in actions]
            assert len(set(texts)) == len(texts), f"seat {p}: two legal moves share a text"
        else:
            assert not actions, f"seat {p} is not to act but has legal moves {actions[:5]}"


def random_move(state: State, rng: random.Random) -> Move:
    """A uniformly random seat among those to act, and a uniformly random legal move of it."""
    players = list(state.current_players())
    assert players, "the game is not over but no seat is to act"
    player = rng.choice(players)
    actions = state.legal_actions(player)
    assert actions, f"seat {player} is to act but has no legal move"
    return player, rng.choice(actions)


def play_random(
    state: State,
    rng: random.Random,
    max_moves: int | None = None,
    check: bool = False,
    on_step: Callable[[State], None] | None = None,
) -> State:
    """Play random legal moves on ``state`` (in place) until the game ends; return it.

    ``max_moves`` bounds the moves still to play (the game's hook by default); ``check`` runs
    :func:`check_turn` before every move; ``on_step`` sees the state after every move.
    """
    bound = hooks(state.setup.game).max_moves(state.setup) if max_moves is None else max_moves
    moves = 0
    while not state.is_terminal():
        if check:
            check_turn(state)
        assert moves < bound, f"the game did not end within {bound} random moves"
        player, action = random_move(state, rng)
        state.apply(player, action)
        moves += 1
        if on_step is not None:
            on_step(state)
    return state


@dataclass
class Playout:
    """A random game recorded move by move.

    ``states[i]`` is a clone of the state after ``i`` moves (``states[0]`` the initial state,
    ``states[-1]`` the final one) and ``moves[i]`` the move played from ``states[i]``.
    ``snapshots[i]``, when recorded, is the deep-copied snapshot of ``states[i]`` taken at the
    time (independent of :meth:`State.clone`).
    """

    setup: Setup
    states: list[State] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


def record_playout(
    setup: Setup, rng: random.Random, snapshots: bool = False, check: bool = False
) -> Playout:
    """Play a random game from ``setup`` and keep a clone of every state it went through."""
    state = new_state(setup)
    bound = hooks(setup.game).max_moves(setup)
    playout = Playout(setup)
    while True:
        playout.states.append(state.clone())
        if snapshots:
            playout.snapshots.append(frozen(state))
        if check:
            check_turn(state)
        if state.is_terminal():
            return playout
        assert len(playout.moves) < bound, f"the game did not end within {bound} random moves"
        player, action = random_move(state, rng)
        state.apply(player, action)
        playout.moves.append((player, action))


def some(items: Sequence[Any], k: int, rng: random.Random) -> list[Any]:
    """Up to ``k`` items of ``items`` chosen at random, in their order."""
    if len(items) <= k:
        return list(items)
    return [items[i] for i in sorted(rng.sample(range(len(items)), k))]


# -- the end of a game -------------------------------------------------------------------------
def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_final(state: State) -> None:
    """A finished game's scores, winners, breakdowns and returns agree with each other."""
    n = state.num_players
    game_hooks = hooks(state.setup.game)
    assert state.is_terminal(), "the game is not over"
    check_turn(state)
    scores = state.scores()
    assert len(scores) == n and all(_is_int(s) for s in scores), f"bad scores {scores!r}"
    winners = state.winners()
    opponent = state.game.variant(state.setup.variant).opponent
    rival = state.opponent_breakdown()
    assert bool(rival) == bool(opponent), f"opponent {opponent!r} but breakdown {rival}"
    if opponent:  # solo against the game: won only by beating its opponent
        assert winners in ([], [0]), f"a solo game names winners {winners}"
    else:
        assert winners, "a finished game has no winner"
    assert winners == sorted(set(winners)), f"winners not sorted and distinct: {winners}"
    assert set(winners) <= set(range(n)), f"winners {winners} are not seats of {n}"
    best = max(scores)
    assert all(scores[p] == best for p in winners), f"winners {winners} lack the best {scores}"
    returns = state.returns()
    assert len(returns) == n, f"returns {returns} are not one per seat"
    shared = 1.0 if winners else 0.0
    assert math.isclose(sum(returns), shared), f"returns {returns} do not share {shared} win"
    for p in range(n):
        share = 1 / len(winners) if p in winners else 0.0
        assert math.isclose(returns[p], share), f"seat {p} returns {returns[p]}, not {share}"
        breakdown = state.score_breakdown(p)
        assert isinstance(breakdown, dict) and breakdown, f"seat {p}: empty score breakdown"
        for name, value in breakdown.items():
            assert isinstance(name, str) and _is_int(value), f"seat {p}: bad {name!r}={value!r}"
        if game_hooks.breakdown_sums_to_score:
            total = sum(breakdown.values())
            assert total == scores[p], f"seat {p}: breakdown {breakdown} sums to {total}"
    if game_hooks.check_final is not None:
        game_hooks.check_final(state)


# -- save files and replays --------------------------------------------------------------------
def check_replays(state: State) -> None:
    """``replay(log())`` and ``from_json(to_json())`` rebuild ``state`` exactly."""
    expected = state.snapshot()
    log = state.log()
    replayed = rulebook.replay(log)
    assert replayed.snapshot() == expected, "replay(state.log()) differs from the state"
    check_json(state)


def check_json(state: State) -> None:
    """``to_json`` is valid JSON holding the log, and reloading it gives the same text."""
    text = state.to_json()
    assert isinstance(text, str)
    data = json.loads(text)
    assert data == state.log(), "to_json() does not hold state.log()"
    reloaded = rulebook.from_json(text)
    assert reloaded.snapshot() == state.snapshot(), "from_json(to_json()) differs from the state"
    assert reloaded.to_json() == text, "to_json() of the reloaded game differs from the original"


def check_replay_steps(playout: Playout) -> None:
    """``replay_steps`` of the final log passes through every recorded state, in order."""
    assert playout.snapshots, "record the playout with snapshots=True"
    steps = 0
    for i, state in enumerate(rulebook.replay_steps(playout.final.log())):
        assert i < len(playout.snapshots), "replay_steps yields more states than moves"
        assert state.snapshot() == playout.snapshots[i], f"replay differs after {i} moves"
        steps += 1
    assert steps == len(playout.snapshots), f"replay_steps yields {steps} states"


def check_fresh_replay(setup: Setup, moves: Sequence[Move], expected: Snapshot) -> None:
    """The same setup and the same moves, as text and as actions, give the same game."""
    by_text = new_state(setup)
    by_action = new_state(setup)
    for player, action in moves:
        by_text.apply(player, str(action))
        by_action.apply(player, action)
    assert by_text.snapshot() == expected, "same seed and action texts give another game"
    assert by_action.snapshot() == expected, "same seed and actions give another game"


# -- copies ------------------------------------------------------------------------------------
def check_clone_independent(state: State, rng: random.Random) -> None:
    """A clone equals its original, and playing either to the end leaves the other alone."""
    before = frozen(state)
    clone = state.clone()
    assert clone is not state
    assert clone.snapshot() == before, "the clone differs from its original"
    play_random(clone, rng)
    assert state.snapshot() == before, "playing the clone changed the original"
    clone_after = frozen(clone)
    other = state.clone()
    play_random(state, rng)
    assert clone.snapshot() == clone_after, "playing the original changed its clone"
    assert other.snapshot() == before, "playing the original changed a second clone"


# -- refusing moves ----------------------------------------------------------------------------
def check_rejected(state: State, player: Any, action: Any, before: Snapshot) -> None:
    """``state.apply(player, action)`` raises IllegalAction and leaves the snapshot ``before``."""
    try:
        state.apply(player, action)
    except IllegalAction:
        pass
    except Exception as exc:
        raise AssertionError(
            f"apply({player!r}, {action!r}) raised {type(exc).__name__}: {exc}, not IllegalAction"
        ) from exc
    else:
        raise AssertionError(f"apply({player!r}, {action!r}) was accepted")
    assert state.snapshot() == before, f"the refused apply({player!r}, {action!r}) changed state"


def _refused(state: State, player: Any, action: Any) -> None:
    """``state.apply(player, action)`` raises IllegalAction (the state is compared later)."""
    try:
        state.apply(player, action)
    except IllegalAction:
        return
    except Exception as exc:
        raise AssertionError(
            f"apply({player!r}, {action!r}) raised {type(exc).__name__}: {exc}, not IllegalAction"
        ) from exc
    raise AssertionError(f"apply({player!r}, {action!r}) was accepted")


def check_all_rejected(state: State, attempts: Iterable[tuple[Any, Any]], before: Snapshot) -> None:
    """Every ``(player, action)`` of ``attempts`` is refused, and together they leave the
    snapshot ``before``: one comparison for all of them (a vocabulary can hold a thousand moves),
    then, if the state changed, one per attempt on fresh copies to name the culprit."""
    tried = list(attempts)
    for player, action in tried:
        _refused(state, player, action)
    if state.snapshot() == before:
        return
    for player, action in tried:
        check_rejected(rulebook.from_json(state.to_json()), player, action, before)
    raise AssertionError("a refused move changed the state")


def check_text(state: State, player: int, text: str) -> None:
    """Any text either names a legal move of ``player`` (and applying it acts like that move)
    or is refused: ``parse_action`` never raises anything but IllegalAction."""
    try:
        parsed = state.parse_action(player, text)
    except IllegalAction:
        parsed = None
    except Exception as exc:
        raise AssertionError(f"parse_action({player}, {text!r}) raised {exc!r}") from exc
    if parsed is not None and parsed in state.legal_actions(player):
        by_text, by_action = state.clone(), state.clone()
        by_text.apply(player, text)
        by_action.apply(player, parsed)
        assert by_text.snapshot() == by_action.snapshot(), f"{text!r} acts unlike {parsed}"
        return
    check_rejected(state, player, text, frozen(state))


#: texts that are no move of any game
JUNK_TEXTS = ("", " ", "\t\n", "\x00", "-1", "0", "None", "[]", "{}", "é", "💥", "done done")


def junk_texts(vocabulary: Sequence[str]) -> st.SearchStrategy[str]:
    """Text that is mostly no move: any unicode, whitespace, and mangled move texts."""
    mangled: list[st.SearchStrategy[str]] = []
    if vocabulary:
        words = st.sampled_from(list(vocabulary))
        mangled = [
            st.tuples(words, st.text(max_size=3)).map(lambda t: t[0] + t[1]),
            st.tuples(st.text(max_size=3), words).map(lambda t: t[0] + t[1]),
            st.tuples(words, st.integers(0, 30)).map(lambda t: t[0][: t[1]]),
            words.map(str.upper),
            st.tuples(words, words).map(" ".join),
        ]
    return st.one_of(
        st.sampled_from(JUNK_TEXTS),
        st.text(),
        st.text(alphabet=" \t\n\r\x0b\x0c\x1c\x85\u00a0\u2003\u3000", max_size=5),
        *mangled,
    )


def illegal_vocabulary(state: State, player: int) -> list[Action]:
    """The actions of the vocabulary that are not legal for ``player`` now."""
    legal = set(state.legal_actions(player))
    return [a for a in state.action_vocabulary() if a not in legal]


def check_illegal_vocabulary(state: State, rng: random.Random, per_seat: int = 40) -> None:
    """Vocabulary actions not legal for a seat are refused (as actions and as text): all of
    them for the seats to act, ``per_seat`` at random for the others."""
    before = frozen(state)
    current = set(state.current_players())
    for p in range(state.num_players):
        illegal = illegal_vocabulary(state, p)
        chosen = illegal if p in current else some(illegal, per_seat, rng)
        check_all_rejected(state, [(p, a) for a in chosen] + [(p, str(a)) for a in chosen], before)


def check_no_such_seat(state: State) -> None:
    """``legal_actions`` of a number that is no seat (or of a non-number) raises
    IllegalAction naming it, and changes nothing: a bad seat is an error, not "no moves"."""
    before = frozen(state)
    n = state.num_players
    for bad in (-1, n, n + 7, 2**70, None, "0"):
        try:
            moves = state.legal_actions(bad)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert repr(bad) in str(exc) or str(bad) in str(exc), f"{exc} does not name {bad!r}"
        else:
            raise AssertionError(f"legal_actions({bad!r}) gave {moves!r}, not an error")
    assert frozen(state) == before, "legal_actions of a bad seat changed the state"


def check_wrong_seats(state: State, rng: random.Random, per_seat: int = 5) -> None:
    """Legal moves of a seat to act, applied by a seat not to act (or no seat at all) or by a
    player that is not an int, are refused."""
    before = frozen(state)
    current = list(state.current_players())
    n = state.num_players
    others = [q for q in range(n) if q not in current] + [-1, n, n + 7, 2**70]
    check_no_such_seat(state)
    for q in others[: n - len(current)]:
        assert state.legal_actions(q) == [], f"seat {q} is not to act but has moves"
    for p in current:
        for action in some(state.legal_actions(p), per_seat, rng):
            for q in others:
                check_rejected(state, q, action, before)
                check_rejected(state, q, str(action), before)
            for bad in (None, str(p), float(p), True, False, [p], (p,), complex(p)):
                check_rejected(state, bad, action, before)
                check_rejected(state, bad, str(action), before)


@dataclass(frozen=True)
class _AlienAction(Action):
    """An action of no game at all."""

    text: str

    def __str__(self) -> str:
        return self.text


def non_actions(state: State) -> list[Any]:
    """Objects that are not moves of ``state``'s game (for every seat, at any time)."""
    vocab = list(state.action_vocabulary())
    text = str(vocab[0]) if vocab else "done"
    return [
        None,
        0,
        1.5,
        text.encode(),
        [text],
        (text,),
        {"action": text},
        object(),
        Action(),
        Action,
        _AlienAction(text),
        *(type(a) for a in vocab[:1]),
    ]


def check_non_actions(state: State) -> None:
    """Objects that are no move of this game are refused by every seat."""
    before = frozen(state)
    for p in {*state.current_players(), 0}:
        for thing in non_actions(state):
            check_rejected(state, p, thing, before)


#: wrong values for the fields of an action (hashable: actions are dict keys in games)
JUNK_FIELD_VALUES: tuple[Any, ...] = (None, "", " ", "💥", -1, 0, 10**30, 1.5, ("x",))


def rebuilt_actions(state: State, action: Action, rng: random.Random, k: int = 3) -> list[Action]:
    """Actions of ``action``'s (dataclass) type with one field changed: to a value that other
    actions of that type in the vocabulary hold, or to a junk value; ``k`` per field at most.

    They cover actions equal to a legal one but built with other cached fields
    (``field(compare=False)``), field combinations no move has, and malformed fields.
    """
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return []
    same_type = [a for a in state.action_vocabulary() if type(a) is type(action)]
    built: list[Action] = []
    for f in dataclasses.fields(action):
        if not f.init:
            continue
        mine = getattr(action, f.name)
        values = [getattr(a, f.name) for a in same_type] + list(JUNK_FIELD_VALUES)
        candidates = list(dict.fromkeys(v for v in values if v is not mine and v != mine))
        for value in some(candidates, k, rng):
            try:
                built.append(dataclasses.replace(action, **{f.name: value}))
            except Exception:  # the type refuses to be built so: nothing to apply
                continue
    return built


def check_rebuilt_actions(state: State, rng: random.Random, per_seat: int = 5) -> None:
    """An action rebuilt with other field values (see :func:`rebuilt_actions`) is refused
    unless it equals a legal move, and then it does exactly what that move does: what ``==``
    calls the same move must be the same move."""
    before = frozen(state)
    vocabulary = list(state.action_vocabulary())
    seats = list(state.current_players()) or [0]
    for p in seats:
        legal = state.legal_actions(p)
        sources = some(legal, per_seat, rng) + some(vocabulary, per_seat, rng)
        for source in sources:
            for action in rebuilt_actions(state, source, rng):
                if action in legal:
                    expected = state.clone()
                    expected.apply(p, legal[legal.index(action)])
                    trial = state.clone()
                    trial.apply(p, action)
                    assert trial.snapshot() == expected.snapshot(), (
                        f"{action!r} equals a legal move but does something else"
                    )
                else:
                    check_rejected(state, p, action, before)


def check_after_end(state: State, texts: Iterable[str] = ()) -> None:
    """Once the game is over every seat's every move, action or text, is refused."""
    assert state.is_terminal()
    before = frozen(state)
    n = state.num_players
    for p in range(n):
        assert not state.legal_actions(p), f"seat {p} has legal moves after the end"
    check_no_such_seat(state)
    for p in [*range(n), -1, n]:
        vocabulary = state.action_vocabulary()
        check_all_rejected(
            state, [(p, a) for a in vocabulary] + [(p, str(a)) for a in vocabulary], before
        )
        for text in texts:
            check_rejected(state, p, text, before)
        for thing in non_actions(state):
            check_rejected(state, p, thing, before)


# -- action texts ------------------------------------------------------------------------------
def check_parse_legal(state: State) -> None:
    """``parse_action(p, str(a)) == a`` for every legal move of every seat to act."""
    for p in state.current_players():
        for action in state.legal_actions(p):
            text = str(action)
            assert isinstance(text, str) and text.strip(), f"{action!r} has no text"
            parsed = state.parse_action(p, text)
            assert parsed == action, f"parse_action({p}, {text!r}) gives {parsed!r}"
            assert hash(parsed) == hash(action), f"{text!r}: equal actions hash differently"


def check_parse_vocabulary(state: State) -> None:
    """``parse_action(p, str(a)) == a`` for every action of the vocabulary and every seat,
    and no two actions of the vocabulary share a text."""
    vocabulary = list(state.action_vocabulary())
    texts = [str(a) for a in vocabulary]
    assert len(set(texts)) == len(texts), "two vocabulary actions share a text"
    assert len(set(vocabulary)) == len(vocabulary), "the vocabulary repeats an action"
    for p in range(state.num_players):
        for action, text in zip(vocabulary, texts, strict=True):
            parsed = state.parse_action(p, text)
            assert parsed == action, f"parse_action({p}, {text!r}) gives {parsed!r}"


# -- hidden information ------------------------------------------------------------------------
def walk(obj: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every (path, value) of a nested JSON-like value, keys included as values of dicts."""
    yield path, obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from walk(value, f"{path}.{key}")
    elif isinstance(obj, list | tuple):
        for i, value in enumerate(obj):
            yield from walk(value, f"{path}[{i}]")


def check_json_value(obj: Any) -> str:
    """Assert ``obj`` is plain JSON data (str keys, finite numbers); return its JSON text."""
    for path, value in walk(obj):
        if isinstance(value, dict):
            bad = [k for k in value if not isinstance(k, str)]
            assert not bad, f"{path}: non-string keys {bad!r}"
        else:
            assert value is None or isinstance(value, str | int | float | bool | list | tuple), (
                f"{path}: {type(value).__name__} is not JSON data"
            )
            if isinstance(value, float):
                assert math.isfinite(value), f"{path}: {value} is not finite"
    return json.dumps(obj, sort_keys=True, allow_nan=False)


def observation_text(state: State, player: int) -> str:
    """``observation(player)`` as canonical JSON text (checking it is JSON data)."""
    return check_json_value(state.observation(player))


def check_observation_hides_seed(state: State, player: int) -> None:
    """No key of the view is ``seed``, and the chance seed's digits appear nowhere in it."""
    obs = state.observation(player)
    text = check_json_value(obs)
    for path, value in walk(obs):
        if isinstance(value, dict):
            assert "seed" not in value, f"{path} has a 'seed' key"
    seed = state.setup.seed
    assert abs(seed) < 10**12 or str(abs(seed)) not in text, "the view shows the seed"


def check_determinize(state: State, player: int, rng: random.Random) -> State:
    """Determinizing for ``player`` keeps their view and leaves the original untouched; the
    sample is marked, cannot be saved, and plays to the end. Returns the sample."""
    before = frozen(state)
    view = observation_text(state, player)
    sample = state.determinize(player, random.Random(rng.getrandbits(64)))
    assert sample is not state
    assert sample.determinized, "a determinized state is not marked as such"
    assert observation_text(sample, player) == view, f"determinize changed seat {player}'s view"
    assert state.snapshot() == before, "determinize changed the original state"
    try:
        sample.log()
    except RulebookError:
        pass
    else:
        raise AssertionError("a determinized state can be saved")
    play_random(sample, rng)
    check_final(sample)
    assert state.snapshot() == before, "playing the determinized sample changed the original"
    return sample
