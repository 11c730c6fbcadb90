// Which drawing each game has; a game without one is drawn by the generic renderer.

import * as generic from "./generic.js";

const DRAWINGS = {
  citadels: "./citadels.js",
  burgundy: "./burgundy.js",
  caylus: "./caylus.js",
  palais_royal: "./palais_royal.js",
};

/** The renderer module for `game`: its own drawing if it has one, else the generic panels. */
export async function loadRenderer(game) {
  const path = DRAWINGS[game];
  if (!path) return generic;
  try {
    return await import(path);
  } catch (error) {
    console.error(`no drawing for ${game}:`, error);
    return generic;
  }
}
