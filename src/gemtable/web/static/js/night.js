// The night at one table, on its own page: /t/CODE/night, from GET /api/tables/CODE/games. Every finished
// game, oldest first: its number, game and time, the winner or winners, the scores, and links to its results
// page, its replay, its result card and its record; above them, the night's standings and its card. It reads the
// store, so it outlives the laptop's restart.

import { h, $, put, tableCode } from './dom.js';
import { t, initLang, langSwitch, onLang, useGame, loadTexts, currentLang } from './i18n.js';
import { standings, placeCategory } from './standings.js';

const code = tableCode();
let games = null;
let board = [];
let failed = null;

// A name isolated (FSI … PDI): a right-to-left name does not reorder the words and numbers around it.
const nameOf = (game, seat) => `\u2068${game.names?.[String(seat)] || `#${seat + 1}`}\u2069`;

function winLine(game) {
  const winners = game.winners || [];
  if (winners.length === 1) return t('results.winner', { name: nameOf(game, winners[0]) });
  if (winners.length) return t('results.winners', { names: winners.map((seat) => nameOf(game, seat)).join(', ') });
  return t('night.no_winner');
}

function when(game) {
  if (typeof game.finished_at !== 'number') return '';
  return new Date(game.finished_at * 1000).toLocaleTimeString(currentLang(), { hour: '2-digit', minute: '2-digit' });
}

function item(game) {
  const base = `/api/tables/${code}/games/${game.number}`;
  const scores = game.scores || [];
  const place = game.places || {};
  const seats = Object.keys(game.names || {}).map(Number).filter((seat) => seat < scores.length)
    .sort((a, b) => (place[a] ?? 99) - (place[b] ?? 99) || scores[b] - scores[a] || a - b);
  const placed = (seat) => (place[seat] ? `${t(`card.place_${placeCategory(place[seat])}`, { n: place[seat] })} ` : '');
  const title = [t('results.game_no', { n: game.number }), t(`game.${game.game}`), when(game)].filter(Boolean).join(' · ');
  return h('li', { class: 'night-game' },
    h('h2', null, h('a', { href: `/t/${code}/results/${game.number}`, text: title })),
    h('p', { class: 'winner-line', text: winLine(game) + (game.ended ? ` (${t('night.ended')})` : '') }),
    h('p', { class: 'note', text: t('night.scores', { list: seats.map((seat) => `${placed(seat)}${nameOf(game, seat)} ${scores[seat]}`).join(', ') }) }),
    h('p', { class: 'row wrap night-links' },
      h('a', { class: 'tap', href: `/t/${code}/games/${game.number}/replay`, text: t('replay.link') }),
      h('a', { class: 'tap', href: `${base}/card.svg?lang=${currentLang()}`, download: `gemtable-${code}-game-${game.number}.svg`, text: t('keep.card') }),
      h('a', { class: 'tap', href: `${base}/record.json`, download: `gemtable-${code}-game-${game.number}.json`, text: t('keep.record') })));
}

function render() {
  const body = $('#night-body');
  const heading = h('h1', { class: 'results-title', text: t('night.title', { code }) });
  if (failed) { put(body, heading, h('p', { class: 'warn', text: failed })); return; }
  if (!games) return;
  put(body, heading, games.length ? [standings(board, code), h('h2', { class: 'night-list-title', text: t('night.list') }),
    h('ol', { class: 'night-games' }, games.map(item))] : h('p', { class: 'note', text: t('night.none') }));
}

async function main() {
  await initLang([]);
  await Promise.all([loadTexts('night'), loadTexts('errors')]);
  $('#lang-slot').replaceWith(langSwitch());
  for (const el of document.querySelectorAll('.table-code')) el.textContent = code;
  $('#back').href = `/t/${code}`;
  onLang(render);
  let res = null;
  try { res = await fetch(`/api/tables/${code}/games`); } catch { res = null; }
  if (!res || !res.ok) {
    const answer = res ? await res.json().catch(() => ({})) : {};
    failed = t(`err.${answer.error || 'network'}`);
    render();
    return;
  }
  const answer = await res.json();
  games = answer.games || [];
  board = answer.standings || [];
  await Promise.all([...new Set(games.map((game) => game.game))].map((name) => useGame(name)));
  render();
}

main();
