// "My games": every table this browser sits at (by its account, and by its seat cookies for guests),
// whose turn it is, the last move and a link; the tables waiting for me first. Each row is pushed over
// the lobby's socket when its turn changes (fetched only while the socket is down), so the tab's
// title, favicon, sound and notifications follow the turns of all my tables at once.

import { loggedAction } from "./actions.js";
import { alertControls, TurnAlert } from "./alerts.js";
import { api, currentLanguage, el, LatestAnswer, languagePicker, loadLanguage, refusalText, seatName, t, toast, translatePage, undoLine } from "./common.js";
import { loadRenderer } from "./games/index.js";
import { LobbyChannel } from "./lobbychannel.js";
import { ratedMarker } from "./rated.js";

const renderers = {};
const turnAlert = new TurnAlert();
let tables = [];
let account = null;
let waitingSeen = new Set();
let alertKey = 0;

function gameTitle(name, fallback) {
  const key = `game.${name}.title`;
  const text = t(key);
  return text === key ? fallback : text;
}

async function rendererFor(game) {
  renderers[game] = renderers[game] || loadRenderer(game);
  return renderers[game];
}

/** "3 minutes ago" in the page's language. */
function ago(iso) {
  const seconds = (new Date(iso).getTime() - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: "auto" });
  const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds), "second");
}

/** A duration as its two largest units in the page's language, e.g. "23 hr, 5 min". */
function duration(ms) {
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  let seconds = Math.max(0, Math.round(ms / 1000));
  const parts = [];
  for (const [unit, size] of units) {
    if (parts.length === 2) break;
    const count = Math.floor(seconds / size);
    seconds -= count * size;
    if (count || (parts.length === 0 && unit === "second")) {
      parts.push(new Intl.NumberFormat(currentLanguage(), { style: "unit", unit, unitDisplay: "short" }).format(count));
    } else if (parts.length) break;
  }
  return parts.join(" ");
}

/** The last move as words: the game's newest public log entry when it keeps one, else my own
 * action's label, else "made a move". */
function lastMoveWords(table, renderer) {
  const move = table.last_move;
  const message = { table, seat: table.mine[0], view: null };
  try {
    if (table.last_event && renderer.eventText) return renderer.eventText(table.last_event, message);
    if (move.event === "undo") return undoLine(move, table);
    if (move.action !== undefined && renderer.actionLabel) return renderer.actionLabel(loggedAction(move), message);
  } catch {
    // a renderer that needs more than the summary: say only that a move was made
  }
  return move.action ?? t("log.moved");
}

function turnText(table) {
  if (table.status === "finished") {
    const winners = (table.winners || []).map((seat) => seatName(table.seats[seat])).join(", ");
    return t("mygames.finished", { winners });
  }
  if (table.status === "open") return t("mygames.open");
  if (table.my_turn) return t("mygames.your_turn");
  const names = table.waiting_for.map((seat) => seatName(table.seats[seat])).join(", ");
  return t("mygames.waiting_for", { names });
}

function row(table, renderer) {
  const parts = [
    el("strong", { class: "game" }, gameTitle(table.game, table.title)),
    ratedMarker(table),
    el("span", { class: `turn${table.my_turn ? " mine" : ""}` }, turnText(table)),
    el("span", { class: "seat-names" }, table.seats.map((seat) => el("span", {
      class: `chip ${seat.kind}${table.mine.includes(seat.seat) ? " me" : ""}${table.waiting_for.includes(seat.seat) ? " turn" : ""}`,
    }, seatName(seat)))),
  ];
  for (const left of table.time_left) {
    const name = seatName(table.seats[left.seat]) + (table.mine.includes(left.seat) ? ` (${t("seat.you")})` : "");
    parts.push(el("span", { class: "time-left", dataset: { seat: left.seat } },
      `${name}: ${t("mygames.time_left", { time: duration(left.ms) })}`));
  }
  if (table.last_move) {
    parts.push(el("span", { class: "last-move muted" },
      t("mygames.last_move", { name: seatName(table.seats[table.last_move.seat]), when: ago(table.last_move.at) }),
      ": ", el("span", { class: "what" }, lastMoveWords(table, renderer))));
  }
  const label = table.status === "finished" ? t("lobby.view") : table.my_turn ? t("mygames.play") : t("mygames.open_table");
  parts.push(el("span", { class: "row-actions" },
    el("a", { class: `button${table.my_turn ? " primary" : ""}`, href: table.url }, label)));
  return el("div", { class: "table-row my-row", dataset: { table: table.id, status: table.status, myTurn: table.my_turn ? "yes" : "no" } },
    parts);
}

const GROUPS = ["waiting", "others", "finished"];

function groupOf(table) {
  return table.my_turn ? "waiting" : table.status === "finished" ? "finished" : "others";
}

/** The server's order: waiting for me first, then by last activity (newest first), finished last. */
function lastActivity(table) {
  return table.last_move?.at || table.finished_at || table.created_at;
}

function sortTables() {
  tables.sort((a, b) => GROUPS.indexOf(groupOf(a)) - GROUPS.indexOf(groupOf(b))
    || lastActivity(b).localeCompare(lastActivity(a)));
}

