// Pandoria Merchants: the Map sheet as an SVG hex map (Resources, Workers, Swamps, lakes with
// their Ship spaces, rivers; in solo the Territories and Bridges), the two Resource dice, the
// Realm sheet (Spell/Building Cards, Resource tracks, Relics, Monuments) of every realm, the
// family version's Spell Archive and Guilds, and the Trolls in solo. Every part explains
// itself (a tip on hover, focus and tap) with the texts of `card NAME` (view.static.texts,
// from the data files) and, for what changes, the observation's words.
import * as kit from "./kit.js";

const PASS_WORDS = { action: "No Spell, Building, Relic or Monument", buy: "Buy no Card" };
// what a card's state on a Realm sheet means
const STATE_WORDS = {
  owned: "bought: its Spell or its Building is still to use",
  cast: "its Spell was cast: the card is used up",
  built: "its Building is built and working",
  monument: "a Monument stands over its Building",
  crossed: "crossed out by the Trolls",
};

const R = 20;
const W = Math.sqrt(3) * R;
const PAD = 26;
const SEAT_COLOURS = ["#c0392b", "#1f5fa8", "#2e7d32", "#7b3fa0"];
const KIND_OF = { W: "wood", C: "crystal", K: "craft", G: "gold", T: "city" };
const KIND_COLOURS = { wood: "#3f7d20", crystal: "#7d3fb0", craft: "#b7791f", gold: "#d4a017", city: "#8a5a44" };
const TERRITORY_TINTS = ["#f7efd9", "#e9f2dc", "#f6e3dd", "#e1ecf5", "#f3e9c8", "#ece0f2", "#dff0ec", "#f4e6d0", "#e8e8e8"];
// the map's printed letters, rivers and Bridges are its drawing: each hex says what it is
const HIDDEN = { "aria-hidden": "true" };
const HEX_VERBS = new Set(["wood", "crystal", "craft", "gold", "city", "worker", "ship", "swamp", "rage", "bridge"]);

/** The text of a card, Spell, Building or part of the sheets (as `card NAME` gives it). */
function text(view, name) {
  return (view.static.texts || {})[name] || "";
}

/** Explain ``node`` with the texts of ``names`` (joined), under ``heading``. */
function tip(node, view, heading, names, extra = "") {
  const parts = [...names.map((n) => text(view, n)), extra].filter(Boolean);
  return kit.explain(node, parts.join("\n"), heading);
}

function centre(col, row) {
  return [PAD + W / 2 + col * W + (row % 2 ? W / 2 : 0), PAD + R + row * 1.5 * R];
}

