// The table page, phone and TV: seat token, name prompt, lobby, host's controls (host.js), clock, pause,
// notices (story.js), invite sheet, wake lock, results shell; the board: its game's page module (docs/pages.md).

import { h, $, put, show, tableCode, text } from './dom.js';
import { t, has, initLang, langSwitch, loadTexts, onLang, personName, useGame } from './i18n.js';
import { Connection } from './conn.js';
import { applyChosen, Sequence } from './delta.js';
import { gameModule, games } from './catalogue.js';
import { icon } from './icons.js';
import { qrCode, joinUrl, loadPublicUrl } from './qr.js';
import { bansList, hostButtons, hostStrip, manageButton, renderSheet } from './host.js';

const tokenKey = (code) => `gemtable.token.${code}`;
const seenKey = (code) => `gemtable.seen.${code}`;
const RECENT_SHOWN = 4;
const BUZZ = 'gemtable.buzz';
/** Whether this phone vibrates (a switch in the invite sheet): on, unless the phone asks for reduced motion. */
const buzzOn = () => (stored(BUZZ) ?? (matchMedia('(prefers-reduced-motion: reduce)').matches ? '0' : '1')) === '1';
/** A game is on: a decision open, a reveal shown for its beat, or the pause between rounds. */
const playing = (phase) => phase === 'playing' || phase === 'reveal' || phase === 'pause';
const BANNER_KINDS = new Set(['countdown', 'paused', 'resumed']);
/** Notices a banner tells while they last (a countdown, a pause): neither toasted nor listed in "Lately". */
const told = (n) => !BANNER_KINDS.has(n.kind);

/** results-shell.js (the results' frame: the record, Play again, the host's buttons), loaded with the first results. */
let shell = null;
function resultsShell(app, v) {
  const helpers = { story: () => story, needStory, needed, render };
  if (shell) shell.renderResults(app, v, helpers);
  else import('./results-shell.js').then((m) => { shell = m; render(app); }).catch((e) => console.error(e));
}

/** ready.js (the ready check's banner and words), loaded the first time a host asks whether everyone is ready. */
let readyCheck = null;

/** story.js (the notices in words, and their texts), loaded the first time something is to be told. */
let story = null;
async function needStory() {
  story ??= await import('./story.js');
  return story;
}

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private mode: the seat lasts as long as the page */ }
}

