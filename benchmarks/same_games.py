"""Do the working tree's bots play exactly the baseline's games? Move logs compared seed by seed.

Usage::

    python benchmarks/same_games.py [--baseline REV] [--seeds 3] [--game NAME]
                                    [--agents random,greedy,mcts:100]

For every configuration of :mod:`speed` (each game at 4 players, Pandoria Merchants solo), every
agent spec and seeds ``0 .. --seeds - 1``, plays one seeded game with the working tree's
``src`` and one with the baseline commit's (exported with ``git archive``), each in a child
process, and compares their action logs move by move. ``random`` and ``greedy`` play every
seat; an ``mcts`` spec plays seat ``seed % players`` against greedy bots. Prints one line per
configuration and agent, the first differing move of any game that differs, and exits with 1 if
any game differs. Speed work that keeps every seeded game identical needs no strength test.

A game whose data files (``src/rulebook/<game>/data/*.toml``) differ from the baseline's is
skipped with a note: its games are expected to differ (rebalanced content plays other games),
so comparing them says nothing about the engine. Compare such a game against a later baseline
(``--baseline REV``, a commit with the same data).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import BASELINE, CONFIGS, ROOT, export

DEFAULT_AGENTS = "random,greedy,mcts:100"


def play_logs(game: str, players: int, variant: str, spec: str, seeds: int) -> list[list[str]]:
    """The action logs (``"seat action"`` lines) of seeds ``0 .. seeds - 1`` (in a child)."""
    import rulebook
    from rulebook.agents import agent_seed, make_agent
    from rulebook.simulate import play

    logs = []
    for seed in range(seeds):
        state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
        if spec.startswith("mcts"):
            specs = ["greedy"] * players
            specs[seed % players] = spec
        else:
            specs = [spec] * players
        play(state, [make_agent(s, agent_seed(seed, p)) for p, s in enumerate(specs)])
        logs.append([f"{p} {a}" for p, a in state.history])
    return logs


def data_changes(baseline: str, game: str) -> list[str]:
    """The game's data files whose values differ between ``baseline`` and the working tree:
    the files its content is compiled from (:func:`rulebook.core.data.schemas`), compared as
    parsed TOML with comments and provenance (``source``, ``why``, ``authored``: words, not
    values) left out; a file new since the baseline counts as changed."""
    import tomllib

    import rulebook
    from rulebook.core.data import schemas
    from rulebook.lab.overrides import data_package

    folder = f"src/rulebook/{game.replace('-', '_')}/data"
    changed = []
    for filename, _ in schemas(data_package(rulebook.get_game(game))):
        path = f"{folder}/{filename}"
        old = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{baseline}:{path}"], capture_output=True, text=True
        )
        now = (ROOT / path).read_text(encoding="utf-8")
        if old.returncode != 0 or _values(tomllib.loads(old.stdout)) != _values(tomllib.loads(now)):
            changed.append(filename)
    return changed


def _values(data: object) -> object:
    """A data file's values: its tables and arrays without the provenance of its entries."""
    if isinstance(data, dict):
        return {k: _values(v) for k, v in data.items() if k not in ("source", "why", "authored")}
    if isinstance(data, list):
        return [_values(v) for v in data]
    return data


def child(src: Path, game: str, players: int, variant: str, spec: str, seeds: int) -> object:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    args = [sys.executable, __file__, "--child", game, str(players), variant, spec, str(seeds)]
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def first_difference(a: Sequence[str], b: Sequence[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"move {i}: now {x!r}, baseline {y!r}"
    return f"lengths differ: now {len(a)} moves, baseline {len(b)}"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"]:
        game, players, variant, spec, seeds = argv[1:6]
        print(json.dumps(play_logs(game, int(players), variant, spec, int(seeds))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"commit (default {BASELINE})")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per game and agent")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--agents", default=DEFAULT_AGENTS, help=f"default {DEFAULT_AGENTS}")
    args = parser.parse_args(argv)
    configs = [c for c in CONFIGS if not args.game or c[0] in args.game]
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    differ = 0
    with tempfile.TemporaryDirectory(prefix="rulebook-baseline-") as tmp:
        old_src = export(args.baseline, Path(tmp))
        for game, players, variant in configs:
            changed = data_changes(args.baseline, game)
            if changed:
                config = f"{game} {players}p {variant}"
                print(
                    f"{config:36} skipped: data changed since the baseline ({', '.join(changed)})"
                )
                continue
            for spec in specs:
                now = child(ROOT / "src", game, players, variant, spec, args.seeds)
                old = child(old_src, game, players, variant, spec, args.seeds)
                assert isinstance(now, list) and isinstance(old, list)
                same = [a == b for a, b in zip(now, old, strict=True)]
                moves = sum(len(log) for log in now)
                config = f"{game} {players}p {variant}"
                verdict = "identical" if all(same) else f"{same.count(False)} DIFFER"
                print(f"{config:36} {spec:9} {len(same)} games, {moves:6} moves: {verdict}")
                for seed, ok in enumerate(same):
                    if not ok:
                        differ += 1
                        print(f"    seed {seed}: {first_difference(now[seed], old[seed])}")
                sys.stdout.flush()
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
