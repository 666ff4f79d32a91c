"""Shared pieces of the command line: errors, seat specs, tables of results."""

from __future__ import annotations

import importlib.util
import math
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from inspect import Parameter, Signature, signature
from pathlib import Path
from typing import Any, NoReturn

import typer
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
from rich.table import Column, Table
from rich.text import Text

import rulebook
from rulebook.agents import Agent, agent_seed, is_outside, make_agent
from rulebook.agents.expert import check_trained
from rulebook.agents.protocol import FALLBACKS, PolicyChanges
from rulebook.cli.options import (
    AgentsOpt,
    FallbackOpt,
    GameArg,
    GamesOpt,
    LevelOpt,
    MoveSecondsOpt,
    OptionOpt,
    PlayerCountOpt,
    RayAddressOpt,
    RayOpt,
    RetriesOpt,
    SeedOpt,
    VariantOpt,
    WorkersOpt,
)
from rulebook.core import Game, RulebookError, Setup, State, words
from rulebook.core.data import DataError
from rulebook.core.state import verdict
from rulebook.core.words import plural
from rulebook.lab.ray_runner import check_ray_address

#: the seat spec of a person at the keyboard (every other spec names an agent)
HUMAN = "human"
#: exit code of every usage error (bad game, players, seats, options or save file)
USAGE_ERROR = 2
#: exit code after Ctrl-C, as shells report a SIGINT
INTERRUPTED = 130


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
    except (RulebookError, UsageError, DataError) as exc:
        fail(str(exc))


def find_game(name: str) -> Game:
    """The registered game ``name`` (a one-line error if there is none)."""
    try:
        return rulebook.get_game(name)
    except RulebookError as exc:
        fail(str(exc))


# -- output paths -------------------------------------------------------------------------------
def writable_file(
    path: Path, option: str, ours: str | None = None, overwrite: bool = False
) -> None:
    """Check, before any work starts, that a file can be written at ``path`` (the value of
    ``option``): :class:`UsageError` in one line if it is a folder, if its folder is missing
    or not a folder, or if nothing can be created there (read-only, /proc, no permission).

    With ``ours`` (a mark the command writes near the start of its files), an existing file is
    replaced only if it bears that mark (the command's own earlier output, made again) or
    ``overwrite`` is given: nothing else is overwritten unasked."""
    if path.is_dir():
        raise UsageError(f"{option} {path} is a folder: give a file name")
    if ours is not None and not overwrite and path.exists() and not _bears(path, ours):
        raise UsageError(
            f"{option} {path} exists and is not a file this command wrote; not overwritten "
            "(add --overwrite to replace it)"
        )
    folder = path.parent
    if not folder.exists():
        raise UsageError(f"cannot write {option} {path}: there is no folder {folder}")
    if not folder.is_dir():
        raise UsageError(f"cannot write {option} {path}: {folder} is a file, not a folder")
    _probe(folder, option, path)


def _bears(path: Path, mark: str) -> bool:
    """Whether the first few kilobytes of the file ``path`` hold ``mark``."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return mark.encode() in head


def writable_folder(path: Path, option: str) -> None:
    """Check, before any work starts, that files can be written in the folder ``path`` (made
    with its parents when missing): :class:`UsageError` in one line if not."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option} {path} is a file, not a folder")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(f"cannot make {option} {path}: {existing} is a file, not a folder")
    _probe(existing, option, path)


def _probe(folder: Path, option: str, path: Path) -> None:
    """Create and remove a file in ``folder``: the one sure test that it takes new files."""
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".rulebook-", suffix=".probe")
        os.close(handle)
        os.unlink(name)
    except OSError as exc:
        raise UsageError(
            f"cannot write {option} {path}: {folder} takes no new files ({exc.strerror or exc})"
        ) from None


@contextmanager
def output_errors(option: str, path: Path) -> Iterator[None]:
    """Writing an output checked by :func:`writable_file`: a failure that comes anyway (a full
    disk) is still a one-line error."""
    try:
        yield
    except OSError as exc:
        fail(f"cannot write {option} {path}: {exc.strerror or exc}")


