"""``rulebook serve`` under cProfile, for ``web_load.py --profile``: the profile is written to
the file named first when the server stops (SIGTERM or Ctrl-C). With ``PROFILE_TIMER=cpu`` in
the environment it times the process's CPU (``time.process_time``) rather than the wall clock:
on a busy machine a call that wakes another process (a socket's write) is then not charged with
the time the kernel ran that process instead.

Usage::

    python benchmarks/profiled_serve.py OUT.prof serve --port 8000 --db sqlite:///x.sqlite3
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time
from types import FrameType

from rulebook.cli import app


def _stop(signum: int, frame: FrameType | None) -> None:
    # uvicorn hands a signal it caught back to the handler it found once it has shut down
    raise SystemExit(0)


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    signal.signal(signal.SIGTERM, _stop)
    cpu = os.environ.get("PROFILE_TIMER") == "cpu"
    profiler = cProfile.Profile(time.process_time) if cpu else cProfile.Profile()
    profiler.enable()
    try:
        app(args, prog_name="rulebook")
    except SystemExit:
        pass
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    main()
