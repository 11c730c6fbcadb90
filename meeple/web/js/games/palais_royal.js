// The Palais Royal table: the garden of nobles (with what each costs you right now), the 3×3 palace
// with every seat's servants per room and who holds each majority, the edge servants, your hand (the
// others only as counts), gold, pools, nobles and privileges, and every legal action as something to
// click on the thing it concerns. Stairway moves are click-click (a room of yours, then where to) or a
// drag of a servant. It draws only the `view` the server sent for this seat.

import { legalActions } from "../actions.js";
import { newestFirst } from "../changes.js";
import { el, explainKey, seatName, svg, t, tMaybe } from "../common.js";

const SEAT_COLOURS = ["#c0392b", "#2e6fb7", "#3c9a4b", "#d9a41c"];
// What a room that acts in no step shows in place of its step number (the Cardinal breaks ties, the Gate
// receives new servants).
const PASSIVE_GLYPHS = { CAR: "✚", GAT: "⇲" };

// The printed components, from the engine's data (GET /api/games/palais_royal/components): the garden's
// files and ranks, and the step each room and each card acts in (null: passive, or any step).
let FILES = [];
let RANKS = 0;
let ROOMS = {};
let CARDS = {};

/** Called once by games/index.js with the game's component data, before anything is drawn. */
export function useComponents(components) {
  FILES = [...components.garden_files];
  RANKS = components.garden_ranks;
  ROOMS = components.rooms;
  CARDS = components.cards;
}

// Click-click state for the Stairway: the room a servant was picked up in, for the version it was picked in.
let selected = null;
let lastDraw = null;

const room = (code) => tMaybe(`palais_royal.room.${code}`) || code;
const card = (code) => tMaybe(`palais_royal.card.${code}`) || code;
const priv = (code) => tMaybe(`palais_royal.privilege.${code}`) || code;

function seatLabel(message, seat) {
  const info = message.table.seats[seat];
  return info ? seatName(info) : `#${seat + 1}`;
}

/** A noble by what it is ("Noble · +1 card"), as the explanations name it; its code only when nothing is known. */
function nobleName(id, message) {
  const data = message?.view?.noble_data?.[id];
  if (!data) return id;
  if (!data.privilege) return t("palais_royal.explain.noble_plain_name");
  return t("palais_royal.explain.noble_name", { privilege: `${priv(data.privilege)}${data.param > 1 ? ` ${data.param}` : ""}` });
}

function from(value) {
  return value === "pool" ? t("palais_royal.ui.the_pool") : room(value);
}

/** The room an action concerns: where a servant is placed, or the room it is taken from. */
const roomOf = (args) => args.room ?? args.from;

/** An action ({notation, kind, args}) as a sentence in the page's language, e.g. a move from the
 * Stairway to the King -> "Move a servant: Stairway → King". */
export function actionLabel(action, message) {
  const { kind, args } = action;
  switch (kind) {
    case "place": case "gate": case "king": case "pomp":
      return roomOf(args) ? t(`palais_royal.action.${kind}_room`, { room: room(roomOf(args)) }) : t(`palais_royal.action.${kind}`);
    case "move":
      return t("palais_royal.action.move", { from: room(args.from), to: room(args.to) });
    case "recruit": {
      const square = message?.view?.garden?.find((g) => g.square === args.square);
      return t("palais_royal.action.recruit", { square: args.square, noble: square?.noble ? nobleName(square.noble, message) : "?", cost: square?.cost ?? "?" });
    }
    case "edge":
      return t("palais_royal.action.edge", { from: from(args.from) });
    case "play": case "keep":
      return t(`palais_royal.action.${kind}`, { card: card(args.card) });
    default:
      return tMaybe(`palais_royal.action.${kind}`) || action.notation;
  }
}

