"""The web app's API, pages and WebSocket through FastAPI's TestClient: every endpoint and
every error path; a refused request leaves the stored games byte-identical."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import rulebook
from rulebook.web.live import Games
from webtools import auth, client, dump, get_view, new_game, seat_tokens, token_of, wait_for


def first_move(view: dict[str, Any]) -> str:
    """A legal move that is not ``done`` when there is one (so the game goes on)."""
    texts = [m["text"] for m in view["legal"]]
    return next((t for t in texts if t != "done"), texts[0])


# -- the games on offer and new games ------------------------------------------------------------
def test_list_games(c: TestClient) -> None:
    data = c.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert names == rulebook.games() and len(names) == 5
    pandoria = next(g for g in data["games"] if g["name"] == "pandoria-merchants")
    assert [v["name"] for v in pandoria["variants"]] == ["standard", "family", "solo"]
    assert pandoria["options"][0]["name"] == "level"
    assert [s["label"] for s in data["seats"]] == [
        "human",
        "random",
        "greedy",
        "mcts (quick)",
        "mcts",
        "mcts (strong)",
        "expert",
        "open seat",
    ]


def test_the_expert_sits_only_where_it_was_trained(
    c: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalogue names the player counts the expert has weights for; a game seating it
    elsewhere is refused with the reason, and with weights there it is made."""
    from rulebook.agents.expert import WEIGHTS_ENV
    from rulebook.agents.value import fit

    monkeypatch.setenv(WEIGHTS_ENV, str(tmp_path))
    form = {"game": "merchants-of-magick", "variant": "standard", "players": "2"}
    bad = c.post("/new", data={**form, "seat_0": "human", "seat_1": "expert"})
    assert bad.status_code == 400 and "has no expert bot yet" in bad.text
    state = rulebook.new_game("merchants-of-magick", players=2, seed=0)
    from rulebook.core.spaces import encoder

    size = encoder(state.setup).shape[0]
    rows = np.random.default_rng(0).random((40, size)).astype(np.float32)
    net = fit(rows, rows[:, 0], np.arange(40), seed=0, epochs=1).net
    net.save(tmp_path / "merchants-of-magick-standard-2p.npz")
    games = c.get("/api/games").json()["games"]
    variants = next(g for g in games if g["name"] == "merchants-of-magick")["variants"]
    assert {v["name"]: v["expert"] for v in variants} == {"solo": [], "standard": [2]}
    made = c.post(
        "/new", data={**form, "seat_0": "human", "seat_1": "expert"}, follow_redirects=False
    )
    assert made.status_code == 303


def test_new_game_links(c: TestClient, db: Path) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "human", "greedy"])
    assert [s["seat"] for s in links["seats"]] == [0, 1]
    assert links["hotseat"]["seats"] == [0, 1]
    assert links["spectator"] == f"/games/{links['id']}"
    tokens = [*seat_tokens(links).values(), token_of(links["hotseat"]["url"])]
    assert len(set(tokens)) == 3
    assert all(len(t) >= 32 for t in tokens)  # 24 random bytes: 192 bits
    stored = dump(db)
    assert all(t not in stored for t in tokens)  # only their digests are kept
    view = get_view(c, links["id"], tokens[0])
    assert view["seat"] == 0 and [s["label"] for s in view["seats"]] == ["human"] * 2 + ["greedy"]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"game": "chess", "players": 2, "seats": ["human", "human"]}, "no game called 'chess'"),
        (
            {"game": "archmagi", "players": 5, "seats": ["human"] * 5},
            "cannot be played by 5 players: it takes 2-4 players (standard)",
        ),
        (
            {
                "game": "archmagi",
                "players": 2,
                "seats": ["human"] * 2,
                "options": {"magi": "fire,fire"},
            },
            "fire named twice",
        ),
        ({"game": "archmagi", "players": 2, "seats": ["human"]}, "one seat for each"),
        ({"game": "archmagi", "players": 2, "seats": ["human", "wizard"]}, "no seat kind"),
        ({"game": "archmagi", "players": 2, "variant": "solo", "seats": ["human"] * 2}, "variant"),
        (
            {"game": "archmagi", "players": 2, "seats": ["human"] * 2, "options": {"magi": "x"}},
            "option magi=x: no Magi called x; expected comma-separated distinct Magi",
        ),
        (
            {
                "game": "pandoria-merchants",
                "players": 2,
                "seats": ["human"] * 2,
                "options": {"level": "expert"},
            },
            "has no option level",
        ),
        ({"game": "archmagi", "players": 2, "seats": ["human"] * 2, "extra": 1}, "extra"),
        ({"game": "archmagi", "players": "two", "seats": ["human"] * 2}, "players"),
    ],
)
def test_new_game_refused(c: TestClient, db: Path, body: dict[str, Any], reason: str) -> None:
    before = dump(db)
    r = c.post("/api/games", json=body)
    assert r.status_code == 400
    assert reason in r.json()["error"]
    assert dump(db) == before


