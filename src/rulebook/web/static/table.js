// The table around the board: each seat's clock, who is connected, the seats bots
// play (and the notice when one took over), "I have to go" and "take my seat back", the vote
// on an absent seat (and the wait until it opens), "your turn" in the tab's title and icon
// (and a notification when the tab is hidden and the player allowed it), "my games" kept in
// this browser, and the rematch.
// Everything comes from the payload (docs/web-api.md); times are the server's (UNIX seconds).
import { el } from "/static/dom.js";

const $ = (id) => document.getElementById(id);
let offset = 0; // the server's clock minus this browser's, in seconds
let shown = null; // the view the clocks tick for
let act = null; // posts a request: act(path, body) -> Promise (set by the game page)

/** The server said what time it is (the view's and the socket's hello's ``now``). */
export function serverTime(now) {
  if (typeof now === "number") offset = now - Date.now() / 1000;
}

function now() {
  return Date.now() / 1000 + offset;
}

/** ``90`` as ``1:30``, ``90000`` as ``1 d 1:00:00``. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  const hms = h || d ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  return d ? `${d} d ${hms}` : hms;
}

function ago(at) {
  if (at == null) return "not seen yet";
  const s = Math.max(0, now() - at);
  if (s < 60) return "seen just now";
  if (s < 3600) return `seen ${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `seen ${Math.floor(s / 3600)} h ago`;
  return `seen ${Math.floor(s / 86400)} days ago`;
}

/** Each seat's time left now, and whether it runs. */
function times(view) {
  const clock = view.clock;
  if (!clock) return null;
  return clock.left.map((left, p) => {
    const running = clock.running.includes(p);
    return { left: running ? left - (now() - clock.since) : left, running };
  });
}

const BOTS = [["greedy", "greedy"], ["random", "random"], ["mcts-quick", "mcts (quick)"], ["mcts", "mcts"]];

function botChoice(id) {
  return el("select", { id, "aria-label": "which bot" }, ...BOTS.map(([key, label]) => el("option", { value: key, text: label })));
}

/** What plays seat ``p``: ``person``, ``bot`` or ``open`` (the payload's ``kinds``; a bot
 * holding a person's seat for a while is ``held``, not a bot seat). */
export function seatKind(view, p) {
  if (view.kinds && view.kinds[p]) return view.kinds[p];
  const label = view.seats[p].label;
  return label === "human" ? "person" : label === "open seat" ? "open" : "bot";
}

/** The seats' clocks and presence beside their names (the seat list), and the panel of
 * notices and controls. A bot's seat says "bot" (never "not seen yet", as if a person were
 * missing); a bot playing in a person's place says so; an open seat waits for a player. */
export function drawTable(view, post) {
  act = post;
  shown = view;
  const items = document.querySelectorAll("#seat-list > li");
  const clocks = times(view);
  const presence = view.presence || [];
  items.forEach((li, p) => {
    li.querySelectorAll(".clock, .presence, .held, .bot-seat").forEach((n) => n.remove());
    const held = view.held && view.held[String(p)];
    const kind = seatKind(view, p);
    if (held) {
      const place = p === view.seat ? "your" : "their";
      li.append(el("span", { class: "held badge", title: `A ${held} bot plays this seat in ${place} place for now`, text: `${held} bot in ${place} place` }));
    } else if (kind === "bot") {
      li.append(el("span", { class: "bot-seat", title: "A bot plays this seat: it is always here", text: "bot" }));
    } else if (kind === "open") {
      li.append(el("span", { class: "presence open", text: "open: waiting for a player" }));
    }
    const seen = presence[p];
    if (seen && kind === "person" && !held) {
      li.append(el("span", { class: `presence ${seen.here ? "here" : "away"}`, title: seen.here ? "connected" : ago(seen.seen), text: seen.here ? "● here" : `○ ${ago(seen.seen)}` }));
    }
    if (clocks) li.append(el("span", { class: `clock${clocks[p].running ? " running" : ""}${clocks[p].left <= 0 ? " out" : ""}`, "data-seat": String(p), text: clockText(clocks[p].left) }));
  });
  drawNotices(view, clocks);
}

