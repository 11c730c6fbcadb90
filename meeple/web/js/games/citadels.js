// The Citadels table: the character line-up with the draft, your hand, every city, gold, the crown,
// what was revealed, the game's own log, whose turn it is, and every legal action as something to
// click on the card it concerns. It draws only the `view` the server sent for this seat.

import { legalActions } from "../actions.js";
import { newestFirst } from "../changes.js";
import { el, explainKey, seatName, svg, t, tMaybe } from "../common.js";

// The printed components, from the engine's data (GET /api/games/citadels/components): the characters
// in rank order, and each district's type, cost and points.
let CHARACTERS = [];
let DISTRICTS = {};

/** Called once by games/index.js with the game's component data, before anything is drawn. */
export function useComponents(components) {
  CHARACTERS = components.characters;
  DISTRICTS = components.districts;
}

const SEAT_FIELDS = new Set(["seat", "crown", "thief", "target", "with"]);
const CARD_FIELDS = new Set(["card", "cards", "kept", "bottom", "gave", "got", "discarded", "drawn"]);

const cname = (slug) => tMaybe(`citadels.char.${slug}`) || slug;
const dname = (slug) => tMaybe(`citadels.district.${slug}`) || slug;

function seatLabel(message, seat) {
  const info = message.table.seats[seat];
  return info ? seatName(info) : `#${seat + 1}`;
}

/** An action ({notation, kind, args}) as a sentence in the page's language, e.g. build castle -> "Build Castle". */
export function actionLabel(action, message) {
  const { kind, args } = action;
  switch (kind) {
    case "pick": case "discard": case "kill": case "rob":
      return t(`citadels.action.${kind}`, { character: cname(args.character) });
    case "keep": case "build": case "lab": case "redraw":
      return t(`citadels.action.${kind}`, { card: dname(args.district) });
    case "swap":
      return t("citadels.action.swap", { name: seatLabel(message, args.seat) });
    case "destroy":
      return t("citadels.action.destroy", { name: seatLabel(message, args.seat), card: dname(args.district) });
    case "graveyard":
      return t(`citadels.action.graveyard_${args.choice}`);
    default:
      return tMaybe(`citadels.action.${kind}`) || action.notation;
  }
}

/** One log event as a sentence, naming seats, characters and cards in the page's language. */
export function eventText(event, message) {
  const params = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === "event") continue;
    if (SEAT_FIELDS.has(key) && typeof value === "number") params[key] = seatLabel(message, value);
    else if (key === "character") params[key] = cname(value);
    else if (key === "characters" || key === "offered") params[key] = value.map(cname).join(", ");
    else if (CARD_FIELDS.has(key)) params[key] = Array.isArray(value) ? (value.map(dname).join(", ") || "—") : dname(value);
    else params[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return tMaybe(`citadels.event.${event.event}`, params) || `${event.event} ${JSON.stringify(params)}`;
}

