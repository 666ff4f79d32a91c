"""What ``rulebook tune`` leaves in its folder: the winning override file, ``result.json`` and
an HTML report with plots (objective over trials, each knob's effect, the held-out selection,
the before/after faction and seat tables of every rung on fresh games with 95% intervals, the
significant changes of ``rulebook compare``)."""

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
from rulebook.lab import ladder
from rulebook.lab.compare import Change
from rulebook.lab.ladder import Rung
from rulebook.lab.report import before_after_figure, pct, png
from rulebook.lab.stats import ALPHA
from rulebook.lab.summary import Rate, Row, corrected
from rulebook.lab.tune.held_out import Held
from rulebook.lab.tune.knobs import Knob
from rulebook.lab.tune.search import (
    SELECT_OFFSET,
    Games,
    Plan,
    Standing,
    Trial,
    Values,
    describe_values,
)
from rulebook.lab.tune.target import OBJECTIVE, Measure, measure


@dataclass(frozen=True)
class Outcome:
    """A finished run: each restart's best candidate and trials, the held-out selection, the
    candidate chosen there, and the confirmation games of every rung (fresh seeds)."""

    plan: Plan
    bests: list[Standing]
    trials: list[list[Trial]]
    search_games: int
    selection: list[Held]
    chosen: Held
    before: Games
    after: Games

    @property
    def measures(self) -> tuple[Measure, Measure]:
        """The target on the fresh confirmation games, before and after: the verdict."""
        return measure(self.plan.terms, self.before), measure(self.plan.terms, self.after)

    @property
    def changed(self) -> bool:
        """Whether a candidate beat the data files' values (on the held-out games)."""
        return self.plan.override(self.chosen.values) is not None

    @property
    def confirm_games(self) -> int:
        return len(next(iter(self.after.values())))

    @property
    def confirm_seed(self) -> int:
        return int(next(iter(self.after.values()))[0]["seed"])

    def search_held(self) -> Held | None:
        """The chosen candidate's figures on the held-out selection games."""
        return next((h for h in self.selection if h.values == self.chosen.values), None)

    def verdict(self) -> list[str]:
        """What the run found, in plain words: whether anything beat the data files, whether
        the target is met on the fresh games, and what to raise when it is not."""
        plan = self.plan
        before, after = self.measures
        searched = f"{sum(len(t) for t in self.trials)} trials, {self.search_games} games" + (
            f", {plan.restarts} restarts" if plan.restarts > 1 else ""
        )
        lines = []
        if not self.changed:
            lines.append(
                f"No candidate beat the data files' values within the budget ({searched}): "
                "they stay as they are."
            )
        else:
            lines.append(f"Chosen: {self.chosen.label}'s best ({searched}).")
        if after.met:
            lines.append(f"Target met on {self.confirm_games} fresh games (objective 0).")
        else:
            lines.append(
                f"Target NOT met on {self.confirm_games} fresh games: objective "
                f"{after.objective:.2f} (the data files' values: {before.objective:.2f})."
            )
            lines.append(
                f"To search further: raise --budget (now {plan.budget} games per restart) or "
                f"--restarts (now {plan.restarts}), or widen the knobs' ranges or add knobs; "
                "if the figures are close, raise --trial-games and --repeats (each block is "
                "noisier than the gap)."
            )
        lines.append(f"({OBJECTIVE}.)")
        return lines


def main_rows(games: Games, plan: Plan) -> list[Row]:
    return games[plan.rungs[0]]


def rung_name(plan: Plan, rung: Rung | None) -> str:
    """``greedy in every seat``: how the pages name the games of a rung."""
    if rung is None:
        agents = sorted(set(plan.agents))
        return (
            f"{agents[0]} in every seat" if len(agents) == 1 else "agents " + ", ".join(plan.agents)
        )
    return rung.describe()


def rung_rates(plan: Plan, games: Games, by: str) -> list[tuple[Rung | None, list[Rate]]]:
    """Per rung of the target, its win rates per ``faction`` or ``seat`` (a candidate rung has
    no seat table: its candidate moves round the table; its faction rates are the candidate's,
    against their mean)."""
    out = []
    for rung in plan.rungs:
        rows = games[rung]
        plain = rung or Rung(rows[0]["agents"][0], rows[0]["agents"][0])
        if by == "seat" and plain.mixed:
            continue
        found = ladder.rates(rows, plain, by)
        if found:
            out.append((rung, found))
    return out


def override_text(outcome: Outcome, command: str) -> str:
    """The winning data override as TOML, headed by what produced it."""
    plan = outcome.plan
    lines = [
        f"# rulebook tune: {command}",
        f"# target {', '.join(str(t) for t in plan.terms)}",
    ]
    lines += [f"# {line}" for line in outcome.verdict()]
    lines += [f"# {line}" for line in describe_values(plan.knobs, outcome.chosen.values)]
    override = plan.override(outcome.chosen.values)
    body = (
        tomli_w.dumps(override)
        if override
        else "# no change: no candidate beat the data files' values within the budget\n"
    )
    return "\n".join(lines) + "\n\n" + body


