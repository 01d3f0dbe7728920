// What happened at the table, in words (loaded by the table's pages when something is to be told): the notices of the view's `news` (and of a record's `history`)
// as sentences, the same on the phone, the TV and the results. A notice is public (gemtable.table.news):
// who left (by themselves, removed or banned), a bot standing in and from which move, a walk-out by the
// clock or by an absent phone, a bot giving its chair, a pause, a countdown, a game ended early.
//
// The game module may word a notice its own way: its `words` map a key (say `news.where`) to its own
// (`exp.news_where`: "cave {round}"), and its optional `seatName(seat)` names a seat (Booty Hunter's
// colours) for the notices that have one.

import { h, put, show } from './dom.js';
import { t, has, loadTexts } from './i18n.js';

await loadTexts('news');  // the notices' words (static/i18n/news.LANG.json) come with this module

function word(game, key, vars) {
  const own = game && game.words && game.words[key];
  return t(own && has(own) ? own : key, vars);
}

function list(names) {
  if (names.length <= 1) return names.join('');
  return names.slice(0, -1).join(t('list.comma')) + t('list.and') + names[names.length - 1];
}

function seatName(game, seat) {
  return seat !== undefined && seat !== null && game && typeof game.seatName === 'function' ? game.seatName(seat) : '';
}

/** Where a notice happened in its game ("cave 2", "move 14"); '' outside a game. */
export function where(n, game) {
  return n.game ? word(game, 'news.where', { round: n.round, move: n.move }) : '';
}

/** One notice as a sentence for everyone; null for a kind this page does not know. */
export function noticeText(n, game) {
  const v = { name: n.name, by: n.by || t('news.someone'), to: n.to, was: n.was, move: n.move, round: n.round,
    where: where(n, game), colour: seatName(game, n.seat) };
  switch (n.kind) {
    case 'left':
      if (n.reason === 'removed') return word(game, n.bot ? 'news.bot_removed' : 'news.removed', v);
      if (n.reason === 'banned') return word(game, 'news.banned', v);
      return word(game, n.game && n.seat !== undefined && n.seat !== null ? 'news.left_game' : 'news.left', v);
    case 'gave_chair': return word(game, 'news.gave_chair', v);
    case 'lost_chair': return word(game, 'news.lost_chair', v);
    case 'host': return word(game, `news.host_${['handed', 'left', 'absent', 'back'].includes(n.reason) ? n.reason : 'other'}`, v);
    case 'paused': return word(game, 'news.paused', v);
    case 'silent': return word(game, 'news.silent', v);
    case 'resumed': return word(game, 'news.resumed', v);
    case 'countdown': return word(game, 'news.countdown', v);
    case 'cancelled': return word(game, n.reason === 'too-few' ? 'news.cancelled_few' : 'news.cancelled', v);
    case 'ended': return word(game, 'news.ended', v);
    case 'settings': return word(game, 'news.settings', v);
    case 'unbanned': return word(game, 'news.unbanned', v);
    case 'away': return word(game, 'news.away', v);
    case 'stand_in': return word(game, 'news.stand_in', v);
    case 'plays_again': return word(game, 'news.plays_again', v);
    case 'took_seat': return word(game, 'news.took_seat', v);
    case 'missed': return word(game, n.offline ? 'news.missed_offline' : 'news.missed', v);
    case 'timed_out': {
      const names = n.names || [];
      const off = new Set(n.offline || []);
      const seats = n.seats || [];
      const offline = seats.map((seat, i) => (off.has(seat) ? names[i] : null)).filter(Boolean);
      const clock = seats.map((seat, i) => (off.has(seat) ? null : names[i])).filter(Boolean);
      const parts = [];
      if (offline.length) parts.push(word(game, 'news.offline', { ...v, names: list(offline), n: offline.length }));
      if (clock.length) parts.push(word(game, 'news.timed_out', { ...v, names: list(clock), n: clock.length }));
      return parts.join(' ');
    }
    default: return null;
  }
}

/** The notices about person `me` newer than `since`, as what that phone was not told while it was gone:
 *  sentences addressed to its person ("You were sent to camp in caves 2 and 3 while offline"). */