function hexPoints(x, y, r = R) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = Math.PI / 6 + (i * Math.PI) / 3;
    pts.push(`${(x + Math.cos(a) * r).toFixed(1)},${(y + Math.sin(a) * r).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** A Resource symbol as the Map sheet draws it, centred on (x, y). */
export function symbol(kind, x, y, s = 1) {
  const c = KIND_COLOURS[kind];
  const g = kit.svg("g", { class: `pm-sym pm-${kind}`, transform: `translate(${x},${y}) scale(${s})` });
  if (kind === "wood") {
    g.append(kit.svg("path", { d: "M 0 -11 L 8 3 H -8 Z M -1.5 3 v 6 h 3 v -6", fill: c }));
  } else if (kind === "crystal") {
    g.append(kit.svg("path", { d: "M 0 -11 L 7 -2 L 0 10 L -7 -2 Z M -7 -2 H 7", fill: c, stroke: "#fff", "stroke-width": 1 }));
  } else if (kind === "craft") {
    g.append(kit.svg("path", { d: "M -9 -2 H 7 L 5 3 H -4 L -6 9 H 6 M -9 -2 L -9 -6 H 3 L 7 -2", fill: c, stroke: "#5a3a00", "stroke-width": 1 }));
  } else if (kind === "gold") {
    g.append(kit.svg("circle", { r: 8.5, fill: c, stroke: "#7a5a00", "stroke-width": 1.5 }), kit.svg("text", { y: 4, class: "pm-coin" }, "G"));
  } else if (kind === "city") {
    g.append(kit.svg("path", { d: "M -9 9 V -1 L -5 -6 L -1 -1 V -4 L 3 -10 L 8 -4 V 9 Z", fill: c, stroke: "#3b2418", "stroke-width": 1 }));
  } else {
    g.append(kit.svg("text", { y: 5, class: "pm-wild" }, "?"));
  }
  return g;
}

function worker(seat, x, y) {
  return kit.svg(
    "g",
    { class: "pm-worker" },
    kit.svg("path", {
      d: `M ${x} ${y - 12} a 4.5 4.5 0 1 1 0.1 0 z M ${x - 9} ${y + 11} q 0 -13 9 -14 q 9 1 9 14 z`,
      fill: SEAT_COLOURS[seat % 4],
      stroke: "#111",
      "stroke-width": 1,
    }),
    kit.svg("text", { x, y: y + 9, class: "pm-worker-n" }, seat + 1),
  );
}

function shipGlyph(x, y, seat) {
  return kit.svg(
    "g",
    { class: "pm-ship" },
    kit.svg("path", { d: `M ${x - 11} ${y + 2} h 22 l -5 7 h -12 z`, fill: seat === null ? "#f3ead6" : SEAT_COLOURS[seat % 4], stroke: "#3b2418" }),
    kit.svg("path", { d: `M ${x} ${y + 1} V ${y - 12} L ${x + 8} ${y - 2} Z`, fill: "#fff", stroke: "#3b2418" }),
  );
}

function hexMoves(view, name) {
  return kit.movesWhere(view, (t) => {
    const [verb, arg] = t.split(" ");
    return HEX_VERBS.has(verb) && arg === name;
  });
}

/** Where the Bridges of the Solo Map lead, by the hex at each end: "F5" -> ["E4"]. */
function bridgeEnds(st) {
  const ends = {};
  for (const [a, b] of st.bridges || []) {
    (ends[a] = ends[a] || []).push(b);
    (ends[b] = ends[b] || []).push(a);
  }
  return ends;
}

/** "Your" for the viewer's seat, else "Seat 2 (greedy)'s". */
function possessive(view, seat) {
  return seat === view.seat ? "Your" : `${kit.seatName(view, seat)}'s`;
}

/** What the last Rage did, in words: on the Worker it made count more. */
function rageWords(view, rage) {
  const whose = possessive(view, rage.seat);
  return rage.this_turn
    ? `Rage: ${whose} Worker here counts as ${rage.counts_as} Workers when scoring this turn.`
    : `Rage, last turn: ${whose} Worker here counted as ${rage.counts_as} Workers when scoring.`;
}

