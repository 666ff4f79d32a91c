"""Loading game data files (TOML), validated on load, with the provenance of every value.

Every entry of a data file says where its values come from: ``source = "rulebook"`` (stated by
the rule text), ``"public"`` (facts gathered from public sources, see the rulebooks' README) or
``"authored"`` (decided by this project). An entry that is authored, or that carries individually
authored values listed in ``authored = { field = "reason" }``, must say why in one line, so the
published card lists can be dropped in later.
"""

from __future__ import annotations

import functools
import inspect
import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any, Literal, TypeVar, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

#: the caches of content compiled from data files (see :func:`cached`)
_CACHES: list[functools._lru_cache_wrapper[Any]] = []


def cached(build: Callable[[], T]) -> Callable[[], T]:
    """Cache ``build()`` (content compiled from data files) until :func:`clear_caches`.

    Games cache their compiled content through this, so that a run with other data (a
    designer's override) can drop every cache at once and read the files again.
    """
    wrapper = functools.cache(build)
    _CACHES.append(wrapper)
    return wrapper


def clear_caches() -> None:
    """Forget all compiled content: the next use reads the data files again."""
    for wrapper in _CACHES:
        wrapper.cache_clear()


class DataError(ValueError):
    """A game data file that is missing, not TOML, or breaks its schema."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(Strict):
    """Base of every data entry: where its values come from."""

    source: Literal["rulebook", "public", "authored"]
    why: str = ""
    #: values of this entry authored by the project, each with its one-line reason
    authored: dict[str, str] = {}

    @model_validator(mode="after")
    def _provenance(self) -> Sourced:
        if self.source != "rulebook" and not self.why.strip():
            raise ValueError(f"a {self.source} entry needs a one-line 'why'")
        fields = set(type(self).model_fields) - {"source", "why", "authored"}
        for name, reason in self.authored.items():
            if name not in fields:
                raise ValueError(f"'authored' names {name!r}, which is not a field here")
            if not reason.strip():
                raise ValueError(f"authored value {name!r} needs a reason")
        return self


# -- designers' data overrides ------------------------------------------------------------------
#: (data package, file name) -> patch merged into that file's TOML (see :func:`set_overrides`)
_OVERRIDES: dict[tuple[str, str], dict[str, Any]] = {}

#: fields that name an entry of an array of tables, tried in order
ENTRY_KEYS = ("id", "name")


def set_overrides(overrides: dict[tuple[str, str], dict[str, Any]]) -> None:
    """Replace values of data files for this process: ``{(package, filename): patch}``.

    A patch is merged into the file's TOML when :func:`read_toml` reads it: a table merges
    into a table key by key; a table given for an array of tables addresses its entries by
    their ``id`` or ``name`` (or their position, ``"0"``, ``"1"``...); any other value
    replaces the file's value. Caches of compiled content are dropped (:func:`clear_caches`),
    so the next game reads the data again. ``set_overrides({})`` goes back to the files.
    """
    _OVERRIDES.clear()
    _OVERRIDES.update({key: dict(patch) for key, patch in overrides.items()})
    clear_caches()


def overrides() -> dict[tuple[str, str], dict[str, Any]]:
    """The overrides in force (a copy)."""
    return dict(_OVERRIDES)


def fields(record: object, *names: str) -> dict[str, Any]:
    """The attributes ``names`` of a content ``record``, in that order: the printed values a
    view shows as they are (a card's name, cost, points...)."""
    return {name: getattr(record, name) for name in names}


def entry_index(items: list[Any], key: str, where: str) -> int:
    """The index of the entry of an array of tables that ``key`` names."""
    for i, item in enumerate(items):
        if isinstance(item, dict) and any(item.get(k) == key for k in ENTRY_KEYS):
            return i
    if key.isdigit() and int(key) < len(items):
        return int(key)
    names = [
        str(next(item[k] for k in ENTRY_KEYS if k in item))
        for item in items
        if isinstance(item, dict) and any(k in item for k in ENTRY_KEYS)
    ]
    known = ", ".join(repr(n) for n in names) if names else f"positions 0-{len(items) - 1}"
    raise DataError(f"{where}: override names no entry {key!r}; the entries are {known}")


def merge(data: Any, patch: Any, where: str) -> Any:
    """``data`` with ``patch`` merged in (see :func:`set_overrides`); ``data`` is not changed."""
    if isinstance(patch, dict) and isinstance(data, dict):
        out = dict(data)
        for key, value in patch.items():
            out[key] = merge(data[key], value, f"{where}.{key}") if key in data else value
        return out
    if isinstance(patch, dict) and isinstance(data, list):
        out_list = list(data)
        for key, value in patch.items():
            i = entry_index(out_list, str(key), where)
            out_list[i] = merge(out_list[i], value, f"{where}[{key}]")
        return out_list
    return patch


def read_toml(package: str, filename: str) -> dict[str, Any]:
    """The TOML of ``package/filename``, with the data override for it (if any) merged in."""
    raw = _read_file(package, filename)
    patch = _OVERRIDES.get((package, filename))
    if patch is None:
        return raw
    merged: dict[str, Any] = merge(raw, patch, f"{package}/{filename} (override)")
    return merged


def read_file(package: str, filename: str) -> dict[str, Any]:
    """The TOML of ``package/filename`` as shipped (no data override merged in)."""
    return _read_file(package, filename)


def _read_file(package: str, filename: str) -> dict[str, Any]:
    try:
        text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise DataError(f"{package}/{filename}: missing ({exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{package}/{filename}: not valid TOML: {exc}") from None


def validate(model: type[M], raw: dict[str, Any], where: str) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        lines = [f"{where}: invalid data"]
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            lines.append(f"  {loc}: {err['msg']}")
        raise DataError("\n".join(lines)) from None


def load(model: type[M], package: str, filename: str) -> M:
    """Read ``package/filename`` and validate it against ``model``; :class:`DataError` if bad."""
    where = f"{package}/{filename}"
    if (package, filename) in _OVERRIDES:
        where += " (with a data override)"
    return validate(model, read_toml(package, filename), where)


#: each game's data files and their schemas, by data package (:func:`content_from_files`)
_SCHEMAS: dict[str, tuple[tuple[str, type[BaseModel]], ...]] = {}


def schemas(package: str) -> tuple[tuple[str, type[BaseModel]], ...]:
    """The data files of ``package`` that its game's content is compiled from, each with the
    schema it is validated against, in the order the content reads them (empty for a package
    no content reads)."""
    return _SCHEMAS.get(package, ())


def content_from_files(package: str, compile: Callable[..., T]) -> Callable[[], T]:
    """A game's ``content()``: its data files read and checked once per process (:func:`cached`).

    Each parameter of ``compile`` is a data file of ``package``: named by the parameter
    (``sheet`` reads ``sheet.toml``) and validated against the schema it is annotated with
    (:func:`load`), in the order of the parameters; ``compile`` then checks the files'
    cross-references and builds the content the rules use.
    """
    hints = get_type_hints(compile)
    files: list[tuple[type[BaseModel], str]] = []
    for name in inspect.signature(compile).parameters:
        schema = hints.get(name)
        if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
            raise TypeError(f"{compile.__qualname__}: parameter {name!r} names no data schema")
        files.append((schema, f"{name}.toml"))
    _SCHEMAS[package] = tuple((filename, schema) for schema, filename in files)

    def content() -> T:
        """The game's content from its data files (read and checked once per process)."""
        return compile(*(load(schema, package, filename) for schema, filename in files))

    return cached(content)


def data_file_exists(package: str, filename: str) -> bool:
    """Whether ``package`` ships a data file ``filename``."""
    try:
        return resources.files(package).joinpath(filename).is_file()
    except ModuleNotFoundError:
        return False


def authored_reasons(
    package: str, filename: str, table: str, key: str | Callable[[dict[str, Any]], str] = "name"
) -> dict[str, str]:
    """The entries of the array of tables ``table`` in ``package/filename`` that the project
    authored, by name (their ``key`` field, or ``key(entry)``): an entry with ``source =
    "authored"`` gives its ``why``; one with individually authored values gives each
    (``"column: a blacksmith works steel"``). The rulebook's own entries are left out. For
    marking authored cards where players read them (``Game.authored_cards``)."""
    found: dict[str, str] = {}
    for entry in read_toml(package, filename).get(table, []):
        if not isinstance(entry, dict):
            continue
        name = key(entry) if callable(key) else entry.get(key)
        if name is None:
            continue
        reasons = []
        if entry.get("source") == "authored":
            reasons.append(str(entry.get("why", "")).strip())
        reasons += [f"{field}: {why}" for field, why in dict(entry.get("authored", {})).items()]
        reasons = [r for r in reasons if r]
        if reasons:
            found[str(name)] = "; ".join(reasons)
    return found
