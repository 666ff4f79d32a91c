"""The balance lab in the browser, without the browser: a game's data as a form and what-ifs
(:mod:`rulebook.lab.data_form`), runs and their commands (:mod:`rulebook.lab.runs`), the lab's
tables, the job runner played by real worker processes (cancel, resume, a server restarted or
killed, a worker that dies), the page's figures equal to the CLI's, and the lab off on a public
address or behind its key."""

from __future__ import annotations

import html
import json
import os
import signal
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

import rulebook
from rulebook.cli import app
from rulebook.core.data import DataError
from rulebook.lab import data_form, overrides
from rulebook.lab.runs import RunSpec
from rulebook.lab.storage import read_results
from rulebook.web.lab.store import CANCELLED, DONE, QUEUED, RUNNING, STALE, LabStore
from rulebook.web.store import open_engine
from webserver import Server

WARRIOR = json.dumps(
    ["adventurers.toml", "adventurers", "The Warrior", "coins"], separators=(",", ":")
)
runner = CliRunner()


# -- the data as a form ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", rulebook.games())
def test_every_value_reads_back_as_it_is_shown(game: str) -> None:
    """Each value of every data file: shown in its field, read back as the same value; its key
    addresses it in an override; where it comes from is said."""
    found = data_form.values(game)
    assert len(found) > 50
    for v in found:
        assert data_form.parse(v, v.shown()) == v.value, (v.group, v.label)
        # every entry says where its values come from (a file's own top-level lists, the
        # names its entries refer to, are no entry)
        assert v.source in ("rulebook", "public", "authored") or len(v.path) == 1, (v.file, v.path)
        if v.source == "authored":
            assert v.reason.strip(), (v.group, v.label)
    # an override of one value through the form equals the one its key writes by hand
    first = next(v for v in found if v.kind == "int")
    override = data_form.override_of(game, {first.ident: str(int(first.value) + 1)})
    text = data_form.override_toml(override)
    by_hand = tomllib.loads(f"{first.key(game)} = {int(first.value) + 1}")
    assert tomllib.loads(text) == override == by_hand
    overrides.resolve(override)


def test_a_changed_value_is_an_override_and_the_rest_is_left_alone() -> None:
    assert data_form.override_of("merchants-of-magick", {WARRIOR: "12"}) == {}  # as shipped
    override = data_form.override_of("merchants-of-magick", {WARRIOR: " 9 "})
    assert override == {
        "merchants-of-magick": {"adventurers.toml": {"adventurers": {"The Warrior": {"coins": 9}}}}
    }
    [(value, new)] = data_form.changed("merchants-of-magick", override)
    assert (value.label, new) == ("coins", 9)
    assert value.source == "authored" and "6 Coins" in value.reason


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("-1", "below 0, the least it may be"),
        ("nine", "is not a whole number"),
        ("1.5", "is not a whole number"),
    ],
)
def test_a_value_that_cannot_be_is_refused_naming_it(text: str, says: str) -> None:
    with pytest.raises(DataError, match=says) as refused:
        data_form.override_of("merchants-of-magick", {WARRIOR: text})
    assert str(refused.value).startswith("adventurers: The Warrior, coins: ")


def test_a_choice_and_an_unknown_value() -> None:
    choice = next(v for v in data_form.values("battle-merchants") if v.kind == "choice")
    with pytest.raises(DataError, match="is none of"):
        data_form.override_of("battle-merchants", {choice.ident: "nothing-like-it"})
    with pytest.raises(DataError, match="has no data value"):
        data_form.override_of("battle-merchants", {'["nope.toml","x"]': "1"})


# -- runs and their commands ----------------------------------------------------------------------
def test_a_runs_commands_name_the_same_games(tmp_path: Path) -> None:
    override = data_form.override_of("merchants-of-magick", {WARRIOR: "9"})
    rungs = ("greedy", "mcts:200-greedy")
    spec = RunSpec(
        "compare", "merchants-of-magick", 4, 30, 7, "standard", {}, (), rungs, override, "W 9"
    )  # fmt: skip
    spec.check()
    jobs = spec.jobs(tmp_path)
    assert [label for label, _, _ in jobs] == [
        "greedy shipped", "greedy whatif", "mcts:200-greedy shipped", "mcts:200-greedy whatif",
    ]  # fmt: skip
    assert jobs[0][1].override is None and jobs[1][1].override == override
    assert {j.seed for _, j, _ in jobs} == {7} and {j.games for _, j, _ in jobs} == {30}
    lines = spec.commands(tmp_path)
    assert lines[0].startswith("rulebook strength merchants-of-magick --players 4")
    assert "--data-override" in lines[1] and "--rungs greedy,mcts:200-greedy" in lines[1]
    assert lines[2].startswith("rulebook compare ") and str(jobs[0][2]) in lines[2]
    assert RunSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


