// A small line chart as inline SVG: one line per player, told apart by colour,
// dash and marker shape, with a legend naming each line.

import { h, s } from './dom.js';

const COLOURS = ['#0b4a8b', '#b3261e', '#1e6b34', '#6a3d9a', '#8a4b08', '#00707a', '#a3195b', '#4a4a4a'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '', '6 3', '2 3', '8 3 2 3'];
const MARKS = ['circle', 'square', 'triangle', 'diamond', 'square', 'circle', 'diamond', 'triangle'];

function marker(shape, x, y, colour) {
  const r = 4.5;
  if (shape === 'circle') return s('circle', { cx: x, cy: y, r, fill: colour });
  if (shape === 'square') return s('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  const pts = shape === 'triangle'
    ? [[x, y - r - 1], [x + r + 1, y + r], [x - r - 1, y + r]]
    : [[x, y - r - 1], [x + r + 1, y], [x, y + r + 1], [x - r - 1, y]];
  return s('polygon', { points: pts.map((p) => p.join(',')).join(' '), fill: colour });
}

function niceMax(value) {
  if (value <= 5) return 5;
  const step = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (value <= m * step) return m * step;
  return value;
}

/** series: [{name, values}]; a legend and an SVG, inside one figure body. */
export function chart(series, { xLabel = (i) => String(i + 1), xTitle = '', title = '' } = {}) {
  const W = 360;
  const H = 210;
  const left = 40;
  const right = 14;
  const top = 12;
  const bottom = 40;
  const n = Math.max(1, ...series.map((one) => one.values.length));
  const max = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const x = (i) => (n === 1 ? (left + W - right) / 2 : left + (i * (W - left - right)) / (n - 1));
  const y = (v) => top + (H - top - bottom) * (1 - v / max);
  const grid = [0, max / 2, max].map((v) => [
    s('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }),
    s('text', { x: left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick', text: String(v) }),
  ]);
  const ticks = Array.from({ length: n }, (_, i) =>
    s('text', { x: x(i), y: H - bottom + 18, 'text-anchor': 'middle', class: 'tick', text: xLabel(i) }));
  const lines = series.map((one, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const pts = one.values.map((v, i) => [x(i), y(v)]);
    return s('g', { class: 'series' },
      s('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: colour,
        'stroke-width': 3, 'stroke-dasharray': DASHES[k % DASHES.length] || null, 'stroke-linejoin': 'round' }),
      pts.map(([px, py]) => marker(MARKS[k % MARKS.length], px, py, colour)));
  });
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', 'aria-label': title },
    grid, ticks,
    s('text', { x: (left + W - right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis', text: xTitle }),
    lines);
  const legend = h('ul', { class: 'legend' }, series.map((one, k) => {
    const colour = COLOURS[k % COLOURS.length];
    return h('li', null,
      s('svg', { viewBox: '0 0 36 14', class: 'swatch', 'aria-hidden': 'true' },
        s('line', { x1: 2, x2: 34, y1: 7, y2: 7, stroke: colour, 'stroke-width': 3,
          'stroke-dasharray': DASHES[k % DASHES.length] || null }),
        marker(MARKS[k % MARKS.length], 18, 7, colour)),
      h('span', { text: `${one.name}: ${one.values.join(' → ')}` }));
  }));
  return h('div', { class: 'chart-body' }, svg, legend);
}
