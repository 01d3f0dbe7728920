// The games this server hosts, as their manifests say (/api/games), fetched once per page. Pages build
// everything game-specific from here: the start page's choices, the rules page, which module draws a game.

let pending = null;

/** Every game's manifest: name, title, players, dynamics, seats, options, presets, seconds, page, rules_page,
 * styles, translations, bots. */
export function games() {
  pending ??= fetch('/api/games').then((res) => (res.ok ? res.json() : { games: [] })).then((data) => data.games || [])
    .catch(() => []);
  return pending;
}

/** The manifest of the game called name, or null. */
export async function findGame(name) {
  return (await games()).find((game) => game.name === name) || null;
}

/** The module that draws a game (its manifest's page), or the page that says the game is unknown. */
export async function gameModule(name) {
  const game = await findGame(name);
  const page = game && /^[a-z][a-z0-9-]*$/.test(game.page) ? game.page : 'nogame';
  try { return await import(`./${page}.js`); } catch { return import('./nogame.js'); }
}
