"""What ``rulebook tune`` leaves in its folder: the winning override file, ``result.json`` and
an HTML report with plots (objective over trials, each knob's effect, the before/after faction
and seat tables with 95% intervals, the significant changes of ``rulebook compare``)."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import tomli_w
from jinja2 import Environment
from markupsafe import Markup

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from rulebook.core import get_game
from rulebook.lab.compare import Change
from rulebook.lab.report import pct, png
from rulebook.lab.stats import ALPHA
from rulebook.lab.summary import Rate, corrected, faction_rates, seat_rates
from rulebook.lab.tune.knobs import Knob
from rulebook.lab.tune.search import Plan, Standing, Trial, Values, describe_values
from rulebook.lab.tune.target import Measure, measure

Row = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """A finished run: the best candidate, the trials, and the confirmation games."""

    plan: Plan
    best: Standing
    trials: list[Trial]
    search_games: int
    before: list[Row]
    after: list[Row]

    @property
    def measures(self) -> tuple[Measure, Measure]:
        return measure(self.plan.terms, self.before), measure(self.plan.terms, self.after)


def override_text(outcome: Outcome, command: str) -> str:
    """The winning data override as TOML, headed by what produced it."""
    plan = outcome.plan
    after = outcome.measures[1]
    lines = [
        f"# rulebook tune: {command}",
        f"# target {', '.join(str(t) for t in plan.terms)}; "
        f"objective {after.objective:.2f} over {plan.confirm} confirmation games "
        f"({'met' if after.met else 'NOT met'})",
    ]
    if outcome.measures[0].met:
        lines.append(
            "# the data files' values meet the target on these games too: no change needed"
        )
    lines += [f"# {line}" for line in describe_values(plan.knobs, outcome.best.values)]
    override = plan.override(outcome.best.values)
    body = tomli_w.dumps(override) if override else "# no change: the data files already do best\n"
    return "\n".join(lines) + "\n\n" + body


def rate_json(rates: Sequence[Rate]) -> list[dict[str, Any]]:
    return [
        {"label": r.label, "games": r.n, "wins": r.wins, "rate": r.rate, "interval": r.interval}
        for r in rates
    ]


def result_json(outcome: Outcome) -> dict[str, Any]:
    plan, best = outcome.plan, outcome.best
    before, after = outcome.measures
    return {
        "game": plan.game,
        "players": plan.players,
        "variant": plan.variant,
        "agents": list(plan.agents),
        "target": ", ".join(str(t) for t in plan.terms),
        "knobs": [
            {"name": k.name, "path": k.where, "original": k.original, "best": best.values[k.name]}
            for k in plan.knobs
        ],
        "search": {
            "trials": len(outcome.trials),
            "games": outcome.search_games,
            "best_objective": best.measure.objective,
            "best_games": best.measure.games,
            "best_distance": best.distance,
        },
        "confirmation": {
            "games": len(outcome.after),
            "seeds_from": outcome.after[0]["seed"],
            "before": {
                "objective": before.objective,
                "figures": before.figures,
                "factions": rate_json(faction_rates(outcome.before)),
                "seats": rate_json(seat_rates(outcome.before)),
            },
            "after": {
                "objective": after.objective,
                "figures": after.figures,
                "factions": rate_json(faction_rates(outcome.after)),
                "seats": rate_json(seat_rates(outcome.after)),
            },
            "met": after.met,
        },
    }


# -- plots -----------------------------------------------------------------------------------------
def trials_figure(trials: Sequence[Trial]) -> Figure:
    fig, ax = plt.subplots(figsize=(7, 3.6))
    xs = [t.number for t in trials]
    ys = [t.objective for t in trials]
    ax.scatter(xs, ys, s=14, color="#4c78a8", label="trial (block 0)")
    best, line = float("inf"), []
    for y in ys:
        best = min(best, y)
        line.append(best)
    ax.step(xs, line, where="post", color="#e45756", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (0 = target met)")
    ax.set_title("Objective over trials")
    ax.legend()
    fig.tight_layout()
    return fig


def knob_figure(knob: Knob, trials: Sequence[Trial], best: Values) -> Figure:
    fig, ax = plt.subplots(figsize=(4.2, 3.2))
    if knob.kind == "values":
        labels = [json.dumps(v) for v in knob.values]
        xs: list[float] = [labels.index(json.dumps(t.values[knob.name])) for t in trials]
        ax.set_xticks(range(len(labels)), [lb[:14] for lb in labels], rotation=30, fontsize=8)
        original = (
            float(labels.index(json.dumps(knob.original))) if knob.contains(knob.original) else None
        )
        chosen = float(labels.index(json.dumps(best[knob.name])))
    else:
        xs = [float(t.values[knob.name]) for t in trials]
        original, chosen = float(knob.original), float(best[knob.name])
    ax.scatter(xs, [t.objective for t in trials], s=14, color="#4c78a8")
    if original is not None:
        ax.axvline(original, color="#888", linestyle=":", label="data files")
    ax.axvline(chosen, color="#e45756", linestyle="--", label="best")
    ax.set_title(knob.name[:48], fontsize=9)
    ax.set_ylabel("objective (block 0)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def before_after_figure(before: Sequence[Rate], after: Sequence[Rate], title: str) -> Figure:
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(before) + 1.4))
    labels = [r.label for r in before]
    rows = range(len(before))
    for shift, rates, color, name in (
        (-0.18, before, "#9ecae9", "before"),
        (0.18, after, "#4c78a8", "after"),
    ):
        values = [r.rate for r in rates]
        err = [[r.rate - r.interval[0] for r in rates], [r.interval[1] - r.rate for r in rates]]
        ax.barh(
            [y + shift for y in rows],
            values,
            height=0.34,
            xerr=err,
            color=color,
            capsize=3,
            label=name,
        )
    ax.set_yticks(list(rows), labels)
    if before:
        ax.axvline(before[0].expected, color="#e45756", linestyle="--")
    ax.invert_yaxis()
    ax.set_xlabel("win rate, 95% Wilson interval (dashed: an even share)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def data_uri(fig: Figure) -> str:
    return "data:image/png;base64," + base64.b64encode(png(fig)).decode()


# -- the page --------------------------------------------------------------------------------------
TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: 14px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 10px; text-align: right; }
th:first-child, td:first-child { text-align: left; } th { background: #f4f4f4; }
.sig { font-weight: bold; color: #b00; } .ok { color: #080; font-weight: bold; }
img { max-width: 100%; } .grid { display: flex; flex-wrap: wrap; gap: 1em; }
code, pre { background: #f4f4f4; padding: 0 3px; }
</style></head><body>
<h1>{{ title }}</h1>
<p>{{ plan.players }} players, agents {{ plan.agents|join(", ") }}{% if plan.variant %},
variant {{ plan.variant }}{% endif %}. Target <code>{{ target }}</code>.
Search: {{ trials|length }} trials, {{ search_games }} games ({{ plan.trial_games }} per block,
up to {{ plan.repeats }} blocks for the best candidates, the same seeds for every candidate).
Confirmation: {{ confirm_games }} fresh games (seeds from {{ confirm_seed }}), the data files'
values and the best candidate on the same seeds.</p>
<p>Verdict: {% if met %}<span class="ok">target met</span>{% else %}<span class="sig">target
NOT met</span>{% endif %} over the confirmation games (objective {{ "%.2f"|format(after.objective)
}}, before {{ "%.2f"|format(before.objective) }}).</p>
<h2>Knobs</h2>
<table><tr><th>knob</th><th>path</th><th>space</th><th>data files</th><th>best</th></tr>
{% for k in plan.knobs %}<tr><td>{{ k.name }}</td><td><code>{{ k.where }}</code></td>
<td>{{ space(k) }}</td><td>{{ k.original }}</td><td>{{ best.values[k.name] }}</td></tr>
{% endfor %}</table>
<h2>The override</h2><pre>{{ override }}</pre>
<h2>Target, before and after</h2>
<table><tr><th>term</th><th>before</th><th>excess</th><th>after</th><th>excess</th></tr>
{% for t in plan.terms %}{% set k = t|string %}<tr><td>{{ k }}</td>
<td>{{ "%.2f"|format(before.figures[k]) }}</td><td>{{ "%.2f"|format(before.excesses[k]) }}</td>
<td>{{ "%.2f"|format(after.figures[k]) }}</td><td>{{ "%.2f"|format(after.excesses[k]) }}</td></tr>
{% endfor %}</table>
<p>For factions and seats the figure is the largest distance from the even share, in points.</p>
{% if factions %}<h2>Win rate per faction</h2>{{ factions }}
<img src="{{ plots.factions }}" alt="factions before and after">{% endif %}
<h2>Win rate per seat</h2>{{ seats }}<img src="{{ plots.seats }}" alt="seats before and after">
<h2>The search</h2><img src="{{ plots.trials }}" alt="objective over trials">
<h3>Each knob's effect (block-0 objective of every trial)</h3>
<div class="grid">{% for uri in plots.knobs %}<div><img src="{{ uri }}" alt="knob"></div>
{% endfor %}</div>
<h2>What changed (rulebook compare)</h2>
<p>The changes that survive Holm's correction over all {{ tests }} tests of the comparison
(corrected p below 0.05: the chance that any line here is a fluke stays below 5%).</p>
{{ changes }}
</body></html>
"""