# -- the lab's tables -----------------------------------------------------------------------------
@pytest.fixture
def store(tmp_path: Path) -> LabStore:
    return LabStore(open_engine(f"sqlite:///{tmp_path / 'lab.sqlite3'}"))


def test_one_claim_wins_and_a_dead_run_is_claimed_again(store: LabStore) -> None:
    run = store.add_run("simulate", "archmagi", "t", {}, 10)
    assert store.claim(run.id, "a")
    assert not store.claim(run.id, "b")  # a live run is nobody else's
    later = time.time() + STALE + 1
    assert store.claim(run.id, "b", now=later)  # its heartbeat stopped: b takes it
    assert store.run(run.id).owner == "b"
    # the old owner's late words change nothing
    store.finish(run.id, "a", DONE, {"x": 1})
    assert store.run(run.id).status == RUNNING


def test_cancel_and_release(store: LabStore) -> None:
    queued = store.add_run("simulate", "archmagi", "t", {}, 10)
    assert store.cancel_run(queued.id).status == CANCELLED
    assert not store.claim(queued.id, "a")
    running = store.add_run("simulate", "archmagi", "t", {}, 10)
    assert store.claim(running.id, "a")
    store.cancel_run(running.id)
    assert store.beat(running.id, "a", 3, 3, {})  # its owner is told to stop
    store.finish(running.id, "a", QUEUED)  # a stop that is not a cancel: back in the queue
    found = store.run(running.id)
    assert (found.status, found.owner, found.done) == (QUEUED, "", 3)


# -- worker processes, through a real server ------------------------------------------------------
def lab_server(folder: Path, *extra: str) -> Server:
    folder.mkdir(parents=True, exist_ok=True)
    server = Server(
        f"sqlite:///{folder / 'games.sqlite3'}",
        folder / "server.log",
        extra=("--lab-dir", str(folder / "lab"), "--lab-workers", "2", *extra),
    )
    return server


def wait_run(url: str, run_id: str, until: tuple[str, ...], timeout: float = 120) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        found: dict[str, Any] = httpx.get(f"{url}/api/lab/runs/{run_id}", timeout=10).json()
        if found["status"] in until:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"run {run_id} still {found['status']}: {found}")
        time.sleep(0.2)


