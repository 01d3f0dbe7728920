// Extra time (issue 41) on the phone. table.js loads it (with its words, static/i18n/more.LANG.json) when a state
// first gives this phone extra time, or shows a decision's clock run out while the table waits for someone who has
// it. The clock itself needs nothing here: a view's remaining_ms is the phone's own (docs/protocol.md). What it
// adds: the clock's words ("You have more time", "No clock for you"; on everyone else's phone, "Time is up:
// waiting for the last choice", which says nothing of whom or why) and, between games, a line telling the person
// the host gave them more time. Nobody else's phone is told who has it.

import { t, loadTexts } from './i18n.js';
import { $, h } from './dom.js';

await loadTexts('more');

const inGame = (table) => ['playing', 'reveal', 'pause'].includes(table.phase);

/** The clock's words in a decision (table.js's tickClock asks every tick), or null for the usual ones. */
export function label(table) {
  if (table.phase !== 'playing' || table.paused) return null;
  const more = table.me && table.me.more_time;
  if (more && more.own) return t(table.remaining_ms === null ? 'more.none' : 'more.you');
  return table.remaining_ms === 0 ? t('more.up') : null;
}

/** Between games, the line that tells this phone it has more time (drawn over the banner, hidden otherwise). */
export function show(app) {
  const table = app.table;
  const more = table && table.me && table.me.more_time;
  let line = $('#more-time');
  if (!line) {
    line = h('p', { id: 'more-time', class: 'banner big' });
    $('#banner').before(line);
  }
  line.hidden = !more || inGame(table) || app.mode !== 'phone';
  if (more) line.textContent = more.factor ? t('more.given', { x: `×${more.factor}` }) : t('more.given_0');
}
