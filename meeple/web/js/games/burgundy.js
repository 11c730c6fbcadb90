// The Castles of Burgundy table: the main board (six numbered depots with their tiles and goods, the
// black depot, phase and round, the goods still to come, turn order, bonus tiles, scores) and every
// player's estate as a hex map with die numbers and colours, plus dice, workers, silverlings, goods,
// storage and knowledge. Legal actions are clicked on the thing they concern: a die, a depot tile, a
// highlighted estate space (after choosing which stored tile to place), a goods stack. Chained
// effects (castle bonus action, buildings, ships) are announced step by step in the prompt panel.
// It draws only the `view` the server sent for this seat.

import { legalActions } from "../actions.js";
import { newestFirst } from "../changes.js";
import { el, explainKey, seatName, svg, t, tMaybe } from "../common.js";

// The printed components, from the engine's data (GET /api/games/burgundy/components): the tile type
// letters, the estate's hexagon rows (top to bottom), the die value of estate spaces 1–37, and each
// tile by code (its type letter; an animal tile's animal and count; a knowledge tile's number).
let TYPES = "";
let ROW_LENGTHS = [];
let SPACE_DICE = [];
let TILES = {};

/** Called once by games/index.js with the game's component data, before anything is drawn. */
export function useComponents(components) {
  TYPES = components.type_letters;
  ROW_LENGTHS = components.row_lengths;
  SPACE_DICE = components.space_dice;
  TILES = components.tiles;
  CENTRES = spaceCentres();
}
const COLOURS = { A: "#9fcf6f", B: "#e6c48e", C: "#3f7d4a", K: "#f1d54b", M: "#8e8e8e", S: "#5b9bd5" };
const INK = { A: "#23401a", B: "#4a3110", C: "#ffffff", K: "#4a3d00", M: "#ffffff", S: "#ffffff" };
const GOODS_COLOURS = ["", "#c0392b", "#e67e22", "#f4d03f", "#27ae60", "#2e86c1", "#8e44ad"];

// Module state that survives redraws: which stored tile the player is about to place.
let selectedTile = null;

const tileType = (code) => TILES[code]?.type ?? "B";

/** A tile's name in the page's language: "Ship", "Bank", "Cows ×3", "Knowledge: every sale gives 2 silverlings". */
export function tileName(code) {
  const key = code.replace(".", "_");
  const direct = tMaybe(`burgundy.tile.${key}`);
  if (direct) return direct;
  const knowledge = tMaybe(`burgundy.tilehelp.${key}`);
  if (tileType(code) === "K" && knowledge) return t("burgundy.explain.knowledge_name", { summary: knowledge });
  const tile = TILES[code];
  if (tile?.animal) return t("burgundy.tile.animal", { animal: tMaybe(`burgundy.animal.${tile.animal}`) || tile.animal, n: tile.count });
  return code;
}

/** A short label drawn on the hex itself (a knowledge tile draws a book instead, see tileFace). */
function tileShort(code) {
  const tile = TILES[code];
  if (tile?.type === "K") return String(tile.number);
  if (tile?.animal) return `${tMaybe(`burgundy.animal_short.${tile.animal}`) || tile.animal[0]}${tile.count}`;
  return tMaybe(`burgundy.short.${code.replace(".", "_")}`) || code;
}

/** The data-explain value of a tile (its full effect shows on hover and tap, js/common.js). */
const explainTile = (code) => explainKey("burgundy", code);

const goodsName = (g) => t("burgundy.ui.goods_n", { n: g });

/** Workers a die action costs: the engine's figure (its `hint`), never computed here. */
const workerCost = (action) => action.hint?.workers ?? 0;

function seatLabel(message, seat) {
  const info = message.table.seats[seat];
  return info ? seatName(info) : `#${seat + 1}`;
}

/** An action ({notation, kind, args}) as a sentence in the page's language, e.g. a ship taken from
 * depot 4 -> "Take Ship from depot 4". */
