"""What a test started ends with the test process, even one killed without its teardown (a
timeout, SIGKILL, a closed terminal): a small watcher process holds a pipe from the test
process and, when it reads the pipe's end without having been told the test is done, ends
what it watches (a server's process group, a PostgreSQL server) and deletes its folder."""

from __future__ import annotations

import json
import subprocess
import sys

WATCHER = r"""
import json, os, shutil, signal, subprocess, sys, time
what = json.loads(sys.argv[1])
told = sys.stdin.buffer.read()  # returns when the test process closes the pipe or dies
if told == b"done":
    sys.exit(0)
group = what.get("group")
if group:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            break
        time.sleep(5)
if what.get("command"):
    subprocess.run(what["command"], capture_output=True, timeout=60)
if what.get("folder"):
    shutil.rmtree(what["folder"], ignore_errors=True)
"""


class Reaper:
    """Watches a process group (``group``), runs ``command``, deletes ``folder`` if the test
    process ends before :meth:`done`."""

    def __init__(
        self, group: int | None = None, command: list[str] | None = None, folder: str = ""
    ) -> None:
        what = {"group": group, "command": command, "folder": folder}
        self.process = subprocess.Popen(
            [sys.executable, "-c", WATCHER, json.dumps(what)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C to the tests' group leaves it watching
        )

    def done(self) -> None:
        """The test ended what it started itself: the watcher leaves."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.write(b"done")
            self.process.stdin.close()
        self.process.wait(10)
