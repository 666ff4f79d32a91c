"""A lab run's progress in its row, and the heartbeat that says the run is alive: what the run's
worker (:mod:`rulebook.web.lab.worker`) updates as it plays, and a tuning run
(:mod:`rulebook.web.lab.tuning`) as it searches. The heartbeat learns of a cancel or of the
server gone and stops the run (:class:`Stop`)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from rulebook.core.words import seat
from rulebook.lab import runs
from rulebook.lab.ladder import Rung, candidate_seat
from rulebook.lab.runs import RunSpec
from rulebook.web.lab.store import LabStore

log = logging.getLogger("rulebook.web.lab")

#: seconds between two heartbeats (and looks for a cancel)
BEAT = 1.0


class Stop(Exception):
    """The run is to stop: cancelled (``cancelled``), or its server is gone (resumes later)."""

    def __init__(self, cancelled: bool) -> None:
        super().__init__("cancelled" if cancelled else "the server stopped")
        self.cancelled = cancelled


class Progress:
    """Games done, live win rates and the heartbeat of one run. The heartbeat is a thread
    of its own, every :data:`BEAT` seconds however long a batch of games takes; when it
    learns that the run is cancelled or the server is gone, it interrupts the run's main
    thread (a signal: :meth:`check` raises :class:`Stop` there)."""

    def __init__(self, store: LabStore, run_id: str, owner: str, spec: RunSpec) -> None:
        self.store = store
        self.run_id = run_id
        self.owner = owner
        self.spec = spec
        self.parent = os.getppid()
        self.done = 0
        self.played = 0
        self.started = time.time()
        self.label = ""
        self.phase = ""
        #: per job label: per faction (or seat) the shares won, game by game
        self.returns: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        self.extra: dict[str, Any] = {}
        self.lock = threading.Lock()
        #: why the run is to stop, once the heartbeat learnt it
        self.stopping: Stop | None = None
        self.beating = threading.Event()

    def start(self) -> None:
        """Beat now, then every :data:`BEAT` seconds until :meth:`stop`."""
        signal.signal(signal.SIGUSR1, lambda signum, frame: self.check())
        self.beat(started=True)
        self.beating.set()
        threading.Thread(target=self._beating, name="heartbeat", daemon=True).start()

    def stop(self) -> None:
        self.beating.clear()

    def _beating(self) -> None:
        while self.beating.is_set():
            time.sleep(BEAT)
            if not self.beating.is_set():
                return
            try:
                self.beat()
            except Exception:  # the database away for a moment: the next beat tries again
                log.warning("lab run %s: a heartbeat failed", self.run_id, exc_info=True)

    def check(self) -> None:
        """:class:`Stop` if the run is to stop (called between batches, and by the signal)."""
        if self.stopping is not None and self.beating.is_set():
            raise self.stopping

    def job(self, label: str) -> None:
        self.label = label

    def stored(self, already: int, to_play: int) -> None:
        with self.lock:
            self.done += already

    def advance(self, games: int) -> None:
        with self.lock:
            self.done += games
            self.played += games
        self.check()

    def watch(self, rows: list[dict[str, Any]]) -> None:
        """Count each game's shares won, by faction (where the game has them) or by seat;
        a rung with one candidate seat counts the candidate's only."""
        label = self.label
        rung = Rung.parse(label.split(" ")[0]) if self.spec.kind == "compare" else None
        with self.lock:
            for r in rows:
                seats: Sequence[int] = range(r["players"])
                if rung is not None and rung.mixed:
                    seats = [candidate_seat(r, rung)]
                factions = list(r.get("factions") or [])
                for p in seats:
                    key = factions[p] if factions else seat(p)
                    self.returns[label][key].append(float(r["returns"][p]))

    def figures(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "jobs": {label: runs.live_figures(by) for label, by in self.returns.items()},
            "rate": self.played / max(time.time() - self.started, 1e-9),
            **self.extra,
        }

    def beat(self, started: bool = False) -> None:
        """The heartbeat and the progress in the run's row; a cancel asked for, or the server
        that started this worker gone, is the run's stop (the main thread is interrupted)."""
        with self.lock:
            done, played, figures = self.done, self.played, self.figures()
        when = self.started if started else None
        cancelled = self.store.beat(self.run_id, self.owner, done, played, figures, when)
        if self.stopping is None and (cancelled or os.getppid() != self.parent):
            self.stopping = Stop(cancelled=cancelled)
            os.kill(os.getpid(), signal.SIGUSR1)