def rate_json(rates: Sequence[Rate]) -> list[dict[str, Any]]:
    return [
        {
            "label": r.label,
            "games": r.n,
            "wins": r.wins,
            "rate": r.rate,
            "interval": r.interval,
            "against": r.expected,
        }
        for r in rates
    ]


def games_json(plan: Plan, games: Games) -> dict[str, Any]:
    found = measure(plan.terms, games)
    tables: dict[str, dict[str, Any]] = {}
    for by in ("faction", "seat"):
        for rung, rates_of in rung_rates(plan, games, by):
            tables.setdefault(rung_name(plan, rung), {})[by] = rate_json(rates_of)
    return {"objective": found.objective, "figures": found.figures, "rungs": tables}


def result_json(outcome: Outcome) -> dict[str, Any]:
    plan, chosen = outcome.plan, outcome.chosen
    after = outcome.measures[1]
    return {
        "game": plan.game,
        "players": plan.players,
        "variant": plan.variant,
        "agents": list(plan.agents),
        "target": ", ".join(str(t) for t in plan.terms),
        "knobs": [
            {"name": k.name, "path": k.where, "original": k.original, "best": chosen.values[k.name]}
            for k in plan.knobs
        ],
        "search": {
            "restarts": [
                {
                    "trials": len(trials),
                    "best_objective": best.measure.objective,
                    "best_games": best.measure.games,
                    "best_distance": best.distance,
                }
                for trials, best in zip(outcome.trials, outcome.bests, strict=True)
            ],
            "games": outcome.search_games,
        },
        "selection": {
            "games": plan.select,
            "seeds_from": plan.seed + SELECT_OFFSET,
            "candidates": [
                {"label": h.label, "objective": h.measure.objective, "figures": h.measure.figures}
                for h in outcome.selection
            ],
            "chosen": chosen.label,
        },
        "confirmation": {
            "games": outcome.confirm_games,
            "seeds_from": outcome.confirm_seed,
            "fresh": True,
            "before": games_json(plan, outcome.before),
            "after": games_json(plan, outcome.after),
            "met": after.met,
        },
        "verdict": outcome.verdict(),
    }


