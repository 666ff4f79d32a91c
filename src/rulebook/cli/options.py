"""The options several commands share, each defined once (``play``, ``simulate``, ``tune``,
``strength``...): a command names them as the types of its parameters."""

from __future__ import annotations

from typing import Annotated

import typer

GameArg = Annotated[
    str, typer.Argument(metavar="GAME", help="The game's name (see: rulebook list).")
]
VariantOpt = Annotated[
    str | None,
    typer.Option("--variant", metavar="NAME", help="Variant (default: the first that fits)."),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE", help="A setup option: key=value."),
]
LevelOpt = Annotated[
    str | None,
    typer.Option("--level", metavar="LEVEL", help="Shorthand for --option level=LEVEL."),
]
#: ``--players``, as ``play`` takes it (optional: a save file or the seats may say it)
PLAYER_COUNT = typer.Option("--players", "-p", metavar="N", help="Number of players.")
#: the number of players, where a command needs it given (``simulate``, ``record``)
PlayerCountOpt = Annotated[int, PLAYER_COUNT]
#: the number of players where the game's usual count is the default
PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-p", metavar="N", help="Default: the game's usual count."),
]
GamesOpt = Annotated[int, typer.Option("--games", "-n", metavar="K", help="How many games.")]
SeedOpt = Annotated[int, typer.Option(metavar="S", help="Seed of the first game.")]
AgentsOpt = Annotated[
    str,
    typer.Option(
        metavar="SPECS",
        help="Comma-separated agents, cycled over the seats: random, greedy, mcts, "
        "mcts:2000 (iterations), mcts:0.5s (seconds per move), expert (learned "
        "evaluation), expert:400, expert:0.5s.",
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(metavar="W", help="Parallel processes (default: one per core)."),
]
RayOpt = Annotated[
    bool, typer.Option("--ray", help="Run on Ray (a local instance unless --ray-address).")
]
RayAddressOpt = Annotated[
    str | None, typer.Option(metavar="ADDR", help="Run on the Ray cluster at ADDR.")
]
#: the table's policy for outside agents (``cmd:``, ``ws:``, ``llm:``; bots ignore it), read
#: as text so that a bad value gets one line (:func:`rulebook.cli.common.table_policy`)
RetriesOpt = Annotated[
    str | None,
    typer.Option(
        "--retries",
        metavar="N",
        help="Outside agents: a refused answer is asked again up to N times a move (default 2).",
    ),
]
FallbackOpt = Annotated[
    str | None,
    typer.Option(
        "--fallback",
        metavar="random|forfeit",
        help="Outside agents: after the retries or the time, a random legal move (default) "
        "or a forfeit of the game.",
    ),
]
MoveSecondsOpt = Annotated[
    str | None,
    typer.Option(
        "--move-seconds",
        metavar="S",
        help="Outside agents: seconds a move, retries included (default: 10 for cmd: and "
        "ws:; an llm: seat's own).",
    ),
]
