// The leaderboards: per game and player count (or every count), the best conservative ratings of
// players with at least the minimum number of rated games.

import { api, el, LatestAnswer, languagePicker, loadLanguage, t, toast, translatePage } from "./common.js";
import { gameTitle, playerLink } from "./ratings.js";

const params = new URLSearchParams(location.search);
let games = [];
let board = null;
/** Two quick changes of the picker ask for two boards; the answer for the first may come last. */
const boards = new LatestAnswer();

/** Fetch the board the address names; whether it is the latest asked for (and so now ``board``). */
async function load() {
  const game = params.get("game") || games[0]?.name;
  const ticket = boards.ask();
  const answer = await api(`/api/leaderboard?game=${encodeURIComponent(game)}&players=${Number(params.get("players") || 0)}`);
  if (boards.stale(ticket)) return false;
  board = answer;
  return true;
}

function picker() {
  const gameSelect = el("select", { id: "board-game", "aria-label": t("ratings.game") },
    games.map((game) => el("option", { value: game.name, selected: game.name === board.game }, gameTitle(game.name, game.title))));
  const countSelect = el("select", { id: "board-players", "aria-label": t("ratings.players") },
    el("option", { value: 0, selected: board.players === 0 }, t("ratings.every_count")),
    board.players_allowed.map((count) => el("option", { value: count, selected: board.players === count },
      t("ratings.count", { n: count }))));
  const change = async () => {
    params.set("game", gameSelect.value);
    params.set("players", gameSelect.value === board.game ? countSelect.value : "0");
    history.replaceState(null, "", `?${params}`);
    try {
      if (await load()) draw();
    } catch (error) {
      toast(error.message);
    }
  };
  gameSelect.addEventListener("change", change);
  countSelect.addEventListener("change", change);
  return el("div", { class: "board-picker" }, gameSelect, " ", countSelect);
}

function draw() {
  translatePage(document);
  document.getElementById("language-slot").replaceChildren(languagePicker(draw));
  if (!board) return;
  const rows = board.leaders.map((row) => el("tr", {},
    el("td", { class: "num" }, String(row.rank)), el("td", {}, playerLink(row.name, row.bot, row.bot_level)),
    el("td", { class: "num rating" }, String(row.rating)), el("td", { class: "num" }, String(row.games)),
    el("td", { class: "num" }, String(row.wins))));
  document.getElementById("ratings-main").replaceChildren(el("section", { class: "panel", id: "leaderboard" },
    el("h2", {}, t("ratings.leaderboard")), picker(),
    el("p", { class: "muted" }, t("ratings.min_games", { n: board.min_games })),
    rows.length ? el("table", { class: "ratings-table" },
      el("thead", {}, el("tr", {}, ...["ratings.rank", "ratings.player", "ratings.rating", "ratings.played", "ratings.won"]
        .map((key) => el("th", {}, t(key))))), el("tbody", {}, rows)) :
      el("p", { class: "muted", id: "board-empty" }, t("ratings.board_empty"))));
}

async function main() {
  await loadLanguage();
  games = (await api("/api/games")).games;
  await load();
  draw();
}

main().catch((error) => toast(error.message));