# -- parsing the command line -----------------------------------------------------------------
def parse_options(pairs: Sequence[str] | None, level: str | None = None) -> dict[str, str]:
    """``["key=value", ...]`` (and ``--level``) as a dict; :class:`UsageError` if malformed."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    if level is not None:
        if options.get("level", level.strip()) != level.strip():
            raise UsageError("--level and --option level=... disagree")
        options["level"] = level.strip()
    return options


def parse_specs(text: str, what: str) -> list[str]:
    """A comma-separated list of seat specs, normalised to lower case except the specs of
    outside agents (``cmd:``, ``ws:``, ``llm:``: paths and URLs keep their case). A comma
    inside quotes belongs to its spec (``"cmd:./agent --modes 'a,b'",random``)."""
    specs = []
    for part in split_specs(text):
        spec = part.strip()
        specs.append(spec if is_outside(spec) else spec.lower())
    if not all(specs):
        raise UsageError(f"{what} has an empty entry: {text!r}")
    return specs


def split_specs(text: str) -> list[str]:
    """``text`` split at the commas that are not inside single or double quotes (the quotes
    are kept: a ``cmd:`` spec's own splitting reads them)."""
    parts = [""]
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            parts.append("")
            continue
        parts[-1] += char
    return parts


def table_policy(
    retries: str | None, fallback: str | None, move_seconds: str | None
) -> PolicyChanges | None:
    """The outside agents' policy of ``--retries``, ``--fallback`` and ``--move-seconds``
    (None when none is given): :class:`UsageError` in one line for a bad value."""
    if retries is None and fallback is None and move_seconds is None:
        return None
    count = None
    if retries is not None:
        text = retries.strip()
        if not (text.isascii() and text.isdigit()):  # "²" is a digit int() refuses
            raise UsageError(f"--retries takes a whole number, 0 or more, not {retries!r}")
        count = int(text)
    if fallback is not None and fallback.strip().lower() not in FALLBACKS:
        raise UsageError(f"--fallback takes {' or '.join(FALLBACKS)}, not {fallback!r}")
    seconds = None
    if move_seconds is not None:
        try:
            seconds = float(move_seconds.strip())
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            raise UsageError(
                f"--move-seconds takes a positive number of seconds, not {move_seconds!r}"
            )
    chosen = None if fallback is None else fallback.strip().lower()
    return PolicyChanges(retries=count, fallback=chosen, seconds=seconds)


def check_agents(specs: Sequence[str]) -> None:
    """Raise if a spec names no agent (``human`` is fine: the CLI plays it)."""
    for spec in specs:
        if spec != HUMAN:
            make_agent(spec)


def agent_specs(text: str, players: int, refusal: str) -> list[str]:
    """The agents of ``--agents``, one per seat (cycled over the seats): :class:`UsageError`
    if one names no agent, or if it names ``human``, for runs that play agents only
    (``refusal`` says what the command plays)."""
    specs = cycle_specs(parse_specs(text, "--agents"), players)
    check_agents(specs)
    if HUMAN in specs:
        raise UsageError(f"{refusal}; human cannot play")
    return specs


@dataclass(frozen=True)
class Parallel:
    """Where a command's games run, from ``--workers``, ``--ray`` and ``--ray-address``."""

    #: processes (``--workers``; by default one per core)
    workers: int
    #: whether on Ray (``--ray``, or a cluster's ``--ray-address``)
    ray: bool
    #: the Ray cluster's address, if one was given
    address: str | None


def check_parallel(workers: int | None, ray: bool = False, address: str | None = None) -> Parallel:
    """Check ``--workers``, ``--ray`` and ``--ray-address`` before any work:
    :class:`UsageError` if there are fewer than one worker, if Ray is asked for but not
    installed, or if nothing answers at the address; where the games will run."""
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    if ray or address:
        if importlib.util.find_spec("ray") is None:
            raise UsageError("--ray needs Ray: pip install 'rulebook[ray]'")
        if address:
            check_ray_address(address)
    return Parallel(workers or os.cpu_count() or 1, ray or bool(address), address)


@dataclass(frozen=True)
class AgentGames:
    """What ``simulate`` and ``record`` play, checked: the game, the setup of the first game,
    one agent spec per seat, the options given, in their canonical form, where the games run,
    how many games, the variant as given (None: the first that fits) and the outside agents'
    policy (``--retries``, ``--fallback``, ``--move-seconds``; None: none given)."""

    game: Game
    setup: Setup
    specs: list[str]
    options: dict[str, str]
    parallel: Parallel
    games: int
    variant: str | None
    policy: PolicyChanges | None = None


def agent_games(
    game: GameArg,
    players: PlayerCountOpt,
    games: GamesOpt,
    agents: AgentsOpt,
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    level: LevelOpt = None,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    retries: RetriesOpt = None,
    fallback: FallbackOpt = None,
    move_seconds: MoveSecondsOpt = None,
    *,
    refusal: str,
) -> AgentGames:
    """Check the options ``simulate`` and ``record`` share (``refusal`` says what the command
    plays, should ``--agents`` name ``human``): :class:`UsageError` or the engine's refusal of
    the setup, in one line, before any game is played."""
    policy = table_policy(retries, fallback, move_seconds)
    found = find_game(game)
    options = parse_options(option, level)
    setup = found.setup(players, seed, variant, options)
    specs = agent_specs(agents, players, refusal)
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    given = {k: setup.options[k] for k in options if k in setup.options}  # canonical form
    check_trained(specs, setup)
    parallel = check_parallel(workers, ray, ray_address)
    return AgentGames(found, setup, specs, given, parallel, games, variant, policy)


def plays_agents(refusal: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command whose games are all played by agents (``simulate``, ``record``): its options
    are :func:`agent_games`' (declared once there; ``refusal`` says what the command plays),
    then its own; it is called with the former checked, as ``checked`` (:class:`AgentGames`),
    and the latter by name."""
    shared = [
        p.replace(kind=Parameter.KEYWORD_ONLY)
        for p in signature(agent_games, eval_str=True).parameters.values()
        if p.name != "refusal"
    ]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        own = signature(command, eval_str=True).parameters.values()
        own_options = [p.replace(kind=Parameter.KEYWORD_ONLY) for p in own if p.name != "checked"]

        @wraps(command)
        def run(**given: Any) -> None:
            with usage_errors():
                checked = agent_games(
                    **{p.name: given.pop(p.name) for p in shared}, refusal=refusal
                )
            command(checked, **given)

        run.__signature__ = Signature([*shared, *own_options])  # type: ignore[attr-defined]
        return run

    return decorate


def cycle_specs(specs: Sequence[str], players: int) -> list[str]:
    """One agent spec per seat, repeating ``specs`` in order if fewer are given."""
    if len(specs) > players:
        given = plural(len(specs), "agent")
        raise UsageError(f"{given} given for {plural(players, 'player')}")
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


def make_seats(
    text: str | None, players: int, seed: int, policy: PolicyChanges | None = None
) -> list[Seat]:
    """The seats of ``--seats`` (default: seat 0 human, the rest greedy), bots seeded, the
    outside agents under the table's ``policy``."""
    specs = parse_specs(text, "--seats") if text else [HUMAN] + ["greedy"] * (players - 1)
    if len(specs) != players:
        raise UsageError(
            f"--seats names {plural(len(specs), 'seat')} but the game has "
            f"{plural(players, 'player')}"
        )
    check_agents(specs)
    return [
        Seat(spec, None if spec == HUMAN else make_agent(spec, agent_seed(seed, p), policy=policy))
        for p, spec in enumerate(specs)
    ]


def seat_label(p: int, labels: Sequence[str] | None) -> str:
    """``seat 2`` or ``seat 2 (greedy)`` (seats named from 1: :func:`words.seat`)."""
    return words.seat_label(p, labels)


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
    rival = state.opponent_breakdown()  # a solo seat's opponent (the Trolls), if any
    if rival:
        table.add_column(opponent_of(state), justify="right")
    for category in dict.fromkeys(k for b in breakdowns for k in b):
        cells = [str(b.get(category, 0)) for b in breakdowns]
        table.add_row(category.replace("_", " "), *cells, *([""] if rival else []))
    for category, value in rival.items():
        table.add_row(category.replace("_", " "), *([""] * len(seats)), str(value))
    totals = [str(s) for s in state.scores()]
    if rival:
        totals.append(str(sum(rival.values())))
    table.add_row("total", *totals, style="bold", end_section=True)
    return table


def opponent_of(state: State) -> str:
    """The opponent a solo variant is played against (``the Trolls``), or ``""``."""
    return state.game.variant(state.setup.variant).opponent


def print_results(console: Console, state: State, labels: Sequence[str] | None = None) -> None:
    """The scores table, the winners (once the game is over) and a rating if the game has one."""
    console.print(scores_table(state, labels))
    if not state.is_terminal():
        console.print("The game is not over.")
        return
    console.print(Text(verdict(state, labels), style="bold magenta"))
    rating = state.observation(0).get("rating")
    if rating is not None:
        console.print(Text(f"Rating: {rating}", style="bold magenta"))
    notes = state.score_notes()
    if notes:
        console.print(Text("Where the points came from:", style="bold"))
        for category, note in notes.items():
            console.print(Text(f"  {category.replace('_', ' ')}: {note}"))


#: the width of a progress line's bar
BAR = 16


def progress_line(console: Console, most: int, eta: bool = True) -> Progress:
    """A progress line that fits the terminal, 80 columns included: its description cut with
    an ellipsis where needed, a bar, the games done of at most ``most``, the time taken (and
    the time left, ``eta``)."""
    counts = 2 * len(str(max(most, 1))) + 1
    times = len("0:00:00") + (len("eta 0:00:00") if eta else 0)
    between = 5 if eta else 3  # one space between columns
    width = max(12, console.width - BAR - counts - times - between - 1)
    describe = Column(no_wrap=True, overflow="ellipsis", max_width=width)
    columns = [
        TextColumn("{task.description}", table_column=describe),
        BarColumn(bar_width=BAR),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if eta:
        columns += [TextColumn("eta"), TimeRemainingColumn()]
    return Progress(*columns, console=console)