export function actionLabel(action) {
  const { kind, args } = action;
  const workers = args.workers ? t("burgundy.action.paying_workers", { n: args.workers }) : "";
  switch (kind) {
    case "die": return t("burgundy.action.die", { n: args.value });
    case "take": case "buy":
      return t(`burgundy.action.${kind}${args.depot === 0 ? "_black" : ""}`, { depot: args.depot, tile: tileName(args.tile) }) + workers;
    case "place": return t("burgundy.action.place", { tile: tileName(args.tile), space: args.space });
    case "sell": return t("burgundy.action.sell", { goods: goodsName(args.goods) });
    case "discard": return t("burgundy.action.discard", { tile: tileName(args.tile) });
    case "ship": return args.depots.length > 1
      ? t("burgundy.action.ship_pair", { a: args.depots[0], b: args.depots[1] })
      : t("burgundy.action.ship", { depot: args.depots[0] });
    case "keep": return t("burgundy.action.keep", { goods: args.goods.map(goodsName).join(", ") });
    case "board": return t("burgundy.action.board", { n: args.board });
    case "start": return t("burgundy.action.start", { space: args.space });
    default: return tMaybe(`burgundy.action.${kind}`) || action.notation;
  }
}

/** One log event as a sentence, naming seats, tiles and goods in the page's language. */
export function eventText(event, message) {
  const p = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === "event") continue;
    if (key === "seat") p.seat = seatLabel(message, value);
    else if (key === "tile") p.tile = tileName(value);
    else if (key === "order") p.order = value.map((s) => seatLabel(message, s)).join(" → ");
    else if (key === "taken") p.taken = value.length ? value.map(goodsName).join(", ") : "—";
    else if (key === "depots") p.depots = value.join(", ");
    else if (key === "goods" && event.event === "sell") p.goods = goodsName(value);
    else if (key === "effect") p.effect = t(`burgundy.pending.${value}`);
    else if (key === "mines") p.mines = value.join(" / ");
    else if (key === "vp" && Array.isArray(value)) p.vp = value.join(" / ");
    else p[key] = Array.isArray(value) ? value.join(", ") : typeof value === "object" ? "" : value;
  }
  if (event.event === "place") {
    const extras = [];
    if (event.region_vp) extras.push(t("burgundy.event.region_vp", { n: event.region_vp }));
    if (event.animal_vp) extras.push(t("burgundy.event.animal_vp", { n: event.animal_vp }));
    if (event.bonus) extras.push(t(`burgundy.event.bonus_${event.bonus}`, { n: event.bonus_vp ?? "" }));
    if (event.building_vp) extras.push(t("burgundy.event.building_vp", { n: event.building_vp }));
    p.extra = extras.length ? ` (${extras.join(", ")})` : "";
  }
  if (event.event === "workers" || event.event === "sell" || event.event === "take" || event.event === "place") {
    p.cost = event.workers && event.event !== "workers" ? t("burgundy.event.cost", { n: event.workers }) : "";
  }
  return tMaybe(`burgundy.event.${event.event}`, p) || `${event.event} ${JSON.stringify(event)}`;
}

// --- drawing helpers --------------------------------------------------------------------------------

