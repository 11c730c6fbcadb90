// The rules help: a button in the page header opens a drawer over the game with the game's short
// how-to-play and a searchable reference of every card/tile kind, read from
// /static/help/<game>/<lang>.json in the page's language (English when that file is missing).
// A section's "components" are ids of the game's cards, tiles, buildings and nobles: their names and
// effects are the ones the table shows on hover (explanations() in common.js), stated once.
// The game keeps updating underneath; Esc or the close button closes it.

import { currentLanguage, el, explanations, tMaybe } from "./common.js";

// The help's own few words, so it works before (or without) platform message keys.
const WORDS = {
  en: { rules: "Rules", close: "Close", search: "Search cards, characters…", how: "How to play",
    reference: "Reference", none: "Nothing matches.", missing: "No rules help for this game yet." },
  "zh-Hans": { rules: "规则", close: "关闭", search: "搜索卡牌、角色…", how: "玩法简介",
    reference: "速查", none: "没有匹配的条目。", missing: "本游戏暂无规则帮助。" },
  "zh-Hant": { rules: "規則", close: "關閉", search: "搜尋卡牌、角色…", how: "玩法簡介",
    reference: "速查", none: "沒有符合的條目。", missing: "本遊戲暫無規則說明。" },
  ja: { rules: "ルール", close: "閉じる", search: "カード・キャラクターを検索…", how: "遊び方",
    reference: "リファレンス", none: "該当する項目はありません。", missing: "このゲームのルール説明はまだありません。" },
};

function word(key) {
  return tMaybe(`help.${key}`) || (WORDS[currentLanguage()] || WORDS.en)[key] || WORDS.en[key];
}

const cache = new Map();

/** The help document of `game` in `lang` (falling back to English), or null when there is none. */
export async function loadHelp(game, lang) {
  const key = `${game}/${lang}`;
  if (!cache.has(key)) {
    cache.set(key, (async () => {
      for (const wanted of lang === "en" ? ["en"] : [lang, "en"]) {
        try {
          const response = await fetch(`/static/help/${encodeURIComponent(game)}/${encodeURIComponent(wanted)}.json`);
          if (response.ok) return { lang: wanted, doc: await response.json() };
        } catch {
          // try the next language
        }
      }
      return null;
    })());
  }
  return cache.get(key);
}

const normalise = (text) => String(text).normalize("NFKC").toLowerCase();

/**
 * Put the help button into `slot` (an element in the header) for the game `getGame()` names.
 * Returns {open, close, refresh}; call refresh() after the page's language changes.
 */
export function installHelp(slot, getGame) {
  ensureStyles();
  let panel = null;
  let lastFocus = null;
  const button = el("button", {
    id: "help-button", class: "help-button", type: "button", "aria-haspopup": "dialog", "aria-expanded": "false",
    "aria-controls": "help-panel", onclick: () => (panel ? close() : open()),
  }, el("span", { class: "help-icon", "aria-hidden": "true" }, "?"), el("span", { class: "help-label" }, word("rules")));
  slot.replaceChildren(button);

  function onKey(event) {
    if (!panel) return;
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === "Tab") {  // keep the focus inside the open drawer
      const focusable = [...panel.querySelectorAll("button, input, summary, [tabindex='0']")].filter((n) => n.offsetParent !== null);
      if (!focusable.length) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  }

  async function fill() {
    if (!panel) return;
    const body = panel.querySelector(".help-body");
    const game = getGame();
    const found = game ? await loadHelp(game, currentLanguage()) : null;
    if (!panel) return;
    panel.querySelector(".help-close").textContent = "×";
    panel.querySelector(".help-close").setAttribute("aria-label", word("close"));
    panel.querySelector(".help-close").title = word("close");
    button.querySelector(".help-label").textContent = word("rules");
    if (!found) {
      panel.querySelector("#help-title").textContent = word("rules");
      body.replaceChildren(el("p", { class: "muted" }, word("missing")));
      return;
    }
    const { doc, lang } = found;
    let components = {};
    if (doc.sections.some((section) => section.components)) {
      try {
        components = await explanations(game);
      } catch {
        components = {};
      }
      if (!panel) return;
    }
    panel.dataset.lang = lang;
    panel.querySelector("#help-title").textContent = doc.title;
    const search = el("input", {
      id: "help-search", type: "search", placeholder: word("search"), "aria-label": word("search"), autocomplete: "off",
    });
    const entriesOf = (section) => [
      ...(section.components || []).filter((id) => id in components)
        .map((id) => ({ ...components[id], text: components[id].effect, id })),
      ...(section.entries || []),
    ];
    const sections = doc.sections.map((section) => el("section", { class: "help-section" },
      el("h4", {}, section.heading),
      el("dl", { class: "help-entries" }, entriesOf(section).map((entry) => el("div", {
        class: "help-entry",
        dataset: { search: normalise(`${entry.code || ""} ${entry.name} ${entry.text} ${section.heading}`),
          ...(entry.id ? { component: entry.id } : {}) },
      }, el("dt", {}, entry.name, entry.code ? el("span", { class: "help-code muted small" }, ` ${entry.code}`) : null),
      el("dd", {}, entry.text))))));
    const none = el("p", { class: "muted help-none", hidden: true }, word("none"));
    search.addEventListener("input", () => {
      const words = normalise(search.value).split(/\s+/).filter(Boolean);
      let shown = 0;
      for (const section of sections) {
        let inSection = 0;
        for (const entry of section.querySelectorAll(".help-entry")) {
          const match = words.every((w) => entry.dataset.search.includes(w));
          entry.hidden = !match;
          if (match) inSection += 1;
        }
        section.hidden = inSection === 0;
        shown += inSection;
      }
      none.hidden = shown > 0;
    });
    body.replaceChildren(
      el("details", { class: "help-how", id: "help-how", open: true },
        el("summary", {}, word("how")),
        doc.how_to_play.map((paragraph) => el("p", {}, paragraph))),
      el("div", { class: "help-reference", id: "help-reference" },
        el("h3", {}, word("reference")), search, none, sections));
  }

  function open() {
    if (panel) return;
    lastFocus = document.activeElement;
    panel = el("div", { id: "help-panel", class: "help-panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "help-title" },
      el("div", { class: "help-head" },
        el("h2", { id: "help-title" }, word("rules")),
        el("button", { class: "help-close", id: "help-close", type: "button", onclick: () => close() }, "×")),
      el("div", { class: "help-body" }, el("p", { class: "muted" }, "…")));
    document.body.append(panel);
    document.body.classList.add("help-open");
    button.setAttribute("aria-expanded", "true");
    document.addEventListener("keydown", onKey, true);
    panel.querySelector(".help-close").focus();
    fill();
  }

  function close() {
    if (!panel) return;
    panel.remove();
    panel = null;
    document.body.classList.remove("help-open");
    button.setAttribute("aria-expanded", "false");
    document.removeEventListener("keydown", onKey, true);
    (lastFocus && document.contains(lastFocus) ? lastFocus : button).focus();
  }

  return {
    open,
    close,
    isOpen: () => panel !== null,
    refresh() {
      button.querySelector(".help-label").textContent = word("rules");
      const query = panel?.querySelector("#help-search")?.value;
      fill().then(() => {
        const input = panel?.querySelector("#help-search");
        if (input && query) {
          input.value = query;
          input.dispatchEvent(new Event("input"));
        }
      });
    },
  };
}

function ensureStyles() {
  if (document.getElementById("help-css")) return;
  document.head.append(el("link", { id: "help-css", rel: "stylesheet", href: "/static/css/help.css" }));
}
