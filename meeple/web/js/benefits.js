// Optional benefits a player is about to leave unused. The engine names them: a legal action that
// closes a turn or a step while an optional benefit is still legal carries `hint.forgoes` (the game's
// `optional_benefits`, meeple/core/benefits.py), and each benefit's message is `<game>.unused.<benefit>`.
// Nothing here knows a rule or an action kind.

/** The message keys of the benefits `notation` would leave unused, given the legal `actions`
 * ([{notation, kind, args, hint}], js/actions.js). */
export function unusedBenefits(game, notation, actions) {
  const chosen = actions.find((action) => action.notation === notation);
  return (chosen?.hint?.forgoes || []).map((benefit) => `${game}.unused.${benefit}`);
}

const PREFERENCE_KEY = "meeple.confirmUnusedBenefits";

/** Whether this browser asks before a benefit is left unused (on unless turned off). */
export function confirmsUnused() {
  return localStorage.getItem(PREFERENCE_KEY) !== "off";
}

export function setConfirmsUnused(on) {
  localStorage.setItem(PREFERENCE_KEY, on ? "on" : "off");
}