function hexPoints(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

/** A stand-alone tile: a small SVG hex in its colour with its short label. */
/** What a tile shows on its hex around (cx, cy): its short label, or for a knowledge tile an open book
 * with its number small beneath (the number is only a secondary label: hover or tap gives its effect). */
function tileFace(code, cx, cy, { fontSize = 11, className = null } = {}) {
  const type = tileType(code);
  const label = tileShort(code);
  if (type !== "K") {
    return svg("text", { x: cx, y: cy + fontSize * 0.36, "text-anchor": "middle", class: className, fill: INK[type], "font-weight": 700,
      "font-size": label.length > 4 ? fontSize * 0.77 : fontSize }, label);
  }
  const w = fontSize * 0.6;
  const h = fontSize * 0.8;
  return svg("g", { class: className ? `${className} knowledge-face` : "knowledge-face", fill: INK.K },
    svg("path", { d: `M${cx - 0.4} ${cy - h + 1} l${-w} ${-1} v${h} l${w} ${1} z M${cx + 0.4} ${cy - h + 1} l${w} ${-1} v${h} l${-w} ${1} z` }),
    svg("text", { x: cx, y: cy + fontSize * 0.75, "text-anchor": "middle", "font-size": fontSize * 0.62, "font-weight": 700 }, label));
}

function tileIcon(code, size = 40) {
  const type = tileType(code);
  return svg("svg", { class: `bg-tile-icon t-${type}`, viewBox: "0 0 40 40", width: size, height: size, role: "img", "aria-label": tileName(code),
    "data-explain": explainTile(code) },
    svg("polygon", { points: hexPoints(20, 20, 19), fill: COLOURS[type], stroke: "#5b4630", "stroke-width": 1.2 }),
    tileFace(code, 20, 20));
}

function dieFace(value, { klass = "", small = false } = {}) {
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[value] || [];
  return svg("svg", { class: `bg-die ${klass}${small ? " small" : ""}`, viewBox: "0 0 24 24", "aria-label": String(value), role: "img" },
    svg("rect", { x: 1, y: 1, width: 22, height: 22, rx: 4, class: "face" }),
    pips.map(([x, y]) => svg("circle", { cx: x * 6, cy: y * 6, r: 2.2, class: "pip" })));
}

function goodsChip(g, count, extra = null) {
  return el("span", { class: "bg-goods", dataset: { goods: g, explain: explainKey("burgundy", `goods.${g}`) } },
    el("span", { class: "swatch", style: `background:${GOODS_COLOURS[g]}` }, String(g)),
    count > 1 ? el("span", { class: "count" }, `×${count}`) : null,
    extra);
}

function actionButton(action, context, text, placed) {
  placed.add(action.notation);
  return el("button", {
    class: `action clickable act-${action.kind}`,
    dataset: { action: action.notation },
    title: actionLabel(action),
    onclick: (event) => {
      event.stopPropagation();
      context.act(action.notation);
    },
  }, text ?? actionLabel(action));
}

function costBadge(cost) {
  return cost ? el("span", { class: "cost-badge", title: t("burgundy.ui.cost", { n: cost }) }, workerIcon(), String(cost)) : null;
}

function coinIcon() {
  return svg("svg", { class: "icon coin", viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("polygon", { points: "8,2 16,2 22,8 22,16 16,22 8,22 2,16 2,8", fill: "#d9d9d9", stroke: "#777", "stroke-width": 1.5 }));
}

function workerIcon() {
  return svg("svg", { class: "icon worker", viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("rect", { x: 3, y: 3, width: 18, height: 18, rx: 2, fill: "#f5f0e6", stroke: "#6b5a44", "stroke-width": 1.5 }),
    svg("circle", { cx: 12, cy: 9, r: 3, fill: "#6b5a44" }),
    svg("path", { d: "M6 19c1-4 3-6 6-6s5 2 6 6z", fill: "#6b5a44" }));
}

// --- the estate ---------------------------------------------------------------------------------------

const R = 28;
const SQ3 = Math.sqrt(3);

function spaceCentres() {
  const centres = [null];
  ROW_LENGTHS.forEach((length, row) => {
    const r = row - 3;
    const q0 = Math.max(-3, -3 - r);
    for (let i = 0; i < length; i += 1) {
      const q = q0 + i;
      centres.push([SQ3 * R * (q + r / 2) + SQ3 * R * 3.5, 1.5 * R * r + R * 5.5]);
    }
  });
  return centres;
}
let CENTRES = [];

function estateSvg(player, message, legalHere, context, placed) {
  const types = player.board_types;
  const width = SQ3 * R * 7;
  const height = R * 11;
  const hexes = [];
  if (!types) {
    return el("p", { class: "muted" }, t("burgundy.ui.board_secret"));
  }
  for (let s = 1; s <= 37; s += 1) {
    const [cx, cy] = CENTRES[s];
    const type = types[s - 1];
    const tile = player.estate[String(s)];
    const action = legalHere[s];
    const classes = ["bg-space", `t-${type}`];
    if (tile) classes.push("filled");
    if (action) classes.push("legal");
    const group = svg("g", { class: classes.join(" "), "data-space": s, "data-path": `players.${player.seat}.estate.${s}`, ...(action ? { "data-action": action.notation, tabindex: 0, role: "button" } : {}),
      ...(tile ? { "data-explain": explainTile(tile), "aria-label": tileName(tile) } : {}) },
      tile ? null : svg("title", {}, `${s}: ${t(`burgundy.type.${type}`)} · ${SPACE_DICE[s - 1]}`),
      svg("polygon", { points: hexPoints(cx, cy, R - 1.5), fill: COLOURS[type], class: "hex" }));
    if (tile) {
      group.append(tileFace(tile, cx, cy, { fontSize: 12, className: "tile-label" }));
      if (s === player.start_space) group.append(svg("circle", { cx, cy: cy - 13, r: 3, class: "start-mark" }));
    } else {
      group.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "die-number" }, String(SPACE_DICE[s - 1])));
    }
    if (action) {
      const cost = workerCost(action);
      if (cost) {
        group.append(svg("circle", { cx: cx + 13, cy: cy - 14, r: 7, class: "cost-dot" }),
          svg("text", { x: cx + 13, y: cy - 10.5, "text-anchor": "middle", class: "cost-text" }, String(cost)));
      }
      placed.add(action.notation);
      group.addEventListener("click", (event) => {
        event.stopPropagation();
        context.act(action.notation);
      });
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") context.act(action.notation);
      });
    }
    hexes.push(group);
  }
  return svg("svg", { class: "bg-estate", viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, "data-seat": player.seat }, hexes);
}

