// A table: joins a seat, keeps a WebSocket open (reconnecting after a drop, to whichever server
// process answers, asking only for what it missed), draws the game with its renderer, sends clicked
// actions, and shows seats, log, invites and final scores. The server sends a full state on connect
// and then small updates (new log entries and a patch of this seat's view), applied here.

import { alertControls, TurnAlert } from "./alerts.js";
import { api, copyText, el, languagePicker, loadLanguage, refusalText, seatName, t, toast, translatePage, undoLine } from "./common.js";
import { loadRenderer } from "./games/index.js";
import { installHelp } from "./help.js";
import { legalActions, loggedAction } from "./actions.js";
import { confirmsUnused, setConfirmsUnused, unusedBenefits } from "./benefits.js";
import { ChangeTracker, diffPaths, patchPaths } from "./changes.js";
import { applyUpdate } from "./patch.js";
import { clockPanel, noteServerTime, seatClock, startTicker } from "./clock.js";
import { ChatBox } from "./chat.js";
import { ratedBadge } from "./rated.js";

const NAME_KEY = "meeple.name";
const tableId = decodeURIComponent(window.location.pathname.split("/")[2]);
const invitedSeat = new URLSearchParams(window.location.search).get("seat");

let message = null;
let renderer = null;
let socket = null;
let retryDelay = 500;
let waiting = false;
let help = null;
let connectedOnce = false;
let newestSeen = -1; // the newest version an update announced, applied or not
let shareUrl = `${window.location.origin}/`; // the server's address to share (/api/site): public, or LAN
const changes = new ChangeTracker(); // what the last moves changed, highlighted on the board
let focusedLogLine = null; // the log line whose move is outlined on the board (hover, tap, focus)
const turnAlert = new TurnAlert();
const openedBoards = new Set(); // other players' boards this page unfolded (folded ones show only their header on a phone)

let connectionState = "connecting";
let chat = null; // the table's chat, while this page has a seat (spectators have none)
let chatSeat = null;

/** The header's connection badge; a connected finished table says "finished", not "live". */
function setConnection(state) {
  connectionState = state;
  const shown = state === "online" && message?.table.status === "finished" ? "finished" : state;
  const node = document.getElementById("connection");
  node.dataset.state = shown;
  node.textContent = t(`connection.${shown}`);
}

/** Ask whether to go on when `unused` (message keys) would be left unused; resolves true to go on. */
function askUnused(unused) {
  return new Promise((resolve) => {
    document.getElementById("unused-dialog")?.remove();
    const keepAsking = el("input", { type: "checkbox", id: "unused-keep-asking", checked: true });
    const finish = (goOn) => {
      setConfirmsUnused(keepAsking.checked);
      dialog.close();
      dialog.remove();
      drawTablePanel(); // its copy of the preference
      resolve(goOn);
    };
    const dialog = el("dialog", { id: "unused-dialog", class: "unused-dialog", "aria-labelledby": "unused-title" },
      el("h3", { id: "unused-title" }, t("table.unused_title")),
      el("ul", { class: "unused-list" }, unused.map((key) => el("li", { dataset: { key } }, t(key)))),
      el("label", { class: "unused-keep-asking" }, keepAsking, " ", t("table.unused_preference")),
      el("div", { class: "dialog-buttons" },
        el("button", { id: "unused-back", onclick: () => finish(false) }, t("table.unused_back")),
        el("button", { id: "unused-go-on", class: "primary", onclick: () => finish(true) }, t("table.unused_go_on"))));
    dialog.addEventListener("cancel", (event) => { // Esc: go back
      event.preventDefault();
      finish(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    document.getElementById("unused-back").focus();
  });
}

/** Play `notation`, after asking when it would leave an optional benefit unused (and this browser asks). */
async function act(notation) {
  if (waiting || !message) return;
  const unused = confirmsUnused() ? unusedBenefits(message.table.game, notation, legalActions(message)) : [];
  if (unused.length && !(await askUnused(unused))) return;
  send(notation);
}

function send(notation) {
  if (waiting || !message) return;
  waiting = true;
  changes.clear();
  document.body.classList.add("waiting-for-server");
  const payload = { type: "act", action: notation, version: message.version };
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(payload));
  } else {
    api(`/api/tables/${tableId}/actions`, { method: "POST", body: { action: notation, version: message.version } })
      .then(show)
      .catch((error) => {
        toast(error.message);
        refresh();
      });
  }
}

async function refresh() {
  try {
    show(await api(`/api/tables/${tableId}`));
  } catch (error) {
    toast(error.message);
  }
}

/** Ask the server for what this page missed since the version it has (or a full state). */
function resync() {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "resync", version: message ? message.version : -1 }));
  }
}