export async function runTable(mode, stage = null) {
  const code = tableCode();
  const app = {
    mode, code,
    token: mode === 'tv' ? null : stored(tokenKey(code)),
    table: null, prev: null, game: null, gameName: null, catalogue: null,
    deadlineAt: null, total: 1, replaced: false, joining: false, local: {}, net: 'connecting',
    newsSeen: null, away: [], removed: null, banned: null, records: {}, stage,
  };
  await initLang([]);  // the table's game's texts come with its module (loadGame)
  if (stage) await stage.texts();  // the TV's (stage.js)
  $('#lang-slot').replaceWith(langSwitch());
  onLang(() => render(app));
  for (const el of document.querySelectorAll('.table-code')) el.textContent = code;
  loadPublicUrl().then(() => {
    // The address breaks only after a / . or : (never inside a word)
    const url = joinUrl(code).split(/(?<=[/.:])/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
    for (const el of document.querySelectorAll('.join-url')) put(el, url.map((n) => (typeof n === 'string' ? n : n.cloneNode())));
    const link = $('#invite-link');
    if (link) link.value = joinUrl(code);
  }).catch(() => {});
  games().then((list) => { app.catalogue = { games: list }; render(app); });  // (catalogue.js: once per page)

  let chain = Promise.resolve();
  app.sequence = new Sequence();
  app.conn = new Connection({
    onOpen: () => {
      app.sequence.reset();
      app.fresh = true;  // the first state on this connection may show a move sent on the last one was lost
      app.conn.send({ type: 'hello', code, token: app.token, tv: mode === 'tv' });
    },
    onMessage: (msg) => { chain = chain.then(() => handle(app, msg)).catch((e) => console.error(e)); },
    onStatus: (status) => { app.net = status; renderNet(app); },
  });
  app.ui = makeUi(app);
  wire(app);
  app.conn.start();
  setInterval(() => tickClock(app), 200);
  document.addEventListener('visibilitychange', () => wakeLock(app));
}

// --- messages -------------------------------------------------------------------------

async function handle(app, msg) {
  if (msg.type === 'welcome') {
    if (msg.token) {
      app.token = msg.token;
      store(tokenKey(app.code), msg.token);
    }
    app.joining = false;
  } else if (msg.type === 'state' || msg.type === 'chosen') {
    const step = app.sequence.take(msg);
    if (step === 'sync') app.conn.send({ type: 'sync' });
    if (step !== 'state' && step !== 'chosen') return;
    const table = step === 'state' ? msg.table : applyChosen(app.table, msg);
    await loadGame(app, table.game);
    app.prev = app.table;
    app.table = table;
    // Each seat in its player's look (a game without colours of its own: seat-style.js, through its page module).
    app.game?.useLooks?.(Object.fromEntries(table.people.filter((p) => p.seat !== null).map((p) => [p.seat, p.look])));
    holdResults(app);
    if (step === 'state') timeClock(app, table);  // a choice leaves the clock running as it was
    if (app.more || table.me?.more_time || table.remaining_ms === 0) {
      import('./more-time.js').then((m) => (app.more = m).show(app));
    }
    if (app.aud || table.me?.audience) import('./audience.js').then((m) => (app.aud = m).show(app));
    await tellNews(app, effects(app));
    render(app);
    sendKept(app);
  } else if (msg.type === 'removed') {
    if (msg.ban) return shut(app, msg.by);  // (its token kept: refused until the ban is lifted)
    forget(app);
    app.removed = { by: msg.by };
    if (app.table) app.table.me = null;  // an onlooker now
    toast(msg.by ? t('removed.you_by', { by: msg.by }) : t('removed.you'));
    render(app);
  } else if (msg.type === 'error') {
    await loadTexts('errors');  // the refusals' words (static/i18n/errors.LANG.json), with the first refusal
    if (app.joining && ['name-taken', 'bad-name'].includes(msg.code)) nameRefused(t('err.' + msg.code));
    app.joining = false;
    if (msg.code === 'stale' && app.keptSent !== undefined) {
      app.keptSent = undefined;
      toast(t('conn.not_counted'));
      render(app);
      return;
    }
    if (msg.code === 'unknown-token' || msg.code === 'removed') {  // refused: say hello again, to look on
      forget(app);
      if (msg.code === 'removed') app.removed = { by: '' };
      app.conn.send({ type: 'hello', code: app.code, tv: app.mode === 'tv' });
    }
    if (msg.code === 'no-table') {  // a stale or mistyped link: say so, offer the start page; stop trying
      app.missing = true;
      app.conn.stop();
      render(app);
      return;
    }
    if (msg.code === 'banned') return shut(app, '');
    toast(has('err.' + msg.code) ? t('err.' + msg.code) : msg.message);
    render(app);
  } else if (msg.type === 'replaced') {
    app.replaced = true;
    app.conn.stop();
    render(app);
  }
}

/** A refused name is said at its field, which is marked, until the name is changed (WCAG 3.3.1). */
function nameRefused(text) {
  const field = $('#join-name');
  const error = $('#join-error');
  field.setAttribute('aria-invalid', text ? 'true' : 'false');
  error.textContent = text;
  error.hidden = !text;
}

/** Banned: the page says so, and nothing more of the table (not even a toast it was told a moment before). */
function shut(app, by) {
  app.banned = { by };
  app.table = null;
  app.conn.stop();
  clearTimeout(toastTimer);
  $('#toast').hidden = true;
  render(app);
}

/** This phone's seat is no more: forget its token. */
function forget(app) {
  app.token = null;
  store(tokenKey(app.code), null);
}

async function loadGame(app, name) {
  if (app.gameName === name) return;
  app.gameName = name;
  app.local = {};
  app.ui.local = app.local;
  [app.game] = await Promise.all([gameModule(name), useGame(name)]);
}

/** A game that asks for it (holdResults) shows its final state for the usual pause before the
 *  results, as it does between rounds; a page that opens on the results shows them at once. */
function holdResults(app) {
  const was = app.prev;
  const now = app.table;
  const ends = was && now.phase === 'results' && playing(was.phase)
    && was.game_number === now.game_number;
  if (now.phase !== 'results') app.holdUntil = 0;
  if (!ends || !app.game.holdResults) return;
  const ms = (now.settings.pause || 0) * 1000;
  app.holdUntil = performance.now() + ms;
  setTimeout(() => render(app), ms + 30);
}

function holding(app) {
  return Boolean(app.holdUntil) && performance.now() < app.holdUntil;
}

/** An optional hook of the game module (clockLabel, settingsText): its answer, or null. */
function hook(app, name, ...args) {
  const fn = app.game && app.game[name];
  return typeof fn === 'function' ? fn(...args) : null;
}

/** A table word, as the game module words it (e.g. "the next cave" or "the next game"). */
function word(app, key, vars) {
  return t(app.game?.words?.[key] || key, vars);
}

function makeUi(app) {
  return {
    mode: app.mode,
    local: app.local,
    send: (message) => send(app, message),
    rerender: () => render(app),
    code: app.code,
  };
}

// --- sending, and a tap kept while reconnecting -----------------------------------------

/**
 * Send a message now. While the phone is reconnecting a move is not lost: the last one is kept,
 * with the decision number it answers, and sent when the connection is back if that decision is
 * still open (the server refuses it as stale otherwise); if it is over, the phone says that the tap
 * did not count. Anything else asks to wait for the connection. True when sent or kept.
 */
function send(app, message) {
  const move = message.type === 'choose' && app.table?.phase === 'playing'
    ? { ...message, decision: message.decision ?? app.table.decision } : null;
  if (app.conn.send(message)) {
    if (move) app.unconfirmed = move;
    return true;
  }
  if (move) {
    app.kept = move;
    app.conn.wake(true);
    toast(t('conn.kept'));
    return true;
  }
  toast(t('conn.reconnecting'));
  return false;
}

/** The first state after a reconnection: send the kept move if its decision is still open; and a move
 *  sent on the last connection that this state does not show (it was in flight when the connection or
 *  the server died: the page shows it chosen, so it must count) is sent again, for the same decision. */
function sendKept(app) {
  if (app.keptSent !== undefined && app.table.decision !== app.keptSent) app.keptSent = undefined;
  resendLost(app);
  const kept = app.kept;
  if (!kept || !app.conn.open) return;
  app.kept = null;
  app.conn.soon = 0;
  const table = app.table;
  const open = table.phase === 'playing' && table.decision === kept.decision
    && Boolean(table.me?.moves?.length);
  if (open) {
    app.keptSent = kept.decision;
    app.conn.send(kept);
  } else {
    toast(t('conn.not_counted'));
    render(app);
  }
}

function resendLost(app) {
  const sent = app.unconfirmed;
  const table = app.table;
  const fresh = app.fresh;
  app.fresh = false;
  if (!sent) return;
  const me = table.me;
  const open = table.phase === 'playing' && table.decision === sent.decision
    && Boolean(me?.moves?.includes(sent.move));
  if (!open || me.choice === sent.move) {
    app.unconfirmed = null;  // shown (or the moment is over: the page no longer shows it chosen)
    return;
  }
  if (fresh && app.conn.send(sent)) app.keptSent = sent.decision;
}

/** The notices this page has not shown yet: each is said (a toast, the live region) on every screen; a phone
 *  that comes back (its last seen notice is older than what its person was told about) gets a banner of
 *  what happened to it while it was gone. */
async function tellNews(app, say = []) {
  const table = app.table;
  const news = table.news || [];
  const mine = table.me?.news || [];
  const newest = Math.max(0, ...news.map((n) => n.id), ...mine.map((n) => n.id));
  const kept = Number(stored(seenKey(app.code)));
  if (news.some(told) || mine.some((n) => n.id > kept)) await needStory();
  const back = story?.back(app, mine, kept);  // a phone back is told its own story
  if (app.newsSeen === null) {  // this page's first state: only a returning phone's own story is told
    app.newsSeen = newest;
  } else {
    const fresh = news.filter((n) => n.id > app.newsSeen && told(n) && !(back && story.about(n, table.me)));
    const said = story ? fresh.map((n) => story.noticeText(n, app.game)).filter(Boolean) : [];
    if (said.length && app.mode !== 'tv') toast(said.join(' '), true);  // said below, with the rest  // the TV lists them in its side column ("Lately")
    say.push(...said);
    app.newsSeen = Math.max(app.newsSeen, newest);
  }
  if (say.length) announce(say.join(' '));
  if (table.me && app.mode === 'phone') store(seenKey(app.code), String(app.newsSeen));
}

/** What changed since the last state: what to announce (tellNews says it, with the notices); buzz; a start's sheets. */
function effects(app) {
  if (!app.prev || !app.game) return [];
  const { say, buzz } = app.game.changes(app.prev, app.table, app.ui);
  if (buzz && app.mode === 'phone' && navigator.vibrate && buzzOn()) {
    try { navigator.vibrate(buzz); } catch { /* not allowed yet */ }
  }
  const was = app.prev.phase;
  const now = app.table.phase;
  if (was !== now && now === 'lobby') say.push(t('lobby.title', { code: app.code }));
  const paused = app.table.paused;
  if (Boolean(paused) !== Boolean(app.prev.paused)) say.push(paused ? pauseWord(paused) : t('pause.over'));
  const counting = app.table.countdown && !app.prev.countdown;
  if (counting) say.push(t('count.by', { name: app.table.countdown.name }));
  if (app.table.readying && !app.prev.readying && readyCheck) say.push(t('ready.title'));
  if (counting || (playing(now) && !playing(was))) {  // a start: the sheets close, so nothing covers the moves
    for (const sheet of document.querySelectorAll('#invite[open], #leave-sure[open]')) {
      sheet.close();
      document.activeElement.blur();
      app.lost = true;  // keepFocus: the heading
    }
  }
  return say;
}

export function announce(text) {
  const live = $('#live');
  live.textContent = '';
  setTimeout(() => { live.textContent = text; }, 60);
}

let toastTimer = null;
export function toast(text, quiet = false) {
  if (!quiet) announce(text);  // the page's one live region reads it (the toast is only seen)
  const el = $('#toast');
  // Over an open sheet (a modal dialog is in the top layer, above everything else) the toast goes
  // inside it, or the backdrop would dim it.
  const over = document.querySelector('dialog[open]') || document.body;
  if (el.parentElement !== over) over.append(el);
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4500);
}

