"""``benchmarks/web_views.py``: what a finished game holds (``--memory``) is measured, the payloads
on top of the state and log; bad arguments are refused before anything runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import web_views


def test_a_finished_game_holds_its_state_and_its_watchers_payloads() -> None:
    figures = web_views.held(1)
    assert set(figures) == set(web_views.GAMES)
    for sizes in figures.values():
        # a finished game's log and the three payloads (every move told three times) are
        # tens of KiB at least; nothing measured can be negative
        assert sizes["state"][0] > 20 and sizes["payloads"][0] > 20, sizes


@pytest.mark.parametrize("argv", [["--seeds", "0"], ["--repeat", "0"], ["--baseline-src", "/no"]])
def test_bad_arguments_are_refused_before_anything_runs(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        web_views.main(argv)
    assert exited.value.code == 2
    assert "web_views" not in capsys.readouterr().out
