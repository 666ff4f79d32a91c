"""The lab's runs, played beside the server: each by a worker process of its own.

Every server process looks for runs to play every :data:`POLL` seconds (and at once when a run
is queued through it): a queued run, or a running one whose heartbeat stopped, is claimed
(only one process wins it: :meth:`LabStore.claim`) and handed to a new
``python -m rulebook.web.lab.worker`` process, niced below the server, which plays it with the
CLI's runner on every core (or on a Ray cluster). Nothing of a run happens in the server's
event loop: the database is read and written from threads, the games in the worker's
processes. At most ``Settings.lab_running`` runs play at once, across the processes sharing the
database; the others wait in the queue.

When the server stops, its workers are told to stop (SIGTERM): each puts its run back in the
queue with its games stored, and the next server to start resumes it. A worker whose server was
killed notices that its parent is gone and does the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from rulebook.web import metrics
from rulebook.web.lab.store import FAILED, RUNNING, STALE, LabStore, Run
from rulebook.web.settings import Settings

log = logging.getLogger("rulebook.web.lab")

#: seconds between two looks for runs to play
POLL = 2.0
#: seconds a stopping worker has to put its run back before it is killed
GRACE = 10.0


class Supervisor:
    """This process's share of the lab's runs."""

    def __init__(self, store: LabStore, settings: Settings, db_url: str) -> None:
        self.store = store
        self.settings = settings
        self.db_url = db_url
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.folder = Path(settings.lab_dir)
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop())

    def poke(self) -> None:
        """A run was queued or cancelled here: look now."""
        self.wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                await self._tick()
            except Exception:  # the database away for a moment: try again at the next tick
                log.exception("lab: looking for runs failed; trying again")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL):
                    await self.wake.wait()
            self.wake.clear()

    async def _tick(self) -> None:
        for run_id, process in list(self.workers.items()):
            if process.poll() is not None:
                del self.workers[run_id]
                # a worker that ended without a word (killed for memory, a crash) fails its run
                # rather than have it claimed again and again
                await asyncio.to_thread(
                    self.store.finish,
                    run_id,
                    self.owner,
                    FAILED,
                    None,
                    f"its worker ended unexpectedly (exit {process.returncode}); see "
                    f"{self.folder / run_id / 'worker.log'}",
                    only_running=True,
                )
        active = await asyncio.to_thread(self.store.active)
        playing = sum(1 for r in active if r.status == RUNNING and not dead(r))
        for run in active:
            if playing >= self.settings.lab_running:
                break
            if run.id in self.workers or (run.status == RUNNING and not dead(run)):
                continue
            if await asyncio.to_thread(self.store.claim, run.id, self.owner):
                self._spawn(run)
                metrics.LAB_STARTED.inc()
                playing += 1
        metrics.LAB_RUNS.set(len(self.workers))

    def _spawn(self, run: Run) -> None:
        folder = self.folder / run.id
        folder.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "rulebook.web.lab.worker",
            "--db",
            self.db_url,
            "--folder",
            str(self.folder),
            "--run",
            run.id,
            "--owner",
            self.owner,
            "--workers",
            str(self.settings.lab_workers),
        ]
        if self.settings.lab_ray:
            command += ["--ray", self.settings.lab_ray]
        with (folder / "worker.log").open("ab") as out:
            self.workers[run.id] = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        log.info("lab: run %s started (%s)", run.id, run.title)

    async def close(self) -> None:
        """Stop looking; tell this process's workers to stop (their runs go back in the
        queue, their games kept) and wait for them a little."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for process in self.workers.values():
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGTERM)
        for process in self.workers.values():
            try:
                await asyncio.to_thread(process.wait, GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
        self.workers.clear()


def dead(run: Run) -> bool:
    """Whether a running run's worker has stopped beating (killed with its server)."""
    return run.heartbeat < time.time() - STALE
