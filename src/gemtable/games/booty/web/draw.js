// Booty Hunter drawings, shared by the table (booty.js), the rules and the results pages:
// the three colours (each with a pattern and a letter, never colour alone), a tile as four
// triangles, the board with its diamonds and markers. One board cell is 100 SVG units.

import { h, s } from '/static/js/dom.js';
import { t } from '/static/js/i18n.js';

// page.css (beside this module) is linked on first use (the HTML pages stay the same for every game), and on
// the TV stage.css (its sizes from the sofa).
const linked = (name) => {
  const href = new URL(name, import.meta.url).pathname;
  return document.querySelector(`link[href="${href}"]`) ? Promise.resolve() : new Promise((done) => {
    document.head.append(h('link', { rel: 'stylesheet', href, on: { load: done, error: done } }));
    setTimeout(done, 3000);
  });
};
export const cssReady = Promise.all([linked('page.css'), document.body.classList.contains('tv') && linked('stage.css')]);

/** Land colours: fill, the ink printed on it (≥ 4.5:1) and the pattern's id. Their lightness differs as much as
 *  their hue: at least 20 L* between any two, seen normally, in greyscale and under protanopia, deuteranopia and
 *  tritanopia (tests/games/booty/test_colours.py). */
export const COLOURS = [
  { fill: '#e8603a', ink: '#000000' },
  { fill: '#12347a', ink: '#ffffff' },
  { fill: '#ffdf6b', ink: '#000000' },
];
export const SIDES = 'NESW';
const TRI = ['M0 0H100L50 50Z', 'M100 0V100L50 50Z', 'M100 100H0L50 50Z', 'M0 100V0L50 50Z'];
const GEM = ['M27 0H73L50 31Z', 'M100 27V73L69 50Z', 'M73 100H27L50 69Z', 'M0 73V27L31 50Z'];
const FACET = ['M39 0 50 31 61 0', 'M100 39 69 50 100 61', 'M39 100 50 69 61 100', 'M0 39 31 50 0 61'];
const NUM = [[50, 22], [78, 50], [50, 78], [22, 50]];

