"""A game's data as a form: every value of its data files, grouped like the files, with its
type or allowed range and where it comes from; and a designer's changes as a data override.

What the lab page shows and what ``rulebook simulate --data-override FILE.toml`` takes are
one thing: :func:`values` walks each data file of a game beside the schema it is validated
against (:func:`rulebook.core.data.schemas`), and :func:`override_of` turns the values a
designer changed into the override file's tables (:mod:`rulebook.lab.overrides`), which
:func:`override_toml` writes as the TOML the CLI reads. A value the form can check alone (a
number out of its range, a choice that is none of the choices) is refused here, with the
value named; the rest (cross-references, a rule's own checks) by the game's validation, which
the caller runs where installing an override is harmless (a worker process: an override
changes the data of every game of the process that installs it).
"""

from __future__ import annotations

import json
import math
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import annotated_types
import tomli_w
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from rulebook.core import get_game
from rulebook.core.data import ENTRY_KEYS, DataError, read_file, schemas
from rulebook.lab.overrides import data_package

#: the fields that say where an entry's values come from: shown beside the values, not edited
PROVENANCE = ("source", "why", "authored")

Kind = Literal["int", "float", "bool", "choice", "text", "toml"]


@dataclass(frozen=True)
class Value:
    """One value of a game's data files, as the form shows it."""

    file: str  #: the data file, ``adventurers.toml``
    #: the keys below the file down to the value; an entry of an array of tables by its ``id``
    #: or ``name`` (or position): ``("adventurers", "The Warrior", "coins")``
    path: tuple[str, ...]
    value: Any  #: as shipped
    kind: Kind  #: how it is entered: a number, a yes/no, one of ``choices``, text, or TOML
    low: float | None = None  #: the least it may be (numbers), None: no bound
    high: float | None = None  #: the most it may be
    choices: tuple[str, ...] = ()
    source: str = ""  #: ``rulebook``, ``public`` or ``authored``
    reason: str = ""  #: why it is what it is (an authored value's one-line reason)

    @property
    def group(self) -> str:
        """The entry or table the value belongs to: ``adventurers: The Warrior``, ``rules``."""
        keys = self.path[:-1]
        if len(keys) >= 2:
            return f"{keys[0]}: {' / '.join(keys[1:])}"
        return keys[0] if keys else self.file

    @property
    def label(self) -> str:
        return self.path[-1].replace("_", " ")

    def key(self, game: str) -> str:
        """The value's dotted TOML key, as knob files and data overrides name it:
        ``"merchants-of-magick"."adventurers.toml".adventurers."The Warrior".coins``."""
        return ".".join(_toml_key(k) for k in (game, self.file, *self.path))

    @property
    def ident(self) -> str:
        """A name for the form's field: the file and path as JSON."""
        return json.dumps([self.file, *self.path], separators=(",", ":"))

    def shown(self) -> str:
        """The shipped value as the form's field holds it."""
        return shown(self.kind, self.value)

    def range_text(self) -> str:
        """The allowed values in words: ``whole number, 0 or more``, ``one of: Steel, Wood``."""
        if self.kind == "choice":
            return "one of: " + ", ".join(self.choices)
        if self.kind == "bool":
            return "yes or no"
        if self.kind == "text":
            return "text"
        if self.kind == "toml":
            return "a TOML value, like the one shown"
        noun = "whole number" if self.kind == "int" else "number"
        if self.low is not None and self.high is not None:
            return f"{noun}, {_num(self.low)} to {_num(self.high)}"
        if self.low is not None:
            return f"{noun}, {_num(self.low)} or more"
        if self.high is not None:
            return f"{noun}, {_num(self.high)} or less"
        return noun


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _toml_key(key: str) -> str:
    bare = key and all(ch.isalnum() or ch in "-_" for ch in key)
    return key if bare else json.dumps(key)


def shown(kind: Kind, value: Any) -> str:
    """``value`` as a form's text field holds it."""
    if kind == "bool":
        return "true" if value else "false"
    if kind == "toml":
        return inline_toml(value)
    return str(value)


