// The game page: one seat's (or a spectator's) view, live over a WebSocket, moves by HTTP.
// It knows no rules: it shows the payload the server sends (see docs/web.md) through the
// game's board module, or the generic view, and the list of legal moves.
import { el } from "/static/dom.js";
import * as fallback from "/static/fallback.js";
import { offerGuide } from "/static/guide.js";
import { drawTable, notifyButton, remember, serverTime, tick, yourTurn } from "/static/table.js";

const page = document.getElementById("game");
const gameId = page.dataset.gameId;
const gameName = page.dataset.game;
const $ = (id) => document.getElementById(id);
let token = decodeURIComponent(location.hash.replace(/^#(token=)?/, "")) || null;
//: more moves than this fold into their groups, each group showing how many it holds
const FOLD_OVER = 12;

const state = {
  views: new Map(), // seat (or "spectator") -> the latest view
  held: [], // the seats this link holds ([] for a spectator)
  shown: null, // the seat on screen (hot-seat: one at a time)
  revealed: null, // hot-seat: the seat that said "I am seat N" last
  staticData: null,
  replay: null, // {step, moves, view} while replaying
  sending: null, // the move in flight: {seat, version} it was sent from
  board: null, // the board module
  socket: null,
  retry: 0,
  openGroups: new Set(), // the headings of the move groups the player unfolded
};

function headers() {
  const h = { "content-type": "application/json" };
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

/** The server could not be reached (no answer at all): nothing was sent or changed. */
class Offline extends Error {}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Offline("the server cannot be reached");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = new Error((data && data.error) || `error ${response.status}`);
    err.status = response.status;
    throw err;
  }
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
  if (!view || view.seat === null || state.sending || state.replay) return;
  if (!view.legal.some((m) => m.text === text)) {
    showError(`${text} is not one of your moves now`);
    return;
  }
  const sending = { seat: view.seat, version: view.version };
  state.sending = sending;
  showError("");
  hideOffer();
  document.body.classList.add("busy");
  try {
    await call("POST", `/api/games/${gameId}/move`, { seat: view.seat, move: text, version: view.version });
    announce(`you played ${text}`);
  } catch (err) {
    showError(err instanceof Offline
      ? "Your move was not sent: the server cannot be reached. Nothing changed; make the move again once the connection is back (this page reconnects by itself)."
      : err.message);
    throw err;
  } finally {
    if (state.sending === sending) sent();
  }
}

/** The move in flight is in: the next may go (the live update can come before the answer). */
function sent() {
  state.sending = null;
  document.body.classList.remove("busy");
}

async function undo() {
  const view = current();
  if (!view) return;
  try {
    await call("POST", `/api/games/${gameId}/undo`, { seat: view.seat });
    announce("your last move was taken back");
  } catch (err) {
    showError(err instanceof Offline
      ? "Nothing was taken back: the server cannot be reached. Try again once the connection is back."
      : err.message);
  }
}

/** A post about the table (seat, vote, rematch): its answer, or the reason shown. */
async function post(what, body) {
  try {
    showError("");
    return await call("POST", `/api/games/${gameId}/${what}`, body);
  } catch (err) {
    showError(err instanceof Offline ? "Not sent: the server cannot be reached. Try again once the connection is back." : err.message);
    return null;
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
  for (const m of moves) box.append(moveButton(m));
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
  // a solo game has no winner: its end is a score (and a rating or a verdict)
  const winners = view.result && view.players > 1 ? view.result.winners : [];
  $("seat-list").replaceChildren(
    ...view.seats.map((s) => el("li", { class: `seat${s.deciding ? " deciding" : ""}${s.seat === view.seat ? " me" : ""}` },
      el("span", { class: "seat-no", text: `Seat ${s.seat + 1}` }), " ",
      el("span", { class: "seat-label", text: s.label }),
      s.deciding ? el("span", { class: "badge", text: view.to_act.length > 1 ? "deciding" : "to move" }) : "",
      winners.includes(s.seat) ? el("span", { class: "badge win", text: "winner" }) : "")),
  );
  let turn;
  if (state.replay) turn = `Replay: after move ${state.replay.step} of ${state.replay.moves}.`;
  else if (view.over) turn = "The game is over.";
  else if (view.legal.length) turn = view.to_act.length > 1 ? "Your move (the others decide at the same time)." : "Your move.";
  else if (view.to_act.length) turn = `Waiting for ${view.to_act.map((p) => seatName(view, p)).join(", ")}.`;
  else turn = "";
  $("turn").textContent = turn;
  drawScale($("rating-scale"), view, false);
}

/** The solo rating table ("under 60: Unrated · 60-69: Apprentice ..."), the title reached
 * marked once the game is over. */
function drawScale(box, view, bare) {
  const scale = view.rating_scale || [];
  box.hidden = !scale.length;
  if (!scale.length) return;
  const score = view.result ? view.result.scores[0] : null;
  const parts = scale.map((entry, i) => {
    const next = scale[i + 1];
    let range;
    if (i === 0 && next) range = `under ${next.from}`;
    else if (!next) range = `${entry.from} or more`;
    else range = next.from - 1 === entry.from ? `${entry.from}` : `${entry.from}-${next.from - 1}`;
    const reached = score !== null && score >= entry.from && (!next || score < next.from);
    return el(reached ? "strong" : "span", { class: reached ? "reached" : "" }, `${entry.title} (${range})`);
  });
  const list = [];
  parts.forEach((node, i) => list.push(...(i ? [" · ", node] : [node])));
  box.replaceChildren(bare ? "" : el("span", { class: "scale-title" }, "Solo rating: "), ...list);
}

function moveButton(m) {
  const plain = m.plain || m.explain || m.text;
  const short = m.explain || m.text;
  return el("button", { type: "button", class: "move", "data-move": m.text, onclick: () => move(m.text).catch(() => {}) },
    el("span", { class: "plain", text: plain }),
    el("span", { class: `short${short === plain ? " same" : ""}`, text: short }));
}

/** The moves under their headings, in the menu's order. Short lists show every heading open;
 * longer ones fold each group behind its heading and count (the player unfolds the one wanted),
 * so no move is ever cut off or hidden without a sign. */
function moveGroups(view, box) {
  const groups = [];
  for (const m of view.legal) {
    const heading = m.group || "";
    let group = groups.find((g) => g.heading === heading);
    if (!group) groups.push((group = { heading, moves: [] }));
    group.moves.push(m);
  }
  const fold = view.legal.length > FOLD_OVER && groups.filter((g) => g.heading).length > 1;
  box.classList.toggle("folded", fold);
  for (const group of groups) {
    const buttons = group.moves.map(moveButton);
    if (!group.heading) {
      box.append(el("div", { class: "move-group move-group-plain" }, ...buttons));
    } else if (!fold) {
      box.append(el("section", { class: "move-group", "data-group": group.heading },
        el("h3", { class: "move-heading", text: group.heading }), ...buttons));
    } else {
      const n = group.moves.length;
      const details = el("details", { class: "move-group", "data-group": group.heading },
        el("summary", { class: "move-heading" }, group.heading, " ",
          el("span", { class: "count", text: `${n} move${n > 1 ? "s" : ""}` })),
        ...buttons);
      details.open = state.openGroups.has(group.heading);
      details.addEventListener("toggle", () => {
        if (details.open) state.openGroups.add(group.heading);
        else state.openGroups.delete(group.heading);
      });
      box.append(details);
    }
  }
}

function drawMoves(view) {
  const box = $("moves");
  // keyboard players keep their place: focus stays in the list across updates
  const focused = box.contains(document.activeElement)
    ? document.activeElement.dataset.move || (document.activeElement.closest("details") || {}).dataset?.group || ""
    : null;
  box.replaceChildren();
  box.classList.remove("folded");
  $("moves-title").textContent = view.seat === null ? "Moves" : `Moves of seat ${view.seat + 1}`;
  if (state.replay) {
    box.append(el("p", { class: "hint", text: "Replaying: no moves." }));
  } else if (view.seat === null) {
    box.append(el("p", { class: "hint", text: "Spectators make no moves." }));
  } else if (!view.legal.length) {
    box.append(el("p", { class: "hint", text: view.over ? "No more moves." : "Not your move now." }));
  } else {
    moveGroups(view, box);
    if (box.classList.contains("folded")) {
      box.prepend(el("p", { class: "hint", text: `${view.legal.length} moves, by kind: open a heading to see its moves.` }));
    }
  }
  $("undo").hidden = !view.can_undo || !!state.replay;
  if (focused !== null) {
    const buttons = [...box.querySelectorAll("button.move")];
    const visible = buttons.filter((b) => !b.closest("details:not([open])"));
    const same = visible.find((button) => button.dataset.move === focused)
      || [...box.querySelectorAll("details > summary")].find((s) => s.parentElement.dataset.group === focused)
      || visible[0] || box.querySelector("summary");
    if (same) same.focus();
  }
}

/** Who made a move of the log: "You", "Seat 2 (greedy)"; a bot in a person's seat (``bot``)
 * is named: "The greedy bot, in your seat," on that seat's page, "Seat 2 (greedy bot)" on
 * the others'. */
function mover(view, e) {
  const mine = e.seat === view.seat;
  if (!e.bot) {
    const who = mine ? "You" : seatName(view, e.seat);
    return { who, node: el("b", { class: "who", text: who }) };
  }
  if (!mine) {
    const who = `Seat ${e.seat + 1} (${e.bot} bot)`;
    return { who, node: el("b", { class: "who", text: who }) };
  }
  // the commas read in plain words only ("The greedy bot in your seat: d6 greaves" in short)
  return {
    who: `The ${e.bot} bot in your seat`,
    node: el("b", { class: "who" }, `The ${e.bot} bot`,
      el("span", { class: "plain", text: ", in your seat," }), el("span", { class: "short", text: " in your seat" })),
  };
}

/** A step the rules took on their own (a battle, an area scored): after its seat's name
 * ("You", "Seat 2 (greedy)"), or the table's own sentence. */
function eventLine(view, e) {
  const mine = e.seat !== null && e.seat === view.seat;
  if (e.seat === null) return el("li", { class: "event" }, el("span", { text: e.text }));
  return el("li", { class: `event${mine ? " mine" : ""}` },
    el("b", { class: "who", text: mine ? "You" : seatName(view, e.seat) }), ` ${e.text}`);
}

function drawLog(view) {
  const list = $("log");
  list.replaceChildren(...view.log.map((e) => {
    if (e.event) return eventLine(view, e);
    const mine = e.seat === view.seat;
    const { who, node } = mover(view, e);
    return el("li", { class: `${mine ? "mine" : ""}${e.bot ? " by-bot" : ""}`.trim(), title: `${who}: ${e.text}` },
      node,
      el("span", { class: "plain", text: ` ${e.plain || e.text}` }),
      el("span", { class: "short", text: `: ${e.text}` }));
  }));
  list.scrollTop = list.scrollHeight;
}

function words(category) {
  return category.replaceAll("_", " ");
}

function drawResult(view) {
  const box = $("result");
  const r = view.result;
  box.hidden = !r;
  if (!r) return;
  let decided = "";
  if (view.players > 1) {
    if (r.decided_by === "shared") decided = "They share the victory (the tie-breakers left them tied).";
    else if (r.decided_by === "score") decided = "Decided by the score.";
    else decided = `Tied on score; the tie-breaker decided: ${r.decided_by}.`;
  }
  // a solo game against the game itself (the Trolls): their points in a column of their own
  const rival = r.opponent ? r.opponent_breakdown : null;
  const rivalTotal = rival ? Object.values(rival).reduce((a, b) => a + b, 0) : 0;
  const categories = [...new Set(r.breakdowns.flatMap((b) => Object.keys(b)))];
  const notes = r.notes || {};
  const blank = () => (rival ? [el("td", { text: "" })] : []);
  const rowHead = (c) => el("th", { scope: "row", text: words(c), title: notes[c] || "" });
  const table = el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, el("th", { text: "" }), ...view.seats.map((s) => el("th", { scope: "col", text: `Seat ${s.seat + 1}` })),
      ...(rival ? [el("th", { scope: "col", text: r.opponent })] : []))),
    el("tbody", {},
      ...categories.map((c) => el("tr", {}, rowHead(c), ...r.breakdowns.map((b) => el("td", { text: String(b[c] ?? 0) })), ...blank())),
      ...(rival ? Object.entries(rival).map(([c, v]) => el("tr", {}, rowHead(c),
        ...r.breakdowns.map(() => el("td", { text: "" })), el("td", { text: String(v) }))) : []),
      el("tr", { class: "total" }, el("th", { scope: "row", text: "total" }), ...r.scores.map((s) => el("td", { text: String(s) })),
        ...(rival ? [el("td", { text: String(rivalTotal) })] : []))));
  const shown = [...categories, ...(rival ? Object.keys(rival) : [])].filter((c) => notes[c]);
  const scale = el("p", { class: "rating-scale" });
  drawScale(scale, view, true);
  box.replaceChildren(
    el("h2", { id: "result-title", text: "Game over" }),
    el("p", { class: "winners verdict", text: `${r.verdict}.` }),
    decided ? el("p", { text: decided }) : "",
    r.rating ? el("p", { class: "rating", text: `Result: ${r.rating}` }) : "",
    (view.rating_scale || []).length ? el("p", { class: "hint" }, "The solo ratings: ", ...scale.childNodes) : "",
    table,
    shown.length ? el("h3", { class: "score-notes-title", text: "Where the points came from" }) : "",
    shown.length ? el("ul", { class: "score-notes" }, ...shown.map((c) => el("li", {}, el("b", { text: `${words(c)}: ` }), notes[c]))) : "",
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
  drawTable(view, post);
  if (!state.replay) {
    yourTurn(view, gameId);
    remember(gameId, token, view);
  }
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
  if (view.seat !== null && !state.replay && !view.over) offerGuide(`${gameId}:${view.seat}`);
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
    const moves = view ? view.version : 0;
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
      serverTime(message.now);
      state.retry = 0;
      $("connection").textContent = "live";
      page.dataset.live = "yes";
    } else if (message.type === "view") {
      keep(message.view);
      const v = message.view;
      if (state.sending && v.seat === state.sending.seat && v.version > state.sending.version) sent();
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
    $("connection").textContent = `connection lost; reconnecting in ${Math.round(wait / 1000)} s (moves can be made again once it is back)`;
    setTimeout(connect, wait);
  });
}