// --- grouping the legal actions -------------------------------------------------------------------------

function sortActions(actions) {
  const g = { dice: {}, depot: {}, shipDepot: {}, place: {}, start: {}, sell: {}, discard: {}, rest: [] };
  const add = (bucket, key, action) => (bucket[key] ||= []).push(action);
  for (const action of actions) {
    const { kind, args } = action;
    if (kind === "die") add(g.dice, args.value, action);
    else if (kind === "take" || kind === "buy") add(g.depot, `${args.depot} ${args.tile}`, action);
    else if (kind === "ship") add(g.shipDepot, args.depots[0], action);
    else if (kind === "place") (g.place[args.tile] ||= {})[args.space] = action;
    else if (kind === "start") g.start[args.space] = action;
    else if (kind === "sell") add(g.sell, args.goods, action);
    else if (kind === "discard") add(g.discard, args.tile, action);
    else g.rest.push(action);
  }
  return g;
}

// --- panels -----------------------------------------------------------------------------------------------

function promptText(view, message) {
  const pending = view.pending;
  return t(`burgundy.prompt.${pending.kind}`, {
    name: seatLabel(message, pending.seat), die: pending.die ?? "", tile: pending.incoming ? tileName(pending.incoming) : "",
    building: pending.building ? tileName(`B.${pending.building}`) : "", n: pending.free_slots ?? "",
    depots: (pending.depots || []).join(", "),
  });
}

function turnPromptFor(view, message, context) {
  // With no pending decision on the stack the player is choosing a die, buying, or passing.
  const seat = view.turn?.seat ?? view.current_player;
  const who = seatLabel(message, seat);
  if (view.turn && view.turn.dice_left.length === 0) return t("burgundy.prompt.turn_done", { name: who });
  return t(!context.readOnly && message.seat === seat ? "burgundy.prompt.turn_mine" : "burgundy.prompt.turn", { name: who });
}

function promptPanel(view, message, context, groups, placed, barSlot) {
  const pending = view.pending;
  const mine = !context.readOnly && message.seat !== null && message.current_player === message.seat;
  let text;
  if (view.is_over) text = t("burgundy.ui.game_over");
  else if (!pending) text = turnPromptFor(view, message, context);
  else text = promptText(view, message);
  const chain = pending && pending.stack.length > 1
    ? el("div", { class: "bg-chain" }, t("burgundy.ui.chain"), " ",
      pending.stack.map((kind, i) => el("span", { class: `chip${i === pending.stack.length - 1 ? " now" : ""}` }, t(`burgundy.pending.${kind}`))))
    : null;
  const incoming = pending?.incoming ? el("div", { class: "bg-incoming" }, t("burgundy.ui.incoming"), " ", tileIcon(pending.incoming, 34)) : null;
  return el("section", { class: `bg-prompt panel${mine ? " mine" : ""}`, id: "prompt", dataset: { kind: pending?.kind || "turn" } },
    el("p", { class: "prompt-text" }, text), chain, incoming, barSlot);
}

