// Which drawing each game has; a game without one is drawn by the generic renderer.

import { api } from "../common.js";
import * as generic from "./generic.js";

const DRAWINGS = {
  citadels: "./citadels.js",
  burgundy: "./burgundy.js",
  caylus: "./caylus.js",
  palais_royal: "./palais_royal.js",
};

/** The renderer module for `game`: its own drawing if it has one, else the generic panels. A drawing
 * that exports `useComponents` is given the game's printed components (costs, types, steps, board
 * layout) from the engine's data (GET /api/games/<game>/components) before it draws anything. */
export async function loadRenderer(game) {
  const path = DRAWINGS[game];
  if (!path) return generic;
  try {
    const renderer = await import(path);
    if (renderer.useComponents) renderer.useComponents((await api(`/api/games/${game}/components`)).components);
    return renderer;
  } catch (error) {
    console.error(`no drawing for ${game}:`, error);
    return generic;
  }
}
