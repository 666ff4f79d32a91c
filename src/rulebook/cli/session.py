"""The interactive terminal session: people and bots taking their moves in turn.

Before each of a person's decisions the session shows one compact screen (fitting 80x40): what
changed since the seat last looked, the game's turn view (``Game.turn_view``: what the decision
needs) and the moves, numbered and grouped (:mod:`rulebook.cli.menu`), the dice and moves last,
right above the prompt. Everything else is one command away (``table``, the game's views,
``rules``, ``card NAME``, ``log``). With several people at one keyboard (hot-seat), the screen
is cleared and the device passed between them, and each sees only what its seat may see
(:mod:`rulebook.cli.news`).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext, suppress
from enum import Enum
from functools import partial
from pathlib import Path

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.text import Text

from rulebook.agents import Agent
from rulebook.agents.protocol import Forfeit
from rulebook.cli.common import INTERRUPTED, Seat, UsageError, print_results, seat_label, table_view
from rulebook.cli.lookup import card_view, rules_view
from rulebook.cli.menu import NUMBER, Menus, menu_lines
from rulebook.cli.news import Entry, News
from rulebook.cli.saves import Saves, check_target
from rulebook.core import Action, IllegalAction, State, View
from rulebook.core.words import seat

#: exit code when the game is abandoned before its end because the input ended
ABANDONED = 1
#: lines of "what changed" at most on a turn's screen
NEWS_LINES = 6


class Turn(Enum):
    """What one line typed by a person led to."""

    MOVED = "moved"
    AGAIN = "again"
    QUIT = "quit"


class InputEnded(Exception):
    """The person's input ended (Ctrl-D, or the end of a script)."""