function receiveUpdate(update) {
  newestSeen = Math.max(newestSeen, update.version);
  // before the first state, or old news (a move this page has already: one can arrive twice after a resync)
  if (!message || update.version < message.version || (update.from < message.version && update.version === message.version)) return;
  if (update.seat !== message.seat) { // this page sat down or left: its view is another seat's now
    socket.send(JSON.stringify({ type: "refresh" }));
    return;
  }
  if (update.from !== message.version) {
    resync(); // a gap: this page missed an update
    return;
  }
  // the platform's log lines carry "moves.<index>", so they find their move's changes as the game's do
  const paths = "view" in update ? [] : patchPaths(message.view, update.patch);
  changes.record(update.version, paths.concat(update.log.map((entry) => `moves.${entry.index}`)));
  show(applyUpdate(message, update), { patched: true });
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  // A reconnection says which version it has, so the server sends only what it missed.
  const since = connectedOnce && message ? `?version=${message.version}` : "";
  connectedOnce = true;
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(tableId)}${since}`);
  setConnection("connecting");
  socket.onopen = () => {
    retryDelay = 500;
    setConnection("online");
    loadChat(); // lines said while this page was away
  };
  socket.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "state") {
      show(data);
      if (newestSeen > message.version) resync(); // an update came before this state and is newer
    } else if (data.type === "update") receiveUpdate(data);
    else if (data.type === "chat") chat?.add(data.lines);
    else if (data.type === "error") {
      toast(refusalText(data.code, data.message));
      waiting = false;
      document.body.classList.remove("waiting-for-server");
    }
  };
  socket.onclose = () => {
    setConnection("offline");
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 3000);
  };
}

/** Draw `next` (a full state, or one rebuilt from an update: `patched`, its changes already recorded). */
function show(next, { patched = false } = {}) {
  if (message && next.version < message.version && next.table.status === message.table.status) return;
  if (!patched && message?.view && next.view && next.seat === message.seat && next.version > message.version) {
    changes.record(next.version, diffPaths(message.view, next.view)); // a full state after a gap: what it changed
  }
  const isHost = next.is_host ?? message?.is_host ?? false;
  message = { ...next, is_host: isHost };
  noteServerTime(message.table);
  setConnection(connectionState);
  waiting = false;
  document.body.classList.remove("waiting-for-server");
  draw();
}

/** The chat box follows this page's seat: made when it sits down, gone when it leaves. */
function placeChat() {
  if (message.seat === chatSeat && (chat !== null) === (message.seat !== null)) return;
  chatSeat = message.seat;
  document.getElementById("table-chat")?.remove();
  chat = null;
  if (message.seat === null) return;
  chat = new ChatBox({
    id: "table-chat",
    isMine: (line) => line.seat === message.seat,
    send: async (text) => {
      try {
        const { line } = await api(`/api/tables/${tableId}/chat`, { method: "POST", body: { text } });
        chat?.add([line]);
      } catch (error) {
        toast(error.message);
        throw error;
      }
    },
  });
  document.getElementById("log-panel").before(chat.element);
  loadChat();
}

async function loadChat() {
  if (!chat) return;
  try {
    chat.add((await api(`/api/tables/${tableId}/chat`)).lines);
  } catch {
    // not seated any more: the next state removes the box
  }
}

function drawSeats() {
  const bar = document.getElementById("seats-bar");
  const { table } = message;
  bar.replaceChildren(...table.seats.map((seat) => {
    const classes = ["seat-chip", seat.kind];
    if (seat.seat === message.current_player) classes.push("turn");
    if (seat.seat === message.seat) classes.push("me");
    if (!seat.taken) classes.push("open");
    if (table.winners?.includes(seat.seat)) classes.push("winner");
    return el("span", { class: classes.join(" "), dataset: { seat: seat.seat } },
      el("span", { class: `dot ${seat.online ? "on" : "off"}`, title: seat.online ? t("seat.online") : t("seat.offline") }),
      seatName(seat), seat.seat === message.seat ? ` (${t("seat.you")})` : "",
      table.scores ? el("strong", { class: "score" }, ` ${table.scores[seat.seat]}`) : "", seatClock(table, seat));
  }));
}

/** This browser's seat must act, and plays itself: while a bot stands in for it (its clock ran out),
 * the bot moves, so neither the banner nor the tab says "your turn". */
function myTurn() {
  const seat = message.seat === null ? null : message.table.seats[message.seat];
  return seat !== null && message.current_player === message.seat && !seat?.stand_in;
}

function drawBanner() {
  const banner = document.getElementById("banner");
  const { table } = message;
  let text = "";
  let kind = "";
  if (table.status === "open") text = t("table.waiting_for_players");
  else if (message.is_over) {
    const names = (table.winners || []).map((seat) => seatName(table.seats[seat])).join(", ");
    text = t("table.game_over", { winners: names });
    kind = "over";
  } else if (myTurn()) {
    text = t("table.your_turn");
    kind = "mine";
  } else if (message.current_player !== null) {
    text = t("table.waiting_for", { name: seatName(table.seats[message.current_player]) });
  }
  banner.hidden = !text;
  banner.textContent = text;
  banner.dataset.kind = kind;
}

function drawTablePanel() {
  const panel = document.getElementById("table-panel");
  const { table } = message;
  const parts = [el("h3", {}, t("table.table"))];
  parts.push(el("p", { class: "muted" }, message.seat === null ? t("table.spectating") : t("table.you_are", {
    name: seatName(table.seats[message.seat]), n: message.seat + 1 })));
  parts.push(el("p", { class: "muted", id: "spectators" }, table.watchers === false ? t("table.no_watchers")
    : t("table.spectators", { n: table.spectators ?? 0 })));

  const openSeats = table.seats.filter((seat) => !seat.taken);
  if (message.seat === null && openSeats.length && table.status !== "finished") {
    // The panel is redrawn on every update: keep what is typed (in the field being replaced, or saved
    // as it was typed), so an update never wipes the name, even one that lands mid-keystroke.
    const typed = document.getElementById("join-name")?.value;
    const name = el("input", { id: "join-name", maxlength: 40, value: typed || localStorage.getItem(NAME_KEY) || "",
      placeholder: t("lobby.name_placeholder"), oninput: () => localStorage.setItem(NAME_KEY, name.value.trim()) });
    const chosenName = () => name.value.trim() || localStorage.getItem(NAME_KEY) || "";
    parts.push(el("div", { class: "join" }, el("label", {}, el("span", {}, t("lobby.your_name")), name),
      openSeats.map((seat) => el("button", {
        class: `primary join-seat${String(seat.seat) === invitedSeat ? " invited" : ""}`,
        dataset: { seat: seat.seat },
        onclick: async () => {
          const chosen = chosenName();
          localStorage.setItem(NAME_KEY, chosen);
          try {
            await api(`/api/tables/${tableId}/join`, { method: "POST", body: { seat: seat.seat, name: chosen } });
            connectedOnce = false; // a new seat: a full state, not patches of the old one's view
            socket?.close();
          } catch (error) {
            toast(error.message);
          }
        },
      }, t("table.join_seat", { n: seat.seat + 1 })))));
  }
  if (openSeats.length && table.status === "open" && (message.seat !== null || message.is_host)) {
    parts.push(el("h4", {}, t("table.invite")));
    parts.push(el("ul", { class: "invites" }, openSeats.map((seat) => {
      const link = `${shareUrl}tables/${tableId}?seat=${seat.seat}`;
      const input = el("input", { class: "invite-link", readonly: true, value: link, onclick: (e) => e.target.select() });
      return el("li", {}, el("span", {}, t("lobby.seat_n", { n: seat.seat + 1 })), " ", input,
        el("button", { onclick: () => copyText(link, input) }, t("table.copy")));
    })));
  }
  if (message.is_host && table.status !== "finished") {
    const replaceable = table.seats.filter((seat) => seat.kind === "human" && seat.seat !== message.seat);
    if (replaceable.length) {
      parts.push(el("div", { class: "host-tools" }, replaceable.map((seat) => el("button", {
        class: "replace-bot", dataset: { seat: seat.seat },
        onclick: async () => {
          try {
            await api(`/api/tables/${tableId}/seats/${seat.seat}/bot`, { method: "POST", body: {} });
          } catch (error) {
            toast(error.message);
          }
        },
      }, t("table.replace_with_bot", { n: seat.seat + 1 })))));
    }
  }
  if (message.seat !== null && table.status === "running") {
    parts.push(el("label", { class: "preference" }, el("input", {
      type: "checkbox", id: "confirm-unused-pref", checked: confirmsUnused(),
      onchange: (event) => setConfirmsUnused(event.target.checked),
    }), " ", t("table.unused_preference")));
    parts.push(el("button", { id: "leave", class: "link", onclick: async () => {
      if (!window.confirm(t("table.leave_confirm"))) return;
      await api(`/api/tables/${tableId}/leave`, { method: "POST", body: {} });
      connectedOnce = false;
      socket?.close();
    } }, t("table.leave")));
  }
  if (table.status === "finished") {
    parts.push(el("h4", {}, t("table.final_scores")));
    parts.push(el("table", { class: "grid final-scores", id: "final-scores" }, el("tbody", {},
      table.seats.map((seat) => el("tr", { class: table.winners?.includes(seat.seat) ? "winner" : "" },
        el("td", {}, seatName(seat)), el("td", {}, String(table.scores?.[seat.seat] ?? "")),
        el("td", {}, table.winners?.includes(seat.seat) ? t("table.winner") : ""))))));
    parts.push(el("a", { class: "button", id: "replay-link", href: `/tables/${tableId}/replay` }, t("lobby.replay")));
    parts.push(...rematchControls(table));
  }
  panel.replaceChildren(...parts);
}

/** A finished table's rematch: a player offers it, or accepts the one offered, and is taken to the new
 * table (which starts once everyone accepted); a spectator may follow it there. */
function rematchControls(table) {
  if (message.seat === null) {
    return table.rematch ? [el("a", { class: "button", id: "rematch-watch", href: `/tables/${table.rematch}` },
      t("table.rematch_watch"))] : [];
  }
  const go = async () => {
    try {
      const seated = await api(`/api/tables/${tableId}/rematch`, { method: "POST", body: {} });
      window.location.assign(seated.url);
    } catch (error) {
      toast(error.message);
    }
  };
  if (!table.rematch) return [el("button", { class: "primary", id: "rematch", onclick: go }, t("table.rematch"))];
  return [el("p", { class: "rematch-offer" }, t("table.rematch_offered")),
    el("button", { class: "primary", id: "rematch-accept", onclick: go }, t("table.rematch_accept"))];
}

function drawLog() {
  const list = document.getElementById("log");
  const { table } = message;
  // Undos are the platform's, not the game's: their lines lead the log whoever draws the rest.
  const undos = message.log.filter((entry) => entry.event === "undo").slice(-20).reverse();
  const undoList = undos.length ? [el("ul", { class: "log undo-log", id: "undo-log" }, undos.map((entry) =>
    el("li", { dataset: { path: `moves.${entry.index}` } }, undoLine(entry, table))))] : [];
  if (renderer?.renderLog) {  // the game keeps its own log of public events (and of this seat's private ones)
    list.replaceChildren(...undoList, renderer.renderLog(message));
    return;
  }
  const entries = message.log.slice(-200).reverse();
  list.replaceChildren(el("ul", { class: "log" }, entries.map((entry) => el("li", {
    dataset: { path: `moves.${entry.index}` }, class: entry.undone ? "undone" : "" },
  ...(entry.event === "undo" ? [undoLine(entry, table)] : [el("span", { class: "who" }, seatName(table.seats[entry.seat])), " ",
    entry.action === undefined ? el("span", { class: "muted" }, t("log.moved")) : el("code", {}, renderer?.actionLabel?.(loggedAction(entry), message) ?? entry.action),
    ...(entry.undone ? [" ", el("span", { class: "muted" }, t("log.undone"))] : [])])))));
}

/** The Undo button, shown while the server says this seat may take back moves (`can_undo`). */
function drawUndo() {
  const bar = document.getElementById("undo-bar");
  const moves = message.table.status === "running" ? message.can_undo ?? 0 : 0;
  bar.hidden = moves === 0;
  const buttons = moves ? [el("button", { id: "undo", title: t("table.undo_title"), onclick: () => undo(1) }, t("table.undo"))] : [];
  if (moves > 1) { // the whole turn so far at once, as far as undo reaches
    buttons.push(el("button", { id: "undo-all", title: t("table.undo_all_title", { n: moves }), onclick: () => undo(moves) },
      t("table.undo_all", { n: moves })));
  }
  bar.replaceChildren(...buttons);
}

/** Take back this seat's last ``moves`` moves at the version this page shows (a stale page's undo is refused). */
function undo(moves) {
  if (waiting || !message) return;
  waiting = true;
  changes.clear();
  document.body.classList.add("waiting-for-server");
  const body = { moves, version: message.version };
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "undo", ...body }));
  } else {
    api(`/api/tables/${tableId}/undo`, { method: "POST", body }).then(show).catch((error) => {
      toast(error.message);
      refresh();
    });
  }
}

function drawClockPanel() {
  const panel = document.getElementById("clock-panel");
  const parts = clockPanel(message, { tableId, afterChange: show });
  panel.hidden = parts.length === 0;
  panel.replaceChildren(...parts);
}

function draw() {
  if (!message) return;
  const { table } = message;
  const game = t(`game.${table.game}.title`) === `game.${table.game}.title` ? table.title : t(`game.${table.game}.title`);
  const mine = table.status === "running" && !message.is_over && myTurn();
  turnAlert.update(mine, {
    title: mine ? t("alerts.title_your_turn", { game }) : `meeple — ${game}`,
    notifyTitle: t("alerts.notify_title", { game }), notifyBody: t("alerts.notify_body", { game }),
    key: tableId, url: window.location.pathname,
  });
  document.getElementById("table-title").textContent = game;
  document.getElementById("table-rated").replaceChildren(ratedBadge(table));
  drawSeats();
  drawClockPanel();
  drawBanner();
  drawUndo();
  drawTablePanel();
  placeChat();
  drawLog();
  const board = document.getElementById("board");
  board.dataset.version = String(message.version);
  board.replaceChildren(renderer.render(message, { act, readOnly: false })); // decorated by the board's observer
}

/** What this page adds to a drawing: folds, highlights, the outline of a focused log line. Also run when
 *  a drawing redraws itself (a stored tile or a room selected), replacing the board's child. */
function decorateBoard() {
  if (!message) return;
  foldOtherBoards(document.getElementById("board"));
  const toPlay = message.seat !== null && message.current_player === message.seat && !message.is_over;
  changes.highlight(document.querySelector(".table-main"), { untilMove: toPlay });
  if (focusedLogLine) showWhere(document.querySelector(`#log [data-path="${focusedLogLine}"]`));
}