def test_malformed_and_oversized_bodies(c: TestClient, db: Path) -> None:
    before = dump(db)
    r = c.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "error" in r.json()
    r = c.post("/api/games", content=b"x" * 70_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert dump(db) == before


def test_solo_and_all_bot_games(c: TestClient) -> None:
    solo = new_game(c, "pandoria-merchants", ["human"], variant="solo", options={"level": "expert"})
    view = get_view(c, solo["id"], seat_tokens(solo)[0])
    assert view["options"] == {"level": "expert"} and view["legal"]
    bots = new_game(c, "merchants-of-magick", ["greedy", "random"])
    assert bots["seats"] == [] and bots["hotseat"] is None
    wait_for(lambda: get_view(c, bots["id"])["over"])
    result = get_view(c, bots["id"])["result"]
    assert set(result) == {
        "bots",  # the seats bots played in place of people: none here
        "scores",
        "breakdowns",
        "winners",
        "decided_by",
        "tiebreaks",
        "rating",
        "opponent",
        "opponent_breakdown",
        "verdict",
        "notes",
    }
    assert result["verdict"].startswith("Winner")
    assert result["tiebreaks"] == ["most fulfilled Orders", "most Potions"]
    assert result["opponent"] == "" and result["opponent_breakdown"] == {}


def test_solo_against_the_trolls_lost_names_no_winner(c: TestClient) -> None:
    """Issue 17: the end screen's result follows the solo verdict: random play loses to the
    Trolls, so no winner, and the Trolls' points are given beside the player's."""
    solo = new_game(c, "pandoria-merchants", ["random"], variant="solo")
    wait_for(lambda: get_view(c, solo["id"])["over"], timeout=120)
    result = get_view(c, solo["id"])["result"]
    assert result["winners"] == [] and result["rating"] == "The Trolls win"
    assert result["opponent"] == "the Trolls"
    assert sum(result["opponent_breakdown"].values()) > result["scores"][0]


def test_the_new_game_form_refuses_a_bad_setup_in_one_line(c: TestClient, db: Path) -> None:
    """A setup the game refuses (SetupError) is a 400 with the reason, not a server error;
    the Magi option, given by a rule, is offered as text with its rule."""
    before = dump(db)
    form = {"game": "battle-merchants", "players": "1", "seat_0": "human"}
    r = c.post("/new", data=form)
    assert r.status_code == 400
    assert "cannot be played by 1 player: it takes 2-4 players" in r.text
    form = {"game": "archmagi", "players": "2", "seat_0": "human", "seat_1": "human"}
    r = c.post("/new", data={**form, "option_magi": "water,water"})
    assert r.status_code == 400 and "water named twice" in r.text
    assert dump(db) == before
    archmagi = next(g for g in c.get("/api/games").json()["games"] if g["name"] == "archmagi")
    magi = archmagi["options"][0]
    assert magi["choices"] == [] and magi["rule"].startswith("comma-separated distinct Magi")
    r = c.post("/new", data={**form, "option_magi": "Water, Fire"})
    assert r.status_code == 200, r.text


# -- views and tokens ----------------------------------------------------------------------------
def test_views_and_tokens(c: TestClient, db: Path) -> None:
    links = new_game(c, "archmagi", ["human", "human"])
    other = new_game(c, "archmagi", ["human", "human"])
    tokens = seat_tokens(links)
    public = get_view(c, links["id"])
    assert public["seat"] is None and public["legal"] == [] and "hand" not in public["observation"]
    mine = get_view(c, links["id"], tokens[0])
    assert mine["observation"]["hand"] and "spells" in mine["static"]  # the board's data
    text = json.dumps(mine)
    assert tokens[0] not in text and tokens[1] not in text
    before = dump(db)
    for headers in (auth("wrong-token"), auth(seat_tokens(other)[0]), auth("x" * 500)):
        r = c.get(f"/api/games/{links['id']}/view", headers=headers)
        assert r.status_code == 403 and r.json() == {"error": "wrong token for this game"}
    # no bearer token at all: the public view, as for any spectator
    r = c.get(f"/api/games/{links['id']}/view", headers={"authorization": "x"})
    assert r.json()["views"][0]["seat"] is None
    r = c.get("/api/games/nosuchgame/view")
    assert r.status_code == 404 and r.json() == {"error": "no such game"}
    assert dump(db) == before


def test_hotseat_link_holds_every_human_seat(c: TestClient) -> None:
    links = new_game(c, "battle-merchants", ["human", "human"])
    hot = token_of(links["hotseat"]["url"])
    views = c.get(f"/api/games/{links['id']}/view", headers=auth(hot)).json()["views"]
    assert [v["seat"] for v in views] == [0, 1]
    seat = views[0]["to_act"][0]
    move = first_move(views[seat])
    r = c.post(
        f"/api/games/{links['id']}/move", headers=auth(hot), json={"seat": seat, "move": move}
    )
    assert r.status_code == 200


# -- moves ---------------------------------------------------------------------------------------
def test_moves_and_their_refusals(c: TestClient, db: Path) -> None:
    links = new_game(c, "battle-merchants", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    view = get_view(c, gid, tokens[0])
    seat = view["to_act"][0]
    idle = 1 - seat
    view = get_view(c, gid, tokens[seat])
    url = f"/api/games/{gid}/move"
    before = dump(db)
    refusals = [
        (auth(tokens[seat]), {"seat": seat, "move": "fly to the moon"}, 409, "not a move"),
        (auth(tokens[idle]), {"seat": idle, "move": first_move(view)}, 409, "not seat"),
        (auth(tokens[idle]), {"seat": seat, "move": "pass"}, 403, f"does not hold seat {seat + 1}"),
        ({}, {"seat": seat, "move": "pass"}, 403, "token is missing"),
        (auth("nope"), {"seat": seat, "move": "pass"}, 403, "wrong token"),
        (auth(tokens[seat]), {"seat": seat, "move": ""}, 400, "move"),
        (auth(tokens[seat]), {"seat": "zero", "move": "pass"}, 400, "seat"),
        (auth(tokens[seat]), {"seat": seat, "move": "pass", "version": 9}, 409, "moved on"),
        (auth(tokens[seat]), {"seat": seat, "move": "pass", "x": 1}, 400, "x"),
    ]
    for headers, body, status, reason in refusals:
        r = c.post(url, headers=headers, json=body)
        assert r.status_code == status, (body, r.text)
        assert reason in r.json()["error"], (body, r.text)
        assert "Traceback" not in r.text
    r = c.post(url, headers=auth(tokens[seat]), content=b"[1,2")
    assert r.status_code == 400
    r = c.post(url, headers=auth(tokens[seat]), content=b"{" + b" " * 70_000 + b"}")
    assert r.status_code == 413
    assert dump(db) == before
    views = get_view(c, gid, tokens[seat])
    move = first_move(views)
    r = c.post(url, headers=auth(tokens[seat]), json={"seat": seat, "move": move, "version": 0})
    assert r.status_code == 200 and r.json() == {"ok": True, "version": 1}
    after = get_view(c, gid, tokens[idle])
    assert after["log"][0]["seat"] == seat and after["version"] == 1
    assert dump(db) != before


def test_a_finished_game_takes_no_move(c: TestClient, db: Path) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "random"], variant="standard")
    gid = links["id"]
    token = seat_tokens(links)[0]
    while not get_view(c, gid, token)["over"]:
        view = get_view(c, gid, token)
        if view["legal"]:
            c.post(f"/api/games/{gid}/move", headers=auth(token), json={"seat": 0, "move": "done"})
    before = dump(db)
    r = c.post(f"/api/games/{gid}/move", headers=auth(token), json={"seat": 0, "move": "done"})
    assert r.status_code == 409 and r.json()["error"] == "the game is over"
    assert dump(db) == before


