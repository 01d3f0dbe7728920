// Booty Hunter at the table: the board (pan and zoom with fingers, or + and −), my drawn tile
// with rotate / place / cancel, whose turn, the set-aside tiles; at the end the count, diamond by
// diamond, then the results. The generic table (table.js) calls the four functions below, and
// the optional clockLabel, settingsText and words.

import { h, s, put } from '/static/js/dom.js';
import { t, personName } from '/static/js/i18n.js';
import { icon } from '/static/js/icons.js';
import { resultsLater } from '/static/js/later.js';
import { cssReady, swatch, colourName, turn, tileSvg, drawBoard, box } from './draw.js';

await cssReady;

/** The table's words that read differently in this game (table.js, story.js). */
export const words = {
  'me.waiting': 'bh.me_waiting',
  'me.away': 'bh.me_away',
  'midgame.bot_hint': 'bh.bot_hint',
  'news.where': 'bh.news_where',
  'news.stand_in': 'bh.news_stand_in',
  'news.plays_again': 'bh.news_plays_again',
  'news.took_seat': 'bh.news_took_seat',
  'news.missed': 'bh.news_missed',
  'news.missed_offline': 'bh.news_missed_offline',
  'news.left_game': 'bh.news_left',
  'away.stand_in': 'bh.away_stand_in',
  'away.missed': 'bh.away_missed',
};

/** A seat as the notices name it: its colour. */
export const seatName = (seat) => colourName(seat);
export const seatMark = swatch;  // a seat's mark on the TV's lobby: its colour

export const SEATS = [0, 1, 2];
export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
export const nameOf = (seat, names) => names[seat] ?? t('word.seat', { n: seat + 1 });
const myMoves = (v) => (v.table.phase === 'playing' && v.me && v.me.moves) || [];
const parse = (m) => m.split(',').map(Number);

function listNames(seats, names) {
  const all = seats.map((seat) => nameOf(seat, names));
  return all.length <= 1 ? all.join('') : all.slice(0, -1).join(t('list.comma')) + t('list.and') + all[all.length - 1];
}

export function winText(winners, names) {
  if (!winners || !winners.length) return '';
  return winners.length === 1 ? t('results.winner', { name: nameOf(winners[0], names) })
    : t('results.winners', { names: listNames(winners, names) });
}

/** A seat as people read it: the colour's swatch (pattern and letter), the name (and the colour's name). */
export const who = (seat, names, colour = false) => h('span', { class: 'bh-who' }, swatch(seat),
  h('span', { class: 'bh-name', text: nameOf(seat, names) }), colour ? h('span', { class: 'bh-tags', text: colourName(seat) }) : null);

// --- a board you can pan and zoom -------------------------------------------------------

