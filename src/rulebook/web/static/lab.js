// The lab's home: what-ifs, a new run (compare, simulate, tune), the runs. It knows no rules:
// games, variants and options come from the server's catalogue, values from the game's data.
import { el } from "/static/dom.js";
import { api, duration, statusWords, when } from "/static/lab-common.js";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("lab-data").textContent);
const params = new URLSearchParams(location.search);
const RUNG_WORDS = {
  greedy: "greedy bots in every seat",
  "random-greedy": "one random seat against greedy bots",
  "mcts:200-greedy": "one mcts:200 seat (a short search) against greedy bots",
  "mcts:1000-greedy": "one mcts:1000 seat (a longer search) against greedy bots",
};
const DEFAULT_RUNGS = ["greedy", "mcts:200-greedy"];
let whatifs = [];
let values = null; // the chosen game's numeric data values (tuning's knobs)

const kind = () => document.querySelector("input[name=kind]:checked").value;
const game = () => data.games.find((g) => g.name === $("run-game").value);
const variant = () => game().variants.find((v) => v.name === $("run-variant").value);

function showError(message) {
  const box = $("run-error");
  box.textContent = message || "";
  box.hidden = !message;
  if (message) box.focus();
}

// -- what-ifs --------------------------------------------------------------------------------
async function loadWhatifs() {
  whatifs = (await api("GET", "/api/lab/whatifs")).whatifs;
  const body = $("whatifs").querySelector("tbody");
  body.replaceChildren(...whatifs.map((w) => el("tr", {},
    el("th", { scope: "row" }, el("a", { href: `/lab/whatifs/${w.id}`, text: w.name })),
    el("td", { text: w.title }),
    el("td", { text: w.changes.map((c) => `${c.group}, ${c.label}: ${c.shipped} → ${c.now}`).join("; ") }),
    el("td", {}, el("code", { text: w.digest })),
    el("td", {}, el("a", { href: `/lab?whatif=${w.id}#new-run`, text: "compare" })))));
  $("whatifs").hidden = !whatifs.length;
  $("whatifs-empty").hidden = !!whatifs.length;
  fillWhatifs();
}

function fillWhatifs() {
  const select = $("run-whatif");
  const mine = whatifs.filter((w) => w.game === $("run-game").value);
  const keep = select.value || params.get("whatif") || "";
  const options = mine.map((w) => el("option", { value: w.id, text: `${w.name} (${w.changes.length} change${w.changes.length === 1 ? "" : "s"})` }));
  if (kind() !== "compare") options.unshift(el("option", { value: "", text: "the shipped data" }));
  else if (!mine.length) options.unshift(el("option", { value: "", text: "(no what-if for this game yet: make one in step 1)" }));
  select.replaceChildren(...options);
  if (mine.some((w) => w.id === keep)) select.value = keep;
}

// -- the run form ------------------------------------------------------------------------------
function fillGames() {
  for (const id of ["data-game", "run-game"]) {
    $(id).replaceChildren(...data.games.map((g) => el("option", { value: g.name, text: g.title })));
  }
  const wanted = params.get("whatif") && whatifs.find((w) => w.id === params.get("whatif"));
  if (wanted) $("run-game").value = wanted.game;
}

function fillVariant() {
  const g = game();
  const wanted = $("run-variant").value;
  $("run-variant").replaceChildren(...g.variants.map((v) => el("option", { value: v.name, text: `${v.name} (${v.min_players}-${v.max_players} players)` })));
  const multi = g.variants.find((v) => v.max_players > 1);
  $("run-variant").value = g.variants.some((v) => v.name === wanted) ? wanted : (multi || g.variants[0]).name;
}

function fillPlayers() {
  const v = variant();
  const box = $("run-players");
  box.min = v.min_players;
  box.max = v.max_players;
  const n = Number(box.value);
  if (!(n >= v.min_players && n <= v.max_players)) box.value = Math.min(v.max_players, Math.max(v.min_players, 4));
}

function fillOptions() {
  const g = game();
  const v = $("run-variant").value;
  $("run-options").replaceChildren(...g.options.filter((o) => !o.variants.length || o.variants.includes(v)).map((o) => {
    const id = `run-option-${o.name}`;
    const input = o.choices.length
      ? el("select", { id, "data-option": o.name }, ...o.choices.map((c) => el("option", { value: c, text: c })))
      : el("input", { id, "data-option": o.name, type: "text", value: o.default || "" });
    if (o.default) input.value = o.default;
    return el("div", { class: "field" }, el("label", { for: id, text: o.name }), input, el("span", { class: "hint", text: o.description || "" }));
  }));
}

