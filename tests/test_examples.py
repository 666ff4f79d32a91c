"""Every example in ``examples/`` runs, in a tiny version (the docs give their full runs); the
agents of the move protocol (``agent_*``) are played through ``cmd:`` in
tests/test_protocol_programs.py."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: each example with arguments that make it a few seconds long
TINY = {
    "pettingzoo_random": ["--players", "3"],
    "gymnasium_opponents": ["--episodes", "2", "--envs", "4"],
    "gymnasium_reinforce": ["--episodes", "6", "--eval", "2"],
    "openspiel_mcts": ["--games", "1", "--simulations", "3"],
    "openspiel_ismcts": ["--games", "1", "--simulations", "3"],
    "behaviour_cloning": ["--games", "6", "--eval", "2", "--epochs", "2", "--workers", "1"],
    "arena_small": ["--agents", "random,greedy", "--tables", "1", "--resamples", "10",
                    "--workers", "1", "--out", tempfile.mkdtemp(prefix="rulebook-arena-")],
}  # fmt: skip


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_example_is_tried() -> None:
    scripts = [p.stem for p in EXAMPLES.glob("*.py") if not p.stem.startswith("agent_")]
    assert sorted(TINY) == sorted(scripts)


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_example_runs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = _load(name).main(TINY[name])
    assert result in (0, None) or isinstance(result, dict)
    assert capsys.readouterr().out.strip()
