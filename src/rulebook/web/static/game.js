// The game page: one seat's (or a spectator's) view, live over a WebSocket, moves by HTTP.
// It knows no rules: it shows the payload the server sends (see docs/web-api.md) through the
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
  frames: new Map(), // per viewpoint: the number of the frame its payload is (deltas build on it)
  retry: 0,
  openGroups: new Set(), // the headings of the move groups the player unfolded
  logShown: [], // the log's lines on the page, each as its key (drawLog appends what is new)
  offerFrom: null, // the place that opened the menu of moves: {node, key}, focus goes back there
  refocus: null, // the data-key of the board's place to focus once the board is drawn again
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
    err.retryAfter = Number(response.headers.get("retry-after")) || 0; // seconds; 0: not said
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

/** Who the page waits for: "Seat 2 (greedy)", "Seat 2 (the random bot in their place)", "the
 * random bot in your seat". */
function waitedFor(view, p) {
  const held = view.held && view.held[String(p)];
  if (!held) return seatName(view, p);
  return p === view.seat ? `the ${held} bot in your seat` : `Seat ${p + 1} (the ${held} bot in their place)`;
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
    // the log (a live region) reads the move out once it is made: no second announcement
    await postMove({ seat: view.seat, move: text, version: view.version });
  } catch (err) {
    showError(err instanceof Offline
      ? "Your move was not sent: the server cannot be reached. Nothing changed; make the move again once the connection is back (this page reconnects by itself)."
      : err.status === 503
        ? "The server is still too busy: your move was not made, and nothing changed. Please make it again in a few seconds."
        : err.message);
    throw err;
  } finally {
    if (state.sending === sending) sent();
  }
}

/** Post a move. A server past what it can serve refuses it (503) and says when to ask again
 * (Retry-After): the page tells the player to wait and posts the same move once more by itself
 * then (a second refusal, or "the game has moved on", is thrown as any answer). */
async function postMove(body) {
  const path = `/api/games/${gameId}/move`;
  try {
    return await call("POST", path, body);
  } catch (err) {
    if (err.status !== 503 || !err.retryAfter) throw err;
    const wait = Math.min(err.retryAfter, 60);
    showError(`The server is busy right now, so your move (${body.move}) was not made yet. Please wait: this page sends it again by itself in ${wait} s.`);
    page.dataset.waiting = "yes";
    // spread over a second: the pages refused together do not all come back at once
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + Math.random() * 1000));
    delete page.dataset.waiting;
    showError("");
    return await call("POST", path, body);
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
      : err.status === 503
        ? `The server is busy right now: nothing was taken back. Please try again in ${err.retryAfter || 2} s.`
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

/** Close the menu of a place's moves; ``back``: the focus goes back to the place (Cancel,
 * Escape), else the place takes it once the board is drawn again (a move was made). */
function hideOffer(back = false) {
  const box = $("offer");
  const from = state.offerFrom;
  const had = box.contains(document.activeElement);
  box.hidden = true;
  box.replaceChildren();
  state.offerFrom = null;
  if (!from || !had) return;
  if (back) focusPlace(from);
  else state.refocus = from.key;
}

/** The board's place a menu was opened from (or its redrawn twin, found by its data-key). */
function focusPlace(from) {
  let node = from.node && from.node.isConnected ? from.node : null;
  if (!node && from.key) node = $("board").querySelector(`[data-key="${CSS.escape(from.key)}"]`);
  if (node && node.getAttribute("tabindex") !== null) node.focus();
  else $("moves-panel").focus();
}

/** The menu of the moves a place stands for: over the page, focus inside it until a move is
 * picked or it is cancelled (Escape), then back on the place. */
function offer(texts) {
  const view = current();
  const moves = view.legal.filter((m) => texts.includes(m.text));
  const box = $("offer");
  const opener = document.activeElement;
  if (!box.contains(opener)) {
    const inBoard = opener && $("board").contains(opener);
    state.offerFrom = inBoard ? { node: opener, key: opener.getAttribute("data-key") } : null;
  }
  box.replaceChildren(el("div", { class: "offer-head" },
    el("h3", { id: "offer-title", text: "Which move?" }),
    el("span", { class: "hint", text: "Esc: cancel" })));
  for (const m of moves) box.append(moveButton(m));
  box.append(el("button", { type: "button", class: "cancel", onclick: () => hideOffer(true) }, "Cancel"));
  box.hidden = false;
  const first = box.querySelector("button");
  if (first) first.focus();
}

