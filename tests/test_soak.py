"""``benchmarks/soak.py`` (``make soak``) on a short run: 20 games for two minutes over two
server processes on a throwaway PostgreSQL, one killed with ``kill -9`` about every 40 s. The
run must pass its own checks (no acknowledged move lost, no game stuck, served after each
kill, no traceback, memory, tasks, file descriptors and database connections not growing),
and its report must say so in markdown."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pgtemp import missing

SOAK = Path(__file__).resolve().parent.parent / "benchmarks" / "soak.py"


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
def test_a_two_minute_soak_passes(tmp_path: Path) -> None:
    report = tmp_path / "soak.md"
    command = [sys.executable, str(SOAK), "--games", "20", "--minutes", "2"]
    command += ["--kill-every", "40s", "--warmup", "20", "--sample-every", "5"]
    command += ["--cache-games", "10"]  # full at once: memory judged 20 s after
    command += ["--markdown", str(report), "--keep", str(tmp_path / "logs")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    text = report.read_text()
    assert "**PASS**" in text
    assert "| no acknowledged move lost | pass |" in text
    assert "FAIL" not in text
    # a judged process's memory along its life, with its games in memory: "273 (10) at 25 s"
    judged = [line for line in text.splitlines() if line.startswith("| ") and " MiB at " in line]
    assert judged and all(re.search(r"\| \d+ \(\d+\) at \d+ s", line) for line in judged)
    kills = [line for line in done.stdout.splitlines() if "kill -9 of server process" in line]
    assert len(kills) >= 2  # about every 40 s, none in the last 10 s