function fillSeats() {
  const n = Number($("run-players").value) || 1;
  const box = $("run-seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(...Array.from({ length: n }, (_, p) => {
    const id = `run-seat-${p}`;
    const select = el("select", { id }, ...data.agents.map((a) => el("option", { value: a, text: a })));
    select.value = kept[p] || "greedy";
    return el("div", { class: "field" }, el("label", { for: id, text: `Seat ${p + 1}` }), select);
  }));
}

function fillRungs() {
  $("run-rungs").replaceChildren(...data.rungs.map((r) => el("label", { class: "rung" },
    Object.assign(el("input", { type: "checkbox", value: r }), { checked: DEFAULT_RUNGS.includes(r) }),
    ` ${RUNG_WORDS[r] || r}`)));
}

function chosenRungs() {
  return [...$("run-rungs").querySelectorAll("input:checked")].map((i) => i.value);
}

function target() {
  const by = $("tune-by").value;
  const tol = Number($("tune-tolerance").value);
  return chosenRungs().map((r) => `${by}<=${tol} @ ${r}`).join(", ");
}

function showTarget() {
  const rungs = chosenRungs();
  const by = $("tune-by").value === "factions" ? "faction" : "seat";
  $("tune-target-text").textContent = rungs.length
    ? `In words: every ${by} within ${$("tune-tolerance").value} points of an even share, for ${rungs.map((r) => RUNG_WORDS[r] || r).join(" and for ")}. As the CLI writes it: ${target()}`
    : "Check at least one rung above.";
}

async function loadValues() {
  values = null;
  const found = await api("GET", `/api/lab/data/${$("run-game").value}`);
  values = found.values.filter((v) => v.kind === "int" || v.kind === "float");
  fillKnobPick();
}

function fillKnobPick() {
  if (!values) return;
  const words = $("knob-search").value.trim().toLowerCase();
  const shown = values.filter((v) => !words || `${v.group} ${v.label}`.toLowerCase().includes(words)).slice(0, 300);
  $("knob-pick").replaceChildren(el("option", { value: "", text: `choose a number of the data… (${shown.length} shown)` }),
    ...shown.map((v) => el("option", { value: v.id, text: `${v.group}, ${v.label} (now ${v.value})` })));
}

function addKnob(id) {
  const v = values.find((x) => x.id === id);
  if (!v || $("knobs").querySelector(`tr[data-id='${CSS.escape(id)}']`)) return;
  const now = Number(v.value);
  const span = Math.max(1, Math.round(Math.abs(now) * 0.5));
  const low = v.low !== null ? Math.max(v.low, now - span) : now - span;
  const high = v.high !== null ? Math.min(v.high, now + span) : now + span;
  const number = (cls, value, label) => el("input", { type: "number", class: `short-number ${cls}`, value: String(value), "aria-label": `${label} of ${v.group}, ${v.label}`, step: v.kind === "int" ? "1" : "any" });
  const row = el("tr", { "data-id": id },
    el("th", { scope: "row", text: `${v.group}, ${v.label}` }), el("td", { text: v.value }),
    el("td", {}, number("low", low, "Lowest")), el("td", {}, number("high", high, "Highest")),
    el("td", {}, number("step", v.kind === "int" ? 1 : "", "Step")),
    el("td", {}, el("button", { type: "button", onclick: () => { row.remove(); $("knobs").hidden = !$("knobs").querySelector("tbody tr"); }, text: "remove" })));
  $("knobs").querySelector("tbody").append(row);
  $("knobs").hidden = false;
}

function knobs() {
  return [...$("knobs").querySelectorAll("tbody tr")].map((row) => {
    const num = (cls) => {
      const text = row.querySelector(`.${cls}`).value.trim();
      return text === "" ? null : Number(text);
    };
    return { key: row.dataset.id, low: num("low"), high: num("high"), step: num("step") };
  });
}

function kindChanged() {
  const k = kind();
  $("seats-field").hidden = k !== "simulate";
  $("rungs-field").hidden = k === "simulate";
  $("tune-field").hidden = k !== "tune";
  $("whatif-field").hidden = k === "tune";
  $("run-games").closest(".field").hidden = k === "tune";
  $("games-hint").textContent = k === "compare" ? "per rung, on each side (the shipped data and the what-if: the same seeds)" : "";
  fillWhatifs();
  $("estimate").textContent = "";
  if (k === "tune" && !values) loadValues().catch((err) => showError(err.message));
  showTarget();
}