function statusBar(view, message) {
  const phaseIndex = view.phase_index;
  return el("div", { class: "bg-status" },
    el("span", { class: "bg-phases" }, "ABCDE".split("").map((letter, i) => el("span", {
      class: `phase-pip${i === phaseIndex ? " now" : i < phaseIndex ? " done" : ""}`, title: t("burgundy.ui.phase", { phase: letter }) }, letter))),
    el("span", { class: "chip" }, t("burgundy.ui.phase_round", { phase: view.phase, round: view.round })),
    el("span", { class: "chip white-die", title: t("burgundy.ui.white_die") }, dieFace(view.white_die || 0, { klass: "white", small: true })),
    el("span", { class: "chip", title: t("burgundy.ui.round_goods_help") }, t("burgundy.ui.round_goods"), " ",
      view.round_goods.length ? view.round_goods.map((g) => goodsChip(g, 1)) : "—"),
    el("span", { class: "chip order" }, t("burgundy.ui.turn_order"), " ",
      view.round_order.map((s, i) => el("span", { class: `order-seat${s === view.current_player ? " now" : ""}` }, `${i + 1}. ${seatLabel(message, s)}`))),
    el("span", { class: "chip muted" }, t("burgundy.ui.piles", { n: Object.values(view.white_piles).reduce((a, b) => a + b, 0), black: view.black_pile })));
}

function depotBox(view, depot, groups, context, placed) {
  const tiles = view.depots[String(depot)] || [];
  const seen = new Set();
  const tileNodes = tiles.map((code) => {
    const first = !seen.has(code);
    seen.add(code);
    const actions = first ? (groups.depot[`${depot} ${code}`] || []) : [];
    return el("div", { class: `bg-depot-tile${actions.length ? " has-action" : ""}`, dataset: { tile: code } },
      tileIcon(code, 42),
      actions.map((a) => actionButton(a, context, [t(`burgundy.button.${a.kind}`), a.args.workers ? ` (${a.args.workers})` : "",
        costBadge(workerCost(a))], placed)));
  });
  const goods = depot ? (view.depot_goods[String(depot)] || []) : [];
  const counts = {};
  for (const g of goods) counts[g] = (counts[g] || 0) + 1;
  const ships = (groups.shipDepot[String(depot)] || []).map((a) => actionButton(a, context,
    a.args.depots.length > 1 ? t("burgundy.button.ship_pair", { pair: a.args.depots.join("+") }) : t("burgundy.button.ship"), placed));
  return el("div", { class: `bg-depot${depot === 0 ? " black" : ""}${ships.length ? " can-ship" : ""}`, dataset: { depot, path: `depots.${depot} depot_goods.${depot}` } },
    el("header", {}, depot ? dieFace(depot, { small: true }) : el("span", { class: "black-label" }, t("burgundy.ui.black_depot")),
      depot === 0 ? el("span", { class: "muted small" }, t("burgundy.ui.black_price")) : null),
    el("div", { class: "tiles" }, tileNodes.length ? tileNodes : el("span", { class: "muted small" }, "—")),
    depot ? el("div", { class: "depot-goods" }, Object.entries(counts).map(([g, c]) => goodsChip(Number(g), c))) : null,
    ships.length ? el("div", { class: "ship-actions" }, ships) : null);
}

function bonusTable(view, message) {
  return el("div", { class: "bg-bonus" },
    el("h4", {}, t("burgundy.ui.bonus_tiles")),
    el("div", { class: "bonus-row" }, TYPES.split("").map((type) => {
      const entry = view.bonus_tiles[type];
      return el("span", { class: `bonus t-${type}`, title: t(`burgundy.type.${type}`), dataset: { path: `bonus_tiles.${type}` } },
        el("span", { class: "swatch", style: `background:${COLOURS[type]}` }),
        el("span", { class: "who" }, entry.large === null ? "·" : seatLabel(message, entry.large)),
        el("span", { class: "who small" }, entry.small === null ? "·" : seatLabel(message, entry.small)));
    })));
}

function mainBoard(view, message, groups, context, placed) {
  return el("section", { class: "bg-main panel", id: "main-board" },
    el("h3", {}, t("burgundy.ui.main_board")),
    el("div", { class: "depots" }, [1, 2, 3, 4, 5, 6].map((d) => depotBox(view, d, groups, context, placed)),
      depotBox(view, 0, groups, context, placed)),
    bonusTable(view, message));
}