function mapSvg(view, ctx) {
  const obs = view.observation;
  const st = view.static;
  const rows = obs.map.rows;
  const letters = obs.map.columns;
  const terr = obs.map.territories;
  const solo = obs.solo || null;
  const ends = bridgeEnds(st);
  const rage = obs.rage || null;
  const nodes = [];
  const width = PAD * 2 + W * (letters.length + 0.5);
  const height = PAD * 2 + R * (1.5 * rows.length + 0.5) + (st.boundary ? 14 : 0);
  // column letters and row numbers, as players call hexes ("C7")
  letters.forEach((l, c) => nodes.push(kit.svg("text", { x: PAD + W / 2 + c * W + W / 4, y: 14, class: "pm-label", ...HIDDEN }, l)));
  rows.forEach((_, r) => nodes.push(kit.svg("text", { x: 10, y: centre(0, r)[1] + 4, class: "pm-label", ...HIDDEN }, r + 1)));
  const hexes = [];
  const marks = [];
  const overlay = [];
  rows.forEach((row, r) => {
    for (let c = 0; c < row.length / 2; c += 1) {
      const sym = row[2 * c];
      const mark = row[2 * c + 1];
      const name = `${letters[c]}${r + 1}`;
      const [x, y] = centre(c, r);
      const t = terr.length ? Number(terr[r][c]) : 0;
      const water = sym === "~" || sym === "S";
      const moves = hexMoves(view, name);
      const classes = ["pm-hex"];
      if (water) classes.push("pm-water");
      if (sym === "#") classes.push("pm-swamp");
      if (mark === "x") classes.push("pm-scored");
      if (moves.length) classes.push("pm-target");
      if (solo && t && t !== solo.territory && !solo.finished.includes(t)) classes.push("pm-later");
      const fill = water ? null : TERRITORY_TINTS[t] || TERRITORY_TINTS[0];
      const g = kit.svg(
        "g",
        { class: classes.join(" "), "data-hex": name, "data-key": `hex:${name}` },
        kit.svg("polygon", { points: hexPoints(x, y), class: "pm-hex-shape", style: fill ? `fill:${fill}` : null }),
      );
      let what = "empty";
      let names = ["empty hex"];
      const extra = [];
      if (sym === "S") {
        g.append(shipGlyph(x, y, /\d/.test(mark) ? Number(mark) : null));
        what = /\d/.test(mark) ? `Ship space with ${possessive(view, Number(mark))} Ship` : "Ship space";
        names = ["ship space"];
      } else if (sym === "~") {
        what = "lake";
        names = ["lake"];
      } else if (sym === "#") {
        what = "Swamp";
        names = ["swamp space"];
      } else if (KIND_OF[sym]) {
        g.append(symbol(KIND_OF[sym], x, y));
        what = kit.titled(KIND_OF[sym]);
        names = [KIND_OF[sym]];
        if (mark === "@") {
          g.append(kit.svg("polygon", { points: hexPoints(x, y, R - 4), class: "pm-start" }));
          what += " (Starting space)";
          names.push("starting space");
        } else if (mark === "*") {
          g.append(kit.svg("circle", { cx: x + 10, cy: y - 9, r: 3, class: "pm-printed" }));
          what += " (pre-printed)";
          names.push("pre-printed space");
        } else if (mark === "a") {
          g.append(kit.svg("path", { d: `M ${x + 7} ${y - 14} l 5 5 l -5 5 l -5 -5 z`, class: "pm-artifact" }));
          const n = (obs.artifacts_on_map || {})[name] || 1;
          what += n > 1 ? ` with ${n} Artifacts` : " with an Artifact";
          names.push("artifact");
        } else if (mark === "x") {
          what += " (scored)";
          names.push("area");
        }
      } else if (/\d/.test(sym)) {
        g.append(worker(Number(sym), x, y));
        what = `${possessive(view, Number(sym))} Worker`;
        names = ["worker"];
        if (rage && rage.hex === name) {
          // drawn over the map (the hexes around would cover it), the hex ringed
          const old = rage.this_turn ? "" : " pm-rage-old";
          overlay.push(
            kit.svg(
              "g",
              { class: `pm-rage${old}`, "aria-hidden": "true" },
              kit.svg("polygon", { points: hexPoints(x, y, R - 1), class: "pm-rage-ring" }),
              kit.svg("circle", { cx: x + 12, cy: y - 12, r: 10 }),
              kit.svg("text", { x: x + 12, y: y - 8 }, `×${rage.counts_as}`),
            ),
          );
          what += `, raged (counts as ${rage.counts_as})`;
          extra.push(rageWords(view, rage));
        }
      }
      if (t && solo) {
        const state = solo.finished.includes(t) ? "finished" : t === solo.territory ? "the one being played" : "not played yet";
        extra.push(`Territory ${t} of the Solo Map: ${state}.`);
      }
      if (ends[name]) extra.push(`A Bridge joins this hex to ${ends[name].join(" and ")}. ${text(view, "bridge")}`);
      kit.place(g, moves, ctx, `${name}: ${what}`);
      tip(g, view, `${name}: ${what}`, names, extra.join("\n"));
      if (!moves.length) g.setAttribute("aria-label", `${name}: ${what}`);
      (moves.length ? marks : hexes).push(g);
    }
  });
  nodes.push(...hexes, ...marks, ...overlay);
  // rivers between rows; the boundary river closes the map with fewer players
  (st.rivers || []).forEach((after) => {
    const y = centre(0, after - 1)[1] + R * 0.75;
    if (after > rows.length) return;
    let d = `M ${PAD - 8} ${y}`;
    for (let x = PAD - 8; x < width - PAD + 8; x += 24) d += ` q 6 -6 12 0 q 6 6 12 0`;
    nodes.push(kit.svg("path", { d, class: `pm-river${after === st.boundary ? " pm-boundary" : ""}`, ...HIDDEN }));
  });
  // solo: Bridges between Territories
  (st.bridges || []).forEach(([a, b]) => {
    const pos = (n) => {
      const c = letters.indexOf(n[0]);
      return centre(c, Number(n.slice(1)) - 1);
    };
    const [x1, y1] = pos(a);
    const [x2, y2] = pos(b);
    nodes.push(kit.svg("line", { x1, y1, x2, y2, class: "pm-bridge", ...HIDDEN }));
  });
  const map = kit.svg("svg", { viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, class: "pm-map", "data-key": "map" }, nodes);
  // one Tab stop for the map (a hex to draw on), the arrows to every hex
  return kit.rove(tip(map, view, solo ? "The Solo Map" : "The Map sheet", ["map"]), solo ? "The Solo Map" : "The Map sheet");
}