/** One table's row changed: replaced in place when the groups' order stays the same, else all drawn. */
async function patchRow(changed) {
  const before = tables.map((table) => table.id).join();
  const at = tables.findIndex((table) => table.id === changed.id);
  if (at >= 0) tables[at] = changed;
  else tables.push(changed);
  sortTables();
  alertTurns();
  const old = document.querySelector(`.my-row[data-table="${CSS.escape(changed.id)}"]`);
  const fresh = row(changed, await rendererFor(changed.game));
  if (old && at >= 0 && before === tables.map((table) => table.id).join() && old.closest(".my-group")?.dataset.group === groupOf(changed)) {
    old.replaceWith(fresh);
  } else {
    await draw();
  }
}

async function draw() {
  const box = document.getElementById("my-tables");
  if (!tables.length) {
    box.replaceChildren(el("p", { class: "muted", id: "no-games" }, t("mygames.none")));
    return;
  }
  const groups = [
    ["waiting", t("mygames.group_waiting"), tables.filter((table) => table.my_turn)],
    ["others", t("mygames.group_others"), tables.filter((table) => !table.my_turn && table.status !== "finished")],
    ["finished", t("mygames.group_finished"), tables.filter((table) => table.status === "finished")],
  ];
  const sections = [];
  for (const [name, heading, members] of groups) {
    if (!members.length) continue;
    const rows = await Promise.all(members.map(async (table) => row(table, await rendererFor(table.game))));
    sections.push(el("div", { class: "my-group", dataset: { group: name } }, el("h3", {}, heading), rows));
  }
  box.replaceChildren(...sections);
}

function alertTurns() {
  const waiting = tables.filter((table) => table.my_turn);
  const now = new Set(waiting.map((table) => `${table.id}:${table.actions}`));
  if ([...now].some((key) => !waitingSeen.has(key))) alertKey += 1;
  waitingSeen = now;
  const mine = waiting.length > 0;
  const names = waiting.map((table) => gameTitle(table.game, table.title)).join(", ");
  turnAlert.update(mine, {
    title: mine ? t("alerts.title_my_games", { n: waiting.length }) : `${t("mygames.title")} · meeple`,
    notifyTitle: t("alerts.notify_title", { game: names }), notifyBody: t("alerts.notify_body", { game: names }),
    key: `my-games-${alertKey}`, url: waiting.length === 1 ? waiting[0].url : "/my",
  });
}

let drawnOnce = false;

async function show(data) {
  tables = data.tables;
  account = data.account;
  if (!drawnOnce) {
    drawnOnce = true;
    drawAll();
  }
  alertTurns();
  await draw();
}

/** Lists fetched and pushed: a poll answered after the socket came back must not be drawn over its list. */
const lists = new LatestAnswer();

/** The whole list fetched: only while the lobby's socket is down (whose header says so: a failure
 * is not shown again). */
async function refresh() {
  const ticket = lists.ask();
  try {
    const data = await api("/api/my/tables");
    if (!lists.stale(ticket)) await show(data);
  } catch {
    // the next try, or the socket back, brings the list
  }
}

const channel = new LobbyChannel({
  topics: ["my"],
  onMessage: (message) => {
    if (message.type === "my") {
      lists.supersede();
      show(message).catch((error) => toast(error.message));
    }
    else if (message.type === "my_table") patchRow(message.table).catch((error) => toast(error.message));
    else if (message.type === "error") toast(refusalText(message.code, message.message));
  },
  poll: refresh,
});

async function drawMailSettings() {
  const box = document.getElementById("mail-settings");
  if (!account) {
    box.replaceChildren(el("p", { class: "muted" }, t("mygames.mail_sign_in"), " ",
      el("a", { href: "/" }, t("mygames.to_lobby"))));
    return;
  }
  const settings = await api("/api/me/alerts");
  const email = el("input", { id: "alert-email", type: "email", maxlength: 254, value: settings.email || "",
    placeholder: t("mygames.mail_placeholder"), "aria-label": t("mygames.mail_address") });
  const optIn = el("input", { id: "alert-email-turns", type: "checkbox", checked: settings.email_turns });
  const saved = el("span", { class: "muted", id: "mail-saved", role: "status" });
  const save = el("button", { id: "alert-save", class: "primary", type: "submit" }, t("mygames.mail_save"));
  const form = el("form", { class: "mail-form", id: "mail-form" },
    el("label", {}, el("span", {}, t("mygames.mail_address")), email),
    el("label", { class: "check" }, optIn, el("span", {}, t("mygames.mail_opt_in"))),
    el("span", {}, save, " ", saved),
    settings.mail_configured ? null : el("p", { class: "muted", id: "mail-not-configured" }, t("mygames.mail_not_configured")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("/api/me/alerts", { method: "POST",
        body: { email: email.value.trim() || null, email_turns: optIn.checked, language: currentLanguage() } });
      saved.textContent = t("mygames.mail_saved");
    } catch (error) {
      toast(error.message);
    }
  });
  box.replaceChildren(form);
}

function drawAll() {
  translatePage(document);
  document.getElementById("alerts-slot").replaceChildren(alertControls());
  document.getElementById("language-slot").replaceChildren(languagePicker(async () => {
    drawAll();
    alertTurns();
    await draw();
  }));
  drawMailSettings().catch((error) => toast(error.message));
  channel.show();
}

async function main() {
  await loadLanguage();
  channel.connect();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) channel.wake();
  });
}

main().catch((error) => toast(error.message));
