// Archmagi: Spell cards with a Top and a Bottom Action, the Magic Pool (face down), the
// discard and exhausted piles, the three Monster Paths, every Magi's Ability Card, Crystals,
// Favor and Planted area, the viewer's own Hand (never another's), and the decisions inside a
// turn: the Flow of Magic, Search, Draft, "you may", discards. Every card, pile, token, phase
// and symbol explains itself (kit.explain) with the texts of the board's static data: the
// cards' as `card NAME` shows them, the symbols' and the table's from data/glossary.toml.
import { deciding, el, explain, movesWhere, place, redraw, rove, seatName, titled, turnLine, viewerFirst } from "./kit.js";

const ASKS = {
  discard: "Discard a Spell from your Hand",
  limit: "Discard down to the hand limit",
  plant: "Plant a Spell from your Hand",
  uproot: "Uproot a Planted Spell",
  search: "Search: take one Spell into your Hand",
  return: "Put the rest back on top of the Magic Pool (the last returned lies on top)",
  look: "Draft one of the top Spells of your Spell Book",
  draft: "Draft from your Spell Book, or Draw instead",
  may: "You may",
  flow: "Flow of Magic",
  pay: "Flow of Magic: discard a Spell to take it",
};

/** The symbol of the SYMBOLS GUIDE that each decision is about, or the part of the table. */
const ABOUT = {
  discard: ["symbol", "discard"],
  limit: ["term", "Hand"],
  plant: ["symbol", "plant"],
  uproot: ["symbol", "uproot"],
  search: ["symbol", "search"],
  return: ["symbol", "search"],
  look: ["symbol", "look_draft"],
  draft: ["symbol", "draft"],
  may: ["symbol", "may"],
  flow: ["term", "Flow of Magic"],
  pay: ["term", "Flow of Magic"],
};

/** Explain ``node`` with a part of the table (data/glossary.toml's terms). */
function explainTerm(node, view, name, heading = name) {
  return explain(node, (view.static.terms || {})[name], heading);
}

/** Explain ``node`` with a symbol of the SYMBOLS GUIDE, by its kind ("draw", "may"...). */
function explainSymbol(node, view, kind) {
  const symbol = (view.static.symbols || []).find((s) => s.kind === kind);
  return symbol ? explain(node, symbol.text, symbol.name) : node;
}

/** Explain ``node`` with a card's text (a Spell, a Magi, a Monster), as `card NAME` shows it. */
function explainCard(node, view, name) {
  return explain(node, (view.static.cards || {})[name], name);
}

function movesFor(view, verbs, name) {
  return movesWhere(view, (t) => verbs.some((v) => t === `${v} ${name}`));
}

/** A Spell card: name and element, the Top Action above the line, the Bottom Action below. */
function spellCard(view, ctx, name, opts = {}) {
  const spell = view.static.spells[name] || { element: "common", top: [], bottom: [] };
  const { top = [], bottom = [], whole = [], key = null, small = false } = opts;
  const common = spell.element === "common";
  const half = (which, lines, moves) => {
    const node = el(
      "div",
      { class: `am-half am-${which}`, "data-key": key ? `${key}:${which}` : null },
      el("span", { class: "am-half-name" }, which === "top" ? "Top" : "Bottom"),
      lines.length ? lines.join(", ") : "—",
    );
    // the half's own tip: what it does in plain words, and who may play it
    const part = common ? "Common Spell" : which === "top" ? "Top Action" : "Bottom Action";
    const words = spell[`${which}_words`];
    const rule = (view.static.terms || {})[part];
    const said = words ? `${words[0].toUpperCase()}${words.slice(1)}.` : "";
    explain(node, [said, rule].filter(Boolean).join("\n"), `${name}: ${common ? "Action" : part}`);
    return place(node, moves, ctx, `${name}, ${which} action`);
  };
  const card = el(
    "div",
    { class: `am-card am-${spell.element}${small ? " am-small" : ""}`, "data-spell": name, "data-key": key },
    el("div", { class: "am-card-name" }, name, el("span", { class: "am-element" }, titled(spell.element))),
    half("top", spell.top, top),
    spell.bottom.length ? half("bottom", spell.bottom, bottom) : null,
  );
  explainCard(card, view, name);
  return place(card, whole, ctx, name);
}