/** One log event as a sentence, naming seats, rooms and cards in the page's language. */
export function eventText(event, message) {
  const params = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === "event") continue;
    if (key === "seat" || key === "start_seat") params[key] = seatLabel(message, value);
    else if (key === "from") params[key] = from(value);
    else if (key === "to" || key === "room") params[key] = room(value);
    else if (key === "card") params[key] = card(value);
    else if (key === "noble") params[key] = nobleName(value, message);
    else if (key === "cards") params[key] = Array.isArray(value) ? (value.map(card).join(", ") || "—") : value;
    else if (key === "rooms") params[key] = value.map(room).join(", ");
    else params[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  if (event.event === "game_over") {
    params.winners = (event.winners || []).map((s) => seatLabel(message, s)).join(", ");
    params.scores = (event.scores || []).join(" / ");
  }
  return tMaybe(`palais_royal.event.${event.event}`, params) || `${event.event} ${JSON.stringify(params)}`;
}

function servantIcon(seat, { size = 16, draggable = false } = {}) {
  const icon = svg("svg", { class: "servant-icon", viewBox: "0 0 20 24", width: size, height: size * 1.2, "aria-hidden": "true" },
    svg("circle", { cx: 10, cy: 6, r: 5, fill: SEAT_COLOURS[seat % 4], stroke: "#2b2018", "stroke-width": 1.2 }),
    svg("path", { d: "M2 23c0-8 3-12 8-12s8 4 8 12z", fill: SEAT_COLOURS[seat % 4], stroke: "#2b2018", "stroke-width": 1.2 }));
  if (!draggable) return icon;
  return el("span", { class: "drag-servant", draggable: "true", title: t("palais_royal.ui.drag_hint") }, icon);
}

