// Battle Merchants: the game board (four Regions around the Season Area, each a road of
// Battlefields from the centre outwards with two facing Weapon Spaces and a Demand Token),
// the face-up Craft and Kingdom Cards, the Craft Bonus cards, the merchants' mats (gold,
// Craft Levels, Weapon supply, Reward Tiles) and, with 2 players, Salesman Steve. Every card,
// tile, token, race, Region, track and mat explains itself (a tip on hover, focus and tap) with
// its text from the data files: view.static.texts, the terminal's `card NAME`.
import * as kit from "./kit.js";

const STEPS = {
  forge: "forging: up to the limit, or stop",
  sell: "a second sale, or stop",
  "free-craft": "take a Craft Card for free",
  "free-forge": "forge a Standard Weapon for free",
};

const SIZE = 940;
const C = SIZE / 2;
const STEP = 56;
const FIRST = 118;
const TILE = 42;
const COLOURS = { red: "#c0392b", purple: "#7b3fa0", yellow: "#d4a017", blue: "#1f5fa8", steve: "#555" };
// dark enough for their names on the board and for white text on them (WCAG AA)
const RACE_COLOURS = { orc: "#2f5a12", dwarf: "#7a3a1a", elf: "#1a5532", hobgoblin: "#6e2424" };
// the Weapon Spaces' glyphs and marks on the board are its drawing: a space's name says them
const HIDDEN = { "aria-hidden": "true" };
const PLURAL = { orc: "Orcs", dwarf: "Dwarves", elf: "Elves", hobgoblin: "Hobgoblins" };
// clockwise corners: the direction from the centre to each Region's outer corner
const CORNERS = [
  [-1, -1],
  [1, -1],
  [1, 1],
  [-1, 1],
];

/**
 * Make ``node`` explain itself with the data files' text of ``name`` (view.static.texts),
 * after ``facts``: what the observation says of this one (who holds it, what it wants).
 */
function tip(view, node, name, heading = name, facts = "") {
  const text = ((view.static || {}).texts || {})[name];
  if (!text && !facts) return node;
  return kit.explain(node, [facts, text].filter(Boolean).join("\n"), heading);
}

/** A Craft Card's name in the texts: its label with a capital letter ("Axe +2 (x2)"). */
function craftName(label) {
  return label ? label[0].toUpperCase() + label.slice(1) : "";
}

/** A Weapon Space's occupant as people say it: "Red's Vorpal Axe", "Salesman Steve's Mace". */
function holder(weapon, demand) {
  const [owner, vorpal] = weapon.split(" ");
  const who = owner === "steve" ? "Salesman Steve" : kit.titled(owner);
  return `${who}'s ${vorpal ? "Vorpal" : "Standard"} ${kit.titled(demand)}`;
}

/** A Weapon's glyph in a 20x20 box centred on (0, 0). */
export function weaponGlyph(weapon, attrs = {}) {
  const paths = {
    sword: "M -7 7 L 6 -6 M 4 -8 L 8 -4 M -4 2 L -2 4 M -9 2 L -2 9",
    axe: "M -6 8 L 6 -6 M 1 -9 Q 10 -8 9 1 L 3 -4 Z",
    mace: "M -7 8 L 3 -2 M 4 -7 a 4 4 0 1 0 0.1 0 M 4 -10 v 2 M 9 -5 h -2 M 4 1 v 2 M -1 -5 h 2",
    hammer: "M -6 8 L 4 -2 M -1 -5 L 6 -12 L 11 -7 L 4 0 Z",
  };
  return kit.svg("path", { d: paths[weapon] || "", class: `bm-glyph bm-${weapon}`, ...attrs });
}

