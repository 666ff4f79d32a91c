// Pandoria Merchants: the Map sheet as an SVG hex map (Resources, Workers, Swamps, lakes with
// their Ship spaces, rivers; in solo the Territories and Bridges), the two Resource dice, the
// Realm sheet (Spell/Building Cards, Resource tracks, Relics, Monuments) of every realm, the
// family version's Spell Archive and Guilds, and the Trolls in solo.
import {
  deciding,
  el,
  movesWhere,
  place,
  redraw,
  seatName,
  svg,
  titled,
  moveButtons,
  turnLine,
  zoomable,
} from "./kit.js";

const PASS_WORDS = { action: "No Spell, Building, Relic or Monument", buy: "Buy no Card" };

const R = 20;
const W = Math.sqrt(3) * R;
const PAD = 26;
const SEAT_COLOURS = ["#c0392b", "#1f5fa8", "#2e7d32", "#7b3fa0"];
const KIND_OF = { W: "wood", C: "crystal", K: "craft", G: "gold", T: "city" };
const KIND_COLOURS = { wood: "#3f7d20", crystal: "#7d3fb0", craft: "#b7791f", gold: "#d4a017", city: "#8a5a44" };
const TERRITORY_TINTS = ["#f7efd9", "#e9f2dc", "#f6e3dd", "#e1ecf5", "#f3e9c8", "#ece0f2", "#dff0ec", "#f4e6d0", "#e8e8e8"];
const HEX_VERBS = new Set(["wood", "crystal", "craft", "gold", "city", "worker", "ship", "swamp", "rage", "bridge"]);

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
  const g = svg("g", { class: `pm-sym pm-${kind}`, transform: `translate(${x},${y}) scale(${s})` });
  if (kind === "wood") {
    g.append(svg("path", { d: "M 0 -11 L 8 3 H -8 Z M -1.5 3 v 6 h 3 v -6", fill: c }));
  } else if (kind === "crystal") {
    g.append(svg("path", { d: "M 0 -11 L 7 -2 L 0 10 L -7 -2 Z M -7 -2 H 7", fill: c, stroke: "#fff", "stroke-width": 1 }));
  } else if (kind === "craft") {
    g.append(svg("path", { d: "M -9 -2 H 7 L 5 3 H -4 L -6 9 H 6 M -9 -2 L -9 -6 H 3 L 7 -2", fill: c, stroke: "#5a3a00", "stroke-width": 1 }));
  } else if (kind === "gold") {
    g.append(svg("circle", { r: 8.5, fill: c, stroke: "#7a5a00", "stroke-width": 1.5 }), svg("text", { y: 4, class: "pm-coin" }, "G"));
  } else if (kind === "city") {
    g.append(svg("path", { d: "M -9 9 V -1 L -5 -6 L -1 -1 V -4 L 3 -10 L 8 -4 V 9 Z", fill: c, stroke: "#3b2418", "stroke-width": 1 }));
  } else {
    g.append(svg("text", { y: 5, class: "pm-wild" }, "?"));
  }
  return g;
}

function worker(seat, x, y) {
  return svg(
    "g",
    { class: "pm-worker" },
    svg("path", {
      d: `M ${x} ${y - 12} a 4.5 4.5 0 1 1 0.1 0 z M ${x - 9} ${y + 11} q 0 -13 9 -14 q 9 1 9 14 z`,
      fill: SEAT_COLOURS[seat % 4],
      stroke: "#111",
      "stroke-width": 1,
    }),
    svg("text", { x, y: y + 9, class: "pm-worker-n" }, seat + 1),
  );
}

function shipGlyph(x, y, seat) {
  return svg(
    "g",
    { class: "pm-ship" },
    svg("path", { d: `M ${x - 11} ${y + 2} h 22 l -5 7 h -12 z`, fill: seat === null ? "#f3ead6" : SEAT_COLOURS[seat % 4], stroke: "#3b2418" }),
    svg("path", { d: `M ${x} ${y + 1} V ${y - 12} L ${x + 8} ${y - 2} Z`, fill: "#fff", stroke: "#3b2418" }),
  );
}

function hexMoves(view, name) {
  return movesWhere(view, (t) => {
    const [verb, arg] = t.split(" ");
    return HEX_VERBS.has(verb) && arg === name;
  });
}