// --- the page -------------------------------------------------------------------------

function names(table) {
  const out = {};
  for (const p of table.people) if (p.seat !== null && p.seat !== undefined) out[p.seat] = personName(p);
  return out;
}

function view(app) {
  const table = app.table;
  return { table, me: table.me, state: table.state, names: names(table), mode: app.mode, catalogue: app.catalogue,
    heading: app.prompt ? 'h2' : 'h1' };
}

/** The element of ``sel`` as a ``tag`` heading (the page's one h1 is what it is about now). */
function heading(sel, tag) {
  const el = $(sel);
  if (el.localName === tag) return el;
  const to = h(tag, { id: el.id });
  el.replaceWith(to);
  return to;
}

/** An action that hid the control it came from (Join, Start, a move) leaves focus on the page's h1, not the body
 *  (if the h1 is not drawn yet — the results' frame still loading — the next render places it). */
function keepFocus(app, was) {
  const now = document.activeElement;  // (a game may have moved it on: the spot drawn again)
  if (now && now !== document.body && now.isConnected && now.getClientRects().length) {
    app.lost = false;
    return;
  }
  if (!app.lost && (!was || was === document.body)) return;
  const top = [...document.querySelectorAll('h1')].find((e) => e.getClientRects().length);
  app.lost = !top;
  if (!top) return;
  top.tabIndex = -1;
  top.focus({ preventScroll: true });
}

