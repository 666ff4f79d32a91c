"""Running the web app: ``rulebook serve`` and ``make run``. Everything that can be checked
before the server starts (the database, the port) is, so a mistake is one line, not a trace.

``--workers N`` runs N server processes on one port: uvicorn's supervisor binds the port once,
hands the socket to each process (the kernel gives each new connection to one of them) and
starts a new process when one dies. They share one PostgreSQL database
(:mod:`rulebook.web.cluster`); on SQLite a second process is refused (:func:`hold_database`).
"""

from __future__ import annotations

import atexit
import fcntl
import logging
import logging.handlers
import os
import queue
import shutil
import signal
import socket
import tempfile
import threading
import time
from types import FrameType
from typing import IO, Any

import uvicorn
from fastapi import FastAPI
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from rulebook.web import collector, logs, metrics
from rulebook.web.app import create_app
from rulebook.web.settings import Settings
from rulebook.web.store import Store, UnusableDatabase, in_memory, shown

#: what a token could look like in a log line: never written out
_SECRET = logs.SECRET
#: ``--log-format``: uvicorn's text lines, or one JSON object per line
LOG_FORMATS = ("text", "json")


class Redact(logging.Filter):
    """Blanks anything shaped like a token in log records (tokens never travel in URLs, and
    this keeps it so should a client put one there)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(
                _SECRET.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                for a in (record.args if isinstance(record.args, tuple) else (record.args,))
            )
        if isinstance(record.msg, str):
            record.msg = _SECRET.sub(r"\1[redacted]", record.msg)
        return True


class SocketAccess(logging.Filter):
    """Drops uvicorn's line per WebSocket connection (``... "WebSocket /path" [accepted]``):
    it is an access log line, so it is written only with the access log. (Each record handed
    to the log's thread also cost the event loop a wait for the interpreter lock.)"""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith('%s - "WebSocket %s"'))


class ClientFault(logging.Filter):
    """Keeps the line, drops the traceback, of Uvicorn's record of a client's text frame that is
    not UTF-8 (its WebSocket protocol logs it with ``logger.exception`` and answers close code
    1007): a fault of the client, and a client may send them without end."""

    MESSAGES = frozenset({"Invalid UTF-8 sequence received from client."})

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self.MESSAGES:
            record.exc_info = None
            record.exc_text = None
        return True


def log_config(access_log: bool = False, log_format: str = "text") -> dict[str, Any]:
    config: dict[str, Any] = {
        **uvicorn.config.LOGGING_CONFIG,
        "filters": {
            "redact": {"()": "rulebook.web.server.Redact"},
            "socket_access": {"()": "rulebook.web.server.SocketAccess"},
            "client_fault": {"()": "rulebook.web.server.ClientFault"},
        },
    }
    config["handlers"] = {
        name: {**handler, "filters": ["redact"]}
        for name, handler in uvicorn.config.LOGGING_CONFIG["handlers"].items()
    }
    if log_format == "json":
        json_lines = {"()": "rulebook.web.logs.JsonLines"}
        config["formatters"] = {"default": json_lines, "access": json_lines}
    config["loggers"] = {
        **uvicorn.config.LOGGING_CONFIG["loggers"],
        "rulebook.web": {"handlers": ["default"], "level": "INFO", "propagate": False},
    }
    # on the logger: a dropped record never reaches the log's thread
    filters = ["client_fault"] + ([] if access_log else ["socket_access"])
    error = config["loggers"]["uvicorn.error"]
    config["loggers"]["uvicorn.error"] = {**error, "filters": filters}
    return config


class ServeError(Exception):
    """The server cannot start: a one-line reason."""


#: why SQLite serves one process
ONE_PROCESS = (
    "--workers needs PostgreSQL (--db postgresql://...): SQLite cannot tell one process of "
    "another's moves"
)


def check(settings: Settings, host: str, port: int, workers: int = 1) -> None:
    """Raise :class:`ServeError` if the database cannot serve ``workers`` processes or be
    opened, or the port is taken (checked in that order: a refused start touches nothing)."""
    if workers > 1 and make_url(settings.db_url).get_backend_name() == "sqlite":
        raise ServeError(ONE_PROCESS)
    if in_memory(settings.db_url):
        raise ServeError(
            f"{shown(settings.db_url)!r} keeps games in memory, lost when the server stops: "
            "give a file, sqlite:///FILE"
        )
    try:
        Store(settings.db_url).close()
    except UnusableDatabase as exc:
        raise ServeError(str(exc)) from None
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        reason = (str(orig or exc).strip().splitlines() or ["unknown error"])[0]
        raise ServeError(f"cannot open the database {shown(settings.db_url)!r}: {reason}") from None
    except OSError as exc:
        raise ServeError(f"cannot open the database {shown(settings.db_url)!r}: {exc}") from None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServeError(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


#: the open lock files of the SQLite databases this process serves (locked until it ends)
_HELD: list[IO[bytes]] = []
#: how ``rulebook serve --workers N`` hands its settings to its processes
SETTINGS_ENV = "RULEBOOK_WEB_SETTINGS"


def hold_database(settings: Settings, workers: int = 1) -> None:
    """SQLite serves one process: :class:`ServeError` for several (``--workers``, or another
    ``rulebook serve`` on the same file, found by a lock on ``FILE.lock`` held until this
    process ends). Several processes would each keep their copy of a game that the others'
    moves never reach: SQLite has no way to tell them; PostgreSQL has (``LISTEN``)."""
    url = make_url(settings.db_url)
    if url.get_backend_name() != "sqlite":
        return
    if workers > 1:
        raise ServeError(ONE_PROCESS)
    if not url.database or url.database == ":memory:":
        return
    path = f"{url.database}.lock"
    try:
        # the folder exists (check() opened the database in it); open until the process ends
        held = open(path, "ab")  # noqa: SIM115
    except OSError as exc:
        raise ServeError(f"cannot open {path}: {exc.strerror}") from None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        held.close()
        raise ServeError(
            f"another rulebook serve is using {url.database}: SQLite serves one process "
            "(several need PostgreSQL: --db postgresql://...)"
        ) from None
    _HELD.append(held)


class _Handoff(logging.handlers.QueueHandler):
    """Hands records to the writing thread as they are (the formatters need their args)."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        logs.stamp(record)  # the request's context is this thread's, not the writer's
        return record


def _log_off_the_loop() -> list[logging.handlers.QueueListener]:
    """Move the log handlers' writes to threads: a slow terminal or disk never delays the
    event loop. One queue per logger, each feeding that logger's own handlers."""
    listeners = []
    for name in ("uvicorn", "uvicorn.access", "rulebook.web"):
        logger = logging.getLogger(name)
        if not logger.handlers:
            # uvicorn logs each request when its access logger has handlers: one added here
            # would turn the access log back on after ``access_log=False`` took them away
            continue
        records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
        listener = logging.handlers.QueueListener(
            records, *logger.handlers, respect_handler_level=True
        )
        logger.handlers = [_Handoff(records)]
        listener.start()
        listeners.append(listener)
    return listeners


def _uvicorn_options(settings: Settings, access_log: bool, log_format: str) -> dict[str, Any]:
    return {
        "log_config": log_config(access_log, log_format),
        "access_log": access_log,
        "ws_max_size": settings.max_ws_message,
        "ws_per_message_deflate": False,  # compressing every update cost more than sending it
        "timeout_graceful_shutdown": 5,
    }


def serve(
    settings: Settings,
    host: str,
    port: int,
    access_log: bool = False,
    workers: int = 1,
    log_format: str = "text",
) -> None:
    """Start the app (blocking until Ctrl-C or SIGTERM) in this process, or in ``workers``
    processes sharing the port. The access log is off unless asked for (tokens never appear in
    URLs, and :class:`Redact` blanks any that would)."""
    if workers > 1:
        os.environ[SETTINGS_ENV] = settings.to_json()
        if not os.environ.get(metrics.FOLDER_ENV):  # /metrics adds up every process's figures
            folder = tempfile.mkdtemp(prefix="rulebook-metrics-")
            os.environ[metrics.FOLDER_ENV] = folder
            atexit.register(shutil.rmtree, folder, True)
        uvicorn.run(
            "rulebook.web.server:process_app",
            factory=True,
            workers=workers,
            # a process that does not answer the supervisor's health check within this is
            # killed and started again: starting (importing every game) takes seconds on a
            # busy machine, more than uvicorn's 5; a dead process is noticed at once anyway
            timeout_worker_healthcheck=30,
            host=host,
            port=port,
            **_uvicorn_options(settings, access_log, log_format),
        )
        return
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        **_uvicorn_options(settings, access_log, log_format),
    )
    listeners = _log_off_the_loop()
    collector.settle()
    # uvicorn takes SIGTERM and SIGINT while it serves, stops gracefully, then puts back these
    # handlers and raises the signal again: a stop asked for ends here, with exit status 0
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _stopped)
    try:
        uvicorn.Server(config).run()
    finally:
        for listener in listeners:
            listener.stop()


