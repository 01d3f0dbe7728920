// A seat's style (colour, mark, dash), the same wherever a seat is drawn: the phones' and the TV's players,
// the results, the chart. 16 seats, each told apart without colour too (docs/pages.md, "Seat styles").

import { s } from './dom.js';

export const SEATS = 16;

const COLOURS = ['#0b4a8b', '#b3261e', '#1e6b34', '#6a3d9a', '#8a4b08', '#00707a', '#a3195b', '#4a4a4a',
  '#c2410c', '#3f6212', '#1d4ed8', '#14110f', '#be185d', '#92400e', '#4338ca', '#0f5132'];
const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'star', 'hexagon', 'down', 'pentagon'];
const DASHES = ['', '7 3', '2 3', '9 3 2 3', '12 4', '3 6', '12 3 3 3 3 3', '1 2'];

let looks = new Map();
/** The looks people keep across a table's games (``Person.look``): seat → look, from a state's people or a
 *  record's ``looks``; a seat without one is drawn in its own style. */
export function useLooks(bySeat) {
  looks = new Map(Object.entries(bySeat || {}).map(([seat, look]) => [Number(seat), look]));
}

/** Seat n's style: {index, colour, shape, filled, dash (a stroke-dasharray, '' for solid)}: its player's look. */
export function seatStyle(seat, direct = false) {
  const n = direct ? seat : looks.get(Number(seat)) ?? seat;
  const i = ((Number(n) % SEATS) + SEATS) % SEATS;
  return { index: i, colour: COLOURS[i], shape: SHAPES[i % 8], filled: i < 8, dash: DASHES[(i + (i >> 3)) % 8] };
}

const ring = (n, x, y, r, turn, inner = r) => Array.from({ length: n }, (_, k) => {
  const a = turn + (2 * Math.PI * k) / n;
  const q = k % 2 ? inner : r;
  return `${(x + q * Math.cos(a)).toFixed(2)},${(y + q * Math.sin(a)).toFixed(2)}`;
}).join(' ');

const UP = -Math.PI / 2;
const POLYGONS = {
  triangle: (x, y, r) => ring(3, x, y + r * 0.15, r * 1.15, UP),
  down: (x, y, r) => ring(3, x, y - r * 0.15, r * 1.15, -UP),
  diamond: (x, y, r) => ring(4, x, y, r * 1.15, UP),
  star: (x, y, r) => ring(10, x, y, r * 1.25, UP, r * 0.5625),
  hexagon: (x, y, r) => ring(6, x, y, r * 1.05, 0),
  pentagon: (x, y, r) => ring(5, x, y, r * 1.08, UP),
};

/** Seat n's mark as an SVG shape centred on (x, y), about 2r across. */
export function seatMarker(seat, x, y, r = 4.5, direct = false) {
  const st = seatStyle(seat, direct);
  const paint = st.filled ? { fill: st.colour, stroke: st.colour, 'stroke-width': 1 }
    : { fill: '#fff', stroke: st.colour, 'stroke-width': 2 };
  if (st.shape === 'circle') return s('circle', { cx: x, cy: y, r, ...paint });
  if (st.shape === 'square') return s('rect', { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, ...paint });
  return s('polygon', { points: POLYGONS[st.shape](x, y, r), ...paint });
}

/** Seat n's mark as a small picture (hidden from screen readers: the name beside it says who). */
export function seatMark(seat, cls = '', direct = false) {
  return s('svg', { viewBox: '0 0 16 16', class: `seat-mark ${cls}`.trim(), 'aria-hidden': 'true',
    'data-seat-style': seatStyle(seat, direct).index }, seatMarker(seat, 8, 8, 5.2, direct));
}

/** A legend's swatch: seat n's line, dashed as in the chart, with its mark on it. */
export function seatSwatch(seat) {
  const st = seatStyle(seat);
  return s('svg', { viewBox: '0 0 36 14', class: 'swatch', 'aria-hidden': 'true' },
    s('line', { x1: 2, x2: 34, y1: 7, y2: 7, stroke: st.colour, 'stroke-width': 3, 'stroke-dasharray': st.dash || null }),
    seatMarker(seat, 18, 7, 4.5));
}