function flame(x, y) {
  return kit.svg(
    "g",
    { class: "bm-token bm-fire" },
    kit.svg("circle", { cx: x, cy: y, r: 11 }),
    kit.svg("path", {
      d: `M ${x} ${y - 8} C ${x + 7} ${y - 1} ${x + 6} ${y + 7} ${x} ${y + 7} C ${x - 6} ${y + 7} ${x - 7} ${y - 1} ${x} ${y - 8} Z`,
      class: "bm-flame",
    }),
    kit.svg("path", {
      d: `M ${x} ${y - 1} C ${x + 3} ${y + 2} ${x + 3} ${y + 6} ${x} ${y + 6} C ${x - 3} ${y + 6} ${x - 3} ${y + 2} ${x} ${y - 1} Z`,
      class: "bm-flame-core",
    }),
  );
}

function lock(x, y) {
  return kit.svg(
    "g",
    { class: "bm-token bm-lock" },
    kit.svg("circle", { cx: x, cy: y, r: 11 }),
    kit.svg("rect", { x: x - 4.5, y: y - 1, width: 9, height: 7, rx: 1, class: "bm-lock-body" }),
    kit.svg("path", { d: `M ${x - 3} ${y - 1} v -3 a 3 3 0 0 1 6 0 v 3`, class: "bm-lock-arc" }),
  );
}

function ownerColour(owner) {
  return COLOURS[owner] || "#444";
}

/** One Weapon Space: the Weapon it demands, or the Weapon sold there. */
function weaponSpace(view, ctx, id, demand, weapon, x, y, race) {
  const moves = kit.movesWhere(view, (t) => {
    const words = t.split(" ");
    return (words[0] === "sell" || words[0] === "bonus") && words[words.length - 1] === id;
  });
  const [owner, vorpal] = weapon ? weapon.split(" ") : [null, null];
  const g = kit.svg(
    "g",
    {
      class: `bm-space${weapon ? " bm-filled" : ""}${moves.length ? " bm-target" : ""}`,
      "data-space": id,
      "data-key": `space:${id}`,
      transform: `translate(${x},${y})`,
    },
    kit.svg("rect", {
      x: -TILE / 2,
      y: -TILE / 2,
      width: TILE,
      height: TILE,
      rx: 6,
      class: "bm-tile",
      style:
        (weapon ? `fill:${ownerColour(owner)};` : "") +
        `stroke:${vorpal ? "#ffcf33" : RACE_COLOURS[race] || "#6b4f2a"}`,
    }),
    weaponGlyph(demand, { transform: "scale(1.35)" }),
    vorpal ? kit.svg("g", { class: "bm-vorpal" }, kit.svg("circle", { cx: 13, cy: -13, r: 7 }), kit.svg("text", { x: 13, y: -9 }, "V")) : null,
  );
  const [regionName, raceName, n] = id.split("/");
  const people = PLURAL[raceName] || kit.titled(raceName);
  // what the space is, for a screen reader: "Sword space, Mountains Battlefield 2, Elves' side, empty"
  const label =
    `${kit.titled(demand)} space, ${kit.titled(regionName)} Battlefield ${n}, ${people}' side, ` +
    (weapon ? `holds ${holder(weapon, demand)}` : "empty");
  const heading = `Weapon Space: ${kit.titled(regionName)} Battlefield ${n}, ${people}' side`;
  const facts = weapon
    ? `Holds ${holder(weapon, demand)}, sold to the ${people}.`
    : `Wants ${/^[aeiou]/.test(demand) ? "an" : "a"} ${kit.titled(demand)}, sold to the ${people}; empty.`;
  tip(view, g, weapon ? (vorpal ? "Vorpal Weapon" : "Standard Weapon") : "Weapon Space", heading, facts);
  return kit.place(g, moves, ctx, label);
}

/**
 * A Battlefield's Demand Token: fire (open), lock (closed), or gone (a dot); a finger may tap
 * the whole gap between the two Weapon Spaces to learn it.
 */
