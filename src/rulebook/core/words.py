"""Counting in messages: ``1 player``, ``2 players``, ``takes 2-8 players``."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, in the plural (``many``, default ``noun + "s"``) unless 1."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def player_count(low: int, high: int) -> str:
    """A range of player counts: ``1 player``, ``3 players``, ``2-8 players``."""
    return plural(low, "player") if low == high else f"{low}-{high} players"