function pool(view, ctx) {
  const obs = view.observation;
  const draw = movesWhere(view, (t) => t === "draw");
  const top = obs.discard_pile[obs.discard_pile.length - 1];
  return rove(el(
    "section",
    { class: "am-piles", "aria-label": "Magic Pool and piles" },
    place(
      explainTerm(
        el("div", { class: "am-pile am-pool", "data-key": "pool" }, el("strong", {}, "Magic Pool"), el("span", { class: "am-count" }, obs.magic_pool), "face down"),
        view,
        "Magic Pool",
      ),
      draw,
      ctx,
      "Magic Pool",
    ),
    explainTerm(
      el(
        "div",
        { class: "am-pile am-discard", "aria-label": `Discard pile: ${obs.discard_pile.length} Spells` },
        el("strong", {}, "Discard pile"),
        el("span", { class: "am-count" }, obs.discard_pile.length),
        top ? `top: ${top}` : "empty",
      ),
      view,
      "Discard pile",
    ),
    explainTerm(
      el("div", { class: "am-pile am-exhausted" }, el("strong", {}, "Exhausted"), el("span", { class: "am-count" }, obs.exhausted.length)),
      view,
      "Exhausted pile",
    ),
    obs.play_area.length
      ? el(
          "div",
          { class: "am-play-area" },
          explainTerm(el("strong", {}, "Played this turn"), view, "Play Area"),
          el("div", { class: "am-row" }, obs.play_area.map((n) => spellCard(view, ctx, n, { small: true }))),
        )
      : null,
  ), "Magic Pool and piles");
}

function paths(view, ctx) {
  const obs = view.observation;
  const pass = obs.phase === "monster" ? movesWhere(view, (t) => t === "pass") : [];
  return el(
    "section",
    { class: "am-paths", "aria-label": "Monster Paths" },
    el(
      "h2",
      {},
      explainTerm(el("span", {}, "Monster Paths"), view, "Monster Paths"),
      pass.length ? place(el("button", { type: "button", class: "am-button", "data-key": "monster-pass" }, "Defeat none"), pass, ctx) : null,
    ),
    rove(el("div", { class: "am-path-list" }, obs.paths.map((path, tier) =>
      el(
        "div",
        { class: "am-path" },
        explainTerm(
          el("span", { class: "am-tier" }, `Tier ${tier + 1}`, el("small", {}, ` deck ${obs.monster_decks[tier]}`)),
          view,
          "Monster deck",
          `Tier ${tier + 1} Monster deck: ${obs.monster_decks[tier]} left`,
        ),
        path.length
          ? path.map((m) =>
              place(
                explainCard(
                  el(
                    "div",
                    { class: `am-monster am-tier${m.tier}`, "data-monster": m.name, "data-key": `monster:${m.name}` },
                    el("div", { class: "am-card-name" }, m.name),
                    el("div", { class: "am-cost" }, `◆ ${m.crystals}`, m.spells ? ` + ${m.spells} Spell${m.spells > 1 ? "s" : ""}` : ""),
                    el("div", { class: "am-reward" }, m.reward.length ? m.reward.join(", ") : "no reward"),
                    el("div", { class: "am-favor" }, `${m.favor} Favor`),
                  ),
                  view,
                  m.name,
                ),
                movesWhere(view, (t) => t === `defeat ${m.name}`),
                ctx,
                m.name,
              ),
            )
          : el("span", { class: "am-empty" }, "no Monster yet"),
      ),
    )), "The Monsters on the Paths"),
  );
}

