"""Online play that survives real life (issue 25), through the API: clocks (real time,
turn-based, in a simultaneous phase, across a restart), bots taking seats (time out, "I have to
go", a vote on an absent seat) and people taking them back, presence, open seats and the race
for the last one, rematch from every seat's link."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulebook.core.words import third_person
from webtools import auth, client, dump, get_view, new_game, seat_tokens, token_of, wait_for

REALTIME = {"kind": "realtime", "bank": 1, "increment": 0, "grace": 1, "bot": "random"}
TURN = {"kind": "turn", "per_move": 86400, "grace": 3600}


def post(c: TestClient, path: str, token: str | None, body: Any) -> Any:
    return c.post(path, headers=auth(token) if token else {}, json=body)


def first_move(view: dict[str, Any]) -> str:
    texts = [m["text"] for m in view["legal"]]
    return next((t for t in texts if t != "done"), texts[0])


# -- clocks ----------------------------------------------------------------------------------------
def test_a_real_time_clock_runs_out_a_bot_takes_the_seat_and_its_link_takes_it_back(
    c: TestClient,
) -> None:
    links = new_game(c, "battle-merchants", ["human", "human"], clock=REALTIME)
    gid, tokens = links["id"], seat_tokens(links)
    start = get_view(c, gid, tokens[0])
    clock = start["clock"]
    assert clock["kind"] == "realtime" and clock["left"] == [1.0, 1.0]
    (first,) = start["to_act"]
    other = 1 - first
    assert clock["running"] == [first]
    assert start["held"] == {} and start["bots"] == []
    # the other seat sees the first's clock run: its time is up at since + left, a bot comes
    # after the grace period (1 s each here), and the game goes on without that person
    wait_for(lambda: get_view(c, gid, tokens[other])["held"] == {str(first): "random"}, 15)
    view = get_view(c, gid, tokens[other])
    assert view["bots"] == [{"seat": first, "bot": "random", "why": "time", "from": 0, "to": None}]
    assert time.time() >= clock["since"] + 1 + 1
    held = get_view(c, gid, tokens[first])
    assert held["legal"] == []  # the bot plays: its person has no moves to make meanwhile
    if first in held["to_act"]:
        r = post(c, f"/api/games/{gid}/move", tokens[first], {"seat": first, "move": "done"})
        assert r.status_code == 409  # a bot plays it (or has moved for it meanwhile)
    wait_for(lambda: get_view(c, gid, tokens[other])["version"] > 0)  # the bot moved
    # the seat's link takes it back: its clock has at least the grace period again
    r = post(c, f"/api/games/{gid}/seat", tokens[first], {"seat": first, "bot": None})
    assert r.status_code == 200, r.text
    back = get_view(c, gid, tokens[first])
    assert back["held"] == {}
    stint = back["bots"][0]
    assert stint["to"] is not None and stint["to"] >= 1  # the bot played moves 0 to `to` - 1
    if first in back["clock"]["running"]:
        assert back["clock"]["left"][first] >= 1.0
    # taking back a seat no bot holds, or another seat's, is refused
    r = post(c, f"/api/games/{gid}/seat", tokens[first], {"seat": first, "bot": None})
    assert r.status_code == 409 and "not played by a bot" in r.json()["error"]
    r = post(c, f"/api/games/{gid}/seat", tokens[first], {"seat": other, "bot": None})
    assert r.status_code == 403


def test_a_turn_based_clock_survives_a_restart(db: Path) -> None:
    with client(db) as c:
        links = new_game(c, "archmagi", ["human", "human"], clock=TURN)
        gid, tokens = links["id"], seat_tokens(links)
        before = get_view(c, gid, tokens[0])["clock"]
        assert before["left"] == [86400.0, 86400.0] and before["running"] == [0]
        move = first_move(get_view(c, gid, tokens[0]))
        assert post(c, f"/api/games/{gid}/move", tokens[0], {"seat": 0, "move": move}).is_success
        moved = get_view(c, gid, tokens[0])["clock"]
    stored = dump(db)
    time.sleep(0.2)
    with client(db) as c:  # a new server on the same database: the clock as it was stored
        again = get_view(c, gid, tokens[1])["clock"]
    assert again == moved and again["since"] > before["since"]
    assert dump(db) == stored  # reading the clocks wrote nothing


def test_in_a_simultaneous_phase_each_seat_s_clock_runs_until_it_moved(c: TestClient) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "human"], clock={**REALTIME, "bank": 600})
    gid, tokens = links["id"], seat_tokens(links)
    start = get_view(c, gid, tokens[0])
    assert start["clock"]["running"] == [0, 1]
    move = first_move(start)
    assert post(c, f"/api/games/{gid}/move", tokens[0], {"seat": 0, "move": move}).is_success
    after = get_view(c, gid, tokens[1])
    if 0 not in after["to_act"]:  # seat 1 has done its part of the phase: its clock stops
        assert after["clock"]["running"] == [1]
        assert after["clock"]["left"][0] < 600.0  # it used its time until it moved
        assert after["clock"]["left"][1] < 600.0
    else:
        assert after["clock"]["running"] == [0, 1]


@pytest.mark.parametrize(
    ("clock", "reason"),
    [
        ({"kind": "sundial"}, "clock.kind"),
        ({"kind": "realtime", "bank": 0}, "clock.bank"),
        ({"kind": "realtime", "bank": "60"}, "clock.bank"),
        ({"kind": "turn", "per_move": 86400, "bot": "wizard"}, "no bot 'wizard'"),
        ({"kind": "turn", "tick": 1}, "clock.tick"),
    ],
)
def test_bad_clocks_are_refused(c: TestClient, db: Path, clock: Any, reason: str) -> None:
    before = dump(db)
    r = c.post(
        "/api/games",
        json={"game": "archmagi", "players": 2, "seats": ["human", "human"], "clock": clock},
    )
    assert r.status_code == 400 and reason in r.json()["error"]
    assert dump(db) == before


# -- a bot in a person's seat --------------------------------------------------------------------
def test_a_seat_hands_itself_to_a_bot_and_the_result_and_save_say_so(c: TestClient) -> None:
    links = new_game(c, "pandoria-merchants", ["human", "human"])
    gid, tokens = links["id"], seat_tokens(links)
    r = post(c, f"/api/games/{gid}/seat", tokens[0], {"seat": 0, "bot": "random"})
    assert r.status_code == 200 and r.json()["held"] == {"0": "random"}
    r = post(c, f"/api/games/{gid}/seat", tokens[0], {"seat": 0, "bot": "greedy"})
    assert r.status_code == 409  # a bot holds it already
    r = post(c, f"/api/games/{gid}/seat", tokens[1], {"seat": 1, "bot": "wizard"})
    assert r.status_code == 400 and "no bot 'wizard'" in r.json()["error"]
    r = post(c, f"/api/games/{gid}/seat", tokens[1], {"seat": 1, "bot": "random"})
    assert r.status_code == 200  # both seats are bots now: the game plays itself out
    wait_for(lambda: get_view(c, gid)["over"], timeout=60)
    end = get_view(c, gid)
    bots = end["result"]["bots"]
    assert [(b["seat"], b["bot"], b["why"], b["to"]) for b in bots] == [
        (0, "random", "handed", None),
        (1, "random", "handed", None),
    ]
    assert bots[0]["from"] == 0 and bots[1]["from"] >= 0
    save = c.get(f"/api/games/{gid}/save").json()
    assert save["seats"] == ["human", "human"] and save["bots"] == bots
    replay = c.get(f"/api/games/{gid}/replay?step=0").json()["views"][0]
    assert replay["bots"] == bots
    # the save file still replays (rulebook replay, an upload) with the bots' stints in it
    r = c.post("/api/games/upload", files={"file": ("s.json", json.dumps(save).encode())})
    assert r.status_code == 201, r.text


def test_a_bot_s_moves_in_a_person_s_seat_are_told_as_the_bot_s(c: TestClient) -> None:
    """The moves a bot made in a person's seat carry its name in every viewer's log (and the
    replay's); the seat's own lines read in the third person; once the person took the seat
    back, their own moves are theirs again."""
    links = new_game(c, "archmagi", ["human", "human"])
    gid, tokens = links["id"], seat_tokens(links)
    (first,) = get_view(c, gid, tokens[0])["to_act"]
    other = 1 - first
    # the seat to move hands itself to a bot, which plays its turn; its person takes it back
    r = post(c, f"/api/games/{gid}/seat", tokens[first], {"seat": first, "bot": "random"})
    assert r.status_code == 200, r.text
    wait_for(lambda: get_view(c, gid, tokens[other])["legal"] != [])
    r = post(c, f"/api/games/{gid}/seat", tokens[first], {"seat": first, "bot": None})
    assert r.status_code == 200, r.text
    # the other seat plays until it is the first seat's move again; then its person moves
    while first not in get_view(c, gid, tokens[first])["to_act"]:
        move = first_move(get_view(c, gid, tokens[other]))
        r = post(c, f"/api/games/{gid}/move", tokens[other], {"seat": other, "move": move})
        assert r.status_code == 200, r.text
    move = first_move(get_view(c, gid, tokens[first]))
    r = post(c, f"/api/games/{gid}/move", tokens[first], {"seat": first, "move": move})
    assert r.status_code == 200, r.text
    views = {p: get_view(c, gid, tokens[p]) for p in (first, other)}
    spectator = get_view(c, gid)
    (stint,) = views[first]["bots"]
    assert stint["from"] == 0 and stint["to"] is not None and stint["to"] >= 1
    live = c.portal.call(c.app.state.games.get, gid)  # type: ignore[attr-defined,union-attr]
    # the moves' lines (the steps the rules took on their own come after them, unnumbered)
    assert len(live.log) == len(moves(spectator["log"]))  # no simultaneous phase
    for told in (views[first], views[other], spectator):
        for i, e in enumerate(moves(told["log"])):
            by_bot = e["seat"] == first and stint["from"] <= i < stint["to"]
            assert e.get("bot") == ("random" if by_bot else None), (told["seat"], i, e)
        assert not any("bot" in e for e in told["log"] if e.get("event"))
    own = moves(views[first]["log"])
    for i in range(stint["from"], stint["to"]):
        # "The random bot, in your seat, plays ...": the seat's own words, in the third person
        assert own[i]["text"] == live.log[i].explain
        assert own[i]["plain"] == third_person(live.log[i].plain) != live.log[i].plain
        assert moves(views[other]["log"])[i]["plain"] == live.log[i].plain_public
    assert own[-1] == {"seat": first, "text": live.log[-1].explain, "plain": live.log[-1].plain}
    # the replay tells the bot's moves so too, at every step
    for step in (stint["to"], len(live.log)):
        r = c.get(f"/api/games/{gid}/replay?step={step}", headers=auth(tokens[other]))
        replayed = r.json()["views"][0]["log"]
        assert moves(replayed) == moves(views[other]["log"])[:step]
        assert replayed == views[other]["log"][: len(replayed)]


def moves(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A payload's log lines of moves (not the steps the rules took on their own)."""
    return [e for e in log if not e.get("event")]


def test_the_others_vote_on_an_absent_seat(db: Path) -> None:
    with client(db, absent_after=0.3) as c:
        created = time.time()
        links = new_game(c, "archmagi", ["human", "human", "human"])
        gid, tokens = links["id"], seat_tokens(links)
        url = f"/api/games/{gid}/vote"
        r = post(c, url, tokens[0], {"seat": 0, "absent": 2, "bot": "greedy"})
        assert r.status_code == 409 and "a vote is possible after" in r.json()["error"]
        # the page knows when a vote opens: the seat away since, plus the wait
        early = get_view(c, gid, tokens[0])
        assert early["absent_after"] == 0.3 and early["presence"][2]["seen"] is None
        assert created <= early["presence"][2]["away_since"] <= time.time()  # never seen
        time.sleep(0.4)
        with c.websocket_connect(f"/ws/games/{gid}") as ws:  # seat 3 is here: no vote
            ws.send_text(json.dumps({"token": tokens[2]}))
            assert ws.receive_json()["type"] == "hello"
            wait_for(lambda: get_view(c, gid)["presence"][2]["here"])
            r = post(c, url, tokens[0], {"seat": 0, "absent": 2, "bot": "greedy"})
            assert r.status_code == 409 and "connected now" in r.json()["error"]
        time.sleep(0.4)  # seat 3 left 0.4 s ago
        r = post(c, url, tokens[0], {"seat": 0, "absent": 2, "bot": "greedy"})
        assert r.status_code == 200 and r.json() == {"ok": True, "handed": False}
        assert get_view(c, gid)["votes"] == {"2": {"0": "greedy"}}
        r = post(c, url, tokens[0], {"seat": 0, "absent": 0, "bot": "greedy"})
        assert r.status_code == 409  # no vote on one's own seat
        r = post(c, url, tokens[0], {"seat": 0, "absent": 3, "bot": "greedy"})
        assert r.status_code == 400 and r.json()["error"] == "this game has no seat 4"
        r = post(c, url, tokens[1], {"seat": 0, "absent": 2, "bot": "greedy"})
        assert r.status_code == 403  # seat 2's link votes as seat 2 only
        r = post(c, url, tokens[1], {"seat": 1, "absent": 2, "bot": "random"})
        assert r.json() == {"ok": True, "handed": True}  # two of the two others
        view = get_view(c, gid)
        assert view["held"] == {"2": "greedy"} and view["votes"] == {}
        assert view["bots"][0]["why"] == "voted"
        # its link takes it back whenever it returns
        assert post(c, f"/api/games/{gid}/seat", tokens[2], {"seat": 2, "bot": None}).is_success
        assert get_view(c, gid)["held"] == {}
    with client(db, absent_after=0.3) as again:  # a seat never seen: away since the creation
        assert (
            get_view(again, gid)["presence"][1]["away_since"] == early["presence"][1]["away_since"]
        )


def test_no_vote_in_a_game_with_a_clock(c: TestClient) -> None:
    links = new_game(c, "archmagi", ["human", "human"], clock=TURN)
    gid, tokens = links["id"], seat_tokens(links)
    r = post(c, f"/api/games/{gid}/vote", tokens[0], {"seat": 0, "absent": 1})
    assert r.status_code == 409 and "has a clock" in r.json()["error"]
    assert get_view(c, gid, tokens[0])["absent_after"] is None  # no vote to count down to


# -- presence --------------------------------------------------------------------------------------
def test_presence_follows_the_seats_connections(c: TestClient) -> None:
    links = new_game(c, "archmagi", ["human", "human"])
    gid, tokens = links["id"], seat_tokens(links)
    assert [p["here"] for p in get_view(c, gid)["presence"]] == [False, False]
    with c.websocket_connect(f"/ws/games/{gid}") as watcher:
        watcher.send_text(json.dumps({"token": tokens[0]}))
        assert watcher.receive_json()["type"] == "hello"
        assert [p["here"] for p in watcher.receive_json()["view"]["presence"]] == [True, False]
        with c.websocket_connect(f"/ws/games/{gid}") as tab:
            tab.send_text(json.dumps({"token": tokens[1]}))
            assert tab.receive_json()["type"] == "hello"
            told = watcher.receive_json()["view"]["presence"]
            assert [p["here"] for p in told] == [True, True]
        closed = time.time()
        told = watcher.receive_json()["view"]["presence"]  # the tab closed: told at once
        assert told[1]["here"] is False and told[1]["seen"] == pytest.approx(closed, abs=5)
        assert told[0] == {"seat": 0, "here": True, "seen": None, "away_since": None}
        assert told[1]["away_since"] == told[1]["seen"]  # a vote counts from when it left


# -- open seats ------------------------------------------------------------------------------------
def test_open_seats_and_the_race_for_the_last_one(c: TestClient, db: Path) -> None:
    links = new_game(c, "archmagi", ["human", "open", "open"], clock=TURN)
    gid = links["id"]
    assert links["open"] == [1, 2] and [s["seat"] for s in links["seats"]] == [0]
    answer = c.get("/api/open").json()
    tables = answer["tables"]
    created = get_view(c, gid)["created"]
    assert created == pytest.approx(answer["now"], abs=30)
    assert tables == [
        {
            "id": gid,
            "game": "archmagi",
            "title": "Archmagi",
            "variant": "standard",
            "clock": "1 day a move",
            "seats": ["human", "open seat", "open seat"],
            "kinds": ["person", "open", "open"],
            "open": [1, 2],
            "taken": 1,
            "created": created,
            "moves": 0,
            "to_act": get_view(c, gid)["to_act"],
            "presence": get_view(c, gid)["presence"],
        }
    ]
    r = post(c, f"/api/games/{gid}/join", None, {"seat": 1})
    assert r.status_code == 201
    mine = token_of(r.json()["url"])
    assert get_view(c, gid, mine)["seat"] == 1
    assert mine not in dump(db)  # only its digest is stored
    # two people take the last seat at once: one gets it, the other is told it is gone
    before = dump(db)
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(lambda _: post(c, f"/api/games/{gid}/join", None, {"seat": 2}), range(2))
        )
    assert sorted(a.status_code for a in answers) == [201, 409]
    lost = next(a for a in answers if a.status_code == 409)
    assert lost.json()["error"] == "seat 3 is not open any more (someone took it first)"
    assert c.get("/api/open").json()["tables"] == []  # no seat left open
    assert dump(db) != before
    r = post(c, f"/api/games/{gid}/join", None, {"seat": 0})
    assert r.status_code == 409  # never an open seat: not "someone took it first"
    assert r.json()["error"] == "seat 1 is not an open seat: a person plays it, with its own link"