$("offer").addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    event.preventDefault();
    hideOffer(true);
    return;
  }
  if (event.key !== "Tab") return;
  // the focus stays in the menu while it is open: Tab goes round its buttons
  const buttons = [...$("offer").querySelectorAll("button")];
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  const next = event.shiftKey ? (at <= 0 ? buttons.length - 1 : at - 1) : (at + 1) % buttons.length;
  event.preventDefault();
  buttons[next].focus();
});

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

/** Set a text only when it changes: a live region reads out changes, not redraws. */
function say(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function drawStatus(view) {
  say($("variant"), `${view.variant}, ${view.players} player${view.players > 1 ? "s" : ""}`);
  if (view.seat === null) say($("whoami"), "You are watching (spectator view: public information only).");
  else if (state.held.length > 1) say($("whoami"), `Hot-seat: this device holds seats ${state.held.map((p) => p + 1).join(", ")}. Now showing seat ${view.seat + 1}.`);
  else say($("whoami"), `You are seat ${view.seat + 1}.`);
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
  else if (view.to_act.length) turn = `Waiting for ${view.to_act.map((p) => waitedFor(view, p)).join(", ")}.`;
  else turn = "";
  say($("turn"), turn);
  const mine = !state.replay && !view.over && view.legal.length > 0;
  $("turn").classList.toggle("mine", mine);
  $("to-moves").hidden = !mine;
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
  let title = "Your moves";
  if (view.seat === null) title = "Moves";
  else if (state.held.length > 1) title = `Moves of seat ${view.seat + 1}`;
  say($("moves-title"), title);
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

/** A step the rules took on their own (``event``: a battle, an area scored): after its seat's
 * name ("You", "Seat 2 (greedy)"), or the table's own sentence. Not a numbered move. */
function eventLine(view, e) {
  if (e.seat === null || e.seat === undefined) {
    return el("li", { class: "event", title: e.text }, el("span", { text: e.text }));
  }
  const mine = e.seat === view.seat;
  const who = mine ? "You" : seatName(view, e.seat);
  return el("li", { class: `event${mine ? " mine" : ""}`, title: `${who} ${e.text}` },
    el("b", { class: "who", text: who }), el("span", { text: ` ${e.text}` }));
}

/** One line of the log: a move ("You buy ...", "Seat 2 (greedy) ..."), or an event. */
function logLine(view, e) {
  if (e.event) return eventLine(view, e);
  const mine = e.seat === view.seat;
  const { who, node } = mover(view, e);
  return el("li", { class: `${mine ? "mine" : ""}${e.bot ? " by-bot" : ""}`.trim(), title: `${who}: ${e.text}` },
    node,
    el("span", { class: "plain", text: ` ${e.plain || e.text}` }),
    el("span", { class: "short", text: `: ${e.text}` }));
}

/** A log line's key: the same key, the same line on the page. */
function lineKey(view, e) {
  return JSON.stringify([view.seat, e.seat ?? null, e.text, e.plain ?? null, e.bot ?? null, !!e.event]);
}

//: more new lines at once than this (a reconnection after a while) are not read out one by one
const READ_OUT = 4;

/** The log, drawn incrementally: the lines the page shows already stay, the new ones are
 * appended, so the log's live region reads out only what is new. Whatever no longer matches
 * (an undo, a replay, a reconnection, another seat shown) is removed first; a change that is
 * not a few new lines at the end (the first drawing, a replay, an undo) is drawn quietly. */
function drawLog(view) {
  const list = $("log");
  const keys = view.log.map((e) => lineKey(view, e));
  const shown = state.logShown;
  let same = 0;
  while (same < shown.length && same < keys.length && shown[same] === keys[same]) same++;
  const removed = shown.length - same;
  const added = keys.length - same;
  $("log-empty").hidden = keys.length > 0;
  if (!removed && !added) return;
  const first = !list.dataset.drawn;
  // entering or leaving a replay redraws lines read out before; a replay's step on reads its move
  const switched = list.dataset.replay !== (state.replay ? "yes" : "no");
  list.dataset.replay = state.replay ? "yes" : "no";
  const quiet = first || switched || removed > 0 || added > READ_OUT;
  const live = $("log-live");
  if (quiet) live.setAttribute("aria-live", "off");
  while (list.children.length > same) list.lastElementChild.remove();
  list.append(...view.log.slice(same).map((e) => logLine(view, e)));
  state.logShown = keys;
  list.dataset.drawn = "yes";
  list.scrollTop = list.scrollHeight;
  if (quiet) {
    // back on once the browser has passed this change to the screen reader
    clearTimeout(drawLog.timer);
    drawLog.timer = setTimeout(() => live.setAttribute("aria-live", "polite"), 250);
    if (!first && !switched && !removed && added) announce(`${added} new lines in the log`);
  }
}

function clearLog() {
  $("log").replaceChildren();
  state.logShown = [];
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
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, el("span", { class: "sr-only", text: "Scoring category" })), ...view.seats.map((s) => el("th", { scope: "col", text: `Seat ${s.seat + 1}` })),
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
    clearLog();
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
  if (state.refocus !== null && (document.activeElement === document.body || !document.activeElement)) {
    focusPlace({ node: null, key: state.refocus });
  }
  state.refocus = null;
  if (view.seat !== null && !state.replay && !view.over) offerGuide(gameName);
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
// the moves, a screen or more below the board on a phone; never through the address, whose
// fragment holds the seat's key
$("to-moves").addEventListener("click", (event) => {
  event.preventDefault();
  $("moves-panel").scrollIntoView({ block: "start" });
  $("moves-panel").focus({ preventScroll: true });
});
$("pass-ready").addEventListener("click", () => { state.revealed = state.shown; draw(); $("moves").querySelector("button")?.focus(); });

// -- live updates -----------------------------------------------------------------------------
function viewKey(view) {
  return view.seat === null ? "spectator" : view.seat;
}

function keep(view) {
  state.views.set(viewKey(view), view);
}

/** The payload a delta makes of the one it was built on (null if this page does not hold that
 * one): the fields that changed, and the log's first lines kept with the new ones after them. */
function applyDelta(delta) {
  const key = delta.seat === null ? "spectator" : delta.seat;
  const base = state.views.get(key);
  if (!base || state.frames.get(key) !== delta.base) return null;
  const [kept, added] = delta.log;
  return { ...base, ...delta.view, log: base.log.slice(0, kept).concat(added) };
}

/** The line that says whether the page is live ("live", "connection lost; ..."). */
function connection(text) {
  say($("connection"), text);
  $("connection").classList.toggle("live", text === "live");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.frames.clear(); // a new connection starts with whole payloads
    socket.send(JSON.stringify({ ...(token ? { token } : { spectate: true }), deltas: true }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") {
      serverTime(message.now);
      state.retry = 0;
      connection("live");
      page.dataset.live = "yes";
    } else if (message.type === "view" || message.type === "delta") {
      const v = message.type === "view" ? message.view : applyDelta(message);
      if (!v) { // a delta this page cannot build on: the whole payload again
        socket.send('{"type":"full"}');
        return;
      }
      keep(v);
      state.frames.set(viewKey(v), message.frame);
      if (state.sending && v.seat === state.sending.seat && v.version > state.sending.version) sent();
      page.dataset.version = String(v.version);
      draw();
    } else if (message.type === "error") {
      connection(message.error);
      if (message.status === 403 || message.status === 404) state.retry = -1;
    }
  });
  socket.addEventListener("close", (event) => {
    page.dataset.live = "no";
    if (state.retry < 0) return;
    if (event.code === 1012) { // the server is restarting: back soon, pages spread over 2 s
      connection("the server is restarting; reconnecting (moves can be made again once it is back)");
      setTimeout(connect, 500 + Math.random() * 2000);
      return;
    }
    const wait = Math.min(10000, 500 * 2 ** state.retry++);
    connection(`connection lost; reconnecting in ${Math.round(wait / 1000)} s (moves can be made again once it is back)`);
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
  connection("not connected");
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
  // the panel keeps the focus while open: Tab from its last link goes round to its first
  // (a modal dialog alone lets it leave for the browser's own bar)
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const stops = [...dialog.querySelectorAll("a[href], button, input, select, [tabindex]:not([tabindex='-1'])")]
      .filter((n) => n.getClientRects().length && !n.closest("[hidden]"));
    if (!stops.length) return;
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
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
    connection(message);
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
