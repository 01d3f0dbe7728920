// The stand-in for a game whose board is not built yet (a game module is the page its
// manifest names, with these four functions). The table still works: people
// join, the host starts, the clock plays silent seats; this says so plainly.

import { h, put } from './dom.js';
import { t, loadTexts } from './i18n.js';

await loadTexts('nogame');

export function renderGame(el, v) {
  put(el, h('section', { class: 'reveal quiet' },
    h('h2', { text: v.table.title }),
    h('p', { text: t('nogame.body') }),
    h('p', null, h('a', { href: `/rules/${v.table.game}`, text: t('nogame.rules') }))));
}

export function renderActions(el) {
  el.hidden = true;
}

export function renderResults(el, data) {
  const scores = data.scores || [];
  put(el, h(data.heading || 'h2', { class: 'results-title', text: t('results.title') }),
    h('ul', null, scores.map((score, seat) => h('li', { text: `${data.names[seat] ?? seat + 1}: ${score}` }))));
}

export function changes() {
  return { say: [], buzz: null };
}

/** The stand-in for a game whose module failed to load (a network error, a broken file): it says so, as an
 * error, where the board would be; the table still works around it. */
export function failed(game, error) {
  const alert = (el) => put(el, h('section', { class: 'reveal quiet', role: 'alert' },
    h('h2', { text: game.title }),
    h('p', { class: 'warn', text: t('nogame.failed') }),
    h('p', { class: 'note', text: String(error?.message || error || '') })));
  return {
    renderGame: alert,
    renderActions: (el) => { el.hidden = true; },
    renderResults: alert,
    changes: () => ({ say: [], buzz: null }),
    render: () => { const el = h('div'); alert(el); return [el]; },
  };
}
