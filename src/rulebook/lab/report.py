"""``rulebook report``: a self-contained HTML report of a results file (plots inline as PNG).

Plots are drawn with matplotlib (Agg backend, no display needed) and embedded as base64 PNG in
an HTML page rendered from a Jinja2 template, so the report is one file that opens anywhere.
:func:`write_pngs` saves the same figures as separate PNG files.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from jinja2 import Environment
from matplotlib.figure import Figure

from rulebook.core import get_game
from rulebook.core.words import plural, seat
from rulebook.lab.stats import ALPHA, count
from rulebook.lab.summary import (
    Item,
    Rate,
    Row,
    Summary,
    corrected,
    forfeit_lines,
    summarize,
)

#: how many items of each group the report lists at the top and at the bottom
TOP = 8
#: the mark of a report in its head: ``rulebook report`` replaces only files that bear it
GENERATOR = "rulebook report"

TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="generator" content="{{ generator }}">
<title>{{ title }} — balance report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { margin-bottom: 0; } .sub { color: #666; margin-top: .2em; }
table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: 14px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 10px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f4f4f4; } .sig { font-weight: bold; color: #b00; }
img { max-width: 100%; } .grid { display: flex; flex-wrap: wrap; gap: 1em; }
.grid > div { flex: 1 1 480px; } code { background: #f4f4f4; padding: 0 3px; }
.warn { background: #fff4d6; border-left: 4px solid #e0a800; padding: .4em .8em; }
</style></head><body>
<h1>{{ title }}</h1>
<p class="sub">{{ stored }}, {{ players }}, variant {{ s.variant }}.
{% if s.override %}Data override: <code>{{ s.override }}</code>{% else %}Data files as shipped.
{% endif %}</p>
{% if s.precision.small %}<p class="warn">{{ s.precision.note() }}</p>{% endif %}
{% if forfeits %}<p class="warn" id="forfeits">{% for line in forfeits %}{{ line }}
{% if not loop.last %}<br>{% endif %}{% endfor %}</p>{% endif %}
{% if s.mixed_agents %}<p class="warn">{{ mixed_note }}</p>{% endif %}
{% if s.players > 1 %}
<h2>Win rate per seat (seat advantage)</h2>
<p>An even share is {{ pct(1 / s.players) }}; p is the two-sided z-test against it. Each
table is corrected for its several tests by Holm's method (column "Holm"): only a line whose
corrected p is below 0.05 is in bold red, so the chance that any bold line of a table is a
fluke stays below 5%.</p>
{{ rate_table(s.seats) }}
<h2>Win rate per agent</h2>
{{ rate_table(s.agents) }}
<div class="grid"><div><img src="{{ plots.seats }}" alt="win rate per seat"></div>
<div><img src="{{ plots.agents }}" alt="win rate per agent"></div></div>
{% if s.factions %}<h2>Win rate per faction</h2>
{% if s.mixed_agents %}<p class="warn">Agents of different skill played: these win rates
measure who sat with the stronger agent as much as the factions.</p>{% endif %}
{{ rate_table(s.factions) }}<img src="{{ plots.factions }}" alt="win rate per faction">
{% for agent, rates in s.factions_by_agent.items() %}
<h3>Win rate per faction, seats played by {{ agent }}</h3>
{{ rate_table(rates) }}{% endfor %}
{% if s.factions_by_agent %}<p>Each agent is a rung of skill: a faction whose win rate grows
more from one agent to a stronger one rewards skill more (<code>rulebook strength GAME
--ladder</code> plays a whole ladder, seats rotating).</p>{% endif %}
{% endif %}{% elif s.opponent %}
<h2>Win rate against {{ s.opponent }}</h2>
<p>A solo game is won only by beating {{ s.opponent }} (the rulebook's verdict; a game they
win counts as a loss).</p>
{{ rate_table(s.agents, False) }}
<img src="{{ plots.agents }}" alt="win rate per agent">
{% endif %}
<h2>Scores</h2>
{% if s.forfeited %}<p>Over the {{ s.finished }} of {{ s.games }} games played to the end (the
{{ s.forfeited }} forfeited are left out of every figure below).</p>{% endif %}
{% if s.finished %}
<div class="grid"><div><img src="{{ plots.scores }}" alt="score distributions"></div>
<div><img src="{{ plots.lengths }}" alt="game length"></div></div>
<h3>Mean score breakdown per seat</h3>
<table><tr><th>category</th>
{% for p in range(s.players) %}<th>seat {{ p + 1 }}</th>{% endfor %}</tr>
{% for k, v in s.breakdown.items() %}<tr><td>{{ k }}</td>
{% for x in v %}<td>{{ "%.1f" % x }}</td>{% endfor %}</tr>{% endfor %}</table>
{% endif %}
{% if s.ratings %}<h3>Ratings</h3><table><tr><th>rating</th><th>games</th><th>share</th></tr>
{% for k, v in s.ratings.items() %}<tr><td>{{ k }}</td><td>{{ v }}</td>
<td>{{ pct(v / s.finished) }}</td></tr>{% endfor %}</table>{% endif %}
{% if s.counters %}<h2>Counters (per seat and game)</h2>
<table><tr><th>counter</th><th>mean</th><th>stdev</th></tr>
{% for k, v in s.counters.items() %}<tr><td>{{ k }}</td><td>{{ "%.2f" % v[0] }}</td>
<td>{{ "%.2f" % v[1] }}</td></tr>{% endfor %}</table>{% endif %}
{% for group, found in s.items.items() %}
<h2>Most and least valuable: {{ group }}</h2>
{% if s.mixed_agents and s.players > 1 %}<p class="warn">Agents of different skill played: the
lift below measures which agent takes an item as much as what it is worth.</p>{% endif %}
<p>{% if s.players > 1 %}Taken: share of seats that completed/claimed it. Lift: win rate of those
seats minus that of the others (p: two-proportion z-test). Winners' share: share of all wins
that went to seats holding it. Bold red: the lift survives Holm's correction over every item
of the group ({{ found|length }} tests).{% else %}Solo: mean score of games with it, without
it, and the difference.{% endif %}</p>
{{ item_table(top(found)) }}<img src="{{ plots['items_' + group] }}" alt="{{ group }}">
{% endfor %}
</body></html>
"""