function drawNotices(view, clocks) {
  const box = $("table-notices");
  if (!box) return;
  const parts = [];
  const me = view.seat;
  if (view.clock) {
    const c = view.clock;
    const what = c.kind === "realtime" ? `Real-time clock: ${clockText(c.bank)} + ${c.increment || 0} s a move` : `Turn-based clock: ${clockText(c.per_move)} a move`;
    parts.push(el("p", { class: "clock-rule", text: `${what}; ${c.grace || 0} s of grace, then a ${c.bot} bot takes the seat.` }));
    clocks.forEach((t, p) => {
      if (t.running && t.left <= 0) {
        const left = Math.max(0, t.left + (c.grace || 0));
        const whose = p === me ? "Your time is up" : `Seat ${p + 1}'s time is up`;
        parts.push(el("p", { class: "notice out-of-time", role: "status", text: `${whose}: a bot takes the seat in ${clockText(left)} unless ${p === me ? "you move" : "they move"}.` }));
      }
    });
  }
  for (const stint of view.bots || []) {
    if (stint.to !== null) continue;
    const why = { time: "its time ran out", handed: "its player had to go", voted: "the others voted, the seat being away" }[stint.why] || stint.why;
    const who = stint.seat === me ? "Your seat" : `Seat ${stint.seat + 1}`;
    const notice = el("p", { class: "notice bot-took-over", role: "status", text: `${who} is played by a ${stint.bot} bot since move ${stint.from + 1} (${why}).` });
    if (stint.seat === me && !view.over) {
      notice.append(" ", el("button", { type: "button", id: "take-back", class: "primary", onclick: () => act("seat", { seat: me, bot: null }) }, "Take my seat back"));
    }
    parts.push(notice);
  }
  const actions = $("seat-actions");
  if (me !== null && !view.over && !(view.held && view.held[String(me)])) {
    if (!$("hand")) {  // kept while the seat is a person's: the bot chosen stays chosen
      const choice = botChoice("hand-bot");
      actions.replaceChildren(el("p", { class: "hand" }, "I have to go: ", choice, " ", el("button", { type: "button", id: "hand", onclick: () => act("seat", { seat: me, bot: choice.value }) }, "let a bot play my seat")));
    }
    actions.hidden = false;
  } else {
    actions.replaceChildren();
    actions.hidden = true;
  }
  if (me !== null && !view.over && !view.clock) {
    for (const seen of view.presence || []) {
      const p = seen.seat;
      const person = seatKind(view, p) === "person" && !(view.held && view.held[String(p)]);
      if (p === me || seen.here || !person) continue;
      const votes = (view.votes && view.votes[String(p)]) || {};
      const voted = String(me) in votes;
      const opens = voteOpens(view, seen);
      if (opens > now()) {  // the server takes a vote once the seat was away long enough
        parts.push(el("p", { class: "vote vote-wait", "data-seat": String(p), "data-opens": String(opens) },
          `Seat ${p + 1} is away (${ago(seen.seen)}). `, el("span", { class: "vote-opens", text: votingOpens(p, opens) })));
        continue;
      }
      const choice = botChoice(`vote-bot-${p}`);
      parts.push(el("p", { class: "vote" }, `Seat ${p + 1} is away (${ago(seen.seen)}). `, choice, " ",
        el("button", { type: "button", class: "vote-button", "data-seat": String(p), onclick: () => act("vote", { seat: me, absent: p, bot: choice.value }) }, voted ? "Vote again" : "Vote to let a bot play it"),
        ` (${Object.keys(votes).length} vote${Object.keys(votes).length === 1 ? "" : "s"} so far)`));
    }
  }
  if (view.over && me !== null) {
    const label = view.rematch ? "Join the rematch" : "Rematch";
    const shuffle = el("input", { type: "checkbox", id: "rematch-shuffle" });
    const row = el("p", { class: "rematch" }, el("button", { type: "button", id: "rematch", class: "primary", onclick: () => rematch(shuffle.checked) }, label));
    if (!view.rematch) row.append(" ", el("label", {}, shuffle, " shuffle the seats"));
    else row.append(" (a rematch was started: this link gives you your seat in it)");
    parts.push(row);
  }
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

async function rematch(shuffle) {
  const answer = await act("rematch", { shuffle });
  if (answer && answer.url) location.assign(answer.url);
}

/** When the others may vote on the away seat ``seen`` (its ``presence`` entry): once it was
 * away ``absent_after`` seconds (the server's ``--absent-after``). */
function voteOpens(view, seen) {
  const since = seen.away_since ?? seen.seen;
  if (since == null || view.absent_after == null) return 0;
  return since + view.absent_after;
}

/** "1 min 20 s", "45 s", "2 h 5 min": a wait, rounded up to the second. */
export function waitText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return `${s} s`;
}

