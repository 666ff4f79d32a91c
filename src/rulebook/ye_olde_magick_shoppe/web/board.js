// Ye Olde Magick Shoppe: the player sheet (shared with Merchants of Magick, ./sheet.js) and
// this game's own parts: the Bonus Modifier (down or up triangle) each row circles, the Charms
// that circle the next Bonus Modifier Value, the Glyphs, the Bonus Modifier Value tracks.
import { renderSheetGame, tip } from "./sheet.js";
import { el, svg } from "./kit.js";

function triangle(x, y, kind) {
  const d = kind === "minus" ? `M ${x - 7} ${y - 6} h 14 l -7 12 z` : `M ${x - 7} ${y + 6} h 14 l -7 -12 z`;
  return svg("path", { d, class: `yoms-tri yoms-${kind}` });
}

function rowReward(row, x, y) {
  const nodes = [triangle(x - 8, y, row.bonus_kind)];
  if (row.advances) {
    nodes.push(svg("text", { x: x + 10, y: y + 4, class: "rb-reward-text yoms-adv" }, row.advances === "minus" ? "−»" : "+»"));
  }
  if (row.glyph) {
    nodes.push(svg("text", { x: x + 10, y: y + 4, class: "rb-reward-text yoms-adv" }, "★"));
  }
  return svg("g", {}, nodes);
}

function track(kind, values, current, count, text, mine) {
  const sign = kind === "minus" ? "−" : "+";
  const node = el(
    "div",
    { class: "yoms-track", "aria-label": `${count} ${kind} Bonus Modifiers, each ${sign}${current}` },
    el(
      "span",
      { class: "yoms-count" },
      `${kind === "minus" ? "▼" : "▲"} × ${count}`,
    ),
    el("span", { class: "rb-label" }, "value"),
    values.map((v) =>
      el("span", { class: `yoms-value${v === current ? " yoms-circled" : ""}` }, `${sign}${v}`),
    ),
  );
  return tip(node, text, `${kind === "minus" ? "Minus" : "Plus"} Bonus Modifiers`, mine);
}

function seatPanel(seat, mine, view) {
  const values = view.static.modifier_values;
  const b = seat.bonus_modifiers;
  const v = seat.bonus_values;
  return [
    el("div", { class: "rb-label" }, mine ? "Your Bonus Modifiers" : "Bonus Modifiers"),
    track("minus", values.minus, -v.minus, b.minus, view.static.explain.minus, mine),
    track("plus", values.plus, v.plus, b.plus, view.static.explain.plus, mine),
  ];
}

export function render(root, view, ctx) {
  renderSheetGame(root, view, ctx, {
    rowReward,
    seatPanel,
    extraBox: () => "",
    cardValue: (card) => `${card.stars} ★`,
  });
}
