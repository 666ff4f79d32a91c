// Shared by every game's board view (rulebook.core.boardkit): building DOM and SVG, and
// "places": the parts of a board a legal move concerns, clickable and keyboard-operable.
// Knows no game: a board says which legal moves a place stands for; the kit never invents one.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: el("div", {class: "card"}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same form as el(). */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  // a name on an element whose role takes none (a div, a span, an SVG g) brings a role
  if (node.hasAttribute("aria-label") && !node.hasAttribute("role")) named(node, node.getAttribute("aria-label"));
  return node;
}

/** Per-root UI state that survives redraws (a selected die, an open panel...). */
const uiStates = new WeakMap();
export function uiState(root, defaults = {}) {
  if (!uiStates.has(root)) uiStates.set(root, { ...defaults });
  return uiStates.get(root);
}

/** The legal moves whose text satisfies ``test`` (a function, a RegExp, or a Set of texts). */
export function movesWhere(view, test) {
  const legal = view.legal || [];
  if (test instanceof RegExp) return legal.filter((m) => test.test(m.text));
  if (test instanceof Set) return legal.filter((m) => test.has(m.text));
  return legal.filter((m) => test(m.text, m));
}

/** The legal moves whose text is one of ``texts``, in the order given. */
export function movesNamed(view, texts) {
  const byText = new Map((view.legal || []).map((m) => [m.text, m]));
  return texts.map((t) => byText.get(t)).filter(Boolean);
}

/** Submit one of the moves of a place: one move goes at once, several open the page's menu. */
export function choose(ctx, moves) {
  if (!moves.length) return;
  if (moves.length === 1) ctx.move(moves[0].text);
  else ctx.offer(moves.map((m) => m.text));
}

/** Whether ``node`` holds parts a keyboard or a pointer can reach (places, explained parts). */
function holdsParts(node) {
  return node.querySelector("[data-moves], [data-explain], [tabindex], button") !== null;
}

/**
 * Name ``node`` for assistive technology with a role that allows a name: an SVG part is an
 * image (``role="img"``: its drawing is decoration) unless it holds other parts (a group);
 * an HTML part that has no role of its own is a group. Landmarks, buttons, headings keep theirs.
 */
export function named(node, label) {
  if (!label) return node;
  if (!node.hasAttribute("role") && !NAMED_TAGS.has(node.tagName.toLowerCase())) {
    node.setAttribute("role", node.namespaceURI === SVG_NS && !holdsParts(node) ? "img" : "group");
  }
  node.setAttribute("aria-label", label);
  return node;
}

// elements whose own role may carry a name (aria-label): no role needs adding
const NAMED_TAGS = new Set(["section", "nav", "aside", "button", "a", "table", "svg", "h1", "h2", "h3", "h4", "img", "fieldset", "details", "dialog", "input", "select"]);

/** What a place's moves do, in the moves' plain words ("a choice of 2 moves: ...; or ..."). */
function doing(moves) {
  const said = moves.map((m) => m.plain || m.explain || m.text);
  return moves.length === 1 ? said[0] : `a choice of ${moves.length} moves: ${said.join("; or ")}`;
}

/**
 * Make ``node`` a place for ``moves`` (legal moves from view.legal): a button (focusable,
 * operated by click, Enter or Space) whose name says what it is (``label``, else its text) and
 * what clicking it does (the moves' plain words). Without moves it is only a named part.
 */
export function place(node, moves, ctx, label = "") {
  if (!moves || !moves.length) return named(node, label);
  const what = label || node.textContent.trim();
  if (node.tagName !== "BUTTON") {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
  }
  node.setAttribute("aria-label", what ? `${what}: ${doing(moves)}` : doing(moves));
  node.setAttribute("data-moves", moves.map((m) => m.text).join("\n"));
  node.classList.add("rb-place");
  const act = (event) => {
    event.preventDefault();
    event.stopPropagation();
    hideTip();
    choose(ctx, moves);
  };
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") act(event);
  });
  // a pointer's hint of the move's short form, where no tip explains the place
  if (!node.hasAttribute("data-explain")) {
    const hint = moves.length === 1 ? moves[0].explain || moves[0].text : `${what}: ${moves.length} moves`;
    if (node.namespaceURI === SVG_NS) node.prepend(svg("title", {}, hint));
    else node.title = hint;
  }
  return node;
}

