// Draws any game's view as readable panels, and its legal actions as buttons. Games with a drawing
// of their own (games/<name>.js) export the same `render(message, context)` function.

import { el, seatName, t, tMaybe } from "../common.js";

function humanize(key) {
  return tMaybe(`view.${key}`) || String(key).replaceAll("_", " ");
}

function isPlain(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function plain(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "✓" : "✗";
  return String(value);
}

/** Any JSON value as nested, readable HTML. `seats` labels per-seat lists with the players' names. */
export function renderValue(value, seats, depth = 0) {
  if (isPlain(value)) return el("span", { class: "value" }, plain(value));
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "muted" }, "—");
    if (value.every(isPlain)) return el("span", { class: "chips" }, value.map((v) => el("span", { class: "chip" }, plain(v))));
    if (seats && value.length === seats.length && depth === 0) {
      return el("dl", { class: "per-seat" }, value.map((item, seat) => [
        el("dt", {}, seatName(seats[seat])), el("dd", {}, renderValue(item, null, depth + 1))]));
    }
    const keys = value.every((v) => v && typeof v === "object" && !Array.isArray(v))
      ? [...new Set(value.flatMap((v) => Object.keys(v)))] : null;
    if (keys && keys.length <= 8) {
      return el("table", { class: "grid" },
        el("thead", {}, el("tr", {}, keys.map((k) => el("th", {}, humanize(k))))),
        el("tbody", {}, value.map((row) => el("tr", {}, keys.map((k) => el("td", {}, renderValue(row[k], null, depth + 1)))))));
    }
    return el("ol", { class: "list" }, value.map((item) => el("li", {}, renderValue(item, null, depth + 1))));
  }
  return el("dl", { class: "fields" }, Object.entries(value).map(([key, item]) => [
    el("dt", {}, humanize(key)), el("dd", {}, renderValue(item, seats, depth + 1))]));
}

/** Legal actions as buttons; `label` turns a notation into what the player reads. */
export function actionButtons(message, context, label = (notation) => notation) {
  if (!message.legal?.length || context.readOnly) return null;
  return el("div", { class: "actions", id: "actions" },
    el("h3", {}, t("table.your_actions")),
    el("div", { class: "action-buttons" }, message.legal.map((notation) =>
      el("button", { class: "action", dataset: { action: notation }, onclick: () => context.act(notation) },
        label(notation)))));
}

export function render(message, context) {
  const view = message.view;
  if (!view) return el("p", { class: "muted waiting" }, t("table.waiting_for_players"));
  const seats = message.table.seats;
  const panels = Object.entries(view).map(([key, value]) =>
    el("section", { class: "panel view-panel", dataset: { key } }, el("h3", {}, humanize(key)), renderValue(value, seats)));
  return el("div", { class: "generic" }, actionButtons(message, context), el("div", { class: "view-panels" }, panels));
}
