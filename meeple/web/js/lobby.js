// The lobby: create a table (game, players, options, seats and bots), list open / running / finished
// tables, join a seat as a guest or with an account.

import { api, botLevelName, copyText, el, LatestAnswer, languagePicker, loadLanguage, refusalText, seatName, t, tMaybe, toast, translatePage } from "./common.js";
import { ChatBox } from "./chat.js";
import { clockFields } from "./clock.js";
import { LobbyChannel } from "./lobbychannel.js";
import { ratedMarker } from "./rated.js";

const NAME_KEY = "meeple.name";
const OPTION_GROUPS = ["setup", "rules", "scoring", "research"];
const CUSTOM = "custom";
const DEFAULTS = "defaults";
let catalogue = { games: [], bot_levels: [], default_bot_level: "medium" };
let account = null;
let site = null;
const pageQuery = new URLSearchParams(window.location.search);
/** The table list's filters, kept in the page's address so a reload or a shared link keeps them. */
const filters = { game: pageQuery.get("game") || "", mode: pageQuery.get("mode") || "",
  openSeats: pageQuery.get("open_seats") === "true" };

function gameTitle(name, fallback) {
  const key = `game.${name}.title`;
  const text = t(key);
  return text === key ? fallback : text;
}

/** The key part naming one value of an option: null is "null", anything else its text. */
function valueKey(value) {
  return value === null ? "null" : String(value);
}

/** An option value in words: on/off, the game's name for it, or the number itself. */
function valueLabel(game, option, value) {
  if (typeof value === "boolean") return t(value ? "lobby.option_on" : "lobby.option_off");
  return tMaybe(`${game}.option.${option.name}.choice.${valueKey(value)}`) ?? String(value ?? "");
}

/** The values a select offers: the game's own list, or a short integer range (e.g. a seat). */
function choicesOf(option) {
  if (option.choices) return option.choices;
  if (option.type !== "int" || option.minimum === null || option.maximum === null) return null;
  if (option.maximum - option.minimum > 12) return null;
  const range = [];
  for (let value = option.minimum; value <= option.maximum; value += 1) range.push(value);
  return option.default === null ? [null, ...range] : range;
}

/** One option's row in the form: its name, its control, what it does and its default. Returns the
 * row with read() and write(value) for the control. */
function optionField(game, option) {
  const id = `option-${option.name}`;
  const name = t(`${game}.option.${option.name}`);
  const about = el("p", { class: "option-about muted" }, t(`${game}.option.${option.name}.about`), " ",
    t("lobby.option_default", { value: valueLabel(game, option, option.default) }));
  const choices = choicesOf(option);
  const isSwitch = option.type === "bool" || (choices && choices.every((choice) => typeof choice === "boolean"));
  let control;
  let read;
  let write;
  let extra = null;
  if (isSwitch) {
    control = el("input", { id, type: "checkbox", checked: option.default === true });
    read = () => control.checked;
    write = (value) => { control.checked = value === true; };
  } else if (choices) {
    control = el("select", { id },
      choices.map((choice, index) => el("option", { value: String(index) }, valueLabel(game, option, choice))));
    read = () => choices[Number(control.value)];
    write = (value) => { control.value = String(Math.max(choices.indexOf(value), 0)); };
  } else if (option.suggestions?.length) {
    // the usual values by name, and "other" opens a field for any value the game accepts
    const OTHER = "other";
    const select = el("select", { id },
      option.suggestions.map((value, index) => el("option", { value: String(index) }, valueLabel(game, option, value))),
      el("option", { value: OTHER }, t("lobby.option_other")));
    const other = el("input", { id: `${id}-other`, type: "text", "aria-label": name });
    const showOther = () => { other.hidden = select.value !== OTHER; };
    select.addEventListener("change", showOther);
    control = select;
    read = () => (select.value === OTHER ? other.value.trim() || option.default : option.suggestions[Number(select.value)]);
    write = (value) => {
      const index = option.suggestions.indexOf(value);
      select.value = index >= 0 ? String(index) : OTHER;
      other.value = index >= 0 ? "" : String(value ?? "");
      showOther();
    };
    other.addEventListener("change", () => select.dispatchEvent(new Event("change")));
    extra = other;
  } else {
    const placeholder = option.default === null ? valueLabel(game, option, null) : undefined;
    control = el("input", option.type === "int"
      ? { id, type: "number", min: option.minimum ?? undefined, max: option.maximum ?? undefined, placeholder }
      : { id, type: "text", placeholder });
    read = () => {
      if (control.value === "") return option.default;
      return option.type === "int" ? Number(control.value) : control.value;
    };
    write = (value) => { control.value = value === null ? "" : String(value); };
  }
  control.dataset.option = option.name;
  write(option.default);
  const label = el("label", { class: isSwitch ? "option-name switch" : "option-name", for: id },
    isSwitch ? control : null, el("span", {}, name), isSwitch ? null : control, extra);
  const row = el("div", { class: "option", dataset: { optionRow: option.name } }, label, about);
  return { option, control, row, read, write };
}

