"""The fixed spaces of every configuration, and what encoding an observation costs.

Usage::

    python benchmarks/spaces.py            # shape and vocabulary size of every configuration
    python benchmarks/spaces.py --slices   # every game's slices, as Markdown (docs/research.md)
    python benchmarks/spaces.py --speed [--seconds 2] [--game NAME] [--players N]
    python benchmarks/spaces.py --ranges [--games 60] [--game NAME]
    python benchmarks/spaces.py --state    # the privileged global state's hidden parts (Markdown)

``--speed`` plays the same seeded random games twice per (game, variant, player count), in this
one process on one core: once as the raw engine (the seat to act, its legal moves, a random
choice, ``apply``), once also taking the acting seat's ``observation(p)`` and encoding it before
each move. Times are this process's CPU time (``time.process_time``), so other jobs on the
machine change them little. It prints steps/s of both, the microseconds per step spent in
``observation`` and in ``encode``, and ``encode`` in raw engine steps (how many engine steps one
encoding costs); ``state us`` is the same tensor read straight from the state
(``ObservationEncoder.encode_state``, what the adapters call), timed in the same games.

``--ranges`` plays ``--games`` seeded games of every configuration (every fourth with greedy
moves, the others random) and encodes every seat's view at every step before capping: it prints
each part's values seen against its declared range, the parts that are not capped and went past
it (there should be none), and the capped parts whose largest value is past half their range
(a cap is set to at least twice the largest value seen).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import rulebook
from rulebook import UnknownGame
from rulebook.core.policy import greedy_move, random_move
from rulebook.core.spaces import FlatEncoder, Slice, encoder, global_state


def configurations(
    game: str | None = None, players: int | None = None
) -> list[tuple[str, str, int]]:
    """Every (game, variant, player count), filtered by ``game`` and ``players``."""
    found = []
    for name in [game] if game else rulebook.games():
        for variant in rulebook.get_game(name).variants:
            for n in range(variant.min_players, variant.max_players + 1):
                if players is None or n == players:
                    found.append((name, variant.name, n))
    return found


def shapes_table() -> str:
    """Markdown: the tensor shape and the vocabulary size of every configuration."""
    lines = [
        "| game | variant | players | observation shape | actions |",
        "|---|---|---|---|---|",
    ]
    for name, variant, n in configurations():
        state = rulebook.new_game(name, players=n, variant=variant)
        try:
            shape = str(encoder(state.setup).shape)
        except UnknownGame:
            shape = "none"
        size = len(state.action_vocabulary()) or "none"
        lines.append(f"| {name} | {variant} | {n} | {shape} | {size} |")
    return "\n".join(lines)


def _generic(name: str) -> str:
    return re.sub(r"^seat\d+\.", "seatK.", name)


def slices_markdown(name: str) -> str:
    """Markdown: a game's slices at its usual player count, each seat block once (``seatK.``),
    then the parts only other configurations have, and the fields the tensor leaves out."""
    game = rulebook.get_game(name)
    players = game.common_players or game.variants[0].min_players
    setup = game.setup(players, 0)
    enc = encoder(setup)
    lines = [
        f"Slices at {players} players ({setup.variant}, shape {enc.shape}); the `seatK.` parts "
        "repeat for every seat in relative order: the viewer first (K = 0), then the seats "
        "after it in turn order.",
        "",
        "| part | size | range | meaning |",
        "|---|---|---|---|",
    ]
    shown = set()
    for part in enc.slices():
        generic = _generic(part.name)
        if generic not in shown:
            shown.add(generic)
            lines.append(f"| `{generic}` | {part.size} | {part.range} | {part.meaning} |")
    extra: dict[str, tuple[str, int, str, str]] = {}
    for _, variant, n in configurations(name):
        for part in encoder(game.setup(n, 0, variant)).slices():
            generic = _generic(part.name)
            if generic not in shown and generic not in extra:
                extra[generic] = (f"{variant} {n}p", part.size, part.range, part.meaning)
    if extra:
        lines += [
            "",
            "Only in other configurations:",
            "",
            "| part | in | size | range | meaning |",
            "|---|---|---|---|---|",
        ]
        lines += [f"| `{g}` | {w} | {s} | {r} | {m} |" for g, (w, s, r, m) in extra.items()]
    ignored = getattr(enc, "IGNORED", {})
    if ignored:
        lines += ["", "Left out of the tensor:", ""]
        lines += [f"- `{field}`: {why}" for field, why in ignored.items()]
    return "\n".join(lines)


def ranges(games: int, game: str | None = None) -> str:
    """Markdown: per game and part (seat parts once), the values seen before capping and the
    declared range (see the module docstring); the parts past their range are flagged."""
    seen: dict[tuple[str, str], tuple[float, float, Slice]] = {}
    for name, variant, n in configurations(game):
        setup = rulebook.get_game(name).setup(n, 0, variant)
        enc = encoder(setup)
        assert isinstance(enc, FlatEncoder)
        low = np.full(enc.shape, np.inf, np.float32)
        high = np.full(enc.shape, -np.inf, np.float32)
        for seed in range(games):
            state = rulebook.new_game(name, players=n, seed=seed, variant=variant)
            rng = random.Random(seed)
            policy = greedy_move if seed % 4 == 3 else random_move
            while True:
                for p in range(n):
                    tensor = enc.encode_uncapped(state.observation(p))
                    np.minimum(low, tensor, out=low)
                    np.maximum(high, tensor, out=high)
                if state.is_terminal():
                    break
                p = state.current_players()[0]
                state.apply(p, policy(state, p, rng))
        for part in enc.slices():
            key = (name, _generic(part.name))
            a = float(low[part.start : part.stop].min())
            b = float(high[part.start : part.stop].max())
            if key in seen:
                a, b = min(a, seen[key][0]), max(b, seen[key][1])
            seen[key] = (a, b, part)
    lines = ["| game | part | seen | range | |", "|---|---|---|---|---|"]
    for (name, part_name), (a, b, part) in seen.items():
        lo, hi = part.low, part.high
        if not part.capped and (a < lo or b > hi):
            flag = "PAST ITS RANGE"
        elif part.capped and (b > hi / 2 or (lo < 0 and a < lo / 2)):
            flag = "past half its cap"
        else:
            flag = ""
        if part.capped or flag:
            lines.append(f"| {name} | `{part_name}` | [{a:.3g}, {b:.3g}] | {part.range} | {flag} |")
    return "\n".join(lines)


@dataclass(frozen=True)
class Speed:
    game: str
    variant: str
    players: int
    steps: int
    raw_s: float
    full_s: float
    observe_s: float
    encode_s: float
    state_s: float

    def row(self) -> tuple[str, ...]:
        raw = self.raw_s / self.steps
        return (
            self.game,
            self.variant,
            str(self.players),
            str(self.steps),
            f"{self.steps / self.raw_s:,.0f}",
            f"{self.steps / self.full_s:,.0f}",
            f"{1e6 * self.observe_s / self.steps:.0f}",
            f"{1e6 * self.encode_s / self.steps:.0f}",
            f"{self.encode_s / self.steps / raw:.1f}",
            f"{1e6 * self.state_s / self.steps:.0f}",
        )


def _play(
    name: str, variant: str, n: int, seed: int, encode: bool
) -> tuple[int, float, float, float]:
    """One seeded random game; its steps and the seconds spent observing and encoding, and
    encoding from the state."""
    state = rulebook.new_game(name, players=n, seed=seed, variant=variant)
    enc = encoder(state.setup)
    rng = random.Random(seed)
    steps = 0
    observe = encoded = direct = 0.0
    clock = time.process_time
    while not state.is_terminal():
        players = state.current_players()
        p = players[0] if len(players) == 1 else rng.choice(players)
        if encode:
            t0 = clock()
            obs = state.observation(p)
            t1 = clock()
            enc.encode(obs)
            t2 = clock()
            enc.encode_state(state, p)
            t3 = clock()
            observe += t1 - t0
            encoded += t2 - t1
            direct += t3 - t2
        state.apply(p, rng.choice(state.legal_actions(p)))
        steps += 1
    return steps, observe, encoded, direct


def speed(name: str, variant: str, n: int, seconds: float) -> Speed:
    """Raw and encoded random playouts of the same seeds, about ``seconds`` of raw ones."""
    _play(name, variant, n, -1, True)  # warm-up: content, caches, the encoder
    seeds: list[int] = []
    steps = 0
    start = time.process_time()
    while not seeds or time.process_time() - start < seconds:
        steps += _play(name, variant, n, len(seeds), False)[0]
        seeds.append(len(seeds))
    raw = time.process_time() - start
    observe = encoded = direct = 0.0
    start = time.process_time()
    for seed in seeds:
        _, o, e, d = _play(name, variant, n, seed, True)
        observe += o
        encoded += e
        direct += d
    full = time.process_time() - start - direct
    return Speed(name, variant, n, steps, raw, full, observe, encoded, direct)


def speed_table(results: Sequence[Speed]) -> str:
    rows = [
        (
            "game",
            "variant",
            "players",
            "steps",
            "raw steps/s",
            "encoded steps/s",
            "observe us",
            "encode us",
            "encode/step",
            "state us",
        ),
        *(r.row() for r in results),
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for k, row in enumerate(rows):
        cells = [
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def state_markdown(name: str) -> str:
    """The global state of a game (its usual player count): its shape and hidden parts."""
    game = rulebook.get_game(name)
    players = game.common_players or game.variants[0].min_players
    setup = game.setup(players, 0)
    state = global_state(setup)
    size = int(np.prod(encoder(setup).shape))
    lines = [
        f"{players} players: shape {state.shape}: {players} observation tensors of {size}, then",
        "",
        "| part | size | meaning |",
        "|---|---|---|",
    ]
    hidden = [s for s in state.slices() if s.name.startswith("hidden.")]
    for part in hidden:
        lines.append(f"| `{part.name}` | {part.size} | {part.meaning} |")
    if not hidden:
        lines.append("| (none) | 0 | nothing is hidden from every seat but the future dice |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fixed spaces: shapes, slices, encoding speed.")
    parser.add_argument("--slices", action="store_true", help="every game's slices (Markdown)")
    parser.add_argument("--speed", action="store_true", help="encoding time against engine steps")
    parser.add_argument("--state", action="store_true", help="the global state's hidden parts")
    parser.add_argument(
        "--ranges", action="store_true", help="values seen before capping against the ranges"
    )
    parser.add_argument("--games", type=int, default=60, help="games per configuration (ranges)")
    parser.add_argument("--seconds", type=float, default=2.0, help="raw play per configuration")
    parser.add_argument("--game", choices=rulebook.games(), help="only this game")
    parser.add_argument("--players", type=int, help="only this player count")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not configurations(args.game, args.players):
        parser.error(f"no variant of {args.game or 'any game'} takes {args.players} players")
    try:
        if args.slices:
            for name in [args.game] if args.game else rulebook.games():
                print(f"### {rulebook.get_game(name).title}\n\n{slices_markdown(name)}\n")
        elif args.state:
            for name in [args.game] if args.game else rulebook.games():
                print(f"### {rulebook.get_game(name).title}\n\n{state_markdown(name)}\n")
        elif args.ranges:
            print(ranges(args.games, args.game))
        elif args.speed:
            results = []
            for config in configurations(args.game, args.players):
                results.append(speed(*config, args.seconds))
                print(speed_table(results[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
            print(speed_table(results))
        else:
            print(shapes_table())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
