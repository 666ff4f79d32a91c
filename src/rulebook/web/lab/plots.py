"""The pictures of a finished lab run, drawn by its worker into the run's folder (PNG files the
page shows, and each job's self-contained report, ``rulebook report``'s own HTML)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulebook.lab import report
from rulebook.lab.ladder import Rung, rates
from rulebook.lab.runs import RunSpec
from rulebook.lab.summary import summarize


def draw(spec: RunSpec, rows: Mapping[str, list[dict[str, Any]]], folder: Path) -> list[str]:
    """Write the run's figures as ``folder/plots/NAME.png`` and each job's report as
    ``folder/NAME.html``; the plots' names, in the order the page shows them."""
    plots = folder / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    names: list[str] = []

    def save(name: str, fig: Any) -> None:
        (plots / f"{name}.png").write_bytes(report.png(fig))
        names.append(name)

    if spec.kind == "simulate":
        games = rows["games"]
        for name, fig in report.figures(summarize(games)).items():
            save(name, fig)
        (folder / "report.html").write_text(report.render_html(games), encoding="utf-8")
        return names
    names_ = ("shipped data", "what-if")
    for text in spec.rungs:
        rung = Rung.parse(text)
        a, b = rows[f"{text} shipped"], rows[f"{text} whatif"]
        key = text.replace(":", "_")
        by = "faction" if any(r["factions"] for r in a) else "seat"
        title = f"{rung.describe()}: win rate per {by}"
        save(
            f"{key}-1-rates",
            report.before_after_figure(rates(a, rung, by), rates(b, rung, by), title, names_),
        )
        before, after = ([s for r in side for s in r["scores"]] for side in (a, b))
        save(
            f"{key}-2-scores",
            report.two_distributions_figure(
                before, after, "final score", f"{text}: final scores", names_
            ),
        )
        before, after = ([r["moves"] for r in side] for side in (a, b))
        save(
            f"{key}-3-lengths",
            report.two_distributions_figure(
                before, after, "moves per game", f"{text}: game length", names_
            ),
        )
        sb = summarize(b)
        for group, found in sb.items.items():
            save(f"{key}-4-items-{group}", report.items_figure(group, found, sb.players == 1))
        for side, side_rows in (("shipped", a), ("whatif", b)):
            html = report.render_html(side_rows)
            (folder / f"report-{key}-{side}.html").write_text(html, encoding="utf-8")
    return names
