"""The web app's settings: where games are stored, the bots' pace, and the request limits."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

#: the SQLite file ``make run`` and ``rulebook serve`` use when no ``--db`` is given
DEFAULT_DB_PATH = Path("data") / "rulebook.sqlite3"


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class Settings:
    """How one server runs. Every limit is checked before any work is done on a request."""

    #: SQLAlchemy URL: ``sqlite:///data/rulebook.sqlite3`` or ``postgresql://user@host/db``
    db_url: str = sqlite_url(DEFAULT_DB_PATH)
    #: seconds a bot waits before it moves, so a person can follow (0 in tests)
    bot_delay: float = 0.6
    #: processes that compute the bots' moves (0: a thread of the server process, for tests)
    bot_workers: int = 1
    #: largest request body accepted (JSON moves, forms), in bytes
    max_body: int = 64 * 1024
    #: largest save file accepted by an upload, in bytes
    max_upload: int = 1024 * 1024
    #: largest WebSocket message accepted, in bytes
    max_ws_message: int = 4 * 1024
    #: malformed WebSocket messages tolerated before the connection is closed
    max_ws_garbage: int = 10
    #: refused requests (4xx) a client may make in a minute before it gets 429 for a while
    max_refusals: int = 600
    #: WebSocket connections one client address may hold open (tabs, spectators): 429 beyond
    max_sockets_per_client: int = 64
    #: games one client address may create within a minute: 429 beyond
    max_new_games_per_minute: int = 30
    #: admission by measured load (:mod:`rulebook.web.overload`; 0 turns a measure off): new
    #: games are refused (503, ``Retry-After``) while the process's event loop runs this many
    #: seconds late (smoothed), moves past three times it
    overload_lag: float = 0.1
    #: ... or while more HTTP requests than this are in progress in the process (moves: four
    #: times as many)
    overload_requests: int = 100
    #: ... or (new games only) while more bot moves than this wait for its bot workers
    overload_bots: int = 200
    #: games kept in memory (the rest are rebuilt from the database when next needed)
    cache_games: int = 1000
    #: seconds between two looks for seats out of time (every process looks)
    clock_sweep: float = 1.0
    #: seconds a seat must have been away before the others may vote to hand it to a bot
    absent_after: float = 300.0
    #: the balance lab in the browser (``/lab``; ``serve`` turns it on for the loopback only
    #: unless ``--lab`` is given with a key)
    lab: bool = True
    #: the key the lab asks for ("": none; ``serve --lab-key``, needed off the loopback)
    lab_key: str = ""
    #: the lab's results folder: each run's games (Parquet), plots and reports; every server
    #: process sharing the database must read the same folder
    lab_dir: Path = DEFAULT_DB_PATH.parent / "lab"
    #: processes a lab run plays its games on (default: every core)
    lab_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    #: a Ray cluster's address to play the lab's games on ("": this machine's processes)
    lab_ray: str = ""
    #: the most games one run may play
    lab_max_games: int = 200_000
    #: runs played at once, across the processes sharing the database; others wait
    lab_running: int = 1
    #: runs waiting in the queue at most
    lab_queue: int = 20
    #: agents outside the server offered in the seat menu: name -> ``cmd:``, ``ws:`` or
    #: ``llm:`` spec (``serve --seat NAME=SPEC``; :mod:`rulebook.agents.protocol`)
    seats: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        """These settings as JSON, for the processes of ``serve --workers N`` to share."""
        values = dataclasses.asdict(self)
        values["lab_dir"] = str(self.lab_dir)
        return json.dumps(values)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        values = json.loads(text)
        values["lab_dir"] = Path(values["lab_dir"])
        return cls(**values)
