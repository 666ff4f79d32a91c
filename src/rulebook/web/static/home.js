// The new-game form: variants, player count, options and seats follow the chosen game.
import { el } from "/static/dom.js";

const data = JSON.parse(document.getElementById("catalogue").textContent);
const form = document.getElementById("new-form");
const gameSelect = document.getElementById("game");
const variantSelect = document.getElementById("variant");
const playersInput = document.getElementById("players");
const optionsBox = document.getElementById("options");
const seatsBox = document.getElementById("seats");
const values = data.values || {};

const game = () => data.games.find((g) => g.name === gameSelect.value);
const variant = () => game().variants.find((v) => v.name === variantSelect.value);

function fillVariants() {
  const g = game();
  const wanted = values.variant;
  variantSelect.replaceChildren(
    ...g.variants.map((v) => {
      const range = v.min_players === v.max_players ? `${v.min_players}` : `${v.min_players}-${v.max_players}`;
      return el("option", { value: v.name, text: `${v.name} (${range} players)` });
    }),
  );
  const multi = g.variants.find((v) => v.max_players > 1);
  const pick = g.variants.find((v) => v.name === wanted) || multi || g.variants[0];
  variantSelect.value = pick.name;
}

function fitPlayers() {
  const v = variant();
  playersInput.min = v.min_players;
  playersInput.max = v.max_players;
  const n = Number(playersInput.value);
  if (!(n >= v.min_players)) playersInput.value = v.min_players;
  if (n > v.max_players) playersInput.value = v.max_players;
}

function fillOptions() {
  const g = game();
  const v = variantSelect.value;
  optionsBox.replaceChildren();
  for (const o of g.options) {
    if (o.variants.length && !o.variants.includes(v)) continue;
    const id = `option_${o.name}`;
    let input;
    if (o.choices.length) {
      input = el("select", { name: id, id });
      for (const c of o.choices) input.append(el("option", { value: c, text: c }));
    } else {  // an option given by a rule (e.g. Archmagi's Magi): typed, checked by the server
      input = el("input", { name: id, id, type: "text", placeholder: o.default });
    }
    input.value = values[id] || o.default;
    optionsBox.append(
      el("div", { class: "field" }, el("label", { for: id, text: o.name }), input,
        el("p", { class: "hint", text: o.rule ? `${o.description}. Accepted: ${o.rule}.` : o.description })),
    );
  }
}

function fillSeats() {
  const n = Number(playersInput.value) || 1;
  const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  seatsBox.replaceChildren(el("legend", { text: "Seats" }));
  for (let p = 0; p < n; p++) {
    const id = `seat_${p}`;
    const select = el("select", { name: id, id });
    // the expert plays only the games and player counts it was trained for
    const learned = variant().expert.includes(n);
    for (const s of data.seats) {
      if (s.key === "expert" && !learned) continue;
      select.append(el("option", { value: s.key, text: s.label, title: s.about }));
    }
    const wanted = values[id] || old[p] || (p === 0 ? "human" : "greedy");
    select.value = wanted === "expert" && !learned ? "greedy" : wanted;
    seatsBox.append(el("div", { class: "field seat" }, el("label", { for: id, text: `Seat ${p + 1}` }), select));
  }
}

function refresh(all) {
  if (all) fillVariants();
  fitPlayers();
  fillOptions();
  fillSeats();
}

gameSelect.addEventListener("change", () => { for (const k of Object.keys(values)) delete values[k]; refresh(true); });
variantSelect.addEventListener("change", () => refresh(false));
playersInput.addEventListener("change", () => refresh(false));
for (const button of document.querySelectorAll("button.pick")) {
  button.addEventListener("click", () => {
    gameSelect.value = button.dataset.game;
    for (const k of Object.keys(values)) delete values[k];
    refresh(true);
    document.getElementById("new-game").scrollIntoView({ behavior: "smooth" });
    gameSelect.focus();
  });
}
// -- the clock: its fields follow its kind ----------------------------------------------------------
const clockSelect = document.getElementById("clock");
function fitClock() {
  const kind = clockSelect.value;
  for (const f of document.querySelectorAll("#clock-fields .field")) {
    if (f.contains(clockSelect)) continue;
    f.hidden = f.classList.contains("clock-any") ? kind === "none" : !f.classList.contains(`clock-${kind}`);
  }
}
for (const name of ["clock", "clock_minutes", "clock_increment", "clock_hours", "clock_grace", "clock_bot"]) {
  if (values[name]) document.getElementById(name).value = values[name];
}
clockSelect.addEventListener("change", fitClock);
fitClock();

