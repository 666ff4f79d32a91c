// The player sheet of the roll-and-write games (Merchants of Magick, Ye Olde Magick Shoppe),
// drawn from view.static (the printed sheet) and view.observation (marks, dice, lines).
// A game's board.js calls renderSheetGame(root, view, ctx, parts) with its own printed parts:
//   parts.rowReward(row)       -> SVG nodes drawn at the end of a row (a Potion, a triangle)
//   parts.seatPanel(seat, me)  -> HTML nodes: the seat's own components (Potions, Adventurer)
//   parts.extraBox(cost, i)    -> the label of an Extra Dice box
//   parts.cardValue(card)      -> the text of a card's value
// Every part explains itself (kit.js explain: a tip on hover, focus, tap) with its text from
// view.static (the data files, in Python): dice, columns, rows, circles, row rewards, cards,
// Masteries, Extra Dice, the score, the deck, the solo rating. The other seats' sheets are
// drawn smaller, with a "Zoom in" control on phones.
import {
  choose,
  control,
  deciding,
  el,
  explain,
  movesWhere,
  place,
  redraw,
  rove,
  seatName,
  svg,
  titled,
  turnLine,
  uiState,
  zoomable,
} from "./kit.js";

const ROW_H = 30;
const HEAD_H = 46;
const GROUP_H = 26; // a finger's 24 px on a phone
const NAME_W = 128;
const VALUE_W = 30;
const COL_W = 44;
const REWARD_W = 40;
const DIE_COLOURS = { d6: "#c0392b", d8: "#2e7d32", d10: "#1f5fa8", d12: "#7b3fa0" };

/**
 * ``node`` explains itself with ``text`` (kit.js explain); ``focusable`` false keeps it out of
 * the Tab order (the other seats' parts: hover and tap still show it).
 */
export function tip(node, text, heading = "", focusable = true) {
  if (!focusable && text) node.setAttribute("tabindex", "-1");
  return explain(node, text, heading);
}

/** A die as its shape: d6 square, d8 diamond, d10 kite, d12 pentagon; value inside. */
export function dieShape(id, value, size, attrs = {}) {
  const s = size / 2;
  const colour = DIE_COLOURS[id] || "#555";
  let shape;
  if (id === "d6") {
    shape = svg("rect", { x: -s * 0.8, y: -s * 0.8, width: s * 1.6, height: s * 1.6, rx: s * 0.2 });
  } else if (id === "d8") {
    shape = svg("polygon", { points: `0,${-s} ${s * 0.9},0 0,${s} ${-s * 0.9},0` });
  } else if (id === "d10") {
    shape = svg("polygon", {
      points: `0,${-s} ${s * 0.9},${-s * 0.15} 0,${s} ${-s * 0.9},${-s * 0.15}`,
    });
  } else {
    const pts = [];
    for (let i = 0; i < 5; i += 1) {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
      pts.push(`${(Math.cos(a) * s).toFixed(1)},${(Math.sin(a) * s).toFixed(1)}`);
    }
    shape = svg("polygon", { points: pts.join(" ") });
  }
  shape.setAttribute("fill", colour);
  shape.setAttribute("class", "rb-die-body");
  return svg(
    "g",
    { class: "rb-die", ...attrs },
    shape,
    value === null
      ? null
      : svg("text", { class: "rb-die-value", y: size * 0.14, "font-size": size * 0.42 }, value),
  );
}

/** The value icon a row or card prints: a coin or a star, with the number. */
function valueIcon(kind, value, x, y) {
  const icon =
    kind === "coins"
      ? svg("circle", { cx: x, cy: y, r: 11, class: "rb-coin" })
      : svg("polygon", {
          class: "rb-star",
          points: starPoints(x, y, 12, 5.5),
        });
  return svg("g", {}, icon, svg("text", { x, y: y + 4, class: "rb-value-text" }, value));
}