setInterval(() => {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send('{"type":"ping"}');
}, 25000);

// -- a seat link that opens no seat --------------------------------------------------------------
function badLink() {
  $("bad-link").hidden = false;
  $("table").hidden = true;
  $("connection").textContent = "not connected";
  $("whoami").textContent = "";
  $("bad-link").focus();
  page.dataset.badLink = "yes";
}

$("bad-link-watch").addEventListener("click", () => {
  token = null; // watch instead: the address loses the code that opens no seat
  history.replaceState(null, "", location.pathname + location.search);
  $("bad-link").hidden = true;
  $("table").hidden = false;
  page.dataset.badLink = "no";
  start();
});

// -- how to play, over the board: the game (its socket, its scroll) stays as it was -----------
function howto() {
  const dialog = $("howto-dialog");
  if (!dialog) return;
  let back = null;
  const jumps = JSON.parse($("howto-jumps").textContent);
  const goTo = (id) => {
    const target = document.getElementById(id);
    if (target && dialog.contains(target)) target.scrollIntoView({ block: "start" });
  };
  const section = jumps.map((id) => document.getElementById(id)).find((n) => n && dialog.contains(n));
  if (section) {
    $("howto-jump").hidden = false;
    $("howto-jump-link").textContent = section.textContent;
    $("howto-jump-link").setAttribute("href", `#${section.id}`);
  }
  // links inside the panel scroll it; they never change this page's address (its fragment
  // holds the seat's key)
  dialog.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (!link) return;
    event.preventDefault();
    goTo(link.getAttribute("href").slice(1));
  });
  $("howto-open").addEventListener("click", (event) => {
    event.preventDefault();
    back = { x: window.scrollX, y: window.scrollY, focus: document.activeElement };
    dialog.showModal();
    dialog.querySelector(".rules-body").scrollTop = 0;
    $("howto-close").focus();
    page.dataset.howto = "open";
  });
  $("howto-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    page.dataset.howto = "closed";
    if (!back) return;
    window.scrollTo(back.x, back.y);
    if (back.focus && back.focus.focus) back.focus.focus({ preventScroll: true });
  });
}