function mapSvg(view, ctx) {
  const obs = view.observation;
  const st = view.static;
  const rows = obs.map.rows;
  const letters = obs.map.columns;
  const terr = obs.map.territories;
  const solo = obs.solo || null;
  const nodes = [];
  const width = PAD * 2 + W * (letters.length + 0.5);
  const height = PAD * 2 + R * (1.5 * rows.length + 0.5) + (st.boundary ? 14 : 0);
  // column letters and row numbers, as players call hexes ("C7")
  letters.forEach((l, c) => nodes.push(svg("text", { x: PAD + W / 2 + c * W + W / 4, y: 14, class: "pm-label" }, l)));
  rows.forEach((_, r) => nodes.push(svg("text", { x: 10, y: centre(0, r)[1] + 4, class: "pm-label" }, r + 1)));
  const hexes = [];
  const marks = [];
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
      const g = svg(
        "g",
        { class: classes.join(" "), "data-hex": name, "data-key": `hex:${name}` },
        svg("polygon", { points: hexPoints(x, y), class: "pm-hex-shape", style: fill ? `fill:${fill}` : null }),
      );
      let what = "empty";
      if (sym === "S") {
        g.append(shipGlyph(x, y, /\d/.test(mark) ? Number(mark) : null));
        what = /\d/.test(mark) ? `Ship space with ${seatName(view, Number(mark))}'s Ship` : "Ship space";
      } else if (sym === "~") {
        what = "lake";
      } else if (sym === "#") {
        what = "Swamp";
      } else if (KIND_OF[sym]) {
        g.append(symbol(KIND_OF[sym], x, y));
        what = KIND_OF[sym];
        if (mark === "@") {
          g.append(svg("polygon", { points: hexPoints(x, y, R - 4), class: "pm-start" }));
          what += " (Starting space)";
        } else if (mark === "*") {
          g.append(svg("circle", { cx: x + 10, cy: y - 9, r: 3, class: "pm-printed" }));
          what += " (pre-printed)";
        } else if (mark === "a") {
          g.append(svg("path", { d: `M ${x + 7} ${y - 14} l 5 5 l -5 5 l -5 -5 z`, class: "pm-artifact" }));
          what += " with an Artifact";
        } else if (mark === "x") {
          what += " (scored)";
        }
      } else if (/\d/.test(sym)) {
        g.append(worker(Number(sym), x, y));
        what = `${seatName(view, Number(sym))}'s Worker`;
      }
      place(g, moves, ctx, `${name}: ${what}`);
      if (!moves.length) g.setAttribute("aria-label", `${name}: ${what}`);
      (moves.length ? marks : hexes).push(g);
    }
  });
  nodes.push(...hexes, ...marks);
  // rivers between rows; the boundary river closes the map with fewer players
  (st.rivers || []).forEach((after) => {
    const y = centre(0, after - 1)[1] + R * 0.75;
    if (after > rows.length) return;
    let d = `M ${PAD - 8} ${y}`;
    for (let x = PAD - 8; x < width - PAD + 8; x += 24) d += ` q 6 -6 12 0 q 6 6 12 0`;
    nodes.push(svg("path", { d, class: `pm-river${after === st.boundary ? " pm-boundary" : ""}` }));
  });
  // solo: Bridges between Territories
  (st.bridges || []).forEach(([a, b]) => {
    const pos = (n) => {
      const c = letters.indexOf(n[0]);
      return centre(c, Number(n.slice(1)) - 1);
    };
    const [x1, y1] = pos(a);
    const [x2, y2] = pos(b);
    nodes.push(svg("line", { x1, y1, x2, y2, class: "pm-bridge" }));
  });
  return svg(
    "svg",
    { viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, class: "pm-map", role: "group", "aria-label": "The Map sheet" },
    nodes,
  );
}

function dice(view, ctx) {
  const obs = view.observation;
  const choose = movesWhere(view, (t) => t.startsWith("choose "));
  return el(
    "div",
    { class: "pm-dice", "aria-label": "Resource dice" },
    obs.dice.map((d, i) =>
      el(
        "div",
        { class: "pm-die", "aria-label": `die ${i + 1}: ${d === "?" ? "?" : d}` },
        svg("svg", { viewBox: "-16 -16 32 32", width: 40, height: 40 }, symbol(d === "?" ? "wild" : d, 0, 0, 1.1)),
      ),
    ),
    choose.length
      ? el(
          "div",
          { class: "pm-choose" },
          el("span", {}, "The ? die shows:"),
          choose.map((m) => {
            const kind = m.text.split(" ")[1];
            return place(
              el("span", { class: "pm-choice", "data-key": m.text }, svg("svg", { viewBox: "-14 -14 28 28", width: 30, height: 30 }, symbol(kind, 0, 0)), titled(kind)),
              [m],
              ctx,
            );
          }),
        )
      : null,
  );
}

