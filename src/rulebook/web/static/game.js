// The game page: one seat's (or a spectator's) view, live over a WebSocket, moves by HTTP.
// It knows no rules: it shows the payload the server sends (see docs/web.md) through the
// game's board module, or the generic view, and the list of legal moves.
import * as fallback from "/static/fallback.js";

const page = document.getElementById("game");
const gameId = page.dataset.gameId;
const gameName = page.dataset.game;
const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.hash.replace(/^#(token=)?/, "")) || null;

const state = {
  views: new Map(), // seat (or "spectator") -> the latest view
  held: [], // the seats this link holds ([] for a spectator)
  shown: null, // the seat on screen (hot-seat: one at a time)
  revealed: null, // hot-seat: the seat that said "I am seat N" last
  staticData: null,
  replay: null, // {step, moves, view} while replaying
  busy: false,
  board: null, // the board module
  socket: null,
  retry: 0,
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function headers() {
  const h = { "content-type": "application/json" };
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: headers(),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error((data && data.error) || `error ${response.status}`);
  return data;
}

function announce(message) {
  $("announce").textContent = message;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function seatName(view, p) {
  const s = view.seats[p];
  return `Seat ${p + 1}${s ? ` (${s.label})` : ""}`;
}

// -- moves ---------------------------------------------------------------------------------
async function move(text) {
  const view = current();
  if (!view || view.seat === null || state.busy || state.replay) return;
  if (!view.legal.some((m) => m.text === text)) {
    showError(`${text} is not one of your moves now`);
    return;
  }
  state.busy = true;
  showError("");
  hideOffer();
  document.body.classList.add("busy");
  try {
    await call("POST", `/api/games/${gameId}/move`, { seat: view.seat, move: text, version: view.version });
    announce(`you played ${text}`);
  } catch (err) {
    showError(err.message);
    throw err;
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
  }
}

async function undo() {
  const view = current();
  if (!view) return;
  try {
    await call("POST", `/api/games/${gameId}/undo`, { seat: view.seat });
    announce("your last move was taken back");
  } catch (err) {
    showError(err.message);
  }
}

function hideOffer() {
  $("offer").hidden = true;
  $("offer").replaceChildren();
}

function offer(texts) {
  const view = current();
  const moves = view.legal.filter((m) => texts.includes(m.text));
  const box = $("offer");
  box.replaceChildren(el("p", { text: "Which move?" }));
  for (const m of moves) {
    box.append(el("button", { type: "button", class: "move", "data-move": m.text, onclick: () => move(m.text).catch(() => {}) }, m.explain));
  }
  box.append(el("button", { type: "button", class: "cancel", onclick: hideOffer }, "Cancel"));
  box.hidden = false;
  const first = box.querySelector("button");
  if (first) first.focus();
}

const ctx = {
  move: (text) => move(text),
  offer: (texts) => offer(texts),
  announce: (message) => announce(message),
};

// -- which view is on screen ------------------------------------------------------------------
function current() {
  if (state.replay) return state.replay.view;
  if (!state.held.length) return state.views.get("spectator") || null;
  return state.views.get(state.shown) || null;
}

function pickSeat() {
  // hot-seat: stay on the shown seat while it has moves; else the next held seat to act
  if (state.held.length <= 1) {
    state.shown = state.held.length ? state.held[0] : null;
    return;
  }
  const shown = state.views.get(state.shown);
  if (shown && shown.legal.length) return;
  const next = state.held.find((p) => (state.views.get(p) || { legal: [] }).legal.length);
  if (next !== undefined) state.shown = next;
  else if (state.shown === null) state.shown = state.held[0];
}

// -- drawing ----------------------------------------------------------------------------------
async function loadBoard() {
  if (page.dataset.board !== "yes") return fallback;
  try {
    return await import(`/boards/${gameName}/board.js`);
  } catch (err) {
    console.error("board failed to load; showing the generic view", err);
    return fallback;
  }
}

function drawStatus(view) {
  $("variant").textContent = `${view.variant}, ${view.players} player${view.players > 1 ? "s" : ""}`;
  if (view.seat === null) $("whoami").textContent = "You are watching (spectator view: public information only).";
  else if (state.held.length > 1) $("whoami").textContent = `Hot-seat: this device holds seats ${state.held.map((p) => p + 1).join(", ")}. Now showing seat ${view.seat + 1}.`;
  else $("whoami").textContent = `You are seat ${view.seat + 1}.`;
  $("seat-list").replaceChildren(
    ...view.seats.map((s) => el("li", { class: `seat${s.deciding ? " deciding" : ""}${s.seat === view.seat ? " me" : ""}` },
      el("span", { class: "seat-no", text: `Seat ${s.seat + 1}` }), " ",
      el("span", { class: "seat-label", text: s.label }),
      s.deciding ? el("span", { class: "badge", text: view.to_act.length > 1 ? "deciding" : "to move" }) : "",
      view.result && view.result.winners.includes(s.seat) ? el("span", { class: "badge win", text: "winner" }) : "")),
  );
  let turn;
  if (state.replay) turn = `Replay: after move ${state.replay.step} of ${state.replay.moves}.`;
  else if (view.over) turn = "The game is over.";
  else if (view.legal.length) turn = view.to_act.length > 1 ? "Your move (the others decide at the same time)." : "Your move.";
  else if (view.to_act.length) turn = `Waiting for ${view.to_act.map((p) => seatName(view, p)).join(", ")}.`;
  else turn = "";
  $("turn").textContent = turn;
}

function drawMoves(view) {
  const box = $("moves");
  // keyboard players keep their place: focus stays in the list across updates
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.move || "" : null;
  box.replaceChildren();
  $("moves-title").textContent = view.seat === null ? "Moves" : `Moves of seat ${view.seat + 1}`;
  if (state.replay) {
    box.append(el("p", { class: "hint", text: "Replaying: no moves." }));
  } else if (view.seat === null) {
    box.append(el("p", { class: "hint", text: "Spectators make no moves." }));
  } else if (!view.legal.length) {
    box.append(el("p", { class: "hint", text: view.over ? "No more moves." : "Not your move now." }));
  } else {
    for (const m of view.legal) {
      box.append(el("button", { type: "button", class: "move", "data-move": m.text, onclick: () => move(m.text).catch(() => {}) }, m.explain));
    }
  }
  $("undo").hidden = !view.can_undo || !!state.replay;
  if (focused !== null) {
    const buttons = [...box.querySelectorAll("button.move")];
    const same = buttons.find((button) => button.dataset.move === focused) || buttons[0];
    if (same) same.focus();
  }
}

function drawLog(view) {
  const list = $("log");
  list.replaceChildren(...view.log.map((e) => el("li", { class: e.seat === view.seat ? "mine" : "" },
    el("b", { text: `${seatName(view, e.seat)}: ` }), e.text)));
  list.scrollTop = list.scrollHeight;
}

function drawResult(view) {
  const box = $("result");
  const r = view.result;
  box.hidden = !r;
  if (!r) return;
  const names = r.winners.map((p) => seatName(view, p));
  let decided = "";
  if (view.players > 1) {
    if (r.decided_by === "shared") decided = "They share the victory (the tie-breakers left them tied).";
    else if (r.decided_by === "score") decided = "Decided by the score.";
    else decided = `Tied on score; the tie-breaker decided: ${r.decided_by}.`;
  }
  const categories = [...new Set(r.breakdowns.flatMap((b) => Object.keys(b)))];
  const table = el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, el("th", { text: "" }), ...view.seats.map((s) => el("th", { scope: "col", text: `Seat ${s.seat + 1}` })))),
    el("tbody", {},
      ...categories.map((c) => el("tr", {}, el("th", { scope: "row", text: c.replaceAll("_", " ") }), ...r.breakdowns.map((b) => el("td", { text: String(b[c] ?? 0) })))),
      el("tr", { class: "total" }, el("th", { scope: "row", text: "total" }), ...r.scores.map((s) => el("td", { text: String(s) })))));
  box.replaceChildren(
    el("h2", { id: "result-title", text: "Game over" }),
    el("p", { class: "winners", text: view.players > 1 ? `Winner${names.length > 1 ? "s" : ""}: ${names.join(", ")}.` : `Final score: ${r.scores[0]}.` }),
    decided ? el("p", { text: decided }) : "",
    r.rating ? el("p", { class: "rating", text: `Result: ${r.rating}` }) : "",
    table,
  );
}

