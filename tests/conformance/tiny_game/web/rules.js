// Pick's rules page (/rules/pick): its manifest names this module.

import { h } from '/static/js/dom.js';
import { t } from '/static/js/i18n.js';

export function render() {
  return [
    h('h1', { class: 'pick-rules-title', text: t('pick.rules_title') }),
    h('section', { class: 'panel pick-rules' }, h('p', { text: t('pick.rules_body') }), h('p', { text: t('pick.rules_score') })),
  ];
}
