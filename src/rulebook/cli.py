"""The ``rulebook`` command line: list the games, play one in the terminal, simulate, replay.

The CLI sees games only through the core API (:mod:`rulebook.core`) and the agents: it knows
no game's rules, only ``legal_actions``, ``explain``, ``parse_action``, ``apply``, the scores
and the game's optional ``render``.
"""

from __future__ import annotations

import random
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.json import JSON
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import rulebook
from rulebook.agents import Agent, make_agent
from rulebook.core import Action, Game, IllegalAction, RulebookError, State
from rulebook.simulate import GameResult, run

#: the seat spec of a person at the keyboard (every other spec names an agent)
HUMAN = "human"
#: exit code of every usage error (bad game, players, seats, options or save file)
USAGE_ERROR = 2
#: exit code after Ctrl-C, as shells report a SIGINT
INTERRUPTED = 130

HELP = """\
Type a move's [bold]number[/] or its [bold]text[/] (as listed), or a command:
  [bold]moves[/]      list the legal moves again
  [bold]table[/]      show the table again
  [bold]save FILE[/]  save the game to FILE (resume with --load FILE)
  [bold]quit[/]       stop playing (Ctrl-D too)
  [bold]help[/]       this text"""

app = typer.Typer(
    name="rulebook",
    help="Tabletop games in the terminal: play, simulate bots, replay save files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


class UsageError(Exception):
    """A bad command line or save file: reported in one line, exit code 2."""


# -- output and errors --------------------------------------------------------------------------
def make_console(stderr: bool = False) -> Console:
    """A console on the current stdout/stderr (made per command, so tests can capture it)."""
    return Console(stderr=stderr, highlight=False)


def fail(message: str) -> NoReturn:
    """Report a usage error in one line on stderr and exit with code 2."""
    make_console(stderr=True).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(USAGE_ERROR)


@contextmanager
def usage_errors() -> Iterator[None]:
    """Turn the engine's refusals of a setup (and :class:`UsageError`) into :func:`fail`."""
    try:
        yield
    except (RulebookError, UsageError) as exc:
        fail(str(exc))


def find_game(name: str) -> Game:
    """The registered game ``name`` (a one-line error if there is none)."""
    try:
        return rulebook.get_game(name)
    except RulebookError as exc:
        fail(str(exc))


# -- parsing the command line -----------------------------------------------------------------
def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["key=value", ...]`` as a dict; :class:`UsageError` on a pair without ``=``."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def parse_specs(text: str, what: str) -> list[str]:
    """A comma-separated list of seat specs, normalised to lower case."""
    specs = [spec.strip().lower() for spec in text.split(",")]
    if not all(specs):
        raise UsageError(f"{what} has an empty entry: {text!r}")
    return specs


def check_agents(specs: Sequence[str]) -> None:
    """Raise if a spec names no agent (``human`` is fine: the CLI plays it)."""
    for spec in specs:
        if spec != HUMAN:
            make_agent(spec)


def cycle_specs(specs: Sequence[str], players: int) -> list[str]:
    """One agent spec per seat, repeating ``specs`` in order if fewer are given."""
    if len(specs) > players:
        raise UsageError(f"{len(specs)} agents given for {players} player(s)")
    return [specs[p % len(specs)] for p in range(players)]


# -- seats and labels ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person (``agent`` None) or a bot."""

    spec: str
    agent: Agent | None

    @property
    def human(self) -> bool:
        return self.agent is None


def make_seats(text: str | None, players: int, seed: int) -> list[Seat]:
    """The seats of ``--seats`` (default: seat 0 human, the rest greedy), bots seeded."""
    specs = parse_specs(text, "--seats") if text else [HUMAN] + ["greedy"] * (players - 1)
    if len(specs) != players:
        raise UsageError(f"--seats names {len(specs)} seat(s) but the game has {players} players")
    check_agents(specs)
    return [
        Seat(spec, None if spec == HUMAN else make_agent(spec, seed * 1000 + p))
        for p, spec in enumerate(specs)
    ]


def seat_label(p: int, labels: Sequence[str] | None) -> str:
    """``seat 2`` or ``seat 2 (greedy)``."""
    return f"seat {p} ({labels[p]})" if labels else f"seat {p}"


# -- shared views -------------------------------------------------------------------------------
def table_view(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: the game's render, else its JSON observation."""
    render = state.game.render
    if render is None:
        return JSON.from_data(state.observation(player))
    view = render(state, player)
    return Text(view) if isinstance(view, str) else view


def scores_table(state: State, labels: Sequence[str] | None = None) -> Table:
    """Each seat's score breakdown, one column per seat and a total row."""
    title = "Final scores" if state.is_terminal() else "Scores so far"
    table = Table(title=title, header_style="bold")
    table.add_column("")
    seats = range(state.num_players)
    for p in seats:
        table.add_column(seat_label(p, labels), justify="right")
    breakdowns = [state.score_breakdown(p) for p in seats]
    for category in dict.fromkeys(k for b in breakdowns for k in b):
        table.add_row(category.replace("_", " "), *(str(b.get(category, 0)) for b in breakdowns))
    totals = state.scores()
    table.add_row("total", *(str(s) for s in totals), style="bold", end_section=True)
    return table


def print_results(console: Console, state: State, labels: Sequence[str] | None = None) -> None:
    """The scores table, the winners (once the game is over) and a rating if the game has one."""
    console.print(scores_table(state, labels))
    if not state.is_terminal():
        console.print("The game is not over.")
        return
    won = state.winners()
    names = ", ".join(seat_label(p, labels) for p in won)
    if state.num_players == 1:
        verdict = f"Final score: {state.scores()[0]}"
    elif len(won) == 1:
        verdict = f"Winner: {names}"
    else:
        verdict = f"Winners (shared): {names}"
    console.print(Text(verdict, style="bold magenta"))
    rating = state.observation(0).get("rating")
    if rating is not None:
        console.print(Text(f"Rating: {rating}", style="bold magenta"))


def save_game(state: State, path: Path) -> None:
    """Save (atomically: ``rulebook.save`` writes a sibling file, then renames it)."""
    rulebook.save(state, path)


def first_save(state: State, path: Path) -> None:
    """Save before the first move, so an unwritable ``--save`` fails before play starts."""
    try:
        save_game(state, path)
    except OSError as exc:
        raise UsageError(f"cannot save to {path}: {exc.strerror}") from None


# -- the terminal session -----------------------------------------------------------------------
class Turn(Enum):
    """What one line typed by a person led to."""

    MOVED = "moved"
    AGAIN = "again"
    QUIT = "quit"


def resolve_move(state: State, player: int, text: str) -> Action:
    """The move a person typed: a number from the menu, or a move's text."""
    if text.isdigit():
        actions = state.legal_actions(player)
        number = int(text)
        if not 1 <= number <= len(actions):
            raise IllegalAction(f"there is no move {number}; choose 1-{len(actions)}")
        return actions[number - 1]
    return state.parse_action(player, text)


class Session:
    """One game played in the terminal by people and bots, saved after every move if asked."""

    def __init__(
        self, state: State, seats: Sequence[Seat], console: Console, save: Path | None
    ) -> None:
        self.state = state
        self.seats = list(seats)
        self.console = console
        self.save_path = save
        self.labels = [seat.spec for seat in self.seats]
        #: one line per move made in this session, and how many of them each seat has seen
        self.moves: list[str] = []
        self.seen: dict[int, int] = {}
        self.interactive = sys.stdin.isatty()
        if self.interactive:
            enable_line_editing()

    def run(self) -> int:
        """Play until the game ends or a person quits; the exit code."""
        try:
            while not self.state.is_terminal():
                player = self.state.current_players()[0]
                seat = self.seats[player]
                if seat.agent is not None:
                    self.bot_move(player, seat.agent)
                elif not self.human_turn(player):
                    return self.stop()
        except KeyboardInterrupt:
            self.console.print()
            self.stop()
            return INTERRUPTED
        self.finish()
        return 0

    def bot_move(self, player: int, agent: Agent) -> None:
        """Let a bot move, and say what it did in one line."""
        action = agent.act(self.state, player)
        text = self.state.explain(player, action)
        self.state.apply(player, action)
        self.report(player, text)

    def report(self, player: int, text: str) -> None:
        """Say in one line who made which move, remember the line, save the game."""
        line = f"{seat_label(player, self.labels)}: {text}"
        self.moves.append(line)
        self.console.print(line, markup=False)
        self.autosave()

    def human_turn(self, player: int) -> bool:
        """Show the table and the moves, and read lines until one is a move; False to quit."""
        self.console.rule(f"seat {player}, your move")
        self.show_table(player)
        self.show_recent(player)
        self.show_moves(player)
        while True:
            try:
                line = self.read_line(player)
            except EOFError:
                self.console.print()
                return False
            turn = self.handle(player, line.strip())
            if turn is not Turn.AGAIN:
                return turn is Turn.MOVED

    def read_line(self, player: int) -> str:
        """One line from stdin (echoed when stdin is not a terminal, for readable logs)."""
        count = len(self.state.legal_actions(player))
        line = self.console.input(f"[bold]seat {player}[/] move (1-{count}, text or help)> ")
        if not self.interactive:
            self.console.print(line, markup=False)
        return line

    def handle(self, player: int, line: str) -> Turn:
        """Carry out one typed line: a command, or a move (errors are shown, nothing changes)."""
        command, _, argument = line.partition(" ")
        commands: dict[str, Callable[[], Turn]] = {
            "": lambda: Turn.AGAIN,
            "help": self.show_help,
            "?": self.show_help,
            "moves": lambda: self.show_moves(player),
            "table": lambda: self.show_table(player),
            "quit": lambda: Turn.QUIT,
            "exit": lambda: Turn.QUIT,
            "save": lambda: self.save_command(argument.strip()),
        }
        action = commands.get(command.lower())
        if action is not None:
            return action()
        return self.try_move(player, line)

    def try_move(self, player: int, line: str) -> Turn:
        """Apply the typed move, or print why it cannot be made."""
        try:
            action = resolve_move(self.state, player, line)
            text = self.state.explain(player, action)
            self.state.apply(player, action)
        except IllegalAction as exc:
            self.error(str(exc))
            return Turn.AGAIN
        self.report(player, text)
        return Turn.MOVED

    def show_table(self, player: int) -> Turn:
        self.console.print(table_view(self.state, player))
        return Turn.AGAIN

    def show_recent(self, player: int, limit: int = 8) -> None:
        """The moves made since ``player`` last saw the menu (the last ``limit`` of them)."""
        recent = self.moves[self.seen.get(player, 0) :]
        self.seen[player] = len(self.moves)
        if not recent:
            return
        lines = [Text("Since your last look:", style="bold")]
        if len(recent) > limit:
            lines.append(Text(f"  ... {len(recent) - limit} earlier move(s)", style="dim"))
        lines += [Text("  " + line) for line in recent[-limit:]]
        self.console.print(*lines, sep="\n")

    def show_moves(self, player: int) -> Turn:
        """The legal moves, numbered, in as many columns as the terminal allows."""
        actions = self.state.legal_actions(player)
        width = len(str(len(actions)))
        items = [
            Text.assemble((f"{i:>{width}}. ", "bold cyan"), self.state.explain(player, a))
            for i, a in enumerate(actions, 1)
        ]
        self.console.print(Columns(items, column_first=True, padding=(0, 3)))
        return Turn.AGAIN

    def show_help(self) -> Turn:
        self.console.print(HELP)
        return Turn.AGAIN

    def save_command(self, path: str) -> Turn:
        """The ``save FILE`` command."""
        if not path:
            self.error("save needs a file name: save FILE")
            return Turn.AGAIN
        try:
            save_game(self.state, Path(path))
        except OSError as exc:
            self.error(f"cannot save to {path}: {exc.strerror}")
        else:
            self.console.print(f"Saved to {escape(path)}.", soft_wrap=True)
        return Turn.AGAIN

    def error(self, message: str) -> None:
        self.console.print(f"[bold red]error:[/] {escape(message)}")

    def autosave(self) -> None:
        """Save to ``--save`` (if given) after a move; a failure is shown, not fatal."""
        if self.save_path is None:
            return
        try:
            save_game(self.state, self.save_path)
        except OSError as exc:
            self.error(f"cannot save to {self.save_path}: {exc.strerror}")

    def stop(self) -> int:
        """Quit before the end: save (if asked) and say how to resume."""
        self.autosave()
        moves = len(self.state.history)
        if self.save_path is None:
            self.console.print(f"Stopped after {moves} moves (no --save FILE was given).")
        else:
            path = shlex.quote(str(self.save_path))
            command = f"rulebook play {self.state.game.name} --load {path} --save {path}"
            self.console.print(
                f"Stopped after {moves} moves; saved to {self.save_path}.", markup=False
            )
            self.console.print(f"Resume with: {command}", markup=False, soft_wrap=True)
        return 0

    def finish(self) -> None:
        """The end of the game: the final table, scores, winners and rating."""
        humans = [p for p, seat in enumerate(self.seats) if seat.human]
        self.console.rule("game over")
        self.console.print(table_view(self.state, humans[0] if humans else 0))
        print_results(self.console, self.state, self.labels)


def enable_line_editing() -> None:
    """Arrow keys and history at the prompt, where the platform has readline."""
    with suppress(ImportError):  # e.g. on Windows
        import readline  # noqa: F401


# -- starting a game ----------------------------------------------------------------------------
def load_game(game: Game, path: Path, players: int | None, given: Sequence[str]) -> State:
    """The saved game at ``path``, checked against the command line (``given`` flags)."""
    if given:
        raise UsageError(f"{', '.join(given)} cannot be used with --load (the save file sets it)")
    state = rulebook.load(path)
    if state.setup.game != game.name:
        raise UsageError(f"{path} is a game of {state.setup.game}, not {game.name}")
    if players is not None and players != state.num_players:
        raise UsageError(f"{path} is a {state.num_players}-player game, not {players}")
    return state


def start_state(
    game: Game,
    players: int | None,
    seed: int | None,
    variant: str | None,
    options: dict[str, str],
    load: Path | None,
) -> State:
    """A new game from the command line, or the one saved in ``--load``."""
    if load is not None:
        flags = {"--seed": seed is not None, "--variant": variant is not None, "--option": options}
        return load_game(game, load, players, [flag for flag, used in flags.items() if used])
    if players is None:
        raise UsageError("--players is required (or --load a saved game)")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    return game.new_game(players, seed, variant, options)


def describe(state: State, seats: Sequence[Seat], resumed: bool) -> str:
    """One line about the game being started or resumed."""
    setup = state.setup
    who = ", ".join(f"{p} {seat.spec}" for p, seat in enumerate(seats))
    line = (
        f"[bold]{escape(state.game.title)}[/], {setup.variant} variant, {setup.players} "
        f"player(s), seed {setup.seed}. Seats: {escape(who)}."
    )
    if resumed:
        line += f" Resumed after {len(state.history)} moves."
    return line


# -- commands -----------------------------------------------------------------------------------
def version_callback(value: bool) -> None:
    """``--version``: print the version and stop."""
    if value:
        typer.echo(f"rulebook {rulebook.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """Tabletop games in the terminal: play, simulate bots, replay save files."""


def player_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


@app.command("list")
def list_games() -> None:
    """List the registered games, their variants, player counts and options."""
    table = Table(title="Games", header_style="bold", show_lines=True)
    for column in ("name", "title", "variants (players)", "options"):
        table.add_column(column)
    for name in rulebook.games():
        game = rulebook.get_game(name)
        variants = "\n".join(
            f"{v.name} ({player_range(v.min_players, v.max_players)})" for v in game.variants
        )
        options = "\n".join(
            f"{o.name}: {'|'.join(o.choices)} (default {o.default})" for o in game.options
        )
        title = Text(game.title, style="bold")
        if game.description:
            title.append("\n" + game.description, style="dim")
        table.add_row(name, title, variants, options or "-")
    make_console().print(table)


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


@app.command()
def play(
    game: GameArg,
    players: Annotated[
        int | None, typer.Option("--players", "-p", metavar="N", help="Number of players.")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            metavar="SPECS", help="Comma-separated: human or an agent (default: human,greedy,...)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(metavar="S", help="Seed (default: random).")] = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    load: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Resume this save file.")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Save here after every move.")
    ] = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat."""
    console = make_console()
    found = find_game(game)
    with usage_errors():
        state = start_state(found, players, seed, variant, parse_options(option), load)
        players_at = make_seats(seats, state.num_players, state.setup.seed)
        if save is not None:
            first_save(state, save)
    console.print(describe(state, players_at, resumed=load is not None))
    if any(seat.human for seat in players_at):
        console.print("Type [bold]help[/] for commands.")
    code = Session(state, players_at, console, save).run()
    raise typer.Exit(code)


@app.command()
def simulate(
    game: GameArg,
    players: Annotated[
        int, typer.Option("--players", "-p", metavar="N", help="Number of players.")
    ],
    games: Annotated[int, typer.Option("--games", "-n", metavar="K", help="How many games.")],
    agents: Annotated[
        str, typer.Option(metavar="SPECS", help="Comma-separated agents, cycled over the seats.")
    ],
    seed: Annotated[int, typer.Option(metavar="S", help="Seed of the first game.")] = 0,
    variant: VariantOpt = None,
    option: OptionOpt = None,
) -> None:
    """Play many games between bots and report win rates and scores per seat."""
    found = find_game(game)
    with usage_errors():
        options = parse_options(option)
        found.setup(players, seed, variant, options)
        specs = cycle_specs(parse_specs(agents, "--agents"), players)
        check_agents(specs)
        if HUMAN in specs:
            raise UsageError("simulations are between agents; human cannot play")
        if games < 1:
            raise UsageError(f"--games must be at least 1, not {games}")
    console = make_console()
    start = time.perf_counter()
    results = run_with_progress(console, found, players, specs, games, seed, variant, options)
    elapsed = time.perf_counter() - start
    console.print(simulation_table(results, specs, players))
    moves = statistics.fmean(r.moves for r in results)
    console.print(
        f"{games} games in {elapsed:.1f} s ({games / max(elapsed, 1e-9):.1f} games/s), "
        f"{moves:.1f} moves per game, seeds {seed}-{seed + games - 1}."
    )


def run_with_progress(
    console: Console,
    game: Game,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int,
    variant: str | None,
    options: dict[str, str],
) -> list[GameResult]:
    """:func:`rulebook.simulate.run` under a progress bar with an ETA."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(f"{game.title}: {', '.join(specs)}", total=games)

        def advance(_: GameResult) -> None:
            progress.advance(task)

        return run(game.name, players, specs, games, seed, variant, options, progress=advance)


def simulation_table(results: Sequence[GameResult], specs: Sequence[str], players: int) -> Table:
    """Per seat: agent, shared wins and win rate (2+ players), score mean/stdev/range."""
    table = Table(title=f"{len(results)} games", header_style="bold")
    table.add_column("seat", justify="right")
    table.add_column("agent")
    if players > 1:
        table.add_column("wins", justify="right")
        table.add_column("win rate", justify="right")
    for name in ("mean score", "stdev", "min", "max"):
        table.add_column(name, justify="right")
    for p in range(players):
        scores = [r.scores[p] for r in results]
        row = [str(p), specs[p]]
        if players > 1:
            wins = sum(1 / len(r.winners) for r in results if p in r.winners)
            row += [f"{wins:g}", f"{wins / len(results):.1%}"]
        spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
        row += [f"{statistics.fmean(scores):.1f}", f"{spread:.1f}", str(min(scores))]
        row.append(str(max(scores)))
        table.add_row(*row)
    return table


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A save file (from play --save or save FILE).")
    ],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every move.")] = False,
) -> None:
    """Replay a save file and show the final table, scores and winners."""
    console = make_console()
    state = replay_file(console, file, verbose)
    console.print(table_view(state, 0))
    print_results(console, state)


def replay_file(console: Console, path: Path, verbose: bool) -> State:
    """Step through a save file (printing each move if ``verbose``); the last state."""
    last: State | None = None
    with usage_errors():
        for last in rulebook.replay_steps(path):
            if verbose and last.history:
                player, action = last.history[-1]
                console.print(f"{len(last.history)}. seat {player}: {escape(str(action))}")
    assert last is not None
    return last


if __name__ == "__main__":  # pragma: no cover
    app()