/**
 * A control that is not a move (select a die, show a rival's sheet): focusable and operated
 * by click, Enter or Space.
 */
export function control(node, label, action, pressed = null) {
  if (node.tagName !== "BUTTON") {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
  }
  node.setAttribute("aria-label", label);
  if (pressed !== null) node.setAttribute("aria-pressed", pressed ? "true" : "false");
  node.classList.add("rb-control");
  const act = (event) => {
    event.preventDefault();
    event.stopPropagation();
    action();
  };
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") act(event);
  });
  return node;
}

/**
 * Keep keyboard focus on the same place across a redraw (found by its data-key); a tip shown
 * for the old drawing closes (the focus brought back shows it again), and the roving groups
 * (``rove``) of the new drawing get their one Tab stop each.
 */
export function redraw(root, draw) {
  const had = root.contains(document.activeElement) ? document.activeElement : null;
  const focused = had ? had.getAttribute("data-key") : null;
  const group = had && had.closest("[data-rove]") ? had.closest("[data-rove]").getAttribute("data-rove") : null;
  const keyboard = had !== null && had.matches(":focus-visible"); // a click's focus stays where it fell
  // the tip the focused part showed (keyboard) shows again for it; any other tip closes
  const tipped = tipFor && tipFor === document.activeElement && !tip.classList.contains("rb-tip-hoverable");
  if (tipFor && root.contains(tipFor)) hideTip();
  root.replaceChildren(...[draw()].flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false));
  roving(root);
  if (!had) return;
  // the same part; else, for the keyboard's focus (it has no key, or it is gone), its group's
  // Tab stop, else the board's first: it never falls out of the board to the page's start
  let again = focused ? root.querySelector(`[data-key="${CSS.escape(focused)}"]`) : null;
  const same = again && again.getAttribute("tabindex") !== null;
  if (!same) {
    if (!keyboard) return;
    const stop = group ? root.querySelector(`[data-rove="${CSS.escape(group)}"] [data-rove-item][tabindex="0"]`) : null;
    again = stop || root.querySelector('[tabindex="0"], button:not([tabindex="-1"])');
  }
  if (!again) return;
  restoring = true;
  try {
    again.focus();
  } finally {
    restoring = false;
  }
  if (tipped && same && again.hasAttribute("data-explain")) showTip(again);
}

/**
 * A roving group: one Tab stop for all the parts inside ``node`` (a map's hexes, a sheet's
 * circles and rows); the arrow keys move between them by where they are drawn (Right and Left
 * in reading order, Down and Up to the nearest below or above), Home and End to the first and
 * the last. The Tab stop is the part last focused there if it is a place, else the
 * group's first place, else the part last focused, else the first part. ``label`` names the
 * group; ``key`` remembers its last part across redraws (default: the label).
 */
export function rove(node, label, key = label) {
  node.setAttribute("data-rove", key);
  if (node.getAttribute("tabindex") === "0") node.setAttribute("tabindex", "-1"); // not its own part
  if (!node.hasAttribute("role") && !["section", "aside", "nav"].includes(node.tagName.toLowerCase())) node.setAttribute("role", "group");
  if (label && !node.hasAttribute("aria-label")) node.setAttribute("aria-label", label);
  return node;
}

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The parts of a roving group: what Tab would reach in it, its own groups' parts left out. */
function roveItems(group) {
  return [...group.querySelectorAll("[tabindex], button")].filter(
    (n) => n.closest("[data-rove]") === group && (n.hasAttribute("data-rove-item") || n.getAttribute("tabindex") !== "-1"),
  );
}