export class Viewport {
  constructor(mode, onTap) {
    this.svg = s('svg', { class: 'bh-board', role: mode === 'tv' ? 'img' : 'group' });
    this.wrap = h('div', { class: 'bh-wrap' }, this.svg);
    this.z = 0.5;
    this.cx = 50;
    this.cy = 50;
    this.user = false;
    this.frame = null;
    this.limits = [0.1, 1];
    if (mode !== 'tv') {
      const b = (cls, fn, ...kids) => h('button', { type: 'button', class: `btn small bh-zb ${cls}`, on: { click: fn } }, kids);
      this.buttons = [b('in', () => this.zoom(1.3), '+'), b('out', () => this.zoom(1 / 1.3), '−'),
        b('fit', () => { this.user = false; this.apply(); }, s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' },
          s('path', { d: 'M3 9V3h6M15 3h6v6M21 15v6h-6M9 21H3v-6', class: 'ln' })))];
      this.wrap.append(h('div', { class: 'bh-zoom' }, this.buttons));
      this.gestures(onTap);
    }
    new ResizeObserver(() => this.apply()).observe(this.wrap);
  }

  size() {
    return [this.wrap.clientWidth || 320, this.wrap.clientHeight || 320];
  }

  /** Show frame (SVG units); fitted to the screen unless the person has panned or zoomed. */
  show(frame, limits, label) {
    this.frame = frame;
    this.limits = limits;
    this.svg.setAttribute('aria-label', label);
    if (this.buttons) {
      ['bh.zoom_in', 'bh.zoom_out', 'bh.fit'].forEach((key, i) => {
        this.buttons[i].setAttribute('aria-label', t(key));
        this.buttons[i].title = t(key);
      });
    }
    this.apply();
  }

  apply() {
    const [w, hgt] = this.size();
    const f = this.frame;
    if (!this.user && f) {
      const room = this.buttons ? 56 : 0; // the zoom buttons' column stays clear of the fitted board
      this.z = clamp(Math.min((w - room) / f.w, hgt / f.h), ...this.limits);
      this.cx = f.x + f.w / 2 + room / 2 / this.z;
      this.cy = f.y + f.h / 2;
    }
    const z = this.z;
    this.svg.setAttribute('viewBox', [this.cx - w / 2 / z, this.cy - hgt / 2 / z, w / z, hgt / z].map((n) => n.toFixed(1)).join(' '));
  }

  zoom(f) {
    this.user = true;
    this.z = clamp(this.z * f, 0.12, 2.5);
    this.apply();
  }

  /** One finger pans, two pinch; a touch that does not move is a tap (on a spot, say). */
  gestures(onTap) {
    const svg = this.svg;
    const pts = new Map();
    let start = null;
    let moved = false;
    const snap = () => {
      const [a, b] = [...pts.values()];
      start = { z: this.z, cx: this.cx, cy: this.cy, a, b };
    };
    svg.addEventListener('pointerdown', (e) => {
      if (!pts.size) moved = false;
      pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
      try { svg.setPointerCapture(e.pointerId); } catch { /* gone already */ }
      snap();
    });
    svg.addEventListener('pointermove', (e) => {
      if (!pts.has(e.pointerId)) return;
      pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [a, b] = [...pts.values()];
      const r = svg.getBoundingClientRect();
      const ox = r.left + r.width / 2;
      const oy = r.top + r.height / 2;
      if (b && start.b) {
        const m0 = { x: (start.a.x + start.b.x) / 2, y: (start.a.y + start.b.y) / 2 };
        const m1 = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        const d0 = Math.hypot(start.a.x - start.b.x, start.a.y - start.b.y) || 1;
        const z = clamp(start.z * Math.hypot(a.x - b.x, a.y - b.y) / d0, 0.12, 2.5);
        this.cx = start.cx + (m0.x - ox) / start.z - (m1.x - ox) / z;
        this.cy = start.cy + (m0.y - oy) / start.z - (m1.y - oy) / z;
        this.z = z;
        moved = true;
      } else {
        const dx = a.x - start.a.x;
        const dy = a.y - start.a.y;
        if (!moved && Math.hypot(dx, dy) < 8) return;
        moved = true;
        this.cx = start.cx - dx / this.z;
        this.cy = start.cy - dy / this.z;
      }
      this.user = true;
      this.apply();
    });
    const end = (e) => {
      if (!pts.has(e.pointerId)) return;
      const tap = e.type === 'pointerup' && pts.size === 1 && !moved;
      pts.delete(e.pointerId);
      if (pts.size) snap();
      if (tap) onTap(document.elementFromPoint(e.clientX, e.clientY));
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15);
    }, { passive: false });
    svg.addEventListener('keydown', (e) => {
      const spot = e.target.dataset && e.target.dataset.spot;
      if (!spot) return;
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (e.key === 'Enter' || e.key === ' ') onTap(e.target);
      else if (dir) nextSpot(svg, e.target, dir);
      else if (e.key === 'r' || e.key === 'R') this.onRotate?.();
      else return;
      e.preventDefault();
    });
  }
}

// --- my turn: rotation, the chosen spot -------------------------------------------------

/** The arrow keys: focus the nearest spot that way (the spots are one tab stop, the focused one). */
function nextSpot(svg, from, [dx, dy]) {
  const [x, y] = parse(from.dataset.spot);
  const ahead = [...svg.querySelectorAll('[data-spot]')].map((el) => [el, ...parse(el.dataset.spot)])
    .filter(([, a, b]) => (a - x) * dx + (b - y) * dy > 0)
    .sort((p, q) => Math.abs(p[1] - x) + Math.abs(p[2] - y) * 1.01 - Math.abs(q[1] - x) - Math.abs(q[2] - y) * 1.01);
  if (!ahead.length) return;
  from.tabIndex = -1;
  ahead[0][0].tabIndex = 0;
  ahead[0][0].focus();
}

/** One tab stop among the spots (the chosen one, else the one focused, else the first); a spot that had focus
 *  before the board was drawn again has it again, so a keyboard goes on from where it was (to Place it). */
