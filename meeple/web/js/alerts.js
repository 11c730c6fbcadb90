// Knowing when it is your turn: the tab's title and favicon change while it is, and, when the tab is
// hidden, an optional sound (made here with WebAudio) and a browser notification (asked for only
// after a click on the bell). The two choices are kept in localStorage.

import { el, svg, t, toast } from "./common.js";

const PREFS_KEY = "meeple.alerts";
const FAVICON = "/static/favicon.svg";
// favicon.svg's meeple, with a red dot ringed in white at the top right.
const MARKED_FAVICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<path d="M16 3a5 5 0 0 1 5 5c0 1.5-.6 2.8-1.6 3.7L29 15c1 .4 1.2 1.7.4 2.4L24 21l3 8H19l-3-5-3 5H5l3-8-5.4-3.6c-.8-.7-.6-2 .4-2.4l9.6-3.3A5 5 0 0 1 16 3z" fill="#c8553d"/>'
  + '<circle cx="25" cy="7" r="6.5" fill="#e01e1e" stroke="#fff" stroke-width="2"/></svg>');

let audio = null;

/** The saved choices: {sound: bool, notify: bool}. */
export function alertPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}");
    return { sound: saved.sound === true, notify: saved.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}

function savePrefs(prefs) {
  localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
}

function notificationsAllowed() {
  return "Notification" in window && Notification.permission === "granted";
}

/** Two short rising notes. Browsers only let audio start after a click, so the context is made then. */
export function playChime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime + 0.02;
  [[660, 0], [880, 0.16]].forEach(([frequency, offset]) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.32);
  });
}

function setFavicon(marked) {
  let link = document.querySelector("link[rel='icon']");
  if (!link) {
    link = el("link", { rel: "icon", type: "image/svg+xml" });
    document.head.append(link);
  }
  const href = marked ? MARKED_FAVICON : FAVICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.turn = marked ? "yes" : "no";
}

// Drawn here rather than as emoji, which not every system's fonts have.
const BELL = "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2.5 15a2.5 2.5 0 0 0 5 0z";
const NOTE = "M10 4v10.3A3.5 3.5 0 1 0 12 17.5V8h5V4z";

function icon(path) {
  return svg("svg", { viewBox: "0 0 24 24", width: 16, height: 16, "aria-hidden": "true" },
    svg("path", { d: path, fill: "currentColor" }));
}

/** The bell (notifications) and note (sound) toggles for a page's header. */
export function alertControls() {
  const prefs = alertPrefs();
  const bell = el("button", { type: "button", id: "alert-notify", class: "alert-toggle" }, icon(BELL));
  const sound = el("button", { type: "button", id: "alert-sound", class: "alert-toggle" }, icon(NOTE));
  const paint = () => {
    const current = alertPrefs();
    const notifying = current.notify && notificationsAllowed();
    bell.setAttribute("aria-pressed", String(notifying));
    bell.title = t(notifying ? "alerts.notify_on" : "alerts.notify_off");
    bell.setAttribute("aria-label", bell.title);
    sound.setAttribute("aria-pressed", String(current.sound));
    sound.title = t(current.sound ? "alerts.sound_on" : "alerts.sound_off");
    sound.setAttribute("aria-label", sound.title);
  };
  bell.addEventListener("click", async () => {
    const current = alertPrefs();
    if (current.notify && notificationsAllowed()) {
      current.notify = false;
    } else if (!("Notification" in window)) {
      toast(t("alerts.notify_unsupported"));
    } else {
      const permission = Notification.permission === "default" ? await Notification.requestPermission()
        : Notification.permission;
      if (permission === "granted") current.notify = true;
      else toast(t("alerts.notify_denied"));
    }
    savePrefs(current);
    paint();
  });
  sound.addEventListener("click", () => {
    const current = alertPrefs();
    current.sound = !current.sound;
    savePrefs(current);
    if (current.sound) playChime(); // a preview, and the click that lets audio play later
    paint();
  });
  paint();
  return el("span", { class: "alert-controls" }, bell, sound);
}

/**
 * Follows one page's "is it my turn" and shows it: the title (`title(mine)` gives it), the favicon
 * and, on the change to my turn while the tab is hidden, the chime and a notification.
 */
export class TurnAlert {
  constructor() {
    this.mine = false;
    this.known = false; // the first state is not a change: loading a page never rings
  }

  /** `key` says which turn it is (a table and version): a new one is a new alert. */
  update(mine, { title, notifyTitle, notifyBody, key, url }) {
    document.title = title;
    setFavicon(mine);
    document.body.dataset.myTurn = mine ? "yes" : "no";
    const fresh = mine && this.known && key !== this.key;
    if (fresh && document.hidden) {
      const prefs = alertPrefs();
      if (prefs.sound) playChime();
      if (prefs.notify && notificationsAllowed()) {
        const notice = new Notification(notifyTitle, { body: notifyBody, icon: FAVICON, tag: `meeple-${key}` });
        notice.onclick = () => {
          window.focus();
          if (url && window.location.pathname !== url) window.location.href = url;
          notice.close();
        };
      }
    }
    this.mine = mine;
    this.key = mine ? key : null;
    this.known = true;
  }
}
