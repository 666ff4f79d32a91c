// Merchants of Magick: the Shoppe sheet (shared with Ye Olde Magick Shoppe, ./sheet.js) and
// this game's own parts: Potions, free marks, the Sponsored Adventurer, the Potion each row
// gives, the Charms' bonus Coins, the Extra Dice boxes' Potion costs.
import { itemName, renderSheetGame, tip } from "./sheet.js";
import { el, svg } from "./kit.js";

function potion(x, y, n) {
  return svg(
    "g",
    { class: "mom-potion" },
    svg("path", {
      d: `M ${x - 3} ${y - 11} h 6 v 5 l 5 7 a 7 7 0 0 1 -6 8 h -4 a 7 7 0 0 1 -6 -8 l 5 -7 z`,
      class: "mom-flask",
    }),
    svg("text", { x, y: y + 9, class: "rb-reward-text mom-potion-n" }, n),
  );
}

function rowReward(row, x, y) {
  const nodes = [potion(x - 6, y, `+${row.potions}`)];
  if (row.bonus) {
    const { coins } = row.bonus;
    nodes.push(svg("text", { x: x + 12, y: y + 4, class: "rb-reward-text mom-bonus" }, `+${coins}`));
  }
  return svg("g", {}, nodes);
}

function seatPanel(seat, mine, view) {
  const adv = seat.adventurer;
  const done = new Set(adv.fulfilled);
  const st = view.static;
  return [
    el(
      "div",
      { class: "mom-stock" },
      tip(
        el("span", { class: "mom-potions", "aria-label": `${seat.potions} Potions` }, `⚗ ${seat.potions} Potions`),
        st.explain.potions,
        "Potions",
        mine,
      ),
      seat.free_marks
        ? tip(el("span", { class: "mom-free" }, `${seat.free_marks} free mark`), st.explain.free_marks, "Free mark", mine)
        : null,
    ),
    tip(el(
      "div",
      { class: "mom-adventurer", "aria-label": `Sponsored Adventurer ${adv.name}` },
      el("div", { class: "rb-card-name" }, mine ? `Sponsored Adventurer: ${adv.name}` : adv.name),
      el(
        "div",
        { class: "mom-adv-orders" },
        adv.items.map((item) =>
          el(
            "span",
            { class: `mom-adv-order${done.has(item) ? " mom-fulfilled" : ""}` },
            `${done.has(item) ? "✔ " : ""}${itemName(view.static, item, adv.enchantment)}`,
          ),
        ),
      ),
      el("div", { class: "rb-card-value" }, `3 Orders: ${adv.coins} Coins`),
    ), st.cards[adv.name], `Sponsored Adventurer: ${adv.name}`, mine),
  ];
}

export function render(root, view, ctx) {
  renderSheetGame(root, view, ctx, {
    rowReward,
    seatPanel,
    extraBox: (cost) => (cost ? `${cost}⚗` : ""),
    cardValue: (card) => `${card.coins} Coins`,
  });
}