function render(app) {
  const table = app.table;
  renderNet(app);
  if (!table) {  // refused before any state, or banned: say why (and nothing more)
    if (app.banned) for (const el of document.querySelectorAll('#main>:not(#banner),#actions')) el.hidden = true;
    if (app.banned || app.missing) renderBanner(app);
    wakeLock(app);
    return;
  }
  const { me } = table;
  const was = document.activeElement;
  const phase = holding(app) ? 'pause' : table.phase;
  app.prompt = Boolean($('#join')) && !me && !app.replaced;
  document.body.dataset.phase = phase;
  const who = $('#who');
  if (who) who.textContent = me ? me.name : '';
  renderBanner(app);
  const joinBox = $('#join');
  if (joinBox) {
    const open = !me && !app.replaced;
    show(joinBox, open);
    $('#join-go').setAttribute('aria-disabled', app.joining);  // (disabled would drop its focus to the body)
    if (open && !app.prompted) {
      app.prompted = true;
      $('#join-name').focus();
    }
    if (!open) app.prompted = false;
  }
  const v = view(app);
  const inGame = playing(phase);
  const lobby = !inGame && !(app.mode === 'tv' && phase === 'results');
  show($('#lobby'), lobby);
  if (lobby) renderLobby(app);
  show($('#game'), inGame);
  if (inGame) app.game.renderGame($('#game'), v, app.ui);
  const strip = $('#host-strip');
  if (strip) hostStrip(app, strip);
  const actions = $('#actions');
  if (actions) {
    app.game.renderActions(actions, v, app.ui);
    document.body.classList.toggle('has-actions', !actions.hidden);
  }
  show($('#results'), phase === 'results');
  if (phase === 'results') resultsShell(app, v);
  renderRecent(app, $('#tv-news'));  // the TV's side column: what happened lately, during a game too
  const corner = $('#corner-qr');
  if (corner) {
    show(corner, !lobby);
    if (!lobby) fillQr(app, '#corner-qr-img');
  }
  renderSheet(app);
  if (app.stage) app.stage.renderStage(app);
  wakeLock(app);
  tickClock(app);
  keepFocus(app, was);
}

function renderNet(app) {
  const el = $('#net');
  if (!el) return;
  const text = app.banned ? '' : { connecting: t('conn.connecting'), reconnecting: t('conn.reconnecting') }[app.net] || '';
  if (text && text !== el.textContent) announce(text);
  el.textContent = text;
  el.hidden = !text;
  document.body.classList.toggle('offline', app.net === 'reconnecting');
  // The bar sits just under the top bar and the clock just under it: the clock is never covered.
  document.body.style.setProperty('--net-h', text ? `${Math.ceil(el.getBoundingClientRect().height)}px` : '0px');
}

