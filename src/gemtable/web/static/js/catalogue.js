// The games this server hosts (/api/games, fetched once per page): everything game-specific comes from here.

let pending = null;

/** Every game's manifest (docs/protocol.md, /api/games). */
export function games() {
  pending ??= fetch('/api/games').then((res) => (res.ok ? res.json() : { games: [] })).then((data) => data.games || [])
    .catch(() => []);
  return pending;
}

/** The manifest of the game called name, or null. */
export async function findGame(name) {
  return (await games()).find((game) => game.name === name) || null;
}

/** Whether url is a file of a game's folder (/games/NAME/…). */
export function gameFile(url) {
  return typeof url === 'string' && /^\/games\/[a-z][a-z0-9-]*\/[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(url)
    && !url.split('/').includes('..');
}

const linked = new Map();

/** Link a game's style sheets once; resolves when loaded, failed, or after 3 s. */
export function gameStyles(game) {
  const sheets = (game?.styles || []).filter(gameFile);
  return Promise.all(sheets.map((href) => {
    if (!linked.has(href)) {
      linked.set(href, document.querySelector(`link[href="${href}"]`) ? Promise.resolve() : new Promise((done) => {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = href;
        link.addEventListener('load', done);
        link.addEventListener('error', () => { console.error(`gemtable: ${href} did not load`); done(); });
        setTimeout(done, 3000);
        document.head.append(link);
      }));
    }
    return linked.get(href);
  }));
}

/** A game's module, styles first; one that does not load is logged and shown as an error. */
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

/** The module that draws a game, or the one that says it has no board. */
export async function gameModule(name) {
  const game = await findGame(name);
  if (!game || !gameFile(game.page)) return import('./nogame.js');
  return gameImport(game, game.page);
}