// -- the tables' rows: who plays each seat, whose move it is, since when ----------------------------
/** "just now", "5 min ago", "3 h ago", "2 days ago": how long before ``now`` (UNIX seconds). */
function ago(at, now) {
  if (at == null) return "";
  const s = Math.max(0, now - at);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86400);
  return `${d} day${d > 1 ? "s" : ""} ago`;
}

/** What plays seat ``p`` of a table or view: "human", "greedy bot", "open seat"; a bot in a
 * person's place for now says so; a person says whether they are here. */
function who(t, p, now) {
  const kind = (t.kinds || [])[p];
  const label = t.seats[p].label ?? t.seats[p];
  const held = t.held && t.held[String(p)];
  if (held) return `human, a ${held} bot in their place`;
  if (kind === "bot") return `${label} bot`;
  if (kind === "open") return "open seat";
  const seen = (t.presence || [])[p];
  if (!seen) return label;
  if (seen.here) return `${label}, here`;
  return seen.seen == null ? `${label}, not seen yet` : `${label}, seen ${ago(seen.seen, now)}`;
}

function seatList(t, seats, now) {
  return el("ul", { class: "table-seats" }, ...seats.map((p) => el("li", { "data-seat": String(p), text: `Seat ${p + 1}: ${who(t, p, now)}` })));
}

/** Whose move it is: "your move", "waiting for Seat 3 (open seat)". */
function waiting(t, mine, now) {
  const others = t.to_act.filter((p) => p !== mine);
  if (mine !== null && t.to_act.includes(mine)) {
    return others.length ? "your move (the others decide at the same time)" : "your move";
  }
  if (!others.length) return "";
  return `waiting for ${others.map((p) => `Seat ${p + 1} (${who(t, p, now)})`).join(", ")}`;
}

function cell(label, ...children) {
  return el("td", { "data-label": label }, ...children);
}

function gameCell(title, variant, players) {
  return cell("Game", el("span", { class: "game-title", text: title }), el("br"),
    el("span", { class: "game-variant", text: `${variant}${players ? `, ${players} players` : ""}` }));
}

// -- open tables -------------------------------------------------------------------------------------
async function openTables() {
  let tables = [];
  let now = Date.now() / 1000;
  try {
    const answer = await (await fetch("/api/open")).json();
    tables = answer.tables || [];
    now = answer.now || now;
  } catch {
    return;
  }
  const list = document.getElementById("open-list");
  list.replaceChildren(...tables.map((t) => {
    const seats = t.seats.map((_, p) => p);
    return el("tr", { "data-game-id": t.id },
      gameCell(t.title, t.variant, t.seats.length),
      cell("Seats", seatList(t, seats, now)),
      cell("Now", el("span", { class: "now", text: waiting(t, null, now) || "-" }),
        el("br"), el("span", { class: "since", text: `opened ${ago(t.created, now)}, ${t.moves} move${t.moves === 1 ? "" : "s"} made` })),
      cell("Clock", t.clock),
      cell("", ...t.open.map((p) => el("button", { type: "button", class: "join", "data-seat": String(p), onclick: (event) => join(t.id, Number(event.currentTarget.dataset.seat)) }, `Take seat ${p + 1}`))));
  }));
  // shown while a table is open, or to say why a seat could not be taken
  document.getElementById("open-tables").hidden = tables.length === 0 && document.getElementById("join-error").hidden;
  document.getElementById("open-tables").dataset.ready = "yes";
}

