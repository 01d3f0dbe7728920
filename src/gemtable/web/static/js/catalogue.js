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

/** Whether url is a file of a game's own folder, as the server serves them (/games/NAME/…). */
export function gameFile(url) {
  return typeof url === 'string' && /^\/games\/[a-z][a-z0-9-]*\/[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(url)
    && !url.split('/').includes('..');
}

/** The module that draws a game (its manifest's page), or the page that says the game is unknown. */
export async function gameModule(name) {
  const game = await findGame(name);
  const page = game && gameFile(game.page) ? game.page : './nogame.js';
  try { return await import(page); } catch { return import('./nogame.js'); }
}
