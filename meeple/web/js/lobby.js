// The lobby: create a table (game, players, options, seats and bots), list open / running / finished
// tables, join a seat as a guest or with an account.

import { api, copyText, el, languagePicker, loadLanguage, seatName, t, toast, translatePage } from "./common.js";

const NAME_KEY = "meeple.name";
let catalogue = { games: [], bot_levels: [] };
let account = null;
let site = null;

function gameTitle(name, fallback) {
  const key = `game.${name}.title`;
  const text = t(key);
  return text === key ? fallback : text;
}

function optionControl(option) {
  const id = `option-${option.name}`;
  let control;
  if (option.choices) {
    control = el("select", { id, name: option.name, dataset: { option: option.name } });
    option.choices.forEach((choice, index) => {
      control.append(el("option", { value: String(index), selected: choice === option.default },
        choice === null ? "—" : String(choice)));
    });
  } else if (option.type === "bool") {
    control = el("input", { id, type: "checkbox", checked: option.default === true, dataset: { option: option.name } });
  } else if (option.type === "int") {
    control = el("input", { id, type: "number", value: option.default ?? "", min: option.minimum ?? undefined,
      max: option.maximum ?? undefined, dataset: { option: option.name } });
  } else {
    control = el("input", { id, type: "text", value: option.default ?? "", dataset: { option: option.name } });
  }
  return el("label", { class: "option", title: option.description },
    el("span", {}, option.name.replaceAll("_", " ")), control);
}

function readOption(option, control) {
  if (option.choices) return option.choices[Number(control.value)];
  if (option.type === "bool") return control.checked;
  if (option.type === "int") return control.value === "" ? null : Number(control.value);
  return control.value === "" && option.default === null ? null : control.value;
}

function renderCreateForm() {
  const form = document.getElementById("create-form");
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
  const optionsBox = el("div", { class: "options" });
  const seatsBox = el("div", { class: "seats-config", id: "seats-config" });

  const game = () => catalogue.games.find((g) => g.name === gameSelect.value);

  function renderSeats() {
    const count = Number(playersInput.value);
    seatsBox.replaceChildren();
    for (let seat = 0; seat < count; seat += 1) {
      const kind = el("select", { class: "seat-kind", id: `seat-kind-${seat}`, "aria-label": t("lobby.seat_n", { n: seat + 1 }) },
        el("option", { value: seat === 0 ? "me" : "human" }, seat === 0 ? t("lobby.seat_me") : t("lobby.seat_human")),
        catalogue.bot_levels.map((level) => el("option", { value: `bot:${level}` }, t("lobby.bot_level", { level }))));
      if (seat > 0 && count > 1) kind.value = `bot:${catalogue.bot_levels[0]}`;
      seatsBox.append(el("label", { class: "seat-config" }, el("span", {}, t("lobby.seat_n", { n: seat + 1 })), kind));
    }
  }

  function renderGame() {
    const chosen = game();
    playersInput.min = chosen.min_players;
    playersInput.max = chosen.max_players;
    const wanted = Math.min(Math.max(Number(playersInput.value) || 4, chosen.min_players), chosen.max_players);
    playersInput.value = String(wanted);
    optionsBox.replaceChildren(...chosen.options.map(optionControl));
    renderSeats();
  }

  gameSelect.addEventListener("change", renderGame);
  playersInput.addEventListener("change", () => {
    const chosen = game();
    playersInput.value = String(Math.min(Math.max(Number(playersInput.value), chosen.min_players), chosen.max_players));
    renderSeats();
  });

  form.append(
    el("label", {}, el("span", {}, t("lobby.game")), gameSelect),
    el("label", {}, el("span", {}, t("lobby.players")), playersInput),
    el("label", {}, el("span", {}, t("lobby.your_name")), nameInput),
    el("fieldset", {}, el("legend", {}, t("lobby.seats")), seatsBox),
    el("details", {}, el("summary", {}, t("lobby.options")), optionsBox),
    el("button", { type: "submit", id: "create-button", class: "primary" }, t("lobby.create_button")),
  );
  renderGame();

  form.onsubmit = async (event) => {
    event.preventDefault();
    const chosen = game();
    const options = {};
    for (const option of chosen.options) {
      const control = optionsBox.querySelector(`[data-option="${option.name}"]`);
      const value = readOption(option, control);
      if (value !== option.default) options[option.name] = value;
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
        body: { game: chosen.name, players: Number(playersInput.value), options, seats, seat: mySeat, name },
      });
      window.location.href = created.url;
    } catch (error) {
      toast(error.message);
    }
  };
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
  } else {
    actions.push(el("a", { class: "button", href: `/tables/${table.id}` }, t("lobby.watch")));
  }
  let result = null;
  if (table.scores) {
    result = el("span", { class: "scores" }, table.scores.map((score, seat) =>
      el("span", { class: table.winners?.includes(seat) ? "winner" : "" }, `${seatName(table.seats[seat])}: ${score}`)));
  }
  return el("div", { class: "table-row", dataset: { table: table.id, status: table.status } },
    el("strong", {}, gameTitle(table.game, table.title)),
    el("span", { class: "muted" }, t("lobby.players_n", { n: table.players })),
    seats, result, el("span", { class: "muted when" }, when), el("span", { class: "row-actions" }, actions));
}

async function refreshTables() {
  try {
    const { tables } = await api("/api/tables");
    for (const status of ["open", "running", "finished"]) {
      const box = document.getElementById(`tables-${status}`);
      const rows = tables.filter((table) => table.status === status).map(tableRow);
      box.replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, t("lobby.none"))]));
    }
  } catch (error) {
    toast(error.message);
  }
}

function renderAccount() {
  const slot = document.getElementById("account");
  slot.replaceChildren();
  if (account) {
    slot.append(el("span", {}, t("account.signed_in", { name: account.name })), " ",
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

function renderAll() {
  translatePage(document);
  document.getElementById("language-slot").replaceChildren(languagePicker(renderAll));
  renderAccount();
  renderCreateForm();
  renderShare();
  refreshTables();
}

async function main() {
  await loadLanguage();
  [catalogue, { account }, site] = await Promise.all([api("/api/games"), api("/api/me"), api("/api/site")]);
  renderAll();
  setInterval(refreshTables, 5000);
}

main();