def rates_table(before: Sequence[Rate], after: Sequence[Rate]) -> Markup:
    """Before and after side by side; bold red: a rate off the even share by a test that
    survives Holm's correction over its column."""
    lines = [
        "<table><tr><th></th><th>games</th><th>before</th><th>95% interval</th>"
        "<th>after</th><th>95% interval</th></tr>"
    ]
    later = {r.label: r for r in after}
    off = {
        (side, r.label): p < ALPHA
        for side, rates in (("before", before), ("after", after))
        for r, p in zip(rates, corrected(rates), strict=True)
    }
    for b in before:
        a = later.get(b.label)
        if a is None:
            continue
        cells = []
        for side, r in (("before", b), ("after", a)):
            cls = ' class="sig"' if off[(side, r.label)] else ""
            low, high = r.interval
            cells.append(f"<td{cls}>{pct(r.rate)}</td><td>{pct(low)} – {pct(high)}</td>")
        lines.append(
            f"<tr><td>{html.escape(b.label)}</td><td>{b.n}/{a.n}</td>{''.join(cells)}</tr>"
        )
    return Markup("\n".join([*lines, "</table>"]))


def changes_table(changes: Sequence[Change]) -> Markup:
    lines = [
        "<table><tr><th>section</th><th>figure</th><th>before</th><th>after</th>"
        "<th>change</th><th>p</th><th>Holm</th></tr>"
    ]
    for c in changes:
        if not c.significant:
            continue
        fmt = pct if c.percent else (lambda x: f"{x:.2f}")
        change = f"{c.b - c.a:+.1%}" if c.percent else f"{c.b - c.a:+.2f}"
        lines.append(
            f"<tr><td>{html.escape(c.section)}</td><td>{html.escape(c.name)}</td>"
            f"<td>{fmt(c.a)}</td><td>{fmt(c.b)}</td><td>{change}</td>"
            f"<td>{c.test.p_value:.3g}</td><td>{c.adjusted:.3g}</td></tr>"
        )
    return Markup("\n".join([*lines, "</table>"]))


