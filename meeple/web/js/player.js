// A player's profile: per game the games played and won, the rating and its history chart, and the
// most recent games with links to their replays.

import { api, el, languagePicker, loadLanguage, seatName, t, toast, translatePage } from "./common.js";
import { gameTitle, playerLink, ratingChart } from "./ratings.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
let profile = null;

function gamesPanel() {
  const rows = profile.games.map((game) => el("tr", { dataset: { game: game.game } },
    el("td", {}, gameTitle(game.game, game.title)),
    el("td", { class: "num played" }, String(game.played)),
    el("td", { class: "num won" }, String(game.won)),
    el("td", { class: "num rating" }, game.rating === null ? "—" : String(game.rating)),
    el("td", { class: "chart-cell" }, game.history.length ? ratingChart(game.history, gameTitle(game.game, game.title)) : null)));
  return el("section", { class: "panel", id: "player-games" },
    el("h2", {}, t("ratings.per_game")),
    profile.games.length === 0 ? el("p", { class: "muted" }, t("ratings.no_games")) :
      el("table", { class: "ratings-table" },
        el("thead", {}, el("tr", {}, ...["ratings.game", "ratings.played", "ratings.won", "ratings.rating", "ratings.history"]
          .map((key) => el("th", {}, t(key))))),
        el("tbody", {}, rows)));
}

function recentPanel() {
  const items = profile.recent.map((table) => {
    const change = table.rating_change;
    const others = table.seats.filter((seat) => seat.seat !== table.seat).map(seatName).join(", ");
    return el("li", { class: "recent-game", dataset: { table: table.id } },
      el("span", { class: table.won ? "won" : "lost" }, t(table.won ? "ratings.result.win" : "ratings.result.loss")),
      " ", gameTitle(table.game, table.title), " · ", t("ratings.against", { names: others }),
      change ? el("span", { class: "change" }, ` · ${change.before} → ${change.after}`,
        change.against_bots ? ` (${t("ratings.against_bots")})` : "",
        change.abandoned ? ` (${t("ratings.abandoned")})` : "") : el("span", { class: "muted" }, ` · ${t("ratings.unrated")}`),
      " ", el("a", { href: `/tables/${table.id}/replay`, class: "replay-link" }, t("ratings.replay")));
  });
  return el("section", { class: "panel", id: "player-recent" }, el("h2", {}, t("ratings.recent")),
    items.length ? el("ul", { class: "recent-list" }, items) : el("p", { class: "muted" }, t("ratings.no_games")));
}

function draw() {
  translatePage(document);
  document.getElementById("language-slot").replaceChildren(languagePicker(draw));
  const main = document.getElementById("ratings-main");
  if (!profile) return;
  const heading = el("h1", { id: "player-name" }, playerLink(profile.player.name, profile.player.bot, profile.player.bot_level));
  main.replaceChildren(heading, profile.player.bot ? el("p", { class: "muted" }, t("ratings.bot_profile")) : null,
    gamesPanel(), recentPanel());
  document.title = `${heading.textContent} · meeple`;
}

async function main() {
  await loadLanguage();
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    toast(error.message);
  }
  draw();
}

main().catch((error) => toast(error.message));