function starPoints(x, y, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i += 1) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(x + Math.cos(a) * r).toFixed(1)},${(y + Math.sin(a) * r).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** The printed name of row ``id`` ("of the Elves"). */
export function rowName(st, id) {
  const row = st.rows.find((r) => r.id === id);
  return row ? row.name : titled(id);
}

/** An item with an enchantment, as the cards name them: "Everlasting Ring", "Ring of the Elves". */
export function itemName(st, item, enchantment) {
  const row = st.rows.find((r) => r.id === enchantment);
  const name = rowName(st, item);
  return row && row.category === "suffix" ? `${name} ${row.name}` : `${rowName(st, enchantment)} ${name}`;
}

/** The moves that mark circle ``cid`` now, for the selected die if it has one there. */
function circleMoves(view, cid, die) {
  const all = movesWhere(view, (t) => t === `free ${cid}` || t.endsWith(` ${cid}`));
  if (die) {
    const withDie = all.filter((m) => m.text === `${die} ${cid}`);
    if (withDie.length) return withDie;
  }
  return all;
}

/** One half of a sheet (crafting or research) as an SVG, for seat ``seat``. */
function sheetHalf(view, ctx, section, seat, interactive, parts, ui, own) {
  const st = view.static;
  const cols = st.columns.filter((c) => c.section === section);
  const rows = st.rows.filter((r) => r.section === section);
  const marked = new Set(seat.marked);
  const completed = new Set(seat.completed);
  const colX = Object.fromEntries(
    cols.map((c, i) => [c.id, NAME_W + VALUE_W + COL_W * i + COL_W / 2]),
  );
  const width = NAME_W + VALUE_W + COL_W * cols.length + REWARD_W;
  const nodes = [];
  // every part of a half is reachable by keyboard: the half is one Tab stop (rove, below)
  const p = view.observation.seats.indexOf(seat);
  // column heads: name and the dice that feed the column
  cols.forEach((c) => {
    const x = colX[c.id];
    const head = [svg("rect", { x: x - COL_W / 2, y: 0, width: COL_W, height: HEAD_H, class: "rb-col-head-band" })];
    head.push(svg("text", { x, y: 13, class: "rb-col-name" }, titled(c.id)));
    c.dice.forEach((d, i) => {
      const dx = x + (i - (c.dice.length - 1) / 2) * 13;
      head.push(dieShape(d, null, 12, { transform: `translate(${dx},27)` }));
    });
    head.push(
      svg(
        "text",
        { x, y: 44, class: "rb-col-sign" },
        section === "crafting" ? "≥ result" : "≤ result",
      ),
    );
    nodes.push(tip(svg("g", { class: "rb-col-head", "data-column": c.id, "data-key": `column:${p}:${c.id}` }, head), c.explain, titled(c.id)));
  });
  let y = HEAD_H;
  let group = null;
  const selected = ui.die;
  rows.forEach((row) => {
    if (row.category !== group) {
      group = row.category;
      nodes.push(
        tip(
          svg(
            "g",
            { class: "rb-group-head", "data-category": group, "data-key": `category:${p}:${group}` },
            svg("rect", { x: 0, y, width, height: GROUP_H, class: "rb-group-band" }),
            svg("text", { x: 6, y: y + 17, class: "rb-group" }, titled(group)),
          ),
          (st.categories || {})[group],
          titled(group),
        ),
      );
      y += GROUP_H;
    }
    const done = completed.has(row.id);
    const rowNodes = [
      svg("rect", {
        x: 0,
        y,
        width,
        height: ROW_H,
        class: `rb-row-band${done ? " rb-complete" : ""}`,
      }),
      svg(
        "text",
        {
          x: 6,
          y: y + 19,
          class: "rb-row-name rb-anchor",
          textLength: row.name.length > 15 ? NAME_W - 12 : null,
          lengthAdjust: "spacingAndGlyphs",
        },
        row.name,
      ),
      valueIcon(st.value, row.value, NAME_W + VALUE_W / 2, y + ROW_H / 2),
    ];
    if (done) {
      rowNodes.push(
        svg("path", {
          d: `M ${NAME_W - 14} ${y + 15} l 4 5 l 8 -10`,
          class: "rb-check",
        }),
      );
    }
    row.circles.forEach((c) => {
      const cx = colX[c.column];
      const cy = y + ROW_H / 2;
      const isMarked = marked.has(c.id);
      const moves = interactive && !isMarked ? circleMoves(view, c.id, selected) : [];
      const bySelected = selected && moves.some((m) => m.text === `${selected} ${c.id}`);
      const g = svg(
        "g",
        {
          class:
            "rb-circle" +
            (isMarked ? " rb-marked" : "") +
            (moves.length ? " rb-target" : "") +
            (bySelected ? " rb-by-selected" : ""),
          "data-circle": c.id,
          "data-key": interactive ? `circle:${c.id}` : null,
        },
        svg("circle", { cx, cy, r: 12.5, class: "rb-circle-ring" }),
        svg("text", { x: cx, y: cy + 4.5, class: "rb-threshold" }, c.threshold),
        isMarked
          ? svg("path", {
              d: `M ${cx - 7} ${cy - 7} L ${cx + 7} ${cy + 7} M ${cx + 7} ${cy - 7} L ${cx - 7} ${cy + 7}`,
              class: "rb-cross",
            })
          : null,
      );
      const label = `${row.name}, ${titled(c.column)} ${st.words.circle} ${c.at_least ? "≥" : "≤"} ${c.threshold}`;
      if (moves.length) place(g, moves, ctx, label);
      if (own) tip(g, isMarked ? `${c.explain}\nMarked.` : c.explain, `${row.name}: ${titled(c.column)}`);
      rowNodes.push(g);
    });
    const reward = parts.rowReward ? parts.rowReward(row, NAME_W + VALUE_W + COL_W * cols.length + REWARD_W / 2, y + ROW_H / 2) : null;
    if (reward) {
      // the whole end of the row is the reward's part (a finger's 24 px on a phone)
      const x0 = NAME_W + VALUE_W + COL_W * cols.length;
      reward.prepend(svg("rect", { x: x0 + 1, y: y + 1, width: REWARD_W - 2, height: ROW_H - 2, class: "rb-hit" }));
      reward.setAttribute("data-key", `reward:${p}:${row.id}`);
      rowNodes.push(tip(reward, row.reward_explain, `${row.name}: what it gives`));
    }
    nodes.push(tip(svg("g", { class: "rb-row", "data-row": row.id, "data-key": `row:${p}:${row.id}` }, rowNodes), row.explain, row.name));
    y += ROW_H;
  });
  const drawn = svg(
    "svg",
    { viewBox: `0 0 ${width} ${y + 2}`, class: `rb-sheet-half rb-${section}` },
    nodes,
  );
  // one Tab stop for the half (its first circle to mark), the arrows to its rows and circles
  const whose = p === view.seat ? "your sheet" : `the sheet of ${seatName(view, p)}`;
  return rove(drawn, `${st.words[section]} half of ${whose}`, `half:${section}:${p}`);
}

/** The dice tray: this round's results; the viewer picks one, then a circle. */
function diceTray(view, ctx, root, me, ui) {
  const obs = view.observation;
  const st = view.static;
  const spent = new Set(me ? me.results_spent : []);
  const usable = new Set(
    (view.legal || []).map((m) => m.text.split(" ")[0]).filter((d) => d in obs.dice),
  );
  if (ui.die && !usable.has(ui.die)) ui.die = null;
  const dice = st.dice.map((d) => {
    const value = obs.dice[d.id];
    const isSpent = spent.has(d.id);
    const node = svg(
      "svg",
      {
        viewBox: "-24 -24 48 48",
        class:
          "rb-tray-die" +
          (isSpent ? " rb-spent" : "") +
          (ui.die === d.id ? " rb-selected" : "") +
          (usable.has(d.id) ? " rb-usable" : ""),
        "data-die": d.id,
        "data-key": `die:${d.id}`,
      },
      dieShape(d.id, value, 44),
    );
    const label = `${d.id} shows ${value}${isSpent ? " (spent)" : ""}`;
    if (usable.has(d.id)) {
      control(
        node,
        `${label}: ${ui.die === d.id ? "selected" : `select it, then a ${st.words.circle}`}`,
        () => {
          ui.die = ui.die === d.id ? null : d.id;
          ctx.announce(ui.die ? `${d.id} selected: choose a ${st.words.circle}` : "no die selected");
          renderSheetGame(root, view, ctx, ui.parts);
        },
        ui.die === d.id,
      );
    } else node.setAttribute("aria-label", label);
    const slot = el("div", { class: "rb-die-slot", "data-die-slot": d.id }, node, el("span", { class: "rb-die-name", "aria-hidden": "true" }, d.id));
    // a die to select explains itself (focus, a long press: a tap selects it); else its slot
    tip(usable.has(d.id) ? node : slot, d.explain, `${d.id}: ${value}`);
    return slot;
  });
  const doneMoves = movesWhere(view, (t) => t === "done");
  const doneButton = doneMoves.length
    ? place(
        el("button", { class: "rb-done", type: "button", "data-key": "done" }, "Done this round"),
        doneMoves,
        ctx,
      )
    : null;
  const free = me && me.free_marks ? el("span", { class: "rb-hint" }, `Make your free mark: click any open ${st.words.circle}`) : null;
  const hint = usable.size
    ? el(
        "span",
        { class: "rb-hint" },
        ui.die ? `${ui.die} selected: click a glowing ${st.words.circle}` : `Click a ${st.words.circle} (or pick a die first)`,
      )
    : null;
  return el(
    "section",
    { class: "rb-tray", "aria-label": "Dice" },
    el("div", { class: "rb-dice" }, dice),
    el("div", { class: "rb-tray-actions" }, free || hint, doneButton),
  );
}

function cardNode(card, st, parts, small = false) {
  const texts = st.explain || {};
  if (card.empty) {
    return tip(el("div", { class: "rb-card rb-empty", "aria-label": "empty space" }), texts.empty, "Empty space", !small);
  }
  if (card.face_down) {
    return tip(
      el("div", { class: "rb-card rb-back", "aria-label": "face-down card" }, el("span", {}, "?")),
      texts.face_down,
      "Face-down card",
      !small,
    );
  }
  const value = card[st.value];
  const node = el(
    "div",
    {
      class: `rb-card${card.kind === "connoisseur" ? " rb-connoisseur" : ""}${small ? " rb-small" : ""}`,
      "data-rows": [card.item, ...card.enchantments].join(" "),
      "aria-label": `${card.name}: ${value} ${st.words.value}`,
    },
    el("div", { class: "rb-card-name" }, card.name),
    small
      ? null
      : el(
          "div",
          { class: "rb-card-needs" },
          [card.item, ...card.enchantments].map((r) => el("span", { class: "rb-need" }, rowName(st, r))),
        ),
    el(
      "div",
      { class: "rb-card-value" },
      parts.cardValue ? parts.cardValue(card) : `${value} ${st.words.value}`,
    ),
  );
  return tip(node, (st.cards || {})[card.name], card.name, !small);
}

function lineNode(seat, st, parts, small = false) {
  const line = seat[st.line] || [];
  return el(
    "div",
    { class: "rb-line" },
    line.map((c) => cardNode(c, st, parts, small)),
    seat.waiting && seat.waiting.length
      ? [
          tip(el("div", { class: "rb-waiting-mark" }, "waiting"), (st.explain || {}).waiting, "Waiting", !small),
          seat.waiting.map((c) => cardNode(c, st, parts, small)),
        ]
      : null,
  );
}

function extraDice(seat, st, parts) {
  const node = el(
    "div",
    { class: "rb-extra", "aria-label": `Extra Dice: ${seat.extra_dice_used} used` },
    el("span", { class: "rb-label" }, "Extra Dice"),
    st.extra_dice_costs.map((cost, i) =>
      el(
        "span",
        { class: `rb-box${i < seat.extra_dice_used ? " rb-used" : ""}` },
        parts.extraBox ? parts.extraBox(cost, i) : "",
      ),
    ),
  );
  return tip(node, (st.explain || {}).extra, "Extra Dice");
}

function masteries(view, me) {
  const obs = view.observation;
  const st = view.static;
  return el(
    "div",
    { class: "rb-masteries", "aria-label": st.words.masteries },
    obs.masteries.map((m, k) =>
      tip(el(
        "div",
        { class: `rb-mastery rb-${m.kind}` },
        el("div", { class: "rb-card-name" }, m.name),
        el("div", {}, `${m.circles} ${st.words.circles} in ${titled(m.column)}`),
        el("div", { class: "rb-card-value" }, `${m.value} ${st.words.value} (${m.side})`),
        me && me.masteries[k] !== null
          ? el("div", { class: "rb-scored" }, `scored ${me.masteries[k]}`)
          : null,
      ), (st.cards || {})[m.name], m.name),
    ),
  );
}

function sheetOf(view, ctx, seat, interactive, parts, ui, own = true) {
  return el(
    "div",
    { class: "rb-sheet" },
    sheetHalf(view, ctx, "crafting", seat, interactive, parts, ui, own),
    sheetHalf(view, ctx, "research", seat, interactive, parts, ui, own),
  );
}

function scoreLine(seat, st, own = true) {
  const parts = Object.entries(seat.breakdown || {})
    .filter(([, v]) => v)
    .map(([k, v]) => `${titled(k)} ${v}`);
  return tip(
    el(
      "div",
      { class: "rb-score" },
      el("strong", {}, `${seat.score} ${st.words.value}`),
      parts.length ? ` (${parts.join(", ")})` : "",
    ),
    (st.explain || {}).score,
    "Score",
    own,
  );
}

function rival(root, view, ctx, p, parts, ui) {
  const seat = view.observation.seats[p];
  const st = view.static;
  const status = view.over ? "" : deciding(view, p) ? "deciding" : seat.done ? "done" : "";
  return el(
    "section",
    { class: "rb-rival", "aria-label": `${seatName(view, p)}'s sheet` },
    el(
      "header",
      {},
      el("strong", {}, seatName(view, p)),
      status ? el("span", { class: `rb-status rb-${status}` }, status) : null,
      scoreLine(seat, st, false),
    ),
    zoomable(root, `rival-${p}`, sheetOf(view, ctx, seat, false, parts, ui, false), `sheet of ${seatName(view, p)}`),
    lineNode(seat, st, parts, true),
    parts.seatPanel ? el("div", { class: "rb-panel rb-small" }, parts.seatPanel(seat, false, view)) : null,
  );
}

/** Draw the whole table for the viewer. */
export function renderSheetGame(root, view, ctx, parts = {}) {
  const ui = uiState(root, { die: null });
  ui.parts = parts;
  root.classList.add("rb-board", "rb-sheetgame");
  const obs = view.observation;
  const st = view.static;
  const mine = view.seat === null ? 0 : view.seat;
  const me = obs.seats[mine];
  const interactive = view.seat !== null && (view.legal || []).length > 0;
  redraw(root, () => {
    const head = el(
      "header",
      { class: "rb-top" },
      el("strong", {}, `Round ${obs.round}/${obs.rounds}`),
      turnLine(view),
      tip(el("span", { class: "rb-deck" }, `${st.words.line} deck: ${obs.deck.cards}`), (st.explain || {}).deck, `${st.words.line} deck`),
    );
    const myLine = el(
      "section",
      { class: "rb-line-wrap", "aria-label": `${view.seat === null ? seatName(view, 0) : "Your"} ${st.words.line}` },
      tip(el("h2", {}, `${view.seat === null ? seatName(view, 0) : "Your"} ${st.words.line}`), (st.explain || {}).line, st.words.line),
      lineNode(me, st, parts),
    );
    const side = el(
      "aside",
      { class: "rb-side" },
      scoreLine(me, st),
      parts.seatPanel ? el("div", { class: "rb-panel" }, parts.seatPanel(me, true, view)) : null,
      extraDice(me, st, parts),
      masteries(view, me),
      st.ratings
        ? tip(
            el(
              "div",
              { class: "rb-ratings" },
              "Solo rating: ",
              st.ratings.map(([s, n]) => `${n} ${s}+`).join(", "),
              obs.rating ? el("strong", {}, ` — ${obs.rating}`) : null,
            ),
            (st.explain || {}).rating,
            "Solo rating",
          )
        : null,
    );
    const rivals = obs.seats
      .map((_, p) => p)
      .filter((p) => p !== mine)
      .map((p) => rival(root, view, ctx, p, parts, ui));
    return [
      head,
      view.over ? null : diceTray(view, ctx, root, interactive ? me : null, ui),
      myLine,
      el("div", { class: "rb-main" }, sheetOf(view, ctx, me, interactive, parts, ui), side),
      rivals.length
        ? el("section", { class: "rb-rivals", "aria-label": "The other shoppes" }, rivals)
        : null,
    ];
  });
}

export { choose };
