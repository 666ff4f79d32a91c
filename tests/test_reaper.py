"""A test process killed without its teardown (a timeout, SIGKILL) leaves nothing running:
the ``rulebook serve`` it started and its throwaway PostgreSQL server end with it, and the
server's folder is deleted (:mod:`reaper`)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pgtemp import missing

TESTS = Path(__file__).resolve().parent

SCRIPT = """
import sys, time
sys.path.insert(0, {tests!r})
from pathlib import Path
from pgtemp import postgres
from webserver import Server

folder = Path({folder!r})
server = Server(f"sqlite:///{{folder / 'games.sqlite3'}}", folder / "server.log").start()
with postgres(fsync=False) as url:
    print(server.process.pid, url, flush=True)
    time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (ended, not yet reaped by its parent) is not running
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return state != "Z"


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.skipif(missing() is not None, reason=f"no PostgreSQL here: {missing()}")
def test_a_killed_test_process_leaves_no_server_behind(tmp_path: Path) -> None:
    script = SCRIPT.format(tests=str(TESTS), folder=str(tmp_path))
    test = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert test.stdout is not None
    line = test.stdout.readline().split()
    assert len(line) == 2, line
    pid, url = int(line[0]), line[1]
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    assert alive(pid) and listening(port)
    test.kill()  # no teardown runs
    test.wait(10)
    end = time.monotonic() + 60
    while (alive(pid) or listening(port)) and time.monotonic() < end:
        time.sleep(0.2)
    assert not alive(pid), "the web server outlived the test process"
    assert not listening(port), "PostgreSQL outlived the test process"
