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

/**
 * Make ``node`` a place for ``moves`` (legal moves from view.legal): focusable, announced with
 * the moves' explain texts, operated by click, Enter or Space. Nothing happens without moves.
 * ``label`` names the place for screen readers before its moves ("Greaves, Steel circle").
 */
export function place(node, moves, ctx, label = "") {
  if (!moves || !moves.length) {
    if (label) node.setAttribute("aria-label", label);
    return node;
  }
  const explained = moves.map((m) => m.explain || m.text).join("; or ");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", moves.length === 1 ? explained : `${label}: ${explained}`);
  node.setAttribute("data-moves", moves.map((m) => m.text).join("\n"));
  node.classList.add("rb-place");
  const act = (event) => {
    event.preventDefault();
    event.stopPropagation();
    choose(ctx, moves);
  };
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") act(event);
  });
  const title = document.createElementNS(node.namespaceURI, "title");
  title.textContent = moves.length === 1 ? explained : `${label}: ${moves.length} moves`;
  if (node.namespaceURI === SVG_NS) node.prepend(title);
  else node.title = title.textContent;
  return node;
}

/**
 * A control that is not a move (select a die, show a rival's sheet): focusable and operated
 * by click, Enter or Space.
 */
export function control(node, label, action, pressed = null) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
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

/** Keep keyboard focus on the same place across a redraw (found by its data-key). */
export function redraw(root, draw) {
  const focused = root.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-key")
    : null;
  root.replaceChildren(...[draw()].flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false));
  if (focused) {
    const again = root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again && again.getAttribute("tabindex") !== null) again.focus();
  }
}

/** "Seat 2 (greedy)" (seats are numbered from 1 on the page), "You" for the viewer. */
export function seatName(view, seat) {
  if (view.seat === seat) return "You";
  const info = (view.seats || []).find((s) => s.seat === seat);
  return info && info.label ? `Seat ${seat + 1} (${info.label})` : `Seat ${seat + 1}`;
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
 * A large drawing (a board, a map) that fits the screen, with a "Zoom in" control for small
 * screens: zoomed, it keeps a readable size and scrolls sideways inside its frame (the page
 * never does). The choice survives redraws.
 */
export function zoomable(root, key, drawing, label) {
  const ui = uiState(root);
  ui.zoom = ui.zoom || {};
  const frame = el("div", { class: `rb-zoom${ui.zoom[key] ? " rb-zoomed" : ""}` }, drawing);
  const button = el("button", { type: "button", class: "rb-zoom-button", "data-key": `zoom:${key}` });
  const show = () => {
    button.textContent = ui.zoom[key] ? `Fit the ${label} to the screen` : `Zoom in on the ${label}`;
    button.setAttribute("aria-pressed", ui.zoom[key] ? "true" : "false");
  };
  show();
  button.addEventListener("click", () => {
    ui.zoom[key] = !ui.zoom[key];
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
 * on a long press instead, which then makes no move. The text is never HTML.
 */
export function explain(node, text, heading = "") {
  if (!text) return node;
  node.setAttribute("data-explain", String(text));
  if (heading) node.setAttribute("data-explain-heading", String(heading));
  if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
  node.setAttribute("aria-description", heading ? `${heading}: ${text}` : String(text));
  node.classList.add("rb-explained");
  installTips();
  return node;
}

let tipsInstalled = false;

/** One tip element for the page, and the listeners that show it (installed on first use). */
function installTips() {
  if (tipsInstalled) return;
  tipsInstalled = true;
  const tip = el("div", { id: "rb-tip", role: "tooltip", class: "rb-tip", hidden: true });
  document.body.append(tip);
  let shownFor = null;
  let pressTimer = null;
  let suppressClick = false;
  // the node whose tip showed before the last touch began: a tap focuses the node it lands on
  // (focusin shows its tip), so the tap's click toggles by what showed before, not after
  let shownBeforeTouch = null;
  const target = (event) => (event.target instanceof Element ? event.target.closest("[data-explain]") : null);
  const show = (node) => {
    shownFor = node;
    const heading = node.getAttribute("data-explain-heading");
    tip.replaceChildren(
      ...(heading ? [el("strong", { class: "rb-tip-heading", text: heading })] : []),
      el("span", { text: node.getAttribute("data-explain") }),
    );
    tip.hidden = false;
    const r = node.getBoundingClientRect();
    const w = Math.min(320, window.innerWidth - 16);
    tip.style.maxWidth = `${w}px`;
    const left = Math.max(8, Math.min(r.left, window.innerWidth - tip.offsetWidth - 8));
    const below = r.bottom + 6 + tip.offsetHeight <= window.innerHeight;
    const top = below ? r.bottom + 6 : Math.max(8, r.top - tip.offsetHeight - 6);
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  };
  const hide = () => {
    shownFor = null;
    tip.hidden = true;
  };
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const node = target(event);
    if (node) show(node);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType === "mouse" && shownFor && !shownFor.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("focusin", (event) => {
    const node = target(event);
    if (node) show(node);
    else hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    shownBeforeTouch = shownFor;
    const node = target(event);
    clearTimeout(pressTimer);
    if (!node) return hide();
    if (node.classList.contains("rb-place")) {
      pressTimer = setTimeout(() => {
        suppressClick = true;
        show(node);
      }, 450);
    }
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("pointercancel", () => clearTimeout(pressTimer));
  document.addEventListener(
    "click",
    (event) => {
      if (suppressClick) {
        suppressClick = false;
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      const node = target(event);
      if (node && !node.classList.contains("rb-place") && event.pointerType !== "mouse") {
        if (shownBeforeTouch === node) hide();
        else show(node);
        shownBeforeTouch = null;
      } else if (!node) hide();
    },
    true,
  );
  // a scroll moves the tip's node: a tip of the focused node follows it (the focus itself may
  // have scrolled the page, as Tab does), any other tip closes
  window.addEventListener(
    "scroll",
    () => (shownFor && shownFor === document.activeElement ? show(shownFor) : hide()),
    { passive: true },
  );
}