class Session:
    """One game played in the terminal by people and bots, saved after every move if asked."""

    def __init__(
        self, state: State, seats: Sequence[Seat], console: Console, save: Path | None
    ) -> None:
        self.state = state
        self.seats = list(seats)
        self.console = console
        self.labels = [seat.spec for seat in self.seats]
        self.saves = Saves(state, self.labels, save)
        self.news = News(state, self.labels)
        self.menus = Menus()
        self.humans = [p for p, seat in enumerate(self.seats) if seat.human]
        #: the person the screen shows now (hot-seat: the device is passed between seats)
        self.at_device: int | None = None
        self.interactive = sys.stdin.isatty()
        if self.interactive:
            enable_line_editing()

    # -- the game loop ----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends, a person stops or an outside agent forfeits (0, as a
        game that ends); the exit code. However it stops, every bot is told
        (:meth:`Agent.finish`: an outside agent's program is stopped)."""
        try:
            while not self.state.is_terminal():
                player = self.state.current_players()[0]
                agent = self.seats[player].agent
                if agent is not None:
                    self.bot_move(player, agent)
                elif not self.human_turn(player):
                    return self.stop("Stopped", 0)
        except InputEnded:
            self.console.print()
            return self.stop("Input ended: the game is abandoned", ABANDONED)
        except KeyboardInterrupt:
            self.console.print()
            return self.stop("Interrupted: the game is abandoned", INTERRUPTED)
        except Forfeit as forfeit:  # an outside agent under --fallback forfeit
            who = seat_label(forfeit.seat, self.labels)
            self.console.print(
                f"{who[0].upper()}{who[1:]} forfeits the game: {forfeit.reason}. "
                "The other seats win.",
                markup=False,
                soft_wrap=True,
            )
            return self.stop("The game ends with a forfeit", 0)
        finally:
            for agent in {id(s.agent): s.agent for s in self.seats if s.agent}.values():
                agent.finish(self.state)
        self.finish()
        return 0

    def bot_move(self, player: int, agent: Agent) -> None:
        """Let a bot move. Without people at the table each move is shown as it is made;
        with people, they read it when it is their turn (as their seat may learn of it)."""
        thinking = f"{seat_label(player, self.labels)} is thinking"
        show = self.humans and self.console.is_terminal
        with self.console.status(thinking) if show else nullcontext():
            action = agent.act(self.state, player)
        entry = self.make(player, action)
        if not self.humans:
            self.console.print(self.news.line(entry, None), markup=False)

    def make(self, player: int, action: Action) -> Entry:
        """Make a move, note it and save the game (:class:`IllegalAction`, and nothing
        changes, if the move is not legal now)."""
        entry = self.news.make(self.state, player, action)
        self.autosave()
        return entry

    def human_turn(self, player: int) -> bool:
        """Show the seat its screen and read lines until one is a move; False to quit."""
        if not self.pass_device(player):
            return False
        self.show_turn(player)
        while True:
            line = self.read_line(f"[bold]{seat(player)}[/]: number, move or help> ")
            turn = self.handle(player, line.strip())
            if turn is not Turn.AGAIN:
                return turn is Turn.MOVED

    def pass_device(self, player: int) -> bool:
        """Hot-seat: clear the screen and wait until the seat's player has the device; False
        if they type ``quit`` instead."""
        if len(self.humans) < 2 or self.at_device == player:
            return True
        self.console.clear()
        self.console.rule(f"pass the device to {seat_label(player, self.labels)}")
        self.console.print("The other seats' screens are hidden. Nobody else should look now.")
        prompt = f"[bold]{seat(player)}[/]: press Enter when you are at the keyboard (or quit)> "
        if self.read_line(prompt).strip().lower() in ("quit", "exit"):
            return False
        self.at_device = player
        return True

    def read_line(self, prompt: str) -> str:
        """One line from stdin (echoed when stdin is not a terminal, for readable logs)."""
        try:
            line = self.console.input(prompt)
        except EOFError:
            raise InputEnded from None
        if not self.interactive:
            self.console.print(line, markup=False)
        return line

    # -- the turn's screen ------------------------------------------------------------------
    def show_turn(self, player: int) -> None:
        """What changed, the game's turn view, the moves: the screen before a decision."""
        self.show(*self.turn_screen(player))

    def turn_screen(self, player: int) -> list[RenderableType]:
        state = self.state
        width = self.console.width
        parts: list[RenderableType] = [
            Text(
                f"── {state.game.title} · {seat_label(player, self.labels)} · your move ".ljust(
                    width, "─"
                )[:width],
                style="bold",
            )
        ]
        unseen = self.news.unseen(state, player)
        if unseen:
            summary = self.news.summary(unseen, player, width, NEWS_LINES, "Since your last look")
            parts.append(Text(summary[0], style="bold"))
            parts += [Text(line) for line in summary[1:]]
        draw = state.game.turn_view
        parts.append(draw(state, player) if draw is not None else table_view(state, player))
        return parts + self.menu_screen(player)

    def menu_screen(self, player: int) -> list[RenderableType]:
        """The seat's moves, numbered and grouped, as lines of the console's width."""
        return list(menu_lines(self.menus.numbered(self.state, player), self.console.width))

    # -- commands at the prompt -------------------------------------------------------------
    def handle(self, player: int, line: str) -> Turn:
        """Carry out one typed line: a command, or a move (errors are shown, nothing changes)."""
        command, _, argument = line.partition(" ")
        commands: dict[str, Callable[[], Turn]] = {
            "": lambda: self.show(*self.turn_screen(player)),
            "help": lambda: self.show(self.help_text()),
            "?": lambda: self.show(self.help_text()),
            "moves": lambda: self.show_moves(player),
            "table": lambda: self.show(table_view(self.state, player)),
            "rules": lambda: self.show(rules_view(self.state.game)),
            "card": lambda: self.show(card_view(self.state.game, self.state.setup, argument)[0]),
            "log": lambda: self.show_log(player),
            "save": lambda: self.save_command(argument.strip()),
            "quit": lambda: Turn.QUIT,
            "exit": lambda: Turn.QUIT,
        }
        for view in self.state.game.views:
            commands.setdefault(view.name, partial(self.show_view, view, player))
        action = commands.get(command.lower())
        if action is not None:
            return action()
        return self.try_move(player, line)

    def show_view(self, view: View, player: int) -> Turn:
        return self.show(view.draw(self.state, player))

    def show(self, *renderables: RenderableType) -> Turn:
        self.console.print(Group(*renderables))
        return Turn.AGAIN

    def try_move(self, player: int, line: str) -> Turn:
        """Make the typed move, or say why it cannot be made."""
        try:
            action = self.menus.resolve(self.state, player, line)
            entry = self.make(player, action)
        except IllegalAction as exc:
            self.error(f"{exc} (type moves to list the moves, help for commands)")
            return Turn.AGAIN
        self.console.print(self.news.line(entry, player), markup=False)
        return Turn.MOVED

    def show_moves(self, player: int) -> Turn:
        """Every legal move with its whole text, numbered as in the menu."""
        numbered = sorted(self.menus.numbered(self.state, player), key=lambda pair: pair[0])
        width = len(str(max((n for n, _ in numbered), default=1)))
        items = [
            Text.assemble((f"{n:>{width}} ", NUMBER), self.state.explain(player, place.action))
            for n, place in numbered
        ]
        return self.show(Columns(items, column_first=True, padding=(0, 3)))

    def show_log(self, player: int) -> Turn:
        """Every move of this session the seat may know of."""
        entries = self.news.visible(self.state, player)
        if not entries:
            return self.show(Text("No move has been made in this session yet."))
        lines = [f"{e.index + 1}. {self.news.line(e, player)}" for e in entries]
        return self.show(Text("\n".join(lines)))

    def help_text(self) -> RenderableType:
        game = self.state.game
        rows = [
            ("NUMBER or MOVE", "make a move: its number in the menu, or its text"),
            ("Enter", "show this turn's screen again"),
            ("moves", "every move with its whole text"),
            ("table", "the whole table"),
            *((view.name, view.about) for view in game.views),
            ("rules", f"how to play {game.title}, and what the symbols mean"),
            ("card NAME", "a card's text (card alone lists the cards)"),
            ("log", "every move made since you sat down"),
            ("save FILE", "save the game to FILE (add --overwrite to replace a file)"),
            ("quit", "stop playing (Ctrl-D too)"),
        ]
        text = Text("At the prompt, type:\n")
        for name, about in rows:
            text.append(f"  {name:<15}", style="bold")
            text.append(f" {about}\n")
        text.append(
            "Numbers stay the same while your phase lasts: a number never picks another move "
            "(one no longer possible is refused)."
        )
        return text

    def save_command(self, argument: str) -> Turn:
        """``save FILE``: save now (not over another game unless ``--overwrite``)."""
        words = argument.split()
        overwrite = "--overwrite" in words
        names = [w for w in words if w != "--overwrite"]
        if len(names) != 1:
            self.error("save needs one file name: save FILE (or save FILE --overwrite)")
            return Turn.AGAIN
        path = Path(names[0])
        try:
            check_target(self.state, path, overwrite)
            self.saves.write(path)
        except UsageError as exc:
            self.error(str(exc))
        except OSError as exc:
            self.error(f"cannot save to {path}: {exc.strerror}")
        else:
            self.console.print(f"Saved to {escape(str(path))}.", soft_wrap=True)
        return Turn.AGAIN

    def error(self, message: str) -> None:
        self.console.print(f"[bold red]error:[/] {escape(message)}")

    # -- saving and stopping ----------------------------------------------------------------
    def autosave(self) -> None:
        """Save to the session's file (if any) after a move; a failure is shown, not fatal."""
        path = self.saves.path
        if path is None:
            return
        try:
            self.saves.write(path)
        except OSError as exc:
            self.error(f"cannot save to {path}: {exc.strerror}")

    def stop(self, how: str, code: int) -> int:
        """Stop before the end: save (if a file was given), say what is saved and how to
        resume; the exit code."""
        self.autosave()
        moves = len(self.state.history)
        self.console.print(
            f"{how} after {moves} move{'' if moves == 1 else 's'}. {self.saves.unsaved()}",
            markup=False,
            soft_wrap=True,
        )
        if self.saves.last is not None:
            path = shlex.quote(str(self.saves.last[0]))
            self.console.print(
                f"Resume with: rulebook play --load {path}", markup=False, soft_wrap=True
            )
        return code

    def finish(self) -> None:
        """The end of the game: the last moves, the final table, scores, winners, rating."""
        self.console.rule("game over")
        if self.humans:
            since = min(self.news.seen.get(p, self.news.start) for p in self.humans)
            last = [e for e in self.news.entries if e.index >= since]
            if last:
                lines = self.news.summary(
                    last, None, self.console.width, 3 * NEWS_LINES, "The last moves"
                )
                self.console.print(Text("\n".join(lines)))
        if len(self.humans) < 2:
            self.console.print(table_view(self.state, self.humans[0] if self.humans else 0))
        print_results(self.console, self.state, self.labels)
        if self.saves.last is not None:
            self.console.print(f"Saved to {self.saves.last[0]}.", markup=False, soft_wrap=True)


def enable_line_editing() -> None:
    """Arrow keys and history at the prompt, where the platform has readline."""
    with suppress(ImportError):  # e.g. on Windows
        import readline  # noqa: F401
