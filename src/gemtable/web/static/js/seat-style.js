// A seat's style: its colour, its mark and its line's dash, the same on every page that draws seats (the
// results' chart and table now; the TV's players next). Up to 16 seats, each told apart from every other
// without colour too: 16 marks (eight shapes, filled then hollow) and eight dashes, and every colour dark
// enough to read on white (at least 4.5:1). A seat beyond 16 takes the style of seat (n mod 16).

import { s } from './dom.js';

export const SEATS = 16;

const COLOURS = [
  '#0b4a8b', '#b3261e', '#1e6b34', '#6a3d9a', '#8a4b08', '#00707a', '#a3195b', '#4a4a4a',
  '#c2410c', '#3f6212', '#1d4ed8', '#14110f', '#be185d', '#92400e', '#4338ca', '#0f5132',
];
const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'star', 'hexagon', 'down', 'pentagon'];
const DASHES = ['', '7 3', '2 3', '9 3 2 3', '12 4', '3 6', '12 3 3 3 3 3', '1 2'];

/** Seat n's style: {index, colour, shape, filled, dash (an SVG stroke-dasharray, '' for a solid line)}. */
export function seatStyle(seat) {
  const i = ((Number(seat) % SEATS) + SEATS) % SEATS;
  return {
    index: i,
    colour: COLOURS[i],
    shape: SHAPES[i % SHAPES.length],
    filled: i < SHAPES.length,
    dash: DASHES[(i + Math.floor(i / DASHES.length)) % DASHES.length],
  };
}

function points(list) {
  return list.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');
}

function polygon(n, x, y, r, turn = -Math.PI / 2) {
  return Array.from({ length: n }, (_, k) => [x + r * Math.cos(turn + (2 * Math.PI * k) / n),
    y + r * Math.sin(turn + (2 * Math.PI * k) / n)]);
}

function star(x, y, r) {
  return Array.from({ length: 10 }, (_, k) => {
    const a = -Math.PI / 2 + (Math.PI * k) / 5;
    const q = k % 2 ? r * 0.45 : r;
    return [x + q * Math.cos(a), y + q * Math.sin(a)];
  });
}

/** Seat n's mark as an SVG shape centred on (x, y), about 2r across (inside a chart, or a small svg). */
export function seatMarker(seat, x, y, r = 4.5) {
  const st = seatStyle(seat);
  const paint = st.filled ? { fill: st.colour, stroke: st.colour, 'stroke-width': 1 }
    : { fill: '#fff', stroke: st.colour, 'stroke-width': 2 };
  const shape = st.shape;
  if (shape === 'circle') return s('circle', { cx: x, cy: y, r, ...paint });
  if (shape === 'square') return s('rect', { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, ...paint });
  const pts = {
    triangle: () => polygon(3, x, y + r * 0.15, r * 1.15),
    down: () => polygon(3, x, y - r * 0.15, r * 1.15, Math.PI / 2),
    diamond: () => polygon(4, x, y, r * 1.15),
    star: () => star(x, y, r * 1.25),
    hexagon: () => polygon(6, x, y, r * 1.05, 0),
    pentagon: () => polygon(5, x, y, r * 1.08),
  }[shape]();
  return s('polygon', { points: points(pts), ...paint });
}

/** Seat n's mark on its own, as a small inline picture (hidden from screen readers: the name says who). */
export function seatMark(seat, cls = '') {
  return s('svg', { viewBox: '0 0 16 16', class: `seat-mark ${cls}`.trim(), 'aria-hidden': 'true',
    'data-seat-style': seatStyle(seat).index }, seatMarker(seat, 8, 8, 5.2));
}

/** A legend's swatch: seat n's line, dashed as in the chart, with its mark on it. */
export function seatSwatch(seat) {
  const st = seatStyle(seat);
  return s('svg', { viewBox: '0 0 36 14', class: 'swatch', 'aria-hidden': 'true' },
    s('line', { x1: 2, x2: 34, y1: 7, y2: 7, stroke: st.colour, 'stroke-width': 3, 'stroke-dasharray': st.dash || null }),
    seatMarker(seat, 18, 7, 4.5));
}