/** The map's key: each symbol drawn small, explained. */
function legend(view) {
  const obs = view.observation;
  const solo = !!obs.solo;
  const family = obs.variant === "family";
  const chip = (name, heading, glyph) =>
    tip(kit.el("span", { class: "pm-key", "data-key": `key:${name}` }, kit.svg("svg", { viewBox: "-13 -13 26 26", width: 22, height: 22, ...HIDDEN }, glyph), heading), view, heading, [name]);
  const hex = (cls) => kit.svg("polygon", { points: hexPoints(0, 0, 11), class: cls });
  const keys = [
    // the map as a whole (its own tip shows on hover; here for the keyboard and a tap)
    chip("map", solo ? "Solo Map" : "Map sheet", hex("pm-key-hex")),
    chip("worker", "Worker", kit.svg("g", { transform: "scale(0.8)" }, worker(view.seat ?? 0, 0, 0))),
    chip("starting space", "Starting space", kit.svg("g", {}, hex("pm-key-hex"), kit.svg("polygon", { points: hexPoints(0, 0, 8), class: "pm-start" }))),
    chip("pre-printed space", "Pre-printed", kit.svg("g", {}, hex("pm-key-hex"), kit.svg("circle", { r: 3, class: "pm-printed" }))),
    family ? null : chip("artifact", "Artifact", kit.svg("path", { d: "M 0 -7 l 6 6 l -6 6 l -6 -6 z", class: "pm-artifact" })),
    chip("area", "Scored area", hex("pm-key-hex pm-key-scored")),
    chip("lake", "Lake", hex("pm-key-water")),
    chip("ship space", "Ship space", kit.svg("g", { transform: "scale(0.8)" }, shipGlyph(0, 2, null))),
    chip("swamp space", "Swamp", hex("pm-key-swamp")),
    chip("river", solo ? "Rivers" : "River", kit.svg("path", { d: "M -11 0 q 5 -5 11 0 q 5 5 11 0", class: "pm-river" })),
    solo ? chip("bridge", "Bridge", kit.svg("line", { x1: -10, y1: 5, x2: 10, y2: -5, class: "pm-bridge" })) : null,
    solo ? chip("territory", "Territory", hex("pm-key-hex")) : null,
  ];
  return kit.rove(kit.el("div", { class: "pm-legend" }, keys), "What the map's symbols mean");
}

function dice(view, ctx) {
  const obs = view.observation;
  const choose = kit.movesWhere(view, (t) => t.startsWith("choose "));
  return kit.el(
    "div",
    { class: "pm-dice", "aria-label": "Resource dice" },
    obs.dice.map((d, i) =>
      tip(
        kit.el(
          "div",
          { class: "pm-die", "data-key": `die:${i}`, "aria-label": `die ${i + 1}: ${d === "?" ? "?" : d}` },
          kit.svg("svg", { viewBox: "-16 -16 32 32", width: 40, height: 40, ...HIDDEN }, symbol(d === "?" ? "wild" : d, 0, 0, 1.1)),
        ),
        view,
        `Die ${i + 1}: ${d === "?" ? "?" : kit.titled(d)}`,
        [d, "dice"],
      ),
    ),
    choose.length
      ? kit.el(
          "div",
          { class: "pm-choose" },
          kit.el("span", {}, "The ? die shows:"),
          choose.map((m) => {
            const kind = m.text.split(" ")[1];
            return tip(
              kit.place(
                kit.el("span", { class: "pm-choice", "data-key": m.text }, kit.svg("svg", { viewBox: "-14 -14 28 28", width: 30, height: 30, ...HIDDEN }, symbol(kind, 0, 0)), kit.titled(kind)),
                [m],
                ctx,
              ),
              view,
              `The ? die shows ${kit.titled(kind)}`,
              ["?", kind],
            );
          }),
        )
      : null,
  );
}