def test_a_seat_that_never_was_open_cannot_be_taken(c: TestClient, db: Path) -> None:
    links = new_game(c, "archmagi", ["human", "greedy", "open"])
    gid = links["id"]
    before = dump(db)
    said = {}
    for seat in (0, 1, 3):
        r = post(c, f"/api/games/{gid}/join", None, {"seat": seat})
        assert r.status_code in (400, 409), r.text
        said[seat] = r.json()["error"]
    assert said == {
        0: "seat 1 is not an open seat: a person plays it, with its own link",
        1: "seat 2 is not an open seat: a bot (greedy) plays it",
        3: "this game has no seat 4",
    }
    assert dump(db) == before
    view = get_view(c, gid)
    assert view["kinds"] == ["person", "bot", "open"] and view["open"] == [2]


# -- rematch ---------------------------------------------------------------------------------------
def test_rematch_from_every_seat_s_link(c: TestClient) -> None:
    links = new_game(c, "pandoria-merchants", ["human", "greedy", "human"], clock=TURN)
    gid, tokens = links["id"], seat_tokens(links)
    r = post(c, f"/api/games/{gid}/rematch", tokens[0], {})
    assert r.status_code == 409 and "once the game is over" in r.json()["error"]
    for seat in (0, 2):  # let bots finish it
        assert post(c, f"/api/games/{gid}/seat", tokens[seat], {"seat": seat, "bot": "random"})
    wait_for(lambda: get_view(c, gid)["over"], timeout=60)
    first = post(c, f"/api/games/{gid}/rematch", tokens[2], {"shuffle": False})
    assert first.status_code == 200, first.text
    new_id = first.json()["id"]
    assert get_view(c, gid)["rematch"] == new_id  # every page of the old game offers it
    again = post(c, f"/api/games/{gid}/rematch", tokens[2], {})
    assert again.json() == first.json()  # the same link, asked again
    other = post(c, f"/api/games/{gid}/rematch", tokens[0], {"shuffle": True}).json()
    assert other["id"] == new_id and other["seats"] == [0]  # the first asker chose: no shuffle
    seat0 = get_view(c, new_id, token_of(other["url"]))
    seat2 = get_view(c, new_id, token_of(first.json()["url"]))
    assert seat0["seat"] == 0 and seat2["seat"] == 2
    assert [s["label"] for s in seat0["seats"]] == ["human", "greedy", "human"]
    assert seat0["clock"]["kind"] == "turn" and seat0["clock"]["per_move"] == 86400
    assert seat0["held"] == {} and not seat0["over"]
    r = post(c, f"/api/games/{gid}/rematch", "wrong", {})
    assert r.status_code == 403