function coinIcon() {
  return svg("svg", { class: "icon coin", viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("circle", { cx: 12, cy: 12, r: 10, fill: "#f2c14e", stroke: "#a07a17", "stroke-width": 2 }),
    svg("circle", { cx: 12, cy: 12, r: 5.5, fill: "none", stroke: "#a07a17", "stroke-width": 1.2 }));
}

function sealIcon(colour) {
  const fill = colour === "turquoise" ? "#2aa7a0" : "#8c4fb0";
  return svg("svg", { class: `icon seal ${colour}`, viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("circle", { cx: 12, cy: 12, r: 9, fill, stroke: "#333", "stroke-width": 1.2 }),
    svg("path", { d: "M12 6l2 4.5 4.5.5-3.5 3 1 4.5-4-2.5-4 2.5 1-4.5-3.5-3 4.5-.5z", fill: "#fff", opacity: 0.8 }));
}

function cardBackIcon() {
  return svg("svg", { class: "icon card-back", viewBox: "0 0 18 24", "aria-hidden": "true" },
    svg("rect", { x: 1, y: 1, width: 16, height: 22, rx: 2, fill: "#5b3f6e", stroke: "#2e1f3a", "stroke-width": 1.5 }),
    svg("path", { d: "M9 6l4 6-4 6-4-6z", fill: "#e3c98b" }));
}

/** The legal actions grouped by the thing they concern (moves by the room they leave). */
function sortActions(actions) {
  const groups = { rooms: {}, moves: {}, garden: {}, hand: {}, drawn: {}, bar: [] };
  const add = (bucket, key, action) => {
    (bucket[key] ||= []).push(action);
  };
  for (const action of actions) {
    const { kind, args } = action;
    if (kind === "move") add(groups.moves, args.from, action);
    else if (roomOf(args) && ["place", "gate", "king", "pomp"].includes(kind)) add(groups.rooms, roomOf(args), action);
    else if (kind === "edge" && args.from !== "pool") add(groups.rooms, args.from, action);
    else if (kind === "recruit") add(groups.garden, args.square, action);
    else if (kind === "play") add(groups.hand, args.card, action);
    else if (kind === "keep") add(groups.drawn, args.card, action);
    else groups.bar.push(action);
  }
  return groups;
}

/** The legal move from room `source` to room `code`, if there is one. */
const moveBetween = (groups, source, code) => (groups.moves[source] || []).find((a) => a.args.to === code);

function actionButton(action, context, message, text, extraClass = "") {
  return el("button", {
    class: `action clickable act-${action.kind} ${extraClass}`.trim(),
    dataset: { action: action.notation },
    title: actionLabel(action, message),
    onclick: (event) => {
      event.stopPropagation();
      selected = null;
      context.act(action.notation);
    },
  }, text ?? actionLabel(action, message));
}

function redraw() {
  if (!lastDraw) return;
  const { message, context, root } = lastDraw;
  const next = render(message, context);
  root.replaceWith(next);
}

function select(code) {
  selected = selected && selected.room === code ? null : { room: code, version: lastDraw?.message.version };
  redraw();
}

// --- the garden -----------------------------------------------------------------------------------

function nobleTile(id, data, { cost = null, small = false, back = false } = {}) {
  if (back || !data) {
    return el("div", { class: `noble back${small ? " small" : ""}`, dataset: { noble: back ? "" : id, ...(back ? {} : { explain: explainKey("palais_royal", `noble.${id}`) }) } },
      el("span", { class: "nvp" }, back ? "?" : id));
  }
  const reduced = cost !== null && cost !== data.gold;
  return el("div", { class: `noble${data.privilege ? " has-priv" : ""}${small ? " small" : ""}`,
    dataset: { noble: id, explain: explainKey("palais_royal", `noble.${id}`) },
    "aria-label": t("palais_royal.ui.noble_title", { gold: data.gold, t: data.turquoise, v: data.violet, vp: data.vp }) },
  el("span", { class: "nvp" }, `★${data.vp}`),
  el("span", { class: "nid" }, id),
  el("span", { class: `ncost${reduced ? " reduced" : ""}` }, coinIcon(),
    cost === null ? String(data.gold) : [reduced ? el("s", {}, String(data.gold)) : null, el("b", { class: "cost-now" }, String(cost))]),
  el("span", { class: "nseals" },
    data.turquoise ? el("span", { class: "seals t" }, sealIcon("turquoise"), String(data.turquoise)) : null,
    data.violet ? el("span", { class: "seals v" }, sealIcon("violet"), String(data.violet)) : null),
  data.privilege ? el("span", { class: "npriv" }, priv(data.privilege), data.param > 1 ? ` ${data.param}` : "") : null);
}

function gardenPanel(view, message, groups, context) {
  const bySquare = Object.fromEntries(view.garden.map((g) => [g.square, g]));
  const rows = [];
  for (let rank = RANKS; rank >= 1; rank -= 1) {
    for (const file of FILES) {
      const name = `${file}${rank}`;
      const square = bySquare[name];
      const acts = groups.garden[name] || [];
      const pendingEdge = view.pending?.kind === "edge" && view.pending.square === name;
      rows.push(el("div", {
        class: `square${square.edge ? " edge" : ""}${square.noble ? " full" : " empty"}${acts.length ? " can" : ""}${pendingEdge ? " pending-edge" : ""}`,
        dataset: { square: name, path: `garden.${view.garden.indexOf(square)}` },
      },
      square.noble ? nobleTile(square.noble, view.noble_data[square.noble], { cost: square.cost ?? null }) : null,
      square.servant !== null ? el("span", { class: "garden-servant", dataset: { seat: square.servant }, title: seatLabel(message, square.servant) }, servantIcon(square.servant, { size: 18 })) : null,
      el("span", { class: "sq-name" }, name),
      acts.length ? el("div", { class: "card-actions" }, acts.map((n) => actionButton(n, context, message,
        t("palais_royal.button.recruit", { cost: square.cost ?? "?" })))) : null));
    }
  }
  return el("section", { class: "pr-garden panel", id: "garden" },
    el("h3", {}, t("palais_royal.ui.garden"),
      el("span", { class: "muted small" }, ` · ${t("palais_royal.ui.nobles_left", { n: view.garden_nobles_left, trigger: view.end_trigger_nobles })}`)),
    el("div", { class: "garden-grid" }, rows));
}

// --- the palace -----------------------------------------------------------------------------------

function roomCell(code, view, message, groups, context) {
  const counts = view.rooms[code];
  const holder = view.majority[code];
  const me = message.seat;
  const moves = groups.moves[code] || [];
  const isSelected = selected && selected.room === code && selected.version === message.version;
  const destinations = selected && selected.version === message.version ? (groups.moves[selected.room] || []) : [];
  const moveHere = destinations.find((a) => a.args.to === code);
  const acts = groups.rooms[code] || [];
  const attrs = {
    class: `room r-${code}${moves.length ? " movable" : ""}${isSelected ? " selected" : ""}${moveHere ? " destination" : ""}${acts.length ? " can" : ""}`,
    dataset: { room: code, path: `rooms.${code} majority.${code}`, explain: explainKey("palais_royal", `room.${code}`) },
  };
  if (moves.length) {
    attrs.dataset.moves = moves.map((a) => a.notation).join(" ");
    attrs.role = "button";
    attrs.tabindex = "0";
    attrs["aria-label"] = `${room(code)}: ${t("palais_royal.ui.select_hint")}`;
    attrs.onclick = () => select(code);
    attrs.onkeydown = (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select(code);
      }
    };
  }
  const node = el("div", attrs,
    el("header", {},
      el("span", { class: "step" }, String(ROOMS[code]?.step ?? PASSIVE_GLYPHS[code] ?? "")),
      el("strong", { class: "rname" }, room(code))),
    el("div", { class: "servants" }, counts.map((n, seat) => (n ? el("span", {
      class: `count seat-${seat}${seat === me ? " mine" : ""}${holder === seat ? " holds" : ""}`, dataset: { seat, n },
      title: `${seatLabel(message, seat)}: ${n}${holder === seat ? ` — ${t("palais_royal.ui.majority_of", { name: seatLabel(message, seat) })}` : ""}`,
    }, servantIcon(seat, { draggable: seat === me && moves.length > 0 }), el("b", {}, String(n)),
    holder === seat ? el("span", { class: "majority", dataset: { seat } }, "♛") : null) : null))),
    el("p", { class: "rhint muted small" }, tMaybe(`palais_royal.room_hint.${code}`) || ""),
    (acts.length || moveHere) ? el("div", { class: "card-actions" },
      acts.map((a) => actionButton(a, context, message, t(`palais_royal.button.${a.kind}`))),
      moveHere ? actionButton(moveHere, context, message, t("palais_royal.button.move_here"), "move-here") : null) : null);
  if (moves.length) {
    node.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", code);
      selected = { room: code, version: message.version };
      node.classList.add("selected");
    });
  }
  // Any room that some move reaches accepts a drop.
  node.addEventListener("dragover", (event) => {
    const source = selected?.room;
    if (source && moveBetween(groups, source, code)) event.preventDefault();
  });
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    const source = event.dataTransfer.getData("text/plain") || selected?.room;
    const move = moveBetween(groups, source, code);
    if (move) {
      selected = null;
      context.act(move.notation);
    }
  });
  return node;
}