function cardMoves(view, id) {
  return kit.movesWhere(view, (t) => t.split(" ")[1] === id && !HEX_VERBS.has(t.split(" ")[0]));
}

function realmSheet(view, ctx, p, mine) {
  const obs = view.observation;
  const st = view.static;
  const seat = obs.seats[p];
  const states = {};
  for (const [state, ids] of Object.entries(seat.cards || {})) for (const id of ids) states[id] = state;
  const columns = [];
  const blocked = new Set(obs.blocked_columns || []);
  const nCols = obs.columns;
  for (let col = 1; col <= nCols; col += 1) {
    const cards = obs.realm.filter((c) => c.column === col);
    const colMoves = mine ? kit.movesWhere(view, (t) => t === `trolls column-${col}`) : [];
    const header = kit.place(
      kit.el("div", { class: `pm-col-head${col === st.starting_column ? " pm-start-col" : ""}`, "data-key": `column:${col}` }, col === 1 ? "Start" : `${col}`, blocked.has(col) ? " ✗" : ""),
      colMoves,
      ctx,
      `column ${col}`,
    );
    const trolls = (obs.solo && obs.solo.troll_columns.includes(col)) ? "The Trolls have claimed this column." : "";
    tip(header, view, `Column ${col}${col === st.starting_column ? " (starting cards)" : ""}`, ["column"], [blocked.has(col) ? "Blocked (✗): nobody may buy from it any more." : "", trolls].filter(Boolean).join(" "));
    columns.push(
      kit.el(
        "div",
        { class: `pm-col${blocked.has(col) ? " pm-blocked" : ""}` },
        header,
        cards.map((c) => {
          const [spell, building] = c.card.split("/");
          const state = states[c.card] || "none";
          const moves = mine ? cardMoves(view, c.card) : [];
          const parts = (st.card_parts || {})[c.card] || {};
          // inside a place, the card alone explains itself (a long press shows it, a tap moves)
          const part = (node, key, heading) => (moves.length ? node : kit.explain(node, parts[key], heading));
          const name = `${kit.titled(spell)}${c.power ? ` ${c.power}` : ""} / ${kit.titled(building)}`;
          const node = kit.el(
            "div",
            { class: `pm-card pm-${state}`, "data-card": c.card, "data-key": `card:${p}:${c.card}` },
            part(kit.el("div", { class: "pm-spell" }, kit.el("span", { class: "pm-star" }, "★"), kit.titled(spell), c.power ? ` ${c.power}` : "", kit.el("span", { class: "pm-cost pm-crystal" }, `${c.crystals}`)), "spell", `Spell ${kit.titled(spell)}${c.power ? ` ${c.power}` : ""}`),
            part(kit.el("div", { class: "pm-building" }, kit.el("span", { class: "pm-rect" }, "▭"), kit.titled(building), kit.el("span", { class: "pm-cost pm-woodc" }, `${c.wood}`)), "building", `Building ${kit.titled(building)}`),
            part(kit.el("div", { class: "pm-price" }, kit.el("span", { class: "pm-oval" }, `${c.gold} gold`), state !== "none" ? kit.el("span", { class: "pm-state" }, state) : null), "price", `${name}: price`),
          );
          kit.place(node, moves, ctx, name);
          return tip(node, view, `${name}${state !== "none" ? ` (${STATE_WORDS[state]})` : ""}`, [c.card]);
        }),
      ),
    );
  }
  // one Tab stop for the cards (one to buy, cast or build), the arrows to the others
  return kit.rove(kit.el("div", { class: "pm-realm-cards", "data-key": `cards:${p}` }, columns), `${kit.seatName(view, p)}'s Realm sheet cards`, `cards:${p}`);
}

