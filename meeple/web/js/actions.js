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

/** A log entry's or a last move's own action as {notation, kind, args}; null when it is not ours to see. */
export function loggedAction(entry) {
  if (!entry || entry.action === null || entry.action === undefined) return null;
  return { notation: entry.action, kind: entry.kind ?? entry.action, args: entry.args || {} };
}
