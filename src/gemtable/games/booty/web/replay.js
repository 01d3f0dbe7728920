// Booty Hunter's replay, one move at a time (the shared replay page, static/js/replay.js, calls it; it imports
// nothing, so that `gemtable replay --html` can carry it inside one file): the board after each tile, the tile
// just placed outlined, the diamonds formed, and the count at the end. The colours are draw.js's, each with its
// letter (never colour alone); the board is an image whose label says what the step's words say.

const COLOURS = [
  { fill: '#e8603a', ink: '#000000' },
  { fill: '#12347a', ink: '#ffffff' },
  { fill: '#ffdf6b', ink: '#000000' },
];
const TRI = ['M0 0H100L50 50Z', 'M100 0V100L50 50Z', 'M100 100H0L50 50Z', 'M0 100V0L50 50Z'];
const NUM = [[50, 24], [76, 52], [50, 80], [24, 52]];

/** "tile 5 of 36": where in the game a step is (of the tiles this finished game placed). */
export function where(steps, i, { t }) {
  return t('rpb.where', { n: steps[i].view.placements, of: steps[steps.length - 1].view.placements });
}

const who = (seat, { t, name }) => t('rpb.who', { name: name(seat), colour: t(`bh.colour${seat}`) });

function tile(cell, last, { s, t }) {
  return s('g', { transform: `translate(${cell.x * 100} ${cell.y * 100})`, class: `rp-tile${last ? ' rp-last' : ''}` },
    cell.slices.map((sl, i) => (sl.kind === 'gem'
      ? s('path', { d: TRI[i], class: 'rp-gem' })
      : [s('path', { d: TRI[i], fill: (COLOURS[sl.colour] || COLOURS[0]).fill, class: 'rp-land' }),
        s('text', { x: NUM[i][0], y: NUM[i][1], class: 'rp-pt', fill: (COLOURS[sl.colour] || COLOURS[0]).ink,
          text: `${t(`bh.letter${sl.colour}`)}${sl.points}` })])),
    s('rect', { width: 100, height: 100, class: 'rp-edge' }));
}

function board(v, label, ctx) {
  const { s } = ctx;
  const cells = v.board.length ? v.board : [{ x: 0, y: 0 }];
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const x = Math.min(...xs) * 100 - 20;
  const y = Math.min(...ys) * 100 - 20;
  const w = (Math.max(...xs) + 1) * 100 + 20 - x;
  const hgt = (Math.max(...ys) + 1) * 100 + 20 - y;
  const last = Math.max(-1, ...v.board.map((c) => c.order));
  return s('svg', { viewBox: `${x} ${y} ${w} ${hgt}`, class: 'rp-board', role: 'img', 'aria-label': label },
    v.board.map((c) => tile(c, c.order === last, ctx)),
    (v.diamonds || []).map((d) => s('circle', {
      cx: d.side === 'E' ? d.x * 100 + 100 : d.x * 100 + 50, cy: d.side === 'E' ? d.y * 100 + 50 : d.y * 100 + 100,
      r: 14, class: `rp-marker ${d.marker === 'black' ? 'black' : 'white'}`,
    })));
}

function finalScores(v, ctx) {
  const { h, t, name, names, num } = ctx;
  const order = v.scores.map((score, seat) => seat).sort((a, b) => v.scores[b] - v.scores[a] || a - b);
  const win = v.winners || [];
  return [
    h('p', { class: 'rp-winner', text: win.length === 1 ? t('rp.winner', { name: name(win[0]) }) : win.length ? t('rp.winners', { names: names(win) }) : '' }),
    h('table', { class: 'rp-table rp-scores' },
      h('caption', { text: t('rp.final') }),
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('rp.player') }), h('th', { scope: 'col', text: t('rp.score') }))),
      h('tbody', null, order.map((seat) => h('tr', { 'data-seat': seat, class: win.includes(seat) ? 'rp-win' : null },
        h('th', { scope: 'row', text: who(seat, ctx) }), h('td', { class: 'rp-num rp-score', text: num(v.scores[seat]) }))))),
  ];
}

/** One step: its heading, its words (the page announces them) and its drawing. */
export function draw(step, prev, ctx) {
  const { h, t } = ctx;
  const v = step.view;
  let title;
  const said = [];
  if (step.end) {
    title = t('rp.ended');
    said.push(title);
  } else if (step.round) {
    title = t('rpb.start');
    said.push(title);
  } else {
    const [seat, move] = Object.entries(step.moves || {})[0] || ['0', ''];
    const place = /^(-?\d+),(-?\d+),(\d)$/.exec(move);
    title = place ? t('rpb.placed_at', { name: who(seat, ctx), x: place[1], y: place[2] }) : t('rp.move', { name: ctx.name(seat), move });
    said.push(`${title}${place && place[3] !== '0' ? ` ${t('rpb.turned', { deg: Number(place[3]) * 90 })}` : ''}.`);
    const formed = (v.diamonds || []).length - (prev?.view.diamonds || []).length;
    if (formed > 0) said.push(t('rpb.diamonds', { n: formed }));
  }
  if (v.scores) said.push(t('rp.final'));
  const node = h('div', { class: 'rp-booty' },
    h('p', { class: 'rp-say', text: said.join(' ') }),
    board(v, said.join(' '), ctx),
    v.scores ? finalScores(v, ctx) : null);
  return { title, say: said.join(' '), node };
}