function gameChanged() {
  fillVariant();
  variantChanged();
  fillWhatifs();
  values = null;
  $("knobs").querySelector("tbody").replaceChildren();
  $("knobs").hidden = true;
  if (kind() === "tune") loadValues().catch((err) => showError(err.message));
}

function variantChanged() {
  fillPlayers();
  fillOptions();
  fillSeats();
}

function body() {
  const options = {};
  for (const input of $("run-options").querySelectorAll("[data-option]")) options[input.dataset.option] = input.value;
  const k = kind();
  const rungs = chosenRungs();
  return {
    kind: k,
    game: $("run-game").value,
    players: Number($("run-players").value),
    variant: $("run-variant").value,
    options,
    seats: k === "simulate" ? [...$("run-seats").querySelectorAll("select")].map((s) => s.value) : [],
    rungs: k === "simulate" ? [] : rungs,
    games: k === "tune" ? 1 : Number($("run-games").value),
    seed: Number($("run-seed").value) || 0,
    whatif: k === "tune" ? "" : $("run-whatif").value,
    title: $("run-title-input").value,
    knobs: k === "tune" ? knobs() : [],
    target: k === "tune" ? target() : "",
    minutes: k === "tune" ? Number($("tune-minutes").value) : 0,
  };
}

async function estimate() {
  showError("");
  $("estimate").textContent = "Playing a few games to time them…";
  try {
    const found = await api("POST", "/api/lab/estimate", body());
    $("estimate").textContent = kind() === "tune"
      ? `The tuning run takes about ${duration(found.seconds)} (its budget).`
      : `About ${duration(found.seconds)} for ${found.games} games (${found.per_game.toFixed(3)} s a game on one core, on every core of this server).`;
  } catch (err) {
    $("estimate").textContent = "";
    showError(err.message);
  }
}

async function start(event) {
  event.preventDefault();
  showError("");
  $("start").disabled = true;
  try {
    const run = await api("POST", "/api/lab/runs", body());
    location.href = `/lab/runs/${run.id}`;
  } catch (err) {
    showError(err.message);
  } finally {
    $("start").disabled = false;
  }
}

// -- runs ---------------------------------------------------------------------------------------
async function loadRuns() {
  const runs = (await api("GET", "/api/lab/runs")).runs;
  $("runs").querySelector("tbody").replaceChildren(...runs.map((r) => el("tr", {},
    el("th", { scope: "row" }, el("a", { href: `/lab/runs/${r.id}`, text: r.title })),
    el("td", { text: r.kind }),
    el("td", { text: statusWords(r.status) + (r.status === "running" && r.left ? `, ${duration(r.left)} left` : "") }),
    el("td", { text: `${r.done} / ${r.total}` }),
    el("td", {}, el("code", { text: r.data })),
    el("td", { text: when(r.started || r.created) }))));
  $("runs").hidden = !runs.length;
  $("runs-empty").hidden = !!runs.length;
  if (runs.some((r) => r.status === "running" || r.status === "queued")) setTimeout(() => loadRuns().catch(() => {}), 2000);
}

// -- wiring --------------------------------------------------------------------------------------
$("change-data").addEventListener("submit", (event) => {
  event.preventDefault();
  location.href = `/lab/data/${encodeURIComponent($("data-game").value)}`;
});
for (const radio of document.querySelectorAll("input[name=kind]")) radio.addEventListener("change", kindChanged);
$("run-game").addEventListener("change", gameChanged);
$("run-variant").addEventListener("change", variantChanged);
$("run-players").addEventListener("change", fillSeats);
$("run-rungs").addEventListener("change", showTarget);
$("tune-by").addEventListener("change", showTarget);
$("tune-tolerance").addEventListener("input", showTarget);
$("knob-search").addEventListener("input", fillKnobPick);
$("knob-pick").addEventListener("change", () => { addKnob($("knob-pick").value); $("knob-pick").value = ""; });
$("estimate-button").addEventListener("click", estimate);
$("run-form").addEventListener("submit", start);

fillRungs();
try {
  await loadWhatifs();
} catch (err) {
  showError(err.message);
}
fillGames();
gameChanged();
kindChanged();
loadRuns().catch((err) => showError(err.message));
document.body.dataset.ready = "yes";
