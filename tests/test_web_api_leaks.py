"""End to end through the API: everything one seat receives during a whole game (its views and
its WebSocket messages) holds neither the seed nor another seat's token, and every view the API
sends is exactly the payload builder's (so ``test_web_leaks.py`` covers it)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rulebook.web.live import LiveGame
from rulebook.web.views import view
from webtools import auth, client, new_game, seat_tokens, token_of


def test_a_whole_game_through_the_api_leaks_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite3") as c:
        links = new_game(
            c, "archmagi", ["human", "human", "greedy"], clock={"kind": "turn", "grace": 60}
        )
        gid = links["id"]
        tokens = seat_tokens(links)
        hot = token_of(links["hotseat"]["url"])
        received: dict[int, list[str]] = {0: [], 1: []}
        # issue 25's routes: a seat handed to a bot and taken back, the open tables
        for body in ({"seat": 1, "bot": "random"}, {"seat": 1, "bot": None}):
            r = c.post(f"/api/games/{gid}/seat", headers=auth(tokens[1]), json=body)
            received[1].append(r.text)
        for seat in (0, 1):
            received[seat].append(c.get("/api/open").text)
        games = c.app.state.games  # type: ignore[attr-defined]
        rng = random.Random(3)
        with c.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_text(json.dumps({"token": tokens[0]}))
            received[0].append(json.dumps(ws.receive_json()))
            for _ in range(2000):
                answers: dict[int, Any] = {}
                for seat in (0, 1):
                    r = c.get(f"/api/games/{gid}/view", headers=auth(tokens[seat]))
                    received[seat].append(r.text)
                    answers[seat] = r.json()["views"][0]
                live: LiveGame = c.portal.call(games.get, gid)  # type: ignore[union-attr]
                for seat in (0, 1):
                    if answers[seat]["version"] == len(live.log):  # no bot move in between
                        expected = view(
                            live.state,
                            seat,
                            live.log,
                            live.labels,
                            live.can_undo(seat),
                            bots=live.bot_moves(),
                        )
                        # can_undo may turn true meanwhile (a worker checks it): left out
                        skip = ("static", "can_undo")
                        answer = {k: v for k, v in answers[seat].items() if k in expected}
                        expected = {k: v for k, v in expected.items() if k not in skip}
                        answer = {k: v for k, v in answer.items() if k not in skip}
                        if answer["result"] is not None:  # with the seats bots played
                            bots = answer["result"].pop("bots")
                            assert bots == answers[seat]["bots"]
                        assert answer == json.loads(json.dumps(expected))
                        # the rest: the table as everyone sees it, and who is connected
                        rest = {k for k in answers[seat] if k not in expected and k not in skip}
                        assert rest == {*live.table_view(), "presence"}
                        table = {k: answers[seat][k] for k in live.table_view()}
                        if answers[seat]["clock"] is not None:  # the same for every seat
                            assert table == json.loads(json.dumps(live.table_view()))
                if answers[0]["over"]:
                    break
                for seat in (0, 1):
                    if answers[seat]["legal"]:
                        move = rng.choice(answers[seat]["legal"])["text"]
                        body = {"seat": seat, "move": move}
                        r = c.post(f"/api/games/{gid}/move", headers=auth(tokens[seat]), json=body)
                        received[seat].append(r.text)
            else:
                raise AssertionError("the game did not end")
            ws.send_text('{"type":"ping"}')
            while True:
                message = ws.receive_text()
                received[0].append(message)
                if message == '{"type":"pong"}':
                    break
        rematch = {}
        for seat in (0, 1):
            r = c.post(f"/api/games/{gid}/rematch", headers=auth(tokens[seat]), json={})
            received[seat].append(r.text)
            rematch[seat] = token_of(r.json()["url"])
        seed = str(c.get(f"/api/games/{gid}/save").json()["seed"])
    assert len(received[0]) > 50
    for seat, other in ((0, 1), (1, 0)):
        everything = "\n".join(received[seat])
        assert seed not in everything
        assert tokens[other] not in everything and hot not in everything
        assert rematch[other] not in everything