async function draw() {
  pickSeat();
  const view = current();
  if (!view) return;
  const passing = !state.replay && state.held.length > 1 && state.revealed !== state.shown;
  $("pass").hidden = !passing;
  $("table").hidden = passing;
  drawStatus(view);
  if (passing) {
    $("pass-text").textContent = `Seat ${state.shown + 1}'s turn. Pass the device to seat ${state.shown + 1}; the board stays hidden until they are ready.`;
    $("pass-ready").textContent = `I am seat ${state.shown + 1}: show my board`;
    $("board").replaceChildren();
    $("moves").replaceChildren();
    $("log").replaceChildren();
    return;
  }
  drawResult(view);
  drawMoves(view);
  drawLog(view);
  const full = { ...view, static: state.staticData };
  try {
    state.board.render($("board"), full, ctx);
  } catch (err) {
    console.error("board failed; showing the generic view", err);
    state.board = fallback;
    fallback.render($("board"), full, ctx);
  }
  drawReplay(view);
}

// -- replay -----------------------------------------------------------------------------------
function drawReplay(view) {
  const replaying = !!state.replay;
  $("replay-live").hidden = !replaying;
  $("replay-step").textContent = replaying ? `${state.replay.step} / ${state.replay.moves}` : `${view.version} moves`;
  const save = $("save");
  save.hidden = !view.over;
  save.href = `/api/games/${gameId}/save`;
}

