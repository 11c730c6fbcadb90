// What the last moves changed, shown on the board. One mechanism for every game: the view paths an
// update changed (read off its patch, e.g. "seats.1.gold", "road.5.worker", "log.37") are matched with
// the elements the game's drawing marked with `data-path` (the view path each one shows; several
// paths separated by spaces). Matched elements get `changed` (an outline, kept until this seat's next
// move while it is to play, else for a few seconds) and, the first time they are drawn, `changed-now` (a short animation, none
// with prefers-reduced-motion). A log line is marked with its own path ("log.37"), so hovering or
// tapping it outlines (`log-focus`) what the move that wrote it changed.

/** How long (ms) a change stays highlighted when this seat does not move first. */
export const HIGHLIGHT_MS = 6000;
/** How long (ms) a change counts as new (animated) after it is first drawn: the pulse's length. */
const NEW_MS = 1500;
/** How many moves' changes are remembered for the log lines (about a long game's public log). */
const REMEMBERED = 600;

function join(prefix, key) {
  return prefix ? `${prefix}.${key}` : String(key);
}

/** The view paths `patch` changes in `before` (a list that grew gives one path per new item). */
export function patchPaths(before, patch, prefix = "", out = []) {
  if (!patch) return out;
  for (const key of patch.del || []) out.push(join(prefix, key));
  for (const key of Object.keys(patch.set || {})) out.push(join(prefix, key));
  for (const [key, items] of Object.entries(patch.add || {})) {
    const start = Array.isArray(before?.[key]) ? before[key].length : 0;
    items.forEach((_, offset) => out.push(join(prefix, join(key, start + offset))));
  }
  for (const [key, sub] of Object.entries(patch.sub || {})) patchPaths(before?.[key], sub, join(prefix, key), out);
  return out;
}

const isContainer = (value) => value !== null && typeof value === "object";

/** The view paths that differ between two whole views (when a full state replaces a drawn one). */
export function diffPaths(before, after, prefix = "", out = []) {
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) {
    if (JSON.stringify(before) !== JSON.stringify(after)) out.push(prefix);
    return out;
  }
  if (Array.isArray(before) && after.length > before.length
      && JSON.stringify(after.slice(0, before.length)) === JSON.stringify(before)) {
    for (let index = before.length; index < after.length; index += 1) out.push(join(prefix, index));
    return out;
  }
  if (Array.isArray(before) && after.length !== before.length) {
    out.push(prefix);
    return out;
  }
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (!(key in after) || !(key in before)) out.push(join(prefix, key));
    else diffPaths(before[key], after[key], join(prefix, key), out);
  }
  return out;
}

const isLogPath = (path) => /^(log|private_log)(\.|$)/.test(path);

/** The elements under `root` marked with view paths, by path: read once per highlighting. */
function markedPaths(root) {
  const byPath = new Map();
  for (const node of root.querySelectorAll("[data-path]")) {
    for (const path of node.dataset.path.split(" ")) {
      if (!byPath.has(path)) byPath.set(path, []);
      byPath.get(path).push(node);
    }
  }
  return byPath;
}

/** The elements that show `path`: the outermost ones showing it or a part of it, or else the ones
 *  showing the nearest whole it belongs to. */
function targetsOf(byPath, path) {
  const inside = [];
  for (const [shown, nodes] of byPath) {
    if (shown === path || shown.startsWith(`${path}.`)) inside.push(...nodes);
  }
  if (inside.length) return inside.filter((node) => !inside.some((other) => other !== node && other.contains(node)));
  const parts = path.split(".");
  for (let length = parts.length - 1; length > 0; length -= 1) {
    const nodes = byPath.get(parts.slice(0, length).join("."));
    if (nodes) return nodes;
  }
  return [];
}

export class ChangeTracker {
  constructor() {
    this.changes = []; // {version, paths, at, drawnAt}, oldest first
    this.clearedAt = 0; // changes from before this time are no longer highlighted
    this.timer = null;
  }

  /** Remember what an update (or a full state replacing the drawn one) changed. */
  record(version, paths) {
    if (!paths.length) return;
    this.changes.push({ version, paths, at: Date.now() });
    if (this.changes.length > REMEMBERED) this.changes.splice(0, this.changes.length - REMEMBERED);
  }

  /** This seat moved: what came before is no longer news. */
  clear() {
    this.clearedAt = Date.now();
  }

  /** Mark under `root` what recent changes touched; a change first drawn moments ago is animated.
   *  While `untilMove` (this seat is to play), what happened since its last move stays marked. */
  highlight(root, { untilMove = false } = {}) {
    for (const node of root.querySelectorAll(".changed, .changed-now")) node.classList.remove("changed", "changed-now");
    const now = Date.now();
    const live = this.changes.filter((change) => change.at >= this.clearedAt && (untilMove || now - change.at < HIGHLIGHT_MS));
    const fresh = new Map(); // path -> whether a change that is new names it
    for (const change of live) {
      change.drawnAt ??= now;
      for (const path of change.paths) fresh.set(path, fresh.get(path) || now - change.drawnAt < NEW_MS);
    }
    const byPath = markedPaths(root);
    for (const [path, isNew] of fresh) {
      for (const node of targetsOf(byPath, path)) {
        node.classList.add("changed");
        if (isNew) node.classList.add("changed-now");
      }
    }
    clearTimeout(this.timer);
    if (live.length && !untilMove) {
      const expires = Math.min(...live.map((change) => change.at)) + HIGHLIGHT_MS - now;
      this.timer = setTimeout(() => this.highlight(root), Math.max(expires, 50));
    }
  }

  /** Outline under `root` what the move that wrote log line `logPath` changed; null clears it. */
  focus(root, logPath) {
    for (const node of root.querySelectorAll(".log-focus")) node.classList.remove("log-focus");
    if (!logPath) return 0;
    const change = [...this.changes].reverse().find((c) => c.paths.includes(logPath));
    if (!change) return 0;
    let count = 0;
    const byPath = markedPaths(root);
    for (const path of change.paths.filter((p) => !isLogPath(p))) {
      for (const node of targetsOf(byPath, path)) {
        if (node.closest("#log")) continue;
        node.classList.add("log-focus");
        count += 1;
      }
    }
    return count;
  }
}

/** The last `count` items of the view's list `key` (e.g. "log"), newest first, each with its view
 *  path (`{item, path}`), so a drawn log line can carry the path of the entry it shows. */
export function newestFirst(view, key, count, keep = () => true) {
  const lines = [];
  const items = view[key] || [];
  for (let index = items.length - 1; index >= 0 && lines.length < count; index -= 1) {
    if (keep(items[index])) lines.push({ item: items[index], path: `${key}.${index}` });
  }
  return lines;
}
