// A finished game's results, on its own page: /t/CODE/results/N, from the record API.
//
// A record holds the scores, winners and names. The rest (what the game's own module draws of
// its end: chests cave by cave, a final board) comes from the record when it carries the final view
// (`final`), or else from the live table if it still shows this game's results (asked
// once, as a spectator).

import { h, $, put } from './dom.js';
import { t, initLang, langSwitch, onLang, useGame, currentLang, loadTexts } from './i18n.js';
import { gameModule } from './catalogue.js';
import { useLooks } from './seat-style.js';

const parts = location.pathname.split('/');
const code = (parts[2] || '').toUpperCase().replace(/[^A-Z]/g, '');
const number = Number(parts[4]);
let record = null;
let players = null;
let state = null;
let game = null;
let story = null;
let night = null;

function live() {
  return new Promise((resolve) => {
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    const done = (value) => { try { ws.close(); } catch { /* closed */ } resolve(value); };
    try { ws = new WebSocket(url); } catch { resolve(null); return; }
    const timer = setTimeout(() => done(null), 4000);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', v: 2, code }));
    ws.onerror = () => { clearTimeout(timer); done(null); };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type !== 'state' && msg.type !== 'error') return;
      clearTimeout(timer);
      const table = msg.table;
      done(table && table.game_number === number && table.phase === 'results' ? table.state : null);
    };
  });
}

function render() {
  const body = $('#results-body');
  if (!record) return;
  const names = record.names || {};
  game.renderResults(body, { scores: record.scores, winners: record.winners, names, rules: record.rules, players, state,
    number, left: record.left || {}, standIns: record.stand_ins || {}, ended: record.ended || null, heading: 'h1' },
  { mode: 'page', local: {} });
  if (story) story.renderStory($('#results-story'), record.history, game);
  if (night) put($('#night-slot'), night.standings(night.board, code));
  $('#game-no').textContent = t('results.game_no', { n: number });
  keep();
}

/** "Keep this game": the result card (an SVG the server makes, in the page's language), the record as a file,
 *  and the night's other games. */
function keep() {
  const base = `/api/tables/${code}/games/${number}`;
  const file = `gemtable-${code}-game-${number}`;
  const card = `${base}/card.svg?lang=${currentLang()}`;
  const img = $('#card-img');
  if (img.getAttribute('src') !== card) img.src = card;
  const winners = record.winners || [];
  const names = winners.map((seat) => (record.names || {})[String(seat)]).filter(Boolean);
  const win = names.length === 1 ? t('results.winner', { name: names[0] })
    : names.length ? t('results.winners', { names: names.join(', ') }) : '';
  img.alt = `${t('keep.card_alt', { n: number })} ${win}`.trim();
  Object.assign($('#card-link'), { href: card, download: `${file}.svg` });
  Object.assign($('#record-link'), { href: `${base}/record.json`, download: `${file}.json` });
  $('#night-link').href = `/t/${code}/night`;
  $('#replay-link').href = `/t/${code}/games/${number}/replay`;
  $('#keep').hidden = false;
}

/** From a night's second game on, its standings as they stood after this game, under the game's results. */
async function standingsOfTheNight() {
  if (number < 2) return;
  let answer = null;
  try {
    const res = await fetch(`/api/tables/${code}/games?through=${number}`);
    answer = res.ok ? await res.json() : null;
  } catch { answer = null; }
  if (!answer || !(answer.standings || []).length) return;
  night = { board: answer.standings || [], standings: (await import('./standings.js')).standings };
  render();
}

async function main() {
  await initLang([]);  // the record's game's texts come with it
  await Promise.all([loadTexts('night'), loadTexts('errors')]);  // (Keep this game; a record that is not there)
  $('#lang-slot').replaceWith(langSwitch());
  for (const el of document.querySelectorAll('.table-code')) el.textContent = code;
  $('#again').href = `/t/${code}`;
  onLang(render);
  const res = await fetch(`/api/tables/${code}/games/${number}`);
  if (!res.ok) {
    put($('#results-body'), h('h1', { text: t('results.title') }), h('p', { class: 'warn', text: t('err.no-record') }));
    return;
  }
  record = await res.json();
  useLooks(record.looks);  // each player's colour and mark, as the table showed them
  [game] = await Promise.all([gameModule(record.game), useGame(record.game)]);
  if ((record.history || []).length) story = await import('./story.js');  // what happened, in words
  state = record.final || null;
  players = state?.players || null;
  render();
  standingsOfTheNight();
  if (!state) {
    state = await live();
    players = state?.players || null;
    if (state) render();
  }
}

main();
