"""No payload tells a viewer what it may not see (issue 13, "Nothing lost, nothing leaked").

Over whole games of every game and variant (random and greedy bots), at every step: each seat's
payload (:func:`rulebook.web.views.view`) is the same when everything that seat cannot see is
re-sampled (:meth:`State.determinize`), and so is the spectators' payload under re-sampling from
every seat's view; the log entry of each move reads the same to its mover and to every other
seat under re-sampling from their views; the seed never appears in any payload.

The steps the rules take on their own after a move (:mod:`rulebook.core.events`) are held to the
same: the move is made again in each re-sampled position, and wherever the seat (or a spectator)
sees the same table after it as after the real move, it must be told the same of those steps.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rulebook
from rulebook.agents import make_agent
from rulebook.core import Event, IllegalAction, State, apply_heard
from rulebook.core.words import third_person
from rulebook.web.views import Entry, entry, made, to_text, version, view

#: a seed whose digits cannot appear in a payload by accident
SEED = 738_291_046_582_937_461


def _cases() -> list[tuple[str, str, int, str]]:
    """Every game and variant: the fewest and the most players (at most 4), random bots; and
    one greedy game per variant."""
    cases = []
    for name in rulebook.games():
        game = rulebook.get_game(name)
        for v in game.variants:
            counts = sorted({v.min_players, min(v.max_players, 4)})
            cases += [(name, v.name, n, "random") for n in counts]
            cases.append((name, v.name, counts[-1], "greedy"))
    return cases


def _text(payload: object) -> str:
    return json.dumps(payload, sort_keys=True)


def check_step(state: State, log: list[Entry], rng: random.Random, labels: list[str]) -> None:
    n = state.num_players
    # every third move told as a bot's in a person's seat (issue 25: "bot", third person)
    bots = {i: "greedy" for i in range(1, len(log), 3)}
    public = _text(view(state, None, log, labels, bots=bots))
    assert str(SEED) not in public
    for p in range(n):
        payload = view(state, p, log, labels, can_undo=True, bots=bots)
        mine = _text(payload)
        assert str(SEED) not in mine
        # what the WebSocket sends (orjson) says the same, and the move API's version agrees
        assert json.loads(to_text(payload)) == json.loads(mine)
        assert version(state, p, log) == payload["version"]
        sample = state.determinize(p, rng)
        again = view(sample, p, log, labels, can_undo=True, bots=bots)
        assert _text(again) == mine, f"seat {p} payload"
        spectator = view(sample, None, log, labels, bots=bots)
        assert _text(spectator) == public, f"spectator, from seat {p}"


def told_of(events: tuple[Event, ...], viewer: int | None) -> list[str | None]:
    return [e.told_to(viewer) for e in events]


#: how many positions re-sampled from a seat's view are tried for one in which the move is legal
TRIES = 200


def made_in_sample(
    state: State, p: int, sample: State, seat: int, action: rulebook.Action, rng: random.Random
) -> tuple[State, tuple[Event, ...]] | None:
    """The move made in ``sample`` (re-sampled from seat ``p``'s view of ``state``, before the
    move) and what it told. Where the move is not legal there (it plays a Spell the re-sampling
    moved out of the mover's hidden Hand: the move itself shows ``p`` that the mover held it),
    in another position re-sampled from ``p``'s view, drawn again until the move is legal;
    None if none was in :data:`TRIES` draws."""
    for _ in range(TRIES):
        try:
            return sample, apply_heard(sample, seat, action)
        except IllegalAction:
            sample = state.determinize(p, rng)
    return None


def check_entry(
    state: State, seat: int, action: rulebook.Action, rng: random.Random, compared: list[int]
) -> Entry:
    """Make the move on ``state`` and return its entry, after checking it and the steps it
    set off against positions re-sampled from each seat's view (``compared``: a count of the
    events compared is added to its first item)."""
    told = entry(state, seat, action)
    samples = []
    for p in range(state.num_players):
        sample = state.determinize(p, rng)
        again = entry(sample, seat, action)
        if p == seat:
            assert again.explain == told.explain, "the mover's own log line"
            assert again.plain == told.plain, "the mover's own log line, in plain words"
        else:
            assert again.announce == told.announce, f"seat {p} learns of seat {seat}'s move"
            assert again.plain_public == told.plain_public, f"seat {p}, in plain words"
        after = made_in_sample(state, p, sample, seat, action, rng)
        if after is not None:
            samples.append((p, *after))
    real = made(state, seat, action)
    for p, sample, events in samples:
        if sample.observation(p) == state.observation(p):
            assert told_of(events, p) == told_of(real.events, p), f"seat {p} told of the steps"
            compared[0] += len(real.events)
        if sample.public_observation() == state.public_observation():
            spectators = told_of(events, None) == told_of(real.events, None)
            assert spectators, "spectators told of the steps"
    return real


@pytest.mark.parametrize(("name", "variant", "players", "agent"), _cases())
def test_payloads_do_not_depend_on_what_the_viewer_cannot_see(
    name: str, variant: str, players: int, agent: str
) -> None:
    state = rulebook.new_game(name, players, seed=SEED, variant=variant)
    agents = [make_agent(agent, p) for p in range(players)]
    rng = random.Random(players)
    labels = [agent] * players
    log: list[Entry] = []
    compared = [0]
    check_step(state, log, rng, labels)
    while not state.is_terminal():
        seat = state.current_players()[rng.randrange(len(state.current_players()))]
        action = agents[seat].act(state, seat)
        log.append(check_entry(state, seat, action, rng, compared))
        check_step(state, log, rng, labels)
    final = view(state, None, log, labels)
    assert final["over"] and final["result"]["scores"] == state.scores()
    # every game tells of steps the rules take on their own, and some were compared
    assert compared[0] > 0


def test_the_check_catches_a_leak() -> None:
    """The test above fails on a payload that shows another seat's hidden cards."""
    state = rulebook.new_game("archmagi", 2, seed=SEED)
    rng = random.Random(0)
    mine = view(state, 0, [], ["human", "greedy"])
    leaked = {**mine, "other_hand": state.observation(1)["hand"]}
    sample = state.determinize(0, rng)
    again = {
        **view(sample, 0, [], ["human", "greedy"]),
        "other_hand": sample.observation(1)["hand"],
    }
    assert _text(again) != _text(leaked)


