// A game's data as a form (the lab's step 1): every value, grouped as in its data files, with
// its type or range and where it comes from; the changed ones saved as a named what-if.
import { el } from "/static/dom.js";
import { api } from "/static/lab-common.js";

const $ = (id) => document.getElementById(id);
const game = $("data-page").dataset.game;
const inputs = new Map(); // value id -> {value, input}
const SOURCE = { rulebook: "from the rulebook", public: "from public card lists", authored: "authored by this project" };

function field(v) {
  const id = `v-${inputs.size}`;
  let input;
  if (v.kind === "bool") {
    input = el("select", { id }, el("option", { value: "true", text: "yes" }), el("option", { value: "false", text: "no" }));
  } else if (v.kind === "choice") {
    input = el("select", { id }, ...v.choices.map((c) => el("option", { value: c, text: c })));
  } else if (v.kind === "int" || v.kind === "float") {
    input = el("input", { id, type: "number", inputmode: "decimal", step: v.kind === "int" ? "1" : "any" });
    if (v.low !== null) input.min = v.low;
    if (v.high !== null) input.max = v.high;
  } else {
    input = el("input", { id, type: "text", spellcheck: "false" });
  }
  input.value = v.value;
  input.dataset.shipped = v.value;
  input.dataset.id = v.id;
  input.setAttribute("aria-describedby", `${id}-about`);
  input.addEventListener("input", changed);
  input.addEventListener("change", changed);
  inputs.set(v.id, { value: v, input });
  const about = el("span", { id: `${id}-about`, class: "about" },
    el("span", { class: "range", text: v.range }),
    el("span", { class: `source source-${v.source || "none"}`, text: v.source ? ` · ${SOURCE[v.source] || v.source}` : "" }),
    v.reason ? el("span", { class: "reason", text: `: ${v.reason}` }) : "");
  return el("div", { class: "value", "data-search": `${v.group} ${v.label} ${v.file}`.toLowerCase() },
    el("label", { for: id, text: v.label }), input, about);
}

function draw(found) {
  const files = new Map();
  for (const v of found.values) {
    if (!files.has(v.file)) files.set(v.file, new Map());
    const groups = files.get(v.file);
    if (!groups.has(v.group)) groups.set(v.group, []);
    groups.get(v.group).push(v);
  }
  $("files").replaceChildren(...[...files].map(([file, groups]) => el("section", { class: "data-file" },
    el("h2", { text: file }),
    ...[...groups].map(([group, vs]) => {
      const details = el("details", { class: "data-group" },
        el("summary", {}, group, el("span", { class: "count", text: ` (${vs.length})` })),
        ...vs.map(field));
      return details;
    }))));
  filter();
}

function changes() {
  const out = {};
  for (const { input } of inputs.values()) {
    if (input.value !== input.dataset.shipped) out[input.dataset.id] = input.value;
  }
  return out;
}

function changed(event) {
  const input = event.target;
  input.closest(".value").classList.toggle("changed", input.value !== input.dataset.shipped);
  const n = Object.keys(changes()).length;
  $("changes-count").textContent = n ? `${n} value${n === 1 ? "" : "s"} changed from the shipped data.` : "No value changed yet.";
  $("toml-preview").hidden = true;
}

function filter() {
  const words = $("filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const only = $("changed-only").checked;
  let shown = 0;
  for (const group of document.querySelectorAll(".data-group")) {
    let any = false;
    for (const row of group.querySelectorAll(".value")) {
      const match = words.every((w) => row.dataset.search.includes(w)) && (!only || row.classList.contains("changed"));
      row.hidden = !match;
      if (match) { any = true; shown++; }
    }
    group.hidden = !any;
    group.open = any && (words.length > 0 || only);
  }
  for (const file of document.querySelectorAll(".data-file")) file.hidden = !file.querySelector(".data-group:not([hidden])");
  $("filter-count").textContent = words.length || only ? `${shown} value${shown === 1 ? "" : "s"} shown` : `${inputs.size} values`;
}

function showError(message) {
  const box = $("save-error");
  box.textContent = message || "";
  box.hidden = !message;
  if (message) box.focus();
}

async function preview() {
  showError("");
  try {
    const found = await api("POST", "/api/lab/whatifs/preview", { game, name: $("whatif-name").value || "preview", values: changes() });
    $("toml-preview").textContent = found.toml || "# nothing changed yet";
    $("toml-preview").hidden = false;
  } catch (err) {
    showError(err.message);
  }
}

async function save(event) {
  event.preventDefault();
  showError("");
  if (!$("whatif-name").value.trim()) {
    showError("Give the what-if a name (e.g. what you changed).");
    $("whatif-name").focus();
    return;
  }
  $("save").disabled = true;
  try {
    const made = await api("POST", "/api/lab/whatifs", { game, name: $("whatif-name").value.trim(), values: changes() });
    location.href = `/lab/whatifs/${made.id}`;
  } catch (err) {
    showError(err.message);
  } finally {
    $("save").disabled = false;
  }
}

$("filter").addEventListener("input", filter);
$("changed-only").addEventListener("change", filter);
$("show-toml").addEventListener("click", preview);
$("data-form").addEventListener("submit", save);
try {
  draw(await api("GET", `/api/lab/data/${game}`));
  document.body.dataset.ready = "yes";
} catch (err) {
  $("files").replaceChildren(el("p", { class: "error", text: err.message }));
}
