// The audience's panel (issue 42) on the phone of someone watching: the queue past the last chair, or a person
// waiting for the next cave. table.js loads it (with its words, static/i18n/audience.LANG.json, and its styles,
// static/css/audience.css) when a state first carries me.audience, and hands it every state after. At each decision it asks who walks out (the
// names, as toggle buttons) and whether the next card collapses the cave (yes or no); Booty Hunter asks once who
// leads after the count. Each tap sends the call as it now stands (predict, docs/protocol.md); at the reveal it is
// locked, and shown so; once scored, the points. Nobody else's phone, nor the TV, is ever sent a call.

import { t, loadTexts, onLang, personName } from './i18n.js';
import { $, h, put } from './dom.js';
import { announce } from './table.js';

await loadTexts('audience');
const CSS = '/static/css/audience.css';
if (!document.querySelector(`link[href="${CSS}"]`)) document.head.append(h('link', { rel: 'stylesheet', href: CSS }));

const inGame = (table) => ['playing', 'reveal', 'pause'].includes(table.phase);
let pick = null;  // the call as this phone stands it: {key, out: Set, collapse, leader}
let locked = null;  // the last call made, once its question closed: {key, said}
let told = null;  // the last key whose lock (or score) was said aloud
let shown = null;  // the page's app, drawn again in another language
onLang(() => shown && show(shown));

/** The panel: drawn after the game, shown to a watcher in a game (and at the results, with points). */
export function show(app) {
  shown = app;
  const table = app.table;
  const aud = table && table.me && table.me.audience;
  let panel = $('#audience');
  if (!panel) {
    panel = h('section', { id: 'audience', class: 'panel audience', 'aria-labelledby': 'aud-title' });
    $('#game').after(panel);
  }
  const on = app.mode === 'phone' && Boolean(aud) && (inGame(table) || (table.phase === 'results' && aud.score > 0));
  panel.hidden = !on;
  if (!on) return;
  const ask = aud.open;
  if (pick && (!ask || ask.key !== pick.key)) {
    if (pick.sent) locked = { key: pick.key, said: said(table, pick) };
    pick = null;
  }
  if (ask && !pick) pick = fromMine(ask, aud.mine);
  const focus = document.activeElement?.id;
  put(panel, h('h2', { id: 'aud-title', class: 'h3', text: t('aud.title') }),
    ask ? question(app, ask, table) : null, lockedPart(aud, Boolean(ask)), score(aud));
  if (focus && panel.querySelector(`#${focus}`)) $(`#${focus}`).focus();
  const key = locked && locked.key;
  if (key && told !== key + (aud.result?.key === key)) {
    told = key + (aud.result?.key === key);
    announce(aud.result?.key === key ? t('aud.scored', { n: aud.result.points }) : t('aud.locked'));
  }
}

function fromMine(ask, mine) {
  return { key: ask.key, out: new Set(mine?.out || []), collapse: mine?.collapse ?? null, leader: mine?.leader ?? null,
    sent: Boolean(mine), once: Boolean(ask.once) };
}

const nameOf = (table, seat) => {
  const person = table.people.find((p) => p.seat === seat);
  return person ? personName(person) : `#${seat + 1}`;
};

/** A toggle button: its state in aria-pressed (a screen reader says "pressed"). */
function toggle(id, label, pressed, onTap, disabled = false) {
  return h('button', { id, type: 'button', class: 'btn aud-pick', 'aria-pressed': String(pressed),
    'aria-disabled': disabled ? 'true' : null, on: { click: () => { if (!disabled) onTap(); } } },
  h('span', { class: 'aud-tick', 'aria-hidden': 'true', text: '✓' }), label);  // (a tick besides the colour)
}

function question(app, ask, table) {
  const send = () => {
    const msg = { type: 'predict', key: pick.key };
    if (pick.out.size) msg.out = [...pick.out].sort((a, b) => a - b);
    if (pick.collapse !== null) msg.collapse = pick.collapse;
    if (pick.leader !== null) msg.leader = pick.leader;
    if (Object.keys(msg).length > 2 && app.ui.send(msg)) pick.sent = true;
    show(app);
  };
  const parts = [];
  if (ask.out) {
    parts.push(h('div', { role: 'group', 'aria-labelledby': 'aud-who', class: 'aud-group' },
      h('p', { id: 'aud-who', class: 'aud-q', text: t('aud.who') }),
      h('div', { class: 'aud-row' }, ask.out.map((seat) => toggle(`aud-out-${seat}`, nameOf(table, seat),
        pick.out.has(seat), () => { if (!pick.out.delete(seat)) pick.out.add(seat); send(); }))),
      h('p', { class: 'hint', text: t('aud.who_hint') })));
  }
  if (ask.collapse) {
    const call = (value) => () => { pick.collapse = pick.collapse === value ? null : value; send(); };
    parts.push(h('div', { role: 'group', 'aria-labelledby': 'aud-cq', class: 'aud-group' },
      h('p', { id: 'aud-cq', class: 'aud-q', text: t('aud.collapse') }),
      h('div', { class: 'aud-row' }, toggle('aud-yes', t('aud.yes'), pick.collapse === true, call(true)),
        toggle('aud-no', t('aud.no'), pick.collapse === false, call(false)))));
  }
  if (ask.leader) {
    const done = pick.once && pick.sent;
    parts.push(h('div', { role: 'group', 'aria-labelledby': 'aud-lq', class: 'aud-group' },
      h('p', { id: 'aud-lq', class: 'aud-q', text: t('aud.leader') }),
      h('div', { class: 'aud-row' }, ask.leader.map((seat) => toggle(`aud-lead-${seat}`, nameOf(table, seat),
        pick.leader === seat, () => { pick.leader = seat; send(); }, done))),
      h('p', { class: 'hint', text: t(done ? 'aud.leader_done' : 'aud.leader_hint') })));
  }
  parts.push(h('p', { id: 'aud-state', class: 'aud-state', text: pick.sent ? t('aud.sent') : t('aud.open') }));
  return parts;
}

/** The last call made, locked at its reveal (then scored), under the question open now if any; with none open
 *  and none made, that the next one opens soon. */
function lockedPart(aud, asking) {
  if (!locked) return asking ? null : h('p', { id: 'aud-state', class: 'aud-state', text: t('aud.waiting') });
  const scored = aud.result?.key === locked.key ? aud.result : null;
  return h('div', { id: 'aud-locked', class: 'aud-locked' },
    h('p', { class: 'aud-state locked', text: t('aud.locked') }),
    h('p', { text: locked.said }),
    scored ? h('p', { id: 'aud-scored', class: 'big', text: t('aud.scored', { n: scored.points }) }) : null);
}

function said(table, call) {
  const bits = [];
  if (call.out.size) bits.push(t('aud.said_out', { names: [...call.out].map((s) => nameOf(table, s)).join(', ') }));
  if (call.collapse !== null) bits.push(t(call.collapse ? 'aud.said_yes' : 'aud.said_no'));
  if (call.leader !== null) bits.push(t('aud.said_leader', { name: nameOf(table, call.leader) }));
  return bits.join(' ');
}

function score(aud) {
  return h('p', { id: 'aud-score', class: 'aud-score' }, t('aud.points', { n: aud.score }),
    aud.rank ? ` · ${t('aud.rank', { rank: aud.rank })}` : '');
}