function decision(view, ctx) {
  const obs = view.observation;
  const choice = obs.choice;
  if (!choice) return null;
  const mine = choice.seat === view.seat;
  const ask = ASKS[choice.kind] || choice.kind;
  const about = (node) => {
    const [what, name] = ABOUT[choice.kind] || [];
    return what === "symbol" ? explainSymbol(node, view, name) : what === "term" ? explainTerm(node, view, name) : node;
  };
  if (!mine) {
    return about(
      el(
        "section",
        { class: "am-decision am-waiting", "aria-live": "polite" },
        `Waiting for ${seatName(view, choice.seat)}: ${ask}`,
        choice.spell ? ` (${choice.spell})` : "",
      ),
    );
  }
  const body = [];
  if (choice.kind === "flow") {
    body.push(
      el("p", {}, `Another Magi discarded ${choice.spell}, a Spell of your element. Take it into your Hand?`),
      el(
        "div",
        { class: "am-row" },
        spellCard(view, ctx, choice.spell, { whole: movesWhere(view, (t) => t === `take ${choice.spell}`), key: "flow" }),
        place(el("button", { type: "button", class: "am-button", "data-key": "flow-pass" }, "Leave it"), movesWhere(view, (t) => t === "pass"), ctx),
      ),
    );
  } else if (choice.looking) {
    const verb = { search: "take", return: "return", look: "draft" }[choice.kind];
    body.push(
      el(
        "div",
        { class: "am-row" },
        choice.looking.map((n, i) =>
          spellCard(view, ctx, n, { whole: movesWhere(view, (t) => t === `${verb} ${n}`), key: `looking:${i}` }),
        ),
      ),
    );
  } else if (choice.effects) {
    body.push(el("p", {}, choice.effects.join(", ")));
  } else if (choice.spell) {
    body.push(
      el(
        "div",
        { class: "am-row" },
        el("p", {}, "Discard a Spell from your Hand (below) to take:"),
        spellCard(view, ctx, choice.spell, { small: true }),
      ),
    );
  }
  // the decision's own moves, named in plain words (what they do and cost)
  const buttons = movesWhere(view, (t) => ["use", "skip", "draft", "draw"].includes(t)).map((m) =>
    place(el("button", { type: "button", class: "am-button", "data-key": `decide:${m.text}` }, m.plain || m.explain), [m], ctx),
  );
  return el(
    "section",
    { class: `am-decision${choice.kind === "flow" || choice.kind === "pay" ? " am-flow" : ""}`, role: "group", "aria-label": ask },
    el("h2", {}, about(el("span", {}, ask))),
    body,
    buttons.length ? el("div", { class: "am-row" }, buttons) : null,
  );
}

function handOf(view, ctx) {
  const obs = view.observation;
  if (!obs.hand) return null;
  const kind = obs.choice && obs.choice.seat === view.seat ? obs.choice.kind : null;
  // copies of a Spell are the same moves: each copy is a place for them
  const cards = obs.hand.map((name, i) => {
    const opts = { key: `hand:${i}` };
    if (kind === "discard" || kind === "limit" || kind === "pay") opts.whole = movesFor(view, ["discard"], name);
    else if (kind === "plant") opts.whole = movesFor(view, ["plant"], name);
    else if (!kind) {
      opts.top = movesFor(view, ["top"], name);
      opts.bottom = movesFor(view, ["bottom", "both", "plant"], name);
    }
    return spellCard(view, ctx, name, opts);
  });
  const end = obs.phase === "play" && !kind ? movesWhere(view, (t) => t === "end") : [];
  return el(
    "section",
    { class: "am-hand", "aria-label": "Your Hand" },
    el(
      "h2",
      {},
      explainTerm(el("span", {}, `Your Hand (${obs.hand.length})`), view, "Hand", "Your Hand"),
      obs.phase === "play" && obs.turn === view.seat
        ? explainTerm(el("span", { class: "am-plays" }, ` · ${obs.plays} Play${obs.plays === 1 ? "" : "s"} left`), view, "Plays")
        : null,
      end.length ? place(el("button", { type: "button", class: "am-button", "data-key": "end" }, "End Play Phase"), end, ctx) : null,
    ),
    rove(el("div", { class: "am-row" }, cards.length ? cards : el("span", { class: "am-empty" }, "no Spells")), "The Spells in your Hand"),
  );
}