export function whileAway(notices, me, since, game) {
  const mine = notices.filter((n) => n.id > since);
  const out = [];
  const offline = mine.filter((n) => n.kind === 'timed_out' && (n.people || []).includes(me.id)
    && (n.offline || []).includes(me.seat ?? -1));
  if (offline.length) {
    const rounds = [...new Set(offline.map((n) => n.round))].sort((a, b) => a - b);
    out.push(word(game, 'away.offline', { rounds: list(rounds.map(String)), n: rounds.length }));
  }
  const missed = mine.filter((n) => n.kind === 'missed' && n.person === me.id);
  if (missed.length) out.push(word(game, 'away.missed', { n: missed.length }));
  for (const n of mine) {
    const v = { name: n.name, by: n.by || t('news.someone'), to: n.to, move: n.move, round: n.round,
      colour: seatName(game, n.seat), where: where(n, game) };
    if (n.kind === 'stand_in' && n.person === me.id) out.push(word(game, 'away.stand_in', v));
    else if (n.kind === 'away' && n.person === me.id) out.push(word(game, 'away.away', v));
    else if (n.kind === 'gave_chair' && n.to_person === me.id) out.push(word(game, 'away.gave_chair', v));
    else if (n.kind === 'host' && n.person === me.id && n.reason !== 'back') out.push(word(game, 'away.host', v));
    else if (n.kind === 'lost_chair' && n.person === me.id) out.push(word(game, 'away.lost_chair', v));
  }
  return out;
}

/** A phone back (its page's first state, or the first after a reconnection: ``app.fresh``; ``kept``: the newest
 *  notice it was shown before a reload) is told what happened to it since, in the second person ("While you were
 *  away": ``app.away``), once; true if it is back (then table.js toasts no notice about it, in the third). */
export function back(app, mine, kept) {
  const me = app.table.me;
  const since = app.newsSeen ?? (kept || null);
  if (!app.fresh || since === null || !me || app.mode !== 'phone') return false;
  app.away.push(...whileAway(mine, me, since, app.game));
  return true;
}

/** Whether notice ``n`` is about person ``me`` (its ``person``, ``to_person`` or ``people``: gemtable.table.news):
 *  a phone back from being away is told those in the second person (whileAway), not toasted in the third. */
export const about = (n, me) => [n.person, n.to_person, ...(n.people || [])].includes(me.id);

/** A finished game's story for its results: who left (and how), which seats a bot played and from when,
 *  a bot that gave its chair, who the clock or an absent phone walked out, and an early end. One line each,
 *  in order; the routine ones (pauses, the host role) are left to the moment they happened. */
export function gameStory(history, game) {
  const shown = new Set(['left', 'gave_chair', 'stand_in', 'plays_again', 'took_seat', 'timed_out', 'missed',
    'away', 'ended']);
  const out = [];
  const missed = new Map();
  for (const n of history || []) {
    if (!shown.has(n.kind)) continue;
    if (n.kind === 'missed') { // one line per person, however many turns
      if (!missed.has(n.person)) {
        missed.set(n.person, { ...n, count: 0 });
        out.push(missed.get(n.person));
      }
      missed.get(n.person).count += 1;
      continue;
    }
    out.push(n);
  }
  return out.map((n) => {
    if (n.kind === 'missed') return word(game, 'story.missed', { name: n.name, n: n.count });
    const text = noticeText(n, game);
    const at = n.kind === 'ended' ? '' : where(n, game);
    return text && at && !text.includes(at) ? placed(text, at) : text;
  }).filter(Boolean);
}

/** "Ann removed Bob from the table." with where it happened: "… from the table (cave 2)." */
function placed(text, at) {
  const end = /[.。!！]$/.exec(text);
  const body = end ? text.slice(0, -1) : text;
  return `${body}${t('story.at', { where: at })}${end ? end[0] : ''}`;
}

/** "What happened" under a game's results: its story (a record's ``history``), or nothing if it is calm. */
export function renderStory(el, history, game) {
  if (!el) return;
  const lines = history ? gameStory(history, game) : [];
  show(el, lines.length > 0);
  put(el, lines.length ? [h('h2', { class: 'h3', text: t('results.story') }),
    h('ul', { class: 'story' }, lines.map((line) => h('li', { text: line })))] : []);
}
