// Applies the server's view patches (meeple/server/patch.py): after a move a seat is sent what changed
// in its view, not the whole view, so messages stay small however long the game and its log grow.
//
// A patch is {set: {key: value}, del: [key], sub: {key: patch}, add: {key: [items appended]}}; keys of
// a list are its indexes. The result is a new value: containers on a changed path are copied, the
// rest is shared, so the previous view stays as it was.

export function applyPatch(value, patch) {
  if (!patch || Object.keys(patch).length === 0) return value;
  const result = Array.isArray(value) ? value.slice() : { ...value };
  for (const key of patch.del || []) delete result[key];
  for (const [key, item] of Object.entries(patch.set || {})) result[key] = item;
  for (const [key, items] of Object.entries(patch.add || {})) result[key] = result[key].concat(items);
  for (const [key, sub] of Object.entries(patch.sub || {})) result[key] = applyPatch(result[key], sub);
  return result;
}

/** The log with the moves each undo took back (an "undo" entry's `taken_back`: their indexes) marked `undone`. */
function withUndone(log) {
  const taken = new Set(log.flatMap((entry) => (entry.event === "undo" ? entry.taken_back : [])));
  return taken.size ? log.map((entry) => (taken.has(entry.index) && !entry.undone ? { ...entry, undone: true } : entry)) : log;
}

/** The full state `state` becomes with `update` ({type: "update", from, version, ...}) applied. */
export function applyUpdate(state, update) {
  return {
    ...state,
    type: "state",
    version: update.version,
    table: update.table,
    current_player: update.current_player,
    is_over: update.is_over,
    legal: update.legal,
    can_undo: update.can_undo ?? 0,
    actions: update.actions,
    hints: update.hints,
    log: update.log.length ? withUndone(state.log.concat(update.log)) : state.log,
    view: "view" in update ? update.view : applyPatch(state.view, update.patch),
  };
}