# -- plots -----------------------------------------------------------------------------------------
def trials_figure(restarts: Sequence[Sequence[Trial]]) -> Figure:
    fig, ax = plt.subplots(figsize=(7, 3.6))
    colors = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#9d755d", "#72b7b2")
    for i, trials in enumerate(restarts):
        xs = [t.number for t in trials]
        ys = [t.objective for t in trials]
        color = colors[i % len(colors)]
        name = f"restart {i + 1}" if len(restarts) > 1 else "trial (block 0)"
        ax.scatter(xs, ys, s=14, color=color, label=name)
        best, line = float("inf"), []
        for y in ys:
            best = min(best, y)
            line.append(best)
        ax.step(xs, line, where="post", color=color, alpha=0.7)
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (0 = target met)")
    ax.set_title("Objective over trials (lines: best so far)")
    ax.legend(fontsize=8)
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
Search: {{ plan.restarts }} independent restart(s), {{ trial_count }} trials, {{ search_games }}
games ({{ plan.trial_games }} per block and rung, up to {{ plan.repeats }} blocks for the best
candidates, the same seeds for every candidate of a restart).
Held-out selection: each restart's best and the data files' values on {{ plan.select }} games
(seeds from {{ select_seed }}, used by no search). Confirmation: {{ confirm_games }} fresh games
(seeds from {{ confirm_seed }}, used by no search nor selection), the data files' values and the
chosen candidate on the same seeds.</p>
<p>Verdict, on the fresh games: {% if met %}<span class="ok">target met</span>{% else %}<span
class="sig">target NOT met</span>{% endif %}.</p>
<ul>{% for line in verdict %}<li>{{ line }}</li>{% endfor %}</ul>
<h2>Knobs</h2>
<table><tr><th>knob</th><th>path</th><th>space</th><th>data files</th><th>chosen</th></tr>
{% for k in plan.knobs %}<tr><td>{{ k.name }}</td><td><code>{{ k.where }}</code></td>
<td>{{ space(k) }}</td><td>{{ k.original }}</td><td>{{ chosen.values[k.name] }}</td></tr>
{% endfor %}</table>
<h2>The override</h2><pre>{{ override }}</pre>
<h2>Held-out selection</h2>
<p>Objective of each candidate on the {{ plan.select }} held-out games (the lowest is chosen;
it is biased downward there, having been chosen on them: the fresh games below judge).</p>
<table><tr><th>candidate</th><th>objective</th>{% for t in plan.terms %}<th>{{ t }}</th>
{% endfor %}</tr>{% for h in selection %}<tr><td>{{ h.label }}{% if h.values == chosen.values
%} (chosen){% endif %}</td><td>{{ "%.2f"|format(h.measure.objective) }}</td>
{% for t in plan.terms %}<td>{{ "%.2f"|format(h.measure.figures[t|string]) }}</td>{% endfor %}
</tr>{% endfor %}</table>
<h2>Target, before and after (fresh games)</h2>
<table><tr><th>term</th><th>before</th><th>excess</th><th>after</th><th>excess</th></tr>
{% for t in plan.terms %}{% set k = t|string %}<tr><td>{{ k }}</td>
<td>{{ "%.2f"|format(before.figures[k]) }}</td><td>{{ "%.2f"|format(before.excesses[k]) }}</td>
<td>{{ "%.2f"|format(after.figures[k]) }}</td><td>{{ "%.2f"|format(after.excesses[k]) }}</td></tr>
{% endfor %}</table>
<p>For factions and seats the figure is the largest distance from the even share (on a rung
with one candidate seat: from the mean of the candidate's rates over the factions), in points.
The {{ objective }}.</p>
{% for name, table, uri in tables %}<h2>{{ name }}</h2>{{ table }}
<img src="{{ uri }}" alt="{{ name }}">{% endfor %}
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


def tables_of(outcome: Outcome) -> list[tuple[str, list[Rate], list[Rate]]]:
    """Every before/after table of the run: (title, before, after), per rung, faction then
    seat."""
    plan = outcome.plan
    out = []
    for by in ("faction", "seat"):
        after = dict(rung_rates(plan, outcome.after, by))
        for rung, before in rung_rates(plan, outcome.before, by):
            title = f"Win rate per {by}, {rung_name(plan, rung)}"
            out.append((title, before, after[rung]))
    return out


def render(outcome: Outcome, changes: Sequence[Change], override: str) -> str:
    """The run's HTML report (one self-contained file)."""
    plan = outcome.plan
    flat = [t for trials in outcome.trials for t in trials]
    plots: dict[str, Any] = {
        "trials": data_uri(trials_figure(outcome.trials)),
        "knobs": [data_uri(knob_figure(k, flat, outcome.chosen.values)) for k in plan.knobs],
    }
    tables = [
        (title, rates_table(b, a), data_uri(before_after_figure(b, a, title)))
        for title, b, a in tables_of(outcome)
    ]
    before, after = outcome.measures
    env = Environment(autoescape=True)
    env.globals["space"] = space_text
    return env.from_string(TEMPLATE).render(
        title=f"{get_game(plan.game).title}: rulebook tune",
        plan=plan,
        target=", ".join(str(t) for t in plan.terms),
        trial_count=len(flat),
        search_games=outcome.search_games,
        select_seed=plan.seed + SELECT_OFFSET,
        confirm_games=outcome.confirm_games,
        confirm_seed=outcome.confirm_seed,
        met=after.met,
        verdict=outcome.verdict(),
        objective=OBJECTIVE,
        before=before,
        after=after,
        chosen=outcome.chosen,
        selection=outcome.selection,
        override=override,
        tables=tables,
        plots=plots,
        changes=changes_table(changes),
        tests=len(changes),
    )


def markdown(outcome: Outcome) -> str:
    """The before/after tables of every rung in Markdown (for a game's docs), fresh games."""
    lines = []
    for title, before, after in tables_of(outcome):
        later = {r.label: r for r in after}
        lines += [
            f"{title}:",
            "",
            "| | before | 95% interval | after | 95% interval |",
            "|---|---|---|---|---|",
        ]
        for b in before:
            a = later.get(b.label, b)
            cells = [f"{r.rate:.1%} | {r.interval[0]:.1%} - {r.interval[1]:.1%}" for r in (b, a)]
            lines.append(f"| {b.label} | {cells[0]} | {cells[1]} |")
        lines.append("")
    games, first = outcome.confirm_games, outcome.confirm_seed
    lines.append(
        f"{games} fresh games each (seeds {first}-{first + games - 1}, used by no search nor "
        f"selection), agents {', '.join(outcome.plan.agents)}."
    )
    return "\n".join(lines) + "\n"


def write_outputs(outcome: Outcome, changes: Sequence[Change], command: str, out: Path) -> None:
    """``override.toml``, ``result.json``, ``tables.md`` and ``report.html`` in ``out``."""
    override = override_text(outcome, command)
    (out / "tables.md").write_text(markdown(outcome), encoding="utf-8")
    (out / "override.toml").write_text(override, encoding="utf-8")
    (out / "result.json").write_text(json.dumps(result_json(outcome), indent=1), encoding="utf-8")
    (out / "report.html").write_text(render(outcome, changes, override), encoding="utf-8")