/** Where a part is for the arrow keys: its ``.rb-anchor`` child if it has one (a row's name). */
function anchorRect(node) {
  const anchor = node.querySelector(":scope > .rb-anchor");
  return (anchor || node).getBoundingClientRect();
}

/** Where a part is drawn: its middle (of its anchor). */
function middle(node) {
  const r = anchorRect(node);
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, drawn: r.width > 0 || r.height > 0 };
}

/** The parts in reading order: line by line from the top (a line: middles within 6 px), each
 * from the left. Right and Left walk it, so every part is reached. */
function readingOrder(items) {
  const placed = items.map((n) => ({ n, ...middle(n) })).filter((p) => p.drawn);
  placed.sort((a, b) => a.y - b.y);
  const lines = [];
  for (const p of placed) {
    const line = lines[lines.length - 1];
    if (line && p.y - line[0].y < 6) line.push(p);
    else lines.push([p]);
  }
  return lines.flatMap((line) => line.sort((a, b) => a.x - b.x)).map((p) => p.n);
}

/** The part the arrow ``key`` leads to from ``from``: Right and Left the next and the previous
 * in reading order; Down and Up the nearest below or above (within 45 degrees first). */
function arrowTarget(items, from, key) {
  if (key === "ArrowRight" || key === "ArrowLeft") {
    const order = readingOrder(items);
    const i = order.indexOf(from);
    return order[i + (key === "ArrowRight" ? 1 : -1)] || null;
  }
  const [dx, dy] = ARROWS[key];
  const a = middle(from);
  let best = null;
  let bestScore = Infinity;
  for (const item of items) {
    if (item === from) continue;
    const m = middle(item);
    if (!m.drawn) continue;
    const x = m.x - a.x;
    const y = m.y - a.y;
    const ahead = x * dx + y * dy;
    const aside = Math.abs(x * dy - y * dx);
    if (ahead < 1) continue;
    // within 45 degrees of the arrow: the nearest; off it: much further away
    const score = aside <= ahead ? ahead + aside : 1e6 + ahead + 2 * aside;
    if (score < bestScore) {
      bestScore = score;
      best = item;
    }
  }
  return best;
}

/** Give each roving group inside ``root`` its Tab stop (after a redraw); install the keys. */
function roving(root) {
  const ui = uiState(root);
  ui.rove = ui.rove || {};
  for (const group of root.querySelectorAll("[data-rove]")) {
    const items = roveItems(group);
    if (!items.length) continue;
    for (const item of items) {
      item.setAttribute("data-rove-item", "");
      item.setAttribute("tabindex", "-1");
    }
    const key = ui.rove[group.getAttribute("data-rove")];
    const last = key ? items.find((n) => n.getAttribute("data-key") === key) : null;
    const first = items.find((n) => n.hasAttribute("data-moves"));
    const stop = (last && last.hasAttribute("data-moves") ? last : first) || last || items[0];
    stop.setAttribute("tabindex", "0");
  }
  if (ui.roveKeys) return;
  ui.roveKeys = true;
  const settle = (group, item) => {
    for (const n of roveItems(group)) n.setAttribute("tabindex", n === item ? "0" : "-1");
    const key = item.getAttribute("data-key");
    if (key) ui.rove[group.getAttribute("data-rove")] = key;
  };
  // a part the person moves to becomes its group's Tab stop; the focus a redraw gives back to
  // a part that is no place any more leaves the stop on the group's place (Tab reaches it)
  root.addEventListener("focusin", (event) => {
    const item = event.target.closest && event.target.closest("[data-rove-item]");
    if (item && !restoring) settle(item.closest("[data-rove]"), item);
  });
  root.addEventListener("keydown", (event) => {
    if (!(event.key in ARROWS) && event.key !== "Home" && event.key !== "End") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const item = event.target.closest && event.target.closest("[data-rove-item]");
    if (!item) return;
    const items = roveItems(item.closest("[data-rove]"));
    const order = event.key === "Home" || event.key === "End" ? readingOrder(items) : [];
    const next =
      event.key === "Home" ? order[0] : event.key === "End" ? order[order.length - 1] : arrowTarget(items, item, event.key);
    event.preventDefault();
    if (next) next.focus();
  });
}