function magiMat(view, ctx, p) {
  const obs = view.observation;
  const seat = obs.seats[p];
  const magi = (view.static.magi || []).find((m) => m.element === seat.element);
  const mine = view.seat === p;
  const uproot = mine && obs.choice && obs.choice.kind === "uproot" && obs.choice.seat === p;
  return rove(el(
    "section",
    { class: `am-mat am-${seat.element}${mine ? " am-mine" : ""}`, "aria-label": `${seatName(view, p)}: ${seat.magi}`, "data-key": `mat:${p}` },
    el(
      "header",
      {},
      explainTerm(el("strong", {}, `${seatName(view, p)} · ${seat.magi}`), view, "Magi", seat.magi),
      !view.over && deciding(view, p) ? el("span", { class: "am-status" }, obs.turn === p && !obs.choice ? "turn" : "deciding") : null,
      explainTerm(el("span", { class: "am-favor-total" }, `${seat.favor} Favor`), view, "Favor", `${seat.favor} Favor`),
    ),
    magi ? explainCard(el("div", { class: "am-ability" }, magi.ability), view, magi.name) : null,
    el(
      "div",
      { class: "am-stats" },
      explainTerm(el("span", { class: "am-crystals", "aria-label": `${seat.crystals} Crystals` }, `◆ ${seat.crystals}`), view, "Crystals", `${seat.crystals} Crystals`),
      explainTerm(el("span", {}, `Hand ${seat.hand}`), view, "Hand", `Hand: ${seat.hand} Spells`),
      explainTerm(el("span", {}, `Spell Book ${seat.spell_book}`), view, "Spell Book", `Spell Book: ${seat.spell_book} Spells`),
    ),
    seat.planted.length
      ? el(
          "div",
          { class: "am-planted" },
          explainTerm(el("span", { class: "am-label" }, "Planted"), view, "Planted area"),
          el(
            "div",
            { class: "am-row" },
            seat.planted.map((n, i) =>
              spellCard(view, ctx, n, {
                small: true,
                whole: uproot ? movesFor(view, ["uproot"], n) : [],
                key: `planted:${p}:${i}`,
              }),
            ),
          ),
        )
      : null,
    seat.monsters.length
      ? el(
          "div",
          { class: "am-trophies" },
          "Defeated: ",
          seat.monsters.map((name, i) => [i ? ", " : "", explainCard(el("span", { class: "am-trophy" }, name), view, name)]),
        )
      : null,
  ), `${seatName(view, p)}: ${seat.magi}`, `mat:${p}`);
}

/** The SYMBOLS GUIDE: each symbol the Spells' and Monsters' texts name, explained. */
function symbolGuide(view) {
  const symbols = view.static.symbols || [];
  if (!symbols.length) return null;
  return rove(el(
    "section",
    { class: "am-symbols", "aria-label": "Symbols" },
    el("strong", {}, "Symbols:"),
    symbols.map((s) => explain(el("span", { class: "am-symbol" }, s.name), s.text, s.name)),
    ["Crystals", "Favor"].map((name) => explainTerm(el("span", { class: "am-symbol" }, name), view, name)),
  ), "Symbols");
}

export function render(root, view, ctx) {
  root.classList.add("rb-board", "am-root");
  const obs = view.observation;
  redraw(root, () => {
    const order = viewerFirst(view);
    return [
      el(
        "header",
        { class: "am-top" },
        explainTerm(el("strong", {}, `Round ${obs.round}/${obs.rounds}`), view, "Round", `Round ${obs.round} of ${obs.rounds}`),
        obs.last_turn ? el("strong", { class: "am-last" }, "last turns") : null,
        turnLine(view),
        view.over
          ? null
          : explainTerm(el("span", { class: "am-phase" }, `${seatName(view, obs.turn)}: ${titled(obs.phase)} Phase`), view, `${titled(obs.phase)} Phase`),
      ),
      decision(view, ctx),
      el("div", { class: "am-table" }, pool(view, ctx), paths(view, ctx)),
      handOf(view, ctx),
      el("div", { class: "am-mats" }, order.map((p) => magiMat(view, ctx, p))),
      symbolGuide(view),
    ];
  });
}