def inline_toml(value: Any) -> str:
    """``value`` as one line of TOML: ``["grimoire", "crossbow"]``, ``{ steel = 2 }``."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(inline_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{ "
            + ", ".join(f"{_toml_key(str(k))} = {inline_toml(v)}" for k, v in value.items())
            + " }"
        )
    return tomli_w.dumps({"v": value}).partition("=")[2].strip()


# -- reading the schema -----------------------------------------------------------------------
def _unwrap(annotation: Any) -> Any:
    """``int | None`` -> ``int``; ``Annotated[int, ...]`` -> ``int``."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _unwrap(args[0])
    return annotation


def _model(annotation: Any) -> type[BaseModel] | None:
    kind = _unwrap(annotation)
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def _item_model(annotation: Any) -> type[BaseModel] | None:
    """The model of an array of tables' entries (``list[OrderSpec]``), if it is one."""
    kind = _unwrap(annotation)
    if typing.get_origin(kind) in (list, tuple):
        args = typing.get_args(kind)
        return _model(args[0]) if args else None
    return None


def _bounds(metadata: Sequence[Any], integer: bool) -> tuple[float | None, float | None]:
    low: float | None = None
    high: float | None = None
    for m in metadata:
        if isinstance(m, annotated_types.Ge):
            low = float(m.ge)  # type: ignore[arg-type]
        elif isinstance(m, annotated_types.Gt):
            low = float(m.gt) + (1 if integer else 0)  # type: ignore[arg-type]
        elif isinstance(m, annotated_types.Le):
            high = float(m.le)  # type: ignore[arg-type]
        elif isinstance(m, annotated_types.Lt):
            high = float(m.lt) - (1 if integer else 0)  # type: ignore[arg-type]
    return low, high


def _leaf(annotation: Any, metadata: Sequence[Any], value: Any) -> dict[str, Any]:
    """How a value of this annotation is entered: kind, bounds, choices."""
    kind = _unwrap(annotation)
    if kind is bool or isinstance(value, bool):
        return {"kind": "bool"}
    if typing.get_origin(kind) is Literal:
        return {"kind": "choice", "choices": tuple(str(c) for c in typing.get_args(kind))}
    if kind is int or (kind is Any and isinstance(value, int)):
        low, high = _bounds(metadata, True)
        return {"kind": "int", "low": low, "high": high}
    if kind is float:
        low, high = _bounds(metadata, False)
        return {"kind": "float", "low": low, "high": high}
    if kind is str and isinstance(value, str):
        return {"kind": "text"}
    return {"kind": "toml"}


def _provenance(table: Mapping[str, Any], name: str, inherited: tuple[str, str]) -> tuple[str, str]:
    """Where the value ``name`` of ``table`` comes from, and why."""
    authored = table.get("authored")
    if isinstance(authored, dict) and name in authored:
        return "authored", str(authored[name])
    source = table.get("source")
    if isinstance(source, str):
        return source, str(table.get("why", ""))
    return inherited


def _entry_name(entry: Mapping[str, Any], position: int) -> str:
    for key in ENTRY_KEYS:
        if key in entry:
            return str(entry[key])
    return str(position)


def _walk(
    file: str,
    model: type[BaseModel],
    table: Mapping[str, Any],
    path: tuple[str, ...],
    inherited: tuple[str, str],
    out: list[Value],
) -> None:
    fields: dict[str, FieldInfo] = model.model_fields
    here = _provenance(table, "", inherited) if "source" in table else inherited
    for name, value in table.items():
        if name in PROVENANCE:
            continue
        info = fields.get(name)
        annotation = info.annotation if info is not None else Any
        metadata = info.metadata if info is not None else []
        sub = _model(annotation)
        items = _item_model(annotation)
        if sub is not None and isinstance(value, dict):
            _walk(file, sub, value, (*path, name), here, out)
        elif items is not None and isinstance(value, list):
            for i, entry in enumerate(value):
                if isinstance(entry, dict):
                    key = (*path, name, _entry_name(entry, i))
                    _walk(file, items, entry, key, here, out)
        elif isinstance(value, dict) and all(
            not isinstance(v, dict | list) for v in value.values()
        ):
            # a table of plain values (orders by player count): one value each
            args = typing.get_args(_unwrap(annotation))
            inner = args[1] if len(args) == 2 else Any
            source, reason = _provenance(table, name, here)
            for k, v in value.items():
                spec = _leaf(inner, [], v)
                out.append(
                    Value(file, (*path, name, str(k)), v, source=source, reason=reason, **spec)
                )
        else:
            if name in ENTRY_KEYS and len(path) >= 2:
                continue  # the entry's own name: it addresses the entry
            source, reason = _provenance(table, name, here)
            spec = _leaf(annotation, metadata, value)
            out.append(Value(file, (*path, name), value, source=source, reason=reason, **spec))