function spotFocus(svg, sel, had) {
  const spots = [...svg.querySelectorAll('[data-spot]')];
  const key = sel ? `${sel.x},${sel.y}` : null;
  const stop = spots.find((el) => el.dataset.spot === had) || spots.find((el) => el.dataset.spot === key) || spots[0];
  for (const el of spots) {
    el.tabIndex = el === stop ? 0 : -1;
    el.setAttribute('aria-pressed', el.dataset.spot === key);
  }
  if (had && stop) stop.focus({ preventScroll: true });
}

const SPOT_ZOOM = 0.5; // a spot (90 units) is 45 px on the screen: a finger's size

/** On my turn every legal spot is in view: the whole board when it fits at a finger's size,
 *  else the box of the spots alone (and the chosen one), as large as that lets them be. */
function turnFrame(view, whole, spots, ghost) {
  if (!spots.length) return whole;
  const [w, hgt] = view.size();
  const room = view.buttons ? 56 : 0;
  if (Math.min((w - room) / whole.w, hgt / whole.h) >= SPOT_ZOOM) return whole;
  const cells = spots.map(([x, y]) => [x, y]);
  if (ghost) cells.push([ghost.x, ghost.y]);
  return box(cells, 30);
}

/** A new decision forgets the last one's spot and rotation (and re-fits the board). */
function turnState(v, L) {
  L.v = v;
  const key = `${v.table.game_number}.${v.table.decision}`;
  if (L.key === key) return;
  L.key = key;
  L.sel = null;
  L.sent = 0;
  L.only = false;
  const moves = myMoves(v);
  L.r = [0, 1, 2, 3].find((r) => moves.some((m) => m.endsWith(`,${r}`))) ?? 0;
  if (L.view) L.view.user = false;
}

const sending = (L) => L.sent && Date.now() - L.sent < 5000;

function tapBoard(target, L, ui) {
  const spot = target && target.closest ? target.closest('[data-spot]') : null;
  if (!spot || sending(L)) return;
  const [x, y] = parse(spot.dataset.spot);
  L.sel = { x, y };
  L.only = false;
  ui.rerender();
}

function rotate(L, ui) {
  const moves = myMoves(L.v);
  let next = L.r;
  for (let k = 1; k <= 4; k++) {
    const r = (L.r + k) % 4;
    if (!L.sel || moves.includes(`${L.sel.x},${L.sel.y},${r}`)) {
      next = r;
      break;
    }
  }
  L.only = next === L.r;
  L.r = next;
  L.spin = !L.only;
  ui.rerender();
  L.spin = false;
}

function place(L, ui) {
  if (!L.sel || sending(L)) return;
  const move = `${L.sel.x},${L.sel.y},${L.r}`;
  if (ui.send({ type: 'choose', move, decision: L.v.table.decision })) {
    L.sent = Date.now();
    setTimeout(() => ui.rerender(), 5100);
  }
  ui.rerender();
}

// --- the game on a phone or the TV ------------------------------------------------------

/** Who holds each colour now: the person playing it, or the one who left it (a bot plays it for them). */
function seatPeople(v) {
  const out = {};
  for (const p of v.table.people) {
    if (p.seat === null || p.seat === undefined) continue;
    if (!out[p.seat] || out[p.seat].status === 'gone') out[p.seat] = p;
  }
  return out;
}

/** The tags of a colour's person: gone (and how), a bot playing for them (since which move), offline. */
function personTags(p) {
  const tags = [];
  if (!p) return tags;
  if (p.status === 'gone') {
    tags.push(t(p.left === 'removed' ? 'st.removed' : p.left === 'banned' ? 'st.banned' : 'bh.left'));
  } else if (!p.connected) {
    tags.push(t('st.offline'));
  }
  if (p.bot_plays) tags.push(p.bot_since ? t('bh.bot_since', { move: p.bot_since }) : t('bh.bot_now'));
  return tags;
}