function diceRow(player, view, groups, context, placed) {
  const isTurn = view.turn && view.turn.seat === player.seat;
  const left = isTurn ? [...view.turn.dice_left] : [];
  const used = new Set();
  return el("span", { class: "bg-dice" }, player.dice.map((value) => {
    const at = left.indexOf(value);
    const unused = at >= 0;
    if (unused) left.splice(at, 1);
    const actions = unused && !used.has(value) ? (groups.dice[String(value)] || []) : [];
    used.add(value);
    const face = dieFace(value, { klass: `${unused ? "" : "used"} ${view.pending?.die === value && isTurn ? "chosen" : ""}` });
    if (!actions.length) return el("span", { class: "die-slot" }, face);
    const [action] = actions;
    placed.add(action.notation);
    return el("button", { class: "action clickable die-button act-die", dataset: { action: action.notation }, title: actionLabel(action),
      onclick: (e) => { e.stopPropagation(); context.act(action.notation); } }, face);
  }));
}

function playerPanel(view, message, player, groups, context, placed) {
  const seat = player.seat;
  const isMe = seat === message.seat;
  const acting = isMe && !context.readOnly;
  const turn = view.current_player === seat;
  const placeFor = acting ? groups.place : {};
  const placeable = Object.keys(placeFor);
  if (acting) {
    if (!placeable.includes(selectedTile)) selectedTile = placeable[0] ?? null;
  }
  let legalHere = {};
  if (acting && Object.keys(groups.start).length) legalHere = groups.start;
  else if (acting && selectedTile) legalHere = placeFor[selectedTile] || {};
  const storageSeen = new Set();
  const storage = player.storage.map((code, index) => {
    const first = !storageSeen.has(code);
    storageSeen.add(code);
    const canPlace = acting && first && placeable.includes(code);
    const discards = acting && first ? (groups.discard[code] || []) : [];
    const node = el("div", {
      class: `bg-stored${canPlace ? " placeable" : ""}${canPlace && code === selectedTile ? " selected" : ""}`,
      dataset: { tile: code, path: `players.${seat}.storage.${index}`, explain: explainTile(code), ...(canPlace ? { select: code } : {}) },
      onclick: canPlace ? () => { selectedTile = code; context.redraw?.(); } : undefined,
    }, tileIcon(code, 44), el("span", { class: "small" }, tileName(code)),
    canPlace ? el("span", { class: "hint small" }, code === selectedTile ? t("burgundy.ui.placing") : t("burgundy.ui.choose_to_place")) : null,
    discards.map((n) => actionButton(n, context, t("burgundy.button.discard"), placed)));
    return node;
  });
  const goods = Object.entries(player.goods).map(([g, count]) => goodsChip(Number(g), count,
    acting ? (groups.sell[g] || []).map((n) => actionButton(n, context, [t("burgundy.button.sell"), costBadge(workerCost(n))], placed)) : null));
  const sold = Object.entries(player.sold).map(([g, count]) => goodsChip(Number(g), count));
  const path = `players.${seat}`; // the view path of this player's board (js/changes.js)
  return el("section", { class: `bg-player panel${isMe ? " me" : ""}${turn ? " turn" : ""}`, dataset: { seat, path, boardSeat: seat } },
    el("header", {},
      el("strong", { class: "seat-name" }, seatLabel(message, seat), isMe && !context.readOnly ? ` (${t("seat.you")})` : ""),
      el("span", { class: "vp", title: t("burgundy.ui.vp"), dataset: { path: `${path}.vp` } }, `★ ${player.vp}`),
      el("span", { class: "silver", title: t("burgundy.ui.silverlings"), dataset: { path: `${path}.silverlings` } }, coinIcon(), String(player.silverlings)),
      el("span", { class: "workers", title: t("burgundy.ui.workers"), dataset: { path: `${path}.workers` } }, workerIcon(), String(player.workers)),
      diceRow(player, view, groups, context, placed)),
    el("div", { class: "bg-player-body" },
      el("div", { class: "estate-wrap" }, estateSvg(player, message, legalHere, context, placed)),
      el("div", { class: "bg-side" },
        el("h4", {}, t("burgundy.ui.storage"), el("span", { class: "muted small" }, ` ${player.storage.length}/3`)),
        el("div", { class: "bg-storage", dataset: { path: `${path}.storage` } }, storage.length ? storage : el("span", { class: "muted small" }, "—")),
        el("h4", {}, t("burgundy.ui.goods")),
        el("div", { class: "bg-goods-row", dataset: { path: `${path}.goods` } }, goods.length ? goods : el("span", { class: "muted small" }, "—")),
        sold.length ? [el("h4", {}, t("burgundy.ui.sold")), el("div", { class: "bg-goods-row sold", dataset: { path: `${path}.sold` } }, sold)] : null,
        player.knowledge.length ? [el("h4", {}, t("burgundy.ui.knowledge")),
          el("ul", { class: "bg-knowledge", dataset: { path: `${path}.knowledge` } }, player.knowledge.map((k) => el("li", { dataset: { explain: explainTile(k) } },
            tileName(k), " ", el("span", { class: "muted small code" }, k))))] : null,
        player.bonus_tiles.length ? el("p", { class: "small" }, t("burgundy.ui.bonus_tiles"), ": ",
          player.bonus_tiles.map((b) => el("span", { class: "chip" }, `${t(`burgundy.type.${b[0]}`)} (${t(`burgundy.ui.${b.split(":")[1]}`)})`))) : null,
        el("p", { class: "muted small", dataset: { path: `${path}.track` } }, t("burgundy.ui.track", { n: (player.track?.position ?? 0) + 1 }),
          player.empty_spaces !== null ? ` · ${t("burgundy.ui.empty_spaces", { n: player.empty_spaces })}` : ""))));
}

