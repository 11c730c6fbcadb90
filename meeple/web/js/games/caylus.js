// The Caylus table: the road with its buildings, owners and workers, the provost and the bailiff, the
// bridge (passing order), the special buildings, the castle's three sections, the royal favour table,
// the building stock and every player's deniers, cubes, prestige, houses and workers. Every legal action
// is something to click on the thing it concerns: a worker goes onto a road space or a special building,
// the provost onto the space it would reach, a building is built from its tile in the stock, a favour is
// taken on its row. Caylus has no secrets (every seat's view is the same); the page draws only `view`.

import { legalActions } from "../actions.js";
import { newestFirst } from "../changes.js";
import { el, explainKey, seatName, svg, t, tMaybe } from "../common.js";

const SEAT_COLOURS = ["#2f6db3", "#c0392b", "#2e8b57", "#e67e22", "#3b3b3b"];

// The printed components, from the engine's data (GET /api/games/caylus/components): the cube letters,
// the special buildings in board order, each building tile's kind, cost (cube letters, "+" for one
// cube of the builder's choice), prestige and favours, and the royal favour table's rows and columns.
let CUBES = [];
let SPECIALS = [];
let TILES = {};
let FAVOUR_ROWS = [];
let FAVOUR_COLUMNS = [];

/** Called once by games/index.js with the game's component data, before anything is drawn. */
export function useComponents(components) {
  CUBES = [...components.cubes];
  SPECIALS = components.specials.filter((slug) => slug !== "castle");  // the castle has its own panel
  TILES = components.tiles;
  FAVOUR_ROWS = components.favour_rows;
  FAVOUR_COLUMNS = Array.from({ length: components.favour_columns }, (_, i) => i + 1);
}

const bname = (slug) => tMaybe(`caylus.b.${slug}`) || slug;
const cubeName = (letter) => tMaybe(`caylus.cube.${letter}`) || letter;

function seatLabel(message, seat) {
  const info = message.table.seats[seat];
  return info ? seatName(info) : `#${seat + 1}`;
}

/** "ffc" -> "2 food + 1 cloth" in the page's language. */
function cubesText(text) {
  const counts = {};
  for (const letter of text) counts[letter] = (counts[letter] || 0) + 1;
  return CUBES.filter((c) => counts[c]).map((c) => `${counts[c]} ${cubeName(c)}`).join(" + ");
}

function targetText(target) {
  if (typeof target === "number") return t("caylus.ui.space_n", { n: target });
  return tMaybe(`caylus.special.${target}`) || target;
}

/** Provost steps as written on a button: +2, -1, 0. */
const signed = (steps) => (steps > 0 ? `+${steps}` : String(steps));

/** The amount paid in a church, tailor, bank or jeweller action (its one argument). */
const amountOf = (args) => args.deniers ?? args.cloth ?? args.gold;

/** An action ({notation, kind, args}) as a sentence in the page's language, e.g. a worker placed in the
 * castle -> "Place a worker in the castle". */
export function actionLabel(action) {
  const { kind, args } = action;
  switch (kind) {
    case "place": return t("caylus.action.place", { target: targetText(args.target) });
    case "gate": return args.target === "back" ? t("caylus.action.gate_back") : t("caylus.action.gate", { target: targetText(args.target) });
    case "guild": return t("caylus.action.guild", { k: signed(args.steps) });
    case "provost": return t("caylus.action.provost", { k: signed(args.steps) });
    case "joust": case "inn": return t(`caylus.action.${kind}_${args.choice}`);
    case "produce": case "buy": return t(`caylus.action.${kind}`, { cubes: cubesText(args.cubes) });
    case "bonus": case "sell": return t(`caylus.action.${kind}`, { cubes: cubesText(args.cube) });
    case "alch": return t("caylus.action.alch", { cubes: cubesText(args.cubes), n: args.cubes.length / 2 });
    case "church": case "tailor": case "bank": case "jewel": return t(`caylus.action.${kind}_${amountOf(args)}`);
    case "build":
      if (args.space !== undefined) return t("caylus.action.build_on", { building: bname(args.building), n: args.space });
      if (args.cube !== undefined) return t("caylus.action.build_with", { building: bname(args.building), cube: cubeName(args.cube) });
      return t("caylus.action.build", { building: bname(args.building) });
    case "lawyer": return t("caylus.action.lawyer", { n: args.space });
    case "castle": return t("caylus.action.castle", { cubes: cubesText(args.batch) });
    case "castle_done": return t("caylus.action.castle_done");
    case "favour": return t("caylus.action.favour", { row: t(`caylus.row.${args.row}`) });
    case "trade": return t("caylus.action.res_trade", { give: cubeName(args.give), get: cubesText(args.get) });
    case "res": return t("caylus.action.res", { cubes: cubeName(args.cube) });
    default: return tMaybe(`caylus.action.${kind}`) || action.notation;
  }
}