function renderBanner(app) {
  const el = $('#banner');
  const table = app.table || { me: null };
  const me = table.me;
  const blocks = [];
  const invite = $('#invite-btn');
  // No invitation to a table that does not exist, nor to one this person may not enter.
  if (invite && (app.missing || app.banned)) invite.hidden = true;
  if (app.missing) {
    blocks.push([h('h1', { text: t('missing.title', { code: app.code }) }), h('p', { text: t('missing.hint') }),
      h('p', null, h('a', { class: 'btn primary wide', href: '/', text: t('missing.start') }))]);
  }
  if (app.banned) {
    blocks.push([h('p', { class: 'big', text: app.banned.by ? t('banned.you_by', { by: app.banned.by }) : t('banned.you') }),
      h('p', { text: t('banned.hint') })]);
  } else if (app.removed && !me) {
    blocks.push([h('p', { class: 'big', text: app.removed.by ? t('removed.you_by', { by: app.removed.by }) : t('removed.you') }),
      h('p', { text: t('removed.hint') })]);
  }
  if (table.paused) blocks.push(pausedBlock(app));
  if (table.readying && !table.countdown) {  // the ready check: its banner and words load when first asked
    if (readyCheck) blocks.push(readyCheck.readyBlock(app));
    else import('./ready.js').then((m) => { readyCheck = m; announce(t('ready.title')); render(app); });
  }
  if (table.countdown) blocks.push(countdownBlock(app));
  if (app.away.length && me) {
    blocks.push([h('h2', { class: 'away-title', text: t('away.title') }),
      h('ul', { class: 'away-list' }, app.away.map((line) => h('li', { text: line }))),
      h('button', { class: 'btn small', type: 'button', text: t('away.ok'), on: { click: () => {
        app.away = [];
        render(app);
      } } })]);
  }
  const own = app.table ? ownBanner(app) : null;
  if (own) blocks.push(own);
  show(el, blocks.length > 0);
  if (blocks.length) put(el, blocks.map((block) => h('div', { class: 'banner-block' }, block)));
  el.classList.toggle('paused', Boolean(table.paused));
  el.classList.toggle('counting', Boolean(table.countdown));
}

function pausedBlock(app) {
  const { me, paused } = app.table, host = me?.host, silent = paused.silent && has('pause.silent');
  const lifts = host || (silent && me?.chair != null);
  return [h('p', { class: 'huge', text: pauseWord(paused) }),
    h('p', { text: t(silent ? (lifts ? 'pause.silent_hint' : 'pause.silent_watch') : host ? 'pause.hint_host'
      : me ? 'pause.hint' : 'pause.hint_watch') }),
    lifts ? h('button', { class: 'btn primary wide', type: 'button', id: 'resume',
      text: t(silent ? 'pause.here' : 'host.resume'), on: { click: () => app.ui.send({ type: 'resume' }) } }) : null];
}

// (a hold's words come with the notices', news.LANG.json: its "silent" notice loads them with story.js)
const pauseWord = (p) => (p.silent && has('pause.silent') ? t('pause.silent') : t('pause.by', { name: p.name }));

function countdownBlock(app) {
  const table = app.table;
  const host = Boolean(table.me?.host);
  // The phone's clock (sticky at the top) counts down; the TV's lobby has none, so its banner does.
  const big = app.mode === 'tv' ? h('p', { class: 'huge' },
    h('span', { class: 'count-label', text: word(app, 'count.starts') }), ' ',
    h('span', { class: 'count-num', id: 'count-num', text: t('clock.secs', { n: countdownSecs(app) }) })) : null;
  return [big, h('p', { class: app.mode === 'tv' ? '' : 'big', text: t('count.by', { name: table.countdown.name }) }),
    host ? h('button', { class: 'btn wide', type: 'button', id: 'cancel-start', text: t('host.cancel_start'),
      on: { click: () => app.ui.send({ type: 'cancel_start' }) } }) : null];
}

function countdownSecs(app) {
  return app.countdownAt ? Math.max(0, Math.ceil((app.countdownAt - performance.now()) / 1000)) : 0;
}

function ownBanner(app) {
  const me = app.table.me;
  let content = null;
  if (app.replaced) {
    content = [h('p', { text: t('conn.replaced') }),
      h('button', { class: 'btn', type: 'button', text: t('conn.take_back'), on: { click: () => {
        app.replaced = false;
        app.conn.start();
      } } })];
  } else if (me?.status === 'watching') {
    content = [h('p', { class: 'big', text: t('me.watching', { n: me.queue_position ?? '?' }) }),
      h('p', { text: t('me.watching_hint') })];
  } else if (me?.status === 'waiting' && app.table.phase !== 'lobby') {
    content = [h('p', { class: 'big', text: word(app, 'me.waiting') })];
  } else if (me?.status === 'away') {
    content = [h('p', { class: 'big', text: word(app, 'me.away') })];
  }
  return content;
}

function personRow(app, p) {
  const table = app.table;
  const me = table.me;
  const tags = [];
  if (me && p.id === me.id) tags.push(t('people.you'));
  if (p.id === table.host) tags.push(t('people.host'));
  if (p.bot) tags.push(t('people.bot_of', { kind: botName(p.bot) }));
  if (p.status === 'away') tags.push(t('st.away'));
  else if (!p.connected) tags.push(t('st.offline'));
  if (p.bot_plays) tags.push(t('st.bot_plays'));
  if (p.status === 'waiting') tags.push(t('st.waiting'));
  const remove = manageButton(app, p);
  return h('li', { class: ['person', p.bot && 'is-bot', me && p.id === me.id && 'is-me'] },
    icon(p.bot ? 'bot' : 'person', '', 'who-icon'),
    h('span', { class: 'name', text: personName(p) }),
    tags.length ? h('span', { class: 'tags', text: tags.join(' · ') }) : null,
    remove);
}

