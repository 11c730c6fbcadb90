// Clocks on the table page and in the lobby's form. The server keeps the clocks (meeple/server/clocks.py)
// and sends, in every table summary, each seat's milliseconds left as of `since`, the seats whose
// clocks run, and its own `now`; this page counts down from those, correcting for the difference
// between its clock and the server's, so what it shows is what the server will decide on.

import { api, el, seatName, t, toast } from "./common.js";

let serverOffset = 0; // server time minus this page's time, in ms
let ticker = null;

/** "1:05" under an hour, "3 h 20 min" under a day, "2 d 4 h" beyond; never negative. */
export function formatLeft(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 3600) return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days) return `${t("clock.unit.d", { n: days })} ${t("clock.unit.h", { n: hours })}`;
  return `${t("clock.unit.h", { n: hours })} ${t("clock.unit.min", { n: minutes })}`;
}

/** A duration in seconds in whole units: "2 min", "10 s", "1 d", "12 h". */
export function formatSpan(seconds) {
  if (seconds % 86400 === 0) return t("clock.unit.d", { n: seconds / 86400 });
  if (seconds % 3600 === 0) return t("clock.unit.h", { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t("clock.unit.min", { n: seconds / 60 });
  return t("clock.unit.s", { n: seconds });
}

/** "Fast: 2 min + 10 s a move", "1 day a move", "No time limit". */
export function speedLabel(profile) {
  const name = t(`clock.speed.${profile.speed ?? profile.name}`);
  if (profile.bank === null || profile.bank === undefined) return name;
  if (profile.mode === "turn-based") return name;
  return `${name}: ${t("clock.bank_bonus", { bank: formatSpan(profile.bank), bonus: formatSpan(profile.bonus) })}`;
}

/** Milliseconds `seat` has left now, as the server counts. */
export function leftOf(clock, seat) {
  if (!clock || !clock.remaining) return null;
  const running = clock.running.includes(seat);
  const spent = running ? Date.now() + serverOffset - Date.parse(clock.since) : 0;
  return Math.max(0, clock.remaining[seat] - Math.max(0, spent));
}

/** A table message arrived: learn how far this page's clock is from the server's. */
export function noteServerTime(table) {
  if (table?.clock?.now) serverOffset = Date.parse(table.clock.now) - Date.now();
}

/** The clock shown on a seat's chip (updated in place by the ticker). */
export function seatClock(table, seat) {
  const clock = table.clock;
  if (!clock || !clock.remaining || table.status !== "running") return null;
  const running = clock.running.includes(seat.seat);
  return el("span", { class: `seat-clock${running ? " running" : ""}`, dataset: { clockSeat: seat.seat },
    title: t("clock.time_left") }, formatLeft(leftOf(clock, seat.seat)));
}

/** Redraw every seat clock's text each quarter second; `current` gives the latest table summary. */
export function startTicker(current) {
  if (ticker) return;
  ticker = setInterval(() => {
    const table = current();
    if (!table?.clock?.remaining) return;
    for (const node of document.querySelectorAll("[data-clock-seat]")) {
      const left = leftOf(table.clock, Number(node.dataset.clockSeat));
      node.textContent = formatLeft(left);
      node.classList.toggle("low", node.classList.contains("running") && left < 30000);
    }
  }, 250);
}

/** A platform event of the clock (an Event: `{event, seat, level?, choice?, ...}`) as a log line. */
function eventLine(table, event) {
  const seat = table.seats[event.seat];
  const name = seat?.name || seatName(seat);
  const level = event.level ? t(`bot.level.${event.level}`) : "";
  const choice = event.choice ? t(`clock.choice.${event.choice}`) : "";
  return el("li", { class: `clock-event ${event.event}`, dataset: { kind: event.event } },
    t(`clock.event.${event.event}`, { name, level, choice }));
}

/** The clock panel: mode and speed, the timeout rule, the reclaim button or the vote, the events. */
export function clockPanel(message, { tableId, afterChange }) {
  const { table } = message;
  const clock = table.clock;
  if (!clock) return [];
  const parts = [el("h3", {}, t("clock.title")),
    el("p", { class: "muted clock-settings" }, `${t(`lobby.mode.${table.mode}`)} · ${speedLabel(clock)}`)];
  if (clock.bank !== null) parts.push(el("p", { class: "muted" }, t(`clock.rule.${clock.timeout_rule}`)));
  const mine = message.seat === null ? null : table.seats[message.seat];
  const post = (path, body) => async () => {
    try {
      afterChange(await api(`/api/tables/${tableId}/${path}`, { method: "POST", body }));
    } catch (error) {
      toast(error.message);
    }
  };
  if (mine?.stand_in && table.status === "running") {
    parts.push(el("div", { class: "stand-in notice" },
      el("p", {}, t("clock.stand_in", { level: t(`bot.level.${mine.bot_level}`) })),
      el("button", { id: "reclaim", class: "primary", onclick: post("reclaim", {}) }, t("clock.reclaim")),
      el("p", { class: "muted" }, t("clock.reclaim_rule"))));
  }
  const vote = clock.vote;
  if (vote) {
    const late = table.seats[vote.seat];
    const name = late?.name || seatName(late);
    const box = el("div", { class: "vote notice", id: "vote" });
    if (message.seat === vote.seat) box.append(el("p", {}, t("clock.vote_you")));
    else if (vote.voters.includes(message.seat)) {
      const mineVote = vote.ballots[String(message.seat)];
      if (mineVote) box.append(el("p", {}, t("clock.voted", { choice: t(`clock.choice.${mineVote}`) })));
      else {
        box.append(el("p", {}, t("clock.vote_question", { name })),
          el("button", { id: "vote-skip", onclick: post("vote", { choice: "skip" }) }, t("clock.vote_skip")),
          el("button", { id: "vote-bot", onclick: post("vote", { choice: "bot" }) }, t("clock.vote_bot")));
      }
    } else box.append(el("p", {}, t("clock.vote_waiting", { name })));
    parts.push(box);
  }
  const events = clock.events || [];
  if (events.length) {
    parts.push(el("ul", { class: "log clock-events", id: "clock-events" },
      events.slice().reverse().map((event) => eventLine(table, event))));
  }
  return parts;
}

/** The lobby form's fields: mode, speed, timeout rule and the bot that takes over. */
export function clockFields(catalogue) {
  const clocks = catalogue.clocks;
  const modes = Object.keys(clocks.modes);
  const modeSelect = el("select", { id: "clock-mode", name: "mode" },
    modes.map((mode) => el("option", { value: mode }, t(`lobby.mode.${mode}`))));
  const speedSelect = el("select", { id: "clock-speed", name: "speed" });
  const ruleSelect = el("select", { id: "clock-rule", name: "timeout_rule" },
    clocks.timeout_rules.map((rule) => el("option", { value: rule }, t(`clock.rule.${rule}`))));
  const levelSelect = el("select", { id: "clock-level", name: "timeout_level" },
    catalogue.bot_levels.map((level) => el("option", { value: level }, t(`bot.level.${level}`))));
  levelSelect.value = clocks.default_timeout_level;
  const timeoutLabels = [el("label", {}, el("span", {}, t("clock.timeout_rule")), ruleSelect),
    el("label", {}, el("span", {}, t("clock.timeout_level")), levelSelect)];

  function renderSpeeds() {
    const mode = modeSelect.value;
    speedSelect.replaceChildren(...clocks.modes[mode].map((profile) =>
      el("option", { value: profile.name }, speedLabel({ ...profile, speed: profile.name }))));
    speedSelect.value = clocks.default_speed[mode];
    renderRule();
  }
  function renderRule() {
    const timed = clocks.modes[modeSelect.value].find((p) => p.name === speedSelect.value)?.bank !== null;
    for (const label of timeoutLabels) label.hidden = !timed;
  }
  modeSelect.addEventListener("change", renderSpeeds);
  speedSelect.addEventListener("change", renderRule);
  renderSpeeds();
  const node = el("fieldset", { class: "clock-fields", id: "clock-fields" }, el("legend", {}, t("clock.title")),
    el("label", {}, el("span", {}, t("clock.mode")), modeSelect),
    el("label", {}, el("span", {}, t("clock.speed")), speedSelect), timeoutLabels);
  const read = () => ({ mode: modeSelect.value, speed: speedSelect.value, timeout_rule: ruleSelect.value,
    timeout_level: levelSelect.value });
  return { node, read };
}