# -- undo ----------------------------------------------------------------------------------------
def test_undo(c: TestClient, db: Path) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    url = f"/api/games/{gid}/undo"
    assert get_view(c, gid, tokens[0])["can_undo"] is False
    before = dump(db)
    r = c.post(url, headers=auth(tokens[0]), json={"seat": 0})
    assert r.status_code == 409 and "nothing to undo" in r.json()["error"]
    assert dump(db) == before
    move = first_move(get_view(c, gid, tokens[0]))
    c.post(f"/api/games/{gid}/move", headers=auth(tokens[0]), json={"seat": 0, "move": move})
    wait_for(lambda: get_view(c, gid, tokens[0])["can_undo"])  # checked in a worker
    assert get_view(c, gid, tokens[1])["can_undo"] is False
    r = c.post(url, headers=auth(tokens[1]), json={"seat": 1})
    assert r.status_code == 409
    r = c.post(url, headers=auth(tokens[1]), json={"seat": 0})
    assert r.status_code == 403
    r = c.post(url, headers=auth(tokens[0]), json={"seat": 0})
    assert r.status_code == 200 and r.json()["version"] == 0
    # the move's row is gone: as before it was made, but for the game's count of writes
    assert dump(db) == before.replace("',0,0,NULL", "',2,0,NULL", 1)
    assert get_view(c, gid, tokens[0])["log"] == []