export function renderGame(el, v, ui) {
  const st = v.state;
  if (!st || !st.board) return;
  const L = ui.local;
  const tv = v.mode === 'tv';
  document.body.classList.remove('bh-counting');
  L.playing = v.table.game_number;
  turnState(v, L);
  if (!L.g) {
    L.view = new Viewport(v.mode, (target) => tapBoard(target, L, ui));
    L.g = { head: h('div', { class: 'bh-head' }), side: h('div', { class: 'bh-side' }) };
    L.g.root = h('div', { class: 'booty bh-play' }, L.g.head, L.view.wrap, L.g.side);
  }
  if (el.firstChild !== L.g.root || el.childNodes.length !== 1) put(el, L.g.root);

  const names = v.names;
  const moves = myMoves(v);
  const mine = moves.length > 0;
  const mySeat = v.me && v.me.seat !== null && v.me.seat !== undefined && v.me.status === 'seated' ? v.me.seat : null;
  const seat = st.turn;
  const drawn = st.drawn;
  put(L.g.head,
    h(v.heading || 'p', { class: 'bh-round' },
      h('b', { text: t('bh.round', { round: st.round, rounds: st.rounds }) }), ' · ',
      h('span', { class: 'bh-placed', text: t('bh.placed', { n: st.placements }) }), ' · ',
      h('span', { text: t('bh.bag', { n: st.bag }) })),
    seat === null || seat === undefined ? null : h('div', { class: ['bh-turn', mine && 'mine'] },
      swatch(seat, 'big'),
      h('div', null,
        h('p', { class: 'bh-turn-name', text: mine ? t('bh.your_turn')
          : seatPeople(v)[seat]?.bot_plays ? t('bh.turn_bot', { name: nameOf(seat, names) })
            : t('bh.turn_of', { name: nameOf(seat, names) }) }),
        h('p', { class: 'bh-turn-col', text: colourName(seat) })),
      !mine && drawn ? h('figure', { class: 'bh-drawn' }, tileSvg(drawn.slices),
        h('figcaption', { text: t('bh.drew') })) : null),
    mySeat !== null && !tv ? h('p', { class: 'bh-you' }, swatch(mySeat),
      h('span', { text: t('bh.you_are', { colour: colourName(mySeat) }) })) : null);

  const spots = mine && !sending(L) ? moves.filter((m) => m.endsWith(`,${L.r}`)).map(parse) : [];
  const had = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.spot : null;
  L.view.onRotate = () => rotate(L, ui);
  const ghost = mine && L.sel && drawn ? { x: L.sel.x, y: L.sel.y, slices: turn(drawn.slices, L.r) } : null;
  drawBoard(L.view.svg, {
    board: st.board, diamonds: st.diamonds, spots, ghost,
    last: st.board.length ? st.board[st.board.length - 1].order : -1,
    spotLabel: (x, y) => t('bh.spot', { x, y }),
  });
  spotFocus(L.view.svg, L.sel, had);
  const cells = [...st.board.map((c) => [c.x, c.y]), ...spots.map(([x, y]) => [x, y])];
  if (ghost) cells.push([ghost.x, ghost.y]);
  L.view.show(turnFrame(L.view, box(cells, 30), mine && !tv ? spots : [], ghost), tv ? [0.1, 2.2] : [0.12, 1.1],
    `${t('bh.board')}: ${t('bh.placed', { n: st.placements })}, ${t('bh.diamonds', { n: st.diamonds.length })}`);

  const people = seatPeople(v);
  put(L.g.side,
    h('section', { class: 'bh-players', 'aria-label': t('bh.players') },
      h('h2', { class: 'h3', text: t('bh.players') }),
      h('ul', null, SEATS.map((i) => {
        const p = people[i];
        const isMe = v.me && p && v.me.id === p.id;
        const tags = [colourName(i)];
        if (isMe) tags.push(t('people.you'));
        if (p && p.bot) tags.push(t('people.bot_short'));
        tags.push(...personTags(p));
        return h('li', { class: ['bh-pl', seat === i && 'turn', isMe && 'is-me', p && p.bot_plays && 'bot-plays'] },
          swatch(i), h('span', { class: 'bh-name', text: p ? personName(p) : nameOf(i, names) }),
          h('span', { class: 'bh-tags', text: tags.join(' · ') }),
          seat === i ? h('span', { class: 'bh-now', text: t('bh.placing_now') }) : null);
      }))),
    h('p', { class: 'bh-diamonds' }, icon('diamond'), ' ', t('bh.diamonds', { n: st.diamonds.length })),
    st.set_aside.length ? h('section', { class: 'bh-aside' },
      h('h2', { class: 'h3', text: t('bh.aside') }),
      h('ul', null, st.set_aside.map((a) => h('li', null, tileSvg(a.tile.slices),
        h('span', { text: t('bh.aside_by', { name: nameOf(a.seat, names) }) }))))) : null);
}

// --- the bottom bar: my tile, rotate, place, cancel -------------------------------------

