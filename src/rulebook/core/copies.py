"""EXPERIMENT: the copy loop of State.copy_into, compiled."""

from __future__ import annotations

from typing import Any


def copy_fields(
    src: object,
    dst: object,
    shared: tuple[str, ...],
    copied: tuple[str, ...],
    nested: tuple[str, ...],
) -> None:
    for name in shared:
        setattr(dst, name, getattr(src, name))
    for name in copied:
        value: Any = getattr(src, name)
        setattr(dst, name, value.copy())
    for name in nested:
        rows: list[Any] = getattr(src, name)
        setattr(dst, name, [row.copy() for row in rows])
