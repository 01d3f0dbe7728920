// The host's sheet (a <dialog>), loaded by host.js the first time the host opens it: the host's tools (pause
// or resume, end the game now, cancel a start's countdown, everyone with Manage and who has more time, in a game a
// bot for an empty chair, the bans), one person's actions (more time, make host, remove, remove and ban), or the
// settings form between games (its first field the game: switching it is host-game.js's, as the bot in a game is).
// Every button is at least 48 px, every text in the three languages. The page leaves out only what it knows the
// server would refuse (a stand-in host is not offered to remove the role's owner).

import { h, $, put } from './dom.js';
import { t, loadTexts, personName } from './i18n.js';
import { icon } from './icons.js';
import { bansList, manageButton } from './host.js';
import { botRow, gameField, saveText, switched } from './host-game.js';
import { optionInput, optionValues, presetOptions, secondsOptions, setOption } from './settings-form.js';
import { sure } from './sure.js';

await Promise.all([loadTexts('forms'), loadTexts('errors')]);  // its words (static/i18n/forms.LANG.json) come with it

const inGame = (table) => ['playing', 'reveal', 'pause'].includes(table.phase);
const isHost = (table) => Boolean(table.me && table.me.host);

function sheet() {
  let el = $('#host-sheet');
  if (!el) {
    el = h('dialog', { id: 'host-sheet', class: 'sheet host-sheet', 'aria-labelledby': 'host-sheet-title' });
    document.body.append(el);
    el.addEventListener('close', () => { el.dataset.view = ''; });
  }
  return el;
}

function button(text, cls, onClick, extra = {}) {
  const el = h('button', { type: 'button', class: `btn ${cls}`, ...extra }, text);
  el.onclick = onClick;  // (a property: morph gives a kept button the fresh one's)
  return el;
}

function close() {
  const el = $('#host-sheet');
  if (el && el.open) el.close();
}

export function open(app, view, arg = null) {
  const el = sheet();
  el.dataset.view = view;
  el.dataset.drawn = '';
  app.hostSheet = { view, arg };
  if (!el.open) el.showModal();
  renderSheet(app);
  const first = [...el.querySelectorAll('button, select')].find((c) => c.getClientRects().length);
  if (first) first.focus();  // (a new view: drawn afresh, focus on its first control)
}

/** Keep an open sheet in step with the table (a person who left, a game that ended). */
export function renderSheet(app) {
  const el = $('#host-sheet');
  if (!el || !el.open || !app.hostSheet || !app.table) return;
  const table = app.table;
  if (!isHost(table)) {
    close();
    return;
  }
  const { view, arg } = app.hostSheet;
  const p = view === 'person' ? table.people.find((q) => q.id === arg) : null;
  if ((view === 'person' && (!p || p.status === 'gone')) || (view === 'settings' && inGame(table))) {
    close();
    return;
  }
  if (view === 'settings' && el.dataset.drawn === 'settings') return;  // (a form being filled in is never redrawn)
  const children = view === 'person' ? personView(app, p) : view === 'settings' ? settingsView(app) : toolsView(app);
  const toast = $('#toast', el);  // (toast() puts it over an open sheet: kept out of the drawing)
  toast?.remove();
  // A view is drawn afresh when it opens, then in place (morph) as the table changes under it.
  if (el.dataset.drawn === view) morph(el, [children]);
  else put(el, children);
  el.dataset.drawn = view;
  if (toast) el.append(toast);
}

// --- drawn in place ----------------------------------------------------------------------------------

/**
 * Make ``el``'s children look like ``children`` (fresh elements from h()) while keeping the elements it has: a
 * node of the same kind at the same place (and the same ``data-key``, for a list's rows) is kept and given the
 * fresh one's attributes, text, click handler and children; only what is new is added, only what is gone removed.
 * So the state of a game changing under an open sheet leaves focus, a press and a screen reader where they were.
 */
function morph(el, children) {
  const fresh = children.flat(3).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  const keys = new Set(fresh.map(key));
  for (const old of [...el.childNodes]) if (key(old) && !keys.has(key(old))) old.remove();  // a row gone
  fresh.forEach((node, i) => {
    const old = el.childNodes[i];
    if (old && old.nodeName === node.nodeName && key(old) === key(node)) patch(old, node);
    else el.insertBefore(node, old || null);
  });
  while (el.childNodes.length > fresh.length) el.lastChild.remove();
}

const key = (node) => (node.dataset && node.dataset.key) || '';