/** "Seat 2 (greedy)" (seats are numbered from 1 on the page), "You" for the viewer. */
export function seatName(view, seat) {
  if (view.seat === seat) return "You";
  const info = (view.seats || []).find((s) => s.seat === seat);
  return info && info.label ? `Seat ${seat + 1} (${info.label})` : `Seat ${seat + 1}`;
}

/** Every seat's number, the viewer's first and then the others in order (the mats, sheets). */
export function viewerFirst(view) {
  const me = view.seat;
  return view.observation.seats.map((_, p) => p).sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
}

/** Whether ``seat`` is still to decide now. */
export function deciding(view, seat) {
  return (view.to_act || []).includes(seat);
}

/** Title case for data ids: "plate-armor" -> "Plate Armor". */
export function titled(id) {
  return String(id)
    .split(/[-_ ]/)
    .filter(Boolean)
    .map((w) => (["of", "the"].includes(w) ? w : w[0].toUpperCase() + w.slice(1)))
    .join(" ")
    .replace(/^./, (c) => c.toUpperCase());
}

/** A small banner of whose move it is, for every board's top line. */
export function turnLine(view) {
  if (view.over) return el("span", { class: "rb-turn rb-over" }, "Game over");
  const seats = view.to_act || [];
  if (view.seat !== null && seats.includes(view.seat)) {
    const others = seats.filter((s) => s !== view.seat);
    return el(
      "span",
      { class: "rb-turn rb-you" },
      "Your move",
      others.length ? ` (also deciding: ${others.map((s) => seatName(view, s)).join(", ")})` : "",
    );
  }
  return el(
    "span",
    { class: "rb-turn" },
    seats.length ? `Waiting for ${seats.map((s) => seatName(view, s)).join(", ")}` : "",
  );
}

/**
 * A large drawing (a board, a map) on a small screen: by default it keeps a size whose parts
 * can be tapped (``width`` CSS pixels, each part at least 24 px) and scrolls inside its own
 * frame (the page never scrolls sideways); a control shows the whole drawing fitted to the
 * screen instead, and back. On wider screens the drawing fits and the control is hidden. The
 * choice survives redraws.
 */
export function zoomable(root, key, drawing, label, width = 820) {
  const ui = uiState(root);
  ui.zoom = ui.zoom || {};
  const narrow = window.matchMedia("(max-width: 699px)").matches;
  const zoomed = () => (key in ui.zoom ? ui.zoom[key] : narrow);
  drawing.style.setProperty("--rb-zoom-width", `${Math.round(width)}px`);
  const frame = el("div", { class: `rb-zoom${zoomed() ? " rb-zoomed" : ""}`, "data-zoom": key }, drawing);
  const button = el("button", { type: "button", class: "rb-zoom-button", "data-key": `zoom:${key}` });
  const show = () => {
    button.textContent = zoomed() ? `Show the whole ${label} on the screen` : `Zoom in on the ${label}`;
  };
  show();
  button.addEventListener("click", () => {
    ui.zoom[key] = !zoomed();
    frame.classList.toggle("rb-zoomed", ui.zoom[key]);
    show();
  });
  return el("div", { class: "rb-zoom-wrap" }, button, frame);
}

/**
 * Buttons for the moves that belong to no place of the board (end a phase, pass, skip), named
 * in the game's words: ``words`` maps a move's text to its button's label.
 */
export function moveButtons(view, ctx, words, cls = "rb-move-button") {
  return movesWhere(view, (t) => t in words).map((m) =>
    place(el("button", { type: "button", class: cls, "data-key": `button:${m.text}` }, words[m.text]), [m], ctx),
  );
}

/**
 * Make ``node`` explain itself: ``text`` (a card's data-file text, a row's rule, a symbol's
 * meaning; ``heading`` names it) shows in a tip on hover (mouse), on keyboard focus, and on a
 * tap (touch). A node that is also a place for moves (a tap makes the move) shows its tip
 * on a long press instead, which then makes no move. The text is never HTML. Assistive
 * technology reads it as the node's description; an SVG part gets a role and a name (its
 * heading) if it has none.
 */