function botName(kind) {
  return has('bot.' + kind) ? t('bot.' + kind) : kind;
}

function gameInfo(app) {
  return app.catalogue?.games.find((g) => g.name === app.table.game) || null;
}

function renderLobby(app) {
  const table = app.table;
  const me = table.me;
  const seated = table.people.filter((p) => p.chair !== null).sort((a, b) => a.chair - b.chair);
  const queue = table.queue.map((id) => table.people.find((p) => p.id === id)).filter(Boolean);
  put(heading('#lobby-title', app.prompt || table.phase === 'results' ? 'h2' : 'h1'), t('lobby.title', { code: app.code }));
  put($('#lobby-count'), t('lobby.chairs', { taken: seated.length, chairs: table.chairs, n: table.chairs }));
  const title = has('game.' + table.game) ? t('game.' + table.game) : table.title;
  const preset = `preset.${table.game}.${table.settings.preset}`;
  put($('#lobby-game'), title, ' · ', has(preset) ? t(preset) : table.settings.preset, ' · ',
    hook(app, 'settingsText', table.settings)
      ?? (table.settings.turn_clock === false ? t('lobby.no_clock') : t('lobby.seconds', { n: table.settings.seconds })));
  const rules = $('#rules-link');
  if (rules) {
    const options = Object.entries(table.settings.options || {}).map(([key, value]) => [key, String(value)]);
    rules.href = `/rules/${table.game}?${new URLSearchParams([['preset', table.settings.preset], ...options])}`;
  }
  const list = seated.map((p) => personRow(app, p));
  const empty = table.chairs - seated.length;
  if (empty > 0) list.push(h('li', { class: 'person empty', text: t('lobby.empty', { n: empty }) }));
  put($('#people'), list);
  show($('#queue-box'), queue.length > 0);
  put($('#queue'), queue.map((p, i) => h('li', { class: 'person' },
    h('span', { class: 'pos', text: `${i + 1}.` }), h('span', { class: 'name', text: personName(p) }))));

  renderRecent(app, $('#lobby-news'));
  const host = table.people.find((p) => p.id === table.host);
  const isHost = Boolean(me?.host);
  const tools = $('#host-tools');
  if (tools) {
    show(tools, isHost);
    show($('#bot-tools'), isHost);
    const info = gameInfo(app);
    const select = $('#bot-kind');
    const bots = info ? info.bots : [];
    if (select.dataset.for !== bots.join(',')) {
      select.dataset.for = bots.join(',');
      put(select, bots.map((b) => h('option', { value: b, text: botName(b) })));
    } else {
      for (const opt of select.options) opt.textContent = botName(opt.value);
    }
    $('#add-bot').disabled = empty <= 0 || bots.length === 0;
    const start = $('#start');
    const need = needed(app);
    const ready = seated.filter((p) => p.status !== 'away').length;
    show(start, table.phase === 'lobby' && !table.countdown);
    start.dataset.i18n = table.readying && has('ready.anyway') ? 'ready.anyway' : 'lobby.start';  // (or anyway)
    text(start, t(start.dataset.i18n));
    start.disabled = ready < need;
    put($('#start-hint'), ready < need ? t('lobby.need', { n: need }) : '');
    put($('#host-more'), hostButtons(app), bansList(app));
  }
  const wait = $('#lobby-wait');
  if (wait) {
    const text = table.phase === 'lobby' && !isHost && host && !table.countdown && !table.readying
      ? t('lobby.wait_host', { name: personName(host) }) : '';
    put(wait, text);
    show(wait, Boolean(text));
  }
  fillQr(app, '#lobby-qr');
}

/** The lobby's "Lately": the newest notices, so that what happened stays on every screen after its toast. */
function renderRecent(app, el) {
  if (!el) return;
  const now = (n) => told(n) && (!playing(app.table.phase) || n.game === app.table.game_number);  // a game: its own
  const lines = story ? (app.table.news || []).filter(now).slice(-RECENT_SHOWN).reverse()
    .map((n) => story.noticeText(n, app.game)).filter(Boolean) : [];
  show(el, lines.length > 0);
  put(el, lines.length ? [h('h2', { class: 'h3', text: t('lobby.recent') }),
    h('ul', { class: 'story' }, lines.map((line) => h('li', { text: line })))] : []);
}

/** How many players a game needs to start: the preset's rules, or the game's manifest. */
function needed(app) {
  const info = gameInfo(app);
  return app.table.settings.rules?.min_players ?? info?.players?.[0] ?? 2;
}

function fillQr(app, sel) {
  const box = $(sel);
  if (box && !box.firstChild) box.append(qrCode(app.code, t('invite.scan')));
}

