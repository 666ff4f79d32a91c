"""The compiled hot modules (``rulebook.compiled``, issues 15 and 26): the default wherever they
are current, the same games and the same errors as pure Python, never used once a source
changed since they were compiled, and one line saying so when the command line falls back."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

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


def _child(code: str, argument: object, env: dict[str, str]) -> dict[str, Any]:
    """What the Python ``code`` prints (JSON), run with ``argument`` as JSON in ``env``."""
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(argument)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _play(pure: bool) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop(compiled.ENV, None)  # the default: compiled when current
    if pure:
        env[compiled.ENV] = "0"
    found: dict[str, object] = _child(PLAY, PLAYED, env)
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


def test_pure_python_when_asked_for_or_when_not_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULEBOOK_COMPILED=0 runs pure Python, saying nothing; without it, a build that is not
    current leaves pure Python with the reason in :data:`compiled.fallback`."""
    _fake_build(tmp_path, monkeypatch)
    before = list(sys.meta_path)
    monkeypatch.setattr(compiled, "active", False)
    monkeypatch.setattr(compiled, "fallback", "")
    monkeypatch.setattr(
        sys, "meta_path", [f for f in before if not isinstance(f, compiled._Finder)]
    )
    monkeypatch.setenv(compiled.ENV, "0")
    assert compiled.install() is False and compiled.fallback == ""
    finder = sys.meta_path[0]
    assert isinstance(finder, compiled._Finder) and finder.files is None  # .py, guarded
    monkeypatch.setattr(
        sys, "meta_path", [f for f in before if not isinstance(f, compiled._Finder)]
    )
    monkeypatch.delenv(compiled.ENV)
    compiled.STAMP.write_text("{}", encoding="utf-8")  # another build's stamp
    assert compiled.install() is False
    assert compiled.fallback == "the compiled modules were built for another Python"
    compiled.STAMP.unlink()
    assert compiled.why_not() == "the compiled modules are not built yet"


PLAIN_SIMULATE = """
import json, sys
from rulebook.cli import app
try:
    args = "simulate archmagi -p 2 -n 4 --agents greedy,mcts:5 --workers 2"
    app(args.split())
except SystemExit:
    pass
import rulebook.compiled as c
print(json.dumps({m: sys.modules[m].__file__ for m in c.MODULES if m in sys.modules}))
"""


def _simulate(env_value: str | None) -> tuple[dict[str, str], str, list[str]]:
    """The hot modules a plain ``rulebook simulate`` loaded, its stderr, and its table."""
    env = dict(os.environ)
    env.pop(compiled.ENV, None)
    if env_value is not None:
        env[compiled.ENV] = env_value
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_SIMULATE], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    loaded: dict[str, str] = json.loads(lines[-1])
    table = [line for line in lines[:-1] if "━" not in line and "played in" not in line]
    return loaded, done.stderr, table


def test_a_plain_simulate_runs_the_compiled_modules() -> None:
    """Issue 26: ``rulebook simulate`` without any variable runs compiled: every hot module it
    loads (Archmagi's rules, evaluation and lookahead, the policies, mcts...) is the compiled
    file, and its games on a pool of worker processes are the pure Python ones;
    RULEBOOK_COMPILED=0 loads the .py files, and neither says anything on stderr."""
    if compiled._built() is None:
        pytest.skip("the compiled modules are not built or not current (make compiled)")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    loaded, said, table = _simulate(None)
    wanted = {
        "rulebook.archmagi.rules",
        "rulebook.archmagi.bots",
        "rulebook.archmagi.lookahead",
        "rulebook.archmagi.symbols",
        "rulebook.core.policy",
        "rulebook.core.draws",
        "rulebook.core.action",
        "rulebook.agents.mcts",
    }
    assert wanted <= set(loaded)
    assert all(f.endswith(suffix) for f in loaded.values()), loaded
    assert "pure Python" not in said
    pure, said, pure_table = _simulate("0")
    assert set(pure) == set(loaded) and all(f.endswith(".py") for f in pure.values())
    assert said == ""
    assert table == pure_table and any("mcts:5" in line for line in table)


