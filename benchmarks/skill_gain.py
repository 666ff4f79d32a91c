"""How much skill pays with each faction: read from a ``rulebook tune`` run's kept games, and
set beside the number of decisions each faction makes.

Usage::

    python benchmarks/skill_gain.py gains TUNE_OUT [--rung mcts:200-greedy]
    python benchmarks/skill_gain.py decisions [--game archmagi] [--players 4] [--games 200]
        [--data-override FILE]

``gains``: for every candidate a tuning run played (each ``restart-*/games/*`` folder holds one
candidate's games at each rung), each faction's win rate with greedy in every seat, the
searching seat's win rate with it at ``--rung`` (one ``mcts`` seat against greedy ones), and the
difference, its *gain from skill*; candidates listed by the spread of the gains (largest gain
minus smallest). The tuning target "every faction within 5 points at both rungs" needs that
spread at 20 points or less: a faction's gain is its mcts rate minus its greedy rate, so two
spreads of at most 10 points each bound it by 20. Points are a poor scale for a gain (a faction
greedy players win 5% of the time cannot gain 60 points), so each faction's *skill* is also
given in log-odds, ``logit(mcts rate) - logit(greedy rate)``: its mean over the candidates
(weighted by the searching seat's games; candidates where either rate is 0% or 100% left out)
and its standard deviation. Where that stays put while the data moves the greedy rates, the data
cannot move it: the last line says which ``mcts`` rates each faction can reach with its skill as
measured and a greedy rate within 5 points of even (the target of the greedy rung); two ranges
more than 10 points apart mean no values of these knobs meet the target.

``decisions``: four greedy players, seeds from 30,000,000; per faction, the decisions its seat
makes in a game (positions where it is to act with two or more legal moves) and the legal moves
at each; ``--data-override`` plays them with a data override (as ``rulebook simulate``).
Search pays at decisions: a faction that makes more of them gains more from skill.
"""

from __future__ import annotations

import argparse
import collections
import math
import statistics
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

import rulebook
from rulebook import RulebookError
from rulebook.agents import make_agent
from rulebook.core.data import DataError
from rulebook.lab.ladder import Rung, rates
from rulebook.lab.overrides import check, check_addresses, read_override


def win_rates(folder: Path, rung: str) -> dict[str, tuple[float, int]]:
    """Each faction's win rate in % (shared wins as fractions) and games at ``rung``, as
    ``rulebook strength --ladder`` reads them (:func:`rulebook.lab.ladder.rates`): every seat
    with one agent in every seat, else the candidate's seat."""
    name = rung.replace(":", "_")
    columns = ["players", "agents", "returns", "scores", "factions"]
    rows = [
        row
        for file in sorted(folder.glob(f"*@{name}.parquet"))
        for row in pq.read_table(file, columns=columns).to_pylist()
    ]
    return {r.label: (100 * r.rate, r.n) for r in rates(rows, Rung.parse(rung), "faction")}


