"""Save files and replays: a game is its setup (seed included) plus its action log."""

from __future__ import annotations

import json
import os
import re
import reprlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulebook.core.errors import (
    IllegalAction,
    RulebookError,
    SaveFileError,
    SetupError,
    UnknownGame,
)
from rulebook.core.registry import get_game
from rulebook.core.state import SAVE_FORMAT, State
from rulebook.core.words import plural, seat

#: ``bots``: the seats bots played in a web game, from which move to which (not replayed)
_KEYS = {"format", "game", "players", "seed", "variant", "options", "log", "seats", "bots"}
#: the longest number a save file may hold (a seed is a few dozen digits at most): longer ones
#: are refused before Python converts them (it gives up at 4300 digits with a ValueError)
_DIGITS = 1000
#: the most of a value a refusal quotes (a file may hold a megabyte in one string)
_QUOTED = reprlib.Repr()
_QUOTED.maxlevel, _QUOTED.maxlist, _QUOTED.maxdict = 2, 3, 3
_QUOTED.maxstring = _QUOTED.maxother = 40


def _quoted(value: object) -> str:
    return _QUOTED.repr(value)


def _one_line(text: str, limit: int = 200) -> str:
    """The first line of a refusal, clipped: what a refusal says fits on one line."""
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _whole_number(text: str) -> int:
    if len(text) > _DIGITS:
        raise SaveFileError(f"not a save file: a number of {len(text)} digits")
    return int(text)


def _not_json(name: str) -> Any:
    raise SaveFileError(f"not a save file: {name} is not JSON")


def _parse(text: str) -> Any:
    """JSON text as Python values; :class:`SaveFileError` for what is not JSON, or is JSON no
    parser should be asked to build: nesting too deep for its recursion, numbers of thousands of
    digits (``NaN`` and ``Infinity``, which Python's parser takes, are not JSON at all)."""
    try:
        return json.loads(text, parse_int=_whole_number, parse_constant=_not_json)
    except RecursionError:
        raise SaveFileError("not a save file: nested too deeply") from None
    except json.JSONDecodeError as exc:  # where, in a person's words, not the parser's
        raise SaveFileError(
            f"not a save file: it is not JSON text (save files are what rulebook play --save "
            f"writes; the first problem is on line {exc.lineno}, column {exc.colno})"
        ) from None


#: half of a UTF-16 pair, alone: what JSON's ``\ud800`` escapes make, and no file, terminal or
#: page can hold
_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(data: Mapping[str, Any]) -> None:
    """Refuse a string that is not Unicode text (every string of the file, keys included)."""
    todo: list[Any] = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                raise SaveFileError("not a save file: a string holds a lone surrogate")
        elif isinstance(item, Mapping):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)


def save_contents(log: str | bytes | Path | Mapping[str, Any]) -> Mapping[str, Any]:
    """What a save file (JSON text or bytes, a path, or its parsed mapping) holds, checked
    field by field but not yet replayed: :class:`SaveFileError` names the first problem in one
    line. Pass the result to :func:`replay` and :func:`saved_seats` to read a file once."""
    if isinstance(log, Path):
        path = log
        try:
            log = path.read_bytes()
        except OSError as exc:
            raise SaveFileError(f"cannot read {path}: {exc.strerror}") from None
    if isinstance(log, bytes):
        try:
            log = log.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveFileError(f"not a save file: it is not UTF-8 text ({exc.reason})") from None
    data = _parse(log) if isinstance(log, str) else log
    if not isinstance(data, Mapping):
        raise SaveFileError("not a save file: expected a JSON object")
    _check_text(data)
    missing = {"game", "players", "seed", "log"} - set(data)
    if missing:
        raise SaveFileError(f"not a save file: missing {', '.join(sorted(missing))}")
    extra = set(data) - _KEYS
    if extra:
        shown = ", ".join(_quoted(k) for k in sorted(extra, key=str)[:3])
        raise SaveFileError(f"not a save file: unknown field(s) {shown}")
    if data.get("format", SAVE_FORMAT) != SAVE_FORMAT:
        raise SaveFileError(f"unsupported save format {_quoted(data.get('format'))}")
    if not isinstance(data["game"], str):
        raise SaveFileError(f"not a save file: game must be text, not {_quoted(data['game'])}")
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise SaveFileError(f"not a save file: variant must be text, not {_quoted(variant)}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise SaveFileError("not a save file: options must be an object")
    for name, value in options.items():
        if not isinstance(value, str):
            raise SaveFileError(
                f"not a save file: option {_quoted(name)} must be text, not {_quoted(value)}"
            )
    seats = data.get("seats")
    if seats is not None and (
        not isinstance(seats, list)
        or not all(isinstance(s, str) and s.strip() for s in seats)
        or len(seats) != data["players"]
    ):
        raise SaveFileError(
            "not a save file: seats must list one name per player (human, greedy, ...)"
        )
    bots = data.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, Mapping) for b in bots):
        raise SaveFileError("not a save file: bots must list objects (seat, bot, from, to)")
    return data


