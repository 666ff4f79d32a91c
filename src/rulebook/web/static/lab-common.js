// The lab's pages share these: JSON calls, numbers in words, win-rate bars with intervals.
import { el } from "/static/dom.js";

export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new Error("the server cannot be reached; nothing was sent");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error((data && data.error) || `error ${response.status}`);
  return data;
}

export const pct = (x) => `${(100 * x).toFixed(1)}%`;

export function duration(seconds) {
  if (seconds === null || seconds === undefined || !isFinite(seconds)) return "";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

export function when(unix) {
  if (!unix) return "";
  return new Date(unix * 1000).toLocaleString();
}

const STATUS = {
  queued: "waiting to start",
  running: "running",
  done: "done",
  cancelled: "cancelled",
  stopped: "stopped",
  failed: "failed",
};
export const statusWords = (s) => STATUS[s] || s;

/** Win rates as horizontal bars, each with its 95% interval and the even share dashed; every
 * figure also in words for screen readers and for copying. */
export function rateBars(rates, expected, caption) {
  const width = 320;
  const rowH = 22;
  const left = 140;
  const max = Math.min(1, Math.max(0.05, ...rates.map((r) => r.high || r.rate), expected || 0) * 1.1);
  const x = (v) => left + (v / max) * (width - left - 10);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${rates.length * rowH + 18}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", caption + ": " + rates.map((r) => `${r.label} ${pct(r.rate)} (${pct(r.low)} to ${pct(r.high)})`).join("; "));
  svg.classList.add("rate-bars");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  rates.forEach((r, i) => {
    const y = i * rowH + 4;
    add("text", { x: left - 6, y: y + 13, "text-anchor": "end", class: "bar-label" }, r.label);
    add("rect", { x: left, y: y + 2, width: Math.max(0, x(r.rate) - left), height: rowH - 8, class: "bar" });
    add("line", { x1: x(r.low), x2: x(r.high), y1: y + rowH / 2 - 2, y2: y + rowH / 2 - 2, class: "interval" });
    add("text", { x: Math.min(width - 2, x(r.high) + 4), y: y + 13, class: "bar-value" }, pct(r.rate));
  });
  if (expected) {
    add("line", { x1: x(expected), x2: x(expected), y1: 0, y2: rates.length * rowH + 6, class: "even" });
  }
  add("text", { x: left, y: rates.length * rowH + 16, class: "axis" }, `0 to ${pct(max)}`);
  return svg;
}

/** A table of win rates with their intervals (what the bars show, in figures). */
export function rateTable(columns, rows) {
  return el("table", { class: "lab-table" },
    el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { scope: "col", text: c })))),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c, i) => el(i ? "td" : "th", i ? { text: c } : { scope: "row", text: c }))))));
}

export const interval = (r) => `${pct(r.low)} to ${pct(r.high)}`;