export function explain(node, text, heading = "") {
  if (!text) return node;
  node.setAttribute("data-explain", String(text));
  if (heading) node.setAttribute("data-explain-heading", String(heading));
  if (!node.hasAttribute("tabindex") && node.tagName !== "BUTTON") node.setAttribute("tabindex", "0");
  if (node.namespaceURI === SVG_NS && !node.hasAttribute("aria-label")) named(node, heading || String(text).split("\n")[0]);
  const name = node.getAttribute("aria-label");
  node.setAttribute("aria-description", heading && heading !== name ? `${heading}: ${text}` : String(text));
  // the tip says it all: no second, native one
  node.removeAttribute("title");
  for (const title of node.querySelectorAll(":scope > title")) title.remove();
  node.classList.add("rb-explained");
  installTips();
  return node;
}

// -- the tip ----------------------------------------------------------------------------------
let tip = null;
let tipFor = null;
let tipsInstalled = false;
// a redraw giving the focus back to the same part (its tip is the redraw's to decide)
let restoring = false;
// shows the tip of a part (set once the tips are installed)
let showTip = () => {};

/** Close the tip (a move made, the board redrawn). */
export function hideTip() {
  tipFor = null;
  if (tip) {
    tip.hidden = true;
    tip.classList.remove("rb-tip-hoverable");
  }
}

/**
 * Where a tip of size (w, h) goes beside the box ``r`` without covering it: below, above, to
 * the right, to the left, the first that fits inside the viewport (``gap`` px from the box and
 * ``margin`` px from the edges); if none fits, the side with the most room, kept on screen.
 */
export function tipPosition(r, w, h, vw, vh, gap = 6, margin = 8) {
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(v, hi));
  const x = clamp(r.left, margin, vw - w - margin);
  const y = clamp(r.top, margin, vh - h - margin);
  const sides = [
    { room: vh - margin - r.bottom - gap, need: h, left: x, top: r.bottom + gap },
    { room: r.top - gap - margin, need: h, left: x, top: r.top - gap - h },
    { room: vw - margin - r.right - gap, need: w, left: r.right + gap, top: y },
    { room: r.left - gap - margin, need: w, left: r.left - gap - w, top: y },
  ];
  const fits = sides.find((s) => s.room >= s.need);
  const side = fits || sides.reduce((a, b) => (b.room / b.need > a.room / a.need ? b : a));
  return { left: clamp(side.left, margin, vw - w - margin), top: clamp(side.top, margin, vh - h - margin), fits: !!fits };
}

/**
 * One tip element for the page, and the listeners that show it (installed on first use).
 * A mouse shows a part's tip while it points at the part or the tip itself; keyboard focus
 * shows it while the part has the focus; a tap toggles it (a long press on a place), and the
 * next tap anywhere, a move, a scroll or Escape closes it. A tip never covers its part.
 */