/** The game's presets as complete option values; "defaults" joins them when no preset is the defaults. */
function presetsOf(chosen) {
  const defaults = Object.fromEntries(chosen.options.map((option) => [option.name, option.default]));
  const presets = Object.entries(chosen.presets).map(([name, values]) => ({
    name, label: t(`${chosen.name}.preset.${name}`), about: t(`${chosen.name}.preset.${name}.about`),
    values: { ...defaults, ...values },
  }));
  const sameAsDefaults = (preset) => chosen.options.every((option) => preset.values[option.name] === option.default);
  if (!presets.some(sameAsDefaults)) {
    presets.unshift({ name: DEFAULTS, label: t("lobby.preset_defaults"), about: t("lobby.preset_defaults_about"),
      values: defaults });
  }
  return presets;
}

/** What the creation form holds now (each control by id, whether its options are open), so that drawing
 * it again — in another language, after signing in — keeps what the player chose; null before it is drawn. */
function createFormChoices(form) {
  const values = [...form.querySelectorAll("input[id], select[id]")].map((control) =>
    [control.id, control.type === "checkbox" ? control.checked : control.value]);
  if (!values.length) return null;
  return { values, optionsOpen: form.querySelector(".options-box")?.open ?? false, drawnFor: form.dataset.drawnFor };
}

/** Put kept choices back as the player would: the game and the player count first (they redraw the seats
 * and options), then every other control in the form's order, each announcing its change so that what
 * depends on it follows (the clock's speeds, a seat's description, the matching preset). The preset is
 * not set: it follows from the options. A name typed before signing in gives way to the account's. */
function restoreCreateForm(form, kept) {
  const set = (id, value) => {
    const control = form.querySelector(`#${CSS.escape(id)}`);
    if (!control) return;
    if (control.type === "checkbox") control.checked = value;
    else control.value = value;
    control.dispatchEvent(new Event("change"));
  };
  const values = new Map(kept.values);
  for (const first of ["game", "players"]) if (values.has(first)) set(first, values.get(first));
  for (const [id, value] of kept.values) {
    if (id === "game" || id === "players" || id === "preset") continue;
    if (id === "name" && kept.drawnFor !== (account?.name ?? "")) continue;
    set(id, value);
  }
  const box = form.querySelector(".options-box");
  if (box) box.open = kept.optionsOpen;
}

