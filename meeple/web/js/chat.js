// A chat box (a table's or the lobby's): lines shown as plain text (textContent, never HTML), a field
// to send one (at most 500 characters, as the server allows), and muting: a muted sender's lines are
// hidden in this browser (kept in localStorage) until unmuted.

import { el, t } from "./common.js";

export const MAX_CHAT_CHARS = 500;
const MUTED_KEY = "meeple.muted";

function mutedSenders() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(sender, muted) {
  const senders = mutedSenders();
  if (muted) senders.add(sender);
  else senders.delete(sender);
  localStorage.setItem(MUTED_KEY, JSON.stringify([...senders]));
}

export class ChatBox {
  /** `send(text)` posts a line (a promise; a refusal throws); `isMine(line)` hides its mute button. */
  constructor({ id, send, isMine = () => false, readOnly = false }) {
    this.lines = new Map();
    this.send = send;
    this.isMine = isMine;
    this.list = el("ol", { class: "chat-lines", "aria-live": "polite" });
    this.mutedList = el("div", { class: "chat-muted" });
    this.input = el("input", { class: "chat-input", maxlength: MAX_CHAT_CHARS, placeholder: t("chat.placeholder") });
    this.form = el("form", { class: "chat-form", onsubmit: (event) => this.submit(event) }, this.input,
      el("button", { type: "submit" }, t("chat.send")));
    this.element = el("section", { id, class: "panel chat" }, el("h3", {}, t("chat.title")), this.list,
      this.mutedList, readOnly ? null : this.form);
  }

  async submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.input.disabled = true;
    try {
      await this.send(text);
      this.input.value = "";
    } catch {
      // refused: the sender said why, and the text stays to be edited
    } finally {
      this.input.disabled = false;
      this.input.focus();
    }
  }

  /** Add lines (duplicates by id are ignored), oldest first. */
  add(lines) {
    for (const line of lines) this.lines.set(line.id, line);
    this.draw();
  }

  get newest() {
    let newest = 0;
    for (const id of this.lines.keys()) newest = Math.max(newest, id);
    return newest;
  }

  draw() {
    const muted = mutedSenders();
    const names = new Map();
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 30;
    const shown = [...this.lines.values()].sort((a, b) => a.id - b.id).filter((line) => {
      if (muted.has(line.sender)) names.set(line.sender, line.name);
      return !muted.has(line.sender);
    });
    this.list.replaceChildren(...shown.map((line) => el("li", { class: "chat-line", dataset: { sender: line.sender } },
      el("span", { class: "chat-who" }, line.name), " ",
      el("span", { class: "chat-text" }, line.text),
      this.isMine(line) ? null : el("button", {
        class: "link chat-mute", title: t("chat.mute", { name: line.name }),
        onclick: () => { setMuted(line.sender, true); this.draw(); },
      }, t("chat.mute_short")))));
    this.mutedList.replaceChildren(...[...names].map(([sender, name]) => el("button", {
      class: "link chat-unmute", onclick: () => { setMuted(sender, false); this.draw(); },
    }, t("chat.unmute", { name }))));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}
