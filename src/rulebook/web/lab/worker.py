"""A lab run played by a process of its own: ``python -m rulebook.web.lab.worker``.

The server starts one per run it claimed (:mod:`rulebook.web.lab.supervisor`), at a lower CPU
priority than itself (``nice``), so that the games on the server keep their pace while the
run takes every core. The worker plays the run's jobs with the CLI's own runner
(:func:`rulebook.lab.runner.execute`, processes on all cores, or Ray), keeps a heartbeat and
its progress in the run's row (games done, win rates so far: :mod:`rulebook.web.lab.progress`),
stops when asked to (a cancel, the server stopping: it notices its parent gone), and writes the
figures, the plots and the report of a finished run. Its games are stored as the run goes: a run
stopped for any reason resumes from them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulebook.core import RulebookError
from rulebook.lab import runs
from rulebook.lab.runner import execute
from rulebook.lab.runs import RunSpec
from rulebook.web.lab.progress import Progress, Stop
from rulebook.web.lab.store import CANCELLED, DONE, FAILED, QUEUED, LabStore

#: how much lower the worker's CPU priority is than the server's (``nice`` increment)
NICE = 15


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