def pct(x: float) -> str:
    return f"{x:.1%}"


def rate_table(rates: Sequence[Rate], even: bool = True, forfeits: bool = False) -> str:
    """Win rates with their intervals; with ``even``, tested against an even share (bold red:
    the test survives Holm's correction over the table's lines); with ``forfeits`` (some
    games were forfeited), how many each line's seats forfeited and how many games its mean
    score is over."""
    tested = "<th>vs even</th><th>p</th><th>Holm</th>" if even else ""
    forfeited = "<th>forfeited</th>" if forfeits else ""
    scored = "<th>games to the end</th>" if forfeits else ""
    lines = [
        f"<table><tr><th></th><th>games</th>{forfeited}<th>wins (a tie shares one win)</th>"
        f"<th>win rate</th><th>95% interval</th>{tested}<th>mean score</th>{scored}</tr>"
    ]
    for r, adjusted in zip(rates, corrected(rates), strict=True):
        low, high = r.interval
        test = r.test
        cls = ' class="sig"' if even and adjusted < ALPHA else ""
        against = (
            f"<td>{test.difference:+.1%}</td><td>{test.p_value:.3g}</td>"
            f"<td{cls}>{adjusted:.3g}</td>"
            if even
            else ""
        )
        mean = f"{r.mean_score:.1f}" if r.scored else "–"
        lines.append(
            f"<tr><td>{html.escape(r.label)}</td><td>{r.n}</td>"
            + (f"<td>{r.forfeits}</td>" if forfeits else "")
            + f"<td>{count(r.wins)}</td><td{cls}>{pct(r.rate)}</td>"
            f"<td>{pct(low)} – {pct(high)}</td>{against}<td>{mean}</td>"
            + (f"<td>{r.scored}</td>" if forfeits else "")
            + "</tr>"
        )
    return "\n".join([*lines, "</table>"])


