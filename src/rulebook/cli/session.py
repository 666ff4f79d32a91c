"""The interactive terminal session: people and bots taking their moves in turn."""

from __future__ import annotations

import random
import shlex
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from enum import Enum
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

import rulebook
from rulebook.agents import Agent
from rulebook.cli.common import (
    INTERRUPTED,
    Seat,
    UsageError,
    print_results,
    seat_label,
    table_view,
)
from rulebook.core import Action, Game, IllegalAction, State
from rulebook.core.words import plural

HELP = """\
Type a move's [bold]number[/] or its [bold]text[/] (as listed), or a command:
  [bold]moves[/]      list the legal moves again
  [bold]table[/]      show the table again
  [bold]save FILE[/]  save the game to FILE (resume with --load FILE)
  [bold]quit[/]       stop playing (Ctrl-D too)
  [bold]help[/]       this text"""


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
        """Let a bot move, and say what it did in one line (as the other seats learn of it)."""
        action = agent.act(self.state, player)
        text = self.state.announce(player, action)
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
            earlier = plural(len(recent) - limit, "earlier move")
            lines.append(Text(f"  ... {earlier}", style="dim"))
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
            rulebook.save(self.state, Path(path))
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
            rulebook.save(self.state, self.save_path)
        except OSError as exc:
            self.error(f"cannot save to {self.save_path}: {exc.strerror}")

    def stop(self) -> int:
        """Quit before the end: save (if asked) and say how to resume."""
        self.autosave()
        moves = len(self.state.history)
        if self.save_path is None:
            self.console.print(f"Stopped after {plural(moves, 'move')} (no --save FILE was given).")
        else:
            path = shlex.quote(str(self.save_path))
            command = f"rulebook play {self.state.game.name} --load {path} --save {path}"
            self.console.print(
                f"Stopped after {plural(moves, 'move')}; saved to {self.save_path}.", markup=False
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
        f"[bold]{escape(state.game.title)}[/], {setup.variant} variant, "
        f"{plural(setup.players, 'player')}, seed {setup.seed}. Seats: {escape(who)}."
    )
    if resumed:
        line += f" Resumed after {plural(len(state.history), 'move')}."
    return line