function tracks(view, seat) {
  const st = view.static;
  return kit.el(
    "div",
    { class: "pm-tracks" },
    Object.entries(seat.tracks).map(([kind, v]) => {
      const boxes = [];
      for (let k = 0; k <= st.tracks.maximum; k += 1) boxes.push(kit.el("span", { class: `pm-box${k === v ? " pm-on" : ""}`, ...HIDDEN }, k));
      return tip(
        kit.el(
          "div",
          { class: "pm-track", "aria-label": `${kind} ${v}`, "data-key": `track:${kind}` },
          kit.svg("svg", { viewBox: "-13 -13 26 26", width: 20, height: 20, ...HIDDEN }, symbol(kind, 0, 0, 0.9)),
          kit.el("span", { class: "pm-track-name" }, kit.titled(kind)),
          boxes,
        ),
        view,
        `${kit.titled(kind)} track: ${v}`,
        ["track", kind],
      );
    }),
  );
}

function relics(view, ctx, mine) {
  const obs = view.observation;
  if (!obs.relics_left) return null;
  const rows = Object.entries(obs.relics_left).map(([name, values]) => {
    const n = name.split("-")[1];
    const moves = mine ? kit.movesWhere(view, (t) => t === `relic ${n}` || t === `trolls ${name}`) : [];
    return tip(
      kit.place(
        kit.el("div", { class: "pm-relic", "data-key": name }, `Relic (${n} Artifacts): `, values.join(" · ") || "none left"),
        moves,
        ctx,
        `Relic of ${n} Artifacts`,
      ),
      view,
      `Relics of ${n} Artifacts: ${values.length ? `${values.join(", ")} VP left` : "none left"}`,
      ["relic"],
    );
  });
  const monumentMoves = mine ? kit.movesWhere(view, (t) => t === "trolls monument") : [];
  rows.push(
    tip(
      kit.place(
        kit.el("div", { class: "pm-relic", "data-key": "monuments" }, "Monuments: ", obs.monuments_left.join(" · ") || "none left"),
        monumentMoves,
        ctx,
        "Monuments",
      ),
      view,
      `Monuments: ${obs.monuments_left.length ? `${obs.monuments_left.join(", ")} VP left` : "none left"}`,
      ["monument"],
    ),
  );
  return kit.el("div", { class: "pm-relics" }, rows);
}

function archive(view, ctx) {
  const obs = view.observation;
  if (!obs.archive) return null;
  const levels = [...new Set(obs.archive.map((r) => r.level))];
  return kit.el(
    "section",
    { class: "pm-archive", "aria-label": "Spell Archive" },
    tip(kit.el("h2", { "data-key": "archive" }, "Spell Archive"), view, "Spell Archive", ["spell archive"]),
    levels.map((level) =>
      kit.el(
        "div",
        { class: "pm-level" },
        kit.el("span", { class: "pm-level-name" }, `Level ${level}`),
        obs.archive
          .filter((r) => r.level === level)
          .map((r) => {
            const moves = kit.movesWhere(view, (t) => t === `claim ${r.room}`);
            // inside a place, the room alone explains itself (a long press shows it)
            const spell = (s, i) => {
              const chip = kit.el("span", { class: `pm-room-spell${i < r.taken ? " pm-taken" : ""}` }, spellName(s));
              return moves.length ? chip : kit.explain(chip, text(view, s), `${spellName(s)}${i < r.taken ? " (taken)" : ""}`);
            };
            const left = r.spells.slice(r.taken);
            const state = left.length ? `Next to claim here: ${spellName(left[0])}.${r.filling ? " This room is being filled: the next Spell earned comes from it." : ""}` : "Every Spell of this room is taken.";
            return tip(
              kit.place(
                kit.el("div", { class: `pm-room${r.filling ? " pm-filling" : ""}`, "data-key": `room:${r.room}` }, kit.el("strong", {}, r.room), r.spells.map(spell)),
                moves,
                ctx,
                `room ${r.room}`,
              ),
              view,
              `Room ${r.room} (level ${level})`,
              [],
              [state, ...left.map((s) => `${spellName(s)}: ${text(view, s)}`)].join("\n"),
            );
          }),
      ),
    ),
  );
}

/** An Archive Spell's name as the sheets print it: "rage3" -> "Rage 3". */
function spellName(s) {
  const m = /^([a-z]+)(\d*)$/.exec(s);
  return m ? `${kit.titled(m[1])}${m[2] ? ` ${m[2]}` : ""}` : kit.titled(s);
}

