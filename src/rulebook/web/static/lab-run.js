// A lab run's page: progress while it plays (games done, time left, win rates filling in),
// then what it found, its pictures, the commands that give the same figures, the downloads.
import { el } from "/static/dom.js";
import { api, duration, interval, pct, rateBars, rateTable, statusWords, when } from "/static/lab-common.js";

const $ = (id) => document.getElementById(id);
const runId = $("run-page").dataset.run;
const FINAL = ["done", "cancelled", "stopped", "failed"];
let drawnFigures = false;

function what(run) {
  const data = run.whatif_name ? `what-if "${run.whatif_name}" (data ${run.data})` : "the shipped data";
  const who = run.kind === "simulate" ? `seats: ${run.seats.join(", ")}` : `rungs: ${run.rungs.join(", ")}`;
  const games = run.kind === "tune" ? "" : `, ${run.games} games${run.kind === "compare" ? " per rung and side" : ""} from seed ${run.seed}`;
  return `${run.kind}: ${run.players} players${run.variant ? ` (${run.variant})` : ""}, ${who}${games}, on ${data}. Created ${when(run.created)}.`;
}

function drawState(run) {
  $("run-what").textContent = what(run);
  let state = `${statusWords(run.status)}: ${run.done} of ${run.total} games`;
  if (run.status === "running") {
    const phase = run.progress && run.progress.phase ? ` (${run.progress.phase})` : "";
    state += `${phase}; ${duration(run.elapsed)} so far${run.left !== null ? `, about ${duration(run.left)} left` : ""}`;
  } else if (run.status === "queued") {
    state += run.done ? " (it resumes where it stopped)" : " (it starts when the lab is free)";
  } else if (run.status === "done") {
    state += ` in ${duration(run.elapsed)}`;
  }
  $("run-state").textContent = state + ".";
  $("run-progress").max = Math.max(1, run.total);
  $("run-progress").value = run.done;
  $("run-error").textContent = run.error || "";
  $("run-error").hidden = !run.error;
  $("cancel").hidden = FINAL.includes(run.status);
  $("resume").hidden = !["stopped", "failed", "cancelled"].includes(run.status);
}

function drawLive(run) {
  const jobs = (run.progress && run.progress.jobs) || {};
  const labels = Object.keys(jobs);
  $("live").hidden = !labels.length || run.status === "done";
  $("live-bars").replaceChildren(...labels.map((label) => {
    const rates = jobs[label];
    const even = run.players > 1 ? 1 / run.players : null;
    const mixed = run.kind === "compare" && label.includes("-");
    return el("figure", { class: "live-job" },
      el("figcaption", { text: `${label}${rates.length ? `: ${rates[0].games} games so far` : ""}` }),
      rateBars(rates, mixed ? null : even, label));
  }));
}

function ratesSide(before, after, by) {
  const later = new Map(after.map((r) => [r.label, r]));
  return rateTable([by, "shipped data", "95% interval", "what-if", "95% interval"],
    before.map((b) => {
      const a = later.get(b.label) || b;
      return [b.label, pct(b.rate), interval(b), pct(a.rate), interval(a)];
    }));
}

function changesList(changes) {
  const significant = changes.filter((c) => c.significant);
  const shown = significant.length ? significant : [];
  const note = `${changes.length} figures compared; each p-value corrected for the many comparisons (Holm): ${significant.length ? `${significant.length} changed for sure (adjusted p < 0.05)` : "none changed beyond chance"}.`;
  const fmt = (c, x) => (c.percent ? pct(x) : x.toFixed(2));
  return [
    el("p", { text: note }),
    shown.length ? rateTable(["what", "shipped data", "what-if", "p (Holm)"],
      shown.map((c) => [`${c.section}: ${c.name}`, fmt(c, c.a), fmt(c, c.b), c.adjusted.toPrecision(2)])) : "",
  ];
}

function drawSummary(s, title) {
  const rows = s.factions.length ? s.factions : s.seats;
  const by = s.factions.length ? "faction" : "seat";
  return [
    el("h3", { text: title }),
    rows.length ? rateTable([by, "win rate", "95% interval", "mean score"], rows.map((r) => [r.label, pct(r.rate), interval(r), r.mean_score.toFixed(1)])) : "",
    el("p", { text: `Mean game length: ${s.mean_length.toFixed(1)} moves.` }),
    s.note ? el("p", { class: "notice", text: s.note }) : "",
  ];
}

