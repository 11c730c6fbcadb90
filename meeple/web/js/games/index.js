// Which drawing each game has; a game without one is drawn by the generic renderer.

import { api, el } from "../common.js";
import * as generic from "./generic.js";

const DRAWINGS = {
  citadels: "./citadels.js",
  burgundy: "./burgundy.js",
  caylus: "./caylus.js",
  palais_royal: "./palais_royal.js",
};

/** The renderer module for `game`: its own drawing if it has one, else the generic panels. A drawing
 * that exports `useComponents` is given the game's printed components (costs, types, steps, board
 * layout) from the engine's data (GET /api/games/<game>/components) before it draws anything. A drawing
 * comes with its stylesheet (css/<game>.css), and it is returned only once that sheet has arrived: drawn
 * before, a phone would first see the page unstyled (other boards unfolded, the action bar last). */
export async function loadRenderer(game) {
  const path = DRAWINGS[game];
  if (!path) return generic;
  try {
    const [renderer] = await Promise.all([import(path), loadStylesheet(game)]);
    if (renderer.useComponents) renderer.useComponents((await api(`/api/games/${game}/components`)).components);
    return renderer;
  } catch (error) {
    console.error(`no drawing for ${game}:`, error);
    return generic;
  }
}

/** Add the game's stylesheet to the page once; resolves when it has loaded (or failed, logged). */
function loadStylesheet(game) {
  const id = `${game}-css`;
  const present = document.getElementById(id);
  if (present) return present.loaded ?? Promise.resolve();
  const link = el("link", { id, rel: "stylesheet", href: `/static/css/${game}.css` });
  link.loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", () => {
      console.error(`the stylesheet of ${game} did not load`);
      resolve();
    }, { once: true });
  });
  document.head.append(link);
  return link.loaded;
}