function palacePanel(view, message, groups, context) {
  const turn = view.turn;
  const info = [];
  if (turn?.step === 2 && turn.movement_points !== null) info.push(t("palais_royal.ui.movement_points", { n: turn.movement_points }));
  if (turn?.step === 1 && turn.gate_allowance !== null) info.push(t("palais_royal.ui.gate_allowance", { n: turn.gate_allowance }));
  const hasMoves = Object.keys(groups.moves).length > 0;
  return el("section", { class: "pr-palace panel", id: "palace" },
    el("h3", {}, t("palais_royal.ui.palace"), info.length ? el("span", { class: "muted small" }, ` · ${info.join(" · ")}`) : null),
    hasMoves ? el("p", { class: "hint" }, selected ? t("palais_royal.ui.pick_destination", { room: room(selected.room) }) : t("palais_royal.ui.pick_source")) : null,
    el("div", { class: "palace-grid" }, view.layout.flat().map((code) => roomCell(code, view, message, groups, context))));
}

// --- hands, cards, seats --------------------------------------------------------------------------

function cardTile(code, { count = 1, extra = [] } = {}) {
  const step = CARDS[code]?.step;
  return el("div", { class: `pcard k-${code}`, dataset: { card: code, explain: explainKey("palais_royal", `card.${code}`) } },
    el("span", { class: "cstep" }, step ? t("palais_royal.ui.step_n", { n: step }) : t("palais_royal.ui.any_step")),
    el("span", { class: "cname" }, card(code)),
    count > 1 ? el("span", { class: "ccount" }, `×${count}`) : null,
    el("span", { class: "chint small" }, tMaybe(`palais_royal.card_hint.${code}`) || ""),
    extra.length ? el("div", { class: "card-actions" }, extra) : null);
}

