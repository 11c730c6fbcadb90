// What the profile and leaderboard pages share: game titles, a player's link, and the rating chart.

import { el, svg, t } from "./common.js";

export function gameTitle(name, fallback) {
  const key = `game.${name}.title`;
  const text = t(key);
  return text === key ? fallback || name : text;
}

export function playerLink(name, isBot, level) {
  const label = isBot ? t("ratings.bot_name", { level: t(`bot.level.${level}`) }) : name;
  return el("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link" }, label);
}

/** A rating's history as a small line chart: the value before the first rated game, then after each.
 * Drawn here in SVG, no library: a polyline, a dot per game (its tooltip says the result), and the
 * lowest and highest values on the left. */
export function ratingChart(history, game) {
  const width = 320, height = 120, left = 44, right = 8, top = 10, bottom = 10;
  const values = [history[0].before, ...history.map((point) => point.rating)];
  const low = Math.min(...values), high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const x = (i) => left + (values.length === 1 ? 0 : (i * (width - left - right)) / (values.length - 1));
  const y = (value) => top + ((high - value) * (height - top - bottom)) / span;
  const chart = svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": t("ratings.chart_label", { game, rating: values[values.length - 1] }), "data-points": values.length });
  chart.append(svg("line", { x1: left, y1: top, x2: left, y2: height - bottom, class: "axis" }));
  chart.append(svg("text", { x: left - 4, y: top + 4, "text-anchor": "end", class: "tick" }, String(high)));
  chart.append(svg("text", { x: left - 4, y: height - bottom, "text-anchor": "end", class: "tick" }, String(low)));
  chart.append(svg("polyline", { points: values.map((value, i) => `${x(i)},${y(value)}`).join(" "), class: "line" }));
  values.forEach((value, i) => {
    if (i === 0) return;
    const point = history[i - 1];
    const bots = point.against_bots ? ` (${t("ratings.against_bots")})` : "";
    chart.append(svg("circle", { cx: x(i), cy: y(value), r: 3, class: `dot ${point.result}${point.against_bots ? " vs-bots" : ""}` },
      svg("title", {}, `${t(`ratings.result.${point.result}`)}: ${point.before} → ${point.rating}${bots}`)));
  });
  return chart;
}
