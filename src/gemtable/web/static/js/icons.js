// Small SVG drawings (24×24), so hazards, gems and moves are told apart by shape and name,
// never by colour alone, and render the same on every phone (no emoji font needed).

import { s } from './dom.js';

const L = (d, cls = 'ln') => ['path', { d, class: cls }];

const SPIDER_LEGS = 'M8.6 12 4.5 9 3 5M8.2 14 3.5 13 1.5 10.5M8.4 16 4 18.5 3 22M9.8 17.5 7.5 21 7.2 23.5';
const mirror = (d) => d.replace(/(\d+(?:\.\d+)?) (\d+(?:\.\d+)?)/g, (m, x, y) => `${+(24 - x).toFixed(1)} ${y}`);

export const DRAWINGS = {
  gem: [['path', { d: 'M6 3h12l4 6-10 12L2 9z', class: 'f-gem' }], L('M2 9h20M9.5 3 7 9l5 12 5-12-2.5-6')],
  ruby: [['path', { d: 'M6 3h12l4 6-10 12L2 9z', class: 'f-ruby' }], L('M2 9h20M9.5 3 7 9l5 12 5-12-2.5-6')],
  diamond: [['path', { d: 'M6 3h12l4 6-10 12L2 9z', class: 'f-diamond' }], L('M2 9h20M9.5 3 7 9l5 12 5-12-2.5-6')],
  snakes: [
    L('M3.5 21.5c5 0 10-1.5 8.5-5.5S4.5 11.5 7.5 7.5 14 5 16.5 5', 'st-snake'),
    ['ellipse', { cx: 18.6, cy: 5, rx: 3.2, ry: 2.3, class: 'f-snake' }],
    ['circle', { cx: 19.4, cy: 4.3, r: 0.7, class: 'f-eye' }],
    L('M21.6 5.2 23.6 4M21.6 5.2l2 1.3', 'st-tongue'),
  ],
  spiders: [
    L(SPIDER_LEGS + mirror(SPIDER_LEGS), 'st-legs'),
    ['circle', { cx: 12, cy: 14.5, r: 4.4, class: 'f-spider' }],
    ['circle', { cx: 12, cy: 8.6, r: 2.8, class: 'f-spider' }],
    ['circle', { cx: 11, cy: 8.2, r: 0.6, class: 'f-eye-r' }],
    ['circle', { cx: 13, cy: 8.2, r: 0.6, class: 'f-eye-r' }],
  ],
  mummies: [
    ['rect', { x: 6, y: 2, width: 12, height: 20.5, rx: 6, class: 'f-mummy' }],
    L('M6.3 6.8 17.7 5.2M6 14.2l12 1.6M6 17.6l12-1.4M7 20.4l10.4.8M6 12l12-.8'),
    ['circle', { cx: 9.5, cy: 9.6, r: 1.4, class: 'f-dark' }],
    ['circle', { cx: 14.5, cy: 9.4, r: 1.4, class: 'f-dark' }],
  ],
  fire: [
    ['path', { d: 'M12 1.5c.8 3.5 3.6 5.2 5.3 8 1.9 3.1 1.6 7.1-.9 9.5a6.6 6.6 0 0 1-10.8-2.3c-.7-3 .8-5.7 2.7-7.5.2 1.7.9 3 2.1 3.6-.5-4.2-.2-8.2 1.6-11.3z', class: 'f-fire' }],
    ['path', { d: 'M12 11.5c1.6 1.8 3.2 3.4 2.9 5.9a2.9 2.9 0 0 1-5.8.1c-.1-1.9 1.2-3.5 2.9-6z', class: 'f-flame' }],
  ],
  rockfall: [
    L('M6 1.5v3.5M11.5 1v2.5M17.5 2v3.5', 'st-motion'),
    ['path', { d: 'M9.5 7.5 13 6l2 2.8-1.5 3-3.8.2z', class: 'f-rock' }],
    ['path', { d: 'M1.5 22.5 3 17l4.5-1.5 3 2.5.5 4.5z', class: 'f-rock' }],
    ['path', { d: 'M11.5 22.5l1-6.5 5-3.5 5 3 .5 7z', class: 'f-rock2' }],
  ],
  relic: [
    ['path', { d: 'M9 2h6v2.6c0 .9 3.6 2.4 3.6 6.6 0 3.4-1.9 5.8-3 6.8l1 4H7.4l1-4c-1.1-1-3-3.4-3-6.8C5.4 7 9 5.5 9 4.6z', class: 'f-relic' }],
    L('M5.8 10.5h12.4M8 14h8'),
  ],
  taken: [['path', { d: 'M9 2h6v2.6c0 .9 3.6 2.4 3.6 6.6 0 3.4-1.9 5.8-3 6.8l1 4H7.4l1-4c-1.1-1-3-3.4-3-6.8C5.4 7 9 5.5 9 4.6z', class: 'f-none' }]],
  camp: [
    ['path', { d: 'M12 3 22.5 21h-21z', class: 'f-tent' }],
    ['path', { d: 'M12 10.5 15.6 21H8.4z', class: 'f-door' }],
    L('M12 3 10.5 .8M12 3l1.5-2.2'),
  ],
  deeper: [
    ['path', { d: 'M1.5 22.5V13a10.5 10.5 0 0 1 21 0v9.5z', class: 'f-cave' }],
    L('M12 7.5v10M7.8 13.4 12 17.6l4.2-4.2', 'st-arrow'),
  ],
  check: [L('M3.5 12.5l5.5 5.5L20.5 6', 'st-check')],
  star: [['path', { d: 'M12 1.8l3 6.6 7.2.8-5.4 4.9 1.5 7.1L12 17.6l-6.3 3.6 1.5-7.1-5.4-4.9 7.2-.8z', class: 'f-star' }]],
  person: [
    ['circle', { cx: 12, cy: 7.5, r: 4.5, class: 'f-person' }],
    ['path', { d: 'M3.5 22.5c0-5.2 3.8-8.8 8.5-8.8s8.5 3.6 8.5 8.8z', class: 'f-person' }],
  ],
  bot: [
    ['rect', { x: 4, y: 7, width: 16, height: 13, rx: 3, class: 'f-bot' }],
    ['circle', { cx: 9, cy: 13, r: 1.8, class: 'f-eye' }],
    ['circle', { cx: 15, cy: 13, r: 1.8, class: 'f-eye' }],
    L('M12 7V3.5M9 17.2h6'),
  ],
};

/** An inline SVG icon; `label` makes it an image with a name, else it is decorative. */
export function icon(name, label = '', cls = '') {
  const parts = DRAWINGS[name] || DRAWINGS.gem;
  const attrs = { viewBox: '0 0 24 24', class: `icon i-${name} ${cls}`.trim(), focusable: 'false' };
  if (label) Object.assign(attrs, { role: 'img', 'aria-label': label });
  else attrs['aria-hidden'] = 'true';
  return s('svg', attrs, parts.map(([tag, a]) => s(tag, a)));
}
