"""Starting terminal play: a new game from the command line, or a saved one resumed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.markup import escape

import rulebook
from rulebook.agents.protocol import PolicyChanges
from rulebook.cli.common import Seat, UsageError, make_seats
from rulebook.cli.saves import check_target
from rulebook.core import Game, State


@dataclass(frozen=True)
class Request:
    """What ``rulebook play`` was asked for."""

    game: Game | None
    players: int | None
    seed: int | None
    variant: str | None
    options: dict[str, str]
    seats: str | None
    load: Path | None
    save: Path | None
    no_save: bool
    overwrite: bool
    #: the outside agents' policy (``--retries``, ``--fallback``, ``--move-seconds``)
    policy: PolicyChanges | None = None


def load_game(request: Request, path: Path) -> State:
    """The saved game at ``path``, checked against the rest of the command line."""
    given = {
        "--seed": request.seed is not None,
        "--variant": request.variant is not None,
        "--option": bool(request.options),
    }
    used = [flag for flag, on in given.items() if on]
    if used:
        raise UsageError(f"{', '.join(used)} cannot be used with --load (the save file sets it)")
    state = rulebook.load(path)
    game = request.game
    if game is not None and state.setup.game != game.name:
        raise UsageError(f"{path} is a game of {state.game.title}, not {game.title}")
    if request.players is not None and request.players != state.num_players:
        raise UsageError(f"{path} is a {state.num_players}-player game, not {request.players}")
    return state


def start_state(request: Request) -> State:
    """A new game from the command line, or the one saved in ``--load``."""
    if request.load is not None:
        return load_game(request, request.load)
    game = request.game
    if game is None:
        raise UsageError("name the GAME to play (rulebook list shows them), or --load FILE")
    if request.players is None:
        raise UsageError("--players is required (or --load a saved game)")
    seed = request.seed if request.seed is not None else random.SystemRandom().randrange(10**6)
    return game.new_game(request.players, seed, request.variant, request.options)


def seats_for(request: Request, state: State) -> list[Seat]:
    """Who sits where: ``--seats``; else, resuming, the seats the save file records; else a
    person in seat 0 and greedy bots."""
    specs = request.seats
    if specs is None and request.load is not None:
        saved = rulebook.saved_seats(request.load)
        specs = ",".join(saved) if saved is not None else None
    return make_seats(specs, state.num_players, state.setup.seed, request.policy)


def save_path(request: Request, state: State) -> Path | None:
    """Where the game is saved after every move: ``--save``, else the file resumed (unless
    ``--no-save``); refused if that would replace another game unasked."""
    if request.no_save and request.save is not None:
        raise UsageError("--save and --no-save contradict each other")
    path = None if request.no_save else (request.save or request.load)
    if path is not None:
        check_target(state, path, request.overwrite)
    return path


def describe(state: State, seats: Sequence[Seat], resumed: bool) -> str:
    """One line about the game being started or resumed. The seed is shown only when no
    person plays: it would tell a player every future die and card."""
    setup = state.setup
    who = ", ".join(f"{p + 1} {seat.spec}" for p, seat in enumerate(seats))
    players = f"{setup.players} player{'' if setup.players == 1 else 's'}"
    line = f"[bold]{escape(state.game.title)}[/], {setup.variant} variant, {players}"
    if not any(seat.human for seat in seats):
        line += f", seed {setup.seed}"
    line += f". Seats: {escape(who)}."
    if resumed:
        moves = len(state.history)
        line += f" Resumed after {moves} move{'' if moves == 1 else 's'}."
    return line
