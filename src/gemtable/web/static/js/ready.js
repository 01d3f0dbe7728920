// The ready check (table.js loads it the first time a host asks whether everyone is ready, with its words:
// static/i18n/ready.LANG.json): the banner saying whom the room waits for, and a seated player's "I'm ready".

import { h } from './dom.js';
import { t, loadTexts, personName } from './i18n.js';

await loadTexts('ready');

/** The host asked to start: who is not ready yet (every screen), and this player's own "I'm ready". */
export function readyBlock(app) {
  const { me, people } = app.table;
  const waiting = people.filter((p) => p.chair !== null && !p.ready && p.status !== 'away' && p.status !== 'gone');
  const mine = me && people.find((p) => p.id === me.id && p.chair !== null && !p.ready);
  return [h('p', { class: 'huge', text: t('ready.title') }),
    waiting.length ? h('p', { class: 'big', text: t('ready.waiting', { names: waiting.map(personName).join(', ') }) }) : null,
    mine ? h('button', { class: 'btn primary wide', type: 'button', id: 'ready', text: t('ready.me'),
      on: { click: () => app.ui.send({ type: 'ready', ready: true }) } }) : null];
}
