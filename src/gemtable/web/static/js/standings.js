// The night's standings (GET /api/tables/CODE/games, `standings`; the rules in docs/protocol.md): a table of
// place, name, wins and games, and points, with the night's card to keep. The night's page shows them, and the
// results page from a night's second game on.

import { h } from './dom.js';
import { t, currentLang } from './i18n.js';

// A name isolated (FSI … PDI): a right-to-left name does not reorder the words and numbers around it.
const iso = (name) => `\u2068${name}\u2069`;

/** The standings section: a caption, the table and the card's link; empty when no game has finished. */
export function standings(board, code, heading = 'h2') {
  if (!board.length) return null;
  const rows = board.map((entry) => h('tr', { class: entry.place === 1 ? 'lead' : null },
    h('td', { class: 'num', text: t(`card.place_${placeCategory(entry.place)}`, { n: entry.place }) }),
    h('th', { scope: 'row', class: 'who-seat' }, iso(entry.name), entry.bot ? h('span', { class: 'note', text: ` · ${t('night.bot')}` }) : null),
    h('td', { class: 'num', text: `${entry.wins} / ${entry.games}` }),
    h('td', { class: 'num pts', text: String(entry.points) })));
  return h('section', { class: 'night-standings', 'aria-labelledby': 'night-standings-title' },
    h(heading, { id: 'night-standings-title', text: t('night.standings') }),
    h('table', { class: 'scores standings' },
      h('thead', null, h('tr', null,
        h('th', { scope: 'col', text: t('night.col_place') }),
        h('th', { scope: 'col', text: t('night.col_who') }),
        h('th', { scope: 'col', text: t('night.col_games') }),
        h('th', { scope: 'col', text: t('night.col_points') }))),
      h('tbody', null, rows)),
    h('p', { class: 'note', text: t('night.how') }),
    h('p', null, h('a', { class: 'btn', id: 'night-card-link', href: `/api/tables/${code}/night.svg?lang=${currentLang()}`,
      download: `gemtable-${code}-night.svg`, text: t('night.card') })));
}

/** English ordinals by their plural rule ("1st", "22nd"); the other languages have one form. */
export function placeCategory(place) {
  const n = place % 100;
  if (currentLang() !== 'en' || (n >= 11 && n <= 13)) return 'other';
  return { 1: 'one', 2: 'two', 3: 'few' }[place % 10] || 'other';
}
