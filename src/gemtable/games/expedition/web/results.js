// The expedition's results: the final standings (each place — 1st, 2nd…, shared by a tie —, each seat's mark,
// gems, the relics each carried, and how a player who left went), an early end, the winners, then the chart of
// each chest cave by cave (each seat its own style). Loaded by page.js when a game's results first show.

import { h, put } from '/static/js/dom.js';
import { t, num, currentLang } from '/static/js/i18n.js';
import { icon } from '/static/js/icons.js';
import { chart } from '/static/js/chart.js';
import { seatMark } from '/static/js/seat-style.js';
import { gems, gemsText, listNames, nameOf, relicIcons, rubies } from './page.js';
import './recap.js';  // (its styles, end.css: the places; and the awards' words)

/** Scores, winners and the chart. data: {scores, winners, players?, names, rules}. */
export function renderResults(el, data, ui) {
  const rules = data.rules;
  const scores = data.scores || [];
  const winners = data.winners || [];
  const players = new Map((data.players || []).map((p) => [p.seat, p]));
  const seats = scores.map((_, seat) => seat)
    .filter((seat) => (players.size ? players.has(seat) : seat in data.names || winners.includes(seat)));
  seats.sort((a, b) => scores[b] - scores[a] || a - b);
  const winText = winners.length === 1 ? t('results.winner', { name: nameOf(winners[0], data.names) })
    : winners.length ? t('results.winners', { names: listNames(winners, data.names) }) : '';
  const left = data.left || {};
  const ordinal = new Intl.PluralRules(currentLang(), { type: 'ordinal' });
  const rows = seats.map((seat) => {
    const place = 1 + seats.filter((other) => scores[other] > scores[seat]).length;  // a tie shares its place
    const word = `exp.place_${ordinal.select(place)}`;
    const p = players.get(seat);
    const relicPts = p ? p.relics.reduce((a, b) => a + b, 0) : null;
    const win = winners.includes(seat);
    const gone = left[seat];
    return h('tr', { class: win ? 'win' : '' },
      h('td', { class: 'rank' }, h('span', { class: 'place', text: t(word, { n: place }) }),
        win ? icon('star', t('results.won')) : null),
      h('th', { scope: 'row' }, h('span', { class: 'who-seat' }, seatMark(seat),
        h('span', { text: nameOf(seat, data.names) })),
      gone ? h('span', { class: 'tag-line', text: leftText(gone) }) : null),
      h('td', null, p && p.chest !== null ? gems(p.chest, rules) : '—'),
      h('td', null, p ? relicIcons(p.relics) : '—', p && relicPts ? h('span', { class: 'sr-only', text: String(relicPts) }) : null),
      h('td', { class: 'total', text: num(scores[seat]) }));
  });
  const series = seats.filter((seat) => players.get(seat)?.chest_by_cave)
    .map((seat) => ({ name: nameOf(seat, data.names), values: players.get(seat).chest_by_cave, seat }));
  put(el,
    h(data.heading || 'h2', { class: 'results-title', text: t('results.title') }),
    data.ended ? h('p', { class: 'ended-line', text: t('results.ended', { by: data.ended.by || t('news.someone') }) }) : null,
    winText ? h('p', { class: 'winner-line' }, icon('star'), h('span', { text: winText })) : null,
    h('table', { class: ['scores', !seats.some((seat) => players.get(seat)?.relics.length) && 'no-relics'] },
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('exp.place') }),
        h('th', { scope: 'col', text: t('results.player') }),
        h('th', { scope: 'col', text: rubies(rules) ? t('word.rubies_col') : t('word.gems_col') }),
        h('th', { scope: 'col', text: t('results.relics') }),
        h('th', { scope: 'col', text: t('results.total') }))),
      h('tbody', null, rows)),
    awards(data.state?.awards, data),
    series.length ? h('figure', { class: 'chart' },
      h('figcaption', { text: t('results.chart') }),
      chart(series, { xLabel: (i) => String(i + 1), xTitle: t('results.cave'), title: t('results.chart') }))
      : h('p', { class: 'note', text: t('results.no_chart') }));
}

/** "left in cave 3", "removed by the host in cave 2": how a seat's player went, for the results. */
function leftText(gone) {
  const key = gone.reason === 'removed' ? 'exp.res_removed' : gone.reason === 'banned' ? 'exp.res_banned' : 'exp.res_left';
  return t(key, { round: gone.round ?? '?' });
}


/** The game's awards (hindsight.py: each null when nobody earned it), under the standings. */
function awards(aw, data) {
  if (!aw) return null;
  const rules = data.rules;
  const who = (seat) => nameOf(seat, data.names);
  const lines = [];
  if (aw.boldest) {
    const b = aw.boldest;
    lines.push([t('aw.boldest', { name: who(b.seat), gems: gemsText(b.gems, rules), cave: b.cave }),
      b.relics ? t('aw.relics', { n: b.relics }) : ''].join(' ').trim());
  }
  if (aw.last_out) lines.push(t('aw.last_out', { name: who(aw.last_out.seat), n: aw.last_out.caves }));
  if (aw.left_behind) lines.push(t('aw.left_behind', { cave: aw.left_behind.cave, gems: gemsText(aw.left_behind.gems, rules) }));
  if (aw.unluckiest) {
    const u = aw.unluckiest;
    lines.push(t('aw.unluckiest', { name: who(u.seat), gems: gemsText(u.gems, rules), cave: u.cave }));
  }
  if (!lines.length) return null;
  const level = data.heading === 'h1' ? 'h2' : 'h3';
  return h('section', { class: 'awards', 'aria-label': t('aw.title') },
    h(level, { class: 'h3', text: t('aw.title') }),
    h('ul', { class: 'awards-list' }, lines.map((line) => h('li', { text: line }))));
}