function crownIcon() {
  return svg("svg", { class: "icon crown", viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("path", { d: "M3 18h18l-1.5-10-4.5 4-3-7-3 7-4.5-4z", fill: "#e0a526", stroke: "#8a5d00", "stroke-width": "1" }),
    svg("rect", { x: 3, y: 18, width: 18, height: 3, fill: "#c8901c" }));
}

function coinIcon() {
  return svg("svg", { class: "icon coin", viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("circle", { cx: 12, cy: 12, r: 10, fill: "#f2c14e", stroke: "#a07a17", "stroke-width": 2 }),
    svg("circle", { cx: 12, cy: 12, r: 5.5, fill: "none", stroke: "#a07a17", "stroke-width": 1.2 }));
}

function cardBackIcon() {
  return svg("svg", { class: "icon card-back", viewBox: "0 0 18 24", "aria-hidden": "true" },
    svg("rect", { x: 1, y: 1, width: 16, height: 22, rx: 2, fill: "#6b4f3a", stroke: "#3e2c20", "stroke-width": 1.5 }),
    svg("path", { d: "M9 6l4 6-4 6-4-6z", fill: "#d9b77e" }));
}

/** Groups the legal actions by what they act on, so each becomes a button on that thing. */
function sortActions(actions) {
  const groups = { characters: {}, hand: {}, drawn: {}, cities: {}, seats: {}, bar: [] };
  const add = (bucket, key, action) => {
    (bucket[key] ||= []).push(action);
  };
  for (const action of actions) {
    const { kind, args } = action;
    if (["pick", "discard", "kill", "rob"].includes(kind)) add(groups.characters, args.character, action);
    else if (["build", "lab", "redraw"].includes(kind)) add(groups.hand, args.district, action);
    else if (kind === "keep") add(groups.drawn, args.district, action);
    else if (kind === "destroy") add(groups.cities, `${args.seat} ${args.district}`, action);
    else if (kind === "swap") add(groups.seats, args.seat, action);
    else groups.bar.push(action);
  }
  return groups;
}

function actionButton(action, context, message, text) {
  return el("button", {
    class: `action clickable act-${action.kind}`,
    dataset: { action: action.notation },
    title: actionLabel(action, message),
    onclick: (event) => {
      event.stopPropagation();
      context.act(action.notation);
    },
  }, text ?? actionLabel(action, message));
}

function districtCard(slug, { extra = [], small = false, path } = {}) {
  const { type, cost, points } = DISTRICTS[slug] || { type: "unique", cost: "?", points: "?" };
  return el("div", { class: `district ${type}${small ? " small" : ""}`, dataset: { card: slug, path, explain: explainKey("citadels", `district.${slug}`) } },
    el("span", { class: "cost" }, String(cost)),
    el("span", { class: "dname" }, dname(slug)),
    points !== cost ? el("span", { class: "points" }, `★${points}`) : null,
    el("span", { class: "dtype" }, t(`citadels.type.${type}`)),
    extra.length ? el("div", { class: "card-actions" }, extra) : null);
}

function characterCard(slug, { status = [], extra = [], big = false, path } = {}) {
  const rank = CHARACTERS.indexOf(slug) + 1;
  return el("div", { class: `character c-${slug}${big ? " big" : ""} ${status.map((s) => `is-${s.kind}`).join(" ")}`, dataset: { character: slug, path, explain: explainKey("citadels", `character.${slug}`) } },
    el("span", { class: "rank" }, String(rank)),
    el("span", { class: "cname" }, cname(slug)),
    el("div", { class: "status" }, status.map((s) => el("span", { class: `tag ${s.kind}` }, s.text))),
    extra.length ? el("div", { class: "card-actions" }, extra) : null);
}

function characterLine(view, message, groups, context) {
  const chars = view.characters;
  const pending = view.pending || {};
  const offered = new Set(pending.offered || []);
  return el("section", { class: "cz-characters panel", id: "characters", dataset: { path: "characters" } },
    el("h3", {}, t("citadels.ui.characters"),
      el("span", { class: "muted small" }, ` · ${t("citadels.ui.face_down_count", { n: chars.face_down_count })}`)),
    el("div", { class: "character-line" }, CHARACTERS.map((slug) => {
      const status = [];
      if (chars.face_up.includes(slug)) status.push({ kind: "faceup", text: t("citadels.ui.face_up") });
      if (chars.face_down_seen.includes(slug)) status.push({ kind: "seen", text: t("citadels.ui.face_down_seen") });
      if (chars.mine.includes(slug)) status.push({ kind: "mine", text: t("citadels.ui.yours") });
      if (slug in chars.revealed) status.push({ kind: "revealed", text: seatLabel(message, chars.revealed[slug]) });
      if (chars.murdered === slug) status.push({ kind: "murdered", text: t("citadels.ui.murdered") });
      if (chars.robbed === slug) status.push({ kind: "robbed", text: t("citadels.ui.robbed") });
      if (pending.character === slug && view.phase === "action") status.push({ kind: "now", text: t("citadels.ui.now") });
      const extra = (groups.characters[slug] || []).filter((a) => a.kind === "kill" || a.kind === "rob" || !pending.offered)
        .map((n) => actionButton(n, context, message));
      // the view paths this card shows, so a change to them lights it up
      const paths = [`characters.revealed.${slug}`];
      if (chars.murdered === slug) paths.push("characters.murdered");
      if (chars.robbed === slug) paths.push("characters.robbed");
      if (chars.mine.includes(slug)) paths.push(`characters.mine.${chars.mine.indexOf(slug)}`);
      return characterCard(slug, { status, extra, path: paths.join(" ") });
    })));
}

function pendingPanel(view, message, groups, context) {
  const pending = view.pending;
  const parts = [];
  if (pending && (pending.kind === "pick" || pending.kind === "discard")) {
    if (pending.offered) {
      parts.push(el("h3", {}, context.readOnly ? t("citadels.ui.offered_to", { name: seatLabel(message, pending.seat) }) : t("citadels.ui.offered")));
      parts.push(el("div", { class: "offer" }, pending.offered.map((slug) => characterCard(slug, {
        big: true, extra: (groups.characters[slug] || []).filter((a) => a.kind === "pick" || a.kind === "discard").map((a) => actionButton(a, context, message)),
      }))));
    } else {
      parts.push(el("p", { class: "muted" }, t("citadels.ui.offered_count", { name: seatLabel(message, pending.seat), n: pending.offered_count })));
    }
  }
  if (pending?.kind === "keep" && pending.drawn) {
    parts.push(el("h3", {}, t("citadels.ui.drawn", { n: pending.keeps_left ?? 1 })));
    parts.push(el("div", { class: "cards", id: "drawn" }, pending.drawn.map((slug) => districtCard(slug, {
      extra: (groups.drawn[slug] || []).map((n) => actionButton(n, context, message, t("citadels.button.keep"))),
    }))));
  }
  if (pending?.kind === "graveyard" && pending.card) {
    parts.push(el("p", {}, t("citadels.ui.graveyard_card", { card: dname(pending.card) })));
  }
  if (pending?.marked?.length) {
    parts.push(el("p", {}, `${t("citadels.ui.marked")}: ${pending.marked.map(dname).join(", ")}`));
  }
  if (groups.bar.length) {
    parts.push(el("div", { class: "action-bar", id: "actions" }, groups.bar.map((n) => actionButton(n, context, message))));
  }
  if (!parts.length) return null;
  const mine = message.seat !== null && message.current_player === message.seat;
  return el("section", { class: `cz-pending panel${mine ? " mine" : ""}`, id: "pending" }, parts);
}

function handPanel(view, message, groups, context) {
  if (view.hand === null || view.hand === undefined) return null;
  const seen = new Set();
  return el("section", { class: "cz-hand panel", id: "hand", dataset: { seat: message.seat, path: "hand" } },
    el("h3", {}, context.readOnly ? t("citadels.ui.hand_of", { name: seatLabel(message, message.seat) }) : t("citadels.ui.your_hand"),
      el("span", { class: "muted small" }, ` · ${view.hand.length}`)),
    el("div", { class: "cards" }, view.hand.map((slug, index) => {
      const first = !seen.has(slug);
      seen.add(slug);
      const extra = first ? (groups.hand[slug] || []).map((a) => actionButton(a, context, message,
        t(`citadels.button.${a.kind}`))) : [];
      return districtCard(slug, { extra, path: `hand.${index}` });
    })));
}

function seatPanel(view, message, seatView, groups, context) {
  const seat = seatView.seat;
  const isMe = seat === message.seat;
  const turn = view.current_player === seat;
  const destroyables = groups.cities;
  const seenInCity = new Set();
  const city = seatView.city.map((slug, index) => {
    const key = `${seat} ${slug}`;
    const first = !seenInCity.has(slug);
    seenInCity.add(slug);
    const extra = first ? (destroyables[key] || []).map((n) => actionButton(n, context, message, t("citadels.button.destroy"))) : [];
    return districtCard(slug, { extra, small: true, path: `seats.${seat}.city.${index}` });
  });
  const swap = (groups.seats[String(seat)] || []).map((n) => actionButton(n, context, message, t("citadels.button.swap")));
  return el("section", {
    class: `cz-seat panel${isMe ? " me" : ""}${turn ? " turn" : ""}`, dataset: { seat, path: `seats.${seat}`, boardSeat: seat },
  },
  el("header", {},
    el("strong", { class: "seat-name" }, seatLabel(message, seat), isMe && !context.readOnly ? ` (${t("seat.you")})` : ""),
    seatView.crown ? el("span", { class: "crown-holder", title: t("citadels.ui.crown"), dataset: { path: `seats.${seat}.crown` } }, crownIcon()) : null,
    el("span", { class: "gold", title: t("citadels.ui.gold", { n: seatView.gold }), dataset: { path: `seats.${seat}.gold` } }, coinIcon(), String(seatView.gold)),
    el("span", { class: "hand-count", title: t("citadels.ui.hand_count", { n: seatView.hand_count }), dataset: { path: `seats.${seat}.hand_count` } }, cardBackIcon(), String(seatView.hand_count)),
    el("span", { class: "score", title: t("citadels.ui.score", { n: seatView.score }), dataset: { path: `seats.${seat}.score` } }, `★ ${seatView.score}`),
    seatView.revealed_characters.map((slug, index) => el("span", { class: `chip char-chip c-${slug}`, dataset: { path: `seats.${seat}.revealed_characters.${index}`, explain: explainKey("citadels", `character.${slug}`) } }, cname(slug))),
    seatView.complete ? el("span", { class: "chip complete" }, view.first_complete === seat ? t("citadels.ui.first_complete") : t("citadels.ui.complete")) : null,
    swap),
  el("div", { class: "city", dataset: { path: `seats.${seat}.city` } }, city.length ? city : el("span", { class: "muted" }, t("citadels.ui.empty_city"))));
}

function finalPanel(view, message) {
  const final = view.final;
  if (!final) return null;
  const head = ["", t("citadels.ui.districts_points"), t("citadels.ui.five_types"), t("citadels.ui.first_bonus"),
    t("citadels.ui.complete_bonus"), dname("map_room"), dname("imperial_treasury"), t("citadels.ui.total"),
    t("citadels.ui.last_characters")];
  return el("section", { class: "cz-final panel", id: "citadels-final" },
    el("h3", {}, t("citadels.ui.final")),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
      el("tbody", {}, final.scores.map((score, seat) => {
        const b = final.breakdown[seat];
        return el("tr", { class: final.winners.includes(seat) ? "winner" : "" },
          el("td", {}, seatLabel(message, seat), final.winners.includes(seat) ? ` — ${t("table.winner")}` : ""),
          [b.districts, b.five_types, b.first_complete, b.complete, b.map_room, b.imperial_treasury].map((v) => el("td", {}, String(v ?? 0))),
          el("td", {}, el("strong", {}, String(score))),
          el("td", {}, (final.characters[seat] || []).map(cname).join(", ")));
      }))));
}

/** The game's own log, newest first: public events, then what only this seat saw. */
export function renderLog(message) {
  const view = message.view;
  if (!view) return el("p", { class: "muted" }, "—");
  const publicLog = newestFirst(view, "log", 120);
  const privateLog = newestFirst(view, "private_log", 40);
  return el("div", { class: "cz-log", id: "game-log" },
    el("h4", {}, t("citadels.ui.public_log")),
    el("ul", { class: "log" }, publicLog.map(({ item, path }) => el("li", { class: `ev-${item.event}`, dataset: { path } }, eventText(item, message)))),
    privateLog.length ? [el("h4", {}, t("citadels.ui.private_log")),
      el("ul", { class: "log private" }, privateLog.map(({ item, path }) => el("li", { dataset: { path } }, eventText(item, message))))] : null);
}

export function render(message, context) {
  const view = message.view;
  if (!view) return el("p", { class: "muted waiting" }, t("table.waiting_for_players"));
  const groups = sortActions(context.readOnly ? [] : legalActions(message));
  const status = el("div", { class: "cz-status" },
    el("span", { class: "chip" }, t("citadels.ui.round", { n: view.round })),
    el("span", { class: "chip" }, t(`citadels.phase.${view.phase}`)),
    el("span", { class: "chip" }, cardBackIcon(), t("citadels.ui.deck", { n: view.deck_count })),
    el("span", { class: "chip muted" }, t("citadels.ui.complete_at", { n: view.complete_at })));
  // Seats in table order starting from this seat, so "you" are always first.
  const order = view.seats.map((_, i) => (i + (message.seat ?? 0)) % view.seats.length);
  return el("div", { class: "citadels" },
    status,
    finalPanel(view, message),
    pendingPanel(view, message, groups, context),
    characterLine(view, message, groups, context),
    handPanel(view, message, groups, context),
    el("div", { class: "cz-seats" }, order.map((s) => seatPanel(view, message, view.seats[s], groups, context))),
    context.readOnly ? el("section", { class: "panel" }, renderLog(message)) : null);
}