function familySeat(view, ctx, p, mine) {
  const seat = view.observation.seats[p];
  return kit.el(
    "div",
    { class: "pm-family" },
    tip(kit.el("div", { "data-key": `guild:${p}` }, `${seat.guild} Guild (${seat.guild_resource})`), view, `${seat.guild} Guild: ${kit.titled(seat.guild_resource)}`, ["guild"]),
    kit.el(
      "div",
      { class: "pm-spells" },
      "Spells: ",
      seat.spells.length
        ? seat.spells.map((s) => tip(kit.place(kit.el("span", { class: "pm-spell-chip", "data-key": `spell:${p}:${s}` }, spellName(s)), mine ? kit.movesWhere(view, (t) => t === `cast ${s}`) : [], ctx, s), view, spellName(s), [s]))
        : "none",
      ` · used ${seat.used_spells}`,
    ),
  );
}

/** Solo: "Territory 3 of 8", and which of the map's Territories that is when it differs. */
function soloProgress(s) {
  const playing = s.finished.includes(s.territory) ? s.finished.length : s.finished.length + 1;
  return s.territory !== playing && s.progress.startsWith("Territory") ? `${s.progress} (the map's Territory ${s.territory})` : s.progress;
}

function soloPanel(view) {
  const obs = view.observation;
  const s = obs.solo;
  if (!s) return null;
  // the row of the Territory being played (none between Territories and at the end)
  const now = obs.phase !== "over" && !s.finished.includes(s.territory) ? s.finished.length + 1 : 0;
  const cells = s.table.map((v, i) => {
    const t = i + 1;
    const done = s.troll_points[i];
    const trolls = kit.el("td", { "data-key": `trolls:${t}` }, done ? done.total : v);
    if (done) kit.explain(trolls, done.words, `Territory ${t}: ${done.total} for the Trolls`);
    else kit.explain(trolls, `The table gives the Trolls ${v} for this Territory, minus your points there; they add the cards, Relics and Monuments they take when it is finished.`, `Territory ${t}: table value ${v}`);
    return kit.el(
      "tr",
      { class: t === now ? "pm-now" : "" },
      kit.el("td", {}, t),
      kit.el("td", {}, s.your_territory_scores[i] ?? (t === now ? `${s.territory_points_now}…` : "")),
      trolls,
    );
  });
  return kit.el(
    "section",
    { class: "pm-solo", "aria-label": "The Trolls" },
    tip(kit.el("h2", { "data-key": "trolls" }, `The Trolls (${s.level})`), view, "The Trolls", ["trolls"]),
    kit.el("table", {}, kit.el("tr", {}, kit.el("th", {}, "Territory"), kit.el("th", {}, "You"), kit.el("th", {}, "Trolls")), cells),
    kit.explain(
      kit.el("div", { "data-key": "trolls-total" }, `Trolls total ${s.trolls_total}`, s.troll_columns.length ? ` · columns taken: ${s.troll_columns.join(", ")}` : "", s.troll_claims.length ? ` · claims: ${s.troll_claims.join(", ")}` : ""),
      s.trolls_explained,
      `The Trolls: ${s.trolls_total} points`,
    ),
    s.final ? kit.el("strong", {}, `${obs.rating}: ${s.final}`) : null,
  );
}