function handPanel(view, message, groups, context) {
  if (view.hand === null || view.hand === undefined || message.seat === null) return null;
  const entries = Object.entries(view.hand);
  return el("section", { class: "pr-hand panel", id: "hand", dataset: { seat: message.seat, path: "hand" } },
    el("h3", {}, context.readOnly ? t("palais_royal.ui.hand_of", { name: seatLabel(message, message.seat) }) : t("palais_royal.ui.your_hand"),
      el("span", { class: "muted small" }, ` · ${entries.reduce((s, [, n]) => s + n, 0)}`)),
    el("div", { class: "cards" }, entries.length ? entries.map(([code, n]) => cardTile(code, {
      count: n, extra: (groups.hand[code] || []).map((a) => actionButton(a, context, message, t("palais_royal.button.play"))),
    })) : el("span", { class: "muted" }, t("palais_royal.ui.no_cards"))));
}

function stepTrack(view) {
  const turn = view.turn;
  if (!turn) return null;
  return el("ol", { class: "step-track" }, [1, 2, 3, 4, 5].map((n) => el("li", {
    class: n === turn.step ? "now" : n < turn.step ? "done" : "",
  }, el("b", {}, String(n)), " ", t(`palais_royal.step.${n}`))));
}

function pendingPanel(view, message, groups, context) {
  const pending = view.pending;
  const parts = [];
  const mine = !context.readOnly && message.seat !== null && view.current_player === message.seat;
  if (pending) {
    const who = seatLabel(message, pending.seat);
    if (pending.kind === "place") parts.push(el("p", {}, t("palais_royal.ui.setup_place", { name: who, n: pending.left })));
    if (pending.kind === "edge") parts.push(el("p", {}, t("palais_royal.ui.edge_pending", { name: who, square: pending.square })));
    if (pending.kind === "keep") {
      if (pending.cards) {
        parts.push(el("h3", {}, t("palais_royal.ui.drawn", { n: pending.cards.length })));
        const seen = new Set();
        parts.push(el("div", { class: "cards", id: "drawn" }, pending.cards.map((code) => {
          const first = !seen.has(code);
          seen.add(code);
          return cardTile(code, { extra: first ? (groups.drawn[code] || []).map((a) => actionButton(a, context, message, t("palais_royal.button.keep"))) : [] });
        })));
      } else {
        parts.push(el("p", {}, t("palais_royal.ui.drawn_count", { name: who, n: pending.drawn_count })));
      }
    }
  }
  const turn = view.turn;
  if (turn) {
    const flags = [];
    if (turn.step === 3) {
      for (const key of ["mint", "king", "pomp"]) if (turn[`${key}_done`]) flags.push(el("span", { class: "chip done" }, `✓ ${t(`palais_royal.action.${key}`)}`));
    }
    if (turn.virtual_slots) flags.push(el("span", { class: "chip" }, t("palais_royal.ui.virtual_slots", { n: turn.virtual_slots })));
    if (turn.virtual_turquoise) flags.push(el("span", { class: "chip" }, sealIcon("turquoise"), `+${turn.virtual_turquoise}`));
    if (turn.virtual_violet) flags.push(el("span", { class: "chip" }, sealIcon("violet"), `+${turn.virtual_violet}`));
    if (turn.patron_discount) flags.push(el("span", { class: "chip" }, t("palais_royal.ui.patron", { n: turn.patron_discount })));
    if (turn.tie_card) flags.push(el("span", { class: "chip" }, card("TIE")));
    if (flags.length) parts.push(el("div", { class: "flags" }, flags));
  }
  if (groups.bar.length) {
    parts.push(el("div", { class: "action-bar", id: "actions" }, groups.bar.map((n) => actionButton(n, context, message, null,
      n.kind === "end" ? "end-step" : ""))));
  }
  if (!parts.length) return null;
  return el("section", { class: `pr-pending panel${mine ? " mine" : ""}`, id: "pending" }, stepTrack(view), parts);
}

