// The first-turn guide: offered once per game in this browser (its first game of Archmagi, not
// every game and rematch after; "No, thanks" or the guide seen is remembered, and the page's
// "First-turn guide" button runs it again at any time), it walks through the game's steps (the guide.toml beside its board: a part of the page and a text),
// ringing each part on the page with the text beside it. It knows no game: the steps say it all.
const $ = (id) => document.getElementById(id);
const steps = JSON.parse(($("guide-data") || { textContent: "[]" }).textContent);
const STORE = "rulebook.guide.";

let offeredFor = null; // the game the offer was last worked out for
let running = null; // {index, key, timer}
let ring = null;

function remembered(key) {
  try {
    return localStorage.getItem(STORE + key);
  } catch {
    return null;
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(STORE + key, value);
  } catch {
    // a browser that keeps nothing: the guide is offered again next time
  }
}

/** Offer the guide of the game ``key`` (its name) unless this browser saw or refused it. */
export function offerGuide(key) {
  if (!steps.length || key === offeredFor) return;
  offeredFor = key;
  const seen = remembered(key);
  $("guide-offer").hidden = !!seen || !!running;
  $("guide-again").hidden = !seen;
  document.getElementById("game").dataset.guide = seen ? "seen" : "offered";
}

function target(step) {
  try {
    return document.querySelector(step.target);
  } catch {
    return null; // a selector the browser does not take: the step is skipped
  }
}

function placeRing() {
  if (!running) return;
  const node = target(steps[running.index]);
  if (!node) {
    ring.hidden = true;
    return;
  }
  const r = node.getBoundingClientRect();
  ring.hidden = false;
  Object.assign(ring.style, {
    left: `${r.left + window.scrollX - 4}px`,
    top: `${r.top + window.scrollY - 4}px`,
    width: `${r.width + 8}px`,
    height: `${r.height + 8}px`,
  });
}

function placeBox(node) {
  const box = $("guide-box");
  box.classList.toggle("guide-docked", window.innerWidth < 700 || !node);
  if (box.classList.contains("guide-docked")) {
    box.style.left = "";
    box.style.top = "";
    return;
  }
  // beside the part it rings, never over it where there is room: below, above, right, left
  const r = node.getBoundingClientRect();
  const h = box.offsetHeight;
  const w = box.offsetWidth;
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const across = Math.max(8, Math.min(r.left, vw - w - 8));
  const down = Math.max(8, Math.min(r.top, vh - h - 8));
  const spots = [
    [r.bottom + 12 + h <= vh - 8, across, r.bottom + 12],
    [r.top - 12 - h >= 8, across, r.top - 12 - h],
    [r.right + 12 + w <= vw - 8, r.right + 12, down],
    [r.left - 12 - w >= 8, r.left - 12 - w, down],
  ];
  const [, left, top] = spots.find(([fits]) => fits) || [true, vw - w - 8, vh - h - 8];
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
}

function show(index) {
  running.index = index;
  const step = steps[index];
  const node = target(step);
  $("guide-step").textContent = `Step ${index + 1} of ${steps.length}`;
  $("guide-title").textContent = step.title;
  $("guide-text").textContent = step.text;
  $("guide-back").disabled = index === 0;
  $("guide-next").textContent = index === steps.length - 1 ? "Finish" : "Next";
  const box = $("guide-box");
  box.hidden = false;
  box.dataset.step = String(index);
  if (node) {
    // the part in the upper half of the screen: the text may sit below it (docked on a phone)
    const r = node.getBoundingClientRect();
    const room = window.innerWidth < 700 ? window.innerHeight * 0.08 : window.innerHeight * 0.15;
    window.scrollTo({ top: Math.max(0, r.top + window.scrollY - room), behavior: "instant" });
  }
  placeRing();
  placeBox(node);
  $("guide-next").focus({ preventScroll: true });
}

function stop() {
  if (!running) return;
  remember(running.key, "seen");
  clearInterval(running.timer);
  running = null;
  $("guide-box").hidden = true;
  ring.hidden = true;
  $("guide-again").hidden = false;
  document.getElementById("game").dataset.guide = "seen";
  $("guide-again").focus({ preventScroll: true });
}

function run() {
  if (!steps.length) return;
  $("guide-offer").hidden = true;
  if (!ring) {
    ring = document.createElement("div");
    ring.className = "guide-ring";
    ring.setAttribute("aria-hidden", "true");
    document.body.append(ring);
  }
  // the board is redrawn whenever the game changes: the ring follows the part it rings
  running = { index: 0, key: offeredFor, timer: setInterval(placeRing, 250) };
  document.getElementById("game").dataset.guide = "running";
  show(0);
}

if (steps.length) {
  $("guide-start").addEventListener("click", run);
  $("guide-again").addEventListener("click", run);
  $("guide-skip").addEventListener("click", () => {
    remember(offeredFor, "skipped");
    $("guide-offer").hidden = true;
    $("guide-again").hidden = false;
    document.getElementById("game").dataset.guide = "seen";
    $("guide-again").focus({ preventScroll: true }); // where the offer was, for whoever wants it later
  });
  $("guide-next").addEventListener("click", () => {
    if (running.index >= steps.length - 1) stop();
    else show(running.index + 1);
  });
  $("guide-back").addEventListener("click", () => show(Math.max(0, running.index - 1)));
  $("guide-close").addEventListener("click", stop);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && running) stop();
  });
  window.addEventListener("resize", () => {
    if (running) {
      placeRing();
      placeBox(target(steps[running.index]));
    }
  });
}
