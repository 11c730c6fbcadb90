// Actions as the server sends them (meeple/server/actions.py): each legal notation with the engine's
// `kind` and `args`, so renderers group and label actions by kind and arguments and never take a
// notation apart, and with the engine's `hint` for it when it sends one (Burgundy: the workers a die
// action costs), so no renderer computes a rule again; a button posts back the notation it was given.

/** The legal actions of `message` as [{notation, kind, args, hint}], in the engine's order (`hint`:
 * `{}` when the engine said nothing about the action). */
export function legalActions(message) {
  const legal = message.legal || [];
  const shapes = message.actions || [];
  const hints = message.hints || [];
  return legal.map((notation, index) => {
    const [kind, args] = shapes[index] || [notation, {}];
    return { notation, kind, args, hint: hints[index] || {} };
  });
}

/** A platform "move" entry's action as {notation, kind, args}; null when it is not ours to see (the
 * server sends a move's `action`, `kind` and `args` to its mover only). */
export function loggedAction(entry) {
  if (!entry || entry.action === undefined) return null;
  return { notation: entry.action, kind: entry.kind ?? entry.action, args: entry.args || {} };
}