def values(game: str) -> list[Value]:
    """Every value of ``game``'s data files as shipped, file by file, in the files' order."""
    package = data_package(get_game(game))
    out: list[Value] = []
    for filename, schema in schemas(package):
        _walk(filename, schema, read_file(package, filename), (), ("", ""), out)
    return out


# -- a designer's changes -----------------------------------------------------------------------
class FormError(DataError):
    """A value a designer entered that cannot be what it names: the value and why."""


def parse(value: Value, text: str) -> Any:
    """What ``text`` entered in ``value``'s field stands for; :class:`FormError` if it cannot
    be a value of its kind (a word for a number, a number out of range, no such choice)."""
    where = f"{value.group}, {value.label}"
    raw = text.strip()
    if value.kind == "int":
        try:
            number: float = int(raw)
        except ValueError:
            raise FormError(f"{where}: {text!r} is not a whole number") from None
    elif value.kind == "float":
        try:
            number = float(raw)
        except ValueError:
            raise FormError(f"{where}: {text!r} is not a number") from None
        if not math.isfinite(number):
            raise FormError(f"{where}: {text!r} is not a number")
    elif value.kind == "bool":
        if raw.lower() not in ("true", "false", "yes", "no", "on", "off"):
            raise FormError(f"{where}: {text!r} is neither yes nor no")
        return raw.lower() in ("true", "yes", "on")
    elif value.kind == "choice":
        if raw not in value.choices:
            raise FormError(f"{where}: {text!r} is none of {', '.join(value.choices)}")
        return raw
    elif value.kind == "text":
        return text
    else:
        try:
            return tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError as exc:
            raise FormError(f"{where}: {text!r} is not a TOML value ({exc})") from None
    if value.low is not None and number < value.low:
        raise FormError(f"{where}: {raw} is below {_num(value.low)}, the least it may be")
    if value.high is not None and number > value.high:
        raise FormError(f"{where}: {raw} is above {_num(value.high)}, the most it may be")
    return number


def override_of(game: str, entered: Mapping[str, str]) -> dict[str, Any]:
    """The data override (``{game: {file: {...}}}``) of the values entered in the form
    (``{Value.ident: text}``) that differ from the shipped ones; :class:`FormError` for a name
    that is no value of the game or a value that cannot be one (:func:`parse`). Entries of
    arrays of tables are addressed by their names, as override files do."""
    known = {v.ident: v for v in values(game)}
    files: dict[str, Any] = {}
    for ident, text in entered.items():
        value = known.get(ident)
        if value is None:
            raise FormError(f"{get_game(game).title} has no data value {ident}")
        parsed = parse(value, text)
        if parsed == value.value and type(parsed) is type(value.value):
            continue
        table = files.setdefault(value.file, {})
        for key in value.path[:-1]:
            table = table.setdefault(key, {})
        table[value.path[-1]] = parsed
    return {game: files} if files else {}


def changed(game: str, override: Mapping[str, Any]) -> list[tuple[Value, Any]]:
    """The values an override (as :func:`override_of` makes them) changes, with the new value."""
    found = []
    files = override.get(game, {})
    for value in values(game):
        table: Any = files.get(value.file)
        for key in value.path:
            table = table.get(key) if isinstance(table, dict) else None
        if table is not None:
            found.append((value, table))
    return found


def override_toml(override: Mapping[str, Any]) -> str:
    """The override as the TOML file ``--data-override`` (and ``rulebook tune``'s knobs) read."""
    return tomli_w.dumps(dict(override))
