"""A tournament's standings written out: a self-contained HTML leaderboard (no script, no
outside asset; every value escaped by Jinja2's autoescape), and the ratings as JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
import math
from importlib import resources
from typing import Any

from jinja2 import Environment

from rulebook.arena.standings import Board, Standing, Standings, tally_keys
from rulebook.core.words import plural

#: the mark of a leaderboard in its head
GENERATOR = "rulebook arena"


def points(x: float) -> str:
    return f"{x:+.0f}" if round(x) else "0"


def interval(s: Standing) -> str:
    return f"{s.low:+.0f} to {s.high:+.0f}" if (round(s.low) or round(s.high)) else "0 (anchor)"


def number(x: float) -> str:
    """A tally or a win count: whole numbers as such, others with up to 4 significant digits."""
    return str(int(x)) if float(x).is_integer() else f"{x:.4g}"


def caption(s: Standings) -> str:
    top = " > ".join(s.top)
    return (
        f"{plural(s.tables, 'table')}; top {len(s.top)} order ({top}) kept in "
        f"{s.fitted.stability:.0%} of {s.fitted.drops} drops of 1% of the tables"
    )


def _rows(s: Standings, keys: list[str], low: float, high: float) -> list[dict[str, Any]]:
    span = max(high - low, 1e-9)

    def at(x: float) -> float:
        return round(100 * (x - low) / span, 1)

    return [
        {
            "agent": r.agent,
            "points": points(r.points),
            "interval": interval(r),
            "bar_low": at(r.low),
            "bar_width": max(0.5, at(r.high) - at(r.low)),
            "bar_mid": at(r.points),
            "tables": r.tables,
            "wins": number(r.wins),
            "place": "—" if math.isnan(r.place) else f"{r.place:.2f}",
            "tally": [number(r.tally[k]) if k in r.tally else "—" for k in keys],
        }
        for r in s.rows
    ]


def render_html(board: Board, summary: str, command: str) -> str:
    """The leaderboard page: the standings over all games, then per game."""
    keys = tally_keys(board)
    scopes = [board.overall, *board.games] if len(board.games) > 1 else board.games
    lows = [r.low for s in scopes for r in s.rows] + [r.points for s in scopes for r in s.rows]
    highs = [r.high for s in scopes for r in s.rows] + [r.points for s in scopes for r in s.rows]
    low, high = min(lows), max(highs)
    boards = [
        {
            "title": s.title,
            "anchor_id": s.game or "all-games",
            "caption": caption(s),
            "rows": _rows(s, keys, low, high),
        }
        for s in scopes
    ]
    template = resources.files("rulebook.arena").joinpath("leaderboard.html").read_text("utf-8")
    env = Environment(autoescape=True)
    return env.from_string(template).render(
        generator=GENERATOR,
        summary=summary,
        anchor_note=board.anchor_note[0].upper() + board.anchor_note[1:],
        resamples=board.overall.fitted.resamples,
        drops=board.overall.fitted.drops,
        stratified=len(board.games) > 1,
        top=f"the top {len(board.overall.top)}",
        boards=boards,
        tally_keys=keys,
        command=command,
    )


def ratings_json(board: Board, plan: dict[str, Any]) -> str:
    """The ratings as JSON: the plan, the anchor, and each table of standings."""

    def scope(s: Standings) -> dict[str, Any]:
        return {
            "game": s.game,
            "title": s.title,
            "tables": s.tables,
            "anchor": s.anchor,
            "stability": {"top": s.top, "kept": s.fitted.stability, "drops": s.fitted.drops},
            "resamples": s.fitted.resamples,
            "agents": [
                {
                    "agent": r.agent,
                    "rating": round(r.points, 2),
                    "low": round(r.low, 2),
                    "high": round(r.high, 2),
                    "tables": r.tables,
                    "wins": round(r.wins, 4),
                    "mean_place": None if math.isnan(r.place) else round(r.place, 4),
                    "tally": r.tally,
                }
                for r in s.rows
            ],
        }

    data = {
        "scale": "Elo points: 400 * log10(Plackett-Luce strength)",
        "anchor": board.anchor_note,
        "plan": plan,
        "overall": scope(board.overall),
        "games": [scope(s) for s in board.games],
    }
    return json.dumps(data, indent=1) + "\n"


def text_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting with ``= + - @`` or a tab or
    carriage return (a formula to Excel, LibreOffice and Sheets) gets a leading apostrophe."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def ratings_csv(board: Board) -> str:
    """The ratings as CSV: one line per agent and table of standings (game ``all`` first);
    names are text cells (:func:`text_cell`), never formulas."""
    keys = tally_keys(board)
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    head = ["game", "agent", "rating", "low", "high", "tables", "wins", "mean_place"]
    out.writerow(head + keys)
    for s in [board.overall, *board.games]:
        for r in s.rows:
            place = "" if math.isnan(r.place) else f"{r.place:.4f}"
            line = [
                text_cell(s.game or "all"),
                text_cell(r.agent),
                f"{r.points:.2f}",
                f"{r.low:.2f}",
                f"{r.high:.2f}",
            ]
            line += [str(r.tables), f"{r.wins:.4g}", place]
            out.writerow(line + [number(r.tally[k]) if k in r.tally else "" for k in keys])
    return buffer.getvalue()