def test_the_command_line_says_in_one_line_when_it_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from rulebook.cli import app

    monkeypatch.setattr(compiled, "active", False)
    monkeypatch.setattr(compiled, "fallback", compiled.why_not.__doc__ and "sources changed")
    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("rulebook: running pure Python, several times slower: sources")
    assert "RULEBOOK_COMPILED=0 runs pure Python without this line" in result.stderr
    # never built: built in the background on first use, or said why it cannot be
    monkeypatch.setattr(compiled, "fallback", "the compiled modules are not built yet")
    started: list[bool] = []
    monkeypatch.setattr(compiled, "cannot_build", lambda: "")
    monkeypatch.setattr(
        compiled, "build_in_background", lambda: started.append(True) or "building (log: x)"
    )
    first = CliRunner().invoke(app, ["list"])
    assert started == [True] and "not built yet; building (log: x)" in first.stderr
    monkeypatch.setattr(compiled, "cannot_build", lambda: "mypyc is not installed")
    refused = CliRunner().invoke(app, ["list"])
    assert "not built yet, and cannot be here: mypyc is not installed" in refused.stderr
    assert started == [True] and refused.stderr.count("\n") == 1
    monkeypatch.setattr(compiled, "fallback", "")
    assert CliRunner().invoke(app, ["list"]).stderr == ""


ERRORS = """
import json, random, sys
import numpy
import rulebook
from rulebook.core import IllegalAction
out = {"active": rulebook.compiled.active, "calls": {}}
for game, n, variant in json.loads(sys.argv[1]):
    s = rulebook.new_game(game, players=n, seed=1, variant=variant)
    p = s.current_players()[0]
    a = s.legal_actions(p)[0]
    for bad in (7, -1, "0", 1.5, None, True):
        for name, call in [
            ("legal_actions", lambda b: s.legal_actions(b)),
            ("apply", lambda b: s.clone().apply(b, a)),
            ("observation", lambda b: s.observation(b)),
            ("parse_action", lambda b: s.parse_action(b, str(a))),
            ("explain", lambda b: s.explain(b, a)),
            ("determinize", lambda b: s.determinize(b, random.Random(0))),
            ("lookahead", lambda b: s.lookahead(b, [a], s.game.evaluate)),
        ]:
            try:
                call(bad)
                found = "ok"
            except Exception as exc:
                found = type(exc).__name__
            out["calls"][f"{game}/{n}: {name}({bad!r})"] = found
    numpy_seat = [str(m) for m in s.legal_actions(numpy.int64(p))]
    out["calls"][f"{game}/{n}: numpy seat"] = numpy_seat == [str(m) for m in s.legal_actions(p)]
print(json.dumps(out))
"""


def test_compiled_and_pure_python_refuse_bad_seats_alike() -> None:
    """Issue 26: compiled functions check their arguments' types at the call (a seat given as
    text raised TypeError); guarded, every game refuses a seat that is no seat number with
    IllegalAction in both builds, out-of-range seats included, and takes a numpy integer."""
    if compiled._built() is None:
        pytest.skip("the compiled modules are not built or not current (make compiled)")
    played = [
        ("merchants-of-magick", 2, None),
        ("merchants-of-magick", 1, "solo"),
        ("ye-olde-magick-shoppe", 2, None),
        ("archmagi", 2, None),
        ("battle-merchants", 2, None),
        ("pandoria-merchants", 2, "family"),
        ("pandoria-merchants", 1, "solo"),
    ]
    found = {}
    for value in ("1", "0"):
        found[value] = _child(ERRORS, played, {**os.environ, compiled.ENV: value})
    assert found["1"]["active"] and not found["0"]["active"]
    assert found["1"]["calls"] == found["0"]["calls"]
    calls = found["1"]["calls"]
    for (game, n, _), bad in itertools.product(played, ("7", "'0'", "1.5", "None", "True")):
        for name in (
            "legal_actions",
            "apply",
            "observation",
            "parse_action",
            "explain",
            "determinize",
        ):
            assert calls[f"{game}/{n}: {name}({bad})"] == "IllegalAction", (game, name, bad)
        assert calls[f"{game}/{n}: numpy seat"] is True