def item_table(found: Sequence[Item]) -> str:
    lines = [
        "<table><tr><th>item</th><th>taken</th><th>with</th><th>without</th><th>lift</th>"
        "<th>p</th><th>Holm</th><th>winners' share</th></tr>"
    ]
    for i in found:
        cls = ' class="sig"' if i.significant else ""
        solo = i.winners_share == 0 and i.test.statistic == 0
        fmt = (lambda x: f"{x:.1f}") if solo else pct
        lines.append(
            f"<tr><td>{html.escape(i.name)}</td><td>{pct(i.taken_rate)}</td>"
            f"<td>{fmt(i.win_taken)}</td><td>{fmt(i.win_not)}</td>"
            f"<td{cls}>{f'{i.lift:+.1f}' if solo else f'{i.lift:+.1%}'}</td>"
            f"<td>{i.test.p_value:.3g}</td><td{cls}>{i.adjusted:.3g}</td>"
            f"<td>{pct(i.winners_share)}</td></tr>"
        )
    return "\n".join([*lines, "</table>"])


def top(found: Sequence[Item]) -> list[Item]:
    """The ``TOP`` most and least valuable items (all of them if there are few)."""
    if len(found) <= 2 * TOP:
        return list(found)
    return [*found[:TOP], *found[-TOP:]]


def mixed_note(s: Summary) -> str:
    """What a report of a run mixing agents must say before its balance tables."""
    names = ", ".join(r.label for r in s.agents)
    return (
        f"This run mixes agents ({names}). Who wins depends first on the agent, so the "
        "per-faction and item tables (lift, winners' share) measure agent skill more than "
        "balance: for balance, play one kind of agent in every seat (e.g. --agents greedy)."
    )


# -- plots ---------------------------------------------------------------------------------------
def rate_figure(rates: Sequence[Rate], title: str, even: bool = True) -> Figure:
    fig, ax = plt.subplots(figsize=(6, 0.45 * len(rates) + 1.4))
    labels = [r.label for r in rates]
    values = [r.rate for r in rates]
    # error bars are distances from the rate: never below 0 (matplotlib refuses them)
    lows = [max(0.0, r.rate - r.interval[0]) for r in rates]
    highs = [max(0.0, r.interval[1] - r.rate) for r in rates]
    ax.barh(labels, values, xerr=[lows, highs], color="#4c78a8", capsize=3)
    if rates and even:
        ax.axvline(rates[0].expected, color="#e45756", linestyle="--")
    ax.invert_yaxis()
    ax.set_xlabel("win rate, 95% Wilson interval" + (" (dashed: an even share)" if even else ""))
    ax.set_title(title)
    fig.tight_layout()
    return fig


