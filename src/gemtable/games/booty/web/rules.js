// Booty Hunter's rules page (/rules/booty?preset=every-area|largest-area&touching=…&tie=…): its manifest names
// this module. Texts from rules.LANG.json, tiles from tiles.json (both beside this module).

import { h, s } from '/static/js/dom.js';
import { t, num, currentLang } from '/static/js/i18n.js';

const section = (title, ...body) => h('section', { class: 'panel' }, h('h2', { text: title }), body);
const p = (text) => h('p', { text });

const cache = {};
const load = (url) => (cache[url] ??= fetch(url).then((r) => r.json()));
const here = (name) => new URL(name, import.meta.url).pathname;

/** The example board of the rules: [tile, x, y, quarter turns], placed in this order. */
const EXAMPLE = [[1, 0, 0, 0], [5, 0, -1, 2], [9, 0, -2, 3], [13, -1, -2, 0], [17, -1, -3, 2], [21, 0, -3, 0],
  [25, -1, -4, 0], [29, -2, -4, 2], [33, -1, -5, 2]];
const EXAMPLE_FOCUS = { cell: [-1, -2], side: 'E', slices: [[-1, -2, 'S'], [-1, -3, 'E'], [0, -3, 'S'], [0, -3, 'W'], [0, -2, 'N'],
  [0, -2, 'S'], [0, -1, 'N']] };
/** docs/booty-hunter.md, "Simulation figures": bots, mode, games, unfit, drawn, diamonds, most, mode 1, mode 2, changes %. */
const SIM = [['random', 1, 2000, 96, 72096, 15.15, 21, 46.33, 29.66, 26.1], ['greedy', 1, 200, 79, 7279, 21.52, 25, 80.73, 51.27, 25.0],
  ['greedy', 2, 200, 34, 7234, 20.51, 23, 74.09, 51.23, 27.0]];

/** Diamonds of a board: every pair of facing gem halves (east and south of each cell). */
function diamondsOf(cells) {
  const at = new Map(cells.map((c) => [`${c.x},${c.y}`, c]));
  const out = [];
  for (const c of cells) {
    for (const [side, dx, dy, mine, theirs] of [['E', 1, 0, 1, 3], ['S', 0, 1, 2, 0]]) {
      const o = at.get(`${c.x + dx},${c.y + dy}`);
      if (o && c.slices[mine].kind === 'gem' && o.slices[theirs].kind === 'gem') {
        out.push({ id: out.length, x: c.x, y: c.y, side, cells: [[c.x, c.y], [o.x, o.y]], marker: 'white' });
      }
    }
  }
  return out;
}

function figure(draw, placed, caption, focus = null) {
  const byId = new Map(placed.tiles.map((tile) => [tile.id, tile]));
  const board = placed.cells.map(([id, x, y, r], order) => ({ x, y, order, slices: draw.turn(byId.get(id).slices, r) }));
  const diamonds = diamondsOf(board);
  const f = draw.box(board.map((c) => [c.x, c.y]), 24);
  const svg = s('svg', { viewBox: `${f.x} ${f.y} ${f.w} ${f.h}`, class: ['bh-fig', board.length < 3 && 'bh-fig-small'],
    role: 'img', 'aria-label': caption });
  const d = focus && diamonds.find((x) => x.x === focus.cell[0] && x.y === focus.cell[1] && x.side === focus.side);
  draw.drawBoard(svg, { board, diamonds, focus: d ? { diamond: d, slices: focus.slices } : null });
  return h('figure', null, svg, h('figcaption', { class: 'note', text: caption }));
}