function renderCreateForm() {
  const form = document.getElementById("create-form");
  const kept = createFormChoices(form);
  form.replaceChildren();
  if (!catalogue.games.length) {
    form.append(el("p", {}, t("lobby.no_games")));
    return;
  }
  const gameSelect = el("select", { id: "game", name: "game" },
    catalogue.games.map((g) => el("option", { value: g.name }, gameTitle(g.name, g.title))));
  const preferred = catalogue.games.find((g) => g.name === "citadels");
  if (preferred) gameSelect.value = preferred.name;
  const playersInput = el("input", { id: "players", type: "number", name: "players" });
  const nameInput = el("input", { id: "name", name: "name", maxlength: 40, required: true,
    value: account?.name || localStorage.getItem(NAME_KEY) || "", placeholder: t("lobby.name_placeholder") });
  const presetSelect = el("select", { id: "preset", name: "preset" });
  const presetAbout = el("p", { class: "preset-about muted", id: "preset-about" });
  const optionsBox = el("div", { class: "options" });
  const seatsBox = el("div", { class: "seats-config", id: "seats-config" });
  let fields = [];
  let presets = [];

  const game = () => catalogue.games.find((g) => g.name === gameSelect.value);

  function seatField(seat, count) {
    const defaultKind = seat === 0 ? "me" : count > 1 ? `bot:${catalogue.default_bot_level}` : "human";
    const kind = el("select", { class: "seat-kind", id: `seat-kind-${seat}`, "aria-label": t("lobby.seat_n", { n: seat + 1 }) },
      el("option", { value: seat === 0 ? "me" : "human" }, seat === 0 ? t("lobby.seat_me") : t("lobby.seat_human")),
      catalogue.bot_levels.map((level) => el("option", { value: `bot:${level}`, title: t(`bot.level.${level}.about`) },
        t("lobby.bot_level", { level: botLevelName(level) }))));
    kind.value = defaultKind;
    const about = el("span", { class: "seat-about muted", id: `seat-about-${seat}` });
    const describe = () => {
      about.textContent = kind.value.startsWith("bot:") ? t(`bot.level.${kind.value.slice(4)}.about`) : "";
    };
    kind.addEventListener("change", describe);
    describe();
    return el("div", { class: "seat-row" },
      el("label", { class: "seat-config" }, el("span", {}, t("lobby.seat_n", { n: seat + 1 })), kind), about);
  }

  function renderSeats() {
    const count = Number(playersInput.value);
    seatsBox.replaceChildren();
    for (let seat = 0; seat < count; seat += 1) seatsBox.append(seatField(seat, count));
  }

  /** Show which preset the options now match, or "custom". */
  function showMatchingPreset() {
    const current = Object.fromEntries(fields.map((field) => [field.option.name, field.read()]));
    const match = presets.find((preset) => fields.every((field) => preset.values[field.option.name] === current[field.option.name]));
    presetSelect.value = match ? match.name : CUSTOM;
    presetAbout.textContent = match ? match.about : t("lobby.preset_custom_about");
    for (const field of fields) field.row.classList.toggle("option-changed", current[field.option.name] !== field.option.default);
  }

  function renderOptions(chosen) {
    fields = chosen.options.map((option) => optionField(chosen.name, option));
    presets = presetsOf(chosen);
    presetSelect.replaceChildren(
      ...presets.map((preset) => el("option", { value: preset.name, title: preset.about }, preset.label)),
      el("option", { value: CUSTOM }, t("lobby.preset_custom")));
    const groups = OPTION_GROUPS.map((group) => {
      const rows = fields.filter((field) => (field.option.group || "rules") === group).map((field) => field.row);
      return rows.length ? el("fieldset", { class: `option-group group-${group}` },
        el("legend", {}, t(`lobby.option_group.${group}`)), rows) : null;
    });
    optionsBox.replaceChildren(...groups.filter(Boolean));
    for (const field of fields) field.control.addEventListener("change", showMatchingPreset);
    showMatchingPreset();
  }

  presetSelect.addEventListener("change", () => {
    const preset = presets.find((p) => p.name === presetSelect.value);
    if (preset) for (const field of fields) field.write(preset.values[field.option.name]);
    showMatchingPreset();
  });

  function renderGame() {
    const chosen = game();
    playersInput.min = chosen.min_players;
    playersInput.max = chosen.max_players;
    const wanted = Math.min(Math.max(Number(playersInput.value) || 4, chosen.min_players), chosen.max_players);
    playersInput.value = String(wanted);
    renderOptions(chosen);
    renderSeats();
  }

  gameSelect.addEventListener("change", renderGame);
  playersInput.addEventListener("change", () => {
    const chosen = game();
    playersInput.value = String(Math.min(Math.max(Number(playersInput.value), chosen.min_players), chosen.max_players));
    renderSeats();
  });

  const clock = clockFields(catalogue);
  const watchersInput = el("input", { type: "checkbox", id: "watchers", name: "watchers", checked: true });
  const ratedBox = el("input", { type: "checkbox", id: "rated", name: "rated", checked: true });
  form.append(
    el("label", {}, el("span", {}, t("lobby.game")), gameSelect),
    el("label", {}, el("span", {}, t("lobby.players")), playersInput),
    el("label", {}, el("span", {}, t("lobby.your_name")), nameInput),
    el("fieldset", {}, el("legend", {}, t("lobby.seats")), seatsBox),
    clock.node,
    el("label", { class: "preference", title: t("lobby.watchers_about") }, watchersInput, " ", t("lobby.watchers")),
    el("label", { class: "preference", title: t("ratings.rated_about") }, ratedBox, " ", t("ratings.rated")),
    el("label", {}, el("span", {}, t("lobby.preset")), presetSelect),
    presetAbout,
    el("details", { class: "options-box" }, el("summary", {}, t("lobby.options")), optionsBox),
    el("button", { type: "submit", id: "create-button", class: "primary" }, t("lobby.create_button")),
  );
  renderGame();
  if (kept) restoreCreateForm(form, kept);
  form.dataset.drawnFor = account?.name ?? "";  // the account the name field was filled for

  form.onsubmit = async (event) => {
    event.preventDefault();
    const chosen = game();
    const options = {};
    for (const field of fields) {
      const value = field.read();
      if (value !== field.option.default) options[field.option.name] = value;
    }
    let mySeat = null;
    const seats = [...seatsBox.querySelectorAll(".seat-kind")].map((select, index) => {
      if (select.value === "me") {
        mySeat = index;
        return { kind: "human" };
      }
      if (select.value === "human") return { kind: "human" };
      return { kind: "bot", level: select.value.slice(4) };
    });
    const name = nameInput.value.trim();
    if (name) localStorage.setItem(NAME_KEY, name);
    try {
      const created = await api("/api/tables", {
        method: "POST",
        body: { game: chosen.name, players: Number(playersInput.value), options, seats, seat: mySeat, name,
          watchers: watchersInput.checked, rated: ratedBox.checked, ...clock.read() },
      });
      window.location.href = created.url;
    } catch (error) {
      toast(error.message);
    }
  };
}