def test_no_undo_once_something_hidden_was_revealed(c: TestClient) -> None:
    """Ending the crafting rolls the dice: that move cannot be taken back."""
    links = new_game(c, "merchants-of-magick", ["human"], variant="solo")
    gid = links["id"]
    token = seat_tokens(links)[0]
    c.post(f"/api/games/{gid}/move", headers=auth(token), json={"seat": 0, "move": "done"})
    view = get_view(c, gid, token)
    assert view["observation"]["round"] == 2 and view["can_undo"] is False


def test_no_undo_after_another_seat_moved(c: TestClient) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    for seat in (0, 1):
        move = first_move(get_view(c, gid, tokens[seat]))
        c.post(
            f"/api/games/{gid}/move", headers=auth(tokens[seat]), json={"seat": seat, "move": move}
        )
    wait_for(lambda: get_view(c, gid, tokens[1])["can_undo"])
    assert get_view(c, gid, tokens[0])["can_undo"] is False


# -- replay, save, upload ------------------------------------------------------------------------
def play_out(c: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    links = new_game(c, game, seats, **extra)
    wait_for(lambda: get_view(c, links["id"])["over"], timeout=60)
    return links


def test_replay_and_save(c: TestClient, db: Path) -> None:
    links = new_game(c, "ye-olde-magick-shoppe", ["human", "greedy"])
    gid = links["id"]
    token = seat_tokens(links)[0]
    r = c.get(f"/api/games/{gid}/save")
    assert r.status_code == 403 and "seed" in r.json()["error"]
    while not get_view(c, gid, token)["over"]:
        view = get_view(c, gid, token)
        if view["legal"]:
            c.post(
                f"/api/games/{gid}/move",
                headers=auth(token),
                json={"seat": 0, "move": first_move(view)},
            )
    final = get_view(c, gid, token)
    start = c.get(f"/api/games/{gid}/replay?step=0", headers=auth(token)).json()["views"][0]
    assert start["log"] == [] and start["replay"] == {"step": 0, "moves": final["version"]}
    assert start["legal"] == [] and start["seat"] == 0
    end = c.get(f"/api/games/{gid}/replay?step={final['version']}").json()["views"][0]
    assert end["seat"] is None and end["over"] and end["result"] == final["result"]
    for bad in ("-1", str(final["version"] + 1), "x"):
        r = c.get(f"/api/games/{gid}/replay?step={bad}")
        assert r.status_code == 400, bad
    r = c.get(f"/api/games/{gid}/save")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    saved = r.json()
    assert saved["seats"] == ["human", "greedy"]
    assert rulebook.replay(saved).scores() == final["result"]["scores"]


def test_upload_a_save_file(c: TestClient, db: Path) -> None:
    state = rulebook.new_game("archmagi", 2, seed=5)
    for _ in range(6):
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    text = rulebook.save_text(state, seats=["human", "greedy"])
    r = c.post("/api/games/upload", files={"file": ("game.json", text, "application/json")})
    assert r.status_code == 201, r.text
    links = r.json()
    assert [s["seat"] for s in links["seats"]] == [0]
    view = get_view(c, links["id"])
    # the six moves of the file, then maybe the greedy bot's (it plays on at once)
    moves = [e["seat"] for e in view["log"] if not e.get("event")]
    assert moves[:6] == [p for p, _ in state.history]
    assert view["seats"][1]["label"] == "greedy"
    r = c.post(
        "/api/games/upload",
        files={"file": ("game.json", text, "application/json")},
        data={"seats": "human,human"},
    )
    assert r.status_code == 201 and len(r.json()["seats"]) == 2


@pytest.mark.parametrize(
    ("content", "seats", "status", "reason"),
    [
        (b"\xff\xfe", None, 400, "not a usable save file: it is not UTF-8 text"),
        (b"nonsense", None, 400, "not a usable save file: it is not JSON text"),
        (b"{}", None, 400, "missing"),
        (b"[1, 2]", None, 400, "JSON object"),
        (
            b'{"game": "archmagi", "players": 2, "seed": 1, "log": [[0, "fly"]]}',
            None,
            400,
            "does not replay",
        ),
        (b'{"game": "archmagi", "players": 2, "seed": 1, "log": []}', "human", 400, "one seat"),
        (b'{"game": "archmagi", "players": 2, "seed": 1, "log": []}', "human,dog", 400, "dog"),
        (b" " * (1024 * 1024 + 10), None, 413, "too large"),
    ],
)
def test_bad_uploads_create_nothing(
    c: TestClient, db: Path, content: bytes, seats: str | None, status: int, reason: str
) -> None:
    before = dump(db)
    data = {"seats": seats} if seats else {}
    r = c.post("/api/games/upload", files={"file": ("x.json", content)}, data=data)
    assert r.status_code == status, r.text
    assert reason in r.json()["error"]
    assert dump(db) == before


# -- live updates --------------------------------------------------------------------------------
def test_websocket_updates(c: TestClient) -> None:
    links = new_game(c, "pandoria-merchants", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    with (
        c.websocket_connect(f"/ws/games/{gid}") as spectator,
        c.websocket_connect(f"/ws/games/{gid}") as seat0,
    ):
        spectator.send_text(json.dumps({"spectate": True}))
        seat0.send_text(json.dumps({"token": tokens[0]}))
        hello = spectator.receive_json()
        assert hello.pop("now") == pytest.approx(time.time(), abs=60)  # the server's clock
        takes = ["ping", "move", "full"]  # moves go over the socket too
        assert hello == {"type": "hello", "seats": None, "takes": takes}
        said = {**seat0.receive_json(), "now": 0}
        assert said == {"type": "hello", "seats": [0], "now": 0, "takes": takes}
        first = seat0.receive_json()["view"]
        assert first["seat"] == 0 and spectator.receive_json()["view"]["seat"] is None
        seat = first["to_act"][0]
        move = first_move(get_view(c, gid, tokens[seat]))
        c.post(
            f"/api/games/{gid}/move", headers=auth(tokens[seat]), json={"seat": seat, "move": move}
        )
        assert seat0.receive_json()["view"]["version"] == 1
        # the spectator may first be told that seat 1 connected (presence)
        told = spectator.receive_json()["view"]
        if told["version"] == 0:
            assert [p["here"] for p in told["presence"]] == [True, False]
            told = spectator.receive_json()["view"]
        assert told["version"] == 1
        seat0.send_text('{"type":"ping"}')
        for _ in range(3):  # a view may come first: can_undo turning true
            if seat0.receive_json()["type"] == "pong":
                break
        else:
            raise AssertionError("no pong")


def test_one_message_per_seat_and_change_shared_by_its_connections(c: TestClient) -> None:
    """Two tabs of one seat get the same text, built once; a move builds a new one."""
    links = new_game(c, "battle-merchants", ["human", "human"])
    gid = links["id"]
    tokens = seat_tokens(links)
    live = c.portal.call(c.app.state.games.get, gid)  # type: ignore[attr-defined,union-attr]
    with (
        c.websocket_connect(f"/ws/games/{gid}") as tab1,
        c.websocket_connect(f"/ws/games/{gid}") as tab2,
    ):
        for tab in (tab1, tab2):
            tab.send_text(json.dumps({"token": tokens[0]}))
            assert tab.receive_json()["type"] == "hello"
        first = tab1.receive_text()
        assert tab2.receive_text() == first
        assert live.message(0) is live.message(0)  # built once, then shared
        assert json.loads(first)["view"] == json.loads(json.dumps(live.payload(0)))
        seat = json.loads(first)["view"]["to_act"][0]
        move = first_move(get_view(c, gid, tokens[seat]))
        r = c.post(
            f"/api/games/{gid}/move", headers=auth(tokens[seat]), json={"seat": seat, "move": move}
        )
        assert r.json() == {"ok": True, "version": 1}
        second = tab1.receive_text()
        assert tab2.receive_text() == second != first
        assert json.loads(second)["view"]["version"] == 1


def test_websocket_refusals(c: TestClient) -> None:
    links = new_game(c, "archmagi", ["human", "human"])
    gid = links["id"]
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"token": "wrong"}))
        assert ws.receive_json() == {
            "type": "error",
            "status": 403,
            "error": "wrong token for this game",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with c.websocket_connect("/ws/games/nosuchgame") as ws:
        assert ws.receive_json()["status"] == 404
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_text("hello?")
        assert ws.receive_json()["status"] == 400
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"spectate": True}))
        assert ws.receive_json()["type"] == "hello"
        assert ws.receive_json()["type"] == "view"
        for _ in range(10):
            ws.send_text("garbage")
            assert ws.receive_json()["status"] == 400
        ws.send_text("garbage")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    for first in (False, True):  # an oversized message: the hello, or one after it
        with c.websocket_connect(f"/ws/games/{gid}") as ws:
            if not first:
                ws.send_text(json.dumps({"spectate": True}))
                assert ws.receive_json()["type"] == "hello"
                assert ws.receive_json()["type"] == "view"
            ws.send_text(json.dumps({"spectate": True, "pad": "x" * 5000}))
            refusal = ws.receive_json()
            assert refusal["status"] == 413 and "limit 4096 bytes" in refusal["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009


def test_per_client_limits(db: Path) -> None:
    """One address may hold so many connections and create so many games a minute: 429 with
    the reason beyond, and nothing is created."""
    with client(db, max_sockets_per_client=2, max_new_games_per_minute=2) as c:
        body = {"game": "archmagi", "players": 2, "seats": ["human", "greedy"]}
        gid = new_game(c, "archmagi", ["human", "greedy"])["id"]
        state = c.post(
            "/upload",
            files={
                "file": ("g.json", rulebook.save_text(rulebook.new_game("archmagi", 2, seed=1)))
            },
        )
        assert state.status_code == 200
        before = dump(db)
        r = c.post("/api/games", json=body)
        assert r.status_code == 429 and "too many new games" in r.json()["error"]
        assert 0 < int(r.headers["retry-after"]) <= 60
        page = c.post(
            "/new",
            data={"game": "archmagi", "players": "2", "seat_0": "human", "seat_1": "greedy"},
            headers={"accept": "text/html"},
        )
        assert page.status_code == 429 and "too many new games" in page.text
        assert dump(db) == before
        with (
            c.websocket_connect(f"/ws/games/{gid}") as one,
            c.websocket_connect(f"/ws/games/{gid}") as two,
        ):
            for ws in (one, two):
                ws.send_text(json.dumps({"spectate": True}))
                assert ws.receive_json()["type"] == "hello"
            with c.websocket_connect(f"/ws/games/{gid}") as third:
                refusal = third.receive_json()
                assert refusal["status"] == 429 and "too many open connections" in refusal["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 4429
        with c.websocket_connect(f"/ws/games/{gid}") as again:  # closed ones count no more
            again.send_text(json.dumps({"spectate": True}))
            assert again.receive_json()["type"] == "hello"


# -- pages ---------------------------------------------------------------------------------------
def test_pages(c: TestClient) -> None:
    home = c.get("/")
    assert home.status_code == 200
    for name in rulebook.games():
        assert rulebook.get_game(name).title in home.text
    form = {"game": "merchants-of-magick", "variant": "standard", "players": "2"}
    r = c.post(
        "/new", data={**form, "seat_0": "human", "seat_1": "mcts-quick"}, follow_redirects=False
    )
    assert r.status_code == 303  # to the links page: reloading it creates nothing
    gid = r.headers["location"].split("/games/")[1].split("/")[0]
    assert r.headers["location"].startswith(f"/games/{gid}/links#")
    page = c.get(f"/games/{gid}")
    assert page.status_code == 200 and "/static/game.js" in page.text
    bad = c.post("/new", data={**form, "players": "9", "seat_0": "human"})
    assert bad.status_code == 400 and "takes 2-8 players, not 9" in bad.text
    bad = c.post("/new", data={**form, "seat_0": "human", "seat_1": "wizard"})
    assert bad.status_code == 400 and "no seat kind" in bad.text
    missing = c.get("/games/nosuchgame", headers={"accept": "text/html"})
    assert missing.status_code == 404 and "no game has this address" in missing.text
    assert c.get("/boards/archmagi/board.exe").status_code == 404
    assert c.get("/static/app.css").status_code == 200
    assert "script-src 'self'" in home.headers["content-security-policy"]
    assert home.headers["referrer-policy"] == "no-referrer"


def test_upload_page(c: TestClient) -> None:
    state = rulebook.new_game("merchants-of-magick", 1, seed=3)
    text = rulebook.save_text(state)
    r = c.post("/upload", files={"file": ("g.json", text)}, follow_redirects=False)
    assert r.status_code == 303 and "/links#" in r.headers["location"]
    r = c.post("/upload", files={"file": ("g.json", b"nonsense")})
    assert r.status_code == 400 and "not a usable save file" in r.text
    assert "Expecting value" not in r.text  # no parser internals


def test_server_errors_tell_nothing(
    c: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: Games, game_id: str) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(Games, "get", broken)
    with TestClient(c.app, raise_server_exceptions=False) as fresh:
        r = fresh.get("/api/games/abc/view")
        assert r.status_code == 500 and r.json() == {"error": "internal server error"}
        page = fresh.get("/games/abc", headers={"accept": "text/html"})
        assert page.status_code == 500
        assert "secret detail" not in page.text and "Traceback" not in page.text


def test_games_in_use_stay_in_memory_and_changes_go_through_the_kept_copy(db: Path) -> None:
    """With the one place of the cache taken by a watched game, a game just created stays in
    memory (it used to be pushed out at once, its bots then running on a copy out of memory,
    whose bots' lock on PostgreSQL was never let go); and a move made through a copy that
    left memory while a request held it is made on the copy kept in memory, whose bots
    answer it."""
    with client(db, cache_games=1) as c:
        games: Games = c.app.state.games  # type: ignore[attr-defined]
        watched = new_game(c, "archmagi", ["human", "human"])
        with c.websocket_connect(f"/ws/games/{watched['id']}") as ws:
            ws.send_text(json.dumps({"spectate": True}))
            assert ws.receive_json()["type"] == "hello"
            made = new_game(c, "battle-merchants", ["random", "human"])
            gid = made["id"]
            assert gid in games.cache and watched["id"] in games.cache
            token = seat_tokens(made)[1]
            wait_for(lambda: get_view(c, gid, token)["to_act"] == [1])  # the bot's move first
            held = c.portal.call(games.get, gid)  # type: ignore[union-attr]
            before = len(held.log)
            new_game(c, "archmagi", ["human", "human"])  # nothing uses it: it leaves memory
            assert gid not in games.cache
            view = get_view(c, gid, token)  # read again
            kept = games.cache[gid]
            assert kept is not held
            moved = c.portal.call(games.move, held, 1, first_move(view))  # type: ignore[union-attr]
            assert moved is kept and len(held.log) == before
            # the bot answered (a turn may take it several moves), on the kept copy
            wait_for(lambda: len(kept.log) >= before + 2 and kept.bot_task is None)
            assert kept.log[before + 1].seat == 0 and held.bot_task is None


def test_a_flood_of_refused_requests_is_turned_away(db: Path) -> None:
    with client(db, max_refusals=5) as c:
        for _ in range(5):
            assert c.post("/api/games", content=b"garbage").status_code == 400
        r = c.get("/api/games")
        assert r.status_code == 429 and "too many refused requests" in r.json()["error"]
        assert int(r.headers["retry-after"]) > 0


def test_a_game_out_of_memory_takes_its_tokens_along(db: Path) -> None:
    """Games evicted from memory forget their tokens there (memory does not grow with every
    game ever created); the token still admits its seat, read back from the store."""
    with client(db, cache_games=1) as c:
        first = new_game(c, "archmagi", ["human", "human"])
        games: Games = c.app.state.games  # type: ignore[attr-defined]
        assert len(games._tokens) == 3
        new_game(c, "archmagi", ["human", "human"])
        assert first["id"] not in games.cache
        assert all(gid != first["id"] for gid, _ in games._tokens.values())
        token = seat_tokens(first)[1]
        assert get_view(c, first["id"], token)["seat"] == 1
        r = c.get(f"/api/games/{first['id']}/view", headers=auth(token + "x"))
        assert r.status_code == 403