def test_the_check_catches_a_leaking_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """The event check above fails on a step told with a card nobody may see (the top of
    Battle Merchants' Kingdom deck, said at every turn's start)."""
    from rulebook.battle_merchants import aloud

    def leak(s: object, crafts_from: int, kingdom_from: int) -> Event:
        deck = s.kingdom_deck  # type: ignore[attr-defined]
        return Event(None, f"Next in the Kingdom deck: {deck[-1]}.")

    monkeypatch.setattr(aloud, "turned_up", leak)
    state = rulebook.new_game("battle-merchants", 2, seed=SEED)
    rng = random.Random(0)
    with pytest.raises(AssertionError, match="told of the steps"):
        for _ in range(50):
            seat = state.current_players()[0]
            check_entry(state, seat, rng.choice(state.legal_actions(seat)), rng, [0])


def test_simultaneous_moves_are_withheld_until_the_phase_ends() -> None:
    """Merchants of Magick crafting: seat 1's moves reach seat 0 and spectators only once every
    seat is done; seat 1 sees its own at once."""
    state = rulebook.new_game("merchants-of-magick", 2, seed=SEED)
    labels = ["human", "human"]
    log: list[Entry] = []
    action = next(a for a in state.legal_actions(1) if str(a) != "done")
    log.append(entry(state, 1, action))
    state.apply(1, action)
    assert view(state, 0, log, labels)["log"] == []
    assert view(state, None, log, labels)["log"] == []
    assert view(state, 1, log, labels)["log"] == [
        {"seat": 1, "text": log[0].explain, "plain": log[0].plain}
    ]
    assert view(state, 0, log, labels)["version"] == 0
    # nor told that a bot made it (in a person's seat): the seat's own line says so
    assert view(state, 0, log, labels, bots={0: "greedy"})["log"] == []
    assert view(state, None, log, labels, bots={0: "greedy"})["log"] == []
    assert view(state, 1, log, labels, bots={0: "greedy"})["log"] == [
        {"seat": 1, "text": log[0].explain, "plain": third_person(log[0].plain), "bot": "greedy"}
    ]
    for seat in (0, 1):
        while seat in state.current_players():
            done = next(a for a in state.legal_actions(seat) if str(a) == "done")
            log.append(entry(state, seat, done))
            state.apply(seat, done)
    assert [e["seat"] for e in view(state, 0, log, labels)["log"]] == [1, 0, 1]


def test_the_check_catches_a_drawn_spell_told_to_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """In Archmagi the move itself may show a seat the mover's hidden Spell (played from its
    Hand), so the check re-samples until the move is legal; it still fails on a Spell a seat
    draws named to every seat, not to that seat alone."""
    from rulebook.archmagi import aloud

    def leak(s: Any, p: int, start: int, why: int) -> Event | None:
        drawn = s.hands[p][start:]
        names = ", ".join(s.moves.name_of[c] for c in drawn)
        return Event(p, f"Draw {names}") if drawn else None

    monkeypatch.setattr(aloud, "drew", leak)
    state = rulebook.new_game("archmagi", 3, seed=SEED)
    rng = random.Random(0)
    with pytest.raises(AssertionError, match="told of the steps"):
        for _ in range(50):
            seat = state.current_players()[0]
            check_entry(state, seat, rng.choice(state.legal_actions(seat)), rng, [0])