/** One log event as a sentence. */
export function eventText(event, message) {
  const who = event.seat === undefined ? "" : seatLabel(message, event.seat);
  switch (event.event) {
    case "action": return `${who}: ${actionLabel({ notation: event.action, kind: event.kind, args: event.args })}`;
    case "scoring": return t("caylus.event.scoring", { name: who, section: t(`caylus.section.${event.section}`),
      houses: event.houses, favours: event.favours, penalty: event.penalty });
    default: return tMaybe(`caylus.event.${event.event}`, { ...event, name: who }) || `${event.event} ${JSON.stringify(event)}`;
  }
}

// --- Icons ---------------------------------------------------------------------------------------------

function cubeIcon(letter, count = null) {
  return el("span", { class: `cube cube-${letter}`, title: cubeName(letter) }, count === null ? "" : String(count));
}

function cubesIcons(text) {
  return el("span", { class: "cubes" }, [...text].map((c) => (c === "+" ? el("span", { class: "cube cube-any", title: t("caylus.ui.any_cube") }, "?") : cubeIcon(c))));
}

function meeple(seat, extra = "") {
  return svg("svg", { class: `meeple ${extra}`, viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("path", {
      d: "M12 2a3.2 3.2 0 0 1 3.2 3.2c0 1.1-.5 2-1.3 2.6l5.6 2.3c1 .4 1 1.9 0 2.2l-3.1.6 3 8.1H15l-3-4.6-3 4.6H4.6l3-8.1-3.1-.6c-1-.3-1-1.8 0-2.2l5.6-2.3A3.2 3.2 0 0 1 12 2z",
      fill: SEAT_COLOURS[seat % SEAT_COLOURS.length], stroke: "#0006", "stroke-width": 0.8,
    }));
}

function seatDot(seat, title) {
  return el("span", { class: "seat-dot", style: `--sc:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`, title });
}

function coin(n) {
  return el("span", { class: "coin", title: t("caylus.ui.deniers") }, String(n));
}

// --- Actions sorted by the thing they concern ----------------------------------------------------------

function sortActions(actions, view) {
  const groups = { space: {}, special: {}, stock: {}, favour: {}, castle: [], choice: [], bar: [] };
  const add = (bucket, key, action) => {
    (bucket[key] ||= []).push(action);
  };
  for (const action of actions) {
    const { kind, args } = action;
    if (kind === "place" || (kind === "gate" && args.target !== "back")) {
      if (typeof args.target === "number") add(groups.space, String(args.target), action);
      else add(groups.special, args.target, action);
    } else if (kind === "gate") add(groups.special, "gate", action);
    else if (kind === "guild" || kind === "provost") add(groups.space, String(view.provost + args.steps), action);
    else if (kind === "joust" || kind === "inn") add(groups.special, kind, action);
    else if (kind === "lawyer") add(groups.space, String(args.space), action);
    else if (kind === "build") add(groups.stock, args.building, action);
    else if (kind === "favour") add(groups.favour, args.row, action);
    else if (kind === "castle" || kind === "castle_done") groups.castle.push(action);
    else if (kind === "pass") groups.bar.push(action);
    else groups.choice.push(action);  // produce, bonus, sell, buy, church, …, res, trade, skip
  }
  return groups;
}

function actionButton(action, context, text, extraClass = "") {
  return el("button", {
    class: `action clickable act-${action.kind} ${extraClass}`,
    dataset: { action: action.notation },
    title: actionLabel(action),
    onclick: (event) => {
      event.stopPropagation();
      context.act(action.notation);
    },
  }, text ?? actionLabel(action));
}

/** The short text of a button sitting on the thing it concerns. */
function shortLabel(action) {
  const { kind, args } = action;
  switch (kind) {
    case "place": return t("caylus.button.place");
    case "gate": return args.target === "back" ? t("caylus.button.gate_back") : t("caylus.button.gate");
    case "guild": case "provost": return t("caylus.button.provost", { k: signed(args.steps) });
    case "lawyer": return t("caylus.button.lawyer");
    case "joust": case "inn": return t(`caylus.button.${kind}_${args.choice}`);
    case "favour": return t("caylus.button.favour");
    case "build":
      if (args.space !== undefined) return t("caylus.button.build_on", { n: args.space });
      if (args.cube !== undefined) return [t("caylus.button.build"), " ", cubeIcon(args.cube)];
      return t("caylus.button.build");
    case "castle": return [t("caylus.button.castle"), " ", cubesIcons(args.batch)];
    case "castle_done": return t("caylus.button.castle_done");
    default: return null;
  }
}

/** Choice buttons with their cubes drawn, for phase-5 effects and favour cubes. */
function choiceContent(action) {
  const { kind, args } = action;
  const text = actionLabel(action);
  if (kind === "produce" || kind === "buy") return [cubesIcons(args.cubes), " ", text];
  if (["bonus", "sell", "res"].includes(kind)) return [cubesIcons(args.cube), " ", text];
  if (kind === "alch") return [cubesIcons(args.cubes), " → ", cubesIcons("g".repeat(args.cubes.length / 2)), " ", text];
  if (kind === "trade") return [cubesIcons(args.give), " → ", cubesIcons(args.get)];
  return text;
}

// --- Panels --------------------------------------------------------------------------------------------

function statusBar(view) {
  const chips = [
    el("span", { class: "chip" }, t("caylus.ui.turn", { n: view.turn })),
    view.phase ? el("span", { class: "chip" }, t(`caylus.phase.${view.phase}`)) : el("span", { class: "chip" }, t("caylus.ui.over")),
    el("span", { class: "chip", dataset: { path: "provost" } }, el("span", { class: "pawn provost-pawn" }), t("caylus.ui.provost_at", { n: view.provost })),
    el("span", { class: "chip", dataset: { path: "bailiff" } }, el("span", { class: "pawn bailiff-pawn" }), t("caylus.ui.bailiff_at", { n: view.bailiff })),
    el("span", { class: "chip muted" }, t("caylus.ui.favour_cap", { n: view.favour_cap })),
  ];
  if (view.options?.simplified_favours) chips.push(el("span", { class: "chip muted" }, t("caylus.ui.simplified")));
  return el("div", { class: "cy-status", id: "caylus-status" }, chips);
}

function pendingText(pending, message) {
  const params = { ...pending, name: seatLabel(message, pending.seat) };
  if (pending.building) params.building = bname(pending.building);
  if (pending.section) params.section = t(`caylus.section.${pending.section}`);
  return tMaybe(`caylus.pending.${pending.kind}`, params) || pending.kind;
}

function decisionPanel(view, message, groups, context) {
  const pending = view.pending;
  const mine = !context.readOnly && message.seat !== null && pending && pending.seat === message.seat;
  const parts = [];
  if (pending) parts.push(el("h3", {}, seatDot(pending.seat), " ", pendingText(pending, message)));
  if (pending && (pending.kind === "activate" || pending.kind === "bonus")) {
    parts.push(el("p", { class: "muted" }, t("caylus.ui.activating", { n: pending.space, building: bname(pending.building) })));
  }
  const choices = groups.choice.filter((a) => a.kind !== "skip");
  if (choices.length) {
    parts.push(el("div", { class: "choices", id: "choices" }, choices.map((n) => actionButton(n, context, choiceContent(n)))));
  }
  const bar = groups.choice.filter((a) => a.kind === "skip");
  if (bar.length) parts.push(el("div", { class: "action-bar", id: "actions" }, bar.map((n) => actionButton(n, context))));
  if (mine) {
    const hints = [];
    if (Object.keys(groups.space).length || Object.keys(groups.special).length) hints.push(t("caylus.hint.board"));
    if (groups.bar.length) hints.push(t("caylus.hint.pass"));
    if (Object.keys(groups.stock).length) hints.push(t("caylus.hint.stock"));
    if (Object.keys(groups.favour).length) hints.push(t("caylus.hint.favour"));
    if (groups.castle.length) hints.push(t("caylus.hint.castle"));
    if (hints.length) parts.push(el("p", { class: "hint" }, hints.join(" ")));
  }
  if (!parts.length) return null;
  return el("section", { class: `cy-decision panel${mine ? " mine" : ""}`, id: "decision" }, parts);
}

function roadSpace(space, view, message, groups, context) {
  const n = space.space;
  const actions = groups.space[String(n)] || [];
  const classes = ["space", `k-${space.kind}`];
  if (space.building === "residence") classes.push("k-residential");
  if (view.pending?.space === n && ["activate", "bonus"].includes(view.pending.kind)) classes.push("active");
  if (actions.length) classes.push("target");
  if (n > view.provost) classes.push("beyond");
  const owner = space.owner;
  return el("div", {
    class: classes.join(" "),
    dataset: { space: n, building: space.building ?? "", path: `road.${view.road.indexOf(space)}`, ...(space.building ? { explain: explainKey("caylus", space.building) } : {}) },
    style: owner === null ? null : `--owner:${SEAT_COLOURS[owner % SEAT_COLOURS.length]}`,
    title: space.building ? null : t("caylus.ui.empty_lot", { n }),
  },
  el("div", { class: "space-head" },
    el("span", { class: "space-n" }, String(n)),
    space.mark ? el("span", { class: `mark mark-${space.mark}`, title: t("caylus.ui.mark", { section: t(`caylus.section.${space.mark}`) }) },
      t(`caylus.section_short.${space.mark}`)) : null,
    owner !== null ? seatDot(owner, t("caylus.ui.owned_by", { name: seatLabel(message, owner) })) : null),
  el("div", { class: "space-name" }, space.building ? bname(space.building) : el("span", { class: "muted" }, t("caylus.ui.lot"))),
  el("div", { class: "space-tokens" },
    space.worker !== null ? el("span", { class: "worker", title: t("caylus.ui.worker_of", { name: seatLabel(message, space.worker) }) }, meeple(space.worker)) : null,
    view.provost === n ? el("span", { class: "pawn provost-pawn", title: t("caylus.ui.provost") }) : null,
    view.bailiff === n ? el("span", { class: "pawn bailiff-pawn", title: t("caylus.ui.bailiff") }) : null,
    space.becomes_residence_of !== null ? el("span", { class: "chip tiny", title: t("caylus.ui.becomes_residence", { name: seatLabel(message, space.becomes_residence_of) }) }, "⌂") : null),
  actions.length ? el("div", { class: "space-actions" }, actions.map((a) => actionButton(a, context, shortLabel(a)))) : null);
}

function roadPanel(view, message, groups, context) {
  return el("section", { class: "cy-road panel", id: "road" },
    el("h3", {}, t("caylus.ui.road"), el("span", { class: "muted small" }, ` · ${t("caylus.ui.road_hint")}`)),
    el("div", { class: "road" }, view.road.map((space) => roadSpace(space, view, message, groups, context))));
}

function specialCard(name, view, message, groups, context) {
  const sp = view.specials;
  const workers = [];
  if (name === "stables") {
    for (let i = 0; i < 3; i += 1) {
      const seat = sp.stables[i];
      workers.push(el("span", { class: "slot" }, seat === undefined ? "" : meeple(seat)));
    }
  } else if (name === "inn") {
    workers.push(el("span", { class: "slot", title: t("caylus.ui.inn_left") }, sp.inn_left === null ? "" : meeple(sp.inn_left)));
    workers.push(el("span", { class: "slot right", title: t("caylus.ui.inn_right") }, sp.inn_right === null ? "" : meeple(sp.inn_right)));
  } else {
    const seat = sp[name];
    workers.push(el("span", { class: "slot" }, seat === null || seat === undefined ? "" : meeple(seat)));
  }
  const actions = groups.special[name] || [];
  if (name === "stables" && view.players < 3) return null;
  const path = name === "inn" ? "specials.inn_left specials.inn_right" : `specials.${name}`;
  return el("div", { class: `special${actions.length ? " target" : ""}`, dataset: { special: name, path, explain: explainKey("caylus", name) } },
    el("strong", {}, t(`caylus.special.${name}`)),
    el("span", { class: "muted small effect" }, t(`caylus.special_effect.${name}`)),
    el("div", { class: "slots" }, workers),
    actions.length ? el("div", { class: "space-actions" }, actions.map((a) => actionButton(a, context, shortLabel(a)))) : null);
}

function castleCard(view, message, groups, context) {
  const castle = view.castle;
  const actions = groups.special.castle || [];
  const batches = groups.castle.filter((a) => a.kind === "castle");
  const done = groups.castle.filter((a) => a.kind === "castle_done");
  return el("section", { class: `cy-castle panel${actions.length || groups.castle.length ? " target" : ""}`, id: "castle", dataset: { special: "castle", path: "castle" } },
    el("h3", { dataset: { explain: explainKey("caylus", "castle") } }, t("caylus.special.castle"), el("span", { class: "muted small" }, ` · ${t("caylus.ui.castle_hint")}`)),
    el("div", { class: "sections" }, castle.sections.map((section, index) => el("div", {
      class: `section s-${section.name}${section.scored ? " scored" : ""}`,
      dataset: { section: section.name, path: `castle.sections.${index}`, explain: explainKey("caylus", `section.${section.name}`) },
    },
    el("div", { class: "section-head" }, el("strong", {}, t(`caylus.section.${section.name}`)),
      el("span", { class: "muted small" }, ` ${section.filled}/${section.size} · ${t("caylus.ui.scored_at", { n: section.mark })}`),
      section.scored ? el("span", { class: "chip tiny" }, t("caylus.ui.scored")) : null),
    el("div", { class: "houses" }, Array.from({ length: section.size }, (_, i) => {
      // houses are drawn grouped by seat, in seat order
      let k = i;
      let owner = null;
      for (let s = 0; s < section.houses.length; s += 1) {
        if (k < section.houses[s]) { owner = s; break; }
        k -= section.houses[s];
      }
      return el("span", { class: `house${owner === null ? " empty" : ""}`, style: owner === null ? null : `--sc:${SEAT_COLOURS[owner % SEAT_COLOURS.length]}` });
    })),
    el("div", { class: "muted small" }, section.houses.map((h, s) => (h ? `${seatLabel(message, s)} ${h}` : null)).filter(Boolean).join(" · "))))),
    el("div", { class: "castle-workers", dataset: { path: "castle.workers" } }, el("span", { class: "muted small" }, t("caylus.ui.castle_workers")),
      castle.workers.length ? castle.workers.map((s) => meeple(s)) : el("span", { class: "muted" }, " —")),
    actions.length || batches.length || done.length ? el("div", { class: "space-actions castle-actions" },
      actions.map((a) => actionButton(a, context, shortLabel(a))),
      batches.map((a) => actionButton(a, context, shortLabel(a))),
      done.map((a) => actionButton(a, context, shortLabel(a)))) : null);
}

function specialsPanel(view, message, groups, context) {
  return el("section", { class: "cy-specials panel", id: "specials" },
    el("h3", {}, t("caylus.ui.specials")),
    el("div", { class: "specials" }, SPECIALS.map((name) => specialCard(name, view, message, groups, context))));
}

function bridgePanel(view, message, groups, context) {
  return el("section", { class: `cy-bridge panel${groups.bar.length ? " target" : ""}`, id: "bridge" },
    el("h3", {}, t("caylus.ui.bridge")),
    groups.bar.length ? el("div", { class: "action-bar", id: "actions" }, groups.bar.map((n) => actionButton(n, context))) : null,
    el("div", { class: "order-row" }, el("span", { class: "muted small" }, t("caylus.ui.turn_order")),
      view.turn_order.map((s, i) => el("span", { class: "order-chip" }, `${i + 1}.`, seatDot(s), seatLabel(message, s)))),
    el("div", { class: "order-row" }, el("span", { class: "muted small" }, t("caylus.ui.passing_order")),
      view.passing_order.length ? view.passing_order.map((s, i) => el("span", { class: "order-chip" }, `${i + 1}.`, seatDot(s), seatLabel(message, s)))
        : el("span", { class: "muted" }, "—")));
}

function favourPanel(view, message, groups, context) {
  if (view.options?.simplified_favours) return null;
  const pending = view.pending;
  return el("section", { class: "cy-favours panel", id: "favours" },
    el("h3", {}, t("caylus.ui.favour_table"), el("span", { class: "muted small" }, ` · ${t("caylus.ui.favour_cap", { n: view.favour_cap })}`)),
    el("table", { class: "favour-table" }, el("tbody", {}, FAVOUR_ROWS.map((row) => {
      const actions = groups.favour[row] || [];
      return el("tr", { class: actions.length ? "target" : "", dataset: { row } },
        el("th", {}, t(`caylus.row.${row}`), actions.map((a) => actionButton(a, context, shortLabel(a)))),
        FAVOUR_COLUMNS.map((col) => {
          const here = view.players_state.filter((p) => p.favours[row] === col).map((p) => p.seat);
          const current = pending && ["favour_res", "favour_bld"].includes(pending.kind) && pending.column === col
            && ((pending.kind === "favour_res" && row === "res") || (pending.kind === "favour_bld" && row === "bld"));
          return el("td", { class: `${col > view.favour_cap ? "closed" : ""}${current ? " current" : ""}` },
            el("span", { class: "cell-text" }, t(`caylus.fav.${row}.${col}`)),
            el("span", { class: "markers" }, here.map((s) => seatDot(s, seatLabel(message, s)))));
        }));
    }))));
}

function stockCard(slug, count, view, groups, context) {
  const { kind, cost, prestige: pp, favours } = TILES[slug] || { kind: "wood", cost: "", prestige: 0, favours: 0 };
  const actions = groups.stock[slug] || [];
  return el("div", { class: `tile k-${kind}${actions.length ? " target" : ""}${count ? "" : " gone"}`,
    dataset: { tile: slug, path: `stock.${slug}`, explain: explainKey("caylus", slug) } },
    el("div", { class: "tile-name" }, bname(slug)),
    el("div", { class: "tile-cost" }, cubesIcons(cost)),
    el("div", { class: "tile-gain muted small" }, `★${pp}`, favours ? ` · ${t("caylus.ui.favours_n", { n: favours })}` : "", ` · ×${count}`),
    actions.length ? el("div", { class: "space-actions" }, actions.map((a) => actionButton(a, context, shortLabel(a)))) : null);
}

function stockPanel(view, message, groups, context) {
  const kinds = { wood: [], stone: [], prestige: [] };
  for (const [slug, count] of Object.entries(view.stock)) {
    if (slug === "jeweller" && !view.options?.jeweller) continue;
    kinds[TILES[slug]?.kind || "wood"].push([slug, count]);
  }
  return el("section", { class: "cy-stock panel", id: "stock" },
    el("h3", {}, t("caylus.ui.stock")),
    Object.entries(kinds).map(([kind, tiles]) => el("div", { class: "stock-group" },
      el("h4", {}, t(`caylus.kind.${kind}`)),
      el("div", { class: "tiles" }, tiles.map(([slug, count]) => stockCard(slug, count, view, groups, context))))));
}

function playerPanel(p, view, message, context) {
  const isMe = p.seat === message.seat;
  const turn = view.current_player === p.seat;
  const path = `players_state.${p.seat}`; // the view path of this player's board (js/changes.js)
  return el("section", { class: `cy-player panel${isMe ? " me" : ""}${turn ? " turn" : ""}`, dataset: { seat: p.seat, path, boardSeat: p.seat },
    style: `--sc:${SEAT_COLOURS[p.seat % SEAT_COLOURS.length]}` },
  el("header", {},
    meeple(p.seat, "big"),
    el("strong", { class: "seat-name" }, seatLabel(message, p.seat), isMe && !context.readOnly ? ` (${t("seat.you")})` : ""),
    el("span", { class: "prestige", title: t("caylus.ui.prestige"), dataset: { path: `${path}.prestige` } }, `★ ${p.prestige}`),
    el("span", { class: "deniers", dataset: { path: `${path}.deniers` } }, coin(p.deniers))),
  el("div", { class: "resources" }, CUBES.map((c) => el("span", { class: "res", dataset: { cube: c, path: `${path}.cubes.${c}` } }, cubeIcon(c, p.cubes[c])))),
  el("div", { class: "facts muted small", dataset: { path: `${path}.workers_available ${path}.workers_placed ${path}.houses` } },
    el("span", {}, t("caylus.ui.workers", { n: p.workers_available, placed: p.workers_placed })),
    el("span", {}, t("caylus.ui.houses", { n: p.houses[0] + p.houses[1] + p.houses[2] }),
      p.houses.some(Boolean) ? ` (${["dungeon", "walls", "towers"].map((x, i) => `${t(`caylus.section_short.${x}`)} ${p.houses[i]}`).join(" · ")})` : ""),
    view.phase === 6 && p.batches_this_turn ? el("span", {}, t("caylus.ui.batches", { n: p.batches_this_turn })) : null,
    !view.options?.simplified_favours && p.favour_rows_used.length
      ? el("span", {}, t("caylus.ui.rows_used", { rows: p.favour_rows_used.map((r) => t(`caylus.row.${r}`)).join(", ") })) : null));
}

function finalPanel(view, message) {
  if (!view.over || !view.final_scores) return null;
  const winners = view.winners || [];
  return el("section", { class: "cy-final panel", id: "caylus-final" },
    el("h3", {}, t("caylus.ui.final")),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, ["", t("caylus.ui.prestige"), t("caylus.ui.gold"), t("caylus.ui.plain_cubes"), t("caylus.ui.deniers"), t("caylus.ui.total")].map((h) => el("th", {}, h)))),
      el("tbody", {}, view.players_state.map((p) => {
        // the engine's end bonuses (§3.2), each [what the seat holds, the prestige it gives]: never computed here
        const bonus = (name) => { const [held, pp] = view.end_bonuses[p.seat][name]; return `${held} → ${pp}`; };
        return el("tr", { class: winners.includes(p.seat) ? "winner" : "" },
          el("td", {}, seatLabel(message, p.seat), winners.includes(p.seat) ? ` — ${t("table.winner")}` : ""),
          el("td", {}, String(p.prestige)), el("td", {}, bonus("gold")),
          el("td", {}, bonus("plain_cubes")), el("td", {}, bonus("deniers")),
          el("td", {}, el("strong", {}, String(view.final_scores[p.seat]))));
      }))));
}

