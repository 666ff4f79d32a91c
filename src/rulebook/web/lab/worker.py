"""A lab run played by a process of its own: ``python -m rulebook.web.lab.worker``.

The server starts one per run it claimed (:mod:`rulebook.web.lab.supervisor`), at a lower CPU
priority than itself (``nice``), so that the games on the server keep their pace while the
run takes every core. The worker plays the run's jobs with the CLI's own runner
(:func:`rulebook.lab.runner.execute`, processes on all cores, or Ray), keeps a heartbeat and
its progress in the run's row (games done, win rates so far), stops when asked to (a cancel,
the server stopping: it notices its parent gone), and writes the figures, the plots and the
report of a finished run. Its games are stored as the run goes: a run stopped for any reason
resumes from them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulebook.core import RulebookError
from rulebook.core.words import seat
from rulebook.lab import runs
from rulebook.lab.ladder import Rung, candidate_seat
from rulebook.lab.runner import execute
from rulebook.lab.runs import RunSpec
from rulebook.web.lab.store import CANCELLED, DONE, FAILED, QUEUED, LabStore

log = logging.getLogger("rulebook.web.lab")

#: how much lower the worker's CPU priority is than the server's (``nice`` increment)
NICE = 15
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


def play(
    spec: RunSpec, folder: Path, progress: Progress, workers: int, ray: str | None
) -> dict[str, Any]:
    """Play the run's games into ``folder``; its figures."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for label, job, path in spec.jobs(folder):
        progress.job(label)
        progress.phase = f"playing: {label}"
        path.parent.mkdir(parents=True, exist_ok=True)
        rows[label] = execute(
            job,
            path,
            workers,
            ray is not None,
            ray,
            progress.advance,
            progress.stored,
            progress.watch,
        )
    progress.phase = "drawing the figures"
    found = runs.figures(spec, rows)
    from rulebook.web.lab.plots import draw

    draw(spec, rows, folder)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulebook.web.lab.worker")
    parser.add_argument("--db", required=True)
    parser.add_argument("--folder", required=True, type=Path)
    parser.add_argument("--run", required=True)
    parser.add_argument("--owner", required=True)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ray", default=None)
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):  # a priority that cannot be lowered: as it is
        os.nice(NICE)

    def stopping(signum: int, frame: object) -> None:
        """The server stops (SIGTERM): the run goes back to the queue, its games kept (the
        run's pool processes stop at SIGTERM whatever this process does of it)."""
        raise Stop(cancelled=False)

    signal.signal(signal.SIGTERM, stopping)
    from rulebook.web.store import open_engine

    store = LabStore(open_engine(args.db))
    run = store.run(args.run)
    if run is None or run.owner != args.owner:
        return 0
    spec = RunSpec.from_dict(run.spec)
    folder = args.folder / run.id
    progress = Progress(store, run.id, args.owner, spec)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_inputs(spec, folder)
        progress.start()
        try:
            proposed = ""
            if spec.kind == "tune":
                from rulebook.web.lab.tuning import tune_run

                found, proposed = tune_run(
                    spec, folder, progress, args.workers, args.ray, store, run
                )
            else:
                found = play(spec, folder, progress, args.workers, args.ray)
        finally:
            progress.stop()
        store.finish(run.id, args.owner, DONE, found, proposed_id=proposed)
    except Stop as stop:
        if stop.cancelled:
            store.finish(
                run.id, args.owner, CANCELLED, error="cancelled: the games played so far are kept"
            )
        else:  # the server went away: the run waits for it, and resumes
            store.finish(run.id, args.owner, QUEUED, error="")
    except KeyboardInterrupt:
        store.finish(run.id, args.owner, QUEUED, error="")
    except (RulebookError, ValueError, OSError) as exc:
        store.finish(
            run.id,
            args.owner,
            FAILED,
            error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
        )
    except Exception:  # a bug: its trace in the run's folder, one line in the page
        trace = traceback.format_exc()
        with contextlib.suppress(OSError):
            (folder / "error.txt").write_text(trace, encoding="utf-8")
        store.finish(
            run.id, args.owner, FAILED, error=f"internal error (its trace: {folder / 'error.txt'})"
        )
    return 0


def write_inputs(spec: RunSpec, folder: Path) -> None:
    """The files the run's commands read: the what-if's TOML, the knob file."""
    from rulebook.lab.data_form import override_toml

    if spec.whatif:
        (folder / runs.WHATIF_FILE).write_text(override_toml(dict(spec.whatif)), encoding="utf-8")
    (folder / "run.json").write_text(json.dumps(spec.to_dict(), indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