def start(url: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/lab/runs", json=body, timeout=60)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


SIM = {"kind": "simulate", "game": "archmagi", "players": 2, "variant": "standard",
       "seats": ["random", "random"], "seed": 5}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("labweb")
    with lab_server(folder) as running:
        yield running
    assert "Traceback" not in (folder / "server.log").read_text()


def test_a_run_equals_the_clis_figures(server: Server, tmp_path: Path) -> None:
    """The same seeds, agents and data give the same games and the same table as
    ``rulebook simulate`` in a terminal."""
    made = start(server.url, **SIM, games=24)
    done = wait_run(server.url, made["id"], ("done", "failed"))
    assert done["status"] == "done", done["error"]
    out = tmp_path / "cli.parquet"
    result = runner.invoke(
        app,
        ["simulate", "archmagi", "--players", "2", "--agents", "random,random", "--games", "24",
         "--seed", "5", "--out", str(out), "--workers", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lab_file = Path(server.extra[1]) / made["id"] / "games.parquet"
    page_rows = [{k: v for k, v in r.items() if k != "seconds"} for r in read_results(lab_file)]
    cli_rows = [{k: v for k, v in r.items() if k != "seconds"} for r in read_results(out)]
    assert page_rows == cli_rows
    seats = done["figures"]["games"]["seats"]
    for p, seat in enumerate(seats):
        wins = sum(r["returns"][p] for r in cli_rows)
        assert seat["wins"] == wins and seat["games"] == 24
        assert f"{wins / 24:.1%}" in result.output
    assert done["commands"] == [
        f"rulebook simulate archmagi --players 2 --variant standard --agents random,random "
        f"--games 24 --seed 5 --out {lab_file}"
    ]


def test_cancel_keeps_the_games_and_resume_plays_the_rest(server: Server) -> None:
    made = start(server.url, **SIM, games=3000)
    end = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/lab/runs/{made['id']}").json()["done"] < 20:
        assert time.monotonic() < end
        time.sleep(0.1)
    r = httpx.post(f"{server.url}/api/lab/runs/{made['id']}/cancel")
    assert r.status_code == 200
    cancelled = wait_run(server.url, made["id"], ("cancelled",))
    kept = cancelled["done"]
    assert 20 <= kept < 3000 and "kept" in cancelled["error"]
    assert httpx.post(f"{server.url}/api/lab/runs/{made['id']}/cancel").status_code == 400
    # resumed with fewer games to go: it plays only what is missing
    r = httpx.post(f"{server.url}/api/lab/runs/{made['id']}/resume")
    assert r.status_code == 200, r.text
    again = wait_run(server.url, made["id"], ("running", "done"))
    assert again["done"] >= kept
    httpx.post(f"{server.url}/api/lab/runs/{made['id']}/cancel")
    wait_run(server.url, made["id"], ("cancelled",))


def test_bad_requests_are_one_line_and_change_nothing(server: Server) -> None:
    url = server.url
    before = httpx.get(f"{url}/api/lab/runs").json()["runs"]
    for body, says in (
        ({**SIM, "games": 0}, "games"),
        ({**SIM, "games": 10, "seats": ["random"]}, "an agent for each of the 2 seats"),
        ({**SIM, "games": 10, "seats": ["random", "wizard"]}, "no agent 'wizard'"),
        ({**SIM, "games": 10, "players": 9}, "players"),
        ({**SIM, "games": 10, "kind": "compare", "rungs": ["greedy"]}, "needs a what-if"),
        ({**SIM, "games": 10, "whatif": "nope"}, "no such what-if"),
        ({**SIM, "games": 10**9}, "at most"),
    ):
        r = httpx.post(f"{url}/api/lab/runs", json=body, timeout=30)
        assert r.status_code in (400, 404), (body, r.text)
        assert says in r.json()["error"], (says, r.json())
    r = httpx.post(f"{url}/api/lab/runs", content=b"{not json", timeout=30)
    assert r.status_code == 400
    # a what-if the game's own validation refuses: its message, nothing stored
    bad = {"game": "merchants-of-magick", "name": "x",
           "values": {json.dumps(["adventurers.toml", "adventurers", "The Warrior", "enchantment"],
                                 separators=(",", ":")): "of-the-nobody"}}  # fmt: skip
    r = httpx.post(f"{url}/api/lab/whatifs", json=bad, timeout=60)
    assert r.status_code == 400 and "of-the-nobody" in r.json()["error"], r.text
    assert httpx.get(f"{url}/api/lab/whatifs").json()["whatifs"] == []
    assert httpx.get(f"{url}/api/lab/runs").json()["runs"] == before
    # a post from another site is refused before anything is read
    r = httpx.post(
        f"{url}/api/lab/runs", json={**SIM, "games": 5}, headers={"origin": "https://evil.example"}
    )
    assert r.status_code == 403


def test_a_restarted_server_resumes_the_run(tmp_path: Path) -> None:
    """A server stopped mid-run (SIGTERM) puts the run back in the queue with its games; the
    next server resumes it. A server killed (SIGKILL, its worker left alone) is noticed by
    the worker, which does the same."""
    folder = tmp_path / "restart"
    with lab_server(folder) as first:
        made = start(first.url, **SIM, games=4000)
        end = time.monotonic() + 60
        while httpx.get(f"{first.url}/api/lab/runs/{made['id']}").json()["done"] < 10:
            assert time.monotonic() < end
            time.sleep(0.1)
    stored = LabStore(open_engine(f"sqlite:///{folder / 'games.sqlite3'}")).run(made["id"])
    assert stored.status == QUEUED and stored.done >= 10
    with lab_server(folder) as second:
        found = wait_run(second.url, made["id"], ("running",))
        end = time.monotonic() + 60
        while (now := httpx.get(f"{second.url}/api/lab/runs/{made['id']}").json())[
            "done"
        ] <= stored.done:
            assert time.monotonic() < end
            time.sleep(0.1)
        assert now["done"] > stored.done >= 10 and found["total"] == 4000
        os.kill(second.process.pid, signal.SIGKILL)  # the worker is left running
        second.process.wait(10)
        engine_store = LabStore(open_engine(f"sqlite:///{folder / 'games.sqlite3'}"))
        end = time.monotonic() + 30
        while engine_store.run(made["id"]).status != QUEUED:
            assert time.monotonic() < end, engine_store.run(made["id"])
            time.sleep(0.2)


def test_a_worker_that_dies_fails_its_run(server: Server) -> None:
    made = start(server.url, **SIM, games=4000)
    wait_run(server.url, made["id"], ("running",))
    end = time.monotonic() + 30
    pids: list[int] = []
    while not pids:
        assert time.monotonic() < end
        pids = [
            int(p) for p in os.listdir("/proc") if p.isdigit() and made["id"] in _cmdline(int(p))
        ]
        time.sleep(0.1)
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    failed = wait_run(server.url, made["id"], ("failed",), timeout=30)
    assert "ended unexpectedly" in failed["error"]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


# -- who may use the lab --------------------------------------------------------------------------
def test_the_lab_is_off_on_a_public_address_without_a_key(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from rulebook.web import Settings, create_app

    off = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'g.db'}", lab=False, bot_workers=0))
    with TestClient(off) as c:
        for path in ("/lab", "/lab/data/archmagi", "/api/lab/runs", "/api/lab/data/archmagi"):
            assert c.get(path).status_code == 404, path
        assert c.post("/api/lab/runs", json=SIM).status_code == 404
        assert "Balance lab" not in c.get("/").text


def test_serve_refuses_a_public_lab_without_a_key(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["serve", "--host", "0.0.0.0", "--lab", "--db", f"sqlite:///{tmp_path / 'x.db'}"]
    )
    assert result.exit_code != 0
    assert "give it a key" in result.output and "Traceback" not in result.output


def test_a_lab_with_a_key_asks_for_it(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from rulebook.web import Settings, create_app

    key = "correct horse battery"
    made = create_app(
        Settings(
            db_url=f"sqlite:///{tmp_path / 'g.db'}",
            lab_key=key,
            lab_dir=tmp_path / "lab",
            bot_workers=0,
        )
    )
    with TestClient(made) as c:
        assert c.get("/api/lab/runs").status_code == 403
        page = c.get("/lab")
        assert page.status_code == 200 and 'name="key"' in page.text
        wrong = c.post("/lab/key", data={"key": "nope"}, follow_redirects=False)
        assert "not the lab's key" in html.unescape(wrong.text)
        right = c.post("/lab/key", data={"key": key}, follow_redirects=False)
        assert right.status_code == 303
        assert "httponly" in right.headers["set-cookie"].lower()
        assert c.get("/api/lab/runs").status_code == 200


def test_the_worker_is_a_module_of_its_own() -> None:
    """``python -m rulebook.web.lab.worker`` runs (the supervisor starts it so)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "rulebook.web.lab.worker", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "--run" in done.stdout


def test_a_compare_runs_figures_are_the_ladders_own_rates() -> None:
    """On a rung with one candidate seat, the page's table is that seat's win rate with each
    faction (``rulebook strength --ladder``'s), not every seat's."""
    from rulebook.lab import runs
    from rulebook.lab.ladder import Rung, rates
    from rulebook.lab.runner import execute

    override = data_form.override_of("merchants-of-magick", {WARRIOR: "9"})
    spec = RunSpec(
        "compare", "merchants-of-magick", 3, 12, 3, "standard", {}, (), ("random-greedy",),
        override, "W 9",
    )  # fmt: skip
    rows = {label: execute(job) for label, job, _ in spec.jobs(Path("."))}
    [rung] = runs.figures(spec, rows)["rungs"]
    candidate = Rung.parse("random-greedy")
    want = runs.rate_figures(rates(rows["random-greedy shipped"], candidate, "faction"))
    assert rung["by"] == "faction" and rung["rates"]["shipped"] == want
    assert sum(r["games"] for r in rung["rates"]["shipped"]) == 12  # one seat a game