/** The rules a table is played with: the preset its options match (or "Custom"), the changed options
 * listed in its tooltip; nothing for a game without lobby words. */
function rulesChip(table) {
  const game = catalogue.games.find((g) => g.name === table.game);
  if (!game?.options.length || tMaybe(`${game.name}.option.${game.options[0].name}`) === undefined) return null;
  const matching = presetsOf(game).find((preset) =>
    game.options.every((option) => preset.values[option.name] === table.options[option.name]));
  const changed = game.options.filter((option) => table.options[option.name] !== option.default).map((option) =>
    `${t(`${game.name}.option.${option.name}`)}: ${valueLabel(game.name, option, table.options[option.name])}`);
  return el("span", { class: "chip rules", title: changed.join("\n") || undefined },
    matching ? matching.label : t("lobby.preset_custom"));
}

function freeSeats(table) {
  return table.seats.filter((seat) => !seat.taken).length;
}

function tableRow(table) {
  const seats = el("span", { class: "seat-names" },
    table.seats.map((seat) => el("span", { class: `chip ${seat.kind}${seat.taken ? "" : " open"}` }, seatName(seat))));
  const when = new Date(table.finished_at || table.created_at).toLocaleString();
  const actions = [];
  if (table.status === "finished") {
    actions.push(el("a", { class: "button", href: `/tables/${table.id}` }, t("lobby.view")));
    actions.push(el("a", { class: "button", href: `/tables/${table.id}/replay` }, t("lobby.replay")));
  } else if (table.status === "open") {
    actions.push(el("a", { class: "button primary", href: `/tables/${table.id}` }, t("lobby.join")));
  } else if (table.watchers === false) { // only its players may open it
    actions.push(el("span", { class: "chip no-watchers" }, t("lobby.no_watchers")));
    actions.push(el("a", { class: "button", href: `/tables/${table.id}` }, t("lobby.open_table")));
  } else {
    actions.push(el("a", { class: "button", href: `/tables/${table.id}` }, t("lobby.watch")));
  }
  let result = null;
  if (table.scores) {
    result = el("span", { class: "scores" }, table.scores.map((score, seat) =>
      el("span", { class: table.winners?.includes(seat) ? "winner" : "" }, `${seatName(table.seats[seat])}: ${score}`)));
  }
  const free = table.status === "finished" ? 0 : freeSeats(table);
  return el("div", { class: "table-row", dataset: { table: table.id, status: table.status, game: table.game, mode: table.mode } },
    el("strong", {}, gameTitle(table.game, table.title)),
    el("span", { class: `status status-${table.status}` }, t(`lobby.status.${table.status}`)),
    el("span", { class: "chip mode" }, t(`lobby.mode.${table.mode}`)),
    ratedMarker(table),
    rulesChip(table),
    el("span", { class: "muted" }, t("lobby.players_n", { n: table.players })),
    free ? el("span", { class: "free-seats" }, t("lobby.seats_free_n", { n: free })) : null,
    seats, result, el("span", { class: "muted when" }, when), el("span", { class: "row-actions" }, actions));
}

