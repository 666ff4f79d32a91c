"""Random-playout throughput of every registered game, at every player count of every variant.

Usage::

    python benchmarks/bench.py [--seconds 2] [--game NAME] [--players N] [--json FILE]
    python benchmarks/bench.py --profile [--game NAME] [--players N]

Each (game, variant, player count) plays seeded games with uniformly random legal moves (as
:class:`rulebook.agents.RandomAgent` does: the time spent choosing is included, and so is
setting up each game) for about ``--seconds`` seconds, in this one process on one core, and
reports steps (moves) per second, games per second and the mean number of moves per game.
``--profile`` instead runs cProfile over 4-player Merchants of Magick playouts and prints the
25 functions with the largest cumulative time. Only the standard library and rulebook are used.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import rulebook
from rulebook import State

PROFILE_GAME = "merchants-of-magick"
PROFILE_PLAYERS = 4


@dataclass(frozen=True)
class Result:
    """The throughput of random playouts of one game, variant and player count."""

    game: str
    variant: str
    players: int
    games: int
    moves: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def mean_moves(self) -> float:
        return self.moves / self.games

    def to_dict(self) -> dict[str, object]:
        return {
            **asdict(self),
            "steps_per_s": round(self.steps_per_s, 1),
            "games_per_s": round(self.games_per_s, 2),
            "mean_moves": round(self.mean_moves, 2),
        }


def playout(state: State, rng: random.Random) -> int:
    """Play uniformly random legal moves until the game ends; return the number of moves.

    A random seat among those to act moves (the only one outside simultaneous phases).
    """
    moves = 0
    while not state.is_terminal():
        players = state.current_players()
        player = players[0] if len(players) == 1 else rng.choice(players)
        state.apply(player, rng.choice(state.legal_actions(player)))
        moves += 1
    return moves


def play_one(game: str, variant: str, players: int, seed: int) -> int:
    """Set up one seeded game and play it out at random; return its number of moves."""
    state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
    return playout(state, random.Random(seed))


def measure(game: str, variant: str, players: int, seconds: float, seed: int = 0) -> Result:
    """Play games with seeds ``seed, seed + 1, ...`` for about ``seconds`` (at least one game,
    after one untimed warm-up game) and count them and their moves."""
    play_one(game, variant, players, seed - 1)  # warm-up: content loading, caches
    games = moves = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        moves += play_one(game, variant, players, seed + games)
        games += 1
        elapsed = time.perf_counter() - start
    return Result(game, variant, players, games, moves, elapsed)


def configurations(game: str | None, players: int | None) -> list[tuple[str, str, int]]:
    """Every (game, variant, player count) to measure, filtered by ``game`` and ``players``."""
    found = []
    for name in [game] if game else rulebook.games():
        for variant in rulebook.get_game(name).variants:
            for n in range(variant.min_players, variant.max_players + 1):
                if players is None or n == players:
                    found.append((name, variant.name, n))
    return found


def header() -> list[str]:
    """The lines describing the machine the numbers were taken on."""
    cpus = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    return [
        f"rulebook {rulebook.__version__}; Python {platform.python_version()} "
        f"({platform.python_implementation()}) on {platform.system()} {platform.machine()}",
        f"CPU count: {cpus} (usable by this process: {usable}); benchmark runs on one core",
    ]


def table(results: Sequence[Result]) -> str:
    """The results as an aligned text table."""
    rows = [("game", "variant", "players", "games", "moves/game", "steps/s", "games/s")]
    for r in results:
        rows.append(
            (
                r.game,
                r.variant,
                str(r.players),
                str(r.games),
                f"{r.mean_moves:.1f}",
                f"{r.steps_per_s:,.0f}",
                f"{r.games_per_s:,.1f}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for k, row in enumerate(rows):
        cells = [
            cell.ljust(w) if i < 2 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def profile(game: str, players: int, seconds: float, top: int = 25) -> str:
    """cProfile of random playouts of ``game`` for ``players`` (about ``seconds`` of them);
    the ``top`` functions by cumulative time."""
    variant = rulebook.get_game(game).default_variant(players)
    play_one(game, variant, players, -1)  # warm-up outside the profile
    profiler = cProfile.Profile()
    games = moves = 0
    start = time.perf_counter()
    profiler.enable()
    while games == 0 or time.perf_counter() - start < seconds:
        moves += play_one(game, variant, players, games)
        games += 1
    profiler.disable()
    out = io.StringIO()
    out.write(f"profile: {games} random playouts of {game} ({variant}, {players}p), ")
    out.write(f"{moves} moves\n")
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Random-playout throughput of every game, variant and player count."
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time per configuration (default 2)"
    )
    parser.add_argument("--game", choices=rulebook.games(), help="only this game")
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write results to FILE")
    parser.add_argument(
        "--profile",
        action="store_true",
        help=f"cProfile {PROFILE_PLAYERS}-player {PROFILE_GAME} playouts (or --game/--players) "
        "and print the top 25 functions by cumulative time",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if not args.profile and not configurations(args.game, args.players):
        parser.error(f"no variant of {args.game or 'any game'} takes {args.players} players")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    for line in header():
        print(line)
    if args.profile:
        game = args.game or PROFILE_GAME
        players = args.players or PROFILE_PLAYERS
        try:
            print(profile(game, players, args.seconds))
        except (rulebook.UnknownGame, rulebook.SetupError) as exc:
            print(f"bench: {exc}", file=sys.stderr)
            return 2
        return 0
    print(f"random playouts, about {args.seconds:g}s per configuration\n")
    results = []
    for game, variant, players in configurations(args.game, args.players):
        result = measure(game, variant, players, args.seconds, args.seed)
        results.append(result)
        print(f"  measured {game} {variant} {players}p", file=sys.stderr, flush=True)
    print(table(results))
    if args.json is not None:
        data = {
            "rulebook": rulebook.__version__,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            "seconds_per_configuration": args.seconds,
            "seed": args.seed,
            "results": [r.to_dict() for r in results],
        }
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