export function renderActions(el, v, ui) {
  const L = ui.local;
  const st = v.state;
  const moves = myMoves(v);
  const can = Boolean(st && st.drawn && moves.length);
  el.hidden = !can;
  if (!can) return;
  turnState(v, L);
  if (!L.bar || !el.contains(L.bar.root)) {
    const btn = (cls, fn) => h('button', { type: 'button', class: `btn ${cls}`, on: { click: fn } });
    L.bar = {
      note: h('p', { class: 'bh-note' }),
      tile: h('div', { class: 'bh-mine' }),
      rotate: btn('bh-rotate', () => rotate(L, ui)),
      place: btn('primary bh-place', () => place(L, ui)),
      cancel: btn('ghost bh-cancel', () => { L.sel = null; ui.rerender(); }),
    };
    L.bar.root = h('div', { class: 'booty bh-bar' }, L.bar.note,
      h('div', { class: 'bh-act' }, L.bar.tile, L.bar.rotate, L.bar.place, L.bar.cancel));
    put(el, L.bar.root);
  }
  const b = L.bar;
  const busy = sending(L);
  const fits = moves.some((m) => m.endsWith(`,${L.r}`));
  const note = busy ? t('bh.placing') : L.sel ? (L.only ? t('bh.only_way') : t('bh.sure'))
    : fits ? t('bh.tap_spot') : t('bh.no_spot');
  if (b.note.textContent !== note) b.note.textContent = note;
  const slices = turn(st.drawn.slices, L.r);
  put(b.tile, tileSvg(slices, L.spin ? 'bh-spin' : '', `${t('bh.your_tile')}: ${t('bh.turned', { deg: L.r * 90 })}`));
  put(b.rotate, s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' },
    s('path', { d: 'M19 12a7 7 0 1 1-2.05-4.95M19 4v4h-4', class: 'ln' })), t('bh.rotate'));
  put(b.place, t('bh.confirm'));
  put(b.cancel, t('bh.cancel'));
  b.rotate.disabled = busy;
  b.place.disabled = busy || !L.sel;
  b.cancel.disabled = busy || !L.sel;
}

// --- the count and the results ----------------------------------------------------------

/** The count, diamond by diamond, then the scores (results.js beside this module). */
export const renderResults = resultsLater(() => import('./results.js'));

// --- what changed -----------------------------------------------------------------------

export function changes(prev, next) {
  const say = [];
  let buzz = null;
  const a = prev.state;
  const b = next.state;
  if (!b || !b.board) return { say, buzz };
  const names = {};
  for (const p of next.people) if (p.seat !== null) names[p.seat] = personName(p);
  const same = a && a.board && prev.game_number === next.game_number;
  if (same && b.placements > a.placements && a.turn !== null) {
    say.push(t('bh.say_placed', { name: nameOf(a.turn, names), n: b.placements }));
    const formed = b.diamonds.length - a.diamonds.length;
    if (formed > 0) {
      say.push(t('bh.say_diamond', { n: formed }));
      buzz = 60;
    }
  }
  if (same && b.set_aside.length > a.set_aside.length) say.push(t('bh.say_aside'));
  const mine = next.phase === 'playing' && next.me && next.me.moves && next.me.moves.length > 0;
  const was = prev.phase === 'playing' && prev.decision === next.decision && prev.me && prev.me.moves && prev.me.moves.length > 0;
  if (mine && !was) {
    say.push(t('bh.say_turn'));
    buzz = [80, 60, 80];
  }
  if (next.phase === 'results' && prev.phase !== 'results' && b.winners) {
    const seats = SEATS.filter((seat) => seat < (b.scores || []).length).sort((x, y) => b.scores[y] - b.scores[x] || x - y);
    say.push(t('results.title'), winText(b.winners, names),
      t('results.standings', { list: seats.map((seat) => `${nameOf(seat, names)} ${b.scores[seat]}`).join(t('list.comma')) }));
  }
  return { say, buzz };
}

// --- the table's words for this game ----------------------------------------------------

/** The countdown's label: whose turn it is (and whether a clock runs). */
export function clockLabel(v, timed) {
  const st = v.state;
  if (!st || st.turn === null || st.turn === undefined || v.table.phase !== 'playing') return null;
  const mine = myMoves(v).length > 0;
  const name = nameOf(st.turn, v.names);
  if (!mine && seatPeople(v)[st.turn]?.bot_plays) return t('bh.clock_bot', { name });
  if (!timed) return mine ? t('bh.your_turn_free') : t('bh.turn_free', { name });
  return mine ? t('bh.clock_mine') : t('bh.clock_other', { name });
}

/** The lobby's line about time: seconds per turn, or no turn clock. */
export function settingsText(settings) {
  return settings.turn_clock === false ? t('bh.no_clock') : t('bh.seconds', { n: settings.seconds });
}