def test_a_shuffled_rematch_moves_every_seat(c: TestClient) -> None:
    links = new_game(c, "archmagi", ["human", "human", "human", "human"])
    gid, tokens = links["id"], seat_tokens(links)
    for seat in range(4):
        post(c, f"/api/games/{gid}/seat", tokens[seat], {"seat": seat, "bot": "random"})
    wait_for(lambda: get_view(c, gid)["over"], timeout=120)
    got = [
        post(c, f"/api/games/{gid}/rematch", tokens[p], {"shuffle": True}).json() for p in range(4)
    ]
    assert sorted(g["seats"][0] for g in got) == [0, 1, 2, 3]
    assert len({g["url"] for g in got}) == 4


# -- the clocks' arithmetic ------------------------------------------------------------------------
def test_the_clocks_arithmetic() -> None:
    from rulebook.web.clocks import Clock, Times, after, deadline, move_undone, overdue, taken_back

    real = Clock("realtime", bank=60, increment=10, cap=65, grace=5)
    times = Times((60.0, 60.0), 100.0)
    # seat 1 moved after 20 s: its time is 40 + 10; seat 2 now runs
    moved = after(real, times, [0], [1], 0, 120.0)
    assert moved == Times((50.0, 60.0), 120.0)
    # never above the cap; a move in the grace period starts from zero
    assert after(real, times, [0], [1], 0, 101.0).left[0] == 65.0
    assert after(real, times, [0], [1], 0, 163.0).left[0] == 10.0
    # both run in a simultaneous phase; the one that moved stops, the other goes on
    both = after(real, times, [0, 1], [1], 0, 130.0)
    assert both.left == (40.0, 30.0) and both.since == 130.0
    assert deadline(real, both, [1]) == 130.0 + 30.0 + 5.0
    assert overdue(real, both, [1], 164.0) == [] and overdue(real, both, [1], 165.0) == [1]
    assert taken_back(real, Times((-3.0, 9.0), 1.0), 0).left == (5.0, 9.0)
    assert move_undone(real, moved, 0).left == (40.0, 60.0)
    turn = Clock("turn", per_move=86400, grace=3600)
    start = Times((86400.0, 86400.0), 0.0)
    # turn-based: whoever comes to move gets a whole move's time; the mover's is spent
    later = after(turn, start, [0], [1], 0, 500.0)
    assert later.left == (86400.0 - 500.0, 86400.0)
    again = after(turn, later, [1], [0], 1, 900.0)
    assert again.left == (86400.0, 86400.0 - 400.0)
    assert Clock.from_text(turn.to_text()) == turn and turn.describe() == "1 day a move"
    assert real.describe() == "real time 1 min + 10 s a move"


