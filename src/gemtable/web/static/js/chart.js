// A small line chart as inline SVG: one line per seat, told apart by colour, dash and marker shape (the
// seat's own style, seat-style.js: up to 16 seats, each its own), with a legend naming each line.

import { h, s } from './dom.js';
import { seatMarker, seatStyle, seatSwatch } from './seat-style.js';

/** The top of the value axis: a round number at or above the largest value, and even, so that the three ticks
 *  (0, half of it, it) are whole numbers: a count is never ticked "2.5". */
function niceMax(value) {
  const least = Math.max(2, Math.ceil(value));
  const step = 10 ** Math.floor(Math.log10(least));
  for (const m of [1, 2, 3, 4, 5, 6, 8, 10]) if (m * step >= least && (m * step) % 2 === 0) return m * step;
  return least + (least % 2);
}

/** series: [{name, values, seat}] (seat: whose style the line takes; its place in the list if none);
 *  a legend and an SVG, inside one figure body. */
export function chart(series, { xLabel = (i) => String(i + 1), xTitle = '', title = '' } = {}) {
  // The text follows the page's size (twice the usual at 200 % text: the root's font over its usual 17 px), and
  // the margins that hold it with it; the TV sizes its text itself (stage.js).
  const tv = document.body.classList.contains('tv');
  const k = tv ? 1 : Math.max(1, parseFloat(getComputedStyle(document.documentElement).fontSize) / 17);
  const W = 360;
  const H = 170 + 48 * k;
  const left = 10 + 30 * k;
  const right = 14;
  const top = 12;
  const bottom = 48 * k;
  // The labels keep clear of the marks (a mark is up to 6.6 units from its point): the values' 10 units to the
  // left of the axis, the caves' 24 below the 0 line (the TV's 14.2-unit labels too; tests/web/test_rough_edges.py).
  const n = Math.max(1, ...series.map((one) => one.values.length));
  const max = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const x = (i) => (n === 1 ? (left + W - right) / 2 : left + (i * (W - left - right)) / (n - 1));
  const y = (v) => top + (H - top - bottom) * (1 - v / max);
  const seatOf = (one, k) => (one.seat ?? k);
  const grid = [0, max / 2, max].map((v) => [
    s('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }),
    s('text', { x: left - 10, y: y(v) + 4 * k, 'text-anchor': 'end', class: 'tick', text: String(v) }),
  ]);
  const ticks = Array.from({ length: n }, (_, i) =>
    s('text', { x: x(i), y: H - bottom + 24 * k, 'text-anchor': 'middle', class: 'tick', text: xLabel(i) }));
  const lines = series.map((one, k) => {
    const style = seatStyle(seatOf(one, k));
    const pts = one.values.map((v, i) => [x(i), y(v)]);
    return s('g', { class: 'series', 'data-seat-style': style.index },
      s('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: style.colour,
        'stroke-width': 3, 'stroke-dasharray': style.dash || null, 'stroke-linejoin': 'round' }),
      pts.map(([px, py]) => seatMarker(seatOf(one, k), px, py)));
  });
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', 'aria-label': title },
    grid, ticks,
    s('text', { x: (left + W - right) / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis', text: xTitle }),
    lines);
  if (k > 1) svg.style.setProperty('--chart-text', `${(12 * k).toFixed(1)}px`);  // (CSSOM: the CSP allows it)
  const legend = h('ul', { class: 'legend' }, series.map((one, k) => h('li', null,
    seatSwatch(seatOf(one, k)), h('span', { text: `${one.name}: ${one.values.join(' → ')}` }))));
  return h('div', { class: 'chart-body' }, svg, legend);
}