function installTips() {
  if (tipsInstalled) return;
  tipsInstalled = true;
  tip = el("div", { id: "rb-tip", role: "tooltip", class: "rb-tip", hidden: true });
  document.body.append(tip);
  let pressTimer = null;
  let suppressClick = false;
  // a press under way: the focus a tap or a click gives shows no tip (the tap itself decides)
  let pressing = false;
  let pressEnd = null;
  const pressed = () => {
    clearTimeout(pressEnd);
    pressEnd = setTimeout(() => (pressing = false), 0);
  };
  // the node whose tip showed before the last touch began: a second tap on it closes it
  let shownBeforeTouch = null;
  const target = (event) => (event.target instanceof Element ? event.target.closest("[data-explain]") : null);
  // whether a tap on ``node`` acts (a place's move, a control): then a long press shows its tip
  const acts = (event, node) => {
    const active = event.target.closest(".rb-place, .rb-control");
    return active !== null && (active === node || node.contains(active));
  };
  // the tip's own padding is the gap to its part: a mouse crosses it onto the tip (WCAG 1.4.13)
  const show = (node, hoverable = false) => {
    tipFor = node;
    const heading = node.getAttribute("data-explain-heading");
    tip.replaceChildren(
      el(
        "div",
        { class: "rb-tip-box" },
        ...(heading ? [el("strong", { class: "rb-tip-heading", text: heading })] : []),
        el("span", { text: node.getAttribute("data-explain") }),
      ),
    );
    tip.classList.toggle("rb-tip-hoverable", hoverable);
    tip.style.maxWidth = `${Math.min(332, window.innerWidth - 4)}px`;
    tip.style.left = "0px";
    tip.style.top = "0px";
    tip.hidden = false;
    const at = tipPosition(node.getBoundingClientRect(), tip.offsetWidth, tip.offsetHeight, window.innerWidth, window.innerHeight, 0, 2);
    tip.style.left = `${at.left}px`;
    tip.style.top = `${at.top}px`;
  };
  showTip = show;
  // a finger's last tap leaves the browser a "mouse" where it landed, moved over whatever a
  // redraw puts there: only a mouse that really moves shows tips on hover
  let touchMode = false;
  document.addEventListener("pointermove", (event) => {
    if (event.pointerType === "mouse" && (event.movementX || event.movementY)) touchMode = false;
  });
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse" || touchMode) return;
    if (tip.contains(event.target)) return;
    const node = target(event);
    if (node) show(node, true);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse" || !tipFor || !tip.classList.contains("rb-tip-hoverable")) return;
    const left = (n) => n instanceof Node && (tipFor.contains(n) || tip.contains(n));
    if (left(event.target) && !left(event.relatedTarget)) hideTip();
  });
  document.addEventListener("focusin", (event) => {
    const node = target(event);
    if (restoring) return;
    if (node && !pressing) show(node);
    else if (!node || node !== tipFor) hideTip();
  });
  document.addEventListener(
    "keydown",
    (event) => {
      // a key: the focus it moves is the keyboard's and shows its tip, even while a pointer's
      // press is still counted (its click not come yet, or never: released off its part)
      pressing = false;
      clearTimeout(pressEnd);
      if (event.key === "Escape") hideTip();
    },
    true,
  );
  document.addEventListener(
    "pointerdown",
    (event) => {
      pressing = true;
      touchMode = event.pointerType !== "mouse";
      clearTimeout(pressEnd);
      pressEnd = setTimeout(() => (pressing = false), 1000);
      if (event.pointerType === "mouse") return;
      shownBeforeTouch = tipFor;
      const node = target(event);
      clearTimeout(pressTimer);
      // a tap anywhere but on the part whose tip shows closes it (a tap on it toggles it)
      if (tipFor && node !== tipFor) hideTip();
      if (node && acts(event, node)) {
        pressTimer = setTimeout(() => {
          suppressClick = true;
          show(node);
        }, 450);
      }
    },
    true,
  );
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("pointercancel", () => {
    clearTimeout(pressTimer);
    pressed();
  });
  document.addEventListener(
    "click",
    (event) => {
      pressed();
      if (suppressClick) {
        suppressClick = false;
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      const node = target(event);
      const touch = event.pointerType === "touch" || event.pointerType === "pen";
      if (node && !acts(event, node) && touch) {
        if (shownBeforeTouch === node) hideTip();
        else show(node);
        shownBeforeTouch = null;
      } else if (!node && !tip.contains(event.target)) hideTip();
    },
    true,
  );
  // a scroll (of the page or of a board's frame) moves the tip's part: a tip of the focused
  // part follows it (the focus itself may have scrolled, as Tab does), any other tip closes
  document.addEventListener(
    "scroll",
    () => {
      if (tipFor && tipFor === document.activeElement && !tip.classList.contains("rb-tip-hoverable")) show(tipFor);
      else if (tipFor) hideTip();
    },
    { passive: true, capture: true },
  );
}