function votingOpens(p, opens) {
  return `You may vote to hand Seat ${p + 1} to a bot in ${waitText(opens - now())}.`;
}

/** Count down to the votes on away seats; once one opens, show its vote button. */
function tickVotes() {
  const waiting = document.querySelectorAll("#table-notices .vote-wait");
  let opened = false;
  for (const row of waiting) {
    const opens = Number(row.dataset.opens);
    if (opens <= now()) opened = true;
    else row.querySelector(".vote-opens").textContent = votingOpens(Number(row.dataset.seat), opens);
  }
  if (opened) drawNotices(shown, times(shown));
}

/** Tick the clocks (and the grace countdowns) between two payloads, and the wait before a
 * vote. */
export function tick() {
  if (!shown) return;
  if (!shown.clock) {
    tickVotes();
    return;
  }
  const clocks = times(shown);
  for (const node of document.querySelectorAll("#seat-list .clock")) {
    const t = clocks[Number(node.dataset.seat)];
    node.textContent = clockText(t.left);
    node.classList.toggle("out", t.left <= 0);
  }
  const expired = clocks.some((t) => t.running && t.left <= 0);
  const told = document.querySelector(".out-of-time");
  if (expired || told) drawNotices(shown, clocks);
}

// -- your turn ---------------------------------------------------------------------------------
const baseTitle = document.title;
let wasMine = false;
const ICON = "/static/icon.svg";
const TURN_ICON = "/static/icon-turn.svg";

/** The tab's title and icon say when it is this seat's move; a notification tells a player
 * whose tab is in the background, if they allowed it (one per game: ``gameId`` tags it). */
export function yourTurn(view, gameId) {
  const mine = !view.over && view.legal.length > 0;
  document.title = mine ? `(Your move) ${baseTitle}` : baseTitle;
  const icon = document.querySelector("link[rel='icon']");
  if (icon) icon.href = mine ? TURN_ICON : ICON;
  document.body.dataset.yourTurn = mine ? "yes" : "no";
  if (mine && !wasMine && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      const told = new Notification(`Your move in ${view.title}`, { body: `Seat ${view.seat + 1}: it is your turn.`, tag: `rulebook-${gameId}`, icon: TURN_ICON });
      told.addEventListener("click", () => { window.focus(); told.close(); });
    } catch {
      // a browser that notifies only through a service worker (Chrome on Android): the title
      // and icon say it; the page draws on
    }
  }
  wasMine = mine;
  const ask = $("notify");
  if (ask) ask.hidden = !("Notification" in window) || Notification.permission !== "default" || view.seat === null;
}

export function notifyButton() {
  const ask = $("notify");
  if (!ask) return;
  ask.addEventListener("click", async () => {
    await Notification.requestPermission();
    ask.hidden = true;
  });
}

// -- my games ----------------------------------------------------------------------------------
const MINE = "rulebook.games";

/** This browser holds a link of this game: keep it (in this browser only) for the home page's
 * "my games", with what it last showed. */
export function remember(gameId, token, view) {
  if (!token || view.seat === null) return;
  try {
    const all = JSON.parse(localStorage.getItem(MINE) || "{}");
    all[gameId] = { token, title: view.title, seat: view.seat, over: view.over, at: Date.now() };
    localStorage.setItem(MINE, JSON.stringify(all));
  } catch {
    // a browser that keeps nothing: no "my games"
  }
}
