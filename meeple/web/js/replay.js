// Replays: step forwards and backwards through a finished game, as any seat or as a spectator.
// Every step is a view the server rebuilt by replaying the game; the history itself never leaves it.

import { api, el, LatestAnswer, languagePicker, loadLanguage, seatName, t, toast, translatePage, undoLine } from "./common.js";
import { loggedAction } from "./actions.js";
import { loadRenderer } from "./games/index.js";
import { installHelp } from "./help.js";
import { ChatBox } from "./chat.js";
import { ratedBadge } from "./rated.js";

const tableId = decodeURIComponent(window.location.pathname.split("/")[2]);
let renderer = null;
let current = null;
let step = 0;
let seat = null;
let game = null;

const slider = () => document.getElementById("replay-step");

/** Dragging the slider asks for many steps at once: an earlier answer coming last would pull it back. */
const stepAnswers = new LatestAnswer();

async function load() {
  const query = new URLSearchParams({ step: String(step) });
  if (seat !== null) query.set("seat", String(seat));
  const ticket = stepAnswers.ask();
  let answer;
  try {
    answer = await api(`/api/tables/${tableId}/replay?${query}`);
  } catch (error) {
    if (!stepAnswers.stale(ticket)) toast(error.message);
    return;
  }
  if (stepAnswers.stale(ticket)) return;
  current = answer;
  draw();
}

function draw() {
  if (!current) return;
  const { table } = current;
  const title = t(`game.${table.game}.title`);
  document.getElementById("table-title").textContent = `${title === `game.${table.game}.title` ? table.title : title} — ${t("replay.title")}`;
  document.title = `meeple — ${document.getElementById("table-title").textContent}`;
  document.getElementById("table-rated").replaceChildren(ratedBadge(table));
  slider().max = String(current.steps);
  slider().value = String(current.step);
  document.getElementById("replay-position").textContent = t("replay.step", { step: current.step, steps: current.steps });
  const last = current.last;
  document.getElementById("replay-last-action").textContent = last?.event === "undo" ? undoLine(last, table) : last
    ? `${seatName(table.seats[last.seat])}: ${last.action === undefined ? t("log.moved") : (renderer.actionLabel?.(loggedAction(last), current) ?? last.action)}${last.undone ? ` ${t("log.undone")}` : ""}`
    : "";
  document.getElementById("seats-bar").replaceChildren(...table.seats.map((s) => el("span", {
    class: `seat-chip ${s.kind}${s.seat === current.current_player ? " turn" : ""}${s.seat === seat ? " me" : ""}`,
  }, seatName(s), current.step === current.steps && table.scores ? el("strong", {}, ` ${table.scores[s.seat]}`) : "")));
  drawChat();
  const message = { ...current, legal: [], log: [] };
  document.getElementById("board").replaceChildren(renderer.render(message, { act: () => {}, readOnly: true }));
}

/** The table's chat, sent only to whoever was seated there (spectators and strangers get none). */
function drawChat() {
  const slot = document.getElementById("replay-chat-slot");
  slot.hidden = !current.chat;
  if (!current.chat) return;
  const box = new ChatBox({ id: "replay-chat", readOnly: true, send: async () => {} });
  box.add(current.chat);
  slot.replaceChildren(box.element);
}

function seatPicker(table) {
  const select = document.getElementById("replay-seat");
  select.replaceChildren(el("option", { value: "" }, t("replay.spectator")),
    ...table.seats.map((s) => el("option", { value: String(s.seat) }, seatName(s))));
  select.value = seat === null ? "" : String(seat);
  select.onchange = () => {
    seat = select.value === "" ? null : Number(select.value);
    load();
  };
}

function go(to) {
  if (!current) return;
  step = Math.max(0, Math.min(current.steps, to));
  load();
}

async function main() {
  await loadLanguage();
  const help = installHelp(document.getElementById("help-slot"), () => game);
  document.getElementById("language-slot").replaceChildren(languagePicker(() => {
    translatePage(document);
    help.refresh();
    if (current) seatPicker(current.table);
    draw();
  }));
  const info = await api(`/api/tables/${tableId}`);
  game = info.table.game;
  renderer = await loadRenderer(game);
  seatPicker(info.table);
  document.getElementById("replay-first").onclick = () => go(0);
  document.getElementById("replay-prev").onclick = () => go(step - 1);
  document.getElementById("replay-next").onclick = () => go(step + 1);
  document.getElementById("replay-last").onclick = () => go(current.steps);
  slider().oninput = () => go(Number(slider().value));
  document.addEventListener("keydown", (event) => {
    // arrows step the replay, except while typing or reading the rules help
    if (help.isOpen() || event.target.closest?.("input, select, textarea")) return;
    if (event.key === "ArrowLeft") go(step - 1);
    if (event.key === "ArrowRight") go(step + 1);
  });
  await load();
}

main().catch((error) => toast(error.message));