function seatSection(view, ctx, p) {
  const obs = view.observation;
  const seat = obs.seats[p];
  const mine = view.seat === p;
  const ui = seat.tracks !== undefined;
  return kit.el(
    "section",
    { class: `pm-seat${mine ? " pm-mine" : ""}`, style: `--seat:${SEAT_COLOURS[p % 4]}`, "aria-label": `${kit.seatName(view, p)}'s Realm sheet` },
    kit.el(
      "header",
      {},
      kit.el("span", { class: "pm-seat-dot" }),
      kit.el("strong", {}, kit.seatName(view, p)),
      !view.over && kit.deciding(view, p) ? kit.el("span", { class: "pm-status" }, "to act") : null,
      tip(kit.el("span", { class: "pm-vp", "data-key": `vp:${p}` }, `${seat.score} VP`), view, `${kit.seatName(view, p)}: ${seat.score} Victory Points`, ["victory points"]),
      seat.ships && seat.ships.length ? tip(kit.el("span", { "data-key": `ships:${p}` }, ` · Ship ${seat.ships.join(", ")}`), view, `Ship on ${seat.ships.join(", ")}`, ["ship space"]) : null,
    ),
    ui
      ? [
          tracks(view, seat),
          kit.el(
            "div",
            { class: "pm-small" },
            tip(kit.el("span", { "data-key": `artifacts:${p}` }, `Artifacts ${seat.artifacts}`), view, `${seat.artifacts} Artifacts`, ["artifact"]),
            seat.relics.length ? tip(kit.el("span", { "data-key": `relics:${p}` }, ` · Relics ${seat.relics.join(", ")}`), view, `Relics: ${seat.relics.join(", ")} VP`, ["relic"]) : "",
            seat.monuments.length ? tip(kit.el("span", { "data-key": `monuments:${p}` }, ` · Monuments ${seat.monuments.join(", ")}`), view, `Monuments: ${seat.monuments.join(", ")} VP`, ["monument"]) : "",
          ),
          mine || view.seat === null ? realmSheet(view, ctx, p, mine) : compactCards(view, seat),
        ]
      : familySeat(view, ctx, p, mine),
  );
}

function compactCards(view, seat) {
  const parts = Object.entries(seat.cards || {}).map(([state, ids]) => [
    `${state}: `,
    ids.map((id, i) => {
      const [spell, building] = id.split("/");
      const name = `${kit.titled(spell)} / ${kit.titled(building)}`;
      return [i ? ", " : "", tip(kit.el("span", { class: "pm-card-name", "data-key": `held:${id}` }, id), view, `${name} (${STATE_WORDS[state]})`, [id])];
    }),
  ]);
  return kit.el("div", { class: "pm-small" }, parts.length ? parts.map((x, i) => [i ? " · " : "", x]) : "no Cards yet");
}

/** The map in its frame: on a phone 0.8 of its size (each hex about 28 px wide), panned. */
function zoomedMap(root, view, ctx) {
  const map = mapSvg(view, ctx);
  return kit.zoomable(root, "map", map, "map", map.viewBox.baseVal.width * 0.8);
}

export function render(root, view, ctx) {
  root.classList.add("rb-board", "pm-root");
  const obs = view.observation;
  kit.redraw(root, () => {
    const order = kit.viewerFirst(view);
    const phase = obs.phase === "spell" && obs.spell ? `casting ${obs.spell}` : obs.phase;
    const ending = obs.end_needed ? ["end of the game"] : [];
    return [
      kit.el(
        "header",
        { class: "pm-top" },
        // solo has no rounds: the Territories are its progress
        obs.solo
          ? tip(kit.el("strong", { "data-key": "progress" }, soloProgress(obs.solo)), view, soloProgress(obs.solo), ["territory"])
          : kit.el("strong", {}, `Round ${obs.round}`),
        kit.turnLine(view),
        tip(kit.el("span", { class: "pm-phase", "data-key": "phase" }, phase), view, `Step: ${phase}`, ["turn"]),
        obs.end_needed ? tip(kit.el("span", { "data-key": "end" }, `pre-printed spaces enclosed ${obs.pre_printed_enclosed}/${obs.end_needed}`), view, "The end of the game", ending) : null,
        obs.end_triggered ? tip(kit.el("strong", { class: "pm-last", "data-key": "last" }, "last round"), view, "The last round", ending) : null,
        kit.moveButtons(view, ctx, {
          pass: PASS_WORDS[obs.phase] || "Pass",
          skip: obs.phase === "draw" ? "Forfeit this symbol (no room)" : "Skip",
        }),
      ),
      kit.el(
        "div",
        { class: "pm-layout" },
        kit.el("div", { class: "pm-map-wrap" }, zoomedMap(root, view, ctx), legend(view)),
        kit.el("div", { class: "pm-side" }, dice(view, ctx), relics(view, ctx, view.seat !== null), archive(view, ctx), soloPanel(view)),
      ),
      kit.el("div", { class: "pm-seats" }, order.map((p) => seatSection(view, ctx, p))),
    ];
  });
}
