"""Turn screens of the terminal as a person sees them at 80 columns, for the tests and
``benchmarks/terminal_screens.py``: every game, variant and player count, at decisions of games
between bots (each seat shown as if a person sat there)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console, Group

import rulebook
from rulebook.agents import make_agent
from rulebook.cli.common import Seat
from rulebook.cli.session import Session

WIDTH = 80


@dataclass(frozen=True)
class Config:
    game: str
    variant: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.game} {self.variant} {self.players}p"


def configurations() -> list[Config]:
    """Every game, every variant, every player count it allows."""
    return [
        Config(name, v.name, n)
        for name in rulebook.games()
        for v in rulebook.get_game(name).variants
        for n in range(v.min_players, v.max_players + 1)
    ]


def console(width: int = WIDTH) -> Console:
    return Console(width=width, file=io.StringIO(), record=True, color_system=None)


@dataclass
class Screen:
    session: Session
    player: int


def walk(config: Config, seed: int, agent: str, every: int, show: bool = True) -> Iterator[Screen]:
    """Play a game between bots (``agent`` in every seat) through a terminal session with
    every seat a person's, and stop at every ``every``-th decision to show its screen (or,
    without ``show``, just count the decisions)."""
    state = rulebook.new_game(config.game, config.players, seed, config.variant)
    seats = [Seat("human", None)] * config.players
    session = Session(state, seats, console(), None)
    bot = make_agent(agent, seed)
    step = 0
    while not state.is_terminal():
        player = state.current_players()[0]
        if step % every == 0:
            yield Screen(session, player)
        action = bot.act(state, player)
        if show:
            session.make(player, action)
        else:
            state.apply(player, action)
        step += 1


def render(parts: list[object], width: int = WIDTH) -> list[str]:
    out = console(width)
    out.print(Group(*parts))  # type: ignore[arg-type]
    return out.export_text(styles=False).splitlines()


def screen_lines(screen: Screen) -> tuple[list[str], bool]:
    """The screen's lines at 80 columns, and whether at 80x24 its last 23 lines (the prompt
    takes the 24th) hold every move and the dice, where the game has dice: the dice line, or
    the value of every die still to spend in the menu's headings (``d6=5 steel: ...``)."""
    lines = render(screen.session.turn_screen(screen.player))
    menu = render(screen.session.menu_screen(screen.player))
    last = lines[-23:]
    if len(menu) > len(last):
        return lines, False
    dice = [line for line in lines if line.startswith("Dice:")]
    if not dice or dice[-1] in last:
        return lines, True
    values = [word for word in dice[-1].split() if "=" in word]
    headings = " ".join(menu)
    spent = dice[-1].partition("(spent:")[2]
    return lines, all(f"{v} " in headings or v.split("=")[0] in spent for v in values)
