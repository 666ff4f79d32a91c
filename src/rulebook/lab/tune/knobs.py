"""Knobs: the data values ``rulebook tune`` may change, read from a TOML knob file.

A knob names one value of a game's data files by the same path a data override uses (game,
data file, then keys; entries of an array of tables by their ``id`` or ``name``, or position),
written as a TOML dotted key, and says which values to try: a range (``range = [low, high]``,
``step``) or a set (``values = [...]``)::

    target = "factions<=5, seats<=5"        # optional; --target replaces it

    [[knob]]
    path = 'archmagi."magi.toml".magi."Lightning Magi".plays'
    range = [1, 3]

    [[knob]]
    name = "Warrior coins"                  # optional label (default: the path)
    path = '"merchants-of-magick"."adventurers.toml".adventurers."The Warrior".coins'
    values = [6, 8, 10]

Everything is checked before a game is played: the game, the data file, every key and entry
exist, the range fits the value's type, and the data with each bound or value passes the
game's validation (:func:`rulebook.lab.overrides.check`).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)

from rulebook.core import get_game
from rulebook.core.data import DataError, data_file_exists, entry_index, read_toml
from rulebook.lab import overrides

#: the keys a ``[[knob]]`` table may hold
KNOB_KEYS = {"path", "name", "range", "step", "values"}


class KnobError(DataError):
    """A knob file that cannot be used: reported in one line, before anything runs."""


@dataclass(frozen=True)
class Knob:
    """One data value to tune: where it is, its value in the data files, what to try."""

    name: str
    path: tuple[str, ...]
    original: Any
    low: float = 0.0
    high: float = 0.0
    step: float | None = None
    values: tuple[Any, ...] = ()

    @property
    def kind(self) -> str:
        """``int`` or ``float`` (a range), or ``values`` (a set)."""
        if self.values:
            return "values"
        return "int" if isinstance(self.original, int) else "float"

    def space(self) -> BaseDistribution:
        """The Optuna distribution of the knob (a set's values as their JSON text)."""
        if self.kind == "values":
            return CategoricalDistribution([encode(v) for v in self.values])
        if self.kind == "int":
            return IntDistribution(int(self.low), int(self.high), step=int(self.step or 1))
        return FloatDistribution(self.low, self.high, step=self.step)

    def value(self, param: Any) -> Any:
        """The data value of a parameter the study suggested."""
        if self.kind == "values":
            return json.loads(param)
        if self.kind == "int":
            return int(param)
        return round(float(param), 10)

    def param(self, value: Any) -> Any:
        """The study's parameter for a data value (inverse of :meth:`value`)."""
        return encode(value) if self.kind == "values" else value

    def contains(self, value: Any) -> bool:
        """Whether the knob's space holds ``value`` (a range: on its grid)."""
        if self.kind == "values":
            return any(same(value, v) for v in self.values)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if not self.low <= value <= self.high:
            return False
        if self.step is None:
            return True
        k = (value - self.low) / self.step
        return math.isclose(k, round(k), abs_tol=1e-9)

    def distance(self, value: Any) -> float:
        """How far ``value`` is from the original: a share of the range, or 0/1 for a set."""
        if self.kind == "values":
            return 0.0 if same(value, self.original) else 1.0
        return abs(float(value) - float(self.original)) / (self.high - self.low)

    @property
    def where(self) -> str:
        return dotted(self.path)


def encode(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def same(a: Any, b: Any) -> bool:
    return encode(a) == encode(b)


def dotted(path: Sequence[str]) -> str:
    """A path as a TOML dotted key (keys quoted where TOML needs it)."""
    bare = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
    return ".".join(k if k and set(k) <= bare else json.dumps(k) for k in path)


def parse_path(text: object, where: str) -> tuple[str, ...]:
    """``'game."file.toml".key.entry.field'`` as its keys (TOML dotted-key syntax)."""
    if not isinstance(text, str) or not text.strip():
        raise KnobError(f"{where}: 'path' must be a dotted key such as 'game.\"file.toml\".key'")
    try:
        node: Any = tomllib.loads(f"{text} = 0")
    except tomllib.TOMLDecodeError:
        raise KnobError(f"{where}: path {text!r} is not a TOML dotted key") from None
    keys: list[str] = []
    while isinstance(node, dict):
        if len(node) != 1:
            raise KnobError(f"{where}: path {text!r} is not a TOML dotted key")
        key, node = next(iter(node.items()))
        keys.append(key)
    if len(keys) < 3:
        raise KnobError(f"{where}: path {text!r} needs a game, a data file and a key")
    return tuple(keys)


def original_value(path: tuple[str, ...], game: str, where: str) -> Any:
    """The value ``path`` names in the data files as shipped; :class:`KnobError` if none."""
    if path[0] != game:
        raise KnobError(f"{where}: the path names game {path[0]!r}, but this run tunes {game!r}")
    found = get_game(game)
    package = overrides.data_package(found)
    if not data_file_exists(package, path[1]):
        raise KnobError(f"{where}: {found.title} has no data file {path[1]!r}")
    node: Any = read_toml(package, path[1])
    for i, key in enumerate(path[2:], start=2):
        here = dotted(path[: i + 1])
        if isinstance(node, dict):
            if key not in node:
                raise KnobError(f"{where}: {here}: {path[1]} has no key {key!r} there")
            node = node[key]
        elif isinstance(node, list):
            try:
                node = node[entry_index(node, key, here)]
            except DataError as exc:
                raise KnobError(f"{where}: {exc}") from None
        else:
            raise KnobError(f"{where}: {here}: {dotted(path[:i])} is a value, not a table")
    if isinstance(node, dict):
        raise KnobError(f"{where}: {dotted(path)} is a table, not a value")
    return node


def number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def make_knob(raw: object, index: int, game: str) -> Knob:
    """One ``[[knob]]`` table, checked against the game's data."""
    where = f"knob {index + 1}"
    if not isinstance(raw, dict):
        raise KnobError(f"{where}: must be a table ([[knob]])")
    unknown = sorted(set(raw) - KNOB_KEYS)
    if unknown:
        raise KnobError(
            f"{where}: unknown key(s) {', '.join(unknown)} (keys: path, name, range, step, values)"
        )
    path = parse_path(raw.get("path"), where)
    name = raw.get("name", dotted(path))
    if not isinstance(name, str) or not name.strip():
        raise KnobError(f"{where}: 'name' must be a non-empty string")
    where = f"knob {name!r}"
    original = original_value(path, game, where)
    if ("range" in raw) == ("values" in raw):
        raise KnobError(f"{where}: give either range = [low, high] or values = [...]")
    if "values" in raw:
        if "step" in raw:
            raise KnobError(f"{where}: 'step' goes with a range, not with values")
        return Knob(name, path, original, values=set_values(raw["values"], original, where))
    low, high, step = range_of(raw["range"], raw.get("step"), original, where)
    return Knob(name, path, original, low, high, step)


def set_values(values: object, original: Any, where: str) -> tuple[Any, ...]:
    if not isinstance(values, list) or len(values) < 2:
        raise KnobError(f"{where}: 'values' must list at least two values")
    kind = type(original)
    for v in values:
        fits = type(v) is kind or (kind is float and type(v) is int)
        if not fits:
            raise KnobError(
                f"{where}: value {v!r} is a {type(v).__name__}, the data holds a {kind.__name__}"
            )
    if len({encode(v) for v in values}) != len(values):
        raise KnobError(f"{where}: 'values' lists a value twice")
    return tuple(values)


def range_of(
    bounds: object, step: object, original: Any, where: str
) -> tuple[float, float, float | None]:
    if not number(original):
        raise KnobError(
            f"{where}: the data holds {original!r}, not a number: give values = [...] instead"
        )
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(number(b) for b in bounds)):
        raise KnobError(f"{where}: 'range' must be [low, high], two numbers")
    low, high = bounds
    if not low < high:
        raise KnobError(f"{where}: range [{low}, {high}] is empty (low must be below high)")
    if step is not None and not (isinstance(step, int | float) and number(step) and step > 0):
        raise KnobError(f"{where}: 'step' must be a positive number, not {step!r}")
    if isinstance(original, int):
        if not all(isinstance(x, int) for x in (low, high, step if step is not None else 1)):
            raise KnobError(f"{where}: the data holds a whole number: range and step must be too")
        step = step if step is not None else 1
    if isinstance(step, int | float):
        k = (high - low) / step
        if not math.isclose(k, round(k), abs_tol=1e-9):
            raise KnobError(f"{where}: the range {high} - {low} is not a multiple of step {step}")
    return float(low), float(high), None if step is None else float(step)


def build_override(knobs: Sequence[Knob], values: Mapping[str, Any]) -> dict[str, Any] | None:
    """The data override setting each knob to ``values[name]``; only values that differ from
    the data files are written (None when nothing differs)."""
    out: dict[str, Any] = {}
    for knob in knobs:
        value = values[knob.name]
        if same(value, knob.original):
            continue
        node = out
        for key in knob.path[:-1]:
            node = node.setdefault(key, {})
        node[knob.path[-1]] = value
    return out or None


def check_values(knobs: Sequence[Knob], game: str, players: int, variant: str | None) -> None:
    """Set up a game with each knob at each bound or value (the others as shipped), so that a
    value the game's data refuses stops the run before it starts."""
    originals = {k.name: k.original for k in knobs}
    try:
        for knob in knobs:
            tried = knob.values if knob.values else (knob.low, knob.high)
            for raw in tried:
                value = int(raw) if knob.kind == "int" else raw
                try:
                    overrides.check(
                        build_override(knobs, {**originals, knob.name: value}),
                        game,
                        players,
                        variant,
                    )
                except DataError as exc:
                    first = str(exc).splitlines()
                    detail = "; ".join(line.strip() for line in first)
                    raise KnobError(f"knob {knob.name!r} = {value!r}: {detail}") from None
    finally:
        overrides.install(None)


@dataclass(frozen=True)
class KnobFile:
    """A knob file: its knobs and the target it names (if any)."""

    knobs: tuple[Knob, ...]
    target: str | None


def read_knobs(path: Path, game: str, players: int, variant: str | None) -> KnobFile:
    """The knob file at ``path``, every knob checked against ``game``'s data."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KnobError(f"cannot read knob file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise KnobError(f"knob file {path}: not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as exc:
        raise KnobError(f"knob file {path}: not valid TOML: {exc}") from None
    unknown = sorted(set(raw) - {"knob", "target"})
    if unknown:
        raise KnobError(
            f"knob file {path}: unknown key(s) {', '.join(unknown)} (keys: target, [[knob]])"
        )
    tables = raw.get("knob")
    if not isinstance(tables, list) or not tables:
        raise KnobError(f"knob file {path}: no [[knob]] table")
    target = raw.get("target")
    if target is not None and not isinstance(target, str):
        raise KnobError(f"knob file {path}: 'target' must be a string such as \"factions<=5\"")
    overrides.install(None)
    knobs = tuple(make_knob(t, i, game) for i, t in enumerate(tables))
    for seen, key in ((set[str](), "name"), (set[str](), "path")):
        for knob in knobs:
            value = knob.name if key == "name" else knob.where
            if value in seen:
                raise KnobError(f"knob file {path}: two knobs have the {key} {value!r}")
            seen.add(value)
    check_values(knobs, game, players, variant)
    return KnobFile(knobs, target)
