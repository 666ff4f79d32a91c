// The generic view of a game without a board of its own: the observation as readable HTML.
// Same API as a board module (render(root, view, ctx)); it offers no clickable places, the
// page's list of legal moves is how moves are made.

function words(key) {
  return String(key).replaceAll("_", " ");
}

function scalar(value) {
  if (value === null || value === undefined) return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function isScalar(value) {
  return value === null || typeof value !== "object";
}

function flat(value) {
  // a small record of scalars reads best on one line: "name: Fiery Staff · coins: 5"
  if (isScalar(value) || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length <= 6 && entries.every(([, v]) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)));
}

function line(value) {
  const span = document.createElement("span");
  span.className = "obs-line";
  span.textContent = Object.entries(value)
    .map(([k, v]) => `${words(k)}: ${Array.isArray(v) ? (v.length ? v.map(scalar).join(", ") : "none") : scalar(v)}`)
    .join(" \u00b7 ");
  return span;
}

function build(value, depth) {
  if (isScalar(value)) return document.createTextNode(scalar(value));
  if (depth > 0 && flat(value)) return line(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return document.createTextNode("none");
    if (value.every(isScalar)) return document.createTextNode(value.map(scalar).join(", "));
    const list = document.createElement("ol");
    list.className = "obs-list";
    for (const item of value) {
      const li = document.createElement("li");
      li.append(build(item, depth + 1));
      list.append(li);
    }
    return list;
  }
  const dl = document.createElement("dl");
  dl.className = depth === 0 ? "obs obs-top" : "obs";
  for (const [key, item] of Object.entries(value)) {
    const dt = document.createElement("dt");
    dt.textContent = words(key);
    const dd = document.createElement("dd");
    dd.append(build(item, depth + 1));
    dl.append(dt, dd);
  }
  return dl;
}

export function render(root, view) {
  const obs = { ...view.observation };
  const seats = obs.seats;
  delete obs.seats;
  for (const key of ["game", "you", "current_players"]) delete obs[key];
  root.replaceChildren();
  const table = document.createElement("section");
  table.className = "fallback-table";
  const h = document.createElement("h2");
  h.textContent = "The table";
  table.append(h, build(obs, 0));
  root.append(table);
  if (Array.isArray(seats)) {
    const grid = document.createElement("div");
    grid.className = "fallback-seats";
    seats.forEach((seat, p) => {
      const card = document.createElement("section");
      card.className = "fallback-seat" + (p === view.seat ? " mine" : "");
      const title = document.createElement("h3");
      const label = view.seats[p] ? view.seats[p].label : "";
      title.textContent = `Seat ${p + 1}${p === view.seat ? " (you)" : ""} - ${label}`;
      card.append(title, build(seat, 1));
      grid.append(card);
    });
    root.append(grid);
  }
}
