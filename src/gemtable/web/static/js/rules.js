// The rules page: /rules/GAME?preset=… is drawn by the module the game's manifest names (rules_page);
// /rules lists every game that has one.

import { h, $, put } from './dom.js';
import { t, has, initLang, langSwitch, onLang } from './i18n.js';
import { games, findGame, gameFile, gameImport } from './catalogue.js';

async function render() {
  const name = decodeURIComponent(location.pathname.split('/')[2] || '');
  const query = new URLSearchParams(location.search);
  const game = await findGame(name);
  let body;
  if (game && gameFile(game.rules_page)) {
    const module = await gameImport(game, game.rules_page);
    const preset = game.presets.some((p) => p.name === query.get('preset')) ? query.get('preset') : null;
    body = await module.render(preset, query, game);
  } else {
    const listed = (await games()).filter((g) => g.rules_page);
    body = [h('h1', { text: t(name ? 'rules.unknown' : 'rules.all') }),
      h('ul', null, listed.map((g) => h('li', null, h('a', { href: `/rules/${g.name}`,
        text: has(`game.${g.name}`) ? t(`game.${g.name}`) : g.title }))))];
  }
  if (body) put($('#rules'), body);
}

async function main() {
  await initLang();
  $('#lang-slot').replaceWith(langSwitch());
  onLang(render);
  await render();
}

main();
