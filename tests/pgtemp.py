"""A throwaway PostgreSQL server from the machine's binaries (``initdb``, ``pg_ctl``), in a
temporary folder, on a free port of 127.0.0.1: for the tests and ``make bench-web``.

PostgreSQL refuses to run as root: as root, the server runs as the ``postgres`` user (or
``nobody``) in a folder given to it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reaper import Reaper


def missing() -> str | None:
    """Why no PostgreSQL server can be started here (None when one can)."""
    for tool in ("initdb", "pg_ctl"):
        if shutil.which(tool) is None:
            return f"the PostgreSQL binary {tool} is not on PATH"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_user() -> tuple[list[str], str | None]:
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], name
    raise RuntimeError("running as root and there is no user to run PostgreSQL as")


@contextmanager
def postgres(fsync: bool = True) -> Iterator[str]:
    """Start a server; yield its SQLAlchemy URL; stop it and delete everything."""
    reason = missing()
    if reason:
        raise RuntimeError(reason)
    folder = Path(tempfile.mkdtemp(prefix="rulebook-pg-"))
    prefix, user = _as_user()
    if user is not None:
        shutil.chown(folder, user)
    data = folder / "data"
    port = free_port()

    reaper: Reaper | None = None

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    try:
        run("initdb", "-D", str(data), "-U", "rulebook", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder}"
        if not fsync:
            options += " -c fsync=off -c synchronous_commit=off"
        stop = ["pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop"]
        reaper = Reaper(command=[*prefix, *stop], folder=str(folder))  # should the tests die first
        run("pg_ctl", "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
        try:
            yield f"postgresql://rulebook@127.0.0.1:{port}/postgres"
        finally:
            run(*stop)
    finally:
        if reaper is not None:
            reaper.done()
        shutil.rmtree(folder, ignore_errors=True)