def _stopped(number: int, frame: FrameType | None) -> None:
    """The signal that stopped the server, raised again once it stopped: nothing left to do."""


def process_app() -> FastAPI:
    """The app of one process of ``rulebook serve --workers N`` (uvicorn calls it in each
    process it starts, its logs already set up): as :func:`serve` prepares its own."""
    settings = Settings.from_json(os.environ[SETTINGS_ENV])
    for listener in _log_off_the_loop():
        atexit.register(listener.stop)
    metrics.forget_dead()
    atexit.register(metrics.stopped)
    collector.settle()
    threading.excepthook = _quiet_supervisor_pipe
    supervisor = os.getppid()
    threading.Thread(target=_stop_without, args=(supervisor,), daemon=True).start()
    return create_app(settings)


def _stop_without(supervisor: int) -> None:
    """End this process (as SIGTERM does: gracefully) once its supervisor is gone, so that a
    supervisor killed with ``kill -9`` leaves no server behind on the port."""
    while os.getppid() == supervisor:
        time.sleep(1.0)
    logging.getLogger("rulebook.web").warning("the supervisor process stopped; stopping")
    os.kill(os.getpid(), signal.SIGTERM)


def _quiet_supervisor_pipe(args: threading.ExceptHookArgs) -> None:
    """uvicorn's thread answering the supervisor's health checks ends with EOFError when the
    supervisor dies: :func:`_stop_without` says so in one line instead of a trace."""
    name = args.thread.name if args.thread is not None else ""
    if "always_pong" in name and issubclass(args.exc_type, (EOFError, OSError)):
        return
    threading.__excepthook__(args)
