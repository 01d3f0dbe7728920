// The expedition's rules page (/rules/expedition?preset=table|classic): its manifest names this module.

import { h } from '/static/js/dom.js';
import { t } from '/static/js/i18n.js';
import { icon } from '/static/js/icons.js';
import { drawCard, HAZARDS } from './page.js';

const PRESETS = {
  table: { min: 2, max: 8, caves: 5, relics: true, split: 'pooled', display: 'gems' },
  classic: { min: 3, max: 8, caves: 5, relics: false, split: 'per_card', display: 'rubies' },
};
const TREASURES = '1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17';

const section = (title, ...body) => h('section', { class: 'panel' }, h('h2', { text: title }), body);
const p = (text) => h('p', { text });

/** The page for one preset. */
export function render(presetName) {
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
    section(t('rules.exp.clock_h'), p(t('rules.exp.clock')), h('p', { class: 'big silence-rule', text: t('exp.silence') }),
      p(t('rules.exp.late')), p(t('rules.exp.absent'))),
    section(t('rules.exp.end_h'), p(t('rules.exp.end', { caves: preset.caves })),
      p(t('rules.exp.deck', { treasures: TREASURES }))),
    h('p', null, h('a', { href: presetName === 'classic' ? '/rules/expedition' : '/rules/expedition?preset=classic',
      text: presetName === 'classic' ? t('preset.expedition.table') : t('preset.expedition.classic') })),
  ];
}