function renderFilters() {
  const box = document.getElementById("table-filters");
  const gameSelect = el("select", { id: "filter-game", "aria-label": t("lobby.game") },
    el("option", { value: "" }, t("lobby.filter_all_games")),
    catalogue.games.map((g) => el("option", { value: g.name }, gameTitle(g.name, g.title))));
  gameSelect.value = filters.game;
  const modeSelect = el("select", { id: "filter-mode", "aria-label": t("lobby.filter_mode") },
    el("option", { value: "" }, t("lobby.filter_all_modes")),
    Object.keys(catalogue.clocks?.modes ?? {}).map((mode) => el("option", { value: mode }, t(`lobby.mode.${mode}`))));
  modeSelect.value = filters.mode;
  filters.game = gameSelect.value; // an address naming no known game or mode filters on nothing
  filters.mode = modeSelect.value;
  const openSeats = el("input", { id: "filter-open-seats", type: "checkbox", checked: filters.openSeats });
  gameSelect.addEventListener("change", () => { filters.game = gameSelect.value; filtersChanged(); });
  modeSelect.addEventListener("change", () => { filters.mode = modeSelect.value; filtersChanged(); });
  openSeats.addEventListener("change", () => { filters.openSeats = openSeats.checked; filtersChanged(); });
  box.replaceChildren(el("span", { class: "filters-title" }, t("lobby.filters")), gameSelect, modeSelect,
    el("label", { class: "filter-open-seats" }, openSeats, el("span", {}, t("lobby.filter_open_seats"))));
}

/** Open tables closest to starting first (fewest free seats), then the newest; running tables newest
 * first; finished ones most recently finished first (the server's order). */
function ordered(status, tables) {
  if (status !== "open") return tables;
  return [...tables].sort((a, b) => freeSeats(a) - freeSeats(b) || b.created_at.localeCompare(a.created_at));
}

/** The table list as the server filtered it (by id); drawn whole when it comes whole, else patched. */
const tablesById = new Map();
const STATUSES = ["open", "running", "finished"];
const LISTED = 100; // per status, as the server lists them