/** The game's own log, newest first. */
export function renderLog(message) {
  const view = message.view;
  if (!view) return el("p", { class: "muted" }, "—");
  const entries = newestFirst(view, "log", 150);
  return el("div", { class: "cy-log", id: "game-log" },
    el("ul", { class: "log" }, entries.map(({ item, path }) => el("li", { class: `ev-${item.event}${item.auto ? " auto" : ""}`, dataset: { path } }, eventText(item, message)))));
}

export function render(message, context) {
  const view = message.view;
  if (!view) return el("p", { class: "muted waiting" }, t("table.waiting_for_players"));
  const groups = sortActions(context.readOnly ? [] : legalActions(message), view);
  const order = view.players_state.map((_, i) => (i + (message.seat ?? 0)) % view.players_state.length);
  return el("div", { class: "caylus" },
    statusBar(view),
    finalPanel(view, message),
    decisionPanel(view, message, groups, context),
    el("div", { class: "cy-players" }, order.map((s) => playerPanel(view.players_state[s], view, message, context)),
      bridgePanel(view, message, groups, context)),
    roadPanel(view, message, groups, context),
    el("div", { class: "cy-middle" },
      castleCard(view, message, groups, context),
      specialsPanel(view, message, groups, context)),
    favourPanel(view, message, groups, context),
    stockPanel(view, message, groups, context),
    context.readOnly ? el("section", { class: "panel" }, renderLog(message)) : null);
}
