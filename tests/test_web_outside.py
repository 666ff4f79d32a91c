"""Agents outside the server in the web app's seat menu (``serve --seat NAME=SPEC``): offered
only as the server's operator names them, played through the move protocol, one program run
per move; a save file cannot seat a program the server does not offer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import rulebook
from rulebook.cli import app
from rulebook.core import UnknownGame
from rulebook.web import seats as seat_kinds
from webtools import client, get_view, new_game, wait_for


@pytest.fixture
def agent(tmp_path: Path) -> tuple[str, Path]:
    script = Path(__file__).parent / "programs" / "first_move.py"
    heard = tmp_path / "heard.jsonl"
    return f"cmd:{sys.executable} {script} {heard}", heard


def test_an_offered_program_plays_its_seat(tmp_path: Path, agent: tuple[str, Path]) -> None:
    spec, heard = agent
    with client(tmp_path / "g.sqlite3", seats={"first": spec}) as c:
        menu = [s["key"] for s in c.get("/api/games").json()["seats"]]
        assert menu[-2:] == ["first", "open"]
        links = new_game(c, "ye-olde-magick-shoppe", ["first", "greedy"])
        wait_for(lambda: get_view(c, links["id"])["over"], timeout=120)
        view = get_view(c, links["id"])
        assert view["seats"][0]["label"] == "first"
    messages = [json.loads(line) for line in heard.read_text().splitlines()]
    moves = [e for e in view["log"] if not e.get("event") and e["seat"] == 0]
    # one run per move: start, move, end (the game not over for the program), never an error
    assert [m["type"] for m in messages] == ["start", "move", "end"] * len(moves)
    assert not any(m["type"] == "error" for m in messages)
    assert all(m["over"] is False for m in messages if m["type"] == "end")


def test_only_the_servers_own_programs_sit(tmp_path: Path, agent: tuple[str, Path]) -> None:
    """A seat kind the server does not offer is refused; a save file naming a program is
    refused unless the server offers exactly that spec."""
    spec, _ = agent
    state = rulebook.new_game("archmagi", 2, seed=5)
    text = rulebook.save_text(state, seats=["human", spec])
    upload = {"file": ("game.json", text, "application/json")}
    with client(tmp_path / "a.sqlite3") as c:
        asked = {"game": "archmagi", "players": 2, "seats": ["human", "first"]}
        r = c.post("/api/games", json=asked)
        assert r.status_code == 400 and "no seat kind 'first'" in r.text
        r = c.post("/api/games/upload", files=upload)
        assert r.status_code == 400 and "not one of this server's seats" in r.text
    with client(tmp_path / "b.sqlite3", seats={"first": spec}) as c:
        r = c.post("/api/games/upload", files=upload)
        assert r.status_code == 201, r.text
        assert get_view(c, r.json()["id"])["seats"][1]["label"] == "first"


@pytest.mark.parametrize(
    ("name", "spec", "said"),
    [
        ("Mine", "cmd:./x", "lower-case letters"),
        ("greedy", "cmd:./x", "one of the menu's own"),
        ("mine", "mcts:200", "not an outside agent"),
    ],
)
def test_offering_a_bad_seat_is_refused(name: str, spec: str, said: str) -> None:
    with pytest.raises(UnknownGame, match=said):
        seat_kinds.offer({name: spec})


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("mine", "--seat takes NAME=SPEC"),
        ("mine=cmd:/no/such/program", "--seat mine: no executable program"),
        ("Mine=cmd:sh", "--seat Mine: a seat's name is 1-24 lower-case"),
        ("mine=greedy", "is not an outside agent"),
    ],
)
def test_serve_checks_its_seats_first(option: str, said: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--db", f"sqlite:///{tmp_path}/x.sqlite3", "--seat", option]
    )
    assert result.exit_code == 2 and said in result.output, result.output
    assert "Traceback" not in result.output


def test_the_lab_plays_the_servers_programs(tmp_path: Path, agent: tuple[str, Path]) -> None:
    """The lab's agents include the server's outside seats, by name; a run seats the program."""
    from test_lab_web import lab_server, start, wait_run

    spec, heard = agent
    with lab_server(tmp_path / "lab", "--seat", f"first={spec}") as server:
        made = start(
            server.url, kind="simulate", game="archmagi", players=2, variant="standard",
            seats=["first", "random"], seed=5, games=2,
        )  # fmt: skip
        done = wait_run(server.url, made["id"], ("done", "failed", "cancelled", "stopped"))
        assert done["status"] == "done", done
        page = httpx.get(f"{server.url}/lab", timeout=30).text
    assert '"first"' in page  # the lab's agent menu (its data, JSON in the page)
    messages = [json.loads(line)["type"] for line in heard.read_text().splitlines()]
    assert messages.count("start") == 2 and "move" in messages and "error" not in messages


def test_a_save_file_names_an_outside_seat_never_its_spec(
    tmp_path: Path, agent: tuple[str, Path]
) -> None:
    """The spec (a path, an address, a key's name) is the operator's: a finished game's save
    file names the seat by its menu name, which seats the same agent again where the server
    offers it; a server that no longer offers it shows and saves neither the spec nor a name."""
    spec, _ = agent
    with client(tmp_path / "g.sqlite3", seats={"first": spec}) as c:
        links = new_game(c, "ye-olde-magick-shoppe", ["first", "greedy"])
        gid = links["id"]
        wait_for(lambda: get_view(c, gid)["over"], timeout=120)
        saved = c.get(f"/api/games/{gid}/save")
        assert saved.status_code == 200 and json.loads(saved.text)["seats"] == ["first", "greedy"]
        assert spec not in saved.text and "first_move.py" not in saved.text
        upload = {"file": ("game.json", saved.text, "application/json")}
        r = c.post("/api/games/upload", files=upload)
        assert r.status_code == 201, r.text
        assert get_view(c, r.json()["id"])["seats"][0]["label"] == "first"
    with client(tmp_path / "g.sqlite3") as c:  # the same games, the agent no longer offered
        view = get_view(c, gid)
        assert "first_move.py" not in json.dumps(view)
        assert view["seats"][0]["label"] == seat_kinds.UNOFFERED
        saved = c.get(f"/api/games/{gid}/save")
        assert "first_move.py" not in saved.text
        assert json.loads(saved.text)["seats"][0] == seat_kinds.UNOFFERED
        r = c.post("/api/games/upload", files={"file": ("g.json", saved.text, "application/json")})
        assert r.status_code == 400 and "give the seats" in r.text