/** Other players' boards (marked `data-board-seat` by the game's drawing) get a button that folds them
 *  to their header line; on a phone (css: max-width 600px) they start folded, so this seat's own hand,
 *  board and action bar come first. A spectator keeps the board of the seat to play open. */
function foldOtherBoards(root) {
  const own = message.seat ?? message.current_player;
  for (const node of root.querySelectorAll("[data-board-seat]")) {
    const seat = Number(node.dataset.boardSeat);
    if (seat === own || !node.firstElementChild) continue;
    node.querySelector(".board-toggle")?.remove();
    const toggle = el("button", { class: "board-toggle", dataset: { seat } });
    const present = () => {
      const folded = !openedBoards.has(seat);
      node.classList.toggle("folded", folded);
      toggle.setAttribute("aria-expanded", String(!folded));
      toggle.textContent = folded ? t("table.board_show") : t("table.board_hide");
    };
    toggle.addEventListener("click", (event) => {
      event.stopPropagation();
      if (openedBoards.has(seat)) openedBoards.delete(seat);
      else openedBoards.add(seat);
      present();
    });
    node.classList.add("other-board");
    node.firstElementChild.append(toggle);
    present();
  }
}

/** Outline on the board what the move of log line `line` changed (null: nothing). */
function showWhere(line) {
  focusedLogLine = line?.dataset.path ?? null;
  for (const node of document.querySelectorAll("#log .focused")) node.classList.remove("focused");
  line?.classList.add("focused");
  changes.focus(document.getElementById("board"), focusedLogLine);
}

