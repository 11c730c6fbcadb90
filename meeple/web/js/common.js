// Shared helpers for every page: building elements, calling the API, and the four UI languages.

export const LANGUAGE_KEY = "meeple.language";
let messages = {};
let languages = { en: "English" };
let language = "en";

/** Build an element: el("button", {class: "x", onclick: f}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") {
      for (const [name, item] of Object.entries(value)) if (item !== undefined && item !== null) node.dataset[name] = item;
    }
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A refusal in the page's language: the words for its code (``error.<code>``), plus the server's
 * detail for options (it names the option); a code with no words keeps the server's message. */
export function refusalText(code, message) {
  const words = tMaybe(`error.${code}`);
  if (words === undefined) return message;
  return code === "bad_options" && message ? `${words} (${message})` : words;
}

export class ApiError extends Error {
  constructor(code, message, status) {
    super(refusalText(code, message));
    this.code = code;
    this.detail = message;
    this.status = status;
  }
}

/** Call the JSON API; a refusal becomes an ApiError carrying the server's code, its message in the
 * page's language and the server's own words (``detail``). */
export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(data?.code || "http", data?.message || response.statusText, response.status);
  }
  return data;
}

/** The text for `key` in the current language, with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  let text = messages[key];
  if (text === undefined) text = key;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

/** Like t(), but undefined when the key has no translation (for optional names such as cards). */
export function tMaybe(key, params = {}) {
  return key in messages ? t(key, params) : undefined;
}

export function currentLanguage() {
  return language;
}

function preferredLanguage() {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  if (saved) return saved;
  const wanted = (navigator.language || "en").toLowerCase();
  if (wanted.startsWith("zh")) {
    return /(tw|hk|mo|hant)/.test(wanted) ? "zh-Hant" : "zh-Hans";
  }
  if (wanted.startsWith("ja")) return "ja";
  return "en";
}

/** Requests whose answers may cross (two quick choices, a poll beside a socket's push): `ask()` before
 * each gives its ticket, and `stale(ticket)` says that a later one was asked for since, or newer data
 * came another way (`supersede()`), so its answer must not be drawn over what is newer. */
export class LatestAnswer {
  #asked = 0;

  ask() {
    this.#asked += 1;
    return this.#asked;
  }

  supersede() {
    this.#asked += 1;
  }

  stale(ticket) {
    return ticket !== this.#asked;
  }
}

/** Two quick choices in the language picker fetch at once; the last answer need not be the last choice's. */
const languageAnswers = new LatestAnswer();

/** Load a language's messages (the saved or browser choice by default) and translate the page.
 * Returns the language loaded, or null when a later call superseded this one (it changed nothing). */
export async function loadLanguage(wanted = preferredLanguage()) {
  const ticket = languageAnswers.ask();
  let data;
  try {
    data = await api(`/api/i18n/${encodeURIComponent(wanted)}`);
  } catch {
    data = await api("/api/i18n/en");
  }
  if (languageAnswers.stale(ticket)) return null;
  messages = data.messages;
  languages = data.languages;
  language = data.language;
  document.documentElement.lang = language;
  translatePage(document);
  return language;
}

/** Fill every [data-i18n] element's text, and the placeholder, title or aria-label that
 * [data-i18n-placeholder], [data-i18n-title] or [data-i18n-aria-label] names. */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-aria-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  }
}

/** A <select> of the four languages; changing it reloads the messages and calls `onchange`. */
export function languagePicker(onchange) {
  const select = el("select", { id: "language", "aria-label": t("common.language") });
  for (const [code, name] of Object.entries(languages)) {
    select.append(el("option", { value: code, selected: code === language }, name));
  }
  select.addEventListener("change", async () => {
    localStorage.setItem(LANGUAGE_KEY, select.value);
    if (await loadLanguage(select.value)) onchange?.();
  });
  return select;
}

