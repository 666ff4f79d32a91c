"""Save files and replays: a game is its setup (seed included) plus its action log."""

from __future__ import annotations

import json
import os
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

_KEYS = {"format", "game", "players", "seed", "variant", "options", "log", "seats"}


def _load(log: str | bytes | Path | Mapping[str, Any]) -> Mapping[str, Any]:
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
    if isinstance(log, str):
        try:
            data = json.loads(log)
        except json.JSONDecodeError as exc:
            raise SaveFileError(f"not a save file: invalid JSON ({exc})") from None
    else:
        data = log
    if not isinstance(data, Mapping):
        raise SaveFileError("not a save file: expected a JSON object")
    missing = {"game", "players", "seed", "log"} - set(data)
    if missing:
        raise SaveFileError(f"not a save file: missing {', '.join(sorted(missing))}")
    extra = set(data) - _KEYS
    if extra:
        raise SaveFileError(f"not a save file: unknown field(s) {', '.join(sorted(extra))}")
    if data.get("format", SAVE_FORMAT) != SAVE_FORMAT:
        raise SaveFileError(f"unsupported save format {data.get('format')!r}")
    seats = data.get("seats")
    if seats is not None and (
        not isinstance(seats, list)
        or not all(isinstance(s, str) and s.strip() for s in seats)
        or len(seats) != data["players"]
    ):
        raise SaveFileError(
            "not a save file: seats must list one name per player (human, greedy, ...)"
        )
    return data


def _start(data: Mapping[str, Any]) -> State:
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise SaveFileError("not a save file: options must be an object")
    variant = data.get("variant")
    try:
        game = get_game(str(data["game"]))
        return game.new_game(data["players"], data["seed"], variant, options)
    except (UnknownGame, SetupError) as exc:
        raise SaveFileError(f"bad setup in save file: {exc}") from None


def replay_steps(log: str | bytes | Path | Mapping[str, Any]) -> Iterator[State]:
    """Yield the game's state before the first move and after every move of the log.

    The same state object is yielded each time, advanced in place; clone it to keep one.
    """
    data = _load(log)
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
            raise SaveFileError(f"move {i} of the log is not a [seat, move] pair: {entry!r}")
        player, text = entry
        try:
            state.apply(player, text)
        except IllegalAction as exc:
            raise SaveFileError(
                f"move {i} ({text!r} by {seat(player)}) does not replay: {exc}"
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
    seats = _load(log).get("seats")
    return None if seats is None else [str(s) for s in seats]


def load(path: str | Path) -> State:
    return replay(Path(path))