function cardMoves(view, id) {
  return movesWhere(view, (t) => t.split(" ")[1] === id && !HEX_VERBS.has(t.split(" ")[0]));
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
    const colMoves = mine ? movesWhere(view, (t) => t === `trolls column-${col}`) : [];
    const header = place(
      el("div", { class: `pm-col-head${col === st.starting_column ? " pm-start-col" : ""}`, "data-key": `column:${col}` }, col === 1 ? "Start" : `${col}`, blocked.has(col) ? " ✗" : ""),
      colMoves,
      ctx,
      `column ${col}`,
    );
    columns.push(
      el(
        "div",
        { class: `pm-col${blocked.has(col) ? " pm-blocked" : ""}` },
        header,
        cards.map((c) => {
          const [spell, building] = c.card.split("/");
          const state = states[c.card] || "none";
          const moves = mine ? cardMoves(view, c.card) : [];
          const node = el(
            "div",
            { class: `pm-card pm-${state}`, "data-card": c.card, "data-key": `card:${p}:${c.card}` },
            el("div", { class: "pm-spell" }, el("span", { class: "pm-star" }, "★"), titled(spell), c.power ? ` ${c.power}` : "", el("span", { class: "pm-cost pm-crystal" }, `${c.crystals}`)),
            el("div", { class: "pm-building" }, el("span", { class: "pm-rect" }, "▭"), titled(building), el("span", { class: "pm-cost pm-woodc" }, `${c.wood}`)),
            el("div", { class: "pm-price" }, el("span", { class: "pm-oval" }, `${c.gold} gold`), state !== "none" ? el("span", { class: "pm-state" }, state) : null),
          );
          return place(node, moves, ctx, `${titled(spell)} / ${titled(building)}`);
        }),
      ),
    );
  }
  return el("div", { class: "pm-realm-cards" }, columns);
}

function tracks(view, seat) {
  const st = view.static;
  return el(
    "div",
    { class: "pm-tracks" },
    Object.entries(seat.tracks).map(([kind, v]) => {
      const boxes = [];
      for (let k = 0; k <= st.tracks.maximum; k += 1) boxes.push(el("span", { class: `pm-box${k === v ? " pm-on" : ""}` }, k));
      return el(
        "div",
        { class: "pm-track", "aria-label": `${kind} ${v}` },
        svg("svg", { viewBox: "-13 -13 26 26", width: 20, height: 20 }, symbol(kind, 0, 0, 0.9)),
        el("span", { class: "pm-track-name" }, titled(kind)),
        boxes,
      );
    }),
  );
}

function relics(view, ctx, mine) {
  const obs = view.observation;
  if (!obs.relics_left) return null;
  const rows = Object.entries(obs.relics_left).map(([name, values]) => {
    const n = name.split("-")[1];
    const moves = mine ? movesWhere(view, (t) => t === `relic ${n}` || t === `trolls ${name}`) : [];
    return place(
      el("div", { class: "pm-relic", "data-key": name }, `Relic (${n} Artifacts): `, values.join(" · ") || "none left"),
      moves,
      ctx,
      `Relic of ${n} Artifacts`,
    );
  });
  const monumentMoves = mine ? movesWhere(view, (t) => t === "trolls monument") : [];
  rows.push(
    place(
      el("div", { class: "pm-relic", "data-key": "monuments" }, "Monuments: ", obs.monuments_left.join(" · ") || "none left"),
      monumentMoves,
      ctx,
      "Monuments",
    ),
  );
  return el("div", { class: "pm-relics" }, rows);
}

function archive(view, ctx) {
  const obs = view.observation;
  if (!obs.archive) return null;
  const levels = [...new Set(obs.archive.map((r) => r.level))];
  return el(
    "section",
    { class: "pm-archive", "aria-label": "Spell Archive" },
    el("h3", {}, "Spell Archive"),
    levels.map((level) =>
      el(
        "div",
        { class: "pm-level" },
        el("span", { class: "pm-level-name" }, `Level ${level}`),
        obs.archive
          .filter((r) => r.level === level)
          .map((r) =>
            place(
              el(
                "div",
                { class: `pm-room${r.filling ? " pm-filling" : ""}`, "data-key": `room:${r.room}` },
                el("strong", {}, r.room),
                r.spells.map((s, i) => el("span", { class: `pm-room-spell${i < r.taken ? " pm-taken" : ""}` }, s)),
              ),
              movesWhere(view, (t) => t === `claim ${r.room}`),
              ctx,
              `room ${r.room}`,
            ),
          ),
      ),
    ),
  );
}