function token(view, kind, x, y, where) {
  const drawn = kind === "fire" ? flame(x, y) : kind === "lock" ? lock(x, y) : kit.svg("circle", { cx: x, cy: y, r: 5, class: "bm-gone" });
  const g = kit.svg("g", { class: `bm-battlefield-token bm-is-${kind || "gone"}` }, kit.svg("rect", { x: x - 13, y: y - TILE / 2 - 3, width: 26, height: TILE + 6, class: "bm-hit" }), drawn);
  if (kind === "fire") return tip(view, g, "Demand Token (fire)", `Demand Token, face up: ${where}`);
  if (kind === "lock") return tip(view, g, "Demand Token (lock)", `Demand Token, face down: ${where}`);
  return tip(view, g, "Open Battlefield", `No Demand Token: ${where}`);
}

function region(view, ctx, r, reg) {
  const [dx, dy] = CORNERS[r % 4];
  const nodes = [];
  // the road of Battlefields, from the centre outwards
  reg.battlefields.forEach((bf, i) => {
    const d = FIRST + i * STEP;
    const cx = C + dx * d;
    const cy = C + dy * d;
    const [wa, wb] = reg.demands[i].split("-");
    const left = dx < 0 ? 0 : 1; // which race sits on the left of the road
    const sideX = (side) => cx + (side === left ? -1 : 1) * (TILE / 2 + 13);
    nodes.push(
      kit.svg("rect", { x: cx - TILE - 15, y: cy - TILE / 2 - 3, width: 2 * TILE + 30, height: TILE + 6, rx: 8, class: "bm-field", ...HIDDEN }),
      weaponSpace(view, ctx, `${reg.name}/${reg.races[0]}/${i + 1}`, wa, bf.weapons[0], sideX(0), cy, reg.races[0]),
      weaponSpace(view, ctx, `${reg.name}/${reg.races[1]}/${i + 1}`, wb, bf.weapons[1], sideX(1), cy, reg.races[1]),
      token(view, bf.token, cx, cy, `${kit.titled(reg.name)} Battlefield ${i + 1}`),
    );
  });
  // off the road: the Region's name and tile and the first race on the far-x side, the
  // second race on the far-y side (each race's spaces are edged in its colour)
  const ax = C + dx * 320;
  const ay = C + dy * 150;
  const bx = C + dx * 150;
  const by = C + dy * 320;
  const raceText = (race, x, y) =>
    tip(
      view,
      kit.svg("text", { x, y, class: "bm-race-text", fill: RACE_COLOURS[race] }, kit.titled(race)),
      PLURAL[race] || kit.titled(race),
    );
  nodes.push(
    tip(view, kit.svg("text", { x: ax, y: ay - 8, class: "bm-region-text" }, kit.titled(reg.name)), kit.titled(reg.name), `${kit.titled(reg.name)} (a Region)`),
    raceText(reg.races[0], ax, ay + 14),
    raceText(reg.races[1], bx, by),
    reg.region_tile_on_board
      ? tip(
          view,
          hexTile(ax, ay + 40, kit.titled(reg.name)[0], "#7a5a2e"),
          `${kit.titled(reg.name)} Reward Tile`,
          `${kit.titled(reg.name)} Reward Tile`,
          "Still on the board.",
        )
      : null,
  );
  return kit.svg("g", { class: "bm-region", "data-region": reg.name }, nodes);
}

function hexTile(x, y, letter, fill) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = Math.PI / 6 + (i * Math.PI) / 3;
    pts.push(`${(x + Math.cos(a) * 12).toFixed(1)},${(y + Math.sin(a) * 12).toFixed(1)}`);
  }
  return kit.svg(
    "g",
    { class: "bm-hex" },
    kit.svg("circle", { cx: x, cy: y, r: 16, class: "bm-hit" }),
    kit.svg("polygon", { points: pts.join(" "), fill }),
    kit.svg("text", { x, y: y + 4, class: "bm-hex-text" }, letter),
  );
}

