"""The compiled hot modules (``rulebook.compiled``, issue 15): the same games as pure Python,
and never used once a source changed since they were compiled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import rulebook.compiled as compiled

#: (game, players, variant, agents of every seat) played seed by seed in both builds
PLAYED = [
    ("merchants-of-magick", 4, "standard", ["mcts:40", "greedy", "greedy", "random"]),
    ("merchants-of-magick", 1, "solo", ["mcts:40"]),
    ("ye-olde-magick-shoppe", 4, "standard", ["greedy", "mcts:40", "random", "greedy"]),
    ("ye-olde-magick-shoppe", 1, "solo", ["greedy"]),
    ("archmagi", 3, "standard", ["greedy", "mcts:20", "random"]),
    ("battle-merchants", 2, "standard", ["greedy", "mcts:20"]),
    ("battle-merchants", 4, "standard", ["greedy", "mcts:20", "random", "greedy"]),
    ("pandoria-merchants", 1, "solo", ["greedy"]),
    ("pandoria-merchants", 3, "standard", ["mcts:20", "greedy", "random"]),
    ("pandoria-merchants", 2, "family", ["greedy", "mcts:20"]),
]

PLAY = """
import json, pickle, sys
import rulebook, rulebook.compiled
from rulebook.agents import agent_seed, make_agent
from rulebook.core.rollwrite import engine
from rulebook.battle_merchants import rules as battle
from rulebook.simulate import play

out = {"active": rulebook.compiled.active, "engine": engine.__file__, "games": []}
out["battle"] = battle.__file__
out["pickled"] = all(pickle.loads(pickle.dumps(a)) == a for a in battle.moves(4).vocabulary)
for game, players, variant, specs in json.loads(sys.argv[1]):
    for seed in range(2):
        state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
        play(state, [make_agent(s, agent_seed(seed, p)) for p, s in enumerate(specs)])
        out["games"].append([[p, str(a)] for p, a in state.history] + [state.scores()])
print(json.dumps(out))
"""


def _play(pure: bool) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop(compiled.ENV, None)
    if not pure:
        env[compiled.ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY, json.dumps(PLAYED)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_compiled_and_pure_python_play_the_same_games() -> None:
    if compiled._built() is None:
        pytest.skip("the compiled modules are not built or not current (make compiled)")
    fast = _play(pure=False)
    slow = _play(pure=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert fast["active"] is True and str(fast["engine"]).endswith(suffix)
    assert str(fast["battle"]).endswith(suffix) and str(slow["battle"]).endswith(".py")
    assert fast["pickled"] is True and slow["pickled"] is True  # moves go to worker processes
    assert slow["active"] is False and str(slow["engine"]).endswith(".py")
    assert fast["games"] == slow["games"]


def _fake_build(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build directory whose stamp matches the sources now, with stand-in files."""
    build = tmp / "build"
    files = {}
    for module in compiled.MODULES:
        file = build / (module.replace(".", "/") + ".so")
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(b"")
        files[module] = str(file.relative_to(build))
    monkeypatch.setattr(compiled, "BUILD", build)
    monkeypatch.setattr(compiled, "STAMP", build / "stamp.json")
    stamp = {"fingerprint": compiled.fingerprint(), "files": files}
    (build / "stamp.json").write_text(json.dumps(stamp), encoding="utf-8")


def test_compiled_files_stand_in_only_for_unchanged_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, monkeypatch)
    assert compiled._built() is not None
    # a source edited since the build: nothing compiled is used
    edited = tmp_path / "engine.py"
    original = compiled.source
    text = original("rulebook.core.rollwrite.engine").read_text(encoding="utf-8")
    edited.write_text(text + "\n# edited\n", encoding="utf-8")
    monkeypatch.setattr(
        compiled,
        "source",
        lambda m: edited if m == "rulebook.core.rollwrite.engine" else original(m),
    )
    assert compiled._built() is None
    monkeypatch.setattr(compiled, "source", original)
    assert compiled._built() is not None
    # a compiled file missing, or a stamp unreadable: nothing compiled is used
    (compiled.BUILD / "rulebook" / "core" / "sheet.so").unlink()
    assert compiled._built() is None
    compiled.STAMP.write_text("{not json", encoding="utf-8")
    assert compiled._built() is None


def test_python_runs_unless_the_compiled_modules_are_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, monkeypatch)
    monkeypatch.setattr(compiled, "active", False)
    before = list(sys.meta_path)
    for value in (None, "0", "yes"):
        if value is None:
            monkeypatch.delenv(compiled.ENV, raising=False)
        else:
            monkeypatch.setenv(compiled.ENV, value)
        assert compiled.install() is False
        assert sys.meta_path == before