def test_the_new_game_form_sets_the_clock(c: TestClient, db: Path) -> None:
    form = {
        "game": "archmagi",
        "players": "2",
        "seat_0": "human",
        "seat_1": "open",
        "clock": "realtime",
        "clock_minutes": "5",
        "clock_increment": "7",
        "clock_hours": "24",
        "clock_grace": "20",
        "clock_bot": "random",
    }
    r = c.post("/new", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    gid = r.headers["location"].split("/")[2]
    clock = get_view(c, gid)["clock"]
    assert (clock["kind"], clock["bank"], clock["increment"], clock["grace"]) == (
        "realtime",
        300,
        7,
        20,
    )
    assert clock["bot"] == "random" and get_view(c, gid)["open"] == [1]
    before = dump(db)
    for field, value, reason in (
        ("clock_minutes", "five", "clock_minutes must be a whole number"),
        ("clock", "sundial", "clock: kind"),
        ("clock_bot", "wizard", "no bot &#39;wizard&#39;"),
    ):
        r = c.post("/new", data={**form, field: value})
        assert r.status_code == 400 and reason in r.text
    assert dump(db) == before


def test_a_clock_that_ran_out_while_the_server_was_down(db: Path) -> None:
    """The deadline is stored: a server started after it passed hands the seat over."""
    with client(db) as c:
        links = new_game(c, "archmagi", ["human", "human"], clock=REALTIME)
        gid = links["id"]
        first = get_view(c, gid)["to_act"][0]
    time.sleep(2.5)  # 1 s of time and 1 s of grace pass with no server running
    with client(db) as c:
        wait_for(lambda: get_view(c, gid)["held"] == {str(first): "random"}, timeout=15)
        assert get_view(c, gid)["bots"][0]["why"] == "time"