def _start(data: Mapping[str, Any]) -> State:
    try:
        game = get_game(data["game"])
        return game.new_game(
            data["players"], data["seed"], data.get("variant"), data.get("options")
        )
    except (UnknownGame, SetupError) as exc:
        raise SaveFileError(f"bad setup in save file: {_one_line(str(exc))}") from None


def replay_steps(log: str | bytes | Path | Mapping[str, Any]) -> Iterator[State]:
    """Yield the game's state before the first move and after every move of the log.

    The same state object is yielded each time, advanced in place; clone it to keep one.
    """
    data = save_contents(log)
    moves = data["log"]
    if not isinstance(moves, list):
        raise SaveFileError("not a save file: log must be a list of [seat, move] pairs")
    state = _start(data)
    yield state
    for i, entry in enumerate(moves, 1):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not isinstance(entry[0], int)
            or isinstance(entry[0], bool)
            or not isinstance(entry[1], str)
        ):
            raise SaveFileError(f"move {i} of the log is not a [seat, move] pair: {_quoted(entry)}")
        player, text = entry
        try:
            state.apply(player, text)
        except IllegalAction as exc:
            raise SaveFileError(
                f"move {i} ({_quoted(text)} by {seat(player)}) does not replay: "
                f"{_one_line(str(exc))}"
            ) from None
        yield state


def replay(log: str | bytes | Path | Mapping[str, Any]) -> State:
    """Rebuild a game from its setup and action log (a dict, JSON text or a file path)."""
    steps = replay_steps(log)
    state = next(steps)
    for _ in steps:  # every step advances the same state object
        pass
    return state


def from_json(text: str | bytes | Mapping[str, Any]) -> State:
    """The state saved by :meth:`State.to_json` (replayed from its seed and action log)."""
    return replay(text)


def save_text(state: State, seats: Sequence[str] | None = None) -> str:
    """The save file of a game as text: setup, action log and, if given, who sat in each seat
    (``human``, ``greedy``, ``mcts:2000``...; front ends use them when the game is resumed)."""
    data = state.log()
    if seats is not None:
        if len(seats) != state.num_players:
            raise RulebookError(
                f"{plural(len(seats), 'seat name')} for {plural(state.num_players, 'player')}"
            )
        data["seats"] = list(seats)
    return json.dumps(data, indent=1) + "\n"


def save(state: State, path: str | Path, seats: Sequence[str] | None = None) -> None:
    """Write the game's save file (:func:`save_text`) to ``path``, atomically: the file is
    written beside it and then renamed, so an interrupted save never leaves half a file."""
    target = Path(path)
    text = save_text(state, seats)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, target)


def saved_seats(log: str | bytes | Path | Mapping[str, Any]) -> list[str] | None:
    """Who sat in each seat of a save file (None when the file does not say)."""
    seats = save_contents(log).get("seats")
    return None if seats is None else [str(s) for s in seats]


def load(path: str | Path) -> State:
    return replay(Path(path))