def gains(out: Path, rung: str) -> None:
    rows = []
    for folder in sorted(out.glob("restart-*/games/*")):
        greedy, skilled = win_rates(folder, "greedy"), win_rates(folder, rung)
        if not greedy or set(greedy) != set(skilled):
            continue
        gain = {f: skilled[f][0] - greedy[f][0] for f in greedy}
        rows.append((max(gain.values()) - min(gain.values()), folder, greedy, skilled, gain))
    if not rows:
        raise SystemExit(f"no candidate with games at both greedy and {rung} under {out}")
    factions = sorted(rows[0][2])
    short = [f.split()[0] for f in factions]
    counted = f"{len(rows)} candidate" + ("s" if len(rows) != 1 else "")
    print(f"{counted}; win rates in %, greedy / {rung} / gain, per faction")
    print(f"{'spread':>6}  {'candidate':12}  " + "  ".join(f"{s:>14}" for s in short))
    for spread, folder, greedy, skilled, gain in sorted(rows, key=lambda r: r[0]):
        cells = [f"{greedy[f][0]:3.0f}/{skilled[f][0]:3.0f}/{gain[f]:+4.0f}" for f in factions]
        print(f"{spread:6.1f}  {folder.name:12}  " + "  ".join(f"{c:>14}" for c in cells))
    low = {f: min(r[4][f] for r in rows) for f in factions}
    high = {f: max(r[4][f] for r in rows) for f in factions}
    print("gain range: " + ", ".join(f"{f} {low[f]:+.0f} to {high[f]:+.0f}" for f in factions))
    even = statistics.fmean(r[2][f][0] for r in rows for f in factions)
    print("skill in log-odds (logit of the mcts rate minus logit of the greedy rate):")
    reach = []
    for f in factions:
        found = [
            (k, r[3][f][1], noise(r[2][f]) + noise(r[3][f]))
            for r in rows
            if (k := skill(r[2][f][0], r[3][f][0])) is not None
        ]
        if not found:
            print(f"  {f}: no candidate with both rates between 0% and 100%")
            continue
        k = sum(k * n for k, n, _ in found) / sum(n for _, n, _ in found)
        sd = statistics.pstdev([k for k, _, _ in found])
        chance = math.sqrt(statistics.fmean(v for _, _, v in found))
        print(
            f"  {f:16} {k:5.2f} (sd {sd:.2f} over {len(found)} of {len(rows)} candidates; "
            f"the games' chance alone gives about {chance:.2f})"
        )
        low_m, high_m = (100 * logistic(logit(g / 100) + k) for g in (even - 5, even + 5))
        reach.append(f"{f} {low_m:.0f}-{high_m:.0f}%")
    if reach:
        within = f"{even - 5:.0f}-{even + 5:.0f}%"
        print(f"with greedy rates {within}, mcts rates reach: " + ", ".join(reach))


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def noise(rate: tuple[float, int]) -> float:
    """The sampling variance of the logit of a win rate in % measured on ``n`` games."""
    p, n = rate[0] / 100, rate[1]
    return 1 / (n * p * (1 - p)) if 0 < p < 1 and n else 0.0


def skill(greedy: float, skilled: float) -> float | None:
    """A faction's gain from skill in log-odds, from its two win rates in %; None at 0 or 100%."""
    if not (0 < greedy < 100 and 0 < skilled < 100):
        return None
    return logit(skilled / 100) - logit(greedy / 100)


def decisions(game: str, players: int, count: int, override: Path | None = None) -> None:
    if override is not None:
        try:
            raw = read_override(override)
            check_addresses(raw, game, str(override))
            check(raw, game, players, None)  # installs it and sets up a game: entries checked
        except (RulebookError, DataError) as exc:  # a missing or wrong file: one line
            raise SystemExit(f"error: {exc}") from None
    faction_of = rulebook.get_game(game).faction
    if faction_of is None:
        raise SystemExit(f"{game} has no factions")
    made: collections.Counter[str] = collections.Counter()
    moves: collections.Counter[str] = collections.Counter()
    for g in range(count):
        seed = 30_000_000 + g
        state = rulebook.new_game(game, players, seed)
        agents = [make_agent("greedy", seed * players + p) for p in range(players)]
        names = [faction_of(state, p) for p in range(players)]
        while not state.is_terminal():
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            if len(legal) > 1:
                made[names[p]] += 1
                moves[names[p]] += len(legal)
            state.apply(p, agents[p].act(state, p))
    data = f", data override {override.name}" if override else ""
    print(f"{game}, {players} greedy players, {count} games (seeds from 30,000,000){data}")
    for f in sorted(made, key=lambda f: -made[f]):
        each = moves[f] / made[f]
        print(f"  {f:16} {made[f] / count:5.1f} decisions a game, {each:4.1f} moves each")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gains")
    g.add_argument("out", type=Path)
    g.add_argument("--rung", default="mcts:200-greedy")
    d = sub.add_parser("decisions")
    d.add_argument("--game", default="archmagi")
    d.add_argument("--players", type=int, default=4)
    d.add_argument("--games", type=int, default=200)
    d.add_argument("--data-override", type=Path, default=None, metavar="FILE")
    args = parser.parse_args(argv)
    if args.what == "gains":
        gains(args.out, args.rung)
    else:
        decisions(args.game, args.players, args.games, args.data_override)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