function filterQuery() {
  const query = new URLSearchParams();
  if (filters.game) query.set("game", filters.game);
  if (filters.mode) query.set("mode", filters.mode);
  if (filters.openSeats) query.set("open_seats", "true");
  return query;
}

/** Keep the filters in the page's address. */
function syncAddress() {
  const query = filterQuery();
  window.history.replaceState(null, "", `/${query.toString() ? `?${query}` : ""}`);
}

/** The tables of one status in the order they are shown, at most LISTED. */
function listOf(status) {
  const tables = [...tablesById.values()].filter((table) => table.status === status);
  if (status === "finished") tables.sort((a, b) => (b.finished_at || "").localeCompare(a.finished_at || ""));
  else tables.sort((a, b) => b.created_at.localeCompare(a.created_at));
  return ordered(status, tables).slice(0, LISTED);
}

function drawTables() {
  for (const status of STATUSES) {
    const box = document.getElementById(`tables-${status}`);
    const rows = listOf(status).map(tableRow);
    box.replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, t("lobby.none"))]));
  }
}

function setTables(tables) {
  tablesById.clear();
  for (const table of tables) tablesById.set(table.id, table);
  drawTables();
}

/** One table changed (or left the list: `table` null): its row alone is replaced, moved or removed. */
function patchTable(id, table) {
  document.querySelector(`.table-row[data-table="${CSS.escape(id)}"]`)?.remove();
  if (table) tablesById.set(id, table);
  else tablesById.delete(id);
  for (const status of STATUSES) {
    const box = document.getElementById(`tables-${status}`);
    const shown = listOf(status);
    const at = shown.findIndex((entry) => entry.id === id);
    if (at >= 0) {
      const next = shown.slice(at + 1).map((entry) => box.querySelector(`.table-row[data-table="${CSS.escape(entry.id)}"]`))
        .find(Boolean);
      box.querySelector(":scope > p.muted")?.remove();
      box.insertBefore(tableRow(shown[at]), next ?? null);
    }
    for (const row of box.querySelectorAll(":scope > .table-row")) { // beyond the listed ones
      if (!shown.some((entry) => entry.id === row.dataset.table)) row.remove();
    }
    if (!shown.length && !box.querySelector(":scope > p.muted")) box.replaceChildren(el("p", { class: "muted" }, t("lobby.none")));
  }
}

/** What the server lists with these filters, fetched while the lobby's socket is down (`quiet`: the
 * fallback's own tries, whose failures the header's "reconnecting…" already says). */
/** Table lists fetched (filters changed twice, a poll) and pushed by the socket: the older must not be
 * drawn over the newer. */
const tableLists = new LatestAnswer();

async function refreshTables({ quiet = false } = {}) {
  const query = filterQuery();
  const ticket = tableLists.ask();
  try {
    const { tables } = await api(`/api/tables${query.toString() ? `?${query}` : ""}`);
    if (tableLists.stale(ticket)) return;
    setTables(tables);
  } catch (error) {
    if (!quiet) toast(error.message);
  }
}

function filtersChanged() {
  syncAddress();
  const sent = channel.send({ type: "filters", game: filters.game || null, mode: filters.mode || null,
    open_seats: filters.openSeats });
  if (!sent) refreshTables();
}