/** The page for one preset; the query may name the table's readings (touching, tie). */
export async function render(preset, query = new URLSearchParams()) {
  const draw = await import('./draw.js');
  const lang = currentLang();
  const [rt, data] = await Promise.all([load(here(`rules.${lang}.json`)), load(here('tiles.json')), draw.cssReady]);
  if (lang !== currentLang()) return null;
  const r = (key, vars = {}) => (rt[key] ?? key).replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
  const tiles = data.tiles;
  const mode = (n, key) => h('li', { class: preset === key ? 'bh-mode' : '' }, r(`mode${n}`),
    preset === key ? h('strong', { text: ` (${r('this_table')})` }) : null);
  /** One open point: its readings, the default first, the table's own (from the query) marked. */
  const reading = (key, values) => h('div', { class: 'bh-reading', id: `reading-${key}` }, h('h3', { text: r(`${key}_h`) }),
    h('ul', null, values.map((value, i) => h('li', { class: query.get(key) === value ? 'bh-mode' : '', dataset: { reading: value } },
      r(`${key}_${value}`), i === 0 ? ` (${r('default')})` : '',
      query.get(key) === value ? h('strong', { text: ` (${r('this_table')})` }) : null))));
  const designs = [...new Set(tiles.map((tile) => tile.design))].sort((a, b) => (a || 99) - (b || 99));
  const pct = (x) => `${num(x)} %`;
  return [
    h('h1', { text: r('title') }),
    p(r('intro')),
    section(r('colours_h'), p(r('colours')),
      h('ul', { class: 'bh-colours' }, [0, 1, 2].map((c) => h('li', null, draw.swatch(c, 'big'),
        h('span', { text: `${t(`bh.colour${c}`)} — ${r(`pattern${c}`)}` }))))),
    section(r('tile_h'), p(r('tile')), h('figure', null, draw.tileSvg(tiles[0].slices, 'bh-fig bh-fig-small'),
      h('figcaption', { class: 'note', text: r('tile_fig') }))),
    section(r('turn_h'), h('ol', null, [1, 2, 3, 4, 5].map((i) => h('li', { text: r(`turn${i}`) })))),
    section(r('diamond_h'), p(r('diamond')), figure(draw, { tiles, cells: EXAMPLE.slice(0, 2) }, r('diamond_fig'))),
    section(r('end_h'), p(r('end'))),
    section(r('score_h'), p(r('score1')), p(r('score2')), p(r('score3')),
      h('ul', null, mode(1, 'every-area'), mode(2, 'largest-area')), p(r('score4'))),
    section(r('readings_h'), p(r('readings')),
      reading('touching', ['scores', 'void']), reading('tie', ['share', 'none'])),
    section(r('example_h'), figure(draw, { tiles, cells: EXAMPLE }, r('example_fig'), EXAMPLE_FOCUS), p(r('example'))),
    section(r('clock_h'), p(r('clock1')), p(r('clock2')), p(r('clock3')), p(r('clock4')), p(r('switch'))),
    section(r('tiles_h'), p(r('tiles')), p(r('tiles_own')),
      designs.map((d) => [h('h3', { text: d ? r('design', { n: d }) : r('all_gems') }),
        h('ul', { class: 'bh-grid' }, tiles.filter((tile) => tile.design === d).map((tile) => h('li', null,
          h('figure', null, draw.tileSvg(tile.slices), h('figcaption', { text: r('tile_no', { id: tile.id }) })))))])),
    section(r('sim_h'), p(r('sim')),
      h('div', { class: 'bh-sim' }, SIM.map(([bots, m, games, unfit, drawn, dia, most, m1, m2, changes]) => [
        h('h3', { text: r('sim_bots', { bots: t(`bot.${bots}`), mode: t(`preset.booty.${m === 1 ? 'every-area' : 'largest-area'}`) }) }),
        h('dl', null, [
          ['sim_games', num(games)],
          ['sim_unfit', `${r('sim_of', { a: num(unfit), b: num(drawn) })} (${pct(Math.round(unfit / drawn * 10000) / 100)})`],
          ['sim_diamonds', `${num(dia)} (${num(most)})`],
          ['sim_mode1', num(m1)], ['sim_mode2', num(m2)], ['sim_changes', pct(changes.toFixed(1))],
        ].map(([key, value]) => [h('dt', { text: r(key) }), h('dd', { text: value })]))]))),
    h('p', { class: 'note', text: r('source') }),
  ];
}