/** A seat's display name: the player's, or "Bot (level)", or "Open seat". */
/** A bot level's name in the page's language ("medium" -> "中等"). */
export function botLevelName(level) {
  return tMaybe(`bot.level.${level}`) ?? level ?? "";
}

export function seatName(seat) {
  if (!seat) return "";
  if (seat.stand_in) return t("clock.stand_in_name", { name: seat.name, level: botLevelName(seat.bot_level) });
  if (seat.kind === "bot") return t("seat.bot", { n: seat.seat + 1, level: botLevelName(seat.bot_level) });
  return seat.name || t("seat.open");
}

/** Show a short message in the page's toast area. */
export function toast(message, kind = "error") {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast ${kind}` }, message);
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}

// Copies text to the clipboard; on a plain-http page (a LAN address), where browsers offer no
// clipboard API, it selects the text in its input and copies that. Says so in a toast either way.
export async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
    } else {
      input.select();
      if (!document.execCommand("copy")) throw new Error("copy refused");
    }
    toast(t("lobby.copied"), "info");
  } catch {
    input.select();
    toast(t("lobby.copy_by_hand"), "info");
  }
}

// --- What a component does: one popover for every game's cards, tiles, buildings and nobles. ----------
//
// A renderer marks an element with data-explain="<game>:<component id>" (see explainKey); the texts come
// from /api/explain/<game>/<language> (meeple/server/explain.py), fetched once per game and language.
// Mouse: hovering shows the popover. Touch: a long press (half a second) shows it and never acts; a plain
// tap shows it too when the element has no action of its own (no button, link or [data-action] on or
// around the tapped spot); a second tap, or a tap elsewhere, closes it (a tap on an action button also
// acts, as it always does). Keyboard focus shows it as well.

const LONG_PRESS_MS = 500;
const HOVER_DELAY_MS = 200;
const explainTables = new Map();
let explainPop = null;
let explainShownFor = null;
let hoverTimer = null;
let pressTimer = null;
let pressStart = null;
let swallowNextClick = false;
let lastPointerType = "mouse";

/** The data-explain value naming `component` (e.g. "noble.N17") of `game`. */
export function explainKey(game, component) {
  return `${game}:${component}`;
}

/** The texts of every component of `game` in the page's language: {id: {name, effect, code}}. */
export function explanations(game) {
  const key = `${game}|${language}`;
  if (!explainTables.has(key)) {
    const loading = api(`/api/explain/${encodeURIComponent(game)}/${encodeURIComponent(language)}`)
      .then((data) => data.components)
      .catch((error) => {
        explainTables.delete(key);
        throw error;
      });
    explainTables.set(key, loading);
  }
  return explainTables.get(key);
}

function explainTarget(node) {
  return node instanceof Element ? node.closest("[data-explain]") : null;
}

function popover() {
  if (!explainPop) {
    explainPop = el("div", { id: "explain-pop", class: "explain-pop", role: "tooltip", hidden: true },
      el("div", { class: "explain-head" }, el("strong", { class: "explain-name" }), el("span", { class: "explain-code" })),
      el("p", { class: "explain-effect" }));
    document.body.append(explainPop);
  }
  return explainPop;
}

function placePopover(pop, target) {
  const margin = 8;
  const box = target.getBoundingClientRect();
  pop.style.left = "0px";
  pop.style.top = "0px";
  const width = pop.offsetWidth;
  const height = pop.offsetHeight;
  const left = Math.min(Math.max(margin, box.left + box.width / 2 - width / 2), window.innerWidth - width - margin);
  const below = box.bottom + margin;
  const top = below + height <= window.innerHeight - margin || box.top - margin - height < margin
    ? Math.min(below, Math.max(margin, window.innerHeight - height - margin))
    : box.top - margin - height;
  pop.style.left = `${Math.max(margin, left)}px`;
  pop.style.top = `${top}px`;
}

/** Show the popover for `target` (an element carrying data-explain). */
export async function showExplanation(target) {
  const [game, component] = target.dataset.explain.split(/:(.*)/s);
  explainShownFor = target;
  let text;
  try {
    text = (await explanations(game))[component];
  } catch {
    text = undefined;
  }
  if (explainShownFor !== target || !target.isConnected || !text) return;
  const pop = popover();
  pop.querySelector(".explain-name").textContent = text.name;
  const code = pop.querySelector(".explain-code");
  code.textContent = text.code || "";
  code.hidden = !text.code;
  pop.querySelector(".explain-effect").textContent = text.effect;
  pop.hidden = false;
  placePopover(pop, target);
}

export function hideExplanation() {
  explainShownFor = null;
  clearTimeout(hoverTimer);
  if (explainPop) explainPop.hidden = true;
}

/** Whether a tap on `node` does something of its own (so a plain tap acts and a long press explains). */
function actsOnTap(node, target) {
  const actor = node.closest("button, a, input, select, textarea, [role=button], [data-action], [data-select], .clickable, [onclick]");
  return actor !== null && (target.contains(actor) || actor.contains(target));
}

function installExplain() {
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const target = explainTarget(event.target);
    if (!target) {
      if (explainShownFor) hideExplanation();  // e.g. the shown element was redrawn away under the mouse
      return;
    }
    if (target === explainShownFor) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => showExplanation(target), HOVER_DELAY_MS);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const target = explainTarget(event.target);
    if (!target || target.contains(event.relatedTarget)) return;
    clearTimeout(hoverTimer);
    if (target === explainShownFor) hideExplanation();
  });
  document.addEventListener("pointerdown", (event) => {
    lastPointerType = event.pointerType;
    swallowNextClick = false;  // a long press that ended without a click must not eat this tap's
    clearTimeout(pressTimer);
    if (event.pointerType === "mouse") return;
    const target = explainTarget(event.target);
    if (!target) return;
    pressStart = { x: event.clientX, y: event.clientY };
    pressTimer = setTimeout(() => {
      swallowNextClick = true;
      showExplanation(target);
    }, LONG_PRESS_MS);
  });
  document.addEventListener("pointermove", (event) => {
    if (pressStart && Math.hypot(event.clientX - pressStart.x, event.clientY - pressStart.y) > 10) clearTimeout(pressTimer);
  });
  for (const type of ["pointerup", "pointercancel"]) {
    document.addEventListener(type, () => {
      clearTimeout(pressTimer);
      pressStart = null;
    });
  }
  document.addEventListener("contextmenu", (event) => {
    if (lastPointerType !== "mouse" && explainTarget(event.target)) event.preventDefault();
  });
  // Capture phase: runs before any renderer's click handler, so a long press never acts.
  document.addEventListener("click", (event) => {
    if (swallowNextClick) {
      swallowNextClick = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const target = explainTarget(event.target);
    if (explainShownFor && lastPointerType !== "mouse") {
      const again = target === explainShownFor;
      hideExplanation();
      if (again && !actsOnTap(event.target, target)) {
        event.preventDefault();
        event.stopPropagation();
        return;
      }
    }
    if (target && lastPointerType !== "mouse" && !actsOnTap(event.target, target)) showExplanation(target);
  }, true);
  document.addEventListener("focusin", (event) => {
    const target = explainTarget(event.target);
    if (target && lastPointerType === "mouse") showExplanation(target);
  });
  document.addEventListener("focusout", (event) => {
    if (explainTarget(event.target) === explainShownFor && lastPointerType === "mouse") hideExplanation();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && explainShownFor) hideExplanation();
  });
  window.addEventListener("scroll", () => { if (explainShownFor) hideExplanation(); }, true);
}

if (typeof document !== "undefined") installExplain();

/** "Ada took back 2 moves": the line of an undo entry of a table's log (its `undo`: the moves taken back). */
export function undoLine(entry, table) {
  const name = seatName(table.seats[entry.seat]);
  const moves = entry.taken_back.length;
  return moves === 1 ? t("log.undo_one", { name }) : t("log.undo_many", { name, n: moves });
}
