"""A small rated tournament without any model: random, greedy and a light search over two games
at two and four seats, seats rotated, in about a minute on two cores (compiled modules built).
It prints the standings and writes the tables played and the leaderboard (an HTML page) to a
folder; run it again and it goes on where it stopped (or, when all is played, rates again).

    python examples/arena_small.py [--out arena-small] [--tables 16] [--workers 2]

The same tournament from the command line (which writes the ratings as JSON and CSV too):

    rulebook arena --agents random,greedy,mcts:100 --games merchants-of-magick,archmagi \\
        --players 2,4 --tables 16 --seed 0 --out arena-small
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from rulebook.arena import leaderboard
from rulebook.arena.plan import make_plan
from rulebook.arena.play import Store, run
from rulebook.arena.standings import standings
from rulebook.core import RulebookError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("arena-small"))
    parser.add_argument("--agents", default="random,greedy,mcts:100")
    parser.add_argument("--games", default="merchants-of-magick,archmagi")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--tables", type=int, default=16, help="Tables per line-up.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--resamples", type=int, default=200)
    args = parser.parse_args(argv)

    plan = make_plan(
        args.agents.split(","),
        args.games.split(","),
        [int(n) for n in args.players.split(",")],
        args.tables,
        args.seed,
    )
    store = Store(args.out, plan)
    store.check()  # another tournament in the folder: refused before any table
    store.start()
    tables = plan.draw()
    start = time.perf_counter()
    run(store, tables, workers=args.workers)  # only the tables not stored yet
    print(f"{len(tables)} tables, {time.perf_counter() - start:.1f} s")

    done = store.rows()
    board = standings([done[t.index] for t in tables], plan.agents, plan.games, plan.seed,
                      resamples=args.resamples, drops=args.resamples)  # fmt: skip
    for scope in [board.overall, *board.games]:
        print(f"\n{scope.title} ({leaderboard.caption(scope)})")
        for k, r in enumerate(scope.rows, 1):
            print(
                f"{k}. {r.agent:<10} {leaderboard.points(r.points):>6}  "
                f"[{leaderboard.interval(r)}]  wins {leaderboard.number(r.wins)} "
                f"of {r.tables}, mean place {r.place:.2f}"
            )
    print(f"\n{board.anchor_note}; ratings in Elo points.")
    summary = f"{len(tables)} tables of {', '.join(plan.agents)}, seed {plan.seed}"
    page = leaderboard.render_html(board, summary, "python examples/arena_small.py")
    (args.out / "leaderboard.html").write_text(page, encoding="utf-8")
    print(f"Leaderboard: {args.out / 'leaderboard.html'}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except RulebookError as exc:  # a plan that cannot be played, another tournament in --out
        raise SystemExit(f"error: {exc}") from None