function renderAccount() {
  const slot = document.getElementById("account");
  slot.replaceChildren();
  if (account) {
    slot.append(el("span", {}, t("account.signed_in", { name: account.name })), " ",
      el("a", { href: `/players/${encodeURIComponent(account.name)}`, id: "profile-link" }, t("ratings.profile_link")), " ",
      el("button", { class: "link", id: "logout", onclick: async () => {
        await api("/api/logout", { method: "POST" });
        account = null;
        renderAccount();
      } }, t("account.logout")));
    return;
  }
  const name = el("input", { id: "account-name", placeholder: t("account.name"), maxlength: 40, size: 10 });
  const password = el("input", { id: "account-password", type: "password", placeholder: t("account.password"), size: 10 });
  const submit = (path) => async () => {
    try {
      const data = await api(path, { method: "POST", body: { name: name.value, password: password.value } });
      account = data.account;
      if (data.claimed_seats) toast(t("ratings.claimed", { n: data.claimed_seats }), "info");
      renderAccount();
      renderCreateForm();
    } catch (error) {
      toast(error.message);
    }
  };
  slot.append(el("details", { class: "account-box" }, el("summary", {}, t("account.sign_in")),
    el("div", { class: "account-form" }, name, password,
      el("button", { id: "login", onclick: submit("/api/login") }, t("account.login")),
      el("button", { id: "register", onclick: submit("/api/accounts") }, t("account.register")))));
}

// The address to give friends (/api/site: the public URL, or the one they can reach this server at).
function renderShare() {
  const input = el("input", { id: "share-url", readonly: true, value: site.share_url, onclick: (e) => e.target.select() });
  document.getElementById("share").replaceChildren(el("h3", {}, t("lobby.share")),
    el("p", { class: "muted" }, t(site.local_only ? "lobby.share_local" : "lobby.share_hint")),
    el("div", { class: "share-row" }, input,
      el("button", { type: "button", id: "share-copy", onclick: () => copyText(site.share_url, input) }, t("table.copy"))));
}

// The lobby's chat: lines arrive over the lobby's socket (fetched only while it is down); a guest
// speaks under the name typed in the creation form.
let lobbyChat = null;
const myLobbyLines = new Set();

function renderLobbyChat() {
  const previous = lobbyChat;
  lobbyChat = new ChatBox({
    id: "lobby-chat",
    isMine: (line) => myLobbyLines.has(line.id),
    send: async (text) => {
      const name = document.getElementById("name")?.value.trim() || localStorage.getItem(NAME_KEY) || "";
      try {
        const { line } = await api("/api/lobby/chat", { method: "POST", body: { text, name } });
        myLobbyLines.add(line.id);
        lobbyChat.add([line]);
      } catch (error) {
        toast(error.message);
        throw error;
      }
    },
  });
  if (previous) lobbyChat.add([...previous.lines.values()]);
  document.getElementById("lobby-chat-slot").replaceChildren(lobbyChat.element);
}

async function refreshLobbyChat() {
  try {
    const { lines } = await api(`/api/lobby/chat?after=${lobbyChat.newest}`);
    if (lines.length) lobbyChat.add(lines);
  } catch {
    // the next poll tries again
  }
}

function renderAll() {
  translatePage(document);
  document.getElementById("language-slot").replaceChildren(languagePicker(renderAll));
  renderAccount();
  renderCreateForm();
  renderShare();
  renderFilters();
  syncAddress();
  drawTables();
  renderLobbyChat();
  channel.show();
}

/** The lobby's socket: the list once, then each table's change; chat lines as they are said. */
const channel = new LobbyChannel({
  topics: ["tables", "chat"],
  query: () => ({ game: filters.game, mode: filters.mode, open_seats: filters.openSeats,
    chat_after: lobbyChat?.newest || null }),
  onMessage: (message) => {
    if (message.type === "tables") {
      tableLists.supersede();
      setTables(message.tables);
    }
    else if (message.type === "table") patchTable(message.table.id, message.table);
    else if (message.type === "table_gone") patchTable(message.id, null);
    else if (message.type === "chat") lobbyChat?.add(message.lines);
    else if (message.type === "error") toast(refusalText(message.code, message.message));
  },
  poll: () => {
    refreshTables({ quiet: true });
    refreshLobbyChat();
  },
});

async function main() {
  await loadLanguage();
  [catalogue, { account }, site] = await Promise.all([api("/api/games"), api("/api/me"), api("/api/site")]);
  renderAll();
  channel.connect();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) channel.wake();
  });
}

main();