// -- short forms, for players who know the game ---------------------------------------------------
function shortForms() {
  const box = $("short-forms");
  const key = "rulebook.short-forms";
  const apply = () => document.body.classList.toggle("short-forms", box.checked);
  try {
    box.checked = localStorage.getItem(key) === "yes";
  } catch {
    box.checked = false;
  }
  apply();
  box.addEventListener("change", () => {
    apply();
    try {
      localStorage.setItem(key, box.checked ? "yes" : "no");
    } catch {
      // a browser that keeps nothing: the choice lasts as long as the page
    }
  });
}

async function start() {
  state.board = state.board || (await loadBoard());
  try {
    const data = await call("GET", `/api/games/${gameId}/view`);
    serverTime(data.now);
    state.staticData = data.views[0].static || null;
    state.held = data.views.map((v) => v.seat).filter((p) => p !== null);
    for (const v of data.views) keep(v);
    if (state.held.length === 1) state.revealed = state.held[0];
    draw();
  } catch (err) {
    if (token && err.status === 403) {
      badLink();
      return;
    }
    const message = err instanceof Offline ? "The server cannot be reached: reload this page when the connection is back." : err.message;
    $("connection").textContent = message;
    showError(message);
    return;
  }
  connect();
}

howto();
shortForms();
notifyButton();
setInterval(tick, 500);
start();