function drawFigures(run) {
  const f = run.figures;
  if (!f) return;
  const parts = [];
  if (run.kind === "simulate") {
    parts.push(...drawSummary(f.games, `${f.games.games} games`));
  } else if (run.kind === "compare") {
    for (const rung of f.rungs) {
      const sh = rung.shipped;
      const wi = rung.whatif;
      const mixed = rung.rung.includes("-");
      parts.push(el("h3", { text: `${rung.describe}` }));
      if (mixed) parts.push(el("p", { class: "hint", text: `Here each rate is the searching seat's win rate with that ${rung.by}; an even game gives every ${rung.by} the same rate (their mean, ${pct(rung.rates.shipped[0]?.expected || 0)} with the shipped data).` }));
      parts.push(ratesSide(rung.rates.shipped, rung.rates.whatif, rung.by));
      parts.push(el("p", { text: `Mean game length: ${sh.mean_length.toFixed(1)} moves with the shipped data, ${wi.mean_length.toFixed(1)} with the what-if.` }));
      parts.push(...changesList(rung.changes));
      if (rung.small) parts.push(el("p", { class: "notice", text: rung.small }));
    }
  } else {
    parts.push(el("p", { class: f.met ? "met" : "notice", text: `Target ${f.met ? "met" : "NOT met"} on ${f.confirm_games} fresh games: objective ${f.before.toFixed(2)} with the shipped data, ${f.after.toFixed(2)} with the proposed values (0 = met).` }));
    for (const line of f.verdict) parts.push(el("p", { text: line }));
    if (f.values.length) parts.push(el("ul", {}, ...f.values.map((v) => el("li", { text: v }))));
    if (run.proposed_id) parts.push(el("p", {}, el("a", { href: `/lab/whatifs/${run.proposed_id}`, class: "open", text: "The proposed values, as a what-if (compare it, download it)" })));
    parts.push(el("p", { class: "hint", text: `${f.trials} trials and ${f.search_games} games searched; held-out selection: ${f.selection.map((h) => `${h.label} ${h.objective.toFixed(2)}${h.chosen ? " (chosen)" : ""}`).join(", ")}.` }));
    for (const t of f.tables) {
      parts.push(el("h3", { text: t.title }));
      parts.push(ratesSide(t.before, t.after, "who"));
    }
    parts.push(...changesList(f.changes));
  }
  $("result-body").replaceChildren(...parts);
  $("result").hidden = false;
  $("plot-list").replaceChildren(...run.plots.map((name) => el("figure", {},
    el("img", { src: `/lab/runs/${run.id}/plots/${encodeURIComponent(name)}.png`, alt: `plot: ${name.replaceAll("-", " ")}`, loading: "lazy" }),
    el("figcaption", { text: name.replaceAll("-", " ").replaceAll("_", ":") }))));
  $("plots").hidden = !run.plots.length;
  drawnFigures = true;
}

function drawKeep(run) {
  $("commands").textContent = run.commands.join("\n");
  const links = [
    ...run.reports.map((name) => [name, `report: ${name.replace(/^report-?/, "").replace(/\.html$/, "") || "all games"} (one self-contained HTML file)`]),
    ...run.files.map((name) => [name, `games: ${name} (Parquet: rulebook report / compare read it)`]),
  ];
  if (run.whatif_id) links.push([null, "the what-if this run played", `/lab/whatifs/${run.whatif_id}`]);
  $("downloads").replaceChildren(...links.map(([name, text, href]) => el("li", {},
    el("a", { href: href || `/lab/runs/${run.id}/files/${encodeURIComponent(name)}`, text }))));
}

async function refresh() {
  let run;
  try {
    run = await api("GET", `/api/lab/runs/${runId}`);
  } catch (err) {
    $("run-error").textContent = err.message;
    $("run-error").hidden = false;
    setTimeout(refresh, 3000);
    return;
  }
  drawState(run);
  drawLive(run);
  drawKeep(run);
  if (run.status === "done" && !drawnFigures) drawFigures(run);
  document.getElementById("run-page").dataset.status = run.status;
  if (!FINAL.includes(run.status)) setTimeout(refresh, 1000);
}

$("cancel").addEventListener("click", async () => {
  try {
    await api("POST", `/api/lab/runs/${runId}/cancel`);
  } catch (err) {
    $("run-error").textContent = err.message;
    $("run-error").hidden = false;
  }
  refresh();
});
$("resume").addEventListener("click", async () => {
  try {
    await api("POST", `/api/lab/runs/${runId}/resume`);
  } catch (err) {
    $("run-error").textContent = err.message;
    $("run-error").hidden = false;
  }
  refresh();
});
refresh();