// --- the clock ------------------------------------------------------------------------

/** The full time of what the clock counts down now (ms): the pause between rounds, the beat, or a decision. */
const full = (table) => 1000 * table.settings[{ pause: 'pause', reveal: 'beat' }[table.phase] || 'seconds'];

function timeClock(app, table) {
  app.countdownAt = table.countdown ? performance.now() + table.countdown.remaining_ms : null;
  if (table.remaining_ms === null || table.remaining_ms === undefined) {
    app.deadlineAt = null;
    return;
  }
  app.deadlineAt = performance.now() + table.remaining_ms;
  app.total = Math.max(full(table), table.remaining_ms, 1);
}

/** The clock of a countdown, a pause or the results' hold: ``label``, and ``left`` ms of ``whole`` (null: none). */
function fixedClock(el, label, left, whole) {
  text($('#clock-label'), label);
  text($('#clock-num'), left === null ? '' : t('clock.secs', { n: Math.ceil(left / 1000) }));
  $('#clock-bar').style.transform = `scaleX(${left === null ? 0 : (left / whole).toFixed(3)})`;
  el.classList.remove('urgent');
}

function tickClock(app) {
  const el = $('#clock');
  const table = app.table;
  const hold = holding(app);
  const on = table && (table.me || !app.removed) && (playing(table.phase) || hold || table.countdown);
  show(el, Boolean(on));
  const count = $('#count-num');
  if (count && table?.countdown) text(count, t('clock.secs', { n: countdownSecs(app) }));
  if (!on) return;
  el.classList.toggle('paused', Boolean(table.paused));
  if (table.countdown && !hold) {
    return fixedClock(el, word(app, 'count.starts'), Math.max(0, app.countdownAt - performance.now()),
      Math.max(1, (table.settings.countdown || 5) * 1000));
  }
  const { paused } = table;
  if (paused) {  // the clock stops where it was, and says who stopped it
    return fixedClock(el, pauseWord(paused), paused.remaining_ms, Math.max(1, paused.remaining_ms, full(table)));
  }
  if (hold) {
    return fixedClock(el, t('clock.results'), Math.max(0, app.holdUntil - performance.now()),
      Math.max(1, table.settings.pause * 1000));
  }
  const label = $('#clock-label');
  const num = $('#clock-num');
  const own = app.more?.label(table) ?? hook(app, 'clockLabel', view(app), app.deadlineAt !== null);
  if (app.deadlineAt === null) {
    text(label, own ?? t(table.phase === 'playing' && table.settings.turn_clock === false
      ? 'clock.none' : 'clock.waiting'));
    text(num, '');
    $('#clock-bar').style.transform = 'scaleX(0)';
    return;
  }
  const left = Math.max(0, app.deadlineAt - performance.now());
  const secs = Math.ceil(left / 1000);
  const me = table.me;
  const choosing = me?.moves?.length > 0;
  // Everyone inside has chosen and the table gives a last call (settings.last_call): the reveal is coming, and
  // any choice may still change.
  const last = table.phase === 'playing' && table.settings.last_call > 0 && table.people.some((p) => p.to_act)
    && table.people.every((p) => !p.to_act || p.chosen);
  text(label, own ?? (table.phase === 'reveal' ? word(app, 'clock.beat') : table.phase === 'pause' ? t('clock.next')
    : last ? t('clock.last_call') : choosing && !me.choice ? t('clock.choose') : t('clock.reveal')));
  text(num, last ? '' : t('clock.secs', { n: secs }));
  if (choosing && !me.choice && app.mode === 'phone' && secs <= Math.min(10, app.total / 2000)
    && app.hurried !== table.decision && left > 0) {
    app.hurried = table.decision;
    announce(t('clock.hurry', { n: secs }));
  }
  $('#clock-bar').style.transform = `scaleX(${(left / app.total).toFixed(3)})`;
  el.classList.toggle('urgent', table.phase === 'playing' && secs <= 3);
}

// --- wake lock: the Wake Lock API, else a tiny video (NoSleep), shaped to what Blink (VideoWakeLock: large
// and on screen, or audible) and WebKit (shouldDisableSleep: audible, no loop attribute) check: docs/pages.md.

let lock = null;
let asking = false;
let video = null;
let wantAwake = false;
const WEBKIT = /AppleWebKit\//.test(navigator.userAgent) && !/(Chrome|Chromium|Edg)\//.test(navigator.userAgent);