function seatPanel(view, message, seat, context) {
  const isMe = seat === message.seat;
  const score = view.scores?.[seat] || {};
  const privileges = view.privileges?.[seat] || { active: {}, next_turn: {} };
  const played = view.played_cards?.[seat] || {};
  const hideBacks = view.hide_face_down_nobles && !isMe;
  const edges = view.garden.filter((g) => g.servant === seat).length;
  const hasPlayed = Object.keys(played).length > 0;
  const hasPrivileges = Object.keys(privileges.active).length > 0 || Object.keys(privileges.next_turn).length > 0;
  // view paths (js/changes.js): this seat's entries of the per-seat lists; the panel stands for those not drawn
  const panelPaths = [hasPlayed ? null : `played_cards.${seat}`, hasPrivileges ? null : `privileges.${seat}`].filter(Boolean);
  return el("section", {
    class: `pr-seat panel${isMe ? " me" : ""}${view.current_player === seat ? " turn" : ""}`,
    dataset: { seat, boardSeat: seat, path: panelPaths.join(" ") || undefined },
    style: `--seat-colour: ${SEAT_COLOURS[seat % 4]}`,
  },
  el("header", {},
    servantIcon(seat, { size: 16 }),
    el("strong", { class: "seat-name" }, seatLabel(message, seat), isMe && !context.readOnly ? ` (${t("seat.you")})` : ""),
    view.start_seat === seat ? el("span", { class: "chip", title: t("palais_royal.ui.start_player") }, "①") : null,
    el("span", { class: "stat gold", dataset: { stat: "gold", path: `gold.${seat}` }, title: t("palais_royal.ui.gold") }, coinIcon(), el("b", {}, String(view.gold[seat]))),
    el("span", { class: "stat pool", dataset: { stat: "pool", path: `pool.${seat}` }, title: t("palais_royal.ui.pool") }, servantIcon(seat, { size: 12 }), el("b", {}, String(view.pool[seat]))),
    el("span", { class: "stat hand-count", dataset: { stat: "hand", path: `hand_counts.${seat}` }, title: t("palais_royal.ui.hand_count") }, cardBackIcon(), el("b", {}, String(view.hand_counts[seat]))),
    el("span", { class: "stat score", dataset: { stat: "score", path: `scores.${seat}` }, title: t("palais_royal.ui.score") }, "★ ", el("b", {}, String(score.total ?? 0)))),
  el("div", { class: "seat-stats muted small", dataset: { path: `general_supply.${seat} cardinal_strength.${seat}` } },
    el("span", {}, t("palais_royal.ui.supply", { n: view.general_supply[seat] })),
    el("span", {}, t("palais_royal.ui.cardinal", { n: view.cardinal_strength[seat] })),
    el("span", {}, t("palais_royal.ui.edge_servants", { n: edges })),
    el("span", {}, t("palais_royal.ui.score_parts", { nobles: score.nobles ?? 0, played: score.played_cards ?? 0, hand: score.hand ?? 0, edges: score.edges ?? 0 }))),
  hasPlayed ? el("div", { class: "played", dataset: { path: `played_cards.${seat}` } }, Object.entries(played).map(([code, n]) =>
    el("span", { class: "chip played-card", dataset: { card: code, explain: explainKey("palais_royal", `card.${code}`) } }, `${card(code)} ×${n}`))) : null,
  hasPrivileges ? el("div", { class: "privs small", dataset: { path: `privileges.${seat}` } },
    Object.entries(privileges.active).map(([code, n]) => el("span", { class: "chip priv", dataset: { explain: explainKey("palais_royal", `privilege.${code}`) } }, `${priv(code)} ${n}`)),
    Object.entries(privileges.next_turn).map(([code, n]) => el("span", { class: "chip priv next", dataset: { explain: explainKey("palais_royal", `privilege.${code}`) } },
      `${priv(code)} ${n} `, el("span", { title: t("palais_royal.ui.next_turn"), "aria-label": t("palais_royal.ui.next_turn") }, "⏳")))) : null,
  el("div", { class: "seat-nobles", dataset: { path: `nobles.${seat}` } }, view.nobles[seat].length ? view.nobles[seat].map((n) =>
    nobleTile(n.id, view.noble_data[n.id], { small: true, back: hideBacks && !n.face_up })) : el("span", { class: "muted small" }, t("palais_royal.ui.no_nobles"))));
}

