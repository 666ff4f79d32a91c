"""Running a job's games on Ray: a local instance, or a cluster reached at its address.

Ray is the optional extra ``pip install rulebook[ray]``. What is done here beyond handing
batches to Ray: an address where nothing answers fails in seconds with one line
(:func:`check_ray_address`); Ray's own log lines stay off the screen; Ctrl-C while Ray starts
is held until it is up, so that ``ray.shutdown`` can stop what it started, and processes Ray
left behind all the same (its agents, when stopped early) are stopped.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from rulebook.core import RulebookError
from rulebook.lab.jobs import Job, batches, play_batch


@contextmanager
def ray_instance(workers: int, address: str | None) -> Iterator[None]:
    """Ray for the block: the cluster at ``address``, or a local instance of ``workers`` CPUs;
    shut down at the end if this call started it (a caller that already started Ray keeps it,
    so a tuning run starts Ray once for all its simulations)."""
    import ray  # the optional extra: pip install rulebook[ray]

    started = not ray.is_initialized()
    try:  # shut down what was started even when interrupted while Ray starts (Ctrl-C)
        if started:
            with _ctrl_c_held():
                _start_ray(ray, workers, address)
        yield
    finally:
        if started:
            ours = _descendants() if address is None else {}
            ray.shutdown()
            _stop_leftovers(ours)


def run_ray(
    job: Job, indices: Sequence[int], workers: int, address: str | None
) -> Iterator[list[dict[str, Any]]]:
    """Play the games on Ray: the cluster at ``address``, or a local instance of ``workers``
    CPUs. Each task installs the job's data override in its worker first."""
    import ray

    with ray_instance(workers, address):
        remote = ray.remote(play_batch)
        pending = [remote.remote(job, chunk) for chunk in batches(indices, workers)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                rows: list[dict[str, Any]] = ray.get(ref)
                yield rows


#: seconds given to processes Ray left behind to stop on SIGTERM before they are killed
LEFTOVER_GRACE = 2.0


def _started_at(pid: int) -> str | None:
    """A process's start time (field 22 of /proc/PID/stat), or None if it is gone: with the
    pid, it names one process even if the pid is later reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 and fields[0] != "Z" else None


def _descendants() -> dict[int, str]:
    """Every process started by this one, directly or not, with its start time (Linux: from
    /proc; elsewhere none are known)."""
    children: dict[int, list[int]] = {}
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[-1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            started = _started_at(child)
            if started is not None and child not in found:
                found[child] = started
                todo.append(child)
    return found


def _stop_leftovers(processes: dict[int, str]) -> None:
    """Stop the processes of ``processes`` still running (the same process: same start time)
    after ``ray.shutdown``: SIGTERM, then SIGKILL after :data:`LEFTOVER_GRACE` seconds.
    Stopped while starting, Ray's raylet leaves its agents running; nothing else does."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        alive = [pid for pid, t in processes.items() if _started_at(pid) == t]
        if not alive:
            return
        if sig == signal.SIGKILL:
            deadline = time.monotonic() + LEFTOVER_GRACE
            while alive and time.monotonic() < deadline:
                time.sleep(0.1)
                alive = [pid for pid in alive if _started_at(pid) == processes[pid]]
        for pid in alive:
            with suppress(OSError):  # gone meanwhile
                os.kill(pid, sig)


#: Ray's own log lines (a token warning, "Started a local Ray instance") are not shown: the
#: progress bar says what happens, and errors still come as exceptions
RAY_LOGGING = logging.ERROR
#: seconds to wait for a Ray cluster's address to answer before giving up
CONNECT_SECONDS = 3.0
#: how long Ray tries to reach a cluster's GCS (about one try a second; read at each connect)
WAIT_VARIABLE = "RAY_gcs_server_port_wait_time_s"


#: a Ray cluster (its GCS, or Ray Client) speaks gRPC over HTTP/2: to the client's connection
#: preface and empty SETTINGS frame, a server answers with a SETTINGS frame of its own
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
HTTP2_SETTINGS = 0x04


class ClusterError(RulebookError):
    """A Ray cluster that cannot be reached at the address given."""


def check_ray_address(address: str) -> None:
    """Fail fast when no Ray cluster answers at ``HOST:PORT`` (``ray://HOST:PORT`` for Ray
    Client): nothing listens, or what listens does not speak HTTP/2 (gRPC) within
    :data:`CONNECT_SECONDS`. ``ray.init`` would otherwise retry for a minute or more (30 s a
    try when something listens that is not Ray). ``auto`` and ``local`` are left to Ray."""
    if address in ("auto", "local"):
        return
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit():
        raise ClusterError(f"--ray-address takes HOST:PORT (e.g. 10.0.0.5:6379), not {address!r}")
    answer = b""
    try:
        conn = socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS)
    except ConnectionResetError:
        pass  # accepted, then reset before the connect returned: something that is not Ray
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ClusterError(f"no Ray cluster answers at {address} ({reason})") from None
    else:
        with conn:
            try:  # something accepted the connection: a reset or silence means it is not Ray
                conn.sendall(HTTP2_PREFACE)
                answer = conn.recv(9)
            except OSError:
                pass
    if len(answer) < 9 or answer[3] != HTTP2_SETTINGS:
        raise ClusterError(
            f"no Ray cluster answers at {address} (something listens there, but not Ray)"
        )


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while Ray starts its processes: a KeyboardInterrupt then comes once
    Ray is up (stopped mid-start, ``ray.shutdown`` does not know a node that never finished
    starting, and its processes would keep running). Ray's own processes block SIGINT."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


@contextmanager
def _stderr_captured() -> Iterator[list[str]]:
    """Keep what is written to the process's stderr (file descriptor 2, where Ray's C++ code
    logs) off the screen; the list holds its lines once the block ends."""
    lines: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text = sink.read().decode("utf-8", "replace")
            lines.extend(line for line in text.splitlines() if line.strip())


def _start_ray(ray: Any, workers: int, address: str | None) -> None:
    """Join the cluster at ``address``, or start a local instance of ``workers`` CPUs."""
    if address:
        check_ray_address(address)
        # something answers there: give Ray a few seconds to find a cluster, not 20 or more
        wait = os.environ.get(WAIT_VARIABLE)
        os.environ[WAIT_VARIABLE] = str(int(CONNECT_SECONDS))
        try:
            with _stderr_captured() as said:  # Ray's C++ client warns once a second
                ray.init(address=address, log_to_driver=False, logging_level=RAY_LOGGING)
        except (ConnectionError, RuntimeError) as exc:
            ray.shutdown()
            last = said[-1].split("] ", 1)[-1].split(": ", 1)[-1] if said else ""
            reason = last or str(exc).splitlines()[0]
            raise ClusterError(f"no Ray cluster answers at {address} ({reason})") from None
        finally:
            if wait is None:
                os.environ.pop(WAIT_VARIABLE, None)
            else:
                os.environ[WAIT_VARIABLE] = wait
        return
    # Ray nices its workers by default; a local run should get the CPU like processes
    os.environ.setdefault("RAY_worker_niceness", "0")
    local = {"num_cpus": workers, "include_dashboard": False, "log_to_driver": False}
    try:
        ray.init(**local, logging_level=RAY_LOGGING)
    except Exception as exc:  # Ray gives its raylet 30 s to start: once more if busy
        if "timed out during startup" not in str(exc):
            raise
        ray.shutdown()
        ray.init(**local, logging_level=RAY_LOGGING)