function centre(view) {
  const obs = view.observation;
  const st = view.static;
  const nodes = [
    kit.svg("rect", { x: C - 88, y: C - 88, width: 176, height: 176, rx: 14, class: "bm-centre" }),
    kit.svg("text", { x: C, y: C - 62, class: "bm-centre-title" }, kit.titled(obs.season)),
  ];
  const seasons = [kit.svg("rect", { x: C - 62, y: C - 53, width: 124, height: 30, class: "bm-hit" })];
  st.seasons.forEach((s, i) => {
    const current = s === obs.season;
    seasons.push(
      kit.svg("circle", { cx: C - 48 + i * 32, cy: C - 38, r: 9, class: `bm-season${current ? " bm-now" : ""}` }),
      kit.svg("text", { x: C - 48 + i * 32, y: C - 34, class: "bm-season-text" }, s[0].toUpperCase()),
    );
  });
  const now = view.over ? "The year is over." : `Now: ${kit.titled(obs.season)}.`;
  nodes.push(tip(view, kit.svg("g", { class: "bm-seasons" }, seasons), "Seasons", "The Seasons", now));
  const area = [
    kit.svg("rect", { x: C - 48, y: C - 20, width: 96, height: 48, class: "bm-hit" }),
    kit.svg("text", { x: C, y: C - 6, class: "bm-small" }, "Season Area"),
  ];
  for (let i = 0; i < st.season_tokens; i += 1) {
    const x = C - 30 + i * 30;
    area.push(i < obs.season_area ? flame(x, C + 14) : kit.svg("circle", { cx: x, cy: C + 14, r: 11, class: "bm-slot" }));
  }
  if (obs.season_ending && !view.over) area.push(kit.svg("text", { x: C, y: C + 44, class: "bm-warn" }, "War! Last turns"));
  const ending = obs.season_ending && !view.over ? " The Season is ending: these are its last turns." : "";
  nodes.push(
    tip(view, kit.svg("g", { class: "bm-area" }, area), "Season Area", "Season Area", `${obs.season_area} of ${st.season_tokens} Demand Tokens here.${ending}`),
  );
  // the races' Reward Tile spaces: who may still take one this Season
  const races = Object.entries(obs.reward_spaces);
  races.forEach(([race, colours], i) => {
    const y = C + 58 + i * 0;
    const x = C - 66 + i * 44;
    const waiting = colours.length ? `Waiting this Season for: ${colours.join(", ")}.` : "None left this Season.";
    nodes.push(
      tip(
        view,
        kit.svg(
          "g",
          { class: "bm-reward-space" },
          hexTile(x, y, kit.titled(race)[0], RACE_COLOURS[race] || "#777"),
          ...colours.map((c, k) => kit.svg("rect", { x: x - 12 + k * 7, y: y + 14, width: 6, height: 6, fill: ownerColour(c) })),
        ),
        `${kit.titled(race)} Reward Tile`,
        `${PLURAL[race] || kit.titled(race)}' Reward spaces`,
        waiting,
      ),
    );
  });
  return kit.svg("g", { class: "bm-centre-g" }, nodes);
}

function boardSvg(view, ctx) {
  const obs = view.observation;
  // one Tab stop for the board (a Weapon Space to sell on), the arrows to its other parts
  return kit.rove(
    kit.svg(
      "svg",
      { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "bm-board", "data-key": "board" },
      kit.svg("rect", { x: 4, y: 4, width: SIZE - 8, height: SIZE - 8, rx: 24, class: "bm-board-bg", ...HIDDEN }),
      kit.svg("path", { d: `M ${C} 10 V ${SIZE - 10} M 10 ${C} H ${SIZE - 10}`, class: "bm-borders", ...HIDDEN }),
      obs.regions.map((reg, r) => region(view, ctx, r, reg)),
      centre(view),
    ),
    "The game board",
  );
}

