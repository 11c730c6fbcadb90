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
    else if (key === "dataset") Object.assign(node.dataset, value);
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

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Call the JSON API; a refusal becomes an ApiError carrying the server's code and message. */
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

/** Load a language's messages (the saved or browser choice by default) and translate the page. */
export async function loadLanguage(wanted = preferredLanguage()) {
  let data;
  try {
    data = await api(`/api/i18n/${encodeURIComponent(wanted)}`);
  } catch {
    data = await api("/api/i18n/en");
  }
  messages = data.messages;
  languages = data.languages;
  language = data.language;
  document.documentElement.lang = language;
  translatePage(document);
  return language;
}

/** Fill every [data-i18n] element's text and [data-i18n-placeholder] input's placeholder. */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
}

/** A <select> of the four languages; changing it reloads the messages and calls `onchange`. */
export function languagePicker(onchange) {
  const select = el("select", { id: "language", "aria-label": "Language" });
  for (const [code, name] of Object.entries(languages)) {
    select.append(el("option", { value: code, selected: code === language }, name));
  }
  select.addEventListener("change", async () => {
    localStorage.setItem(LANGUAGE_KEY, select.value);
    await loadLanguage(select.value);
    onchange?.();
  });
  return select;
}

/** A seat's display name: the player's, or "Bot (level)", or "Open seat". */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.kind === "bot") return t("seat.bot", { n: seat.seat + 1, level: seat.bot_level || "" });
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
