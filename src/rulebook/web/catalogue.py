"""The games on offer and the checking of a new-game request (from the form or the API):
what the home page lists, and the one place a requested setup becomes a :class:`Setup`."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import rulebook
from rulebook.agents.expert import NoWeights, has_weights, trained, weights_name
from rulebook.core import Setup, SetupError, UnknownGame, get_game
from rulebook.web import seats as seat_kinds
from rulebook.web.errors import BadRequest


def catalogue() -> list[dict[str, Any]]:
    """Every registered game: name, title, one-line description, variants with their player
    counts, and setup options (with the variants that take them)."""
    out = []
    learned = trained()
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
                        # the player counts the expert bot was trained for
                        "expert": [
                            n
                            for n in range(v.min_players, v.max_players + 1)
                            if weights_name(Setup(g.name, n, 0, v.name)) in learned
                        ],
                    }
                    for v in g.variants
                ],
                "options": [
                    {
                        "name": o.name,
                        "choices": list(o.choices),
                        # an option given by a rule (no list of choices): typed as text
                        "rule": o.rule,
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
    return [{"key": c.key, "label": c.label, "about": c.about} for c in seat_kinds.choices()]


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
        if any(s in seat_kinds.LEARNED for s in specs) and not has_weights(setup):
            raise NoWeights(
                f"{found.title} ({setup.variant}, {setup.players} players) has no "
                "expert bot yet: choose another bot"
            )
    except (UnknownGame, SetupError, NoWeights) as exc:
        raise BadRequest(str(exc)) from None
    return setup, specs