function craftCard(view, ctx, face, i) {
  if (!face) return kit.el("div", { class: "bm-card bm-gap", role: "img", "aria-label": "Empty space" }, "—");
  const moves = kit.movesWhere(view, (t) => t === `learn ${i + 1}`);
  const node = kit.el(
    "div",
    { class: `bm-card bm-craft bm-w-${face.weapon}`, "data-key": `learn:${i + 1}` },
    kit.el("div", { class: "bm-levels" }, "▲".repeat(face.levels)),
    kit.el("div", { class: "bm-card-weapon" }, iconSvg(face.weapon), kit.titled(face.weapon)),
    kit.el("div", { class: "bm-cost" }, kit.titled(face.cost), face.coins ? kit.el("span", { class: "bm-coins" }, ` ●${face.coins}`) : null),
  );
  const name = craftName((view.observation.craft_cards || [])[i]);
  tip(view, node, name, `Craft Card (space ${i + 1}): ${name}`);
  return kit.place(node, moves, ctx, `Craft Card ${i + 1}: ${kit.titled(face.weapon)} +${face.levels}`);
}

function iconSvg(weapon, size = 22) {
  return kit.svg("svg", { viewBox: "-12 -12 24 24", width: size, height: size, class: "bm-icon", ...HIDDEN }, weaponGlyph(weapon));
}

function kingdomCard(view, ctx, card, i) {
  if (!card) return kit.el("div", { class: "bm-card bm-gap", role: "img", "aria-label": "Empty space" }, "—");
  const moves = kit.movesWhere(view, (t) => t === `kingdom ${i + 1}`);
  const node = kit.el(
    "div",
    { class: `bm-card bm-kingdom bm-${card.duration}`, "data-key": `kingdom:${i + 1}` },
    kit.el("div", { class: "bm-card-title" }, card.name),
    kit.el("div", { class: "bm-card-text" }, card.text),
    kit.el("div", { class: "bm-card-foot" }, kit.titled(card.duration), card.gold ? ` ${card.gold > 0 ? "+" : ""}${card.gold} gold` : ""),
  );
  tip(view, node, card.name, `Kingdom Card (space ${i + 1}): ${card.name}`);
  return kit.place(node, moves, ctx, `Kingdom Card ${i + 1}: ${card.name}`);
}