async function replayTo(step) {
  try {
    const data = await call("GET", `/api/games/${gameId}/replay?step=${Math.max(0, step)}`);
    const wanted = state.shown === null ? data.views[0] : data.views.find((v) => v.seat === state.shown) || data.views[0];
    state.replay = { step: wanted.replay.step, moves: wanted.replay.moves, view: wanted };
    showError("");
    draw();
  } catch (err) {
    showError(err.message);
  }
}

function replayStep(delta) {
  if (!state.replay) {
    const view = current();
    const moves = view ? view.log.length : 0;
    replayTo(delta < 0 ? moves + delta : 0);
  } else {
    replayTo(Math.min(state.replay.moves, state.replay.step + delta));
  }
}

$("replay-first").addEventListener("click", () => replayTo(0));
$("replay-prev").addEventListener("click", () => replayStep(-1));
$("replay-next").addEventListener("click", () => replayStep(1));
$("replay-last").addEventListener("click", () => replayTo(state.replay ? state.replay.moves : 1e9).catch(() => {}));
$("replay-live").addEventListener("click", () => { state.replay = null; draw(); });
$("undo").addEventListener("click", () => undo());
$("pass-ready").addEventListener("click", () => { state.revealed = state.shown; draw(); $("moves").querySelector("button")?.focus(); });

// -- live updates -----------------------------------------------------------------------------
function keep(view) {
  state.views.set(view.seat === null ? "spectator" : view.seat, view);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify(token ? { token } : { spectate: true }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") {
      state.retry = 0;
      $("connection").textContent = "live";
      page.dataset.live = "yes";
    } else if (message.type === "view") {
      keep(message.view);
      page.dataset.version = String(message.view.version);
      draw();
    } else if (message.type === "error") {
      $("connection").textContent = message.error;
      if (message.status === 403 || message.status === 404) state.retry = -1;
    }
  });
  socket.addEventListener("close", () => {
    page.dataset.live = "no";
    if (state.retry < 0) return;
    const wait = Math.min(10000, 500 * 2 ** state.retry++);
    $("connection").textContent = `connection lost; reconnecting in ${Math.round(wait / 1000)} s`;
    setTimeout(connect, wait);
  });
}

setInterval(() => {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send('{"type":"ping"}');
}, 25000);

async function start() {
  state.board = await loadBoard();
  try {
    const data = await call("GET", `/api/games/${gameId}/view`);
    state.staticData = data.views[0].static || null;
    state.held = data.views.map((v) => v.seat).filter((p) => p !== null);
    for (const v of data.views) keep(v);
    if (state.held.length === 1) state.revealed = state.held[0];
    draw();
  } catch (err) {
    $("connection").textContent = err.message;
    showError(err.message);
    return;
  }
  connect();
}

start();
