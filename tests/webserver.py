"""A real ``rulebook serve`` process for the tests that need one (a kill, a browser)."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

from pgtemp import free_port
from reaper import Reaper

RULEBOOK = str(Path(sys.executable).with_name("rulebook"))


def raise_open_files() -> int:
    """Raise this process's limit of open files (sockets) to the most it may have (the
    servers it starts inherit it): a load test of 1,000 games holds some 8,000 sockets, and
    the soft limit is often 1,024. The limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def server_processes(supervisor: int) -> set[int]:
    """The server processes uvicorn's supervisor ``supervisor`` started under ``--workers``
    (multiprocessing's spawned children; not their bot workers)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == supervisor and b"spawn_main" in command:
            found.add(int(stat.parent.name))
    return found


class Server:
    """``rulebook serve`` on a free port of 127.0.0.1, its output in ``log``."""

    def __init__(
        self,
        db_url: str,
        log: Path,
        bot_delay: float = 0.0,
        workers: int = 1,
        access_log: bool = True,
        profile: Path | None = None,
        processes: int = 1,
        extra: tuple[str, ...] = (),
        src: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.access_log = access_log
        self.log = log
        self.bot_delay = bot_delay
        self.workers = workers
        #: write a cProfile of the server process here when it stops (benchmarks)
        self.profile = profile
        #: server processes on the port (``--workers``: more than 1 needs PostgreSQL)
        self.processes = processes
        #: more options of ``rulebook serve``
        self.extra = extra
        #: run the ``rulebook`` package found here (a baseline's ``src/``) instead of this tree's
        self.src = src
        #: more environment for the server (and the processes it starts)
        self.env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        #: ends the server's process group if the tests end without stopping it
        self.reaper: Reaper | None = None

    def start(self, timeout: float = 90.0) -> Server:
        profiled = Path(__file__).resolve().parents[1] / "benchmarks" / "profiled_serve.py"
        if self.profile:
            program = [sys.executable, str(profiled), str(self.profile)]
        elif self.src is not None:
            program = [sys.executable, "-m", "rulebook"]
        else:
            program = [RULEBOOK]
        raise_open_files()  # the server inherits it
        env = {**os.environ, **self.env}
        if self.src is not None:
            env["PYTHONPATH"] = str(self.src)
        command = [
            *program,
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            "--bot-workers",
            str(self.workers),
            *(["--access-log"] if self.access_log else []),
            *(["--workers", str(self.processes)] if self.processes > 1 else []),
            *self.extra,
        ]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env
            )
        if self.reaper is not None:
            self.reaper.done()
        self.reaper = Reaper(group=self.process.pid)
        end = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > end:
                self.stop()
                raise RuntimeError("the server did not start in time")
            time.sleep(0.1)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the server and every process it started (its bot workers)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self._reaped()

    def _reaped(self) -> None:
        if self.reaper is not None:
            self.reaper.done()
            self.reaper = None

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            self._reaped()
            return
        self.process.send_signal(signal.SIGTERM)  # the server stops its own workers
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # anything left behind
        self.process.wait(10)
        self._reaped()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