function mat(view, ctx, p) {
  const obs = view.observation;
  const st = view.static;
  const seat = obs.seats[p];
  const mine = view.seat === p;
  const rows = st.weapons.map((w) => {
    const moves = mine ? kit.movesWhere(view, (t) => t === `forge ${w}` || t === `forge vorpal ${w}`) : [];
    const level = seat.levels[w];
    const std = seat.supply[w] || 0;
    const vor = seat.supply[`vorpal ${w}`] || 0;
    const boxes = [];
    for (let k = 1; k <= 8; k += 1) {
      boxes.push(
        kit.el("span", {
          class: `bm-lv${k <= level ? " bm-on" : ""}${k === st.vorpal_level ? " bm-vorpal-mark" : ""}${k === st.bonus_level ? " bm-bonus-mark" : ""}`,
        }),
      );
    }
    const row = kit.el(
      "div",
      { class: "bm-mat-row", "data-key": `forge:${p}:${w}` },
      iconSvg(w, 20),
      kit.el("span", { class: "bm-w-name" }, kit.titled(w)),
      kit.el("span", { class: "bm-track", ...HIDDEN }, boxes, level > 8 ? `+${level - 8}` : ""),
      kit.el("span", { class: "bm-disc" }, seat.discounts[w] ? `−${seat.discounts[w]}` : ""),
      kit.el("span", { class: "bm-supply" }, std ? `${std}×` : "", vor ? kit.el("strong", {}, ` ${vor}×V`) : ""),
    );
    const unsold = [std ? `${std} Standard` : "", vor ? `${vor} Vorpal` : ""].filter(Boolean).join(" and ");
    const facts =
      `${kit.titled(w)} Craft Level ${level}` +
      (seat.discounts[w] ? `; each ${kit.titled(w)} costs ${seat.discounts[w]} gold less to forge` : "") +
      `. Unsold: ${unsold || "none"}.` +
      ` A Standard ${kit.titled(w)} costs ${st.chart.standard.forge} to forge and sells for ${st.chart.standard.sell};` +
      ` a Vorpal one ${st.chart.vorpal.forge} and ${st.chart.vorpal.sell}.`;
    tip(view, row, "Craft Level track", `${kit.titled(w)} Craft`, facts);
    const said = `${kit.titled(w)}: Craft Level ${level}${seat.discounts[w] ? `, ${seat.discounts[w]} gold off` : ""}, unsold ${unsold || "none"}`;
    return kit.place(row, moves, ctx, said);
  });
  const tiles = Object.entries(seat.reward_tiles).map(([name, n]) =>
    tip(
      view,
      kit.el("span", { class: "bm-tile-chip", style: `background:${RACE_COLOURS[name] || "#7a5a2e"}` }, `${kit.titled(name)}${n > 1 ? ` ×${n}` : ""}`),
      `${kit.titled(name)} Reward Tile`,
      `${kit.titled(name)} Reward Tile${n > 1 ? ` ×${n}` : ""}`,
      n > 1 ? `${n} on this mat: ${n} more gold per sale.` : "",
    ),
  );
  const status = view.over ? "" : kit.deciding(view, p) ? "to act" : "";
  // one Tab stop for a mat (a Weapon to forge), the arrows to its other parts
  return kit.rove(kit.el(
    "section",
    { class: `bm-mat${mine ? " bm-mine" : ""}`, style: `--seat:${ownerColour(seat.colour)}`, "aria-label": `${kit.seatName(view, p)}'s mat`, "data-key": `mat:${p}` },
    kit.el(
      "header",
      {},
      tip(view, kit.el("strong", {}, `${kit.seatName(view, p)} · ${kit.titled(seat.colour)}`), `${kit.titled(seat.colour)} mat`),
      status ? kit.el("span", { class: "bm-status" }, status) : null,
      tip(view, kit.el("span", { class: "bm-gold" }, `${seat.gold} gold`), "Gold", "Gold", `${kit.titled(seat.colour)} has ${seat.gold} gold.`),
    ),
    kit.el("div", { class: "bm-mat-rows" }, rows),
    kit.el(
      "div",
      { class: "bm-mat-foot" },
      tiles,
      seat.craft_bonus.map((b) =>
        tip(
          view,
          kit.el("span", { class: `bm-bonus-chip${b.face_up ? "" : " bm-used"}` }, `Bonus ${kit.titled(b.weapon)}`),
          `${kit.titled(b.weapon)} Craft Bonus`,
          `${kit.titled(b.weapon)} Craft Bonus card`,
          b.face_up ? "Face up: usable this Season." : "Face down: used this Season.",
        ),
      ),
      seat.kingdom_cards.map((k) => tip(view, kit.el("span", { class: "bm-k-chip" }, k), k)),
      tip(
        view,
        kit.el("span", { class: "bm-small-text" }, `on board ${seat.on_board.standard}+${seat.on_board.vorpal}V · defeated ${seat.defeated.standard}+${seat.defeated.vorpal}V`),
        "Defeated Weapons",
        "Weapons on the board, Defeated Weapons",
        `On the board: ${seat.on_board.standard} Standard, ${seat.on_board.vorpal} Vorpal (repairs pay for each).` +
          ` Defeated pile: ${seat.defeated.standard} Standard, ${seat.defeated.vorpal} Vorpal.`,
      ),
    ),
  ), `${kit.seatName(view, p)}'s mat`, `mat:${p}`);
}

function steve(view) {
  const s = view.observation.steve;
  if (!s) return null;
  const order = s.races.map((r) => PLURAL[r] || kit.titled(r)).join(", ");
  const next = `Sells next to the ${PLURAL[s.next] || kit.titled(s.next)}. His cube goes through ${order}, one step after each sale, then back to the first.`;
  return kit.el(
    "section",
    { class: "bm-steve", "aria-label": "Salesman Steve" },
    tip(
      view,
      kit.el(
        "div",
        { class: "bm-steve-head" },
        kit.el("strong", {}, "Salesman Steve"),
        kit.el(
          "div",
          { class: "bm-steve-races" },
          s.races.map((r) => kit.el("span", { class: `bm-steve-race${r === s.next ? " bm-next" : ""}`, style: `border-color:${RACE_COLOURS[r]}` }, kit.titled(r))),
        ),
        kit.el("div", { class: "bm-small-text" }, `sells next to the ${PLURAL[s.next] || kit.titled(s.next)}`),
      ),
      "Salesman Steve",
      "Salesman Steve",
      next,
    ),
    view.observation.side_board_links
      ? tip(
          view,
          kit.el("div", { class: "bm-small-text" }, "Side board lines: ", view.observation.side_board_links.join(", ")),
          "Side board",
          "The side board's black lines",
          `Joined: ${view.observation.side_board_links.join(", ")}.`,
        )
      : null,
  );
}