function keepAwakeVideo() {
  if (!video) {
    video = h('video', { class: 'keep-awake', muted: true, playsinline: true, 'webkit-playsinline': true,
      preload: 'auto', disableremoteplayback: true, 'aria-hidden': 'true', tabindex: '-1' },
    h('source', { src: '/static/media/keep-awake.mp4', type: 'video/mp4' }),
    h('source', { src: '/static/media/keep-awake.webm', type: 'video/webm' }));
    video.muted = true;
    // Two seconds long: back to the start after one, so it never ends.
    video.addEventListener('timeupdate', () => { if (video.currentTime > 1) video.currentTime = 0; });
    video.addEventListener('ended', () => { if (wantAwake) playVideo(false); });
    document.body.append(video);
    // Browsers start (or unmute) a video only in a tap: every tap tries while the screen should stay on.
    const kick = () => { if (wantAwake && !lock) playVideo(true); };
    for (const type of ['pointerup', 'touchend', 'click', 'keydown']) {
      document.addEventListener(type, kick, { capture: true, passive: true });
    }
  }
  return video;
}

function playVideo(tapped) {
  const v = keepAwakeVideo();
  if (tapped && WEBKIT && v.muted) {
    v.muted = false;
    v.volume = 1;
  }
  if (!v.paused && !v.ended) return;
  const played = v.play();
  if (played?.catch) {
    played.catch((e) => {
      // Not allowed with sound outside a tap: muted now, and the next tap unmutes it. (Not when the
      // play was cut short by a pause: the game is over.)
      if (wantAwake && !v.muted && e?.name === 'NotAllowedError') {
        v.muted = true;
        v.play().catch(() => {});
      }
    });
  }
}

function pauseVideo() {
  if (video && !video.paused) video.pause();
}

async function wakeLock(app) {
  const table = app.table;
  const want = Boolean(table) && !document.hidden
    && (app.mode === 'tv' || playing(table.phase));
  wantAwake = want;
  if (!want) {
    pauseVideo();
    if (lock) {
      const held = lock;
      lock = null;
      held.release().catch(() => {});
    }
    return;
  }
  if (lock || asking) return;
  if ('wakeLock' in navigator) {
    asking = true;
    try {
      lock = await navigator.wakeLock.request('screen');
      lock.addEventListener('release', () => { lock = null; });
    } catch { lock = null; } finally { asking = false; }
  }
  if (lock) pauseVideo();
  else if (wantAwake) playVideo(false);
}

/** Put ``url`` in the link's field, select it and copy it the old way (execCommand): whether that worked. */
function selectAndCopy(field, url) {
  if (url) field.value = url;
  field.focus({ preventScroll: true });
  field.select();
  field.setSelectionRange(0, field.value.length);
  try { return document.execCommand('copy'); } catch { return false; }
}

// --- controls -------------------------------------------------------------------------

function wire(app) {
  const form = $('#join-form');
  if (form) {
    $('#join-name').addEventListener('input', () => nameRefused(''));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (app.joining) return;
      const name = $('#join-name').value.trim();
      if (!name) {
        loadTexts('errors').then(() => toast(t('err.bad-name')));
        return;
      }
      app.joining = app.ui.send({ type: 'join', code: app.code, name }) === true;
      render(app);
    });
  }
  const click = (sel, fn) => { const el = $(sel); if (el) el.addEventListener('click', fn); };
  click('#start', () => app.ui.send({ type: 'start' }));
  click('#again', () => app.ui.send({ type: 'start' }));
  click('#add-bot', () => app.ui.send({ type: 'add_bot', bot: $('#bot-kind').value }));
  const dialog = $('#invite');
  click('#invite-btn', () => {
    fillQr(app, '#invite-qr');
    $('#invite-link').value = joinUrl(app.code) || $('#invite-link').value;
    $('#invite-hold').hidden = true;
    $('#invite-leave').hidden = !app.table?.me;
    dialog.showModal();
  });
  click('#invite-close', () => dialog.close());
  const buzz = $('#buzz');
  if (buzz) {
    buzz.closest('label').hidden = typeof navigator.vibrate !== 'function';
    buzz.checked = buzzOn();
    buzz.addEventListener('change', () => store(BUZZ, buzz.checked ? '1' : '0'));
  }
  // Copying the link: without the Clipboard API (plain HTTP), the selected field is copied in the tap itself
  // (WebKit copies only there); the rest (the API, and saying what happened) loads with the first Copy (copy.js).
  const copy = () => {
    const copied = !navigator.clipboard && selectAndCopy($('#invite-link'), joinUrl(app.code));
    import('./copy.js').then((m) => m.copyLink(app.code, copied));
  };
  click('#invite-copy', copy);
  const share = $('#invite-share');
  if (share) {
    // navigator.share exists only in a secure context (and not in every browser): no button otherwise.
    share.hidden = typeof navigator.share !== 'function';
    share.addEventListener('click', () => {
      navigator.share({ title: 'gemtable', url: joinUrl(app.code) }).catch((e) => {
        if (!e || e.name !== 'AbortError') copy();
      });
    });
  }
  click('#invite-leave', () => import('./leave.js').then((m) => m.ask(() => {  // asked first
    app.ui.send({ type: 'leave' });
    forget(app);
  })));
  click('#invite-tv', () => import('./tv-send.js').then((m) => m.toggle(app.code)).catch(() => {}));
}