function statusBar(view) {
  return el("div", { class: "pr-status" },
    el("span", { class: "chip" }, view.phase === "setup" ? t("palais_royal.phase.setup") : t("palais_royal.ui.round", { n: view.round })),
    view.final_round ? el("span", { class: "chip warn" }, t("palais_royal.ui.final_round")) : null,
    view.turn ? el("span", { class: "chip now" }, t("palais_royal.ui.step_now", { n: view.turn.step, name: t(`palais_royal.step.${view.turn.step}`) })) : null,
    el("span", { class: "chip" }, cardBackIcon(), t("palais_royal.ui.deck", { n: view.deck_size, d: view.discard_size })),
    view.gold_supply !== null && view.gold_supply !== undefined ? el("span", { class: "chip" }, coinIcon(), String(view.gold_supply)) : null);
}

function finalPanel(view, message) {
  if (view.phase !== "over" || !view.scores) return null;
  const winners = view.winners || [];
  const head = ["", t("palais_royal.ui.col_nobles"), t("palais_royal.ui.col_played"), t("palais_royal.ui.col_hand"),
    t("palais_royal.ui.col_edges"), t("palais_royal.ui.col_total"), t("palais_royal.ui.gold")];
  return el("section", { class: "pr-final panel", id: "palais-royal-final" },
    el("h3", {}, t("palais_royal.ui.final")),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
      el("tbody", {}, view.scores.map((b, seat) => el("tr", { class: winners.includes(seat) ? "winner" : "" },
        el("td", {}, seatLabel(message, seat), winners.includes(seat) ? ` — ${t("table.winner")}` : ""),
        [b.nobles, b.played_cards, b.hand, b.edges].map((v) => el("td", {}, String(v ?? 0))),
        el("td", {}, el("strong", {}, String(b.total))),
        el("td", {}, String(view.gold[seat])))))));
}

/** The game's own log, newest first: public events, then what only this seat saw. */
export function renderLog(message) {
  const view = message.view;
  if (!view) return el("p", { class: "muted" }, "—");
  const skip = new Set(["garden", "shuffle", "layout"]);
  const publicLog = newestFirst(view, "log", 150, (e) => !skip.has(e.event));
  const privateLog = newestFirst(view, "private_log", 40);
  return el("div", { class: "pr-log", id: "game-log" },
    el("h4", {}, t("palais_royal.ui.public_log")),
    el("ul", { class: "log" }, publicLog.map(({ item, path }) => el("li", { class: `ev-${item.event}`, dataset: { path } }, eventText(item, message)))),
    privateLog.length ? [el("h4", {}, t("palais_royal.ui.private_log")),
      el("ul", { class: "log private" }, privateLog.map(({ item, path }) => el("li", { dataset: { path } }, eventText(item, message))))] : null);
}

export function render(message, context) {
  const view = message.view;
  if (!view) return el("p", { class: "muted waiting" }, t("table.waiting_for_players"));
  const groups = sortActions(context.readOnly ? [] : legalActions(message));
  if (selected && (selected.version !== message.version || !groups.moves[selected.room])) selected = null;
  const order = view.rooms.PAR.map((_, i) => (i + (message.seat ?? 0)) % view.players);
  // While the actions concern rooms (setup, the Stairway, a servant taken from a room), the palace comes
  // first on a phone.
  const palaceFirst = Object.keys(groups.moves).length > 0 || Object.keys(groups.rooms).length > 0;
  const root = el("div", { class: `palais-royal${palaceFirst ? " palace-first" : ""}` },
    statusBar(view),
    finalPanel(view, message),
    pendingPanel(view, message, groups, context),
    el("div", { class: "pr-main" },
      gardenPanel(view, message, groups, context),
      palacePanel(view, message, groups, context),
      el("div", { class: "pr-side" },
        handPanel(view, message, groups, context),
        el("div", { class: "pr-seats" }, order.map((s) => seatPanel(view, message, s, context))))),
    context.readOnly ? el("section", { class: "panel" }, renderLog(message)) : null);
  lastDraw = { message, context, root };
  return root;
}