function finalPanel(view, message) {
  if (!view.final) return null;
  const keys = [];
  for (const entry of view.final) for (const key of Object.keys(entry)) if (!keys.includes(key)) keys.push(key);
  return el("section", { class: "bg-final panel", id: "burgundy-final" },
    el("h3", {}, t("burgundy.ui.final")),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), keys.map((k) => el("th", {}, tMaybe(`burgundy.final.${k}`) || k)), el("th", {}, t("burgundy.ui.total")))),
      el("tbody", {}, view.final.map((entry, seat) => el("tr", { class: view.winners?.includes(seat) ? "winner" : "" },
        el("td", {}, seatLabel(message, seat), view.winners?.includes(seat) ? ` — ${t("table.winner")}` : ""),
        keys.map((k) => el("td", {}, String(entry[k] ?? 0))),
        el("td", {}, el("strong", {}, String(view.scores[seat]))))))));
}

/** The game's own log, newest first. */
export function renderLog(message) {
  const view = message.view;
  if (!view) return el("p", { class: "muted" }, "—");
  const events = newestFirst(view, "log", 150);
  const privateLog = newestFirst(view, "private_log", 30);
  return el("div", { class: "bg-log", id: "game-log" },
    el("ul", { class: "log" }, events.map(({ item, path }) => el("li", { class: `ev-${item.event}`, dataset: { path } }, eventText(item, message)))),
    privateLog.length ? el("ul", { class: "log private" }, privateLog.map(({ item, path }) => el("li", { dataset: { path } }, eventText(item, message)))) : null);
}

export function render(message, context) {
  const view = message.view;
  if (!view) return el("p", { class: "muted waiting" }, t("table.waiting_for_players"));
  const actions = context.readOnly ? [] : legalActions(message);
  const groups = sortActions(actions);
  const placed = new Set();
  const root = el("div", { class: "burgundy" });
  // Selecting another stored tile only redraws this board (no server round trip).
  const ctx = { ...context, redraw: () => root.replaceWith(render(message, context)) };
  const barSlot = el("div", { class: "action-bar", id: "actions" });
  const order = view.players.map((_, i) => (i + (message.seat ?? 0)) % view.players.length);
  const players = order.map((s) => playerPanel(view, message, view.players[s], groups, ctx, placed));
  const board = mainBoard(view, message, groups, ctx, placed);
  const prompt = promptPanel(view, message, ctx, groups, placed, barSlot);
  // Whatever has no object of its own (workers, pass, skip, keep, board choice …) becomes a button here;
  // placements of tiles other than the selected one wait for that tile to be chosen.
  for (const action of actions) {
    if (placed.has(action.notation) || action.kind === "place") continue;
    barSlot.append(actionButton(action, ctx, undefined, placed));
  }
  root.append(...[statusBar(view, message), finalPanel(view, message), prompt,
    el("div", { class: "bg-layout" }, el("div", { class: "bg-players" }, players[0]), board),
    players.length > 1 ? el("div", { class: "bg-others" }, players.slice(1)) : null,
    context.readOnly ? el("section", { class: "panel" }, renderLog(message)) : null].filter(Boolean));
  return root;
}
