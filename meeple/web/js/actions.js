// Actions as the server sends them (meeple/server/actions.py): each legal notation with the engine's
// `kind` and `args`, so renderers group and label actions by kind and arguments and never take a
// notation apart; a button posts back the notation it was given.

/** The legal actions of `message` as [{notation, kind, args}], in the engine's order. */
export function legalActions(message) {
  const legal = message.legal || [];
  const shapes = message.actions || [];
  return legal.map((notation, index) => {
    const [kind, args] = shapes[index] || [notation, {}];
    return { notation, kind, args };
  });
}

/** A platform "move" entry's action as {notation, kind, args}; null when it is not ours to see (the
 * server sends a move's `action`, `kind` and `args` to its mover only). */
export function loggedAction(entry) {
  if (!entry || entry.action === undefined) return null;
  return { notation: entry.action, kind: entry.kind ?? entry.action, args: entry.args || {} };
}
