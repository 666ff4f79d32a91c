"""The games on offer and the checking of a new-game request (from the form or the API):
what the home page lists, and the one place a requested setup becomes a :class:`Setup`."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import rulebook
from rulebook.core import Setup, UnknownGame, get_game
from rulebook.web import seats as seat_kinds
from rulebook.web.errors import BadRequest


def catalogue() -> list[dict[str, Any]]:
    """Every registered game: name, title, one-line description, variants with their player
    counts, and setup options (with the variants that take them)."""
    out = []
    for name in rulebook.games():
        g = get_game(name)
        out.append(
            {
                "name": g.name,
                "title": g.title,
                "description": g.description,
                "players": [
                    min(v.min_players for v in g.variants),
                    max(v.max_players for v in g.variants),
                ],
                "variants": [
                    {
                        "name": v.name,
                        "min_players": v.min_players,
                        "max_players": v.max_players,
                        "description": v.description,
                    }
                    for v in g.variants
                ],
                "options": [
                    {
                        "name": o.name,
                        "choices": list(o.choices),
                        "default": o.default,
                        "variants": list(o.variants),
                        "description": o.description,
                    }
                    for o in g.options
                ],
            }
        )
    return out


def seat_choices() -> list[dict[str, str]]:
    return [{"key": c.key, "label": c.label, "about": c.about} for c in seat_kinds.CHOICES]


def new_setup(
    game: str, variant: str | None, players: int, options: Mapping[str, str], seats: list[str]
) -> tuple[Setup, list[str]]:
    """A checked setup (with a fresh secret seed) and the seat specs, from the seat kinds of
    the form (``human``, ``greedy``, ``mcts-quick``...). :class:`BadRequest` says what is
    wrong."""
    try:
        found = get_game(game)
        seed = secrets.randbits(62)
        setup = found.setup(players, seed, variant or None, dict(options))
        if len(seats) != setup.players:
            raise BadRequest(f"give one seat for each of the {setup.players} players")
        specs = [seat_kinds.spec_of(s) for s in seats]
    except UnknownGame as exc:
        raise BadRequest(str(exc)) from None
    return setup, specs
