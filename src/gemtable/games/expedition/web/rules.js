// The expedition's rules page (/rules/expedition?preset=table|classic): its manifest names this module.

import { h } from '/static/js/dom.js';
import { t, currentLang } from '/static/js/i18n.js';
import { icon } from '/static/js/icons.js';
import { drawCard, HAZARDS } from './page.js';

const PRESETS = {
  table: { min: 2, max: 8, caves: 5, relics: true, split: 'pooled', display: 'gems' },
  classic: { min: 3, max: 8, caves: 5, relics: false, split: 'per_card', display: 'rubies' },
};
const TREASURES = '1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17';

const words = {};
/** The rules page's own words (rules.LANG.json beside this module, so the phone does not carry them). */
async function texts() {
  const lang = currentLang();
  words[lang] ??= await fetch(new URL(`rules.${lang}.json`, import.meta.url)).then((res) => res.json());
  return words[lang];
}

const section = (title, ...body) => h('section', { class: 'panel' }, h('h2', { text: title }), body);
const p = (text) => h('p', { text });

/** The page for one preset. */
export async function render(presetName) {
  const own = await texts();
  const r = (key, vars = {}) => (own[key] ?? key).replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
  const preset = PRESETS[presetName] || PRESETS.table;
  const rules = { gem_display: preset.display };
  const classic = preset.display === 'rubies';
  return [
    h('h1', { text: r('rules.exp.title') }),
    h('p', { class: 'big', text: t(`preset.expedition.${presetName in PRESETS ? presetName : 'table'}`) }),
    p(r('rules.exp.intro', { min: preset.min, max: preset.max, caves: preset.caves })),
    section(r('rules.exp.cave_h'), p(r('rules.exp.cave')),
      h('div', { class: 'card-row' },
        h('span', { class: 'btn primary' }, icon('deeper'), t('exp.deeper')),
        h('span', { class: 'btn' }, icon('camp'), t('exp.camp')))),
    section(r('rules.exp.treasure_h'),
      h('div', { class: 'card-row' }, drawCard('5', { rules }), drawCard('7', { rules, lying: 1 }), drawCard('14', { rules })),
      p(r('rules.exp.treasure')),
      classic ? h('p', { class: 'big' }, icon('ruby'), ' ×5 = ', icon('diamond'), ' ', r('rules.exp.rubies')) : null),
    section(r('rules.exp.hazard_h'),
      h('div', { class: 'card-row' }, HAZARDS.map((k) => drawCard(k))),
      p(r('rules.exp.hazard')),
      h('div', { class: 'card-row' }, drawCard('spiders', { cls: 'warned' }), drawCard('9', { rules }),
        drawCard('spiders', { cls: 'collapser' }), h('strong', { class: 'warn', text: `→ ${t('exp.collapse')}` }))),
    preset.relics
      ? section(r('rules.exp.relic_h'), h('div', { class: 'card-row' }, drawCard('relic')), p(r('rules.exp.relic')))
      : section(r('rules.exp.relic_h'), p(r('rules.exp.no_relic'))),
    section(r('rules.exp.camp_h'), p(r('rules.exp.camp')),
      p(preset.split === 'per_card' ? r('rules.exp.split_card') : r('rules.exp.split_pooled'))),
    section(r('rules.exp.clock_h'), p(r('rules.exp.clock')), p(r('rules.exp.more_time')),
      h('p', { class: 'big silence-rule', text: t('exp.silence') }),
      p(r('rules.exp.late')), p(r('rules.exp.absent')), p(r('rules.exp.switch'))),
    section(r('rules.exp.end_h'), p(r('rules.exp.end', { caves: preset.caves })),
      p(r('rules.exp.deck', { treasures: TREASURES }))),
    h('p', null, h('a', { href: presetName === 'classic' ? '/rules/expedition' : '/rules/expedition?preset=classic',
      text: presetName === 'classic' ? t('preset.expedition.table') : t('preset.expedition.classic') })),
  ];
}