let defsDone = false;
/** The colours' patterns, defined once per page (stripes, dots, a grid). */
function defs() {
  if (defsDone) return;
  defsDone = true;
  const pat = (id, ...kids) => s('pattern', { id, width: 16, height: 16, patternUnits: 'userSpaceOnUse' }, kids);
  document.body.append(s('svg', { class: 'bh-defs', width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false' },
    s('defs', null,
      pat('bh-p0', s('path', { d: 'M-4 4 4-4M0 16 16 0M12 20 20 12', stroke: '#000', 'stroke-opacity': 0.4, 'stroke-width': 3.5 })),
      pat('bh-p1', s('circle', { cx: 4, cy: 4, r: 3, fill: '#fff', 'fill-opacity': 0.55 }),
        s('circle', { cx: 12, cy: 12, r: 3, fill: '#fff', 'fill-opacity': 0.55 })),
      pat('bh-p2', s('path', { d: 'M0 8H16M8 0V16', stroke: '#000', 'stroke-opacity': 0.4, 'stroke-width': 2.5 })))));
}

export const colourName = (c) => t(`bh.colour${c}`);

/** A colour's swatch: its fill, its pattern and its letter (decorative: say the name beside it). */
export function swatch(c, cls = '') {
  defs();
  const col = COLOURS[c] || COLOURS[0];
  return s('svg', { viewBox: '0 0 100 100', class: `bh-swatch ${cls}`, 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { width: 100, height: 100, rx: 18, fill: col.fill }),
    s('rect', { width: 100, height: 100, rx: 18, fill: `url(#bh-p${c})` }),
    s('text', { x: 50, y: 54, class: 'bh-letter', fill: col.ink, stroke: col.fill, text: t(`bh.letter${c}`) }));
}

/** The slices as shown after r quarter turns clockwise (the north slice moves to the east). */
export const turn = (slices, r) => [0, 1, 2, 3].map((j) => slices[(j - r + 8) % 4]);

export function sliceText(sl) {
  return sl.kind === 'gem' ? t('bh.gem_half') : t('bh.land', { colour: colourName(sl.colour), points: sl.points });
}

/** A tile's name for screen readers: its slices from north round to west. */
export function tileLabel(slices) {
  return t('bh.tile', { slices: slices.map(sliceText).join(', ') });
}

function slice(sl, i) {
  if (sl.kind === 'gem') {
    return s('g', { class: 'bh-gem' }, s('path', { d: TRI[i], class: 'bh-stone' }), s('path', { d: GEM[i], class: 'bh-half' }),
      s('path', { d: FACET[i], class: 'bh-facet' }));
  }
  const col = COLOURS[sl.colour] || COLOURS[0];
  return s('g', { class: `bh-land c${sl.colour}` },
    s('path', { d: TRI[i], fill: col.fill, class: 'bh-tri' }),
    s('path', { d: TRI[i], fill: `url(#bh-p${sl.colour})` }),
    s('text', { x: NUM[i][0], y: NUM[i][1], class: 'bh-pt', fill: col.ink, stroke: col.fill, text: sl.points }));
}

/** One tile at cell x, y (slices as shown: N, E, S, W). */
export function tileG(slices, x = 0, y = 0, cls = '') {
  defs();
  return s('g', { transform: `translate(${x * 100} ${y * 100})`, class: `bh-tile ${cls}` },
    slices.map(slice), s('rect', { width: 100, height: 100, class: 'bh-edge' }));
}

/** A tile on its own, as an image. */
export function tileSvg(slices, cls = '', label = tileLabel(slices)) {
  return s('svg', { viewBox: '-3 -3 106 106', class: `bh-tile-svg ${cls}`, role: 'img', 'aria-label': label },
    tileG(slices));
}

/** Where a diamond's marker sits: the middle of the edge it was formed across. */
export function markerAt(d) {
  return d.side === 'E' ? [d.x * 100 + 100, d.y * 100 + 50] : [d.x * 100 + 50, d.y * 100 + 100];
}

/** The cells' box in SVG units, with a margin. */
export function box(cells, pad = 20) {
  const list = cells.length ? cells : [[0, 0]];
  const xs = list.map((c) => c[0]);
  const ys = list.map((c) => c[1]);
  const x = Math.min(...xs) * 100 - pad;
  const y = Math.min(...ys) * 100 - pad;
  return { x, y, w: (Math.max(...xs) + 1) * 100 + pad - x, h: (Math.max(...ys) + 1) * 100 + pad - y };
}

/**
 * Draw a board into svg. o: {board, diamonds, black(d) → bool, spots: [[x, y]], spotLabel(x, y),
 * ghost: {x, y, slices}, last: order, focus: {diamond, slices: [[x, y, side]]}, flip: id of a marker turning}.
 */
export function drawBoard(svg, o) {
  const parts = [s('g', { class: 'bh-tiles' }, o.board.map((c) => tileG(c.slices, c.x, c.y,
    c.order === o.last ? 'bh-last' : '')))];
  if (!o.board.length && !(o.spots || []).length) parts.push(s('rect', { x: 5, y: 5, width: 90, height: 90, rx: 12, class: 'bh-origin' }));
  if (o.focus) {
    const at = new Map(o.board.map((c) => [`${c.x},${c.y}`, c]));
    const d = o.focus.diamond;
    const [a, b] = d.cells;
    const refs = [...o.focus.slices, [a[0], a[1], d.side], [b[0], b[1], d.side === 'E' ? 'W' : 'N']];
    const bx = box(o.board.map((c) => [c.x, c.y]), 400);
    parts.push(s('rect', { x: bx.x, y: bx.y, width: bx.w, height: bx.h, class: 'bh-veil' }));
    for (const [x, y, side] of refs) {
      const cell = at.get(`${x},${y}`);
      const i = SIDES.indexOf(side);
      if (!cell || i < 0) continue;
      parts.push(s('g', { transform: `translate(${x * 100} ${y * 100})`, class: 'bh-tile bh-hl' },
        slice(cell.slices[i], i), s('path', { d: TRI[i], class: 'bh-hl-edge' })));
    }
  }
  for (const [x, y] of o.spots || []) {
    parts.push(s('g', { class: 'bh-spot-g' },
      s('rect', { x: x * 100 + 5, y: y * 100 + 5, width: 90, height: 90, rx: 12, class: 'bh-spot', 'data-spot': `${x},${y}`,
        tabindex: 0, role: 'button', 'aria-label': o.spotLabel ? o.spotLabel(x, y) : `${x},${y}` }),
      s('path', { d: `M${x * 100 + 50} ${y * 100 + 32}v36M${x * 100 + 32} ${y * 100 + 50}h36`, class: 'bh-plus' })));
  }
  if (o.ghost) {
    const g = o.ghost;
    parts.push(tileG(g.slices, g.x, g.y, 'bh-ghost'),
      s('rect', { x: g.x * 100 - 4, y: g.y * 100 - 4, width: 108, height: 108, rx: 6, class: 'bh-sel' }));
  }
  for (const d of o.diamonds || []) {
    const [cx, cy] = markerAt(d);
    const black = o.black ? o.black(d) : d.marker === 'black';
    const focus = o.focus && o.focus.diamond.id === d.id;
    if (focus) parts.push(s('circle', { cx, cy, r: 30, class: 'bh-ring' }));
    parts.push(s('circle', { cx, cy, r: 14, class: `bh-marker ${black ? 'black' : 'white'}${o.flip === d.id ? ' bh-flip' : ''}`,
      'data-marker': black ? 'black' : 'white', 'data-diamond': d.id }));
  }
  svg.replaceChildren(...parts);
}
