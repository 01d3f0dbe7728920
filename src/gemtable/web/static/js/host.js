// The host's controls at the table (phone only; the TV has no seat), as the page shows them: a strip in a game
// (pause, and the host's tools), the buttons in the lobby and at the results (settings, tools), a Manage button
// on each person's row, and the list of bans with Lift. The sheets themselves (the tools, one person's actions,
// the settings form) are in host-sheet.js, loaded the first time the host opens one: a guest's phone never
// loads them.
//
// The server decides: each button sends one message (docs/protocol.md) and a refusal comes back as an error
// the page shows.

import { h, text } from './dom.js';
import { t, personName } from './i18n.js';

const inGame = (table) => ['playing', 'reveal', 'pause'].includes(table.phase);
const isHost = (table) => Boolean(table.me?.host);

function button(text, cls, onClick, extra = {}) {
  const el = h('button', { type: 'button', class: `btn ${cls}`, ...extra }, text);
  el.onclick = onClick;  // (a property: host-sheet.js's morph gives a kept button the fresh one's)
  return el;
}

/** Open the host's sheet (``view``: 'tools', 'person' with a person's id, 'settings'). */
export function open(app, view, arg = null) {
  import('./host-sheet.js').then((sheet) => {
    app.sheet = sheet;
    sheet.open(app, view, arg);
  }).catch((e) => console.error(e));
}

/** Keep an open sheet in step with the table (a person who left, a game that ended). */
export function renderSheet(app) {
  if (app.sheet) app.sheet.renderSheet(app);
}

/** The host's list of who is banned from this table, each with a Lift button. */
export function bansList(app) {
  const bans = app.table.me?.bans || [];
  if (!bans.length) return null;
  return h('section', { class: 'bans', 'aria-label': t('host.banned') },
    h('h2', { class: 'h3', text: t('host.banned') }),
    h('ul', { class: 'people' }, bans.map((ban) => h('li', { class: 'person' },
      h('span', { class: 'name', text: ban.name }),
      h('span', { class: 'tags', text: t('host.banned_tag') }),
      button(t('host.lift'), 'small', () => app.ui.send({ type: 'unban', ban: ban.id }),
        { 'aria-label': t('host.lift_who', { name: ban.name }) })))));
}

/** The host's button on a person's row: what the host may do about them (a sheet of actions). */
export function manageButton(app, p) {
  const table = app.table;
  if (!isHost(table) || p.status === 'gone' || (table.me && p.id === table.me.id)) return null;
  if (p.bot) {
    if (p.chair === null) return null;
    return button(t('lobby.remove'), 'small ghost', () => app.ui.send({ type: 'remove_bot', chair: p.chair }),
      { 'aria-label': t('lobby.remove_who', { name: personName(p) }) });
  }
  return button(t('host.manage'), 'small ghost', () => open(app, 'person', p.id),
    { 'aria-label': t('host.manage_who', { name: personName(p) }), 'aria-haspopup': 'dialog' });
}

/** The host's strip in a game (phone), drawn once into ``slot`` and then changed in place, so that focus, a press
 *  and a screen reader's place survive every state: Pause (Resume while paused), and the host's tools. */
export function hostStrip(app, slot) {
  const table = app.table;
  const on = app.mode === 'phone' && isHost(table) && inGame(table);
  slot.hidden = !on;
  if (!on) return;
  if (!slot.firstChild) {
    slot.append(h('div', { class: 'host-strip', role: 'group' },
      button('', 'small', () => app.ui.send({ type: app.table.paused ? 'resume' : 'pause' }), { id: 'strip-pause' }),
      button('', 'small ghost', () => open(app, 'tools'), { 'aria-haspopup': 'dialog' })));
  }
  const group = slot.firstChild;
  const [pause, tools] = group.children;
  group.setAttribute('aria-label', t('host.title'));
  text(pause, t(table.paused ? 'host.resume' : 'host.pause'));
  text(tools, t('host.tools'));
}

/** The host's buttons in the lobby and at the results: the settings and the tools. */
export function hostButtons(app) {
  const table = app.table;
  if (app.mode !== 'phone' || !isHost(table) || inGame(table)) return null;
  return h('div', { class: 'row wrap host-more' },
    table.countdown ? null : button(t('host.settings'), 'small', () => open(app, 'settings'), { 'aria-haspopup': 'dialog' }),
    button(t('host.tools'), 'small ghost', () => open(app, 'tools'), { 'aria-haspopup': 'dialog' }));
}