def space_text(knob: Knob) -> str:
    if knob.kind == "values":
        return "one of " + ", ".join(json.dumps(v) for v in knob.values)
    step = f" step {knob.step:g}" if knob.step else ""
    return f"{knob.low:g}..{knob.high:g}{step}"


def render(outcome: Outcome, changes: Sequence[Change], override: str) -> str:
    """The run's HTML report (one self-contained file)."""
    plan = outcome.plan
    fb, fa = faction_rates(outcome.before), faction_rates(outcome.after)
    sb, sa = seat_rates(outcome.before), seat_rates(outcome.after)
    plots: dict[str, Any] = {
        "trials": data_uri(trials_figure(outcome.trials)),
        "knobs": [
            data_uri(knob_figure(k, outcome.trials, outcome.best.values)) for k in plan.knobs
        ],
        "seats": data_uri(before_after_figure(sb, sa, "Win rate per seat")),
    }
    if fb:
        plots["factions"] = data_uri(before_after_figure(fb, fa, "Win rate per faction"))
    before, after = outcome.measures
    env = Environment(autoescape=True)
    env.globals["space"] = space_text
    return env.from_string(TEMPLATE).render(
        title=f"{get_game(plan.game).title}: rulebook tune",
        plan=plan,
        target=", ".join(str(t) for t in plan.terms),
        trials=outcome.trials,
        search_games=outcome.search_games,
        confirm_games=len(outcome.after),
        confirm_seed=outcome.after[0]["seed"],
        met=after.met,
        before=before,
        after=after,
        best=outcome.best,
        override=override,
        factions=rates_table(fb, fa) if fb else None,
        seats=rates_table(sb, sa),
        plots=plots,
        changes=changes_table(changes),
        tests=len(changes),
    )


def markdown(outcome: Outcome) -> str:
    """The before/after faction and seat tables in Markdown (for a game's docs)."""
    lines = []
    for title, before, after in (
        ("faction", faction_rates(outcome.before), faction_rates(outcome.after)),
        ("seat", seat_rates(outcome.before), seat_rates(outcome.after)),
    ):
        if not before:
            continue
        later = {r.label: r for r in after}
        lines += [
            f"| {title} | before | 95% interval | after | 95% interval |",
            "|---|---|---|---|---|",
        ]
        for b in before:
            a = later.get(b.label, b)
            cells = [f"{r.rate:.1%} | {r.interval[0]:.1%} - {r.interval[1]:.1%}" for r in (b, a)]
            lines.append(f"| {b.label} | {cells[0]} | {cells[1]} |")
        lines.append("")
    games = len(outcome.after)
    lines.append(
        f"{games} games each (seeds {outcome.after[0]['seed']}-"
        f"{outcome.after[0]['seed'] + games - 1}), agents {', '.join(outcome.plan.agents)}."
    )
    return "\n".join(lines) + "\n"


def write_outputs(outcome: Outcome, changes: Sequence[Change], command: str, out: Path) -> None:
    """``override.toml``, ``result.json``, ``tables.md`` and ``report.html`` in ``out``."""
    override = override_text(outcome, command)
    (out / "tables.md").write_text(markdown(outcome), encoding="utf-8")
    (out / "override.toml").write_text(override, encoding="utf-8")
    (out / "result.json").write_text(json.dumps(result_json(outcome), indent=1), encoding="utf-8")
    (out / "report.html").write_text(render(outcome, changes, override), encoding="utf-8")
