// Whether a table's game counts for the ratings, as the table page, the replay, the lobby and My games
// show it: a badge whose tooltip says what counts, quoting the numbers the server's rules use
// (/api/ratings/rules, fetched once per page).

import { api, el, t } from "./common.js";

let rules = null; // the promise of /api/ratings/rules, made at the first badge

function ratingRules() {
  rules ??= api("/api/ratings/rules").catch(() => null);
  return rules;
}

/** What counts at ``table``: its rated or unrated rule, and the bots' mark when a bot sits there. */
function explanation(table, found) {
  if (!table.rated) return t("ratings.badge.unrated_about");
  const parts = [found ? t("ratings.badge.rated_about", { moves: found.min_moves }) : t("ratings.rated_about")];
  if (table.seats.some((seat) => seat.kind === "bot")) parts.push(t("ratings.badge.with_bots"));
  return parts.join(" ");
}

/** "Rated" or "Unrated" (``data-rated`` "yes" or "no"), its tooltip filled in once the rules arrived. */
export function ratedBadge(table, attrs = {}) {
  const badge = el("span", { ...attrs, class: `rated-badge ${table.rated ? "rated" : "unrated"}`,
    dataset: { rated: table.rated ? "yes" : "no" }, tabindex: 0 },
  t(table.rated ? "ratings.badge.rated" : "ratings.badge.unrated"));
  badge.title = explanation(table, null);
  ratingRules().then((found) => { badge.title = explanation(table, found); });
  return badge;
}

/** The lists' small marker: the badge on a rated table, nothing on an unrated one. */
export function ratedMarker(table) {
  return table.rated ? ratedBadge(table) : null;
}
