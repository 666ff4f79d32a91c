"""Loading game data files (TOML), validated on load, with the provenance of every value.

Every entry of a data file says where its values come from: ``source = "rulebook"`` (stated by
the rule text), ``"public"`` (facts gathered from public sources, see the rulebooks' README) or
``"authored"`` (decided by this project). An entry that is authored, or that carries individually
authored values listed in ``authored = { field = "reason" }``, must say why in one line, so the
published card lists can be dropped in later.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any, Literal, TypeVar

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


def read_toml(package: str, filename: str) -> dict[str, Any]:
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
    return validate(model, read_toml(package, filename), f"{package}/{filename}")