function familySeat(view, ctx, p, mine) {
  const seat = view.observation.seats[p];
  return el(
    "div",
    { class: "pm-family" },
    el("div", {}, `${seat.guild} Guild (${seat.guild_resource})`),
    el(
      "div",
      { class: "pm-spells" },
      "Spells: ",
      seat.spells.length
        ? seat.spells.map((s) => place(el("span", { class: "pm-spell-chip", "data-key": `spell:${p}:${s}` }, s), mine ? movesWhere(view, (t) => t === `cast ${s}`) : [], ctx, s))
        : "none",
      ` · used ${seat.used_spells}`,
    ),
  );
}

function soloPanel(view) {
  const s = view.observation.solo;
  if (!s) return null;
  const cells = s.table.map((v, i) => {
    const t = i + 1;
    return el(
      "tr",
      { class: t === s.territory && !view.over ? "pm-now" : "" }, // at the end, no Territory is current
      el("td", {}, t),
      el("td", {}, s.your_territory_scores[i] ?? (t === s.territory ? `${s.territory_points_now}…` : "")),
      el("td", {}, s.troll_scores[i] ?? v),
    );
  });
  return el(
    "section",
    { class: "pm-solo", "aria-label": "The Trolls" },
    el("h3", {}, `The Trolls (${s.level})`),
    el("table", {}, el("tr", {}, el("th", {}, "Territory"), el("th", {}, "You"), el("th", {}, "Trolls")), cells),
    el("div", {}, `Trolls total ${s.trolls_total}`, s.troll_columns.length ? ` · columns taken: ${s.troll_columns.join(", ")}` : "", s.troll_claims.length ? ` · claims: ${s.troll_claims.join(", ")}` : ""),
    s.final ? el("strong", {}, `${view.observation.rating}: ${s.final}`) : null,
  );
}

function seatSection(view, ctx, p) {
  const obs = view.observation;
  const seat = obs.seats[p];
  const mine = view.seat === p;
  const ui = seat.tracks !== undefined;
  return el(
    "section",
    { class: `pm-seat${mine ? " pm-mine" : ""}`, style: `--seat:${SEAT_COLOURS[p % 4]}`, "aria-label": `${seatName(view, p)}'s Realm sheet` },
    el(
      "header",
      {},
      el("span", { class: "pm-seat-dot" }),
      el("strong", {}, seatName(view, p)),
      !view.over && deciding(view, p) ? el("span", { class: "pm-status" }, "to act") : null,
      el("span", { class: "pm-vp" }, `${seat.score} VP`),
      seat.ships && seat.ships.length ? el("span", {}, ` · Ship ${seat.ships.join(", ")}`) : null,
    ),
    ui
      ? [
          tracks(view, seat),
          el("div", { class: "pm-small" }, `Artifacts ${seat.artifacts}`, seat.relics.length ? ` · Relics ${seat.relics.join(", ")}` : "", seat.monuments.length ? ` · Monuments ${seat.monuments.join(", ")}` : ""),
          mine || view.seat === null ? realmSheet(view, ctx, p, mine) : compactCards(seat),
        ]
      : familySeat(view, ctx, p, mine),
  );
}

function compactCards(seat) {
  const parts = Object.entries(seat.cards || {}).map(([state, ids]) => `${state}: ${ids.join(", ")}`);
  return el("div", { class: "pm-small" }, parts.length ? parts.join(" · ") : "no Cards yet");
}

export function render(root, view, ctx) {
  root.classList.add("rb-board", "pm-root");
  const obs = view.observation;
  redraw(root, () => {
    const me = view.seat;
    const order = obs.seats.map((_, p) => p).sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
    const phase = obs.phase === "spell" && obs.spell ? `casting ${obs.spell}` : obs.phase;
    return [
      el(
        "header",
        { class: "pm-top" },
        el("strong", {}, `Round ${obs.round}`),
        turnLine(view),
        el("span", { class: "pm-phase" }, phase),
        obs.end_needed ? el("span", {}, `pre-printed spaces enclosed ${obs.pre_printed_enclosed}/${obs.end_needed}`) : null,
        obs.end_triggered ? el("strong", { class: "pm-last" }, "last round") : null,
        moveButtons(view, ctx, {
          pass: PASS_WORDS[obs.phase] || "Pass",
          skip: obs.phase === "draw" ? "Forfeit this symbol (no room)" : "Skip",
        }),
      ),
      el(
        "div",
        { class: "pm-layout" },
        el("div", { class: "pm-map-wrap" }, zoomable(root, "map", mapSvg(view, ctx), "map")),
        el("div", { class: "pm-side" }, dice(view, ctx), relics(view, ctx, me !== null), archive(view, ctx), soloPanel(view)),
      ),
      el("div", { class: "pm-seats" }, order.map((p) => seatSection(view, ctx, p))),
    ];
  });
}
