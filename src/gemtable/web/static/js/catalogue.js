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

const linked = new Map();

/** Link a game's style sheets (its manifest's styles, from its folder) once; resolves when they have loaded
 * (or failed, or after 3 s: a page never waits for ever on a style). */
export function gameStyles(game) {
  const sheets = (game?.styles || []).filter(gameFile);
  return Promise.all(sheets.map((href) => {
    if (!linked.has(href)) {
      linked.set(href, document.querySelector(`link[href="${href}"]`) ? Promise.resolve() : new Promise((done) => {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = href;
        link.addEventListener('load', done);
        link.addEventListener('error', () => { console.error(`gemtable: the style sheet ${href} did not load`); done(); });
        setTimeout(done, 3000);
        document.head.append(link);
      }));
    }
    return linked.get(href);
  }));
}

/** A game's module (its page or its rules page), styles first. A module that does not load is logged and
 * stands as the error it is: the page says the board could not be loaded, never that it is not built. */
export async function gameImport(game, url) {
  await gameStyles(game);
  try {
    return await import(url);
  } catch (error) {
    console.error(`gemtable: ${game.name}'s module ${url} did not load`, error);
    const { failed } = await import('./nogame.js');
    return failed(game, error);
  }
}

/** The module that draws a game (its manifest's page), or the page that says the game has no board (yet). */
export async function gameModule(name) {
  const game = await findGame(name);
  if (!game || !gameFile(game.page)) return import('./nogame.js');
  return gameImport(game, game.page);
}