export function render(root, view, ctx) {
  root.classList.add("rb-board", "bm-root");
  const obs = view.observation;
  const st = view.static;
  kit.redraw(root, () => {
    const faces = obs.craft_faces || [];
    const order = kit.viewerFirst(view);
    // the viewer's own mat heads the column beside the board: on a laptop's first screen
    const own = view.seat !== null && view.seat !== undefined ? order[0] : null;
    const others = own === null ? order : order.slice(1);
    return [
      kit.el(
        "header",
        { class: "bm-top" },
        tip(view, kit.el("strong", {}, `${kit.titled(obs.season)}`), "Seasons", "The Seasons", `Now: ${kit.titled(obs.season)}.`),
        kit.turnLine(view),
        tip(view, kit.el("span", {}, `Kingdom limit ${obs.kingdom_limit}`), "Kingdom Card limit", "Kingdom Card limit", `This Season: ${obs.kingdom_limit}.`),
        obs.step !== "turn" && obs.step !== "over" ? kit.el("span", { class: "bm-step" }, STEPS[obs.step] || obs.step) : null,
        kit.moveButtons(view, ctx, {
          done: obs.step === "forge" ? "Forge no more" : obs.step === "sell" ? "Sell no more" : "Done",
          pass: "Pass (no action possible)",
        }),
      ),
      kit.el(
        "div",
        { class: "bm-layout" },
        // on a phone the board keeps 0.94 of its size: a Demand Token's gap, its smallest
        // part, at least 24 px wide
        kit.el("div", { class: "bm-board-wrap" }, kit.zoomable(root, "board", boardSvg(view, ctx), "board", SIZE * 0.94)),
        kit.el(
          "div",
          { class: "bm-side" },
          own === null ? null : mat(view, ctx, own),
          kit.el("h2", {}, "Kingdom Cards", tip(view, kit.el("span", { class: "bm-deck" }, ` deck ${obs.decks.kingdom}`), "Kingdom deck", "Kingdom deck", `${obs.decks.kingdom} cards left.`)),
          kit.rove(kit.el("div", { class: "bm-cards" }, obs.kingdom_cards.map((k, i) => kingdomCard(view, ctx, k, i))), "Kingdom Cards"),
          kit.el("h2", {}, "Craft Cards", tip(view, kit.el("span", { class: "bm-deck" }, ` deck ${obs.decks.craft}`), "Craft deck", "Craft deck", `${obs.decks.craft} cards left in this deck.`)),
          kit.rove(kit.el("div", { class: "bm-cards" }, faces.map((f, i) => craftCard(view, ctx, f, i))), "Craft Cards"),
          kit.el(
            "div",
            { class: "bm-bonus-cards" },
            "Craft Bonus cards: ",
            st.weapons.map((w) =>
              tip(
                view,
                kit.el("span", { class: `bm-bonus-chip${obs.craft_bonus_available.includes(w) ? "" : " bm-taken"}` }, iconSvg(w, 16), kit.titled(w)),
                `${kit.titled(w)} Craft Bonus`,
                `${kit.titled(w)} Craft Bonus card`,
                obs.craft_bonus_available.includes(w) ? "Not taken yet." : "Taken.",
              ),
            ),
          ),
          steve(view),
        ),
      ),
      others.length ? kit.el("div", { class: "bm-mats" }, others.map((p) => mat(view, ctx, p))) : null,
    ];
  });
}
