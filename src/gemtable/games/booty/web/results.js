// Booty Hunter's results: the count, diamond by diamond (the board veiled but for the diamond and its areas,
// the points, the running totals, the marker flipping to black), then the scores — with, for a colour a bot
// played, who played it when. Loaded by page.js when a game's results first show.

import { h, put } from '/static/js/dom.js';
import { t, num } from '/static/js/i18n.js';
import { icon } from '/static/js/icons.js';
import { swatch, colourName, drawBoard, box } from './draw.js';
import { SEATS, Viewport, clamp, nameOf, who, winText } from './page.js';

export function renderResults(el, data, ui) {
  const st = data.state && data.state.board ? data.state : null;
  const L = ui.local;
  const names = data.names || {};
  const scores = data.scores || (st && st.scores) || [];
  const winners = data.winners || (st && st.winners) || [];
  const story = { left: data.left || {}, standIns: data.standIns || {}, ended: data.ended || null, heading: data.heading || 'h2' };
  if (!st) {
    put(el, h('div', { class: 'booty bh-results' }, h('div', { class: 'bh-count' }, final(scores, winners, names, null, story))));
    return;
  }
  const key = `${data.number ?? ''}`;
  let R = L.res;
  if (!R || R.key !== key) {
    if (R) clearTimeout(R.timer);
    R = { key, panel: h('div', { class: 'bh-count' }) };
    R.view = new Viewport(ui.mode, () => skip(R));
    R.root = h('div', { class: 'booty bh-results' }, R.view.wrap, R.panel);
    R.end = st.scoring.length * 2;
    R.per = clamp(18000 / Math.max(1, st.scoring.length), 900, 2000);
    R.step = ui.mode !== 'page' && L.playing === data.number && R.end ? -1 : R.end;
    L.res = R;
    if (R.step < R.end) R.timer = setTimeout(() => advance(R), 900);
  }
  R.data = { st, names, scores, winners, mode: ui.mode, story };
  if (el.firstChild !== R.root || el.childNodes.length !== 1) put(el, R.root);
  paint(R);
}

function advance(R) {
  R.step += 1;
  paint(R);
  if (R.step < R.end) R.timer = setTimeout(() => advance(R), R.step % 2 === 0 ? R.per * 0.65 : R.per * 0.35);
}

function skip(R) {
  if (R.step >= R.end) return;
  clearTimeout(R.timer);
  R.step = R.end;
  paint(R);
}

function paint(R) {
  const { st, names, scores, winners, mode, story } = R.data;
  const counting = R.step < R.end;
  document.body.classList.toggle('bh-counting', counting);
  const k = Math.floor(R.step / 2);
  const done = st.scoring.slice(0, counting ? Math.floor((R.step + 1) / 2) : st.scoring.length);
  const black = new Set(done.map((e) => e.diamond));
  const entry = counting && k >= 0 ? st.scoring[k] : null;
  const diamond = entry ? st.diamonds.find((d) => d.id === entry.diamond) : null;
  drawBoard(R.view.svg, { board: st.board, diamonds: st.diamonds, black: (d) => black.has(d.id),
    focus: diamond ? { diamond, slices: entry.areas.flatMap((a) => a.slices) } : null,
    flip: diamond && R.step % 2 === 1 ? diamond.id : null });
  R.view.show(box(st.board.map((c) => [c.x, c.y]), 30), mode === 'tv' ? [0.1, 2.2] : [0.1, 1.1],
    `${t('bh.board')}: ${t('bh.diamonds', { n: st.diamonds.length })}`);
  if (!counting) {
    put(R.panel, final(scores, winners, names, st, story));
    return;
  }
  const totals = SEATS.map((seat) => done.reduce((sum, e) => sum + (e.points[seat] || 0), 0));
  put(R.panel,
    h(story.heading, { class: 'results-title', text: t('bh.count') }),
    h('p', { class: 'bh-step', text: entry ? t('bh.count_of', { i: k + 1, n: st.scoring.length }) : t('bh.counting') }),
    entry ? h('ul', { class: 'bh-areas' }, entry.areas.length ? entry.areas.map((a) => h('li', { class: a.scores ? 'scores' : 'no' },
      swatch(a.owner), h('span', { text: t('bh.area', { name: nameOf(a.owner, names), n: a.size, value: a.value }) }),
      a.scores ? h('b', { class: 'bh-gain', text: `+${a.value}` }) : h('span', { class: 'bh-nope', text: t('bh.no_score') })))
      : h('li', { text: t('bh.no_area') })) : null,
    h('table', { class: 'scores bh-totals' },
      h('tbody', null, SEATS.map((seat) => h('tr', null,
        h('th', { scope: 'row' }, who(seat, names)),
        h('td', { class: 'bh-gain-cell' }, entry && entry.points[seat] ? h('b', { class: 'bh-gain', text: `+${entry.points[seat]}` }) : null),
        h('td', { class: 'total', text: num(totals[seat]) }))))),
    mode === 'tv' ? null : h('button', { type: 'button', class: 'btn wide bh-skip', text: t('bh.skip'), on: { click: () => skip(R) } }));
}

/** "Kim left at move 8; a bot played Red from move 9": who played a colour, when it was not its person. */
function colourStory(seat, story) {
  const parts = [];
  const gone = story.left[seat];
  if (gone) {
    const key = gone.reason === 'removed' ? 'bh.res_removed' : gone.reason === 'banned' ? 'bh.res_banned' : 'bh.res_left';
    parts.push(t(key, { move: gone.move ?? '?' }));
  }
  for (const [from, to] of story.standIns[seat] || []) {
    parts.push(to ? t('bh.res_bot_range', { from, to }) : t('bh.res_bot_from', { from }));
  }
  return parts.join(' · ');
}

/** The scores, best first, and who won (and, for a colour a bot played, who played it when). */
function final(scores, winners, names, st, story = { left: {}, standIns: {}, ended: null }) {
  const seats = SEATS.filter((seat) => seat < scores.length).sort((a, b) => scores[b] - scores[a] || a - b);
  const text = winText(winners, names);
  const played = winners.map((seat) => colourStory(seat, story)).filter(Boolean);
  return [
    h(story.heading || 'h2', { class: 'results-title', text: t('results.title') }),
    story.ended ? h('p', { class: 'ended-line', text: t('results.ended', { by: story.ended.by || t('news.someone') }) }) : null,
    text ? h('p', { class: 'winner-line' }, icon('star'), h('span', { text })) : null,
    played.length ? h('p', { class: 'note winner-note', text: winners.map((seat) => {
      const line = colourStory(seat, story);
      return line ? `${colourName(seat)} (${nameOf(seat, names)}): ${line}` : '';
    }).filter(Boolean).join(' ') }) : null,
    h('table', { class: 'scores' },
      h('thead', null, h('tr', null, h('td'), h('th', { scope: 'col', text: t('results.player') }),
        h('th', { scope: 'col', text: t('results.total') }))),
      h('tbody', null, seats.map((seat) => h('tr', { class: winners.includes(seat) ? 'win' : '' },
        h('td', { class: 'rank' }, winners.includes(seat) ? icon('star', t('results.won')) : null),
        h('th', { scope: 'row' }, who(seat, names, true),
          colourStory(seat, story) ? h('span', { class: 'tag-line', text: colourStory(seat, story) }) : null),
        h('td', { class: 'total', text: num(scores[seat]) }))))),
    st ? h('p', { class: 'note', text: t('bh.final_note', { n: st.diamonds.length,
      mode: t(`preset.booty.${st.scoring_mode === 2 ? 'largest-area' : 'every-area'}`) }) }) : null,
  ];
}