function patch(old, node) {
  if (!(node instanceof Element)) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  for (const { name } of [...old.attributes]) if (!node.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of node.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  old.onclick = node.onclick;
  morph(old, [...node.childNodes]);
}

// --- the host's tools -------------------------------------------------------------------------------

function toolsView(app) {
  const table = app.table;
  const game = [];
  if (inGame(table)) {
    game.push(table.paused
      ? button([icon('deeper'), t('host.resume')], 'primary wide', () => { app.ui.send({ type: 'resume' }); close(); })
      : button(t('host.pause'), 'wide', () => { app.ui.send({ type: 'pause' }); close(); }));
    game.push(app.confirmEnd
      ? h('div', { class: 'confirm' }, h('p', { class: 'warn', text: t('host.end_sure') }),
        h('div', { class: 'row wrap' },
          button(t('host.end_yes'), 'danger', () => { app.confirmEnd = false; app.ui.send({ type: 'end' }); close(); }),
          button(t('host.end_no'), 'ghost', () => { app.confirmEnd = false; renderSheet(app); $('#end-game').focus(); },
            { id: 'end-no' })))
      : button(t('host.end'), 'wide ghost', () => { app.confirmEnd = true; renderSheet(app); $('#end-no').focus(); },
        { id: 'end-game' }));
  } else if (table.countdown) {
    game.push(button(t('host.cancel_start'), 'wide', () => { app.ui.send({ type: 'cancel_start' }); close(); }));
  } else {
    game.push(button(t('host.settings'), 'wide', () => open(app, 'settings')));
  }
  const people = table.people.filter((p) => p.status !== 'gone' && p.id !== table.me.id)
    .sort((a, b) => (a.chair ?? 99) - (b.chair ?? 99) || a.id - b.id);
  return [
    h('h2', { id: 'host-sheet-title', text: t('host.title') }),
    h('div', { class: 'host-game' }, game),
    h('h3', { text: t('host.people') }),
    people.length ? h('ul', { class: 'people host-people', 'data-key': 'people' }, people.map((p) => h('li',
      { class: 'person', 'data-key': p.id }, icon(p.bot ? 'bot' : 'person', '', 'who-icon'),
      h('span', { class: 'name', text: personName(p) }), moreTag(table, p), manageButton(app, p))))
      : h('p', { class: 'muted', text: t('host.nobody'), 'data-key': 'nobody' }),
    inGame(table) ? botRow(app) : null,
    h('div', { 'data-key': 'bans' }, bansList(app)),
    h('div', { class: 'row wrap end' }, button(t('invite.close'), 'primary', close)),
  ];
}

// --- one person -------------------------------------------------------------------------------------

/** The factor of someone's extra time (the host's me.extra_time; 1: as everyone). */
const factorOf = (table, p) => Number((table.me.extra_time || {})[p.id] ?? 1);

/** In the host's list of people: who has more time, and how much. */
function moreTag(table, p) {
  const factor = factorOf(table, p);
  return factor === 1 ? null : h('span', { class: 'tags', text: t('host.more_tag', { x: t(`host.more_${factor}`) }) });
}

/** More time (issue 41): the usual clock, twice or three times it, or no clock, for this person alone. Each button
 *  says whether it is the one in force (aria-pressed); the sheet stays open and is redrawn in place when the table
 *  says it took, so the focus stays on the button tapped. */
function moreTime(app, p) {
  const name = personName(p);
  const now = factorOf(app.table, p);
  return h('div', { class: 'more-time', role: 'group', 'aria-labelledby': 'more-time-title', 'data-key': 'more' },
    h('h3', { id: 'more-time-title', text: t('host.more_time', { name }) }),
    h('div', { class: 'row wrap' }, [1, 2, 3, 0].map((factor) => button(t(`host.more_${factor}`),
      factor === now ? 'small primary' : 'small', () => app.ui.send({ type: 'extra_time', person: p.id, factor }),
      { id: `more-${factor}`, 'aria-pressed': String(factor === now) }))),
    h('p', { class: 'hint', text: t('host.more_hint', { name }) }));
}

function personView(app, p) {
  const table = app.table;
  const name = personName(p);
  const owner = table.host_owner === p.id && table.host_owner !== table.me.id;
  const send = (message) => { app.ui.send(message); close(); };
  // Removing or banning someone is asked once first (sure.js: the page's own question, as Leave asks).
  const removeHint = inGame(table) ? t('host.remove_hint_game') : t('host.remove_hint');
  const ask = (event, key, text, message) => sure({ question: t(`host.${key}_sure`, { name }), text,
    yes: t(`host.${key}_yes`), no: t('host.keep', { name }) }, () => send(message), event.currentTarget);
  const tags = [p.connected ? t('host.connected') : t('st.offline')];
  if (p.status === 'watching') tags.push(t('st.watching'));
  return [
    h('h2', { id: 'host-sheet-title', text: name }),
    h('p', { class: 'muted', text: tags.join(' · ') }),
    moreTime(app, p),
    h('div', { class: 'host-actions' },
      button(t('host.make_host', { name }), 'wide', () => send({ type: 'host', person: p.id }), { hidden: !p.connected }),
      owner ? h('p', { class: 'note', text: t('host.owner_note', { name }), 'data-key': 'owner' }) : [
        button(t('host.remove', { name }), 'wide', (e) => ask(e, 'remove', removeHint, { type: 'remove', person: p.id })),
        h('p', { class: 'hint', text: removeHint }),
        button(t('host.ban', { name }), 'wide danger', (e) => ask(e, 'ban', t('host.ban_hint'),
          { type: 'remove', person: p.id, ban: true })),
        h('p', { class: 'hint', text: t('host.ban_hint') }),
      ]),
    h('div', { class: 'row wrap end' }, button(t('host.back'), 'ghost', () => open(app, 'tools')),
      button(t('invite.close'), 'primary', close)),
  ];
}

// --- the settings, between games ---------------------------------------------------------------------

function settingsView(app) {
  const table = app.table;
  const name = app.hostSheet.arg || table.game;  // (another game: the host is switching to it)
  const game = app.catalogue?.games.find((g) => g.name === name);
  if (!game) return [h('p', { text: t('err.network') }), button(t('invite.close'), 'primary', close)];
  const s = name === table.game ? table.settings : switched(game, table.settings);
  const preset = h('select', { id: 'set-preset' }, presetOptions(game));
  preset.value = s.preset;
  const options = h('div', { id: 'set-options' }, game.options.filter((o) => o.offered).map((o) => optionInput(o, 'set')));
  const seconds = h('select', { id: 'set-seconds' }, secondsOptions(game, s.seconds));
  seconds.value = String(s.seconds);
  const turns = game.dynamics === 'turns';
  // The reveal's beat (a simultaneous game): how long everyone's choice stays on every screen before play goes on.
  const beat = turns ? null : h('select', { id: 'set-beat' },
    [...new Set([0, 1, 2, 3, 4, 5, 6, 8, 10, s.beat ?? 0])].sort((x, y) => x - y)
      .map((n) => h('option', { value: n, text: t('clock.secs', { n }) })));
  if (beat) beat.value = String(s.beat ?? 0);
  const clock = h('label', { class: 'check' },
    h('input', { id: 'set-clock', type: 'checkbox', role: 'switch', checked: s.turn_clock }), ' ',
    h('span', { text: t(turns ? 'opt.turn_clock' : 'opt.decision_clock') }));
  const hold = h('label', { class: 'check' },
    h('input', { id: 'set-hold', type: 'checkbox', role: 'switch', checked: Boolean(s.hold_silent) }), ' ',
    h('span', { text: t('opt.hold_silent') }));
  const form = h('form', { class: 'settings-form', method: 'dialog' },
    h('h2', { id: 'host-sheet-title', text: t('host.settings') }),
    gameField(app, name, (other) => open(app, 'settings', other)),
    h('label', { for: 'set-preset', text: t('start.preset') }), preset,
    options, clock, hold,
    h('label', { for: 'set-seconds', text: t(turns ? 'start.seconds_turn' : 'start.seconds') }), seconds,
    beat ? [h('label', { for: 'set-beat', text: t('host.beat') }), beat, h('p', { class: 'hint', text: t('host.beat_hint') })] : null,
    h('p', { class: 'hint', text: t('host.settings_hint') }),
    h('div', { class: 'row wrap end' },
      button(t('host.cancel'), 'ghost', () => open(app, 'tools')),
      h('button', { type: 'submit', class: 'btn primary', text: saveText(app, name) })));
  // The options as they stand; a preset chosen sets the options it names, the others back to their defaults.
  for (const [key, value] of Object.entries(s.rules || {})) setOption(game, key, value, 'set', form);
  preset.addEventListener('change', () => {
    const chosen = game.presets.find((p) => p.name === preset.value) || game.presets[0];
    for (const option of game.options) setOption(game, option.key, chosen.options[option.key] ?? option.default, 'set', form);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const message = { type: 'settings', preset: preset.value, options: optionValues(game, 'set', form),
      seconds: Number(seconds.value) };
    if (name !== table.game) message.game = name;
    message.turn_clock = $('#set-clock', form).checked;
    message.hold_silent = $('#set-hold', form).checked;
    if (beat) message.beat = Number(beat.value);
    app.ui.send(message);
    close();
  });
  return form;
}
