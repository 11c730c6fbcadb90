// Optional benefits a player is about to leave unused. For each game: the kinds of action that close a
// turn (or a step, or decline an effect) and, among the actions still legal at that moment, the kinds
// that are optional benefits, each with the message (`<game>.unused.<kind>`) that names it. Whether a
// benefit is still available is read off the engine's legal actions (their `kind`, js/actions.js) only:
// nothing here re-implements a rule.

const GAMES = {
  // §7.2 of docs/rules/citadels.md: `end` closes the turn; taxes and every character or district
  // ability are optional (building is a choice, not a benefit left lying).
  citadels: {
    closing: ["end"],
    benefits: { tax: "tax", kill: "kill", rob: "rob", swap: "magician", redraw: "magician", destroy: "destroy", lab: "lab", smithy: "smithy" },
  },
  // docs/rules/burgundy.md §3.7: `pass` ends the turn, giving up the once-a-turn purchase.
  burgundy: { closing: ["pass"], benefits: { buy: "buy" } },
  // docs/rules/caylus.md §2.6 and §7.2: every phase-5 effect but production (and the favour `bld`) may
  // be declined with `skip`; `castle:done` stops handing in batches while one could still be built.
  caylus: {
    closing: ["skip", "castle_done"],
    benefits: {
      sell: "effect", buy: "effect", church: "effect", tailor: "effect", bank: "effect", alch: "effect", jewel: "effect",
      build: "effect", lawyer: "effect", castle: "castle",
    },
  },
  // docs/rules/palais_royal.md §2.3 and §8: `end` closes step 3 with the Mint's income or a majority bonus untaken.
  palais_royal: { closing: ["end"], benefits: { mint: "mint", king: "king", pomp: "pomp" } },
};

/** The message keys of the benefits `notation` would leave unused, given the legal `actions`
 * ([{notation, kind, args}], js/actions.js). */
export function unusedBenefits(game, notation, actions) {
  const rules = GAMES[game];
  const chosen = actions.find((action) => action.notation === notation);
  if (!rules || !chosen || !rules.closing.includes(chosen.kind)) return [];
  const keys = [];
  for (const other of actions) {
    if (other.notation === notation) continue;
    const benefit = rules.benefits[other.kind];
    const key = benefit && `${game}.unused.${benefit}`;
    if (key && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

const PREFERENCE_KEY = "meeple.confirmUnusedBenefits";

/** Whether this browser asks before a benefit is left unused (on unless turned off). */
export function confirmsUnused() {
  return localStorage.getItem(PREFERENCE_KEY) !== "off";
}

export function setConfirmsUnused(on) {
  localStorage.setItem(PREFERENCE_KEY, on ? "on" : "off");
}
