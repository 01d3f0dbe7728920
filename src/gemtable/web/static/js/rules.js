// The rules page: /rules/expedition (?preset=table|classic) and /rules/booty.

import { h, $, put } from './dom.js';
import { t, initLang, langSwitch, onLang } from './i18n.js';
import { icon } from './icons.js';
import { drawCard, HAZARDS } from './expedition.js';

const PRESETS = {
  table: { min: 2, max: 8, caves: 5, relics: true, split: 'pooled', display: 'gems' },
  classic: { min: 3, max: 8, caves: 5, relics: false, split: 'per_card', display: 'rubies' },
};
const TREASURES = '1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17';

const section = (title, ...body) => h('section', { class: 'panel' }, h('h2', { text: title }), body);
const p = (text) => h('p', { text });

function expedition(presetName) {
  const preset = PRESETS[presetName] || PRESETS.table;
  const rules = { gem_display: preset.display };
  const classic = preset.display === 'rubies';
  return [
    h('h1', { text: t('rules.exp.title') }),
    h('p', { class: 'big', text: t(`preset.expedition.${presetName in PRESETS ? presetName : 'table'}`) }),
    p(t('rules.exp.intro', { min: preset.min, max: preset.max, caves: preset.caves })),
    section(t('rules.exp.cave_h'), p(t('rules.exp.cave')),
      h('div', { class: 'card-row' },
        h('span', { class: 'btn primary' }, icon('deeper'), t('exp.deeper')),
        h('span', { class: 'btn' }, icon('camp'), t('exp.camp')))),
    section(t('rules.exp.treasure_h'),
      h('div', { class: 'card-row' }, drawCard('5', { rules }), drawCard('7', { rules, lying: 1 }), drawCard('14', { rules })),
      p(t('rules.exp.treasure')),
      classic ? h('p', { class: 'big' }, icon('ruby'), ' ×5 = ', icon('diamond'), ' ', t('rules.exp.rubies')) : null),
    section(t('rules.exp.hazard_h'),
      h('div', { class: 'card-row' }, HAZARDS.map((k) => drawCard(k))),
      p(t('rules.exp.hazard')),
      h('div', { class: 'card-row' }, drawCard('spiders', { cls: 'warned' }), drawCard('9', { rules }),
        drawCard('spiders', { cls: 'collapser' }), h('strong', { class: 'warn', text: `→ ${t('exp.collapse')}` }))),
    preset.relics
      ? section(t('rules.exp.relic_h'), h('div', { class: 'card-row' }, drawCard('relic')), p(t('rules.exp.relic')))
      : section(t('rules.exp.relic_h'), p(t('rules.exp.no_relic'))),
    section(t('rules.exp.camp_h'), p(t('rules.exp.camp')),
      p(preset.split === 'per_card' ? t('rules.exp.split_card') : t('rules.exp.split_pooled'))),
    section(t('rules.exp.clock_h'), p(t('rules.exp.clock')), p(t('rules.exp.late'))),
    section(t('rules.exp.end_h'), p(t('rules.exp.end', { caves: preset.caves })),
      p(t('rules.exp.deck', { treasures: TREASURES }))),
    h('p', null, h('a', { href: presetName === 'classic' ? '/rules/expedition' : '/rules/expedition?preset=classic',
      text: presetName === 'classic' ? t('preset.expedition.table') : t('preset.expedition.classic') })),
  ];
}

function booty() {
  return [
    h('h1', { text: t('rules.booty.title') }),
    p(t('rules.booty.intro')),
    section(t('rules.booty.play_h'), h('ol', null, [1, 2, 3, 4].map((i) => h('li', { text: t(`rules.booty.play${i}`) })))),
    section(t('rules.booty.score_h'), h('ul', null, [1, 2, 3].map((i) => h('li', { text: t(`rules.booty.score${i}`) })))),
    h('p', { class: 'wait', text: t('rules.booty.soon') }),
  ];
}

function render() {
  const game = location.pathname.split('/')[2] || '';
  const preset = new URLSearchParams(location.search).get('preset') || 'table';
  const body = game === 'expedition' ? expedition(preset) : game === 'booty' ? booty()
    : [h('h1', { text: t('rules.unknown') }), h('p', null, h('a', { href: '/rules/expedition', text: t('game.expedition') }))];
  put($('#rules'), body);
}

async function main() {
  await initLang();
  $('#lang-slot').replaceWith(langSwitch());
  onLang(render);
  render();
}

main();