async function join(id, seat) {
  const box = document.getElementById("join-error");
  const r = await fetch(`/api/games/${id}/join`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat }) });
  const answer = await r.json().catch(() => ({}));
  if (r.ok) {
    location.assign(answer.url);
    return;
  }
  box.textContent = answer.error || `error ${r.status}`;
  box.hidden = false;
  openTables();
}

// -- my games: the links this browser holds (localStorage), with whose move it is -------------------
async function myGames() {
  let mine = {};
  try {
    mine = JSON.parse(localStorage.getItem("rulebook.games") || "{}");
  } catch {
    return;
  }
  const rows = [];
  for (const [id, g] of Object.entries(mine).sort((a, b) => b[1].at - a[1].at)) {
    let now = g.over ? "over" : "";
    let variant = "";
    let others = el("span", { text: "" });
    let started = "";
    try {  // to this server only, as the game page does: the token in a header, never a URL
      const r = await fetch(`/api/games/${encodeURIComponent(id)}/view`, { headers: { authorization: `Bearer ${g.token}` } });
      if (r.status === 404 || r.status === 403) continue;
      const answer = await r.json();
      const at = answer.now || Date.now() / 1000;
      const v = answer.views.find((x) => x.seat === g.seat);
      variant = `${v.variant}, ${v.players} player${v.players > 1 ? "s" : ""}`;
      others = seatList(v, v.seats.map((s) => s.seat).filter((p) => p !== g.seat), at);
      started = v.created ? `started ${ago(v.created, at)}` : "";
      if (v.over) now = v.result && v.result.verdict ? `over: ${v.result.verdict}` : "over";
      else if (v.legal.length) now = "your move";
      else now = waiting(v, g.seat, at) || "waiting";
    } catch {
      now = now || "?";
    }
    rows.push(el("tr", { "data-game-id": id, class: now === "your move" ? "mine" : "" },
      cell("Game", el("span", { class: "game-title", text: g.title }), el("br"), el("span", { class: "game-variant", text: variant })),
      cell("Your seat", `Seat ${g.seat + 1}`),
      cell("The others", others),
      cell("Now", el("span", { class: "now", text: now }), el("br"), el("span", { class: "since", text: started })),
      cell("", el("a", { href: `/games/${encodeURIComponent(id)}#${g.token}` }, "Open", el("span", { class: "sr-only", text: ` ${g.title}, seat ${g.seat + 1}` })))));
  }
  document.getElementById("my-games-list").replaceChildren(...rows);
  document.getElementById("my-games").hidden = rows.length === 0;
  document.getElementById("my-games").dataset.ready = "yes";
}

openTables();
myGames();
refresh(true);
if (values.players) { playersInput.value = values.players; refresh(false); }
// an error of the last post (the form's or the upload's) is where the eye is, and read out
const problem = document.getElementById("form-error") || document.getElementById("upload-error");
if (problem) {
  problem.scrollIntoView({ block: "center" });
  problem.focus({ preventScroll: true });
}
// a form refused for the server's load (or this address's share) says when to try again: the
// button waits that long, counting down, then asks the player to create the game now
if (data.retry_after && document.getElementById("form-error")) {
  const button = form.querySelector("button[type=submit]");
  const label = button.textContent;
  const note = el("p", { class: "hint", id: "form-wait", "aria-live": "polite" });
  document.getElementById("form-error").after(note);
  let left = Math.min(Number(data.retry_after), 600);
  const tick = () => {
    if (left > 0) {
      button.disabled = true;
      button.textContent = `${label} (wait ${left} s)`;
      left -= 1;
      setTimeout(tick, 1000);
    } else {
      button.disabled = false;
      button.textContent = label;
      note.textContent = "You can try again now: press the button to create the game.";
      form.dataset.wait = "over";
    }
  };
  note.textContent = `Please wait ${left} s: the server is serving as many games as it can. Your choices are kept.`;
  form.dataset.wait = "counting";
  tick();
}
form.dataset.ready = "yes";