function installLogFocus() {
  const log = document.getElementById("log");
  const lineOf = (event) => event.target.closest?.("#log [data-path]") ?? null;
  log.addEventListener("mouseover", (event) => showWhere(lineOf(event)));
  log.addEventListener("mouseleave", () => showWhere(null));
  log.addEventListener("focusin", (event) => showWhere(lineOf(event)));
  log.addEventListener("click", (event) => { // a tap on a phone: show, and a second tap hides
    const line = lineOf(event);
    showWhere(line && line.dataset.path === focusedLogLine && event.pointerType !== "mouse" ? null : line);
  });
}

async function main() {
  await loadLanguage();
  help = installHelp(document.getElementById("help-slot"), () => message?.table.game);
  document.getElementById("alerts-slot").replaceChildren(alertControls());
  document.getElementById("language-slot").replaceChildren(languagePicker(() => {
    translatePage(document);
    setConnection(connectionState);
    document.getElementById("alerts-slot").replaceChildren(alertControls());
    chatSeat = undefined; // the chat box is made again in the new language
    draw();
    help.refresh();
  }));
  installLogFocus();
  // a drawing that redraws itself replaces the board's child: decorate the new one too
  new MutationObserver((records) => {
    if (records.some((record) => [...record.addedNodes].some((node) => !node.classList?.contains("board-toggle")))) decorateBoard();
  }).observe(document.getElementById("board"), { childList: true });
  const [first, site] = await Promise.all([api(`/api/tables/${tableId}`), api("/api/site")]);
  shareUrl = site.share_url;
  renderer = await loadRenderer(first.table.game);
  show(first);
  connect();
  startTicker(() => message?.table);
}

main().catch((error) => toast(error.message));