def scores_figure(s: Summary) -> Figure:
    fig, ax = plt.subplots(figsize=(6, 3.6))
    groups = (
        s.scores_by_agent
        if len(s.scores_by_agent) > 1
        else {seat(p): v for p, v in enumerate(s.scores_by_seat)}
    )
    low = min(min(v) for v in groups.values())
    high = max(max(v) for v in groups.values())
    bins = range(low, high + 2, max(1, (high - low + 1) // 40 or 1))
    for name, values in groups.items():
        ax.hist(values, bins=list(bins), histtype="step", linewidth=1.6, label=name)
    ax.set_xlabel("final score")
    ax.set_ylabel("seats")
    ax.set_title("Score distribution")
    ax.legend()
    fig.tight_layout()
    return fig


def lengths_figure(s: Summary) -> Figure:
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.hist(s.lengths, bins=30, color="#72b7b2")
    ax.set_xlabel("moves per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    return fig


def items_figure(group: str, found: Sequence[Item], solo: bool) -> Figure:
    shown = top(found)
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(shown) + 1.4))
    lifts = [i.lift if solo else 100 * i.lift for i in shown]
    colors = ["#54a24b" if x >= 0 else "#e45756" for x in lifts]
    ax.barh([i.name for i in shown], lifts, color=colors)
    ax.invert_yaxis()
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("score with minus without" if solo else "win-rate lift (points)")
    ax.set_title(f"Most and least valuable: {group}")
    fig.tight_layout()
    return fig


def figures(s: Summary) -> dict[str, Figure]:
    """Every figure of the report, by name."""
    out: dict[str, Figure] = {}
    if s.players > 1:
        out["seats"] = rate_figure(s.seats, "Win rate per seat")
        out["agents"] = rate_figure(s.agents, "Win rate per agent")
        if s.factions:
            out["factions"] = rate_figure(s.factions, "Win rate per faction")
    elif s.opponent:
        out["agents"] = rate_figure(s.agents, f"Win rate against {s.opponent}", even=False)
    if s.finished:  # (scores and lengths: of the games played to the end)
        out["scores"] = scores_figure(s)
        out["lengths"] = lengths_figure(s)
    for group, found in s.items.items():
        out[f"items_{group}"] = items_figure(group, found, s.players == 1)
    return out


def before_after_figure(
    before: Sequence[Rate],
    after: Sequence[Rate],
    title: str,
    names: tuple[str, str] = ("before", "after"),
) -> Figure:
    """Win rates before and after a change, side by side, each with its 95% interval (the
    dashed line: the even share, or the factions' mean on a rung with a candidate seat)."""
    later = {r.label: r for r in after}
    paired = [later.get(r.label, r) for r in before]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(before) + 1.4))
    rows = range(len(before))
    for shift, rates, color, name in (
        (-0.18, before, "#9ecae9", names[0]),
        (0.18, paired, "#4c78a8", names[1]),
    ):
        values = [r.rate for r in rates]
        # error bars are distances from the rate: never below 0 (matplotlib refuses them)
        err = [
            [max(0.0, r.rate - r.interval[0]) for r in rates],
            [max(0.0, r.interval[1] - r.rate) for r in rates],
        ]
        ax.barh(
            [y + shift for y in rows],
            values,
            height=0.34,
            xerr=err,
            color=color,
            capsize=3,
            label=name,
        )
    ax.set_yticks(list(rows), [r.label for r in before])
    if before:
        ax.axvline(before[0].expected, color="#e45756", linestyle="--")
    ax.invert_yaxis()
    ax.set_xlabel("win rate, 95% Wilson interval (dashed: an even share)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def two_distributions_figure(
    before: Sequence[float], after: Sequence[float], xlabel: str, title: str, names: tuple[str, str]
) -> Figure:
    """Two distributions of one figure (final scores, game lengths) over each other."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    low = min(min(before), min(after))
    high = max(max(before), max(after))
    bins = list(range(int(low), int(high) + 2, max(1, int(high - low + 1) // 40 or 1)))
    for values, name, color in ((before, names[0], "#9ecae9"), (after, names[1], "#4c78a8")):
        ax.hist(values, bins=bins, histtype="step", linewidth=1.8, label=name, color=color)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return buffer.getvalue()


def render_html(rows: Sequence[Row], stored: str | None = None) -> str:
    """The report of ``rows`` as one self-contained HTML page (``stored``: how the page names
    the games, e.g. "37 games of 200 (an interrupted run...)"; default "N games")."""
    s = summarize(rows)
    plots = {
        name: "data:image/png;base64," + base64.b64encode(png(fig)).decode()
        for name, fig in figures(s).items()
    }
    env = Environment(autoescape=True)
    env.globals.update(pct=pct, top=top)
    from markupsafe import Markup

    env.globals["rate_table"] = lambda rates, even=True: Markup(
        rate_table(rates, even, s.forfeited > 0)
    )
    env.globals["item_table"] = lambda found: Markup(item_table(found))
    title = f"{get_game(s.game).title}: balance report"
    return env.from_string(TEMPLATE).render(
        s=s,
        plots=plots,
        title=title,
        generator=GENERATOR,
        stored=stored or plural(s.games, "game"),
        mixed_note=mixed_note(s),
        players=plural(s.players, "player"),
        forfeits=forfeit_lines(s),
    )


def write_pngs(rows: Sequence[Row], folder: Path) -> list[Path]:
    """Save every figure of the report as ``folder/NAME.png``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fig in figures(summarize(rows)).items():
        path = folder / f"{name}.png"
        path.write_bytes(png(fig))
        paths.append(path)
    return paths
